/*
 * test_red.c - ref/red against the host and against MPFR (tests/red/suite).
 *
 *   test_red [SEED]      TAP on stdout; every random choice comes from SEED
 *                        (printed), so a run is repeatable byte for byte
 *
 * Ordered mode: nc_red_combine against libmpi's own mpi_op_apply (linked in
 * by host_op.c) on an edge-case table (every pair) and on seeded random bit
 * patterns drawn by class (NaNs of both signs and payloads, infinities,
 * zeros, subnormals, extreme normals, near-cancelling pairs, ties).
 * Exact mode: the accumulator's rounded sum against MPFR's correctly rounded
 * sum (mpfr_sum, RNDN, then to the format) on random and adversarial
 * vectors, each summed in several orders and trees of several rank counts
 * (partial sums merged as structs and through the wire encoding), all of
 * which must be bit-identical, as must the final accumulators.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>
#include <mpfr.h>

#include "host_op.h"
#include "nc_red.h"
#include "nc_sfp.h"
#include "nc_xacc.h"

static int ntest, nfail;
static uint64_t rng;

static void ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void ok(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s %d - ", cond ? "ok" : "not ok", ++ntest);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (!cond)
        nfail++;
}

static uint64_t rnd(void)           /* splitmix64 */
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static uint32_t rndn(uint32_t n) { return (uint32_t)(rnd() % n); }

/* ---- ordered mode ------------------------------------------------------ */

static const uint64_t edge64[] = {
    0, 0x8000000000000000ull,                               /* +-0 */
    1, 0x8000000000000001ull, 0x000FFFFFFFFFFFFFull, 0x800FFFFFFFFFFFFFull, /* subnormals */
    0x0008000000000000ull, 0x0010000000000000ull, 0x8010000000000000ull,   /* min normal */
    0x7FEFFFFFFFFFFFFFull, 0xFFEFFFFFFFFFFFFFull, 0x7FEFFFFFFFFFFFFEull,   /* max normal */
    0x7FE0000000000000ull, 0x7C90000000000000ull,  /* 2^1023; half an ulp of max */
    0x3FF0000000000000ull, 0xBFF0000000000000ull, 0x3FF0000000000001ull,   /* 1, -1, 1+ulp */
    0x3CA0000000000000ull, 0xBCA0000000000000ull, 0x3CA0000000000001ull,   /* 2^-53: ties at 1 */
    0x3CB0000000000000ull, 0x4340000000000000ull, 0x4340000000000001ull,   /* 2^-52, 2^53 */
    0x7FF0000000000000ull, 0xFFF0000000000000ull,                          /* +-inf */
    0x7FF8000000000000ull, 0xFFF8000000000000ull, 0x7FF8000000000123ull,   /* quiet NaNs */
    0xFFF800000000ABCDull, 0x7FF0000000000001ull, 0xFFF0000000000456ull,   /* ..., signalling */
    0x7FF7FFFFFFFFFFFFull,
};
static const uint32_t edge32[] = {
    0, 0x80000000u, 1, 0x80000001u, 0x007FFFFFu, 0x807FFFFFu, 0x00400000u,
    0x00800000u, 0x80800000u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F7FFFFEu, 0x7F000000u,
    0x73000000u, 0x3F800000u, 0xBF800000u, 0x3F800001u, 0x33800000u, 0xB3800000u,
    0x33800001u, 0x34000000u, 0x4B800000u, 0x4B800001u,
    0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00000u, 0x7FC00123u, 0xFFC0ABCDu,
    0x7F800001u, 0xFF800456u, 0x7FBFFFFFu,
};
#define NEDGE64 (sizeof edge64 / sizeof edge64[0])
#define NEDGE32 (sizeof edge32 / sizeof edge32[0])

