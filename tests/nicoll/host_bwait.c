/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host program for tests/nicoll/suite: nc_barrier_wait_for's deadline on
 * the emulated cluster. A PE barrier between nodes 0 and 1 (port 0);
 * node 1 joins 5 ms late, so node 0's NIC cannot complete it in time:
 *   node 0: nc_barrier_wait_for(1 ms) must answer NC_ETIMEDOUT after 1 ms
 *           (a NIC that never completes no longer keeps the host polling),
 *           the barrier's completion must then come through nc_wait, after
 *           node 1 joined; a second barrier on the same port completes.
 * Prints
 *   bwait timeout rc=R waited_us=W
 *   bwait late type=T status=S after_join=0|1
 *   bwait again rc=R
 */
#include <stdlib.h>

#include "nicoll/hostif.h"
#include "nicoll.h"
#include "../lib/open_port.h"

#define LATE_NS 5000000u

int main(void)
{
    nc_member m[2] = { { 0, 0 }, { 1, 0 } };
    unsigned me = nc_host_node();
    nc_port *p;
    nc_barrier b;
    nc_event ev;
    uint64_t t0, t_join;
    int rc;

    if (nc_host_nodes() != 2) {
        nc_host_printf("usage: host_bwait, on 2 nodes\n");
        return 2;
    }
    p = open_port(0);
    t_join = nc_host_now_ns() + LATE_NS;
    if (nc_barrier_pe(&b, m, 2, me))
        return 1;
    if (me == 1) {
        nc_host_compute_ns(LATE_NS);
        rc = nc_barrier_wait_for(p, &b, 20000000);
        rc = rc ? rc : nc_barrier_wait_for(p, &b, 20000000);
        nc_host_printf("bwait member rc=%d\n", rc);
        nc_host_compute_ns(1000000);
        nc_close(p);
        return rc != 0;
    }
    t0 = nc_host_now_ns();
    rc = nc_barrier_wait_for(p, &b, 1000000);
    nc_host_printf("bwait timeout rc=%d waited_us=%llu\n", rc,
                   (unsigned long long)(nc_host_now_ns() - t0) / 1000);
    rc = nc_wait(p, &ev, 20000000);
    nc_host_printf("bwait late type=%d status=%d after_join=%d\n", rc ? -1 : (int)ev.type,
                   rc ? rc : ev.status, nc_host_now_ns() >= t_join);
    nc_host_printf("bwait again rc=%d\n", nc_barrier_wait_for(p, &b, 20000000));
    nc_host_compute_ns(1000000);
    nc_close(p);
    return 0;
}
