/*
 * nc_sfp.c - binary32/binary64 add, min and max on bit patterns (nc_sfp.h).
 *
 * add aligns the smaller operand to the larger one's exponent with three
 * extra low bits (guard, round and a sticky bit that ORs everything shifted
 * out), adds or subtracts the significands, normalizes, and rounds to
 * nearest even once.  Three extra bits suffice: an exponent difference of
 * 0 or 1 loses no bit in the alignment, and a larger one cancels at most one
 * leading bit.  Subnormals are significands with exponent 1 and no hidden
 * bit, so the same path handles them, and the result is sign + (e - 1) *
 * 2^FRAC_BITS + a significand that still has its hidden bit: a subnormal
 * result (no hidden bit) gets exponent field 0, and a rounding carry into
 * the hidden bit moves it to the next exponent for free.
 *
 * Fields are taken apart with constant divisions and remainders and put
 * together with additions, and a variable shift is a loop of constant ones,
 * so that every bound is plain arithmetic for the proofs (proofs/; they
 * check unsigned overflow too).
 * Normalizing after a cancellation doubles the significand once per lost
 * bit: one step for most operands, at most 55.
 */
#include "nc_sfp.h"

/* q with the sticky bit st ORed into its lowest bit. */
/*@ requires st == 0 || st == 1;
    requires q < 0xFFFFFFFFFFFFFFFF;
    assigns \nothing;
    ensures q <= \result <= q + 1;
*/
static uint64_t jam(uint64_t q, uint32_t st)
{
    return q + ((st && q % 2u == 0) ? 1u : 0u);
}

/* x >> d with the bits shifted out ORed into bit 0 (the sticky bit), for
 * 1 <= d <= 63: by bytes, then by bits (at most 7 + 7 steps). */
/*@ requires 1 <= d <= 63 && x < 0x100000000000000;
    assigns \nothing;
    ensures \result <= x + 1;
*/
static uint64_t shr_jam(uint64_t x, uint32_t d)
{
    uint32_t st = 0;
    /*@ loop invariant x <= \at(x, Pre) && st <= 1 && d <= 63;
        loop assigns x, d, st;
        loop variant d;
    */
    while (d >= 8u) {
        if (x % 256u)
            st = 1;
        x /= 256u;
        d -= 8u;
    }
    /*@ loop invariant x <= \at(x, Pre) && st <= 1 && d <= 7;
        loop assigns x, d, st;
        loop variant d;
    */
    while (d) {
        if (x % 2u)
            st = 1;
        x /= 2u;
        d--;
    }
    return jam(x, st);
}

uint32_t nc_f32_add(uint32_t x, uint32_t y)
{
    uint32_t ax = x % 0x80000000u, ay = y % 0x80000000u;
    if (ax > NC_F32_EXP)
        return x | NC_F32_QUIET;
    if (ay > NC_F32_EXP)
        return y | NC_F32_QUIET;
    uint32_t sx = x / 0x80000000u, sy = y / 0x80000000u;
    if (ax == NC_F32_EXP)
        return (ay == NC_F32_EXP && sx != sy) ? NC_F32_DEFNAN : x;
    if (ay == NC_F32_EXP)
        return y;
    if (ax == 0 && ay == 0)
        return x & y;                   /* -0 only for -0 + -0 */
    if (ay == 0)
        return x;
    if (ax == 0)
        return y;
    if (ax < ay) {                      /* |x| >= |y| from here on */
        uint32_t t = ax; ax = ay; ay = t;
        t = sx; sx = sy; sy = t;
    }
    uint32_t ex = ax / 0x800000u, ey = ay / 0x800000u;
    uint32_t mx = ax % 0x800000u + (ex ? 0x800000u : 0);
    uint32_t my = ay % 0x800000u + (ey ? 0x800000u : 0);
    if (!ex) ex = 1;
    if (!ey) ey = 1;
    mx *= 8u;                           /* < 2^27 */
    my *= 8u;
    uint32_t d = ex > ey ? ex - ey : 0; /* ex >= ey as |x| >= |y| */
    if (d > 27)
        my = 1;
    else if (d)
        my = (uint32_t)shr_jam(my, d);
    uint32_t m, e = ex;
    if (sx == sy) {
        m = mx + my;
        if (m >= 0x8000000u) {
            m = (uint32_t)jam(m / 2u, m % 2u);
            e++;
        }
    } else {
        if (my >= mx)
            return 0;                   /* exact cancellation: +0 */
        m = mx - my;
        /*@ loop invariant 0 < m < 0x8000000 && 1 <= e <= 254;
            loop assigns m, e;
            loop variant e;
        */
        while (m < 0x4000000u && e > 1u) {  /* top bit to bit 26, or subnormal */
            m *= 2u;
            e--;
        }
    }
    uint32_t r = m % 8u;
    m /= 8u;
    if (r > 4 || (r == 4 && m % 2u))
        m++;
    if (m >= 0x1000000u) {
        m /= 2u;
        e++;
    }
    if (e >= 255)
        return sx * 0x80000000u + NC_F32_EXP;
    return sx * 0x80000000u + (e - 1u) * 0x800000u + m;
}