/* A random binary64 by class: every interesting exponent and fraction. */
static uint64_t rand64(void)
{
    uint64_t s = (rnd() & 1) ? 0x8000000000000000ull : 0, e, f;
    switch (rndn(8)) {
    case 0: e = 0; break;
    case 1: e = 1 + rndn(3); break;
    case 2: e = 0x7FE - rndn(3); break;
    case 3: e = 0x7FF; break;
    case 4: e = 1023 - 60 + rndn(120); break;
    default: e = rndn(2048); break;
    }
    switch (rndn(6)) {
    case 0: f = 0; break;
    case 1: f = 0x000FFFFFFFFFFFFFull; break;
    case 2: f = 0x0008000000000000ull | (rnd() & 0xFFF); break;
    case 3: f = rnd() & 0xF; break;
    default: f = rnd() & 0x000FFFFFFFFFFFFFull; break;
    }
    return s | (e << 52) | f;
}
static uint32_t rand32(void)
{
    uint32_t s = (rnd() & 1) ? 0x80000000u : 0, e, f;
    switch (rndn(8)) {
    case 0: e = 0; break;
    case 1: e = 1 + rndn(3); break;
    case 2: e = 0xFE - rndn(3); break;
    case 3: e = 0xFF; break;
    case 4: e = 127 - 30 + rndn(60); break;
    default: e = rndn(256); break;
    }
    switch (rndn(6)) {
    case 0: f = 0; break;
    case 1: f = 0x7FFFFFu; break;
    case 2: f = 0x400000u | (uint32_t)(rnd() & 0xFF); break;
    case 3: f = (uint32_t)(rnd() & 0xF); break;
    default: f = (uint32_t)(rnd() & 0x7FFFFFu); break;
    }
    return s | (e << 23) | f;
}

/* A second operand related to the first: cancelling, tie-making, equal. */
static uint64_t partner64(uint64_t x)
{
    switch (rndn(6)) {
    case 0: return x ^ 0x8000000000000000ull ^ (rnd() & 0x7);            /* near -x */
    case 1: return (x & 0x8000000000000000ull) | ((((x >> 52) & 0x7FF) - 53 + rndn(3)) << 52); /* tie */
    case 2: return x;
    case 3: return x ^ 0x8000000000000000ull;
    default: return rand64();
    }
}
static uint32_t partner32(uint32_t x)
{
    switch (rndn(6)) {
    case 0: return x ^ 0x80000000u ^ (uint32_t)(rnd() & 0x7);
    case 1: return (x & 0x80000000u) | (((((x >> 23) & 0xFF) - 24 + rndn(3)) & 0xFF) << 23);
    case 2: return x;
    case 3: return x ^ 0x80000000u;
    default: return rand32();
    }
}

/* Combine inout with in by the core and by libmpi; the number of elements
 * whose bits differ, the first one reported. */
static int cmp_host(int op, int type, void *inout, const void *in, size_t n, const char *what)
{
    size_t es = nc_red_elem_words((uint32_t)type) * 4u;
    unsigned char *a = malloc(n * es), *b = malloc(n * es);
    memcpy(a, inout, n * es);
    memcpy(b, inout, n * es);
    host_reduce(op, type, a, in, n);
    int rc = nc_red_combine((uint32_t)op, (uint32_t)type, (uint32_t *)(void *)b,
                            (const uint32_t *)in, (uint32_t)n);
    int bad = rc != 0;
    for (size_t i = 0; i < n && !bad; i++)
        if (memcmp(a + i * es, b + i * es, es)) {
            bad++;
            uint64_t x = 0, y = 0, h = 0, r = 0;
            memcpy(&x, (const unsigned char *)inout + i * es, es);
            memcpy(&y, (const unsigned char *)in + i * es, es);
            memcpy(&h, a + i * es, es);
            memcpy(&r, b + i * es, es);
            printf("# %s: op %d type %d element %zu: %016" PRIx64 " (op) %016" PRIx64
                   ": host %016" PRIx64 ", core %016" PRIx64 "\n", what, op, type, i, x, y, h, r);
        }
    free(a);
    free(b);
    return bad;
}

