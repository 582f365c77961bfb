/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the MPI benchmarks (r3r4_bcast.c, r9_reduce.c, r10_nicvm.c) share:
 * a checked numeric argument and the seeded generator of their skews.
 * Define BENCH_PROG (the program's name, for its messages) before the
 * include.
 */
#ifndef NICOLL_MPI_BENCH_H
#define NICOLL_MPI_BENCH_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* S as a decimal number in LO..HI, or a message (from rank 0) naming WHAT
 * and the run ends with status 2 */
static inline unsigned long bench_arg_num(const char *what, const char *s, unsigned long lo,
                                          unsigned long hi)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);

    if (!*s || *end || v < lo || v > hi) {
        int me;

        MPI_Comm_rank(MPI_COMM_WORLD, &me);
        if (me == 0)
            fprintf(stderr, BENCH_PROG ": %s '%s' is not a number in %lu..%lu\n", what, s, lo, hi);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return v;
}

/* xorshift64*: small, seeded, the same on every platform; *STATE must not
 * be 0 */
static inline uint64_t bench_xorshift(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ull;
}

/* uniform in [0, 1), 53 bits */
static inline double bench_uniform01(uint64_t *state)
{
    return (double)(bench_xorshift(state) >> 11) / 9007199254740992.0;
}

#endif
