/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * 64-bit shift libcalls. clang inlines << and unsigned >> on long long but
 * calls __ashrdi3 for signed >>; the other two are here for code built with
 * other options. Each works on 32-bit halves, so none calls itself.
 * Shift amounts are taken modulo 64, like the hardware would for 32 bits.
 */
#include <stdint.h>

#include "lanai-rt.h"

static uint64_t join(uint32_t hi, uint32_t lo)
{
    return (uint64_t)hi << 32 | lo;
}

int64_t __ashrdi3(int64_t a, int32_t b)
{
    uint32_t hi = (uint32_t)((uint64_t)a >> 32), lo = (uint32_t)a;
    uint32_t sign = (hi & 0x80000000u) ? 0xFFFFFFFFu : 0;
    unsigned n = (unsigned)b & 63;

    if (n == 0)
        return a;
    if (n >= 32) {
        lo = (n == 32) ? hi : (hi >> (n - 32)) | (sign << (64 - n));
        hi = sign;
    } else {
        lo = (lo >> n) | (hi << (32 - n));
        hi = (hi >> n) | (sign << (32 - n));
    }
    return (int64_t)join(hi, lo);
}

int64_t __ashldi3(int64_t a, int32_t b)
{
    uint32_t hi = (uint32_t)((uint64_t)a >> 32), lo = (uint32_t)a;
    unsigned n = (unsigned)b & 63;

    if (n == 0)
        return a;
    if (n >= 32) {
        hi = lo << (n - 32);
        lo = 0;
    } else {
        hi = (hi << n) | (lo >> (32 - n));
        lo <<= n;
    }
    return (int64_t)join(hi, lo);
}

int64_t __lshrdi3(int64_t a, int32_t b)
{
    uint32_t hi = (uint32_t)((uint64_t)a >> 32), lo = (uint32_t)a;
    unsigned n = (unsigned)b & 63;

    if (n == 0)
        return a;
    if (n >= 32) {
        lo = hi >> (n - 32);
        hi = 0;
    } else {
        lo = (lo >> n) | (hi << (32 - n));
        hi >>= n;
    }
    return (int64_t)join(hi, lo);
}
