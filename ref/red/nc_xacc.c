/*
 * nc_xacc.c - the exact superaccumulator (nc_xacc.h).
 *
 * Every operation is 32-bit word arithmetic with an explicit carry or
 * borrow (adc, sbb: a word and its carry are exactly the sum), written so
 * that no C operation wraps and every bound is plain arithmetic for the
 * proofs (proofs/, which check unsigned overflow too): sums are formed in
 * 64 bits and split by comparison, a variable left shift is shl64's
 * multiplication by a constant.  An element touches the two or three words
 * its significand covers, plus the carry's run; a merge touches every word;
 * a wire merge the window and the carry's run.
 */
#include "nc_xacc.h"

#define M32 0xFFFFFFFFu
#define P32 0x100000000ull

/* a + b + *c = result + 2^32 * (new *c) */
/*@ requires \valid(c) && *c <= 1;
    assigns *c;
    ensures *c <= 1;
    ensures \result + *c * 4294967296 == a + b + \old(*c);
*/
static uint32_t adc(uint32_t a, uint32_t b, uint32_t *c)
{
    uint64_t s = (uint64_t)a + (uint64_t)b + (uint64_t)*c;
    /*@ assert s <= 0x1FFFFFFFF; */
    *c = (uint32_t)(s / P32);
    return (uint32_t)(s % P32);
}

/* a - b - *c = result - 2^32 * (new *c) */
/*@ requires \valid(c) && *c <= 1;
    assigns *c;
    ensures *c <= 1;
    ensures \result - *c * 4294967296 == a - b - \old(*c);
*/
static uint32_t sbb(uint32_t a, uint32_t b, uint32_t *c)
{
    uint64_t d = (uint64_t)a + P32 - (uint64_t)b - (uint64_t)*c;
    /*@ assert d <= 0x1FFFFFFFF; */
    *c = 1u - (uint32_t)(d / P32);
    return (uint32_t)(d % P32);
}

/* x * 2^s for s < 32, exact in 64 bits (< 2^63).  One constant shift per
 * case: the proofs see a multiplication by a constant, the LANai a jump
 * table and a shift. */
/*@ requires s < 32;
    assigns \nothing;
    ensures \result <= (uint64_t)x * 0x80000000u;
*/
static uint64_t shl64(uint32_t x, uint32_t s)
{
    switch (s) {
    case 0: return x;
    case 1: return (uint64_t)x * 0x2u;
    case 2: return (uint64_t)x * 0x4u;
    case 3: return (uint64_t)x * 0x8u;
    case 4: return (uint64_t)x * 0x10u;
    case 5: return (uint64_t)x * 0x20u;
    case 6: return (uint64_t)x * 0x40u;
    case 7: return (uint64_t)x * 0x80u;
    case 8: return (uint64_t)x * 0x100u;
    case 9: return (uint64_t)x * 0x200u;
    case 10: return (uint64_t)x * 0x400u;
    case 11: return (uint64_t)x * 0x800u;
    case 12: return (uint64_t)x * 0x1000u;
    case 13: return (uint64_t)x * 0x2000u;
    case 14: return (uint64_t)x * 0x4000u;
    case 15: return (uint64_t)x * 0x8000u;
    case 16: return (uint64_t)x * 0x10000u;
    case 17: return (uint64_t)x * 0x20000u;
    case 18: return (uint64_t)x * 0x40000u;
    case 19: return (uint64_t)x * 0x80000u;
    case 20: return (uint64_t)x * 0x100000u;
    case 21: return (uint64_t)x * 0x200000u;
    case 22: return (uint64_t)x * 0x400000u;
    case 23: return (uint64_t)x * 0x800000u;
    case 24: return (uint64_t)x * 0x1000000u;
    case 25: return (uint64_t)x * 0x2000000u;
    case 26: return (uint64_t)x * 0x4000000u;
    case 27: return (uint64_t)x * 0x8000000u;
    case 28: return (uint64_t)x * 0x10000000u;
    case 29: return (uint64_t)x * 0x20000000u;
    case 30: return (uint64_t)x * 0x40000000u;
    default: return (uint64_t)x * 0x80000000u;
    }
}

