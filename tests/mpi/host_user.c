/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A lanai-run host program (plain cc -shared -fPIC, no special link
 * option) whose globals are named like C library and libm symbols, and
 * one that dies by a signal on one node (the crash report of
 * docs/host-runtime.md). Usage: names | segv NODE | bus NODE | fpe NODE |
 * abort NODE | stack NODE (a recursion without end). tests/mpi/suite runs it with lanai-run.
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "nicoll/hostif.h"

/* names of glibc's err(), index() and time(), libm's y0() and j1(), and
 * getopt's optarg; no header this file includes declares them here
 * (string.h's index is behind _DEFAULT_SOURCE, which strict C11 lacks) */
int err = 0;
long index = 1;
double time;
double y0 = 0.5;
int j1[4] = { 1, 2, 3, 4 };
char *optarg = "mine";

static volatile int zero;

/* Without end: each call takes a frame of the host's stack. */
__attribute__((noinline)) int recurse(int depth)
{
    volatile char frame[256];

    if (depth < 0)
        return 0;
    frame[0] = (char)depth;
    return recurse(depth + 1) + frame[0];
}

/* Non-static and not inlined: the backtrace names them. */
__attribute__((noinline)) void crash_here(const char *how)
{
    if (!strcmp(how, "segv")) {
        *(volatile int *)(uintptr_t)zero = 1;
    } else if (!strcmp(how, "fpe")) {
        zero = 7 / zero;
    } else if (!strcmp(how, "abort")) {
        abort();
    } else if (!strcmp(how, "stack")) {
        recurse(0);
    } else if (!strcmp(how, "bus")) {
        /* a page of a file that has no bytes there */
        char path[] = "/tmp/host_user-XXXXXX";
        int fd = mkstemp(path);
        volatile char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

        unlink(path);
        p[0] = 1;
    }
}

int main(int argc, char **argv)
{
    unsigned me = nc_host_node();
    int fails = 0;

    if (argc >= 2 && strcmp(argv[1], "names")) {
        unsigned who = argc >= 3 ? (unsigned)atoi(argv[2]) : 0;
        nc_host_printf("node %u before the crash\n", me);
        nc_host_compute_ns(1000);   /* every node has printed first */
        if (me == who) {
            crash_here(argv[1]);
        }
        nc_host_compute_ns(1000000);
        nc_host_printf("node %u after the crash\n", me);
        return 0;
    }
    for (unsigned i = 0; i <= me; i++) {
        err++;
        index += me;
        time = 10.0 * me;
        y0 += me;
        j1[me % 4] += 100;
    }
    nc_host_compute_ns(1000);      /* the other nodes run and write theirs */
    if (err != (int)me + 1 || index != 1 + (long)me * (me + 1) || time != 10.0 * me ||
        y0 != 0.5 + (double)me * (me + 1) || j1[me % 4] != (int)(me % 4) + 1 + 100 * ((int)me + 1) ||
        strcmp(optarg, "mine")) {
        nc_host_printf("FAIL node %u: err %d index %ld time %g y0 %g\n", me, err, index, time, y0);
        fails++;
    }
    nc_host_printf("%s names\n", fails ? "FAILED" : "PASS");
    return fails;
}
