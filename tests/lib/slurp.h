/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests: read a whole file into malloc'ed memory (NULL if it cannot). */
#ifndef NICOLL_TEST_SLURP_H
#define NICOLL_TEST_SLURP_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static inline uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *b = NULL;
    long n;

    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) ||
        !(b = malloc((size_t)n)) || fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

#endif