void nc_xacc_init(struct nc_xacc *a, uint32_t n)
{
    a->flags = 0;
    a->n = n;
    /*@ loop invariant 0 <= i <= NC_XACC_MAXW;
        loop invariant \forall integer j; 0 <= j < i ==> a->w[j] == 0;
        loop assigns i, a->w[0 .. NC_XACC_MAXW - 1];
        loop variant NC_XACC_MAXW - i;
    */
    for (uint32_t i = 0; i < NC_XACC_MAXW; i++)
        a->w[i] = 0;
}

/* Add (neg == 0) or subtract the significand hi:lo, shifted left by p bits,
 * to the accumulator; OVF if the sign flips the wrong way. */
/*@ requires nc_xacc_ok(a);
    requires p < 32 * (a->n - 2);
    requires hi < 0x200000;
    assigns a->flags, a->w[0 .. a->n - 1];
    ensures nc_xacc_ok(a) && a->n == \old(a->n);
*/
static void add_sig(struct nc_xacc *a, uint32_t p, uint32_t lo, uint32_t hi, uint32_t neg)
{
    uint32_t n = a->n;
    uint32_t k = p / 32u, s = p % 32u;
    uint64_t vl = shl64(lo, s), vh = shl64(hi, s) + vl / P32;
    uint32_t t[3];
    t[0] = (uint32_t)(vl % P32);
    t[1] = (uint32_t)(vh % P32);
    t[2] = (uint32_t)(vh / P32);
    uint32_t top = a->w[n - 1] / 0x80000000u;
    uint32_t i = k, c = 0;
    if (!neg) {
        /*@ loop invariant k <= i <= k + 3 && i <= n;
            loop invariant c <= 1;
            loop assigns i, c, a->w[k .. n - 1];
            loop variant k + 3 - i;
        */
        for (; i < k + 3u; i++)
            a->w[i] = adc(a->w[i], t[i - k], &c);
        /*@ loop invariant k <= i <= n;
            loop invariant c <= 1;
            loop assigns i, c, a->w[k .. n - 1];
            loop variant n - i;
        */
        for (; c && i < n; i++)
            a->w[i] = adc(a->w[i], 0, &c);
        if (!top && a->w[n - 1] / 0x80000000u)
            a->flags |= NC_XACC_OVF;
    } else {
        /*@ loop invariant k <= i <= k + 3 && i <= n;
            loop invariant c <= 1;
            loop assigns i, c, a->w[k .. n - 1];
            loop variant k + 3 - i;
        */
        for (; i < k + 3u; i++)
            a->w[i] = sbb(a->w[i], t[i - k], &c);
        /*@ loop invariant k <= i <= n;
            loop invariant c <= 1;
            loop assigns i, c, a->w[k .. n - 1];
            loop variant n - i;
        */
        for (; c && i < n; i++)
            a->w[i] = sbb(a->w[i], 0, &c);
        if (top && !(a->w[n - 1] / 0x80000000u))
            a->flags |= NC_XACC_OVF;
    }
}

void nc_xacc_add_f64(struct nc_xacc *a, uint64_t x)
{
    uint32_t hi = (uint32_t)(x / P32), lo = (uint32_t)(x % P32);
    uint32_t e = (hi / 0x100000u) % 0x800u, fh = hi % 0x100000u, neg = hi / 0x80000000u;
    if (e == 0x7FFu) {
        a->flags |= (fh | lo) ? NC_XACC_NAN : neg ? NC_XACC_NINF : NC_XACC_PINF;
        return;
    }
    if (e == 0 && (fh | lo) == 0) {
        if (!neg)
            a->flags |= NC_XACC_NZ;
        return;
    }
    a->flags |= NC_XACC_NZ;
    if (e)
        fh += 0x100000u;
    add_sig(a, e ? e - 1u : 0u, lo, fh, neg);
}

