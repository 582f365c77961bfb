/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host program of tests/red/signals/suite, on two nodes: node 0 sends COUNT
 * messages of SIZE bytes to node 1, GAP_NS of computation apart, either of
 * the signalling type (nc_signal_send) or ordinary (nc_send). Node 1 turns
 * its port's signals on (or not), tells node 0 to start with a message of
 * its own (so that no message can arrive before node 1 is set up, however
 * long either side's start takes), then computes COMPUTE_NS in one
 * nc_host_compute_ns call without polling; its handler takes every event
 * there is. Afterwards it turns signals off and polls for the rest.
 *
 *   sig KIND ON COUNT SIZE GAP_NS COMPUTE_NS
 *     KIND  sig | plain;  ON  1: node 1 turns signals on, 0: not, 2: on and
 *           at once off again (before the first message)
 *
 * Node 1 prints one line:
 *   signal runs=R in_handler=H after=A bad=B nic_signals=S compute_ns=C handler_ns=T
 * R the handler's runs, H and A the messages taken in it and after the
 * computation, B messages with the wrong length, source or bytes, S the
 * NIC's count of signals raised for the port, C the computation's elapsed
 * time (COMPUTE_NS plus every signal's cost and handler), T the time spent
 * inside the handler (from its first to its last statement).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/hostif.h"
#include "nicoll.h"
#include "../../nicoll/pattern.h"
#include "../../lib/open_port.h"

#define MAXLEN 4096u
#define RBUFS 16u

static unsigned runs, in_handler, after, bad, expect_len, depth, nested;
static uint64_t handler_ns;

static void take(nc_port *p, const nc_event *ev, unsigned *count)
{
    if (ev->type == NC_EVENT_SENT && !ev->status)
        return;                 /* node 1's go message */
    if (ev->type != NC_EVENT_RECV || ev->status || ev->node != 0 || ev->len != expect_len ||
        pat_check(ev->buf, ev->len, (uint32_t)ev->len, 0, in_handler + after))
        bad++;
    (*count)++;
    nc_provide_recv(p, ev->buf, MAXLEN, NULL);
}

static void handler(nc_port *p, void *arg)
{
    uint64_t t0 = nc_host_now_ns();
    nc_event ev;

    (void)arg;
    if (depth++)
        nested++;
    runs++;
    while (nc_poll(p, &ev))
        take(p, &ev, &in_handler);
    depth--;
    handler_ns += nc_host_now_ns() - t0;
}

int main(int argc, char **argv)
{
    unsigned me = nc_host_node(), count;
    size_t size;
    uint64_t gap, compute;
    bool sig;
    int on;
    nc_port *p;
    nc_event ev;
    int rc;

    if (argc != 8 || strcmp(argv[1], "sig") ||
        (strcmp(argv[2], "sig") && strcmp(argv[2], "plain"))) {
        nc_host_printf("FAIL usage: sig sig|plain ON COUNT SIZE GAP_NS COMPUTE_NS\n");
        return 2;
    }
    sig = !strcmp(argv[2], "sig");
    on = atoi(argv[3]);
    count = (unsigned)atoi(argv[4]);
    size = (size_t)atol(argv[5]);
    gap = (uint64_t)atoll(argv[6]);
    compute = (uint64_t)atoll(argv[7]);
    if (!size || size > MAXLEN || count > 64) {
        nc_host_printf("FAIL size %zu (1 .. %u) or count %u (at most 64)\n", size, MAXLEN, count);
        return 2;
    }
    expect_len = (unsigned)size;
    p = open_port(0);
    if (me == 0) {
        uint8_t *tx = region(p, MAXLEN * (size_t)count);
        unsigned sent = 0;

        nc_provide_recv(p, tx, MAXLEN, NULL);
        if ((rc = nc_wait(p, &ev, 100000000)) || ev.type != NC_EVENT_RECV || ev.node != 1) {
            nc_host_printf("FAIL node 0: no go from node 1: %s\n",
                           rc ? nc_strerror(rc) : "another event");
            return 1;
        }
        for (unsigned i = 0; i < count; i++) {
            uint8_t *b = tx + (size_t)MAXLEN * i;

            pat_fill(b, size, (uint32_t)size, 0, i);
            rc = sig ? nc_signal_send(p, 1, 0, b, size, NULL) : nc_send(p, 1, 0, b, size, NULL);
            if (rc) {
                nc_host_printf("FAIL send %u: %s\n", i, nc_strerror(rc));
                return 1;
            }
            nc_host_compute_ns(gap);
        }
        while (sent < count) {
            if ((rc = nc_wait(p, &ev, 100000000)) || ev.type != NC_EVENT_SENT || ev.status) {
                nc_host_printf("FAIL node 0: %s\n", rc ? nc_strerror(rc) : nc_strerror(ev.status));
                return 1;
            }
            sent++;
        }
        nc_host_printf("sender sent=%u\n", sent);
    } else if (me == 1) {
        uint8_t *rx = region(p, (size_t)MAXLEN * (RBUFS + 1));   /* the last: the go */
        uint64_t t0;

        for (unsigned i = 0; i < RBUFS; i++)
            nc_provide_recv(p, rx + (size_t)MAXLEN * i, MAXLEN, NULL);
        if ((rc = nc_signal_handler(p, handler, NULL))) {
            nc_host_printf("FAIL nc_signal_handler: %s\n", nc_strerror(rc));
            return 1;
        }
        if (on && (rc = nc_signal_enable(p))) {
            nc_host_printf("FAIL nc_signal_enable: %s\n", nc_strerror(rc));
            return 1;
        }
        if (on == 2 && (rc = nc_signal_disable(p))) {
            nc_host_printf("FAIL nc_signal_disable: %s\n", nc_strerror(rc));
            return 1;
        }
        if ((rc = nc_send(p, 0, 0, rx + (size_t)MAXLEN * RBUFS, 4, NULL))) {
            nc_host_printf("FAIL go to node 0: %s\n", nc_strerror(rc));
            return 1;
        }
        t0 = nc_host_now_ns();
        nc_host_compute_ns(compute);
        t0 = nc_host_now_ns() - t0;
        unsigned long nic = nc_signal_count(p);
        nc_signal_disable(p);
        while (in_handler + after < count && nc_wait(p, &ev, 50000000) == NC_OK)
            take(p, &ev, &after);
        nc_host_printf("signal runs=%u in_handler=%u after=%u bad=%u nested=%u nic_signals=%lu "
                       "compute_ns=%llu handler_ns=%llu\n", runs, in_handler, after, bad, nested,
                       nic, (unsigned long long)t0, (unsigned long long)handler_ns);
    }
    nc_close(p);
    return 0;
}
