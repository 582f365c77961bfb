/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * R10 (seed 004 section 4.4): the four NICVM microbenchmarks at the MPI
 * level, an ordinary MPI program built with lanai-mpicc and run by
 * host/bench/r10 (docs/bench-r10.md). Modules go up with MPI_NC_Module_add,
 * messages to them with MPI_NC_Delegate / MPI_NC_Send_module (docs/mpi.md,
 * "NICVM modules"); each timed loop follows the thesis's description.
 *
 *   r10_nicvm pingpong ITERS SIZE...                          (2 ranks)
 *     ordinary MPI_Send/MPI_Recv ping-pong; the script runs it on the MCP
 *     with and without the NICVM plug-in. "pingpong SIZE ONE_WAY_US"
 *   r10_nicvm echo host|noop|nic MODULE ITERS SIZE...         (2 ranks)
 *     round trips from rank 0 to rank 1: host, ordinary messages both ways;
 *     noop, to rank 1's no-op module, rank 1's host answering with
 *     MPI_Send; nic, to rank 1's echo module, which sends it back from
 *     rank 1's NIC (the reply carries rank 0's own envelope). MODULE: the
 *     module's source ("-" for host). "echo KIND SIZE RTT_US"
 *   r10_nicvm bcast host|nicvm MODULE ITERS SIZE...
 *     broadcast latency: the one-way latency between the root and the last
 *     node (rank N-1, the deepest of both trees) measured by a 0-byte
 *     ping-pong; then per size ITERS times: a barrier, the root's clock
 *     starts, the broadcast (host: MPI_Bcast; nicvm: the root's
 *     MPI_NC_Delegate to MODULE, every other rank's MPI_Recv), the last
 *     node's 0-byte notification to the root, whose clock stops; the
 *     notification's one-way latency is subtracted. "bcast KIND N SIZE US"
 *   r10_nicvm cpu host|nicvm MODULE ITERS SEED CATCHUP_US SIZE MAX_US...
 *     host CPU utilisation under skew: per maximum skew ITERS times a
 *     barrier, then on every rank: clock, a busy loop of a skew drawn
 *     uniform in [0, MAX_US], the broadcast, a busy loop of the catch-up
 *     delay (MAX_US + CATCHUP_US, the latter a conservative bound on a
 *     broadcast's latency), clock; the two delays are subtracted, the
 *     rest averaged over every rank and iteration. Draws from a generator
 *     seeded with SEED + rank (printed). "cpu KIND N SIZE MAX_US US"
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/hostif.h"

#define BENCH_PROG "r10_nicvm"
#include "mpi_bench.h"

#define MAXMSG MPI_NC_MODULE_MSG_MAX
#define TAG_DATA 1
#define TAG_NOTE 2

static int me, np;

static void usage(void)
{
    if (me == 0)
        fprintf(stderr,
                "usage: r10_nicvm pingpong ITERS SIZE...                     (2 ranks)\n"
                "       r10_nicvm echo host|noop|nic MODULE ITERS SIZE...    (2 ranks)\n"
                "       r10_nicvm bcast host|nicvm MODULE ITERS SIZE...\n"
                "       r10_nicvm cpu host|nicvm MODULE ITERS SEED CATCHUP_US SIZE MAX_US...\n");
    MPI_Finalize();
    exit(2);
}

/* The module's source, uploaded to every NIC as name. */
static void module_add(const char *name, const char *path)
{
    static char src[16384];
    FILE *f = fopen(path, "r");
    size_t n;

    if (!f) {
        fprintf(stderr, "r10_nicvm: rank %d: cannot read the module %s\n", me, path);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    n = fread(src, 1, sizeof src - 1, f);
    fclose(f);
    src[n] = 0;
    MPI_NC_Module_add(MPI_COMM_WORLD, name, src);   /* an error is fatal */
}

static int size_arg(const char *s)
{
    return (int)bench_arg_num("SIZE", s, 0, MAXMSG);
}

/* A busy loop of us microseconds: CPU time, not a sleep. */
static void busy_us(double us)
{
    if (us > 0)
        nc_host_compute_ns((uint64_t)(us * 1000));
}

static void pingpong(int iters, int nsizes, char **sizes)
{
    static char buf[MAXMSG];

    for (int k = 0; k < nsizes; k++) {
        int size = size_arg(sizes[k]);
        double t0 = 0;

        for (int i = -20; i < iters; i++) {
            if (i == 0) {
                MPI_Barrier(MPI_COMM_WORLD);
                t0 = MPI_Wtime();
            }
            if (me == 0) {
                MPI_Send(buf, size, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD);
                MPI_Recv(buf, size, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (me == 1) {
                MPI_Recv(buf, size, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, size, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD);
            }
        }
        if (me == 0)
            printf("pingpong %d %.3f\n", size, (MPI_Wtime() - t0) / iters / 2 * 1e6);
    }
}

static void echo(const char *kind, const char *module, int iters, int nsizes, char **sizes)
{
    static char buf[MAXMSG];
    int noop = !strcmp(kind, "noop"), nic = !strcmp(kind, "nic");

    if (!noop && !nic && strcmp(kind, "host"))
        usage();
    if (noop || nic)
        module_add(nic ? "echo" : kind, module);
    for (int k = 0; k < nsizes; k++) {
        int size = size_arg(sizes[k]);
        double t0 = 0;

        memset(buf, k, (size_t)size);
        /* The NIC echo starts 1 ms after the last ordinary packet to rank 1
         * and times from rank 0 alone, with no barrier inside: only the
         * echo's own packets are on the wire while it is timed. */
        if (nic && me == 0)
            busy_us(1000);
        for (int i = -20; i < iters; i++) {
            if (i == 0 && !nic)
                MPI_Barrier(MPI_COMM_WORLD);
            if (i == 0)
                t0 = MPI_Wtime();
            if (me == 0) {
                if (noop || nic)
                    MPI_NC_Send_module(buf, size, MPI_BYTE, 1, TAG_DATA, nic ? "echo" : kind,
                                       MPI_COMM_WORLD);
                else
                    MPI_Send(buf, size, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD);
                /* the NIC echo comes back with rank 0's own envelope */
                MPI_Recv(buf, size, MPI_BYTE, nic ? 0 : 1, TAG_DATA, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            } else if (me == 1 && !nic) {
                MPI_Recv(buf, size, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, size, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD);
            }
        }
        double t = MPI_Wtime() - t0;
        if (me == 0)
            printf("echo %s %d %.3f\n", kind, size, t / iters * 1e6);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (noop || nic)
        MPI_NC_Module_purge(MPI_COMM_WORLD, nic ? "echo" : kind);
}

/* One broadcast of size bytes from rank 0: MPI_Bcast, or the module. */
static void one_bcast(int nicvm, char *buf, int size)
{
    if (!nicvm)
        MPI_Bcast(buf, size, MPI_BYTE, 0, MPI_COMM_WORLD);
    else if (me == 0)
        MPI_NC_Delegate(buf, size, MPI_BYTE, TAG_DATA, "bcast", MPI_COMM_WORLD);
    else
        MPI_Recv(buf, size, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static int kind_nicvm(const char *kind, const char *module)
{
    if (!strcmp(kind, "nicvm")) {
        module_add("bcast", module);
        return 1;
    }
    if (strcmp(kind, "host"))
        usage();
    return 0;
}

static void bcast(const char *kind, const char *module, int iters, int nsizes, char **sizes)
{
    static char buf[MAXMSG];
    int nicvm = kind_nicvm(kind, module), last = np - 1;
    double one_way = 0, t0 = 0;

    /* the notification's one-way latency, root <-> last */
    for (int i = -20; i < iters; i++) {
        if (i == 0) {
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
        }
        if (me == 0) {
            MPI_Send(NULL, 0, MPI_BYTE, last, TAG_NOTE, MPI_COMM_WORLD);
            MPI_Recv(NULL, 0, MPI_BYTE, last, TAG_NOTE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (me == last) {
            MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_NOTE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_NOTE, MPI_COMM_WORLD);
        }
    }
    one_way = (MPI_Wtime() - t0) / iters / 2;
    if (me == 0)
        printf("# notification one-way latency %.3f us (rank 0 <-> %d)\n", one_way * 1e6, last);
    for (int k = 0; k < nsizes; k++) {
        int size = size_arg(sizes[k]);
        double total = 0;

        memset(buf, me == 0 ? k + 1 : 0, (size_t)size);
        for (int i = -5; i < iters; i++) {
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
            one_bcast(nicvm, buf, size);
            if (me == last)
                MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_NOTE, MPI_COMM_WORLD);
            else if (me == 0)
                MPI_Recv(NULL, 0, MPI_BYTE, last, TAG_NOTE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (i >= 0)
                total += MPI_Wtime() - t0 - one_way;
        }
        if (me != 0 && size && buf[size - 1] != (char)(k + 1)) {
            fprintf(stderr, "r10_nicvm: rank %d: the broadcast's bytes are wrong\n", me);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        if (me == 0)
            printf("bcast %s %d %d %.3f\n", kind, np, size, total / iters * 1e6);
    }
    if (nicvm) {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_NC_Module_purge(MPI_COMM_WORLD, "bcast");
    }
}

/* the skews' generator (mpi_bench.h) */
static uint64_t rng;


static void cpu(const char *kind, const char *module, int iters, unsigned long seed,
                double catchup_us, int size, int nmax, char **maxs)
{
    static char buf[MAXMSG];
    int nicvm = kind_nicvm(kind, module);

    rng = (seed + (unsigned long)me) * 0x9E3779B97F4A7C15ull | 1;
    if (me == 0)
        printf("# skew draws: seed %lu + rank\n", seed);
    for (int k = 0; k < nmax; k++) {
        double max_us = (double)bench_arg_num("MAX_US", maxs[k], 0, 100000);
        double catchup = max_us + catchup_us, used = 0, total = 0;

        for (int i = -2; i < iters; i++) {
            double skew = bench_uniform01(&rng) * max_us;

            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            busy_us(skew);
            one_bcast(nicvm, buf, size);
            busy_us(catchup);
            double t = (MPI_Wtime() - t0) * 1e6 - skew - catchup;
            if (i >= 0)
                used += t;
        }
        MPI_Reduce(&used, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        if (me == 0)
            printf("cpu %s %d %d %.0f %.3f\n", kind, np, size, max_us, total / ((double)np * iters));
    }
    if (nicvm) {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_NC_Module_purge(MPI_COMM_WORLD, "bcast");
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc >= 4 && !strcmp(argv[1], "pingpong") && np == 2)
        pingpong((int)bench_arg_num("ITERS", argv[2], 1, 1000000), argc - 3, argv + 3);
    else if (argc >= 6 && !strcmp(argv[1], "echo") && np == 2)
        echo(argv[2], argv[3], (int)bench_arg_num("ITERS", argv[4], 1, 1000000), argc - 5, argv + 5);
    else if (argc >= 6 && !strcmp(argv[1], "bcast") && np >= 2)
        bcast(argv[2], argv[3], (int)bench_arg_num("ITERS", argv[4], 1, 1000000), argc - 5, argv + 5);
    else if (argc >= 9 && !strcmp(argv[1], "cpu") && np >= 2)
        cpu(argv[2], argv[3], (int)bench_arg_num("ITERS", argv[4], 1, 1000000),
            bench_arg_num("SEED", argv[5], 0, ~0ul), (double)bench_arg_num("CATCHUP_US", argv[6], 0, 100000),
            size_arg(argv[7]), argc - 8, argv + 8);
    else
        usage();
    MPI_Finalize();
    return 0;
}