static void test_ordered(void)
{
    static const char *opn[] = { "sum", "min", "max" };
    for (int op = 0; op < 3; op++) {
        /* every ordered pair of the edge table, as one vector */
        uint64_t x64[NEDGE64 * NEDGE64], y64[NEDGE64 * NEDGE64];
        uint32_t x32[NEDGE32 * NEDGE32], y32[NEDGE32 * NEDGE32];
        for (size_t i = 0; i < NEDGE64; i++)
            for (size_t j = 0; j < NEDGE64; j++)
                x64[i * NEDGE64 + j] = edge64[i], y64[i * NEDGE64 + j] = edge64[j];
        for (size_t i = 0; i < NEDGE32; i++)
            for (size_t j = 0; j < NEDGE32; j++)
                x32[i * NEDGE32 + j] = edge32[i], y32[i * NEDGE32 + j] = edge32[j];
        ok(!cmp_host(op, NC_RED_F64, x64, y64, NEDGE64 * NEDGE64, "edge"),
           "ordered binary64 %s: %zu edge pairs equal libmpi's", opn[op], NEDGE64 * NEDGE64);
        ok(!cmp_host(op, NC_RED_F32, x32, y32, NEDGE32 * NEDGE32, "edge"),
           "ordered binary32 %s: %zu edge pairs equal libmpi's", opn[op], NEDGE32 * NEDGE32);
        /* random pairs by class, in vectors of several lengths (libmpi's
         * loop may be unrolled or vectorized differently by length) */
        enum { NR = 200000 };
        static uint64_t a64[NR], b64[NR];
        static uint32_t a32[NR], b32[NR];
        for (size_t i = 0; i < NR; i++) {
            a64[i] = rand64();
            b64[i] = partner64(a64[i]);
            a32[i] = rand32();
            b32[i] = partner32(a32[i]);
            if (rnd() & 1) {
                uint64_t t = a64[i]; a64[i] = b64[i]; b64[i] = t;
                uint32_t u = a32[i]; a32[i] = b32[i]; b32[i] = u;
            }
        }
        int bad64 = 0, bad32 = 0;
        for (size_t off = 0, len = 1; off + len <= NR; off += len, len = len * 3 + 1) {
            bad64 += cmp_host(op, NC_RED_F64, a64 + off, b64 + off, len, "random");
            bad32 += cmp_host(op, NC_RED_F32, a32 + off, b32 + off, len, "random");
        }
        bad64 += cmp_host(op, NC_RED_F64, a64, b64, NR, "random");
        bad32 += cmp_host(op, NC_RED_F32, a32, b32, NR, "random");
        ok(!bad64, "ordered binary64 %s: %d random pairs by class equal libmpi's", opn[op], NR);
        ok(!bad32, "ordered binary32 %s: %d random pairs by class equal libmpi's", opn[op], NR);
    }
    /* the classes the random pairs must have covered */
    int nan = 0, sub = 0, inf = 0, z = 0;
    for (int i = 0; i < 10000; i++) {
        uint64_t x = rand64(), ax = x & ~NC_F64_SIGN;
        nan += ax > NC_F64_EXP;
        inf += ax == NC_F64_EXP;
        z += ax == 0;
        sub += ax && ax < 0x0010000000000000ull;
    }
    ok(nan > 100 && inf > 100 && z > 100 && sub > 100,
       "the random classes cover NaN %d, inf %d, zero %d, subnormal %d of 10000", nan, inf, z, sub);
}