uint64_t nc_f64_add(uint64_t x, uint64_t y)
{
    uint64_t ax = x % 0x8000000000000000ull, ay = y % 0x8000000000000000ull;
    if (ax > NC_F64_EXP)
        return x | NC_F64_QUIET;
    if (ay > NC_F64_EXP)
        return y | NC_F64_QUIET;
    uint32_t sx = (uint32_t)(x / 0x8000000000000000ull), sy = (uint32_t)(y / 0x8000000000000000ull);
    if (ax == NC_F64_EXP)
        return (ay == NC_F64_EXP && sx != sy) ? NC_F64_DEFNAN : x;
    if (ay == NC_F64_EXP)
        return y;
    if (ax == 0 && ay == 0)
        return x & y;
    if (ay == 0)
        return x;
    if (ax == 0)
        return y;
    if (ax < ay) {
        uint64_t t = ax; ax = ay; ay = t;
        uint32_t u = sx; sx = sy; sy = u;
    }
    uint32_t ex = (uint32_t)(ax / 0x10000000000000ull), ey = (uint32_t)(ay / 0x10000000000000ull);
    uint64_t mx = ax % 0x10000000000000ull + (ex ? 0x10000000000000ull : 0);
    uint64_t my = ay % 0x10000000000000ull + (ey ? 0x10000000000000ull : 0);
    if (!ex) ex = 1;
    if (!ey) ey = 1;
    mx *= 8u;                           /* < 2^56 */
    my *= 8u;
    uint32_t d = ex > ey ? ex - ey : 0;
    if (d > 56)
        my = 1;
    else if (d)
        my = shr_jam(my, d);
    uint64_t m;
    uint32_t e = ex;
    if (sx == sy) {
        m = mx + my;
        if (m >= 0x100000000000000ull) {
            m = jam(m / 2u, (uint32_t)(m % 2u));
            e++;
        }
    } else {
        if (my >= mx)
            return 0;
        m = mx - my;
        /*@ loop invariant 0 < m < 0x100000000000000 && 1 <= e <= 2046;
            loop assigns m, e;
            loop variant e;
        */
        while (m < 0x80000000000000ull && e > 1u) {  /* top bit to bit 55 */
            m *= 2u;
            e--;
        }
    }
    uint32_t r = (uint32_t)(m % 8u);
    m /= 8u;
    if (r > 4 || (r == 4 && m % 2u))
        m++;
    if (m >= 0x20000000000000ull) {
        m /= 2u;
        e++;
    }
    if (e >= 2047)
        return sx * 0x8000000000000000ull + NC_F64_EXP;
    return sx * 0x8000000000000000ull + (uint64_t)(e - 1u) * 0x10000000000000ull + m;
}

int nc_f32_lt(uint32_t a, uint32_t b)
{
    uint32_t aa = a % 0x80000000u, ab = b % 0x80000000u;
    if (aa > NC_F32_EXP || ab > NC_F32_EXP || (aa == 0 && ab == 0))
        return 0;
    if (a >= 0x80000000u)
        return b >= 0x80000000u ? aa > ab : 1;
    return b >= 0x80000000u ? 0 : aa < ab;
}

int nc_f64_lt(uint64_t a, uint64_t b)
{
    uint64_t aa = a % 0x8000000000000000ull, ab = b % 0x8000000000000000ull;
    if (aa > NC_F64_EXP || ab > NC_F64_EXP || (aa == 0 && ab == 0))
        return 0;
    if (a >= 0x8000000000000000ull)
        return b >= 0x8000000000000000ull ? aa > ab : 1;
    return b >= 0x8000000000000000ull ? 0 : aa < ab;
}

uint32_t nc_f32_max(uint32_t acc, uint32_t in) { return nc_f32_lt(acc, in) ? in : acc; }
uint32_t nc_f32_min(uint32_t acc, uint32_t in) { return nc_f32_lt(in, acc) ? in : acc; }
uint64_t nc_f64_max(uint64_t acc, uint64_t in) { return nc_f64_lt(acc, in) ? in : acc; }
uint64_t nc_f64_min(uint64_t acc, uint64_t in) { return nc_f64_lt(in, acc) ? in : acc; }
