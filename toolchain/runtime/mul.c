/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Multiplication libcalls. The LANai has no multiplier, and clang calls
 * these for * on int and long long (lanai-isa.md section 11). Written with
 * shifts and adds only: a '*' here would call the function itself.
 * Results are the low 32 (64) bits, which is the same for signed and
 * unsigned operands in two's complement.
 */
#include <stdint.h>

#include "lanai-rt.h"

int32_t __mulsi3(int32_t a, int32_t b)
{
    uint32_t x = (uint32_t)a, y = (uint32_t)b, r = 0;

    while (y) {
        if (y & 1)
            r += x;
        x <<= 1;
        y >>= 1;
    }
    return (int32_t)r;
}

int64_t __muldi3(int64_t a, int64_t b)
{
    uint64_t x = (uint64_t)a, y = (uint64_t)b, r = 0;

    while (y) {
        if (y & 1)
            r += x;
        x <<= 1;
        y >>= 1;
    }
    return (int64_t)r;
}
