/*
 * nc_sfp.c - binary32/binary64 add, min and max on bit patterns (nc_sfp.h).
 *
 * add aligns the smaller operand to the larger one's exponent with three
 * extra low bits (guard, round and a sticky bit that ORs everything shifted
 * out), adds or subtracts the significands, normalizes, and rounds to
 * nearest even once.  Three extra bits suffice: an exponent difference of
 * 0 or 1 loses no bit in the alignment, and a larger one cancels at most one
 * leading bit.  Subnormals are significands with exponent 1 and no hidden
 * bit, so the same path handles them, and the result's exponent field is
 * (e - 1) << FRAC_BITS plus a significand that still has its hidden bit:
 * a subnormal result (no hidden bit) gets field 0, and a rounding carry
 * into the hidden bit moves it to the next exponent for free.
 */
#include "nc_sfp.h"

/* Leading zeros of v != 0: the LANai's leadz instruction where the compiler
 * has it, a binary search where it has not (Frama-C). */
/*@ requires v != 0;
    assigns \nothing;
    ensures 0 <= \result <= 31;
*/
static unsigned clz32(uint32_t v)
{
#if defined(__GNUC__) && !defined(__FRAMAC__)
    return (unsigned)__builtin_clz(v);
#else
    unsigned n = 0;
    if (v <= 0xFFFFu) { n += 16; v = v << 16; }
    if (v <= 0xFFFFFFu) { n += 8; v = v << 8; }
    if (v <= 0xFFFFFFFu) { n += 4; v = v << 4; }
    if (v <= 0x3FFFFFFFu) { n += 2; v = v << 2; }
    if (v <= 0x7FFFFFFFu) { n += 1; }
    return n;
#endif
}

/*@ requires v != 0;
    assigns \nothing;
    ensures 0 <= \result <= 63;
*/
static unsigned clz64(uint64_t v)
{
    uint32_t hi = (uint32_t)(v >> 32);
    if (hi)
        return clz32(hi);
    return 32u + clz32((uint32_t)(v & 0xFFFFFFFFu));
}

uint32_t nc_f32_add(uint32_t x, uint32_t y)
{
    uint32_t ax = x & ~NC_F32_SIGN, ay = y & ~NC_F32_SIGN;
    if (ax > NC_F32_EXP)
        return x | NC_F32_QUIET;
    if (ay > NC_F32_EXP)
        return y | NC_F32_QUIET;
    if (ax == NC_F32_EXP)
        return (ay == NC_F32_EXP && ((x ^ y) & NC_F32_SIGN)) ? NC_F32_DEFNAN : x;
    if (ay == NC_F32_EXP)
        return y;
    if ((ax | ay) == 0)
        return x & y;                   /* -0 only for -0 + -0 */
    if (ay == 0)
        return x;
    if (ax == 0)
        return y;
    if (ax < ay) {                      /* |x| >= |y| from here on */
        uint32_t t = x; x = y; y = t;
        t = ax; ax = ay; ay = t;
    }
    uint32_t sign = x & NC_F32_SIGN;
    uint32_t ex = ax >> 23, ey = ay >> 23;
    uint32_t mx = (ax & NC_F32_FRAC) | (ex ? 0x800000u : 0);
    uint32_t my = (ay & NC_F32_FRAC) | (ey ? 0x800000u : 0);
    if (!ex) ex = 1;
    if (!ey) ey = 1;
    mx <<= 3;                           /* < 2^27 */
    my <<= 3;
    uint32_t d = ex - ey;
    if (d > 27)
        my = 1;
    else if (d)
        my = (my >> d) | ((my & ((1u << d) - 1)) != 0);
    uint32_t m, e = ex;
    if (!((x ^ y) & NC_F32_SIGN)) {
        m = mx + my;
        if (m >> 27) {
            m = (m >> 1) | (m & 1);
            e++;
        }
    } else {
        m = mx - my;
        if (!m)
            return 0;                   /* exact cancellation: +0 */
        uint32_t sh = clz32(m) - 5;     /* bring the top bit to bit 26 */
        if (sh > e - 1)
            sh = e - 1;                 /* ... unless the result is subnormal */
        m <<= sh;
        e -= sh;
    }
    uint32_t r = m & 7;
    m >>= 3;
    if (r > 4 || (r == 4 && (m & 1))) {
        m++;
        if (m >> 24) {
            m >>= 1;
            e++;
        }
    }
    if (e >= 255)
        return sign | NC_F32_EXP;
    return sign | (((e - 1) << 23) + m);
}

