/*
 * nc_xacc.c - the exact superaccumulator (nc_xacc.h).
 *
 * Every operation is 32-bit word arithmetic with an explicit carry or
 * borrow, written so that no C operation wraps (the proofs check unsigned
 * overflow too): a word sum is formed in 64 bits and split, a borrow comes
 * from adding 2^32 first.  An element touches the two or three words its
 * significand covers, plus the carry's run; a merge touches every word; a
 * wire merge the window and the carry's run.
 */
#include "nc_xacc.h"

#define M32 0xFFFFFFFFu

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
    ensures (a->flags & \old(a->flags)) == \old(a->flags);
*/
static void add_sig(struct nc_xacc *a, uint32_t p, uint32_t lo, uint32_t hi, uint32_t neg)
{
    uint32_t n = a->n;
    uint32_t k = p >> 5, s = p & 31u;
    uint32_t t[3];
    t[0] = (lo & (M32 >> s)) << s;
    t[1] = ((hi & (M32 >> s)) << s) | (s ? lo >> (32u - s) : 0u);
    t[2] = s ? hi >> (32u - s) : 0u;
    uint32_t top = a->w[n - 1] >> 31;
    uint32_t i = k, c = 0;
    if (!neg) {
        /*@ loop invariant k <= i <= k + 3 && i <= n;
            loop invariant c <= 1;
            loop assigns i, c, a->w[k .. n - 1];
            loop variant k + 3 - i;
        */
        for (; i < k + 3 && i < n; i++) {
            uint64_t sum = (uint64_t)a->w[i] + t[i - k] + c;
            a->w[i] = (uint32_t)(sum & M32);
            c = (uint32_t)(sum >> 32);
        }
        /*@ loop invariant k <= i <= n;
            loop invariant c <= 1;
            loop assigns i, c, a->w[k .. n - 1];
            loop variant n - i;
        */
        for (; c && i < n; i++) {
            if (a->w[i] != M32) {
                a->w[i] = a->w[i] + 1u;
                c = 0;
            } else {
                a->w[i] = 0;
            }
        }
        if (!top && (a->w[n - 1] >> 31))
            a->flags |= NC_XACC_OVF;
    } else {
        /*@ loop invariant k <= i <= k + 3 && i <= n;
            loop invariant c <= 1;
            loop assigns i, c, a->w[k .. n - 1];
            loop variant k + 3 - i;
        */
        for (; i < k + 3 && i < n; i++) {
            uint64_t d = (uint64_t)a->w[i] + 0x100000000ull - t[i - k] - c;
            a->w[i] = (uint32_t)(d & M32);
            c = 1u - (uint32_t)(d >> 32);
        }
        /*@ loop invariant k <= i <= n;
            loop invariant c <= 1;
            loop assigns i, c, a->w[k .. n - 1];
            loop variant n - i;
        */
        for (; c && i < n; i++) {
            if (a->w[i] != 0) {
                a->w[i] = a->w[i] - 1u;
                c = 0;
            } else {
                a->w[i] = M32;
            }
        }
        if (top && !(a->w[n - 1] >> 31))
            a->flags |= NC_XACC_OVF;
    }
}

void nc_xacc_add_f64(struct nc_xacc *a, uint64_t x)
{
    uint32_t hi = (uint32_t)(x >> 32), lo = (uint32_t)(x & M32);
    uint32_t e = (hi >> 20) & 0x7FFu, fh = hi & 0xFFFFFu, neg = hi >> 31;
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
        fh |= 0x100000u;
    add_sig(a, e ? e - 1u : 0u, lo, fh, neg);
}

void nc_xacc_add_f32(struct nc_xacc *a, uint32_t x)
{
    uint32_t e = (x >> 23) & 0xFFu, f = x & 0x7FFFFFu, neg = x >> 31;
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
        f |= 0x800000u;
    add_sig(a, e ? e - 1u : 0u, f, 0, neg);
}

void nc_xacc_merge(struct nc_xacc *a, const struct nc_xacc *b)
{
    uint32_t n = a->n, c = 0;
    uint32_t ta = a->w[n - 1] >> 31, tb = b->w[n - 1] >> 31;
    /*@ loop invariant 0 <= i <= n;
        loop invariant c <= 1;
        loop assigns i, c, a->w[0 .. n - 1];
        loop variant n - i;
    */
    for (uint32_t i = 0; i < n; i++) {
        uint64_t sum = (uint64_t)a->w[i] + b->w[i] + c;
        a->w[i] = (uint32_t)(sum & M32);
        c = (uint32_t)(sum >> 32);
    }
    a->flags |= b->flags;
    if (ta == tb && (a->w[n - 1] >> 31) != ta)
        a->flags |= NC_XACC_OVF;
}

