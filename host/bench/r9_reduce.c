/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * R9 (seed 004 section 3.5): the thesis's two microbenchmarks of
 * application-bypass MPI_Reduce. An ordinary MPI program, built with
 * lanai-mpicc and run by host/bench/r9 twice per point, with
 * MPI_NC_REDUCE=host (the binomial tree on the host) and =bypass
 * (coll_reduce_bypass.c), and by host/bench/red with =nic too
 * (coll_reduce_nic.c). Every reduction is MPI_SUM of COUNT doubles (or
 * ints: --type int) to rank 0. docs/bench-r9.md, docs/bench-red.md.
 *
 *   r9_reduce [--type double|int] cpu ITERS SEED COUNTS CATCHUPS MAXSKEW_US...
 *     CPU utilisation under process skew. COUNTS is one count or several
 *     separated by commas, each run in turn, CATCHUPS one CATCHUP_US for
 *     all or one for each count. For each maximum skew M, ITERS
 *     iterations separated by a barrier; in each, every rank starts its
 *     clock, computes a skew drawn uniform in [0, M] us (busy time on the
 *     host, which a signal pre-empts like a busy loop), calls MPI_Reduce,
 *     computes a catch-up delay of M + CATCHUP_US (the maximum skew plus a
 *     conservative bound on the reduction's latency, so that every late
 *     contribution is handled inside the measured interval) and stops its
 *     clock. Its CPU time for the iteration is the interval less the skew
 *     and the catch-up delay. Rank 0 prints a comment line with every
 *     rank's mean, then
 *       "cpu COUNT M MEAN_US MIN_RANK_US MAX_RANK_US"
 *     with MEAN_US the mean over every rank's iterations (the thesis's
 *     average across all nodes) and the extremes of the per-rank means.
 *     The draws come from xorshift64* seeded with SEED, M, the iteration
 *     and the rank (printed), so that a point's draws do not depend on the
 *     points run before it.
 *
 *   r9_reduce [--type double|int] latency ITERS COUNT...
 *     Latency without skew. The last node is the rank furthest from the
 *     root in the binomial tree (most hops; the highest such rank). First
 *     its one-way latency to the root: ITERS ping-pongs of an empty
 *     message, half the mean round trip. Then for each count ITERS
 *     reductions separated by a barrier: the last node starts its clock
 *     just before it calls MPI_Reduce, the root, once its MPI_Reduce
 *     returns, sends it an empty notification, and the last node stops its
 *     clock on receiving it and subtracts the one-way latency. Rank 0
 *     prints "oneway LAST US" and "latency COUNT US".
 *
 * Both print "# ..." lines saying what was run. A count is 1..COUNT_MAX
 * elements (4,096: the largest the NIC-based reduction takes, 32 KB of
 * doubles).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/hostif.h"

#define BENCH_PROG "r9_reduce"
#include "mpi_bench.h"

#define WARMUP 5
#define TAG_NOTIFY 9
#define COUNT_MAX 4096

static int me, np;
/* the elements reduced: MPI_DOUBLE (the thesis's) or MPI_INT */
static MPI_Datatype type;
static size_t esize;
static const char *tname;

/* the skews' generator (mpi_bench.h) */
static uint64_t rng;
static void reseed(unsigned long seed, unsigned long it)
{
    rng = ((uint64_t)seed * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)it * 0xBF58476D1CE4E5B9ull) ^
          ((uint64_t)me * 0x94D049BB133111EBull);
    rng |= 1;
    for (int i = 0; i < 4; i++)
        bench_xorshift(&rng);
}

/* COUNT elements of the type, each rank's own values */
static void *filled(int count)
{
    void *v = malloc(esize * (size_t)count);

    for (int i = 0; i < count; i++) {
        if (type == MPI_INT)
            ((int *)v)[i] = (me + 1) * 3 + i;
        else
            ((double *)v)[i] = (double)(me + 1) * 0.5 + i;
    }
    return v;
}

