/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * R3 and R4 (seed 000 §7.2, §7.3): MPI_Bcast latency and the host CPU time
 * spent in MPI_Bcast under process skew. An ordinary MPI program, built
 * with lanai-mpicc and run by host/bench/r3r4 twice, with MPI_NC_BCAST=host
 * (MPICH's binomial tree) and =nic (NIC multicast). docs/bench-r3r4.md.
 *
 *   r3r4_bcast latency ITERS SIZE...
 *     for each size: 20 warm-up broadcasts, then for each non-root rank L
 *     in turn ITERS broadcasts from rank 0, each followed by an empty
 *     message from L to the root, which the root waits for; the latency
 *     to L is the mean time of one such round at the root, and the
 *     broadcast latency is the largest over L (the paper's method).
 *     Rank 0 prints "latency SIZE US".
 *   r3r4_bcast skew ITERS SEED SIZE AVG_US...
 *     for each average skew: ITERS times a barrier, then every non-root
 *     rank draws a skew uniform in [-max/2, +max/2] with max = 3 x the
 *     average (the expected distance between two points uniform on
 *     [0, max] is max/3), computes for it if it is positive, and calls
 *     MPI_Bcast from rank 0; the time inside MPI_Bcast is summed. Rank 0
 *     prints "skew SIZE AVG_US MEAN_US", the mean over every rank's calls.
 *     The draws come from a generator seeded with SEED + rank (printed).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/hostif.h"

#define BENCH_PROG "r3r4_bcast"
#include "mpi_bench.h"

static int me, np;

static void latency(int iters, int nsizes, char **sizes)
{
    char *buf = malloc(65536);

    for (int k = 0; k < nsizes; k++) {
        int size = (int)bench_arg_num("SIZE", sizes[k], 0, 65536);
        double worst = 0;

        memset(buf, me, (size_t)size);
        for (int i = 0; i < 20; i++) {
            MPI_Bcast(buf, size, MPI_BYTE, 0, MPI_COMM_WORLD);
            if (me == np - 1)
                MPI_Send(NULL, 0, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            else if (me == 0)
                MPI_Recv(NULL, 0, MPI_BYTE, np - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        for (int leaf = 1; leaf < np; leaf++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int i = 0; i < iters; i++) {
                MPI_Bcast(buf, size, MPI_BYTE, 0, MPI_COMM_WORLD);
                if (me == leaf)
                    MPI_Send(NULL, 0, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
                else if (me == 0)
                    MPI_Recv(NULL, 0, MPI_BYTE, leaf, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            double t = (MPI_Wtime() - t0) / iters;
            if (t > worst)
                worst = t;
        }
        if (me == 0)
            printf("latency %d %.3f\n", size, worst * 1e6);
    }
    free(buf);
}

/* the skews' generator (mpi_bench.h) */
static uint64_t rng;

static void skew(int iters, unsigned long seed, int size, int navg, char **avgs)
{
    char *buf = malloc((size_t)size + 1);

    rng = (seed + (unsigned long)me) * 0x9E3779B97F4A7C15ull | 1;
    if (me == 0)
        printf("# skew draws: seed %lu + rank\n", seed);
    for (int k = 0; k < navg; k++) {
        double avg_us = (double)bench_arg_num("AVG_US", avgs[k], 0, 100000);
        double max_us = 3 * avg_us, inside = 0, total = 0;

        for (int i = 0; i < iters; i++) {
            MPI_Barrier(MPI_COMM_WORLD);
            if (me != 0) {
                double s = (bench_uniform01(&rng) - 0.5) * max_us;
                if (s > 0)
                    nc_host_compute_ns((uint64_t)(s * 1000));
            }
            double t0 = MPI_Wtime();
            MPI_Bcast(buf, size, MPI_BYTE, 0, MPI_COMM_WORLD);
            inside += MPI_Wtime() - t0;
        }
        MPI_Reduce(&inside, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        if (me == 0)
            printf("skew %d %.0f %.3f\n", size, avg_us, total / ((double)np * iters) * 1e6);
    }
    free(buf);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc >= 4 && !strcmp(argv[1], "latency") && np >= 2) {
        latency((int)bench_arg_num("ITERS", argv[2], 1, 1000000), argc - 3, argv + 3);
    } else if (argc >= 6 && !strcmp(argv[1], "skew") && np >= 2) {
        skew((int)bench_arg_num("ITERS", argv[2], 1, 1000000), bench_arg_num("SEED", argv[3], 0, ~0ul),
             (int)bench_arg_num("SIZE", argv[4], 0, 65536), argc - 5, argv + 5);
    } else {
        if (me == 0)
            fprintf(stderr, "usage: r3r4_bcast latency ITERS SIZE...\n"
                            "       r3r4_bcast skew ITERS SEED SIZE AVG_US...   (2 or more ranks)\n");
        MPI_Finalize();
        return 2;
    }
    MPI_Finalize();
    return 0;
}
