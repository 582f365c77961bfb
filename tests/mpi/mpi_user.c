/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What MPI programs written elsewhere do. Without arguments: the
 * program's own globals named like C library and libm functions and
 * variables (err, index, time, y0, j1, optarg): each rank reads and writes
 * its own, and gets what it stored, not the library's symbol. Strict C11
 * (no _DEFAULT_SOURCE), so no header declares those names, as in MPI
 * codes that define them; prints "PASS names" or FAIL lines per rank.
 * With "segv|bus|fpe|abort RANK": that rank dies by the signal while the
 * others wait in MPI_Barrier. tests/mpi/suite runs it on 4 ranks.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int err = 0;
long index = 1;
double time;
double y0 = 0.5;
int j1[4] = { 1, 2, 3, 4 };
char *optarg = "mine";

static int me, fails;

#define CHECK(c, ...) do { if (!(c)) { fails++; printf("FAIL tests/mpi/mpi_names.c:%d: rank %d: ", \
        __LINE__, me); printf(__VA_ARGS__); printf("\n"); } } while (0)

static volatile int zero;

/* Not static, not inlined: the backtrace names it. */
__attribute__((noinline)) void crash_here(const char *how)
{
    if (!strcmp(how, "segv")) {
        *(volatile int *)(uintptr_t)zero = 1;
    } else if (!strcmp(how, "fpe")) {
        zero = 7 / zero;
    } else if (!strcmp(how, "abort")) {
        abort();
    } else if (!strcmp(how, "bus")) {
        /* a page of a file that has no bytes there */
        char path[] = "/tmp/mpi_user-XXXXXX";
        int fd = mkstemp(path);
        volatile char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

        unlink(path);
        p[0] = 1;
    }
}

static void bump(void)
{
    err++;
    index += me;
    time = 10.0 * me;
    y0 += me;
    j1[me % 4] += 100;
}

int main(int argc, char **argv)
{
    int np, sum = 0;
    char name[16];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc >= 3) {
        printf("rank %d before the crash\n", me);
        MPI_Barrier(MPI_COMM_WORLD);
        if (me == atoi(argv[2])) {
            crash_here(argv[1]);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        printf("rank %d after the crash\n", me);
        MPI_Finalize();
        return 0;
    }
    CHECK(err == 0 && index == 1 && time == 0.0 && y0 == 0.5 && j1[3] == 4,
          "initial values err=%d index=%ld y0=%g j1[3]=%d", err, index, y0, j1[3]);
    CHECK(optarg[0] == 'm' && optarg[3] == 'e', "optarg does not point to \"mine\"");
    for (int i = 0; i <= me; i++) {
        bump();
    }
    snprintf(name, sizeof name, "rank%d", me);
    optarg = name;
    MPI_Barrier(MPI_COMM_WORLD);
    /* every rank kept its own values through the others' writes */
    CHECK(err == me + 1, "err %d, want %d", err, me + 1);
    CHECK(index == 1 + (long)me * (me + 1), "index %ld, want %ld", index, 1 + (long)me * (me + 1));
    CHECK(time == 10.0 * me, "time %g, want %g", time, 10.0 * me);
    CHECK(y0 == 0.5 + (double)me * (me + 1), "y0 %g", y0);
    CHECK(j1[me % 4] == (me % 4) + 1 + 100 * (me + 1), "j1[%d] %d", me % 4, j1[me % 4]);
    CHECK(optarg == name && optarg[4] == '0' + me % 10, "optarg is not this rank's name");
    MPI_Allreduce(&err, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == np * (np + 1) / 2, "sum of err over ranks %d, want %d", sum, np * (np + 1) / 2);
    printf("%s names\n", fails ? "FAILED" : "PASS");
    MPI_Finalize();
    return err == me + 1 ? 0 : 1;
}