static void test_integer(void)
{
    static const char *opn[] = { "sum", "min", "max", "band", "bor", "bxor" };
    static const char *tn[] = { "int32", "uint32", "int64", "uint64" };
    enum { N = 4096 };
    static uint64_t a[N], b[N];
    for (int type = 0; type < 4; type++) {
        int bad = 0;
        for (int op = 0; op < 6; op++) {
            for (int i = 0; i < N; i++) {
                uint64_t x = rnd(), y = rnd();
                switch (i % 4) {
                case 0: x |= 0x8000000080000000ull; break;     /* negative, carries */
                case 1: y = x ^ 0x8000000080000000ull; break;
                case 2: y = x; break;
                default: break;
                }
                a[i] = x;
                b[i] = y;
            }
            bad += cmp_host(op, type, a, b, N, tn[type]);
        }
        ok(!bad, "%s: sum, min, max, band, bor, bxor equal libmpi's on %d elements each", tn[type], N);
        (void)opn;
    }
    uint32_t w[2] = { 1, 2 }, v[2] = { 3, 4 };
    int r1 = nc_red_combine(NC_RED_BAND, NC_RED_F64, w, v, 1);
    int r2 = nc_red_combine(NC_RED_NOPS, NC_RED_I32, w, v, 1);
    int r3 = nc_red_combine(NC_RED_SUM, NC_RED_NTYPES, w, v, 1);
    ok(r1 == -1 && r2 == -1 && r3 == -1 && w[0] == 1 && w[1] == 2,
       "bitwise ops on floats, unknown ops and types are refused, nothing written");
}

/* ---- exact mode -------------------------------------------------------- */

struct fmt {
    const char *name;
    uint32_t words;
    int prec;
};
static const struct fmt F64 = { "binary64", NC_XACC64_WORDS, 53 };
static const struct fmt F32 = { "binary32", NC_XACC32_WORDS, 24 };