uint32_t nc_xacc_encode(const struct nc_xacc *a, uint32_t *out, uint32_t cap)
{
    uint32_t n = a->n;
    uint32_t ext = (a->w[n - 1] >> 31) ? M32 : 0u;
    uint32_t hi = n, lo = 0;
    /*@ loop invariant 0 <= i <= n;
        loop assigns i;
        loop variant i;
    */
    for (uint32_t i = n; i > 0; i--)
        if (a->w[i - 1u] != ext) {
            hi = i - 1u;
            break;
        }
    uint32_t len;
    if (hi == n) {
        len = ext ? 1u : 0u;            /* 0, or -1 unit: one word of ones */
        hi = 0;
    } else {
        if (hi + 1u < n && (a->w[hi] >> 31) != (ext & 1u))
            hi++;                       /* one word to carry the sign */
        lo = hi;
        /*@ loop invariant 0 <= i <= hi + 1 && hi < n;
            loop invariant lo <= hi;
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
    out[0] = (a->flags << 24) | (lo << 8) | len;
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
    uint32_t f = h >> 24, lo = (h >> 8) & 0xFFu, wl = h & 0xFFu;
    if ((f & ~NC_XACC_FLAGS) || (h & 0xFF0000u) || wl > n || lo > n - wl
        || wl > len - 1u || (wl == 0 && lo != 0))
        return 0;
    a->flags |= f;
    if (wl == 0)
        return 1;
    uint32_t ext = (in[wl] >> 31) ? M32 : 0u;
    uint32_t ta = a->w[n - 1] >> 31, c = 0;
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
            if ((ext == 0 && c == 0) || (ext == M32 && c == 1u))
                break;
            v = ext;
        }
        uint64_t sum = (uint64_t)a->w[i] + v + c;
        a->w[i] = (uint32_t)(sum & M32);
        c = (uint32_t)(sum >> 32);
    }
    if (ta == (ext & 1u) && (a->w[n - 1] >> 31) != ta)
        a->flags |= NC_XACC_OVF;
    return wl + 1u;
}

/* Word i of |value| (two's complement negation if neg; z is the lowest
 * nonzero word); 0 above the accumulator. */
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
        return v ? (~v) + 1u : 0u;
    return ~v;
}

/* Leading zeros of v != 0 (as nc_sfp.c's). */
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

/* The nonzero, non-special sum rounded to mb significand bits and biased
 * exponents below emax (binary64: 53, 2047; binary32: 24, 255), without the
 * sign: the format's bits, or its infinity. */
/*@ requires nc_xacc_ok(a);
    requires (mb == 53 && emax == 2047) || (mb == 24 && emax == 255);
    requires z < a->n && t < a->n && z <= t;
    assigns \nothing;
*/
static uint64_t round_mag(const struct nc_xacc *a, uint32_t mb, uint32_t emax,
                          uint32_t neg, uint32_t z, uint32_t t)
{
    uint32_t top = mag(a, t, neg, z);
    if (!top)
        return 0;
    uint32_t b = 32u * t + 31u - lead0(top);          /* the leading bit */
    if (b < 63u) {
        uint64_t v = ((uint64_t)mag(a, 1, neg, z) << 32) | mag(a, 0, neg, z);
        if (b < mb)
            return v;                                 /* exact: subnormal or the first binade */
        v <<= 63u - b;                                /* leading bit to bit 63 */
        uint64_t m = v >> (64u - mb);
        uint64_t rest = v & ((1ull << (64u - mb)) - 1u);
        uint64_t half = 1ull << (63u - mb);
        uint32_t e = b - mb + 2u;
        if (rest > half || (rest == half && (m & 1u)))
            m++;
        if (m >> mb) { m >>= 1; e++; }
        if (e >= emax)
            return (uint64_t)emax << (mb - 1u);
        return ((uint64_t)(e - 1u) << (mb - 1u)) + m;
    }
    /* the 64 bits b-63 .. b, and whether anything below them is nonzero */
    uint32_t pos = b - 63u, q = pos >> 5, r = pos & 31u;
    uint64_t v = (((uint64_t)mag(a, q + 1u, neg, z) << 32) | mag(a, q, neg, z)) >> r;
    if (r)
        v |= (uint64_t)(mag(a, q + 2u, neg, z) & ((1u << r) - 1u)) << (64u - r);
    uint32_t sticky = z < q || (mag(a, q, neg, z) & ((1u << r) - 1u)) != 0;
    uint64_t m = v >> (64u - mb);
    uint64_t rest = v & ((1ull << (64u - mb)) - 1u);
    uint64_t half = 1ull << (63u - mb);
    uint32_t e = b - mb + 2u;
    if (rest > half || (rest == half && (sticky || (m & 1u))))
        m++;
    if (m >> mb) { m >>= 1; e++; }
    if (e >= emax)
        return (uint64_t)emax << (mb - 1u);
    return ((uint64_t)(e - 1u) << (mb - 1u)) + m;
}

/* The rounded sum with the special-value rules of nc_xacc.h; *zero tells a
 * zero sum apart. */
/*@ requires nc_xacc_ok(a);
    requires (mb == 53 && emax == 2047) || (mb == 24 && emax == 255);
    requires \valid(negp);
    assigns *negp;
*/
static uint64_t round_sum(const struct nc_xacc *a, uint32_t mb, uint32_t emax, uint32_t *negp)
{
    uint32_t n = a->n, neg = a->w[n - 1] >> 31;
    uint32_t z = n, t = 0;
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, z;
        loop variant n - i;
    */
    for (uint32_t i = 0; i < n; i++)
        if (a->w[i]) {
            z = i;
            break;
        }
    /*@ loop invariant z < n ==> z <= i <= n;
        loop assigns i, t;
        loop variant i;
    */
    for (uint32_t i = n; z < n && i > z; i--)
        if (a->w[i - 1u]) {
            t = i - 1u;
            break;
        }
    *negp = neg;
    if (z == n)
        return 0;
    /* a negative value's magnitude may end one word lower than its words */
    /*@ loop invariant z <= t < n;
        loop assigns t;
        loop variant t;
    */
    while (t > z && mag(a, t, neg, z) == 0)
        t--;
    return round_mag(a, mb, emax, neg, z, t);
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
    uint64_t m = round_sum(a, 53, 2047, &neg);
    if (m == 0)
        return (f & NC_XACC_NZ) ? 0 : 0x8000000000000000ull;
    return ((uint64_t)neg << 63) | m;
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
    uint64_t m = round_sum(a, 24, 255, &neg);
    if (m == 0)
        return (f & NC_XACC_NZ) ? 0 : 0x80000000u;
    return (neg << 31) | (uint32_t)(m & 0x7FFFFFFFu);
}
