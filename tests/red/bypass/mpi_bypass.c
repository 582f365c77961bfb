/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MPI program of tests/red/bypass/suite and tests/red/nic/suite (built with
 * lanai-mpicc): MPI_Reduce as a user calls it, run with MPI_NC_REDUCE=host
 * and =bypass (or =nic); the suites compare the runs' result lines
 * ("H ...", "A ...", "RB ..."), which must be identical: application
 * bypass and the NIC give the host algorithm's bits. Scenarios:
 *
 *   first  (first on the command line) MPI_Reduce of 8 int64 sums to rank 1
 *          and MPI_Allreduce of them, straight after MPI_Init: on p-ab the
 *          odd nodes start tens of milliseconds after the even ones, so a
 *          root or parent there gets its children's data before its port
 *          is open; each result against the exact sum
 *   ops    every predefined op on every predefined type (the combinations
 *          MPI_Reduce accepts), counts 1, 5 and 64 (or BYPASS_OPS_COUNTS)
 *          and 600 doubles (more than one packet), roots moving; inputs with NaNs of both signs and
 *          several payloads, infinities, signed zeros, subnormals, ties
 *   skew   16 reductions of 32 doubles; before each, a seeded subset of
 *          the ranks computes up to 3 ms (early and late messages), and
 *          after it up to 3 ms more (late ones land in the handler)
 *   burst  40 reductions back to back, the root moving, nothing between;
 *          the odd ranks computing 1 ms before every fourth, every fifth
 *          root's data in place: many instances in flight, each checked
 *          in the program against the exact integer sum
 *   comms  reductions on the world, a duplicate and halves by parity,
 *          interleaved and skewed, each against its exact integer sum
 *   late   the last leaf computes 2 ms before MPI_Reduce, every internal
 *          process 20 ms after it: the root must have its result within
 *          5 ms of virtual time (the internal processes' handlers forward
 *          the late contribution; without signals it waits 20 ms)
 *   long   MPI_Reduce of 1,024 and 4,096 doubles and 8,192 ints (the NIC's
 *          8 segments of 4 KB) and 4,097 doubles (past the NIC's 32 KB),
 *          roots moving, the edge values of ops
 *   allreduce  MPI_Allreduce ("A" lines) and MPI_Reduce to rank 0 then
 *          MPI_Bcast ("RB" lines) of the same data: sum, min, max and the
 *          bitwise ops, prod (which the NIC does not take), on 32- and
 *          64-bit integers, float and double, counts 1, 5, 1,000 and 4,096
 *          (one in place); every rank must get the same bits, which rank 0
 *          prints (the NIC's allreduce is that reduction and broadcast)
 *   nb     MPI_Ireduce and MPI_Iallreduce, three started before any is
 *          waited for (the NIC takes two at once: the third waits in its
 *          call), six rounds with the root moving; each result's hash
 *          ("H nb"; the Iallreduce's the same on every rank)
 *   exact  (MPI_NC_REDUCE_FP=exact) the float and double sums of
 *          tests/red/nic/exact_inputs.h, one vector per case: MPI_Reduce
 *          to ranks 0, 1 and the last (three trees), MPI_Allreduce and
 *          MPI_Iallreduce; every one prints "X FORMAT COUNT HASH" (the
 *          allreduces once every rank has the same bits), which must be
 *          tests/red/nic/exact_ref's correctly rounded sums whatever the
 *          root and the number of ranks
 *   cpu    the thesis's CPU-time benchmark: 200 iterations of compute
 *          (seeded skew up to MAXSKEW us, default 1000) then MPI_Reduce of
 *          4 doubles; each rank prints the virtual time it did not
 *          compute, per iteration
 *
 *   dead   (alone: a member is dead, so no barrier or MPI_Finalize ends
 *          it) every rank waits until virtual time BYPASS_DEAD_AT_US, when
 *          the suite's fault rule takes a node's link down, then makes
 *          three MPI_Reduce calls of 8 int64 sums to rank 0, computing
 *          BYPASS_DEAD_GAP_US between them, under MPI_ERRORS_RETURN (or
 *          the default handler with BYPASS_DEAD_FATAL=1); each call prints
 *          "DEAD rank R call K rc=CLASS" and, at the root on success,
 *          whether the result is the exact sum; the rank then returns.
 *          With BYPASS_DEAD_ALLREDUCE=1 the calls are MPI_Allreduce, and
 *          every rank checks a result it gets
 *
 * The seed is MPI_BYPASS_SEED (default 1), printed.
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../mpi/mpitest.h"
#include "../nic/exact_inputs.h"

/* the emulated host's clock and computation (nicoll/hostif.h) */
void nc_host_compute_ns(uint64_t ns);
uint64_t nc_host_now_ns(void);

static uint64_t seed = 1;
static uint64_t rng;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void reseed(uint64_t a, uint64_t b)
{
    rng = seed * 0x9E3779B97F4A7C15ull ^ (a + 1) * 0xBF58476D1CE4E5B9ull ^ (b + 7) * 0x94D049BB133111EBull;
    for (int i = 0; i < 4; i++)
        next();
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;

    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

enum kind { K_INT, K_BOOL, K_FLOAT, K_DOUBLE, K_LDOUBLE, K_PAIR };

struct ty {
    const char *name;
    MPI_Datatype t;
    enum kind k;
    size_t size;            /* C size of one element */
    /* value bytes of a pair: the value's, then the index's */
    size_t voff, vlen, ioff;
    enum kind vk;
};

typedef struct { float v; int i; } p_fi;
typedef struct { double v; int i; } p_di;
typedef struct { long v; int i; } p_li;
typedef struct { int v; int i; } p_ii;
typedef struct { short v; int i; } p_si;
typedef struct { long double v; int i; } p_ldi;

#define INT(n, t, c) { n, t, K_INT, sizeof(c), 0, sizeof(c), 0, K_INT }
#define PAIR(n, t, s, vk, vl) { n, t, K_PAIR, sizeof(s), offsetof(s, v), vl, offsetof(s, i), vk }
static struct ty types[] = {
    INT("char", MPI_CHAR, char), INT("schar", MPI_SIGNED_CHAR, signed char),
    INT("uchar", MPI_UNSIGNED_CHAR, unsigned char), INT("byte", MPI_BYTE, unsigned char),
    INT("short", MPI_SHORT, short), INT("ushort", MPI_UNSIGNED_SHORT, unsigned short),
    INT("int", MPI_INT, int), INT("unsigned", MPI_UNSIGNED, unsigned),
    INT("long", MPI_LONG, long), INT("ulong", MPI_UNSIGNED_LONG, unsigned long),
    INT("llong", MPI_LONG_LONG, long long), INT("ullong", MPI_UNSIGNED_LONG_LONG, unsigned long long),
    { "float", MPI_FLOAT, K_FLOAT, sizeof(float), 0, sizeof(float), 0, K_FLOAT },
    { "double", MPI_DOUBLE, K_DOUBLE, sizeof(double), 0, sizeof(double), 0, K_DOUBLE },
    { "ldouble", MPI_LONG_DOUBLE, K_LDOUBLE, sizeof(long double), 0, 10, 0, K_LDOUBLE },
    INT("wchar", MPI_WCHAR, uint32_t),
    { "bool", MPI_C_BOOL, K_BOOL, sizeof(_Bool), 0, 1, 0, K_BOOL },
    INT("int8", MPI_INT8_T, int8_t), INT("int16", MPI_INT16_T, int16_t),
    INT("int32", MPI_INT32_T, int32_t), INT("int64", MPI_INT64_T, int64_t),
    INT("uint8", MPI_UINT8_T, uint8_t), INT("uint16", MPI_UINT16_T, uint16_t),
    INT("uint32", MPI_UINT32_T, uint32_t), INT("uint64", MPI_UINT64_T, uint64_t),
    INT("aint", MPI_AINT, MPI_Aint), INT("offset", MPI_OFFSET, MPI_Offset),
    INT("count", MPI_COUNT, MPI_Count),
    PAIR("float_int", MPI_FLOAT_INT, p_fi, K_FLOAT, 4),
    PAIR("double_int", MPI_DOUBLE_INT, p_di, K_DOUBLE, 8),
    PAIR("long_int", MPI_LONG_INT, p_li, K_INT, sizeof(long)),
    PAIR("2int", MPI_2INT, p_ii, K_INT, sizeof(int)),
    PAIR("short_int", MPI_SHORT_INT, p_si, K_INT, sizeof(short)),
    PAIR("ldouble_int", MPI_LONG_DOUBLE_INT, p_ldi, K_LDOUBLE, 10),
};
#define NTYPES (sizeof types / sizeof types[0])

static struct { const char *name; MPI_Op op; } ops[] = {
    { "max", MPI_MAX }, { "min", MPI_MIN }, { "sum", MPI_SUM }, { "prod", MPI_PROD },
    { "land", MPI_LAND }, { "band", MPI_BAND }, { "lor", MPI_LOR }, { "bor", MPI_BOR },
    { "lxor", MPI_LXOR }, { "bxor", MPI_BXOR }, { "minloc", MPI_MINLOC }, { "maxloc", MPI_MAXLOC },
};
#define NOPS (sizeof ops / sizeof ops[0])

/* a double from the edge table or a random one */
static double fp_value(void)
{
    static const uint64_t edge[] = {
        0x7FF8000000000000ull, 0xFFF8000000000000ull, 0x7FF800000000BEEFull,
        0xFFF4000000000123ull /* signalling */, 0x7FF0000000000000ull, 0xFFF0000000000000ull,
        0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull,
        0x800FFFFFFFFFFFFFull, 0x7FEFFFFFFFFFFFFFull, 0x3FF0000000000001ull,
    };
    uint64_t r = next();
    double d;

    if (r % 8 == 0) {
        uint64_t b = edge[(r >> 8) % (sizeof edge / sizeof edge[0])];
        memcpy(&d, &b, sizeof d);
        return d;
    }
    /* a random value in a few binades around 1, both signs: ties and cancellations */
    d = ldexp((double)(next() >> 11), -53 + (int)(next() % 9) - 4);
    return r & 2 ? -d : d;
}

static void fill_val(unsigned char *p, enum kind k, size_t len)
{
    double d = fp_value();

    switch (k) {
    case K_FLOAT: {
        float f = (float)d;
        if (isnan(d)) {     /* a float NaN with a payload of its own */
            uint32_t b = 0x7FC00000u | (uint32_t)(next() & 0x3FFFFF) | (next() & 1 ? 0x80000000u : 0);
            memcpy(&f, &b, 4);
        }
        memcpy(p, &f, 4);
        break;
    }
    case K_DOUBLE:
        memcpy(p, &d, 8);
        break;
    case K_LDOUBLE: {
        long double l = (long double)d;
        memset(p, 0, sizeof l);
        memcpy(p, &l, 10);
        break;
    }
    case K_BOOL:
        *p = (unsigned char)(next() & 1);
        break;
    default:
        /* integers: small ones mostly (ties of min/max, products that fit), some random bits */
        if (next() % 4 == 0) {
            for (size_t i = 0; i < len; i++)
                p[i] = (unsigned char)next();
        } else {
            memset(p, 0, len);
            p[0] = (unsigned char)(next() % 5);
        }
    }
}

static void fill(unsigned char *buf, const struct ty *t, int count)
{
    memset(buf, 0, t->size * (size_t)count);
    for (int e = 0; e < count; e++) {
        unsigned char *p = buf + t->size * (size_t)e;

        if (t->k == K_PAIR) {
            if (t->vk == K_INT) {
                memset(p + t->voff, 0, t->vlen);
                p[t->voff] = (unsigned char)(next() % 3);     /* ties: the index decides */
            } else {
                fill_val(p + t->voff, t->vk, t->vlen);
            }
            int i = (int)(next() % 4);
            memcpy(p + t->ioff, &i, sizeof i);
        } else {
            fill_val(p, t->k, t->size);
        }
    }
}

static uint64_t hash(const unsigned char *buf, const struct ty *t, int count)
{
    uint64_t h = 0xCBF29CE484222325ull;

    for (int e = 0; e < count; e++) {
        const unsigned char *p = buf + t->size * (size_t)e;

        h = fnv(h, p + t->voff, t->vlen);
        if (t->k == K_PAIR)
            h = fnv(h, p + t->ioff, sizeof(int));
    }
    return h;
}

static void s_ops(void)
{
    /* BYPASS_OPS_COUNTS: the counts, comma-separated (default 1,5,64; at most 64) */
    const char *cs = getenv("BYPASS_OPS_COUNTS");
    int counts[8], ncounts = 0;
    size_t maxb = 64 * sizeof(p_ldi) + 64;
    unsigned char *in = malloc(maxb), *out = malloc(maxb);
    unsigned ran = 0;

    for (const char *c = cs ? cs : "1,5,64"; *c && ncounts < 8; ) {
        int v = atoi(c);
        counts[ncounts++] = v < 1 ? 1 : v > 64 ? 64 : v;
        c = strchr(c, ',') ? strchr(c, ',') + 1 : "";
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (unsigned o = 0; o < NOPS; o++)
        for (unsigned ti = 0; ti < NTYPES; ti++)
            for (int ci = 0; ci < ncounts; ci++) {
                const struct ty *t = &types[ti];
                int count = counts[ci];
                int root = (int)((o * 7 + ti * 3 + (unsigned)count) % (unsigned)np);

                reseed(o * 1000 + ti * 10 + (uint64_t)count, (uint64_t)me);
                fill(in, t, count);
                memset(out, 0xA5, maxb);
                if (MPI_Reduce(in, out, count, t->t, ops[o].op, root, MPI_COMM_WORLD) != MPI_SUCCESS)
                    continue;   /* not a combination MPI_Reduce takes: refused on every rank */
                ran++;
                if (me == root)
                    printf("H ops %s %s %d root %d %016llx\n", ops[o].name, t->name, count, root,
                           (unsigned long long)hash(out, t, count));
            }
    /* more than one packet: the host algorithm serves it */
    {
        double *a = malloc(600 * sizeof *a), *b = malloc(600 * sizeof *b);
        reseed(99, (uint64_t)me);
        for (int i = 0; i < 600; i++)
            a[i] = fp_value();
        CHECK(MPI_Reduce(a, b, 600, MPI_DOUBLE, MPI_SUM, np - 1, MPI_COMM_WORLD) == MPI_SUCCESS,
              "600 doubles");
        if (me == np - 1)
            printf("H ops sum double 600 root %d %016llx\n", np - 1,
                   (unsigned long long)fnv(0xCBF29CE484222325ull, b, 600 * sizeof *b));
        free(a);
        free(b);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    if (me == 0)
        printf("ops: %u combinations reduced (seed %llu)\n", ran, (unsigned long long)seed);
    CHECK(ran == 267u * (unsigned)ncounts, "%u combinations ran, want 267 per count", ran);
    free(in);
    free(out);
}

static void s_skew(void)
{
    double in[32], out[32];

    for (int it = 0; it < 16; it++) {
        reseed(5000 + (uint64_t)it, (uint64_t)me);
        for (int i = 0; i < 32; i++)
            in[i] = fp_value();
        /* the same draw on every rank: who is skewed, by how much */
        reseed(6000 + (uint64_t)it, 0);
        uint64_t who = next(), amount = next();
        if (who >> me & 1)
            nc_host_compute_ns((amount >> (8 * (me % 4))) % 3000000);
        MPI_Reduce(in, out, 32, MPI_DOUBLE, it % 3 == 0 ? MPI_MAX : MPI_SUM, it % np,
                   MPI_COMM_WORLD);
        if (me == it % np)
            printf("H skew %d %016llx\n", it, (unsigned long long)fnv(0xCBF29CE484222325ull, out, sizeof out));
        if (!(who >> (me + 16) & 1))
            nc_host_compute_ns((amount >> 32) % 3000000);
    }
}

static void s_burst(void)
{
    int64_t in[8], out[8];

    for (int it = 0; it < 40; it++) {
        int root = (it * 3) % np;

        for (int i = 0; i < 8; i++)
            in[i] = (int64_t)(me + 1) * 1000003 * (it + 1) + i;
        if (it % 4 == 0 && me % 2)
            nc_host_compute_ns(1000000);
        if (it % 5 == 0 && me == root) {
            /* the root's data in place */
            memcpy(out, in, sizeof out);
            MPI_Reduce(MPI_IN_PLACE, out, 8, MPI_INT64_T, MPI_SUM, root, MPI_COMM_WORLD);
        } else {
            MPI_Reduce(in, out, 8, MPI_INT64_T, MPI_SUM, root, MPI_COMM_WORLD);
        }
        if (me == root) {
            int64_t want = (int64_t)np * (np + 1) / 2 * 1000003 * (it + 1);
            for (int i = 0; i < 8; i++)
                CHECK(out[i] == want + (int64_t)np * i, "burst %d element %d: %lld, want %lld", it,
                      i, (long long)out[i], (long long)(want + (int64_t)np * i));
            printf("H burst %d %016llx\n", it, (unsigned long long)fnv(0xCBF29CE484222325ull, out, sizeof out));
        }
    }
}

/* Reductions on three communicators interleaved (the world, a duplicate,
 * halves by parity), skewed: each matched to its own communicator's
 * instance. */
static void s_comms(void)
{
    MPI_Comm dup, half;
    int hme, hnp;

    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
    MPI_Comm_rank(half, &hme);
    MPI_Comm_size(half, &hnp);
    for (int it = 0; it < 12; it++) {
        int64_t a = (int64_t)(me + 1) * (it + 3), b = a * 7, h = a * 11, ra = 0, rb = 0, rh = 0;
        int root = it % np, hroot = it % hnp;

        if ((it + me) % 3 == 0)
            nc_host_compute_ns(500000);
        MPI_Reduce(&a, &ra, 1, MPI_INT64_T, MPI_SUM, root, MPI_COMM_WORLD);
        MPI_Reduce(&h, &rh, 1, MPI_INT64_T, MPI_SUM, hroot, half);
        MPI_Reduce(&b, &rb, 1, MPI_INT64_T, MPI_SUM, np - 1 - root, dup);
        int64_t all = (int64_t)np * (np + 1) / 2 * (it + 3), part = 0;
        for (int r = me % 2; r < np; r += 2)
            part += (int64_t)(r + 1) * (it + 3) * 11;
        if (me == root)
            CHECK(ra == all, "comms %d world: %lld, want %lld", it, (long long)ra, (long long)all);
        if (me == np - 1 - root)
            CHECK(rb == all * 7, "comms %d dup: %lld, want %lld", it, (long long)rb, (long long)(all * 7));
        if (hme == hroot) {
            CHECK(rh == part, "comms %d half %d: %lld, want %lld", it, me % 2, (long long)rh, (long long)part);
            printf("H comms %d half %d %lld\n", it, me % 2, (long long)rh);
        }
    }
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
}

static void s_late(void)
{
    double in[4] = { me, me * 2.5, -me, 1.0 / (me + 1) }, out[4];
    /* root 0's binomial tree: the leaf np - 1 (odd) is late; internal
     * processes are the even ranks but 0 (their first set bit is not the
     * highest) */
    bool internal = me && !(me & 1);
    uint64_t t0;

    MPI_Barrier(MPI_COMM_WORLD);
    if (me == np - 1)
        nc_host_compute_ns(2000000);
    t0 = nc_host_now_ns();
    MPI_Reduce(in, out, 4, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0) {
        uint64_t us = (nc_host_now_ns() - t0) / 1000;
        printf("late root_us=%llu\n", (unsigned long long)us);
        printf("H late %016llx\n", (unsigned long long)fnv(0xCBF29CE484222325ull, out, sizeof out));
        CHECK(us < 5000, "the root waited %llu us for a contribution 2 ms late", (unsigned long long)us);
    }
    if (internal)
        nc_host_compute_ns(20000000);
}

/* the edge values of ops into count elements of t (a float or double
 * type, or an integer one) */
static void fill_any(void *buf, MPI_Datatype t, int count)
{
    unsigned char *b = buf;

    for (int i = 0; i < count; i++) {
        if (t == MPI_DOUBLE) {
            double d = fp_value();
            memcpy(b + 8 * (size_t)i, &d, 8);
        } else if (t == MPI_FLOAT) {
            float f = (float)fp_value();
            memcpy(b + 4 * (size_t)i, &f, 4);
        } else if (t == MPI_INT || t == MPI_UNSIGNED) {
            uint32_t v = (uint32_t)next();
            memcpy(b + 4 * (size_t)i, &v, 4);
        } else {
            uint64_t v = next();
            memcpy(b + 8 * (size_t)i, &v, 8);
        }
    }
}

static void s_first(void)
{
    int64_t in[8], out[8], want;
    int root = np > 1 ? 1 : 0;

    for (int i = 0; i < 8; i++)
        in[i] = (int64_t)(me + 1) * 1000003 + i;
    want = (int64_t)np * (np + 1) / 2 * 1000003;
    CHECK(MPI_Reduce(in, out, 8, MPI_INT64_T, MPI_SUM, root, MPI_COMM_WORLD) == MPI_SUCCESS, "first reduce");
    for (int i = 0; me == root && i < 8; i++)
        CHECK(out[i] == want + (int64_t)np * i, "first reduce: element %d is %lld", i, (long long)out[i]);
    CHECK(MPI_Allreduce(in, out, 8, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS, "first allreduce");
    for (int i = 0; i < 8; i++)
        CHECK(out[i] == want + (int64_t)np * i, "first allreduce: element %d is %lld", i, (long long)out[i]);
}

static void s_long(void)
{
    static const struct { MPI_Datatype t; const char *name; int count; size_t size; } c[] = {
        { MPI_DOUBLE, "double", 1024, 8 }, { MPI_DOUBLE, "double", 4096, 8 },
        { MPI_INT, "int", 8192, 4 }, { MPI_DOUBLE, "double", 4097, 8 },
    };

    for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) {
        size_t bytes = c[k].size * (size_t)c[k].count;
        unsigned char *in = malloc(bytes), *out = malloc(bytes);
        int root = (int)(k * 3 % (unsigned)np);

        reseed(8000 + k, (uint64_t)me);
        fill_any(in, c[k].t, c[k].count);
        CHECK(MPI_Reduce(in, out, c[k].count, c[k].t, k == 2 ? MPI_BXOR : MPI_SUM, root,
                         MPI_COMM_WORLD) == MPI_SUCCESS, "long %u", k);
        if (me == root)
            printf("H long %s %d root %d %016llx\n", c[k].name, c[k].count, root,
                   (unsigned long long)fnv(0xCBF29CE484222325ull, out, bytes));
        free(in);
        free(out);
    }
}

static void s_allreduce(void)
{
    static const struct { MPI_Datatype t; const char *name; size_t size; bool fp; } ty[] = {
        { MPI_INT, "int", 4, false }, { MPI_UNSIGNED, "unsigned", 4, false },
        { MPI_LONG, "long", 8, false }, { MPI_UINT64_T, "uint64", 8, false },
        { MPI_FLOAT, "float", 4, true }, { MPI_DOUBLE, "double", 8, true },
    };
    static const struct { MPI_Op op; const char *name; bool ints_only; } op[] = {
        { MPI_SUM, "sum", false }, { MPI_MIN, "min", false }, { MPI_MAX, "max", false },
        { MPI_BAND, "band", true }, { MPI_BOR, "bor", true }, { MPI_BXOR, "bxor", true },
        { MPI_PROD, "prod", false },
    };
    static const int counts[] = { 1, 5, 1000, 4096 };
    unsigned cases = 0;

    for (unsigned o = 0; o < sizeof op / sizeof op[0]; o++)
        for (unsigned t = 0; t < sizeof ty / sizeof ty[0]; t++)
            for (unsigned ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
                int count = counts[ci];
                size_t bytes = ty[t].size * (size_t)count;
                unsigned char *in = malloc(bytes), *a = malloc(bytes), *rb = malloc(bytes);
                uint64_t h[2], *all = malloc(2 * sizeof *all * (size_t)np);
                bool in_place = o == 0 && t == 5 && ci == 2;

                if (op[o].ints_only && ty[t].fp)
                    goto next;
                reseed(9000 + o * 100 + t * 10 + ci, (uint64_t)me);
                fill_any(in, ty[t].t, count);
                if (in_place) {
                    memcpy(a, in, bytes);
                    CHECK(MPI_Allreduce(MPI_IN_PLACE, a, count, ty[t].t, op[o].op, MPI_COMM_WORLD) ==
                          MPI_SUCCESS, "allreduce in place");
                } else {
                    CHECK(MPI_Allreduce(in, a, count, ty[t].t, op[o].op, MPI_COMM_WORLD) ==
                          MPI_SUCCESS, "allreduce %s %s %d", op[o].name, ty[t].name, count);
                }
                CHECK(MPI_Reduce(in, rb, count, ty[t].t, op[o].op, 0, MPI_COMM_WORLD) == MPI_SUCCESS,
                      "reduce %s %s %d", op[o].name, ty[t].name, count);
                CHECK(MPI_Bcast(rb, count, ty[t].t, 0, MPI_COMM_WORLD) == MPI_SUCCESS, "bcast");
                h[0] = fnv(0xCBF29CE484222325ull, a, bytes);
                h[1] = fnv(0xCBF29CE484222325ull, rb, bytes);
                MPI_Gather(h, 2, MPI_UINT64_T, all, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD);
                if (me == 0) {
                    for (int r = 1; r < np; r++)
                        CHECK(all[2 * r] == h[0] && all[2 * r + 1] == h[1],
                              "rank %d has other bits for %s %s %d", r, op[o].name, ty[t].name, count);
                    printf("A %s %s %d%s %016llx\n", op[o].name, ty[t].name, count,
                           in_place ? " in_place" : "", (unsigned long long)h[0]);
                    printf("RB %s %s %d%s %016llx\n", op[o].name, ty[t].name, count,
                           in_place ? " in_place" : "", (unsigned long long)h[1]);
                }
                cases++;
            next:
                free(in);
                free(a);
                free(rb);
                free(all);
            }
    CHECK(cases == 144, "%u allreduce cases ran, want 144", cases);
}

static void s_nb(void)
{
    double *a = malloc(512 * sizeof *a), *ra = malloc(512 * sizeof *ra);
    float b[100], rb[100];
    int c[1000], rc[1000];

    for (int it = 0; it < 6; it++) {
        MPI_Request q[3];
        int root = it % np;
        uint64_t h, lo, hi;

        reseed(9500 + (uint64_t)it, (uint64_t)me);
        fill_any(a, MPI_DOUBLE, 512);
        fill_any(b, MPI_FLOAT, 100);
        fill_any(c, MPI_INT, 1000);
        CHECK(MPI_Ireduce(a, ra, 512, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD, &q[0]) == MPI_SUCCESS, "ireduce");
        CHECK(MPI_Iallreduce(b, rb, 100, MPI_FLOAT, MPI_MIN, MPI_COMM_WORLD, &q[1]) == MPI_SUCCESS, "iallreduce");
        CHECK(MPI_Ireduce(c, rc, 1000, MPI_INT, MPI_BXOR, root, MPI_COMM_WORLD, &q[2]) == MPI_SUCCESS, "ireduce");
        CHECK(MPI_Waitall(3, q, MPI_STATUSES_IGNORE) == MPI_SUCCESS, "waitall");
        if (me == root)
            printf("H nb %d reduce %016llx %016llx\n", it,
                   (unsigned long long)fnv(0xCBF29CE484222325ull, ra, 512 * sizeof *ra),
                   (unsigned long long)fnv(0xCBF29CE484222325ull, rc, sizeof rc));
        h = fnv(0xCBF29CE484222325ull, rb, sizeof rb);
        MPI_Allreduce(&h, &lo, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
        MPI_Allreduce(&h, &hi, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
        CHECK(lo == hi, "iallreduce %d: the ranks got other bits", it);
        if (me == 0)
            printf("H nb %d iallreduce %016llx\n", it, (unsigned long long)h);
    }
    free(a);
    free(ra);
}

/* one "X" line: every rank's hash the same, printed by rank 0 */
static void x_agreed(const char *fmt, unsigned count, uint64_t h)
{
    uint64_t lo, hi;

    MPI_Allreduce(&h, &lo, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&h, &hi, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    CHECK(lo == hi, "exact allreduce of %s %u: the ranks got other bits", fmt, count);
    if (me == 0)
        printf("X %s %u %016llx\n", fmt, count, (unsigned long long)h);
}

static void s_exact(void)
{
    for (unsigned c = 0; c < XI_NCASES; c++) {
        unsigned n = XI_CASES[c].count, f64 = XI_CASES[c].f64;
        size_t size = f64 ? 8 : 4, bytes = size * n;
        MPI_Datatype t = f64 ? MPI_DOUBLE : MPI_FLOAT;
        const char *fmt = f64 ? "double" : "float";
        unsigned char *in = calloc(n, size), *out = malloc(bytes);
        int roots[3] = { 0, 1 % np, np - 1 };
        MPI_Request q;

        for (unsigned e = 0; e < n; e++)
            for (unsigned j = 0; j < XI_VALUES; j++)
                if (xi_rank(seed, (unsigned)np, c, e, j) == (unsigned)me) {
                    uint64_t v = xi_value(seed, c, e, j);
                    uint32_t w = (uint32_t)v;

                    memcpy(in + e * size, f64 ? (void *)&v : (void *)&w, size);
                }
        for (int k = 0; k < 3; k++) {
            CHECK(MPI_Reduce(in, out, (int)n, t, MPI_SUM, roots[k], MPI_COMM_WORLD) == MPI_SUCCESS,
                  "exact reduce %s %u to %d", fmt, n, roots[k]);
            if (me == roots[k])
                printf("X %s %u %016llx\n", fmt, n,
                       (unsigned long long)fnv(0xCBF29CE484222325ull, out, bytes));
        }
        CHECK(MPI_Allreduce(in, out, (int)n, t, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS,
              "exact allreduce %s %u", fmt, n);
        x_agreed(fmt, n, fnv(0xCBF29CE484222325ull, out, bytes));
        memset(out, 0, bytes);
        CHECK(MPI_Iallreduce(in, out, (int)n, t, MPI_SUM, MPI_COMM_WORLD, &q) == MPI_SUCCESS &&
              MPI_Wait(&q, MPI_STATUS_IGNORE) == MPI_SUCCESS, "exact iallreduce %s %u", fmt, n);
        x_agreed(fmt, n, fnv(0xCBF29CE484222325ull, out, bytes));
        free(in);
        free(out);
    }
}

static void s_cpu(void)
{
    const char *m = getenv("MAXSKEW");
    uint64_t maxskew = m ? strtoull(m, NULL, 10) : 1000, computed = 0, t0;
    double in[4] = { 1, 2, 3, me }, out[4];
    const int iters = 200;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = nc_host_now_ns();
    for (int it = 0; it < iters; it++) {
        reseed(7000 + (uint64_t)it, (uint64_t)me);
        uint64_t ns = maxskew ? next() % (maxskew * 1000) : 0;
        nc_host_compute_ns(ns);
        computed += ns;
        MPI_Reduce(in, out, 4, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    }
    printf("cpu rank %d maxskew_us=%llu overhead_ns_per_iter=%llu\n", me,
           (unsigned long long)maxskew,
           (unsigned long long)((nc_host_now_ns() - t0 - computed) / (uint64_t)iters));
}

static int s_dead(void)
{
    uint64_t at = strtoull(getenv("BYPASS_DEAD_AT_US") ? getenv("BYPASS_DEAD_AT_US") : "0", NULL, 10) * 1000;
    uint64_t gap = strtoull(getenv("BYPASS_DEAD_GAP_US") ? getenv("BYPASS_DEAD_GAP_US") : "0", NULL, 10) * 1000;

    if (!getenv("BYPASS_DEAD_FATAL"))
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Barrier(MPI_COMM_WORLD);
    if (nc_host_now_ns() >= at) {
        printf("FAIL rank %d: at %llu us already, after BYPASS_DEAD_AT_US\n", me,
               (unsigned long long)(nc_host_now_ns() / 1000));
        return 1;
    }
    nc_host_compute_ns(at - nc_host_now_ns());
    for (int k = 1; k <= 3; k++) {
        int64_t in[8], out[8], want;
        int rc, cls;

        for (int i = 0; i < 8; i++)
            in[i] = (int64_t)(me + 1) * 1000003 * k + i;
        memset(out, 0, sizeof out);
        if (getenv("BYPASS_DEAD_ALLREDUCE"))
            rc = MPI_Allreduce(in, out, 8, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
        else
            rc = MPI_Reduce(in, out, 8, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Error_class(rc, &cls);
        printf("DEAD rank %d call %d rc=%d at %llu us\n", me, k, cls,
               (unsigned long long)(nc_host_now_ns() / 1000));
        if ((me == 0 || getenv("BYPASS_DEAD_ALLREDUCE")) && rc == MPI_SUCCESS) {
            bool ok = true;

            want = (int64_t)np * (np + 1) / 2 * 1000003 * k;
            for (int i = 0; i < 8; i++)
                ok &= out[i] == want + (int64_t)np * i;
            printf("DEAD result call %d %s\n", k, ok ? "exact" : "WRONG");
        }
        nc_host_compute_ns(gap);
    }
    printf("DEAD rank %d returns\n", me);
    return 0;
}

int main(int argc, char **argv)
{
    static const struct scenario s[] = {
        { "first", s_first }, { "ops", s_ops }, { "skew", s_skew }, { "burst", s_burst }, { "late", s_late }, { "comms", s_comms },
        { "long", s_long }, { "allreduce", s_allreduce }, { "nb", s_nb }, { "exact", s_exact }, { "cpu", s_cpu }, { NULL, NULL },
    };
    const char *e = getenv("MPI_BYPASS_SEED");

    if (e)
        seed = strtoull(e, NULL, 10);
    if (argc == 2 && !strcmp(argv[1], "dead")) {
        MPI_Init(&argc, &argv);
        MPI_Comm_rank(MPI_COMM_WORLD, &me);
        MPI_Comm_size(MPI_COMM_WORLD, &np);
        return s_dead();
    }
    return run_scenarios(argc, argv, s);
}
