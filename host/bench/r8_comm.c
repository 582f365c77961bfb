/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * R8 (seed 003 section 5.2, docs/bench-r8.md): effective latency, a
 * communicator's creation (MPI_Comm_dup of MPI_COMM_WORLD) followed by K
 * broadcasts of 1,024 bytes from rank 0, with COMPUTE_US of computation
 * between the creation and the first broadcast; run under each design
 * (lanai-mpirun --comm p2p|basic|lazy|pool).
 *   r8_comm K[,K...] COMPUTE_US[,COMPUTE_US...] REPS
 * For each (K, COMPUTE_US) rank 0 prints
 *   r8 k=K compute_us=C us=T
 * T the mean over REPS of the slowest rank's time from before the
 * creation to after its K-th broadcast, less the computation (the
 * paper's effective latency: what the creation and the broadcasts cost).
 * Before each timed creation every rank idles SETTLE_NS, makes
 * SETTLE_CALLS barriers, and does both again: the idle lets the
 * management entity finish the work of the previous communicator's free
 * (and of MPI_COMM_WORLD's group at MPI_Init), the barriers give libmpi's
 * own background work the MPI calls it runs in (MPI_COMM_WORLD's Lazy
 * test, the pool's refill, acknowledgements owed), so that every creation
 * starts from an idle entity and an idle library, as the paper's single
 * creation does.
 */
#define BENCH_PROG "r8_comm"
#include <string.h>

#include "mpi_bench.h"
#include "nicoll/hostif.h"

#define LEN 1024
/* decision: 20 ms, twice the entity's 10 ms transaction time-out on P-IB,
 * so that even a switch write lost and sent again is done; idle virtual
 * time costs the emulator next to no host time */
#define SETTLE_NS 20000000ull
/* decision: 50 barriers, a few milliseconds of MPI calls at 32
 * processes, several times a multicast test's probes (every 50 us) */
#define SETTLE_CALLS 50

/* the comma-separated numbers of S (0..HI, 1..MAX of them) into OUT; a
 * bad list ends the run with status 2, naming WHAT */
static unsigned list(const char *what, char *s, unsigned long *out, unsigned max,
                     unsigned long hi)
{
    unsigned n = 0;
    int me;

    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    for (char *t = strtok(s, ","); t; t = strtok(NULL, ",")) {
        if (n == max) {
            if (me == 0)
                fprintf(stderr, BENCH_PROG ": %s: more than %u values\n", what, max);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        out[n++] = bench_arg_num(what, t, 0, hi);
    }
    if (n == 0) {
        if (me == 0)
            fprintf(stderr, BENCH_PROG ": %s: '%s' holds no value\n", what, s);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return n;
}

int main(int argc, char **argv)
{
    unsigned long ks[32], cs[32], reps;
    unsigned nk, nc;
    int me;
    char buf[LEN];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (argc != 4) {
        if (me == 0)
            fprintf(stderr, "usage: r8_comm K[,K...] COMPUTE_US[,COMPUTE_US...] REPS\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    nk = list("K", argv[1], ks, 32, 100000);
    nc = list("COMPUTE_US", argv[2], cs, 32, 10000000);
    reps = bench_arg_num("REPS", argv[3], 1, 1000);
    memset(buf, me, sizeof buf);
    for (unsigned c = 0; c < nc; c++)
        for (unsigned k = 0; k < nk; k++) {
            double sum = 0;

            for (unsigned long r = 0; r < reps; r++) {
                MPI_Comm d;
                double t, worst;

                for (int settle = 0; settle < 2; settle++) {
                    MPI_Barrier(MPI_COMM_WORLD);
                    nc_host_compute_ns(SETTLE_NS);
                    for (int i = 0; i < SETTLE_CALLS; i++)
                        MPI_Barrier(MPI_COMM_WORLD);
                }
                t = MPI_Wtime();
                MPI_Comm_dup(MPI_COMM_WORLD, &d);
                nc_host_compute_ns(cs[c] * 1000);
                for (unsigned long i = 0; i < ks[k]; i++)
                    MPI_Bcast(buf, LEN, MPI_BYTE, 0, d);
                t = MPI_Wtime() - t - cs[c] * 1e-6;
                MPI_Reduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
                sum += worst;
                MPI_Comm_free(&d);
            }
            if (me == 0)
                printf("r8 k=%lu compute_us=%lu us=%.1f\n", ks[k], cs[c], sum / reps * 1e6);
        }
    MPI_Finalize();
    return 0;
}