static void cpu(int iters, unsigned long seed, int count, uint64_t catchup_us, int nmax, char **maxs)
{
    void *in = filled(count), *out = malloc(esize * (size_t)count);
    double *per_rank = malloc(sizeof *per_rank * (size_t)np);

    if (me == 0)
        printf("# cpu: %d ranks, %d iterations per point, %d %ss, catch-up max + %llu us, "
               "skew seed %lu (xorshift64* on seed, maximum, iteration, rank)\n",
               np, iters, count, tname, (unsigned long long)catchup_us, seed);
    for (int i = 0; i < WARMUP; i++)
        MPI_Reduce(in, out, count, type, MPI_SUM, 0, MPI_COMM_WORLD);
    for (int k = 0; k < nmax; k++) {
        uint64_t max_ns = bench_arg_num("MAXSKEW_US", maxs[k], 0, 1000000) * 1000;
        uint64_t catchup_ns = max_ns + catchup_us * 1000, busy = 0;
        double mine, sum = 0, lo = 0, hi = 0;

        for (int it = 0; it < iters; it++) {
            reseed(seed, (unsigned long)(max_ns / 1000) << 32 | (unsigned long)it);
            uint64_t skew = max_ns ? bench_xorshift(&rng) % (max_ns + 1) : 0;

            MPI_Barrier(MPI_COMM_WORLD);
            uint64_t t0 = nc_host_now_ns();
            nc_host_compute_ns(skew);
            MPI_Reduce(in, out, count, type, MPI_SUM, 0, MPI_COMM_WORLD);
            nc_host_compute_ns(catchup_ns);
            busy += nc_host_now_ns() - t0 - skew - catchup_ns;
        }
        mine = (double)busy / iters / 1000.0;
        MPI_Gather(&mine, 1, MPI_DOUBLE, per_rank, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (me == 0) {
            lo = hi = per_rank[0];
            printf("# cpu %d %s per rank:", count, maxs[k]);
            for (int r = 0; r < np; r++) {
                sum += per_rank[r];
                lo = per_rank[r] < lo ? per_rank[r] : lo;
                hi = per_rank[r] > hi ? per_rank[r] : hi;
                printf(" %.1f", per_rank[r]);
            }
            printf("\ncpu %d %s %.3f %.3f %.3f\n", count, maxs[k], sum / np, lo, hi);
        }
    }
    free(in);
    free(out);
    free(per_rank);
}

static int popcount(unsigned v)
{
    int n = 0;

    for (; v; v &= v - 1)
        n++;
    return n;
}

static void latency(int iters, int ncounts, char **counts)
{
    int last = 1;
    double oneway = 0;

    /* root 0: the relative rank is the rank; hops = set bits */
    for (int r = 1; r < np; r++)
        if (popcount((unsigned)r) >= popcount((unsigned)last))
            last = r;
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0 || me == last) {
        int peer = me == 0 ? last : 0;
        uint64_t t0 = 0;

        for (int i = -WARMUP; i < iters; i++) {
            if (i == 0)
                t0 = nc_host_now_ns();
            if (me == last) {
                MPI_Send(NULL, 0, MPI_BYTE, peer, TAG_NOTIFY, MPI_COMM_WORLD);
                MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG_NOTIFY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG_NOTIFY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(NULL, 0, MPI_BYTE, peer, TAG_NOTIFY, MPI_COMM_WORLD);
            }
        }
        oneway = (double)(nc_host_now_ns() - t0) / iters / 2.0;
    }
    MPI_Bcast(&oneway, 1, MPI_DOUBLE, last, MPI_COMM_WORLD);
    if (me == 0)
        printf("# latency: %d ranks, %d reductions per count, last node %d\noneway %d %.3f\n", np,
               iters, last, last, oneway / 1000.0);
    for (int k = 0; k < ncounts; k++) {
        int count = (int)bench_arg_num("COUNT", counts[k], 1, COUNT_MAX);
        void *in = filled(count), *out = malloc(esize * (size_t)count);
        uint64_t total = 0;

        for (int i = -WARMUP; i < iters; i++) {
            MPI_Barrier(MPI_COMM_WORLD);
            uint64_t t0 = nc_host_now_ns();
            MPI_Reduce(in, out, count, type, MPI_SUM, 0, MPI_COMM_WORLD);
            if (me == 0)
                MPI_Send(NULL, 0, MPI_BYTE, last, TAG_NOTIFY, MPI_COMM_WORLD);
            if (me == last) {
                MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_NOTIFY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (i >= 0)
                    total += nc_host_now_ns() - t0;
            }
        }
        double lat = (double)total / iters - oneway;
        MPI_Bcast(&lat, 1, MPI_DOUBLE, last, MPI_COMM_WORLD);
        if (me == 0)
            printf("latency %d %.3f\n", count, lat / 1000.0);
        free(in);
        free(out);
    }
}

/* cpu for each of the comma-separated COUNTS, with the matching one of the
 * comma-separated CATCHUPS (or the one given for all) */
static void cpu_counts(int iters, unsigned long seed, char *counts, char *catchups, int nmax,
                       char **maxs)
{
    char *cs, *us, *c = strtok_r(counts, ",", &cs), *u = strtok_r(catchups, ",", &us);
    uint64_t catchup_us = bench_arg_num("CATCHUP_US", u ? u : "", 0, 1000000);

    for (; c; c = strtok_r(NULL, ",", &cs)) {
        cpu(iters, seed, (int)bench_arg_num("COUNT", c, 1, COUNT_MAX), catchup_us, nmax, maxs);
        if ((u = strtok_r(NULL, ",", &us)))
            catchup_us = bench_arg_num("CATCHUP_US", u, 0, 1000000);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    type = MPI_DOUBLE, esize = sizeof(double), tname = "double";
    if (argc >= 3 && !strcmp(argv[1], "--type") && !strcmp(argv[2], "int")) {
        type = MPI_INT, esize = sizeof(int), tname = "int";
        argc -= 2, argv += 2;
    } else if (argc >= 3 && !strcmp(argv[1], "--type") && !strcmp(argv[2], "double")) {
        argc -= 2, argv += 2;
    }
    if (argc >= 7 && !strcmp(argv[1], "cpu") && np >= 2) {
        cpu_counts((int)bench_arg_num("ITERS", argv[2], 1, 1000000), bench_arg_num("SEED", argv[3], 0, ~0ul),
                   argv[4], argv[5], argc - 6, argv + 6);
    } else if (argc >= 4 && !strcmp(argv[1], "latency") && np >= 2) {
        latency((int)bench_arg_num("ITERS", argv[2], 1, 1000000), argc - 3, argv + 3);
    } else {
        if (me == 0)
            fprintf(stderr, "usage: r9_reduce [--type double|int] cpu ITERS SEED COUNTS CATCHUPS MAXSKEW_US...\n"
                            "       r9_reduce [--type double|int] latency ITERS COUNT...   (2 or more ranks)\n"
                            "       (COUNTS, CATCHUPS: separated by commas, a count 1..4096)\n");
        MPI_Finalize();
        return 2;
    }
    MPI_Finalize();
    return 0;
}
