/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host program of host/bench/gm_anchor (docs/bench-gm.md): the five figures
 * of Myricom's GM 1.6.4 performance page, measured the way GM's own tests
 * do, on 2 nodes (port 0 each), the host busy-polling its event ring.
 *
 *   pingpong ITERS SIZE...  node 0 sends, node 1 echoes; one-way latency is
 *                           half the round trip, averaged over ITERS rounds
 *                           after one warm-up round (gm_allsize style); a
 *                           receive buffer is given back after the reply
 *                           (node 1) or the next ping (node 0) is sent:
 *                             gm pingpong len=L iters=I oneway_us=X
 *   stream COUNT LEN        node 0 sends COUNT messages of LEN bytes with
 *                           every send token busy; node 1 receives with 32
 *                           buffers it gives back at once. Node 1 prints the
 *                           steady rate, from the first message's arrival to
 *                           the last's ((COUNT-1) x LEN bytes):
 *                             gm stream len=L count=C MBps=X
 *   bidir COUNT LEN         both nodes stream to each other at once; each
 *                           prints the rate it receives at (as above); the
 *                           two-way rate is their sum:
 *                             gm bidir node=N len=L count=C MBps=X
 *   cpu N [LEN]             the host time libnicoll spends per message,
 *                           measured as tests/nicoll/host_charge does (every
 *                           event already in the ring when it is taken):
 *                           node 0 posts N sends of LEN bytes (default 64;
 *                           up to the inline limit their payload is PIO
 *                           the host pays for) (send), later takes
 *                           their N SENT events (sent); node 1 takes the N
 *                           RECV events (recv) and gives the N buffers back
 *                           (provide). Each prints its per-message ns:
 *                             gm cpu side=send n=N send_ns=A sent_ns=B
 *                             gm cpu side=recv n=N recv_ns=C provide_ns=D
 * MB/s is 10^6 B/s. Message contents are not checked here (tests/nicoll
 * checks them); a failed event prints FAIL and the run exits non-zero.
 * NICOLL_INLINE_MAX=N (environment, libnicoll's) sets the inline limit (0:
 * every send by DMA), to measure both paths (docs/firmware.md "Inline
 * sends").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/hostif.h"
#include "nicoll.h"

#define DEADLINE_NS 200000000ull    /* 200 ms of virtual time without an event */
#define NRECV 32u                   /* receive buffers per port (libnicoll's maximum) */
#define NSEND 16u                   /* send buffers: one per send token */

static unsigned me;
static int failures;

#define FAIL(...) (nc_host_printf("FAIL " __VA_ARGS__), failures++)

static nc_port *open0(void)
{
    nc_port *p;
    int rc = nc_open(&p, 0);

    if (rc) {
        nc_host_printf("FAIL nc_open: %s\n", nc_strerror(rc));
        nc_host_exit(1);
    }
    return p;
}

static uint8_t *region(nc_port *p, size_t len)
{
    uint8_t *b = nc_alloc(p, len ? len : 1);
    int rc;

    if (!b || (rc = nc_register(p, b, len ? len : 1))) {
        nc_host_printf("FAIL region of %zu bytes (lanai-run --host-mem)\n", len);
        nc_host_exit(1);
    }
    return b;
}

/* Busy-poll for the next event, as GM's tests poll gm_receive(). */
static int take(nc_port *p, nc_event *ev)
{
    uint64_t end = nc_host_now_ns() + DEADLINE_NS;

    while (!nc_poll(p, ev))
        if (nc_host_now_ns() > end)
            return NC_ETIMEDOUT;
    if (ev->status)
        FAIL("event %d: %s\n", ev->type, nc_strerror(ev->status));
    return NC_OK;
}

static void provide_all(nc_port *p, uint8_t *rx, size_t len)
{
    for (unsigned i = 0; i < NRECV; i++)
        if (nc_provide_recv(p, rx + i * (len ? len : 1), len, NULL))
            FAIL("nc_provide_recv %u\n", i);
}

static int pingpong(int argc, char **argv)
{
    unsigned iters = argc > 2 ? (unsigned)atoi(argv[2]) : 20;
    size_t max = 0;
    nc_port *p = open0();
    uint8_t *tx, *rx;
    void *back = NULL;
    nc_event ev;

    for (int a = 3; a < argc; a++)
        if ((size_t)atol(argv[a]) > max)
            max = (size_t)atol(argv[a]);
    tx = region(p, max);
    rx = region(p, NRECV * (max ? max : 1));
    provide_all(p, rx, max);
    nc_host_compute_ns(50000);      /* the peer's buffers are there */
    for (int a = 3; a < argc; a++) {
        size_t len = (size_t)atol(argv[a]);
        uint64_t t0 = 0;

        for (unsigned i = 0; i <= iters; i++) {     /* round 0 warms up */
            void *used = NULL;

            if (i == 1)
                t0 = nc_host_now_ns();
            if (me == 0 && nc_send(p, 1, 0, tx, len, NULL))
                return FAIL("pingpong send\n"), 1;
            if (me == 0 && back)    /* last round's buffer, once the ping is out */
                nc_provide_recv(p, back, max, NULL);
            while (!used) {
                if (take(p, &ev))
                    return FAIL("pingpong len %zu round %u: timeout\n", len, i), 1;
                if (ev.type == NC_EVENT_RECV)
                    used = ev.buf;
                /* SENT events are taken as they come (their tokens return) */
            }
            if (me == 1 && nc_send(p, 0, 0, tx, len, NULL))
                return FAIL("pingpong echo\n"), 1;
            /* the buffer goes back after the reply is out (node 1) or after
             * the next ping (node 0): never on the round trip's path, as
             * 31 more buffers are there */
            if (me == 1)
                nc_provide_recv(p, used, max, NULL);
            else
                back = used;
        }
        if (me == 0) {
            double us = (double)(nc_host_now_ns() - t0) / iters / 2 / 1000;
            nc_host_printf("gm pingpong len=%zu iters=%u oneway_us=%.3f\n", len, iters, us);
        }
    }
    /* the last SENT events, then let the peer finish before closing */
    nc_host_compute_ns(200000);
    while (nc_poll(p, &ev))
        ;
    nc_close(p);
    return failures != 0;
}

/* Send COUNT messages to node `to` while receiving `expect` messages;
 * returns the receive rate (MB/s) between the first and the last arrival. */
static double flow(nc_port *p, unsigned to, unsigned count, unsigned expect, size_t len)
{
    uint8_t *tx = count ? region(p, NSEND * len) : NULL, *rx = NULL;
    unsigned sent = 0, done = 0, got = 0, slot = 0;
    uint64_t first = 0, last = 0;
    nc_event ev;

    if (expect) {
        rx = region(p, NRECV * len);
        provide_all(p, rx, len);
    }
    nc_host_compute_ns(50000);      /* the peer's buffers are there */
    while (done < count || got < expect) {
        while (sent < count && nc_send_tokens(p)) {
            if (nc_send(p, to, 0, tx + (slot++ % NSEND) * len, len, NULL)) {
                FAIL("send %u\n", sent);
                return 0;
            }
            sent++;
        }
        if (take(p, &ev)) {
            FAIL("timeout: sent %u/%u received %u/%u\n", done, count, got, expect);
            return 0;
        }
        if (ev.type == NC_EVENT_SENT)
            done++;
        else if (ev.type == NC_EVENT_RECV) {
            last = nc_host_now_ns();
            if (got++ == 0)
                first = last;
            nc_provide_recv(p, ev.buf, len, NULL);
        }
    }
    return expect > 1 && last > first ? (double)(expect - 1) * len * 1000.0 / (last - first) : 0;
}

static int stream(int argc, char **argv, bool both)
{
    unsigned count = argc > 2 ? (unsigned)atoi(argv[2]) : 100;
    size_t len = argc > 3 ? (size_t)atol(argv[3]) : 65536;
    nc_port *p = open0();
    nc_event ev;
    double mbps;

    if (me > 1)
        return nc_close(p), 0;
    if (both)
        mbps = flow(p, 1 - me, count, count, len);
    else
        mbps = flow(p, 1, me == 0 ? count : 0, me == 1 ? count : 0, len);
    if (both)
        nc_host_printf("gm bidir node=%u len=%zu count=%u MBps=%.2f\n", me, len, count, mbps);
    else if (me == 1)
        nc_host_printf("gm stream len=%zu count=%u MBps=%.2f\n", len, count, mbps);
    nc_host_compute_ns(200000);
    while (nc_poll(p, &ev))
        ;
    nc_close(p);
    return failures != 0;
}

static int cpu(int argc, char **argv)
{
    unsigned n = argc > 2 ? (unsigned)atoi(argv[2]) : 16;
    const size_t len = argc > 3 ? (size_t)atoi(argv[3]) : 64;
    nc_port *p = open0();
    uint8_t *buf;
    nc_event ev;
    uint64_t t0, t1, t2;
    unsigned got = 0;

    if (n < 1 || n > NSEND || len < 1 || len > 65536) {
        nc_host_printf("FAIL cpu N [LEN]: N 1..%u, LEN 1..65536\n", NSEND);
        return 2;
    }
    buf = region(p, n * len);
    if (me == 1) {
        for (unsigned i = 0; i < n; i++)
            nc_provide_recv(p, buf + i * len, len, NULL);
        nc_host_compute_ns(1000000);    /* every RECV event is in the ring by now */
        t0 = nc_host_now_ns();
        for (unsigned i = 0; i < n; i++)
            got += nc_poll(p, &ev) && ev.type == NC_EVENT_RECV && ev.status == NC_OK;
        t1 = nc_host_now_ns();
        for (unsigned i = 0; i < n; i++)
            nc_provide_recv(p, buf + i * len, len, NULL);
        t2 = nc_host_now_ns();
        if (got != n)
            FAIL("cpu: %u of %u RECV events in the ring\n", got, n);
        nc_host_printf("gm cpu side=recv n=%u recv_ns=%.1f provide_ns=%.1f\n", n,
                       (double)(t1 - t0) / n, (double)(t2 - t1) / n);
    } else if (me == 0) {
        nc_host_compute_ns(100000);     /* node 1's buffers are there */
        t0 = nc_host_now_ns();
        for (unsigned i = 0; i < n; i++)
            if (nc_send(p, 1, 0, buf + i * len, len, NULL))
                FAIL("cpu: send %u\n", i);
        t1 = nc_host_now_ns();
        nc_host_compute_ns(500000);     /* every SENT event is in the ring by now */
        t2 = nc_host_now_ns();
        for (unsigned i = 0; i < n; i++)
            got += nc_poll(p, &ev) && ev.type == NC_EVENT_SENT && ev.status == NC_OK;
        if (got != n)
            FAIL("cpu: %u of %u SENT events in the ring\n", got, n);
        nc_host_printf("gm cpu side=send n=%u send_ns=%.1f sent_ns=%.1f\n", n,
                       (double)(t1 - t0) / n, (double)(nc_host_now_ns() - t2) / n);
    }
    nc_host_compute_ns(1000000);
    nc_close(p);
    return failures != 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";

    me = nc_host_node();
    if (nc_host_nodes() < 2) {
        nc_host_printf("FAIL gm_anchor runs on 2 nodes\n");
        return 2;
    }
    if (!strcmp(mode, "pingpong"))
        return pingpong(argc, argv);
    if (!strcmp(mode, "stream"))
        return stream(argc, argv, false);
    if (!strcmp(mode, "bidir"))
        return stream(argc, argv, true);
    if (!strcmp(mode, "cpu"))
        return cpu(argc, argv);
    nc_host_printf("usage: gm_anchor pingpong ITERS SIZE... | stream COUNT LEN | "
                   "bidir COUNT LEN | cpu N [LEN]\n");
    return 2;
}
