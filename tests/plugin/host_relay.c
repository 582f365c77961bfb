/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host program of tests/plugin/suite, on every node of the emulated
 * cluster with tests/plugin/image.c's MCP: node 0 sends COUNT messages of
 * each SIZE around the ring through the relay collective (relay.c), at most
 * WINDOW at a time; every node's host checks what its NIC delivered: from
 * its ring predecessor, each message exactly once, in order, intact.
 *
 *   ring COUNT WINDOW CONSUME LATE SIZE...
 *     CONSUME  a mask of nodes whose NIC passes the messages on without
 *              delivering them (node 0 never: it counts the ring's returns)
 *     LATE     a node that gives its receive buffers only after 2 ms of
 *              virtual time (its NIC refuses the packets meanwhile), or -1
 *
 * Each node prints one line:
 *   relay node=N recv=R bad=B disorder=D errors=E
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/hostif.h"
#include "nicoll.h"
#include "../nicoll/pattern.h"
#include "../lib/open_port.h"

#define RELAY_CMD 31u           /* relay.c's */
#define MAXLEN 4096u
#define RBUFS 8u
#define DEADLINE_NS 200000000ull    /* 200 ms of virtual time without progress */

int main(int argc, char **argv)
{
    unsigned me = nc_host_node(), nn = nc_host_nodes();
    unsigned count, window, consume, nsizes, total, recv = 0, bad = 0, disorder = 0, errors = 0;
    int late;
    size_t sizes[16];
    nc_port *p;
    uint8_t *tx, *rx;
    nc_event ev;

    if (argc < 7 || strcmp(argv[1], "ring") || argc - 6 > 16) {
        nc_host_printf("FAIL usage: ring COUNT WINDOW CONSUME LATE SIZE... (at most 16 sizes)\n");
        return 2;
    }
    count = (unsigned)atoi(argv[2]);
    window = (unsigned)atoi(argv[3]);
    consume = (unsigned)strtoul(argv[4], NULL, 0) & ~1u;
    late = atoi(argv[5]);
    nsizes = (unsigned)(argc - 6);
    for (unsigned i = 0; i < nsizes; i++)
        if ((sizes[i] = (size_t)atol(argv[6 + i])) == 0 || sizes[i] > MAXLEN) {
            nc_host_printf("FAIL size %s: 1 .. %u\n", argv[6 + i], MAXLEN);
            return 2;
        }
    total = count * nsizes;
    p = open_port(0);
    tx = region(p, (size_t)MAXLEN * window);
    rx = region(p, (size_t)MAXLEN * RBUFS);
    if ((int)me == late)
        nc_host_compute_ns(2000000);
    for (unsigned i = 0; i < RBUFS; i++)
        nc_provide_recv(p, rx + (size_t)MAXLEN * i, MAXLEN, NULL);

    bool delivers = !((consume >> me) & 1u);
    unsigned sent = 0, expect = delivers ? total : 0;
    uint64_t quiet = nc_host_now_ns() + DEADLINE_NS;

    while (recv < expect || (me == 0 && sent < total)) {
        if (me == 0 && sent < total && sent - recv < window) {
            size_t len = sizes[sent / count];
            uint8_t *b = tx + (size_t)MAXLEN * (sent % window);
            uint64_t bus;
            uint32_t w[8] = { RELAY_CMD, 0, 0, (uint32_t)len, nn, consume, 0, 0 };

            pat_fill(b, len, (uint32_t)len, 0, sent);
            if (nc_bus_address(p, b, len, &bus)) {
                nc_host_printf("FAIL nc_bus_address\n");
                return 1;
            }
            w[1] = (uint32_t)(bus >> 32);
            w[2] = (uint32_t)bus;
            if (nc_command(p, w)) {
                nc_host_printf("FAIL nc_command\n");
                return 1;
            }
            sent++;
            continue;
        }
        if (!nc_poll(p, &ev)) {
            if (nc_host_now_ns() > quiet)
                break;
            continue;
        }
        quiet = nc_host_now_ns() + DEADLINE_NS;
        if (ev.type != NC_EVENT_RECV || ev.status) {
            nc_host_printf("FAIL node %u: event %d status %s\n", me, ev.type, nc_strerror(ev.status));
            errors++;
            continue;
        }
        size_t len = sizes[recv < total ? recv / count : 0];

        if (ev.node != (me + nn - 1) % nn || ev.port != 0)
            errors++;
        if (ev.len != len || pat_check(ev.buf, len, (uint32_t)len, 0, recv)) {
            /* out of order, or another message's bytes */
            bool found = false;

            for (unsigned j = 0; j < total && !found; j++)
                found = ev.len == sizes[j / count] &&
                        !pat_check(ev.buf, ev.len, (uint32_t)ev.len, 0, j);
            if (found)
                disorder++;
            else
                bad++;
        }
        recv++;
        nc_provide_recv(p, ev.buf, MAXLEN, NULL);
    }
    nc_host_printf("relay node=%u recv=%u bad=%u disorder=%u errors=%u\n", me, recv, bad,
                   disorder, errors);
    nc_close(p);
    return 0;
}
