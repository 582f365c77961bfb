/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Division libcalls for 32- and 64-bit integers, by shift-and-subtract.
 * clang calls these for every / and % (even by constants) on the LANai.
 *
 * Division by zero does not trap (the LANai has no trap for it); the result
 * is defined, as on RISC-V:
 *     unsigned  x / 0 = all ones      x % 0 = x
 *     signed    x / 0 = -1            x % 0 = x
 * and the one signed overflow, MIN / -1, gives MIN with remainder 0.
 * docs/runtime.md repeats this table; tests/unit/test_runtime.c checks it.
 */
#include <stdint.h>

#include "lanai-rt.h"

static uint32_t udivmod32(uint32_t n, uint32_t d, uint32_t *rem)
{
    uint32_t q = 0, r = 0;

    if (d == 0) {
        *rem = n;
        return 0xFFFFFFFFu;
    }
    for (int i = 31; i >= 0; i--) {
        r = (r << 1) | ((n >> i) & 1);
        if (r >= d) {
            r -= d;
            q |= 1u << i;
        }
    }
    *rem = r;
    return q;
}

uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem)
{
    uint64_t q = 0, r = 0;

    if (d == 0) {
        if (rem)
            *rem = n;
        return ~(uint64_t)0;
    }
    if ((n >> 32) == 0 && (d >> 32) == 0) { /* common case: 32-bit operands */
        uint32_t r32, q32 = udivmod32((uint32_t)n, (uint32_t)d, &r32);
        if (rem)
            *rem = r32;
        return q32;
    }
    for (int i = 63; i >= 0; i--) {
        /* r < d <= 2^64-1, and the top bit of r before the shift decides
         * whether r<<1|bit overflows: then it is certainly >= d. */
        uint64_t top = r >> 63;
        r = (r << 1) | ((n >> i) & 1);
        if (top || r >= d) {
            r -= d;
            q |= (uint64_t)1 << i;
        }
    }
    if (rem)
        *rem = r;
    return q;
}

uint32_t __udivsi3(uint32_t n, uint32_t d)
{
    uint32_t r;
    return udivmod32(n, d, &r);
}

uint32_t __umodsi3(uint32_t n, uint32_t d)
{
    uint32_t r;
    udivmod32(n, d, &r);
    return r;
}

int32_t __divsi3(int32_t n, int32_t d)
{
    uint32_t un = n < 0 ? 0u - (uint32_t)n : (uint32_t)n;
    uint32_t ud = d < 0 ? 0u - (uint32_t)d : (uint32_t)d;
    uint32_t r, q;

    if (d == 0)
        return -1;
    q = udivmod32(un, ud, &r);
    return (int32_t)(((n < 0) != (d < 0)) ? 0u - q : q); /* MIN/-1 wraps to MIN */
}

int32_t __modsi3(int32_t n, int32_t d)
{
    uint32_t un = n < 0 ? 0u - (uint32_t)n : (uint32_t)n;
    uint32_t ud = d < 0 ? 0u - (uint32_t)d : (uint32_t)d;
    uint32_t r;

    if (d == 0)
        return n;
    udivmod32(un, ud, &r);
    return (int32_t)(n < 0 ? 0u - r : r); /* the remainder takes n's sign */
}

uint64_t __udivdi3(uint64_t n, uint64_t d)
{
    return __udivmoddi4(n, d, 0);
}

uint64_t __umoddi3(uint64_t n, uint64_t d)
{
    uint64_t r;
    __udivmoddi4(n, d, &r);
    return r;
}

int64_t __divdi3(int64_t n, int64_t d)
{
    uint64_t un = n < 0 ? 0u - (uint64_t)n : (uint64_t)n;
    uint64_t ud = d < 0 ? 0u - (uint64_t)d : (uint64_t)d;
    uint64_t q;

    if (d == 0)
        return -1;
    q = __udivmoddi4(un, ud, 0);
    return (int64_t)(((n < 0) != (d < 0)) ? 0u - q : q);
}

int64_t __moddi3(int64_t n, int64_t d)
{
    uint64_t un = n < 0 ? 0u - (uint64_t)n : (uint64_t)n;
    uint64_t ud = d < 0 ? 0u - (uint64_t)d : (uint64_t)d;
    uint64_t r;

    if (d == 0)
        return n;
    __udivmoddi4(un, ud, &r);
    return (int64_t)(n < 0 ? 0u - r : r);
}