static double d_of(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static float f_of(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static uint64_t bits_d(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static uint32_t bits_f(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

/* MPFR's correctly rounded sum of v[0..n-1], as the format's bits; NaNs
 * as the accumulator's canonical NaN. */
static uint64_t mpfr_ref(const struct fmt *F, const uint64_t *v, size_t n)
{
    mpfr_t *x = malloc(n * sizeof *x);
    mpfr_ptr *p = malloc(n * sizeof *p);
    for (size_t i = 0; i < n; i++) {
        mpfr_init2(x[i], 64);
        if (F->prec == 53)
            mpfr_set_d(x[i], d_of(v[i]), MPFR_RNDN);
        else
            mpfr_set_flt(x[i], f_of((uint32_t)v[i]), MPFR_RNDN);
        p[i] = x[i];
    }
    mpfr_t s;
    mpfr_init2(s, F->prec);
    mpfr_sum(s, p, (unsigned long)n, MPFR_RNDN);
    uint64_t r;
    if (F->prec == 53)
        r = mpfr_nan_p(s) ? NC_XACC_F64_NAN : bits_d(mpfr_get_d(s, MPFR_RNDN));
    else
        r = mpfr_nan_p(s) ? NC_XACC_F32_NAN : bits_f(mpfr_get_flt(s, MPFR_RNDN));
    mpfr_clear(s);
    for (size_t i = 0; i < n; i++)
        mpfr_clear(x[i]);
    free(x);
    free(p);
    return r;
}

static void xadd(const struct fmt *F, struct nc_xacc *a, uint64_t x)
{
    if (F->prec == 53)
        nc_xacc_add_f64(a, x);
    else
        nc_xacc_add_f32(a, (uint32_t)x);
}
static uint64_t xround(const struct fmt *F, const struct nc_xacc *a)
{
    return F->prec == 53 ? nc_xacc_round_f64(a) : nc_xacc_round_f32(a);
}

static uint32_t wire_max;

/* Sum v over `ranks` ranks (rank r holds the elements i with i % ranks == r
 * if interleave, else a contiguous block), each rank adding its elements in
 * a shuffled order, then reduce the ranks' accumulators up a binomial tree
 * (wire: through nc_xacc_encode / nc_xacc_merge_wire) or a chain (structs).
 * The final accumulator goes to *out. */
static void tree_sum(const struct fmt *F, const uint64_t *v, size_t n, uint32_t ranks,
                     int interleave, int wire, struct nc_xacc *out)
{
    struct nc_xacc *acc = malloc(ranks * sizeof *acc);
    size_t *idx = malloc(n * sizeof *idx);
    for (uint32_t r = 0; r < ranks; r++)
        nc_xacc_init(&acc[r], F->words);
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    for (size_t i = n; i > 1; i--) {            /* Fisher-Yates */
        size_t j = rndn((uint32_t)i), t = idx[i - 1];
        idx[i - 1] = idx[j];
        idx[j] = t;
    }
    for (size_t k = 0; k < n; k++) {
        size_t i = idx[k];
        uint32_t r = interleave ? (uint32_t)(i % ranks) : (uint32_t)((i * ranks) / n);
        xadd(F, &acc[r], v[i]);
    }
    if (wire) {
        for (uint32_t step = 1; step < ranks; step <<= 1)
            for (uint32_t r = 0; r + step < ranks; r += 2 * step) {
                uint32_t buf[NC_XACC_WIRE_MAX];
                uint32_t len = nc_xacc_encode(&acc[r + step], buf, NC_XACC_WIRE_MAX);
                if (len > wire_max)
                    wire_max = len;
                if (nc_xacc_merge_wire(&acc[r], buf, len) != len)
                    acc[r].flags = 0xFFu;               /* shows as a mismatch */
            }
    } else {
        for (uint32_t r = ranks - 1; r > 0; r--)
            nc_xacc_merge(&acc[r - 1], &acc[r]);
    }
    *out = acc[0];
    free(acc);
    free(idx);
}

static int same_acc(const struct nc_xacc *a, const struct nc_xacc *b)
{
    return a->flags == b->flags && a->n == b->n && !memcmp(a->w, b->w, a->n * 4u);
}

/* Every tree and order gives the same accumulator, whose rounding is MPFR's. */
static int check_vector(const struct fmt *F, const uint64_t *v, size_t n, const char *what)
{
    static const uint32_t ranks[] = { 1, 2, 3, 7, 16, 64 };
    uint64_t want = mpfr_ref(F, v, n);
    struct nc_xacc first, a;
    int bad = 0;
    for (size_t k = 0; k < sizeof ranks / sizeof ranks[0]; k++)
        for (int shape = 0; shape < 3; shape++) {
            tree_sum(F, v, n, ranks[k], shape & 1, shape != 2, &a);
            if (k == 0 && shape == 0)
                first = a;
            uint64_t got = xround(F, &a);
            if (!same_acc(&a, &first) || got != want) {
                if (!bad)
                    printf("# %s %s n=%zu ranks=%u shape=%d: got %016" PRIx64 " mpfr %016" PRIx64
                           "%s\n", F->name, what, n, ranks[k], shape, got, want,
                           same_acc(&a, &first) ? "" : " (accumulators differ)");
                bad++;
            }
        }
    return bad;
}

static uint64_t pick(const struct fmt *F, uint64_t b64, uint32_t b32)
{
    return F->prec == 53 ? b64 : b32;
}

/* A value with biased exponent e (clamped to the format) and random bits. */
static uint64_t val(const struct fmt *F, int neg, int e)
{
    int emax = F->prec == 53 ? 2046 : 254;
    if (e < 0) e = 0;
    if (e > emax) e = emax;
    if (F->prec == 53)
        return (neg ? NC_F64_SIGN : 0) | ((uint64_t)e << 52) | (rnd() & NC_F64_FRAC);
    return (neg ? NC_F32_SIGN : 0) | ((uint32_t)e << 23) | (uint32_t)(rnd() & NC_F32_FRAC);
}

static void test_exact(const struct fmt *F)
{
    enum { N = 400 };
    static uint64_t v[4 * N];
    int ebias = F->prec == 53 ? 1023 : 127, emax = F->prec == 53 ? 2046 : 254;
    int bad;

    bad = 0;                                    /* random magnitudes, all signs */
    for (int t = 0; t < 20; t++) {
        for (int i = 0; i < N; i++)
            v[i] = val(F, rnd() & 1, (int)rndn((uint32_t)emax + 1));
        bad += check_vector(F, v, N, "random");
    }
    ok(!bad, "exact %s: 20 random vectors of %d, 18 trees each, equal MPFR's sum", F->name, N);

    bad = 0;                                    /* catastrophic cancellation */
    for (int t = 0; t < 20; t++) {
        int n = 0;
        for (int i = 0; i < N / 2; i++) {
            uint64_t x = val(F, rnd() & 1, ebias + (int)rndn(200) - 100);
            v[n++] = x;
            v[n++] = x ^ (F->prec == 53 ? NC_F64_SIGN : NC_F32_SIGN);
        }
        for (int i = 0; i < 3; i++)                 /* what survives: tiny terms */
            v[n++] = val(F, rnd() & 1, (int)rndn(40));
        bad += check_vector(F, v, (size_t)n, "cancellation");
    }
    ok(!bad, "exact %s: cancelling pairs around tiny terms equal MPFR's sum", F->name);

    bad = 0;                                    /* huge and tiny together */
    for (int t = 0; t < 20; t++) {
        for (int i = 0; i < N; i++)
            v[i] = val(F, rnd() & 1, (i & 1) ? emax - (int)rndn(4) : (int)rndn(4));
        bad += check_vector(F, v, N, "huge+tiny");
    }
    ok(!bad, "exact %s: maximal and subnormal magnitudes mixed equal MPFR's sum (incl. overflow)", F->name);

    bad = 0;                                    /* alternating signs, slowly shrinking */
    for (int t = 0; t < 10; t++) {
        for (int i = 0; i < N; i++)
            v[i] = val(F, i & 1, ebias + 20 - i / 8);
        bad += check_vector(F, v, N, "alternating");
    }
    ok(!bad, "exact %s: alternating signs equal MPFR's sum", F->name);

    bad = 0;                                    /* subnormal sums */
    for (int t = 0; t < 10; t++) {
        for (int i = 0; i < N; i++)
            v[i] = val(F, rnd() & 1, (int)rndn(2));
        bad += check_vector(F, v, N, "subnormal");
    }
    ok(!bad, "exact %s: sums of subnormals equal MPFR's sum", F->name);

    /* ties: 1 + half an ulp (to even: 1), 1+ulp + half (up), and the same
     * with a tiny term that breaks the tie either way; negated too */
    uint64_t one = pick(F, 0x3FF0000000000000ull, 0x3F800000u);
    uint64_t half = pick(F, 0x3CA0000000000000ull, 0x33800000u);
    uint64_t tiny = 1, sg = pick(F, NC_F64_SIGN, NC_F32_SIGN);
    uint64_t ties[][4] = {
        { one, half, 0, 0 }, { one + 1, half, 0, 0 }, { one, half, tiny, 0 },
        { one, half, tiny | sg, 0 }, { one + 1, half, tiny | sg, 0 },
        { one | sg, half | sg, 0, 0 }, { (one + 1) | sg, half | sg, 0, 0 },
        { one | sg, half | sg, tiny | sg, 0 },
        { pick(F, 0x7FEFFFFFFFFFFFFFull, 0x7F7FFFFFu), pick(F, 0x7C90000000000000ull, 0x73000000u), 0, 0 },
        { pick(F, 0x7FEFFFFFFFFFFFFFull, 0x7F7FFFFFu), pick(F, 0x7C90000000000000ull, 0x73000000u),
          tiny | sg, 0 },
    };
    bad = 0;
    for (size_t t = 0; t < sizeof ties / sizeof ties[0]; t++) {
        size_t n = ties[t][2] ? 3 : 2;
        bad += check_vector(F, ties[t], n, "tie");
    }
    ok(!bad, "exact %s: %zu ties (to even, broken by a tiny term, at overflow) equal MPFR's",
       F->name, sizeof ties / sizeof ties[0]);

    /* special values, and the sign of a zero sum */
    uint64_t inf = pick(F, NC_F64_EXP, NC_F32_EXP), nan1 = pick(F, 0xFFF0000000000001ull, 0xFF800001u);
    uint64_t zn = sg, x = val(F, 0, ebias);
    uint64_t sp[][4] = {
        { inf, x, 0, 0 }, { inf | sg, x, 0, 0 }, { inf, inf | sg, 0, 0 }, { nan1, x, 0, 0 },
        { inf, nan1, 0, 0 }, { zn, zn, 0, 0 }, { zn, 0, 0, 0 }, { x, x | sg, 0, 0 },
        { x, x | sg, zn, 0 }, { zn, 0, zn, 0 }, { zn, zn, zn, 0 },
    };
    static const size_t spn[] = { 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3 };
    bad = 0;
    for (size_t t = 0; t < sizeof sp / sizeof sp[0]; t++)
        bad += check_vector(F, sp[t], spn[t], "special");
    ok(!bad, "exact %s: infinities, NaNs and signed zeros follow MPFR's rules", F->name);

    /* many largest values: past the range, to infinity (and back) */
    bad = 0;
    for (int i = 0; i < 3 * N; i++)
        v[i] = pick(F, 0x7FEFFFFFFFFFFFFFull, 0x7F7FFFFFu) | ((i % 3 == 2) ? sg : 0);
    bad += check_vector(F, v, 3 * N, "beyond max");
    for (int i = 0; i < 3 * N; i++)
        v[i] = pick(F, 0x7FEFFFFFFFFFFFFFull, 0x7F7FFFFFu) | ((i & 1) ? sg : 0);
    bad += check_vector(F, v, 3 * N, "beyond max, cancelled");
    ok(!bad, "exact %s: sums beyond the largest finite value round to infinity; cancelled, do not",
       F->name);
}

/* The wire format: round trip, rejection of malformed windows, merge laws. */
static void test_wire(const struct fmt *F)
{
    int bad = 0, badlaw = 0, badrej = 0;
    int emax = F->prec == 53 ? 2046 : 254;
    for (int t = 0; t < 2000; t++) {
        struct nc_xacc a, b, c, d, ab_c, a_bc;
        nc_xacc_init(&a, F->words);
        nc_xacc_init(&b, F->words);
        nc_xacc_init(&c, F->words);
        int k = (int)rndn(6);
        for (int i = 0; i < k; i++) {
            xadd(F, &a, val(F, rnd() & 1, (int)rndn((uint32_t)emax + 1)));
            xadd(F, &b, val(F, rnd() & 1, (int)rndn((uint32_t)emax + 1)));
            xadd(F, &c, val(F, rnd() & 1, (int)rndn((uint32_t)emax + 1)));
        }
        if (t % 7 == 0)
            xadd(F, &a, pick(F, 0xFFF0000000000000ull, 0xFF800000u));
        uint32_t buf[NC_XACC_WIRE_MAX + 4], buf2[NC_XACC_WIRE_MAX];
        uint32_t len = nc_xacc_encode(&a, buf, NC_XACC_WIRE_MAX);
        nc_xacc_init(&d, F->words);
        uint32_t used = nc_xacc_merge_wire(&d, buf, len);
        uint32_t len2 = nc_xacc_encode(&d, buf2, NC_XACC_WIRE_MAX);
        if (!len || used != len || !same_acc(&a, &d) || len2 != len || memcmp(buf, buf2, len * 4u))
            bad++;
        if (len > 1 && nc_xacc_encode(&a, buf2, len - 1) != 0)
            bad++;
        /* (a + b) + c == a + (b + c), a + b == b + a, struct and wire merges agree */
        ab_c = a; nc_xacc_merge(&ab_c, &b); nc_xacc_merge(&ab_c, &c);
        a_bc = b; nc_xacc_merge(&a_bc, &c); nc_xacc_merge(&a_bc, &a);
        struct nc_xacc w = c;
        len = nc_xacc_encode(&a, buf, NC_XACC_WIRE_MAX);
        nc_xacc_merge_wire(&w, buf, len);
        len = nc_xacc_encode(&b, buf, NC_XACC_WIRE_MAX);
        nc_xacc_merge_wire(&w, buf, len);
        if (!same_acc(&ab_c, &a_bc) || !same_acc(&ab_c, &w))
            badlaw++;
        /* malformed: truncated, unknown flag, window past the end */
        len = nc_xacc_encode(&a, buf, NC_XACC_WIRE_MAX);
        d = c;
        uint32_t h = buf[0];
        if (len > 1 && nc_xacc_merge_wire(&d, buf, len - 1) != 0)
            badrej++;
        buf[0] = h | 0x80000000u;
        if (nc_xacc_merge_wire(&d, buf, len) != 0)
            badrej++;
        buf[0] = (h & ~0xFF00u) | ((F->words) << 8);
        if ((h & 0xFFu) && nc_xacc_merge_wire(&d, buf, len) != 0)
            badrej++;
        if (nc_xacc_merge_wire(&d, buf, 0) != 0 || !same_acc(&d, &c))
            badrej++;
    }
    ok(!bad, "wire %s: 2000 accumulators encode, decode and re-encode identically; short buffers refused",
       F->name);
    ok(!badlaw, "wire %s: merges are associative and commutative, struct and wire merges agree", F->name);
    ok(!badrej, "wire %s: truncated, unknown-flag and out-of-range windows are refused, nothing changed",
       F->name);
}

/* The wire size of typical partial sums (docs/reduction.md): k values
 * within 2^-10 .. 2^10 of 1, both signs; the median and the largest. */
static void wire_sizes(const struct fmt *F)
{
    static const int ks[] = { 1, 4, 32, 128 };
    int ebias = F->prec == 53 ? 1023 : 127;
    for (size_t j = 0; j < sizeof ks / sizeof ks[0]; j++) {
        uint32_t hist[NC_XACC_WIRE_MAX + 1] = { 0 }, big = 0, med = 0, seen = 0;
        for (int t = 0; t < 1000; t++) {
            struct nc_xacc a;
            uint32_t buf[NC_XACC_WIRE_MAX];
            nc_xacc_init(&a, F->words);
            for (int i = 0; i < ks[j]; i++)
                xadd(F, &a, val(F, rnd() & 1, ebias - 10 + (int)rndn(21)));
            uint32_t len = nc_xacc_encode(&a, buf, NC_XACC_WIRE_MAX);
            hist[len]++;
            if (len > big)
                big = len;
        }
        for (uint32_t i = 0; i <= NC_XACC_WIRE_MAX; i++)
            if ((seen += hist[i]) >= 500) {
                med = i;
                break;
            }
        printf("# wire %s: a partial sum of %d values within 2^+-10 of 1: median %u words,"
               " largest %u (header included)\n", F->name, ks[j], med, big);
    }
}

int main(int argc, char **argv)
{
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 20040611u;
    rng = seed;
    printf("# seed %" PRIu64 "\n", seed);
    test_ordered();
    test_integer();
    test_exact(&F64);
    test_exact(&F32);
    test_wire(&F64);
    test_wire(&F32);
    wire_sizes(&F64);
    wire_sizes(&F32);
    printf("# wire: the trees above sent at most %u words\n", wire_max);
    printf("1..%d\n", ntest);
    return nfail != 0;
}
