/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host program for tests/nicoll/suite: what libnicoll charges the host for
 * posting commands and consuming events (the profile's host.post and
 * host.recv, docs/libnicoll.md).
 *
 *   host_charge N     (2 nodes, N <= 16)
 *     node 1 provides N receive buffers; node 0 posts N sends of 64 B back
 *     to back and prints the host time they took, waits until every SENT
 *     event is in its ring, then takes the N events with N polls and prints
 *     the host time that took:
 *       charge post n=N ns=T
 *       charge recv n=N ns=T events=K
 *
 * The suite runs it under two profiles that differ only in host.post and
 * host.recv: the times must differ by exactly N times the difference.
 */
#include <stdlib.h>

#include "nicoll/hostif.h"
#include "nicoll.h"
#include "../lib/open_port.h"

#define LEN 64u

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 0, got = 0;
    nc_port *p;
    uint8_t *buf;
    nc_event ev;
    uint64_t t0, t1;

    if (n < 1 || n > 16 || nc_host_nodes() != 2) {
        nc_host_printf("usage: host_charge N (1..16), on 2 nodes\n");
        return 2;
    }
    p = open_port(0);
    buf = region(p, n * LEN);
    if (nc_host_node() == 1) {
        for (unsigned i = 0; i < n; i++)
            if (nc_provide_recv(p, buf + i * LEN, LEN, NULL)) {
                nc_host_printf("FAIL provide_recv %u\n", i);
                return 1;
            }
        nc_host_compute_ns(2000000);    /* until node 0 is done */
        nc_close(p);
        return 0;
    }
    nc_host_compute_ns(100000);         /* node 1's buffers are there */
    t0 = nc_host_now_ns();
    for (unsigned i = 0; i < n; i++)
        if (nc_send(p, 1, 0, buf + i * LEN, LEN, NULL)) {
            nc_host_printf("FAIL send %u\n", i);
            return 1;
        }
    t1 = nc_host_now_ns();
    nc_host_printf("charge post n=%u ns=%llu\n", n, (unsigned long long)(t1 - t0));
    nc_host_compute_ns(1000000);        /* every SENT event is in the ring by now */
    t0 = nc_host_now_ns();
    for (unsigned i = 0; i < n; i++)
        if (nc_poll(p, &ev) && ev.type == NC_EVENT_SENT && ev.status == NC_OK)
            got++;
    t1 = nc_host_now_ns();
    nc_host_printf("charge recv n=%u ns=%llu events=%u\n", n, (unsigned long long)(t1 - t0), got);
    nc_close(p);
    return 0;
}
