/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers of the MPI test programs (the .c files of tests/mpi): ordinary MPI programs,
 * written against MPI 3.1, built with lanai-mpicc. Each scenario prints
 * "FAIL file:line: what" for each broken expectation and, at the end,
 * "PASS <scenario>" or "FAILED <scenario>" once per rank; tests/mpi/suite
 * counts them.
 */
#ifndef MPITEST_H
#define MPITEST_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
static int me, np;

#define CHECK(cond, ...) do { if (!(cond)) { failures++; \
        printf("FAIL %s:%d: rank %d: ", __FILE__, __LINE__, me); printf(__VA_ARGS__); \
        printf("\n"); } } while (0)

struct scenario { const char *name; void (*fn)(void); };

/* Busy-wait for us microseconds of (virtual) time, as a compute phase. */
static inline void spin_us(double us)
{
    double t0 = MPI_Wtime();
    while ((MPI_Wtime() - t0) * 1e6 < us)
        ;
}

/* A byte pattern that depends on (who, what, where). */
static inline unsigned char pat(int who, int what, size_t i)
{
    return (unsigned char)(who * 31 + what * 7 + i * 13 + (i >> 8));
}

static inline int run_scenarios(int argc, char **argv, const struct scenario *s)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc < 2) {
        printf("usage: %s SCENARIO...\n", argv[0]);
        return 2;
    }
    for (int a = 1; a < argc; a++) {
        const struct scenario *k = s;
        while (k->name && strcmp(k->name, argv[a]))
            k++;
        if (!k->name) {
            printf("unknown scenario '%s'\n", argv[a]);
            return 2;
        }
        int before = failures;
        k->fn();
        /* a rank that finished early must not send the next scenario's
         * messages into this one's wildcard receives */
        MPI_Barrier(MPI_COMM_WORLD);
        printf("%s %s\n", failures == before ? "PASS" : "FAILED", k->name);
    }
    MPI_Finalize();
    return failures != 0;
}

#endif