void nc_xacc_add_f32(struct nc_xacc *a, uint32_t x)
{
    uint32_t e = (x / 0x800000u) % 0x100u, f = x % 0x800000u, neg = x / 0x80000000u;
    if (e == 0xFFu) {
        a->flags |= f ? NC_XACC_NAN : neg ? NC_XACC_NINF : NC_XACC_PINF;
        return;
    }
    if (e == 0 && f == 0) {
        if (!neg)
            a->flags |= NC_XACC_NZ;
        return;
    }
    a->flags |= NC_XACC_NZ;
    if (e)
        f += 0x800000u;
    add_sig(a, e ? e - 1u : 0u, f, 0, neg);
}

void nc_xacc_merge(struct nc_xacc *a, const struct nc_xacc *b)
{
    uint32_t n = a->n, c = 0;
    uint32_t ta = a->w[n - 1] / 0x80000000u, tb = b->w[n - 1] / 0x80000000u;
    /*@ loop invariant 0 <= i <= n;
        loop invariant c <= 1;
        loop assigns i, c, a->w[0 .. n - 1];
        loop variant n - i;
    */
    for (uint32_t i = 0; i < n; i++)
        a->w[i] = adc(a->w[i], b->w[i], &c);
    a->flags |= b->flags;
    if (ta == tb && a->w[n - 1] / 0x80000000u != ta)
        a->flags |= NC_XACC_OVF;
}

uint32_t nc_xacc_encode(const struct nc_xacc *a, uint32_t *out, uint32_t cap)
{
    uint32_t n = a->n;
    uint32_t sgn = a->w[n - 1] / 0x80000000u, ext = sgn ? M32 : 0u;
    uint32_t hi = n, lo = 0;
    /*@ loop invariant 0 <= i <= n;
        loop invariant hi == n;
        loop assigns i, hi;
        loop variant i;
    */
    for (uint32_t i = n; i > 0; i--)
        if (a->w[i - 1u] != ext) {
            hi = i - 1u;
            break;
        }
    uint32_t len;
    if (hi == n) {
        len = sgn;                      /* 0, or -1 unit: one word of ones */
        hi = 0;
    } else {
        if (hi + 1u < n && a->w[hi] / 0x80000000u != sgn)
            hi++;                       /* one word to carry the sign */
        lo = hi;
        /*@ loop invariant 0 <= i <= hi + 1;
            loop invariant lo == hi;
            loop assigns i, lo;
            loop variant hi + 1 - i;
        */
        for (uint32_t i = 0; i <= hi; i++)
            if (a->w[i] != 0) {
                lo = i;
                break;
            }
        len = hi - lo + 1u;
    }
    if (cap < len + 1u)
        return 0;
    /*@ assert lo < 0x100 && len < 0x100; */
    out[0] = a->flags % 0x20u * 0x1000000u + lo * 0x100u + len;
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, out[1 .. len];
        loop variant len - i;
    */
    for (uint32_t i = 0; i < len; i++)
        out[1u + i] = a->w[lo + i];
    return len + 1u;
}

