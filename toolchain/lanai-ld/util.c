/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Arena allocation, messages and big-endian helpers for lanai-ld. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ld.h"

/* Every allocation of a link is chained here and released by ld_free(), so
 * a failed link (longjmp out of anywhere) leaks nothing. */
struct chunk {
    struct chunk *next;
    max_align_t data[];
};
static struct chunk *arena;

void *ld_alloc(size_t n)
{
    struct chunk *c = calloc(1, sizeof *c + (n ? n : 1));

    if (!c) {
        fprintf(stderr, "lanai-ld: out of memory (%zu bytes)\n", n);
        exit(1);
    }
    c->next = arena;
    arena = c;
    return c->data;
}

void ld_free(void)
{
    while (arena) {
        struct chunk *n = arena->next;
        free(arena);
        arena = n;
    }
}

char *ld_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(ld_alloc(n), s, n);
}

char *ld_printf(const char *fmt, ...)
{
    va_list ap;
    int n;
    char *p;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    p = ld_alloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

static void vreport(struct ld *ld, const char *fmt, va_list ap)
{
    fputs("lanai-ld: error: ", ld->diag);
    vfprintf(ld->diag, fmt, ap);
    fputc('\n', ld->diag);
    ld->errors++;
}

void ld_err(struct ld *ld, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vreport(ld, fmt, ap);
    va_end(ap);
}

/* Report and abandon the link: malformed input leaves nothing to go on. */
void ld_fatal(struct ld *ld, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vreport(ld, fmt, ap);
    va_end(ap);
    longjmp(ld->fatal_jmp, 1);
}

uint32_t align_up(uint32_t v, uint32_t a)
{
    return a > 1 ? (v + a - 1) & ~(a - 1) : v;
}
