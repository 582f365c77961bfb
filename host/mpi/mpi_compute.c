/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host's own computation in virtual time. A rank
 * computes between MPI calls in real CPU time, which the emulated host's
 * clock does not see: a program that calibrates a compute loop against
 * MPI_Wtime (OSU's non-blocking benchmarks) would find it free. With
 * MPI_NC_COMPUTE=measured, libmpi measures the CPU time the rank used since
 * it last left the library (CLOCK_THREAD_CPUTIME_ID) and charges it, times
 * MPI_NC_COMPUTE_SCALE, through nc_host_compute_ns (which applies the
 * profile's compute_scale). The mark is taken when the library is done
 * with the host interface (after polling, after printing): every rank runs
 * on the emulator's one thread, so CPU time across a point where another
 * rank may have run is never counted. Measured time differs from run to
 * run; the default, MPI_NC_COMPUTE=off, charges nothing and is
 * deterministic.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi_impl.h"
#include "nicoll/hostif.h"

static int mode;                /* 0 off, 1 measured */
static double scale = 1.0;
static uint64_t mark_ns;

static uint64_t cpu_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void mpi_compute_init(void)
{
    const char *m = getenv("MPI_NC_COMPUTE"), *s = getenv("MPI_NC_COMPUTE_SCALE");
    char *end;

    if (!m || !*m || !strcmp(m, "off"))
        mode = 0;
    else if (!strcmp(m, "measured"))
        mode = 1;
    else {
        nc_host_printf("libmpi: MPI_NC_COMPUTE='%s' is not 'off' or 'measured'\n", m);
        nc_host_exit(2);
    }
    if (s && *s) {
        scale = strtod(s, &end);
        if (*end || !(scale >= 0) || scale > 1e6) {
            nc_host_printf("libmpi: MPI_NC_COMPUTE_SCALE='%s' is not a number in 0..1e6\n", s);
            nc_host_exit(2);
        }
    }
    mark_ns = cpu_ns();
}

/* The rank enters the library: its computation since the mark. */
void mpi_compute_charge(void)
{
    if (!mode)
        return;
    uint64_t now = cpu_ns();
    if (now > mark_ns)
        nc_host_compute_ns((uint64_t)((double)(now - mark_ns) * scale));
    mark_ns = cpu_ns();
}

/* The library is done with the host interface: computation starts here. */
void mpi_compute_mark(void)
{
    if (mode)
        mark_ns = cpu_ns();
}
