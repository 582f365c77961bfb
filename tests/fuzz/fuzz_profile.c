/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: the platform-profile parser. Whatever it accepts must
 * print to a normalised form that parses again to the same text (the round
 * trip the tests check on real files), and the timing helpers must run on
 * it for every node class. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *print(const struct profile *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        abort();
    profile_write(p, f);
    fclose(f);
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct profile p, q;
    char err[512];
    char *a, *b;

    if (profile_parse(&p, "fuzz", (const char *)data, size, err, sizeof err)) {
        if (strncmp(err, "fuzz", 4))
            abort();            /* every message names the file */
        return 0;
    }
    a = print(&p);
    if (profile_parse(&q, "again", a, strlen(a), err, sizeof err))
        abort();                /* the normalised form must parse */
    b = print(&q);
    if (strcmp(a, b))
        abort();                /* and be a fixed point */
    free(a);
    free(b);
    for (unsigned n = 0; n < p.nodes && n < 64; n++) {
        const struct profile_params *pp = profile_node(&p, n);
        (void)profile_nic_ps(pp, 1000000);
        (void)profile_dma_ps(pp, n & 1, 65536);
        (void)profile_copy_ps(pp, 65536);
    }
    (void)profile_wire_ps(&p, 16384);
    if (profile_lookahead_ps(&p) == 0)
        abort();                /* the ranges keep every interaction > 0 */
    return 0;
}
