/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The exact mode's inputs (tests/red/nic/suite): shared by the MPI program
 * (tests/red/bypass/mpi_bypass.c, scenario "exact") and the MPFR oracle
 * (tests/red/nic/exact_ref.c), so that both see the same values.
 *
 * Case c is a vector of XI_CASES[c].count elements of one format. Element
 * e of it is the sum of XI_VALUES values, each given by one rank, every
 * other rank giving +0: where value j goes depends on the number of ranks,
 * so every rank count and every root puts the same values on another
 * tree, in another order. The values are the ones an ordered sum gets
 * wrong: a large pair that cancels beside small ones, magnitudes 2^+-900
 * (2^+-100 in binary32) and subnormals side by side, ties, and now and
 * then an infinity, both infinities (a NaN) or a NaN. At least one value
 * of each element is nonzero, so the +0s never decide a zero's sign.
 */
#ifndef EXACT_INPUTS_H
#define EXACT_INPUTS_H

#include <stdint.h>

#define XI_VALUES 5u            /* values per element: the runs have 5 ranks or more */

static const struct { unsigned f64, count; } XI_CASES[] = {
    { 1, 1 }, { 1, 128 }, { 1, 300 }, { 0, 1 }, { 0, 200 },
};
#define XI_NCASES (sizeof XI_CASES / sizeof XI_CASES[0])

static inline uint64_t xi_mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static inline uint64_t xi_rand(uint64_t seed, unsigned c, unsigned e, unsigned j)
{
    return xi_mix(xi_mix(seed * 1000003u + c) ^ ((uint64_t)e << 8 | j));
}

/* Value j of element e of case c, as the format's bits. */
static inline uint64_t xi_value(uint64_t seed, unsigned c, unsigned e, unsigned j)
{
    uint64_t r = xi_rand(seed, c, e, j), pick = xi_rand(seed, c, e, 99) % 16u;
    unsigned f64 = XI_CASES[c].f64;
    uint64_t sign = (r >> 63) << (f64 ? 63 : 31), mant = f64 ? r & 0xFFFFFFFFFFFFFull : r & 0x7FFFFFu;
    uint64_t big = f64 ? 1923u : 227u, one = f64 ? 1023u : 127u, tiny = f64 ? 123u : 27u;
    unsigned sh = f64 ? 52 : 23;

    if (pick == 1 && j == 0)
        return f64 ? 0x7FF0000000000000ull : 0x7F800000u;                 /* +inf */
    if (pick == 2 && j < 2)                                             /* +inf, -inf */
        return (f64 ? 0x7FF0000000000000ull : 0x7F800000u) | (j ? 1ull << (f64 ? 63 : 31) : 0);
    if (pick == 3 && j == 4)
        return f64 ? 0x7FF8000000000000ull : 0x7FC00000u;                 /* NaN */
    switch (j) {
    case 0:                     /* a large value ... */
        return (big - (r >> 40) % 8u) << sh | mant;
    case 1:                     /* ... and its negation, or nearly */
        return (1ull << (f64 ? 63 : 31)) | (big - (xi_rand(seed, c, e, 0) >> 40) % 8u) << sh |
               ((xi_rand(seed, c, e, 0) & (f64 ? 0xFFFFFFFFFFFFFull : 0x7FFFFFu)) ^ (pick & 1u));
    case 2:                     /* a subnormal, or zero of either sign */
        return pick >= 12 ? sign : sign | (mant | 1u);
    case 3:                     /* near 1: ties with the next */
        return sign | (one << sh) | (mant & ~1ull) | 1u;
    default:                    /* a small one */
        return sign | (tiny + (r >> 40) % 16u) << sh | mant;
    }
}

/* The rank (of np) that gives value j of element e of case c. */
static inline unsigned xi_rank(uint64_t seed, unsigned np, unsigned c, unsigned e, unsigned j)
{
    unsigned perm[64], n = np < 64 ? np : 64;

    for (unsigned i = 0; i < n; i++)
        perm[i] = i;
    for (unsigned i = n - 1; i > 0; i--) {      /* a seeded shuffle, per element and np */
        unsigned k = (unsigned)(xi_mix(xi_rand(seed, c, e, 200 + np) + i) % (i + 1)), t = perm[i];

        perm[i] = perm[k];
        perm[k] = t;
    }
    return perm[j % n];
}

#endif