uint32_t nc_xacc_merge_wire(struct nc_xacc *a, const uint32_t *in, uint32_t len)
{
    uint32_t n = a->n;
    if (len < 1u)
        return 0;
    uint32_t h = in[0];
    uint32_t f = h / 0x1000000u, lo = (h / 0x100u) % 0x100u, wl = h % 0x100u;
    if (f > NC_XACC_FLAGS || (h / 0x10000u) % 0x100u != 0 || wl > n || lo > n - wl
        || wl > len - 1u || (wl == 0 && lo != 0))
        return 0;
    a->flags |= f;
    if (wl == 0)
        return 1;
    uint32_t sb = in[wl] / 0x80000000u, ext = sb ? M32 : 0u;
    uint32_t ta = a->w[n - 1] / 0x80000000u, c = 0;
    /*@ loop invariant lo <= i <= n;
        loop invariant c <= 1;
        loop assigns i, c, a->w[lo .. n - 1];
        loop variant n - i;
    */
    for (uint32_t i = lo; i < n; i++) {
        uint32_t v;
        if (i < lo + wl) {
            v = in[1u + i - lo];
        } else {
            /* above the window: adding 0 + 0 or ~0 + 1 leaves every word */
            if (c == sb)
                break;
            v = ext;
        }
        a->w[i] = adc(a->w[i], v, &c);
    }
    if (ta == sb && a->w[n - 1] / 0x80000000u != ta)
        a->flags |= NC_XACC_OVF;
    return wl + 1u;
}

/* Word i of |value| (two's complement negation if neg; z is the lowest
 * nonzero word); 0 outside the accumulator. */
/*@ requires nc_xacc_ok(a) && z < a->n;
    assigns \nothing;
*/
static uint32_t mag(const struct nc_xacc *a, uint32_t i, uint32_t neg, uint32_t z)
{
    if (i >= a->n)
        return 0;
    uint32_t v = a->w[i];
    if (!neg)
        return v;
    if (i < z)
        return 0;
    if (i == z)
        return v ? (M32 - v) + 1u : 0u;
    return M32 - v;
}

/* Leading zeros of v != 0: the LANai's leadz instruction where the compiler
 * has it, a search where it has not (Frama-C). */
/*@ requires v != 0;
    assigns \nothing;
    ensures 0 <= \result <= 31;
*/
static uint32_t lead0(uint32_t v)
{
#if defined(__GNUC__) && !defined(__FRAMAC__)
    return (uint32_t)__builtin_clz(v);
#else
    uint32_t k = 0;
    /*@ loop invariant 0 <= k <= 31;
        loop assigns k;
        loop variant 31 - k;
    */
    while (k < 31u && !(v & (0x80000000u >> k)))
        k++;
    return k;
#endif
}

/* The nonzero, non-special sum rounded to binary64 (f64) or binary32,
 * without the sign: the format's bits, or its infinity.  z and t are the
 * lowest and the highest nonzero word of the magnitude. */
/*@ requires nc_xacc_ok(a);
    requires z < a->n && t < a->n && z <= t;
    assigns \nothing;
*/
static uint64_t round_mag(const struct nc_xacc *a, uint32_t f64, uint32_t neg, uint32_t z, uint32_t t)
{
    uint32_t mb = f64 ? 53u : 24u;
    uint32_t top = mag(a, t, neg, z);
    if (!top)
        return 0;
    uint32_t b = 32u * t + 31u - lead0(top);          /* the leading bit */
    if (b < mb)                                       /* exact: subnormal or first binade */
        return (uint64_t)mag(a, 1, neg, z) * P32 + mag(a, 0, neg, z);
    /* The 64 bits b-63 .. b, as bits b+1 .. b+64 of the magnitude shifted
     * up by two words (so that they exist for every b): its words q-2, q-1
     * and q are those of the window; and whether anything below them is
     * nonzero. */
    uint32_t pos = b + 1u, q = pos / 32u, r = pos % 32u;
    uint32_t w0 = q >= 2u ? mag(a, q - 2u, neg, z) : 0u;
    uint32_t w1 = q >= 1u ? mag(a, q - 1u, neg, z) : 0u;
    uint32_t w2 = mag(a, q, neg, z);
    uint64_t v;
    uint32_t sticky = z + 2u < q;
    if (r == 0) {
        v = (uint64_t)w1 * P32 + w0;
    } else {
        uint64_t up = shl64(w2, 32u - r) % P32;       /* w2's low r bits, at the top */
        v = (up * P32) | shl64(w1, 32u - r) | (w0 >> r);
        sticky = sticky || (w0 & (M32 >> (32u - r))) != 0;
    }
    uint64_t m, rest, half;
    if (f64) {
        m = v / 0x800u;
        rest = v % 0x800u;
        half = 0x400u;
    } else {
        m = v / 0x10000000000ull;
        rest = v % 0x10000000000ull;
        half = 0x8000000000ull;
    }
    uint32_t e = b - mb + 2u;
    if (rest > half || (rest == half && (sticky || m % 2u)))
        m++;
    if (f64) {
        if (m >= 0x20000000000000ull) { m = m / 2u; e++; }
        if (e >= 2047u)
            return 0x7FF0000000000000ull;
        return (uint64_t)(e - 1u) * 0x10000000000000ull + m;
    }
    if (m >= 0x1000000u) { m = m / 2u; e++; }
    if (e >= 255u)
        return 0x7F800000u;
    return (uint64_t)(e - 1u) * 0x800000u + m;
}

