/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memcpy, memset, memmove, memcmp. clang calls the first three for struct
 * copies and large initialisations (lanai-isa.md section 11), so they must
 * exist as real functions. This file is compiled with -ffreestanding
 * -fno-builtin so the loops are not turned back into calls to themselves.
 * Word-at-a-time when both pointers are word aligned, bytes otherwise.
 */
#include <stddef.h>
#include <stdint.h>

#include "lanai-rt.h"

void *memcpy(void *dst, const void *src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;

    if ((((uintptr_t)d | (uintptr_t)s) & 3) == 0) {
        for (; n >= 4; n -= 4, d += 4, s += 4)
            *(uint32_t *)d = *(const uint32_t *)s;
    }
    while (n--)
        *d++ = *s++;
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    uint8_t *d = dst;
    uint32_t w = (uint8_t)c;

    w |= w << 8;
    w |= w << 16;
    while (n && ((uintptr_t)d & 3)) {
        *d++ = (uint8_t)c;
        n--;
    }
    for (; n >= 4; n -= 4, d += 4)
        *(uint32_t *)d = w;
    while (n--)
        *d++ = (uint8_t)c;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;

    if (d == s || n == 0)
        return dst;
    if (d < s || d >= s + n)
        return memcpy(dst, src, n); /* forward copy is safe */
    /* overlapping with dst above src: copy backwards */
    d += n;
    s += n;
    if ((((uintptr_t)d | (uintptr_t)s) & 3) == 0) {
        for (; n >= 4; n -= 4) {
            d -= 4;
            s -= 4;
            *(uint32_t *)d = *(const uint32_t *)s;
        }
    }
    while (n--)
        *--d = *--s;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const uint8_t *x = a, *y = b;

    for (; n; n--, x++, y++)
        if (*x != *y)
            return *x < *y ? -1 : 1;
    return 0;
}