uint64_t nc_f64_add(uint64_t x, uint64_t y)
{
    uint64_t ax = x & ~NC_F64_SIGN, ay = y & ~NC_F64_SIGN;
    if (ax > NC_F64_EXP)
        return x | NC_F64_QUIET;
    if (ay > NC_F64_EXP)
        return y | NC_F64_QUIET;
    if (ax == NC_F64_EXP)
        return (ay == NC_F64_EXP && ((x ^ y) & NC_F64_SIGN)) ? NC_F64_DEFNAN : x;
    if (ay == NC_F64_EXP)
        return y;
    if ((ax | ay) == 0)
        return x & y;
    if (ay == 0)
        return x;
    if (ax == 0)
        return y;
    if (ax < ay) {
        uint64_t t = x; x = y; y = t;
        t = ax; ax = ay; ay = t;
    }
    uint64_t sign = x & NC_F64_SIGN;
    uint32_t ex = (uint32_t)(ax >> 52), ey = (uint32_t)(ay >> 52);
    uint64_t mx = (ax & NC_F64_FRAC) | (ex ? 0x10000000000000ull : 0);
    uint64_t my = (ay & NC_F64_FRAC) | (ey ? 0x10000000000000ull : 0);
    if (!ex) ex = 1;
    if (!ey) ey = 1;
    mx <<= 3;                           /* < 2^56 */
    my <<= 3;
    uint32_t d = ex - ey;
    if (d > 56)
        my = 1;
    else if (d)
        my = (my >> d) | ((my & ((1ull << d) - 1)) != 0);
    uint64_t m;
    uint32_t e = ex;
    if (!((x ^ y) & NC_F64_SIGN)) {
        m = mx + my;
        if (m >> 56) {
            m = (m >> 1) | (m & 1);
            e++;
        }
    } else {
        m = mx - my;
        if (!m)
            return 0;
        uint32_t sh = clz64(m) - 8;     /* top bit to bit 55 */
        if (sh > e - 1)
            sh = e - 1;
        m <<= sh;
        e -= sh;
    }
    uint32_t r = (uint32_t)(m & 7);
    m >>= 3;
    if (r > 4 || (r == 4 && (m & 1))) {
        m++;
        if (m >> 53) {
            m >>= 1;
            e++;
        }
    }
    if (e >= 2047)
        return sign | NC_F64_EXP;
    return sign | (((uint64_t)(e - 1) << 52) + m);
}

int nc_f32_lt(uint32_t a, uint32_t b)
{
    uint32_t aa = a & ~NC_F32_SIGN, ab = b & ~NC_F32_SIGN;
    if (aa > NC_F32_EXP || ab > NC_F32_EXP || (aa | ab) == 0)
        return 0;
    if (a & NC_F32_SIGN)
        return (b & NC_F32_SIGN) ? aa > ab : 1;
    return (b & NC_F32_SIGN) ? 0 : aa < ab;
}

int nc_f64_lt(uint64_t a, uint64_t b)
{
    uint64_t aa = a & ~NC_F64_SIGN, ab = b & ~NC_F64_SIGN;
    if (aa > NC_F64_EXP || ab > NC_F64_EXP || (aa | ab) == 0)
        return 0;
    if (a & NC_F64_SIGN)
        return (b & NC_F64_SIGN) ? aa > ab : 1;
    return (b & NC_F64_SIGN) ? 0 : aa < ab;
}

uint32_t nc_f32_max(uint32_t acc, uint32_t in) { return nc_f32_lt(acc, in) ? in : acc; }
uint32_t nc_f32_min(uint32_t acc, uint32_t in) { return nc_f32_lt(in, acc) ? in : acc; }
uint64_t nc_f64_max(uint64_t acc, uint64_t in) { return nc_f64_lt(acc, in) ? in : acc; }
uint64_t nc_f64_min(uint64_t acc, uint64_t in) { return nc_f64_lt(in, acc) ? in : acc; }