/* The rounded magnitude (0 for a zero sum) and in *negp the sign. */
/*@ requires nc_xacc_ok(a);
    requires \valid(negp) && \separated(negp, a);
    assigns *negp;
*/
static uint64_t round_sum(const struct nc_xacc *a, uint32_t f64, uint32_t *negp)
{
    uint32_t n = a->n, neg = a->w[n - 1] / 0x80000000u;
    uint32_t z = n, t = 0;
    *negp = neg;
    /*@ loop invariant 0 <= i <= n;
        loop invariant z == n;
        loop assigns i, z;
        loop variant n - i;
    */
    for (uint32_t i = 0; i < n; i++)
        if (a->w[i]) {
            z = i;
            break;
        }
    if (z == n)
        return 0;
    t = z;
    /*@ loop invariant z <= i <= n;
        loop invariant t == z;
        loop assigns i, t;
        loop variant i;
    */
    for (uint32_t i = n; i > z; i--)
        if (a->w[i - 1u]) {
            t = i - 1u;
            break;
        }
    /* a negative value's magnitude may end lower than its words */
    /*@ loop invariant z <= t < n;
        loop assigns t;
        loop variant t;
    */
    while (t > z && mag(a, t, neg, z) == 0)
        t--;
    return round_mag(a, f64, neg, z, t);
}

uint64_t nc_xacc_round_f64(const struct nc_xacc *a)
{
    uint32_t f = a->flags, neg;
    if ((f & (NC_XACC_NAN | NC_XACC_OVF))
        || (f & (NC_XACC_PINF | NC_XACC_NINF)) == (NC_XACC_PINF | NC_XACC_NINF))
        return NC_XACC_F64_NAN;
    if (f & NC_XACC_PINF)
        return 0x7FF0000000000000ull;
    if (f & NC_XACC_NINF)
        return 0xFFF0000000000000ull;
    uint64_t m = round_sum(a, 1, &neg);
    if (m == 0)
        return (f & NC_XACC_NZ) ? 0 : 0x8000000000000000ull;
    return neg ? m | 0x8000000000000000ull : m;
}

uint32_t nc_xacc_round_f32(const struct nc_xacc *a)
{
    uint32_t f = a->flags, neg;
    if ((f & (NC_XACC_NAN | NC_XACC_OVF))
        || (f & (NC_XACC_PINF | NC_XACC_NINF)) == (NC_XACC_PINF | NC_XACC_NINF))
        return NC_XACC_F32_NAN;
    if (f & NC_XACC_PINF)
        return 0x7F800000u;
    if (f & NC_XACC_NINF)
        return 0xFF800000u;
    uint64_t m = round_sum(a, 0, &neg);
    if (m == 0)
        return (f & NC_XACC_NZ) ? 0 : 0x80000000u;
    uint32_t r = (uint32_t)(m % P32);
    return neg ? r | 0x80000000u : r;
}
