/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * R7 (seed 002 section 6): barrier latency, consecutive barriers among all
 * nodes of the emulated cluster (port 0 on each), averaged.
 *
 *   r7_barrier ALGO DIMS COUNT
 *     ALGO   nic-pe | nic-gb | host-pe | host-gb
 *     DIMS   GB tree dimension(s): a number, or "all" for 1 .. N-1 one
 *            after the other in the same run (ignored for PE: use 0)
 *     COUNT  timed barriers per dimension, after COUNT/10 (at least 10)
 *            untimed warm-up barriers
 *
 * Node 0 prints, per dimension,
 *   r7 algo=A nodes=N dim=D count=C avg_us=X half1_us=Y half2_us=Z
 * the average over all COUNT barriers and over each half (to show the
 * average is stable). Barriers run back to back, as the paper's 100,000
 * do; the host busy-polls. If this libnicoll has no NIC-based barrier
 * (nc_barrier_wait missing or answering NC_EINVAL), node 0 prints
 *   r7 algo=A nodes=N unavailable=REASON
 * and every node exits with status 0: the driver marks the row missing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/hostif.h"
#include "nc_hbarrier.h"
#include "nicoll.h"

/* The NIC barrier comes from another part of libnicoll: absent is allowed. */
#pragma weak nc_barrier_wait

static nc_member members[NC_BARRIER_MAX_MEMBERS];

static int one(nc_port *p, nc_hbar *h, const nc_barrier *b, bool nic)
{
    return nic ? nc_barrier_wait(p, b) : nc_hbar_run(h, b);
}

static int run_dim(nc_port *p, nc_hbar *h, const char *algo, unsigned dim, unsigned count)
{
    unsigned me = nc_host_node(), n = nc_host_nodes();
    bool nic = !strncmp(algo, "nic", 3), gb = strstr(algo, "gb") != NULL;
    unsigned warm = count / 10 < 10 ? 10 : count / 10;
    uint64_t t0 = 0, th = 0, t1;
    nc_barrier b;
    int rc;

    rc = gb ? nc_barrier_gb(&b, members, n, me, dim) : nc_barrier_pe(&b, members, n, me);
    if (rc) {
        nc_host_printf("FAIL r7 %s dim %u: barrier description: %s\n", algo, dim, nc_strerror(rc));
        return 1;
    }
    for (unsigned i = 0; i < warm + count; i++) {
        if (i == warm)
            t0 = nc_host_now_ns();
        if (i == warm + count / 2)
            th = nc_host_now_ns();
        if ((rc = one(p, h, &b, nic))) {
            if (nic && i == 0 && rc == NC_EINVAL) {
                if (me == 0)
                    nc_host_printf("r7 algo=%s nodes=%u unavailable=nc_barrier_wait_EINVAL\n",
                                   algo, n);
                return 2;
            }
            nc_host_printf("FAIL r7 %s dim %u barrier %u: %s\n", algo, dim, i, nc_strerror(rc));
            return 1;
        }
    }
    t1 = nc_host_now_ns();
    if (me == 0) {
        unsigned c1 = count / 2, c2 = count - count / 2;
        nc_host_printf("r7 algo=%s nodes=%u dim=%u count=%u avg_us=%.3f half1_us=%.3f "
                       "half2_us=%.3f\n", algo, n, gb ? dim : 0, count,
                       (double)(t1 - t0) / count / 1000, c1 ? (double)(th - t0) / c1 / 1000 : 0.0,
                       (double)(t1 - th) / c2 / 1000);
    }
    return 0;
}

int main(int argc, char **argv)
{
    unsigned n = nc_host_nodes();
    nc_port *p;
    nc_hbar h;
    int rc = 0;

    if (argc < 4 || (strcmp(argv[1], "nic-pe") && strcmp(argv[1], "nic-gb") &&
                     strcmp(argv[1], "host-pe") && strcmp(argv[1], "host-gb"))) {
        nc_host_printf("usage: r7_barrier nic-pe|nic-gb|host-pe|host-gb DIM|all COUNT\n");
        return 2;
    }
    unsigned count = (unsigned)atoi(argv[3]);
    bool nic = !strncmp(argv[1], "nic", 3), gb = strstr(argv[1], "gb") != NULL;
    if (count < 2 || n > NC_BARRIER_MAX_MEMBERS) {
        nc_host_printf("r7: COUNT must be at least 2, nodes at most %u\n", NC_BARRIER_MAX_MEMBERS);
        return 2;
    }
    if (nic && !nc_barrier_wait) {
        if (nc_host_node() == 0)
            nc_host_printf("r7 algo=%s nodes=%u unavailable=no_nc_barrier_wait_in_libnicoll\n",
                           argv[1], n);
        return 0;
    }
    for (unsigned i = 0; i < n; i++)
        members[i] = (nc_member){ (uint16_t)i, 0 };
    if ((rc = nc_open(&p, 0))) {
        nc_host_printf("FAIL r7: nc_open: %s\n", nc_strerror(rc));
        return 1;
    }
    if (!nic && (rc = nc_hbar_init(&h, p))) {
        nc_host_printf("FAIL r7: nc_hbar_init: %s\n", nc_strerror(rc));
        return 1;
    }
    h.timeout_ns = 100000000;   /* 100 ms: a lost barrier fails, never hangs */
    unsigned lo = 0, hi = 0;
    if (gb) {
        if (!strcmp(argv[2], "all"))
            lo = 1, hi = n > 1 ? n - 1 : 1;
        else
            lo = hi = (unsigned)atoi(argv[2]);
    }
    for (unsigned d = lo; d <= hi && rc == 0; d++)
        rc = run_dim(p, &h, argv[1], d, count);
    if (rc == 2)
        rc = 0;   /* unavailable: reported */
    nc_close(p);
    return rc;
}
