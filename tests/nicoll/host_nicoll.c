/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host program for the nicoll tests and `make run`: every node opens port
 * 0 of its NIC through libnicoll and runs one scenario. Each line it
 * prints is checked by tests/nicoll/suite.
 *
 *   pingpong ITERS SIZE...  node 0 and 1: round trips per size, payload
 *                           checked both ways; node 0 prints one-way latency
 *   alltoall COUNT LEN      every node sends COUNT messages to every other
 *   stream COUNT LEN        node 0 streams to node 1; order, exactly-once
 *                           and contents checked at node 1
 *   reqrep K COUNT LEN      node 0 keeps K requests outstanding to node 1,
 *                           which answers each; order, exactly-once and
 *                           contents checked at both ends
 *   reuse                   node 1 closes its port with messages in flight
 *                           and reopens it: no old message may reach it
 *   protect                 unregistered and other ports' memory refused
 *   exhaust COUNT           node 1 gives 2 receive buffers, then sleeps 1 ms
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/hostif.h"
#include "nicoll.h"
#include "pattern.h"
#include "../lib/open_port.h"

#define DEADLINE_NS 40000000ull     /* 40 ms of virtual time per scenario */
/* A receiver whose stream has nothing new for this long takes it as over:
 * longer than a packet lost many times in a row waits under the loss
 * suite's 30% drops (the back-off resends every 800 us at most: a 3 ms
 * wait was 5 losses in a row, met by seed 9), shorter than DEADLINE_NS */
#define QUIET_NS 20000000ull

static unsigned me, nn;
static int failures;

#define FAIL(...) (nc_host_printf("FAIL " __VA_ARGS__), failures++)

/* Wait for one event, by polling (as GM's benchmarks do) or interrupt. */
static int next_event(nc_port *p, nc_event *ev, bool poll)
{
    uint64_t end = nc_host_now_ns() + DEADLINE_NS;

    if (!poll)
        return nc_wait(p, ev, DEADLINE_NS);
    while (!nc_poll(p, ev))
        if (nc_host_now_ns() > end)
            return NC_ETIMEDOUT;
    return NC_OK;
}

static int pingpong(int argc, char **argv)
{
    unsigned iters = argc > 2 ? (unsigned)atoi(argv[2]) : 10;
    nc_port *p = open_port(0);
    uint8_t *tx = region(p, 65536), *rxb[2] = { region(p, 65536), region(p, 65536) };
    unsigned round = 0, early = 0;
    size_t early_len = 0;
    nc_event ev;
    int rc;

    if (me > 1)
        return nc_close(p), 0;
    /* a receive buffer is always given before the message can come: the
     * next round's before this round's reply goes out */
    nc_provide_recv(p, rxb[0], 65536, NULL);
    for (int a = 3; a < argc; a++) {
        size_t len = (size_t)atol(argv[a]);
        uint64_t t0 = 0;
        unsigned bad = 0;

        if (len > 65536) {
            if (me == 0)
                FAIL("pingpong size %zu: at most 65536 (the buffers' size)\n", len);
            return 2;
        }

        for (unsigned i = 0; i <= iters; i++, round++) {    /* round 0 warms up */
            uint8_t *rx = rxb[round % 2];
            int got = 0;

            if (i == 1)
                t0 = nc_host_now_ns();
            nc_provide_recv(p, rxb[(round + 1) % 2], 65536, NULL);
            if (me == 0) {
                pat_fill(tx, len, (uint32_t)len, 0, i);
                if ((rc = nc_send(p, 1, 0, tx, len, NULL))) {
                    FAIL("pingpong size %zu: nc_send: %s\n", len, nc_strerror(rc));
                    return 1;
                }
            }
            if (early) {
                /* node 1: this round's ping came while it waited for the
                 * completion of its last echo (below) */
                bad += early_len != len || pat_check(rx, len, (uint32_t)len, 0, i);
                early = 0;
                got++;
            }
            while (got < (me == 0 ? 2 : 1)) {
                if (next_event(p, &ev, true)) {
                    FAIL("pingpong size %zu round %u: timeout\n", len, i);
                    return 1;
                }
                if (ev.status)
                    FAIL("pingpong event %d: %s\n", ev.type, nc_strerror(ev.status));
                if (ev.type == NC_EVENT_RECV) {
                    bad += ev.len != len || pat_check(rx, len, (uint32_t)len, 0, i);
                    got++;
                } else if (me == 0)
                    got++;
            }
            if (me == 1) {
                memcpy(tx, rx, len);
                if ((rc = nc_send(p, 0, 0, tx, len, NULL))) {
                    FAIL("pingpong echo size %zu: nc_send: %s\n", len, nc_strerror(rc));
                    return 1;
                }
                /* The echo completes when node 0 acknowledges it. If that
                 * ACK is lost, the acknowledgement rides on node 0's next
                 * ping, and the ping's RECV event comes before the SENT:
                 * keep it for the next round, never drop it. */
                do {
                    if (next_event(p, &ev, true))
                        return FAIL("echo send\n"), 1;
#ifndef HOST_NICOLL_DROP_EARLY_RECV  /* the negative control of tests/loss/suite: an early RECV dropped */
                    if (ev.type == NC_EVENT_RECV) {
                        if (early)
                            FAIL("pingpong: two pings in one round\n");
                        early = 1;
                        early_len = ev.len;
                    }
#endif
                } while (ev.type != NC_EVENT_SENT);
            }
        }
        if (me == 0) {
            uint64_t dt = nc_host_now_ns() - t0;
            double us = (double)dt / iters / 2 / 1000;
            nc_host_printf("pingpong size=%zu iters=%u oneway_us=%.3f MBps=%.1f integrity=%s\n",
                           len, iters, us, us > 0 ? len / us : 0.0, bad ? "BAD" : "ok");
        } else if (bad)
            FAIL("pingpong size %zu: %u bad payloads at node 1\n", len, bad);
    }
    nc_close(p);
    return failures != 0;
}

/* Receive side shared by alltoall and stream: re-provides buffers, checks
 * order (per source), exactly-once and contents. */
struct rxstate {
    uint8_t *buf;
    size_t len;
    unsigned nbuf, received, bad, disorder;
    uint32_t next[64];
};

static void rx_setup(nc_port *p, struct rxstate *r, unsigned nbuf, size_t len)
{
    memset(r, 0, sizeof *r);
    r->len = len;
    r->nbuf = nbuf;
    r->buf = region(p, nbuf * (len ? len : 1));
    for (unsigned i = 0; i < nbuf; i++)
        nc_provide_recv(p, r->buf + i * (len ? len : 1), len, NULL);
}

static void rx_event(nc_port *p, struct rxstate *r, const nc_event *ev, uint32_t seed)
{
    uint32_t idx = pat_index(ev->buf, ev->len);

    if (ev->status) {
        FAIL("receive: %s\n", nc_strerror(ev->status));
        return;
    }
    r->received++;
    if (ev->len != r->len || pat_check(ev->buf, ev->len, seed, ev->node, idx))
        r->bad++;
    else if (idx != r->next[ev->node % 64])
        r->disorder++;
    r->next[ev->node % 64] = idx + 1;
    nc_provide_recv(p, ev->buf, r->len, NULL);
}

static int alltoall(int argc, char **argv)
{
    unsigned count = argc > 2 ? (unsigned)atoi(argv[2]) : 4;
    size_t len = argc > 3 ? (size_t)atol(argv[3]) : 1024;
    nc_port *p = open_port(0);
    uint8_t *tx = region(p, (size_t)nn * count * len);
    struct rxstate r;
    unsigned sent = 0, done = 0, errors = 0, total = (nn - 1) * count;
    uint64_t t0 = nc_host_now_ns();
    nc_event ev;

    rx_setup(p, &r, 32, len);
    while (done < total || r.received < total) {
        /* post the next send in round-robin order while tokens last */
        while (sent < total && nc_send_tokens(p)) {
            unsigned k = sent % (nn - 1), i = sent / (nn - 1), dst = (me + 1 + k) % nn;
            uint8_t *b = tx + ((size_t)dst * count + i) * len;

            pat_fill(b, len, 7, me, i);
            nc_send(p, dst, 0, b, len, NULL);
            sent++;
        }
        if (next_event(p, &ev, false)) {
            FAIL("alltoall: timeout, sent %u/%u received %u/%u\n", done, total, r.received, total);
            return 1;
        }
        if (ev.type == NC_EVENT_SENT) {
            done++;
            errors += ev.status != 0;
        } else
            rx_event(p, &r, &ev, 7);
    }
    t0 = nc_host_now_ns() - t0;
    /* anything more would be a duplicate */
    if (nc_wait(p, &ev, 500000) == NC_OK && ev.type == NC_EVENT_RECV)
        r.received++;
    nc_host_printf("alltoall sent=%u recv=%u bad=%u disorder=%u errors=%u time_us=%.1f\n", done,
                   r.received, r.bad, r.disorder, errors, t0 / 1000.0);
    nc_close(p);
    return failures || r.bad || r.disorder || errors || r.received != total;
}

static int stream(int argc, char **argv)
{
    unsigned count = argc > 2 ? (unsigned)atoi(argv[2]) : 100;
    size_t len = argc > 3 ? (size_t)atol(argv[3]) : 1024;
    nc_port *p = open_port(0);
    nc_event ev;

    if (me == 0) {
        uint8_t *tx = region(p, (size_t)count * len);
        unsigned sent = 0, done = 0, errors = 0;
        uint64_t t0;

        for (unsigned i = 0; i < count; i++)
            pat_fill(tx + (size_t)i * len, len, 11, 0, i);
        t0 = nc_host_now_ns();
        while (done < count) {
            while (sent < count && nc_send_tokens(p)) {
                int rc = nc_send(p, 1, 0, tx + (size_t)sent * len, len, NULL);
                if (rc) {
                    FAIL("stream send %u of %zu bytes: %s\n", sent, len, nc_strerror(rc));
                    return 1;
                }
                sent++;
            }
            if (next_event(p, &ev, false)) {
                nc_host_printf("stream sender TIMEOUT done=%u\n", done);
                return 1;
            }
            done += ev.type == NC_EVENT_SENT;
            errors += ev.status != 0;
        }
        nc_host_printf("stream sender done=%u errors=%u\n", done, errors);
        /* for make bench: first post to last completion */
        nc_host_printf("stream time_us=%.3f bytes=%zu\n", (nc_host_now_ns() - t0) / 1000.0,
                       (size_t)count * len);
    } else if (me == 1) {
        struct rxstate r;

        rx_setup(p, &r, 32, len);
        while (r.received < count) {
            if (next_event(p, &ev, false)) {
                nc_host_printf("stream receiver TIMEOUT recv=%u bad=%u disorder=%u\n",
                               r.received, r.bad, r.disorder);
                return 1;
            }
            rx_event(p, &r, &ev, 11);
        }
        /* anything more would be a duplicate */
        if (nc_wait(p, &ev, 2000000) == NC_OK)
            r.received++;
        nc_host_printf("stream receiver recv=%u bad=%u disorder=%u\n", r.received, r.bad,
                       r.disorder);
    }
    nc_close(p);
    return failures != 0;
}

/* Request-reply with K requests outstanding: node 0 sends request i
 * (seed 21) while fewer than K are unanswered; node 1 answers each with
 * reply i (seed 22). Both sides handle whatever event comes (a reply's
 * SENT may come after later requests' RECVs when ACKs are lost), check
 * order, exactly-once and contents, and then listen a while for a
 * duplicate. */
static int reqrep(int argc, char **argv)
{
    unsigned k = argc > 2 ? (unsigned)atoi(argv[2]) : 4;
    unsigned count = argc > 3 ? (unsigned)atoi(argv[3]) : 50;
    size_t len = argc > 4 ? (size_t)atol(argv[4]) : 64;
    nc_port *p = open_port(0);
    uint8_t *tx = region(p, (size_t)count * len);
    unsigned sent = 0, done = 0, errors = 0;
    struct rxstate r;
    nc_event ev;

    if (me > 1)
        return nc_close(p), 0;
    if (len < 12 || k < 1 || k > 16)
        return FAIL("reqrep: LEN must be >= 12 and K 1..16\n"), 1;
    rx_setup(p, &r, 32, len);
    /* node 0: until every reply came and every request completed;
     * node 1: until every request came and every reply completed */
    while (r.received < count || done < count) {
        while (sent < count && nc_send_tokens(p) &&
               (me == 0 ? sent - r.received < k : sent < r.received)) {
            uint8_t *b = tx + (size_t)sent * len;

            pat_fill(b, len, me == 0 ? 21 : 22, me, sent);
            nc_send(p, !me, 0, b, len, NULL);
            sent++;
        }
        if (next_event(p, &ev, false)) {
            FAIL("reqrep: timeout, sent %u completed %u received %u of %u\n", sent, done,
                 r.received, count);
            return 1;
        }
        if (ev.type == NC_EVENT_SENT) {
            done++;
            errors += ev.status != 0;
        } else
            rx_event(p, &r, &ev, me == 0 ? 22 : 21);
    }
    /* anything more would be a duplicate */
    if (nc_wait(p, &ev, 1000000) == NC_OK && ev.type == NC_EVENT_RECV)
        r.received++;
    nc_host_printf("reqrep k=%u sent=%u recv=%u bad=%u disorder=%u errors=%u\n", k, done,
                   r.received, r.bad, r.disorder, errors);
    nc_close(p);
    return failures || r.bad || r.disorder || errors || r.received != count;
}

/* Node 1's side of a port reuse (reuse, reopen_stream): the first process
 * on port 1 takes one message of len bytes and closes with more on their
 * way; pause_ns later the next process opens port 1 and gives nbuf
 * receive buffers of len bytes. NULL (and a FAIL naming who) if the first
 * message did not come. */
static nc_port *reopen_port1(const char *who, size_t len, unsigned nbuf, uint64_t pause_ns)
{
    nc_port *a = open_port(1), *b;
    uint8_t *buf = region(a, len);
    nc_event ev;

    nc_provide_recv(a, buf, len, NULL);
    if (nc_wait(a, &ev, DEADLINE_NS) || ev.status) {
        FAIL("%s: first message\n", who);
        return NULL;
    }
    nc_close(a);
    nc_host_compute_ns(pause_ns);       /* the next process starts later */
    b = open_port(1);
    buf = region(b, nbuf * len);
    for (unsigned i = 0; i < nbuf; i++)
        nc_provide_recv(b, buf + i * len, len, NULL);
    return b;
}

/* A port closed and reopened under a stream: node 0 keeps COUNT messages
 * of 64 B (seed 3, index i) going to node 1 port 1 as fast as its tokens
 * allow; node 1's first process takes one and closes, the next opens
 * 200 us later and takes what comes. Every send must complete (OK or
 * EPORTCLOSED: no stall), the new process must get messages in order,
 * none that its sender saw fail, and every message sent OK after the
 * first failure. */
static int reopen_stream(int argc, char **argv)
{
    unsigned count = argc > 2 ? (unsigned)atoi(argv[2]) : 40;
    const size_t len = 64;
    nc_event ev;

    if (count > 4096)
        return FAIL("reopen_stream: at most 4096 messages\n"), 2;
    if (me == 0) {
        nc_port *p = open_port(0);
        uint8_t *tx = region(p, count * len);
        unsigned sent = 0, done = 0, ok = 0, closed = 0, other = 0, first_fail = ~0u;
        unsigned last_ok = 0, sum_ok = 0;

        while (done < count) {
            while (sent < count && nc_send_tokens(p)) {
                pat_fill(tx + sent * len, len, 3, 0, sent);
                nc_send(p, 1, 1, tx + sent * len, len, (void *)(uintptr_t)(sent + 1));
                sent++;
            }
            if (next_event(p, &ev, false))
                return FAIL("reopen_stream: sends stalled, %u of %u completed\n", done, sent), 1;
            if (ev.type != NC_EVENT_SENT)
                continue;
            done++;
            if (ev.status == NC_OK) {
                ok++;
                last_ok = (unsigned)(uintptr_t)ev.ctx;
                sum_ok += last_ok - 1;      /* message 0 went to the old process */
            } else if (ev.status == NC_EPORTCLOSED) {
                closed++;
                if ((unsigned)(uintptr_t)ev.ctx - 1 < first_fail)
                    first_fail = (unsigned)(uintptr_t)ev.ctx - 1;
            } else
                other++;
        }
        /* every message sent OK but the first went to the new process:
         * the receiver's count and index sum must be these */
        nc_host_printf("reopen_stream sender: ok=%u portclosed=%u other=%u first_fail=%u last_ok=%u "
                       "new=%u sum=%u\n", ok, closed, other, first_fail, last_ok, ok - 1, sum_ok);
        nc_close(p);
    } else if (me == 1) {
        nc_port *b = reopen_port1("reopen_stream", len, 32, 200000);
        unsigned got = 0, bad = 0, disorder = 0, next = 0, sum = 0;

        if (!b)
            return 1;
        while (nc_wait(b, &ev, QUIET_NS) == NC_OK) {
            uint32_t idx = pat_index(ev.buf, ev.len);

            if (ev.status || pat_check(ev.buf, ev.len, 3, 0, idx))
                bad++;
            else {
                disorder += got && idx <= next;
                next = idx;
                sum += idx;
                got++;
            }
            nc_provide_recv(b, ev.buf, len, NULL);
        }
        nc_host_printf("reopen_stream receiver: bad=%u disorder=%u last=%u new=%u sum=%u\n", bad,
                       disorder, next + 1, got, sum);
        nc_close(b);
    }
    return failures != 0;
}

/* Node 0 sends 10 messages (seed 1) to node 1 port 1, whose first process
 * takes one and closes; then, once all of them are accounted for, 5 more
 * (seed 2). The second process on port 1 must see exactly those 5. */
static int reuse(void)
{
    const size_t len = 16384;
    nc_event ev;

    if (me == 0) {
        nc_port *p = open_port(0);
        uint8_t *tx = region(p, 15 * len);
        unsigned ok = 0, closed = 0, other = 0;

        for (unsigned i = 0; i < 10; i++) {
            pat_fill(tx + i * len, len, 1, 0, i);
            nc_send(p, 1, 1, tx + i * len, len, NULL);
        }
        for (unsigned n = 0; n < 10; n++) {
            if (next_event(p, &ev, false))
                return FAIL("reuse: old sends never completed\n"), 1;
            ok += ev.status == NC_OK;
            closed += ev.status == NC_EPORTCLOSED;
            other += ev.status != NC_OK && ev.status != NC_EPORTCLOSED;
        }
        nc_host_printf("reuse old: ok=%u portclosed=%u other=%u\n", ok, closed, other);
        for (unsigned i = 0; i < 5; i++) {
            pat_fill(tx + (10 + i) * len, len, 2, 0, i);
            nc_send(p, 1, 1, tx + (10 + i) * len, len, NULL);
        }
        ok = 0;
        for (unsigned n = 0; n < 5; n++) {
            if (next_event(p, &ev, false))
                return FAIL("reuse: new sends never completed\n"), 1;
            ok += ev.status == NC_OK;
        }
        nc_host_printf("reuse new: ok=%u\n", ok);
        nc_close(p);
    } else if (me == 1) {
        /* the first process closes with 9 messages still on their way */
        nc_port *b = reopen_port1("reuse", len, 8, 300000);
        unsigned got = 1, stale = 0, fresh = 0, bad = 0;

        if (!b)
            return 1;
        while (nc_wait(b, &ev, QUIET_NS) == NC_OK) {
            uint32_t idx = pat_index(ev.buf, ev.len);

            if (!pat_check(ev.buf, ev.len, 1, 0, idx))
                stale++;
            else if (!pat_check(ev.buf, ev.len, 2, 0, idx) && idx == fresh)
                fresh++;
            else
                bad++;
        }
        nc_host_printf("reuse receiver: first=%u stale=%u fresh=%u bad=%u\n", got, stale, fresh, bad);
        nc_close(b);
    }
    return failures != 0;
}

static int protect(void)
{
    const size_t len = 4096;
    nc_port *p = open_port(0);
    nc_event ev;

    if (me == 0) {
        nc_port *q = open_port(2);
        uint8_t *reg = region(p, len), *unreg = nc_alloc(p, len), *dereg = region(p, len);
        int s1, s2, s3, s4;

        memset(unreg, 0xA5, len);
        memset(dereg, 0x5A, len);
        nc_deregister(p, dereg);
        /* a send from unregistered memory, a receive buffer in it, one in
         * memory that was deregistered, a send through another port */
        pat_fill(unreg, len, 3, 0, 0);
        nc_send(p, 1, 0, unreg, len, NULL);
        nc_wait(p, &ev, DEADLINE_NS);
        s1 = ev.type == NC_EVENT_SENT ? ev.status : 99;
        nc_provide_recv(p, unreg + 0, len, NULL);
        nc_wait(p, &ev, DEADLINE_NS);
        s2 = ev.type == NC_EVENT_RECV ? ev.status : 99;
        nc_provide_recv(p, dereg, len, NULL);
        nc_wait(p, &ev, DEADLINE_NS);
        s3 = ev.type == NC_EVENT_RECV ? ev.status : 99;
        nc_send(q, 1, 0, reg, len, NULL);   /* reg belongs to port 0 */
        nc_wait(q, &ev, DEADLINE_NS);
        s4 = ev.type == NC_EVENT_SENT ? ev.status : 99;
        /* a good message (index 1) and a good buffer: node 1's message to
         * us lands only there */
        pat_fill(reg, len, 3, 0, 1);
        nc_send(p, 1, 0, reg, len, NULL);
        uint8_t *rx = region(p, len);
        nc_provide_recv(p, rx, len, NULL);
        unsigned recvd = 0, sent = 0;
        while (recvd + sent < 2 && nc_wait(p, &ev, DEADLINE_NS) == NC_OK) {
            recvd += ev.type == NC_EVENT_RECV && !ev.status && !pat_check(rx, len, 4, 1, 0);
            sent += ev.type == NC_EVENT_SENT && !ev.status;
        }
        unsigned touched = 0;
        for (size_t i = 0; i < len; i++)
            touched += dereg[i] != 0x5A;
        pat_fill(rx, 0, 0, 0, 0);
        nc_host_printf("protect: send_unreg=%s recv_unreg=%s recv_dereg=%s other_port=%s good_send=%u good_recv=%u dereg_touched=%u unreg_intact=%s\n",
                       nc_strerror(s1), nc_strerror(s2), nc_strerror(s3), nc_strerror(s4), sent,
                       recvd, touched, pat_check(unreg, len, 3, 0, 0) ? "no" : "yes");
        nc_close(q);
    } else if (me == 1) {
        uint8_t *rx = region(p, len), *tx = region(p, len);

        nc_provide_recv(p, rx, len, NULL);
        pat_fill(tx, len, 4, 1, 0);
        nc_send(p, 0, 0, tx, len, NULL);
        unsigned got = 0, sent = 0;
        uint32_t first = ~0u;
        while (got + sent < 2 && nc_wait(p, &ev, DEADLINE_NS) == NC_OK) {
            if (ev.type == NC_EVENT_RECV && !got++)
                first = pat_index(rx, ev.len);
            sent += ev.type == NC_EVENT_SENT;
        }
        nc_wait(p, &ev, 1000000);
        nc_host_printf("protect peer: received=%u first_index=%u\n", got, first);
    }
    nc_close(p);
    return failures != 0;
}

static int exhaust(int argc, char **argv)
{
    unsigned count = argc > 2 ? (unsigned)atoi(argv[2]) : 20;
    const size_t len = 2048;
    nc_port *p = open_port(0);
    nc_event ev;

    if (me == 0) {
        uint8_t *tx = region(p, count * len);
        unsigned sent = 0, done = 0, errors = 0, at_1ms = 0;
        uint64_t t0 = nc_host_now_ns();

        while (done < count) {
            while (sent < count && nc_send_tokens(p)) {
                pat_fill(tx + sent * len, len, 5, 0, sent);
                nc_send(p, 1, 0, tx + sent * len, len, NULL);
                sent++;
            }
            if (next_event(p, &ev, false))
                return nc_host_printf("exhaust sender TIMEOUT done=%u\n", done), 1;
            done += ev.type == NC_EVENT_SENT;
            errors += ev.status != 0;
            if (nc_host_now_ns() - t0 < 1000000)
                at_1ms = done;
        }
        nc_host_printf("exhaust sender done=%u errors=%u done_while_receiver_slept=%u\n", done,
                       errors, at_1ms);
    } else if (me == 1) {
        struct rxstate r;

        rx_setup(p, &r, 2, len);
        nc_host_compute_ns(1500000);        /* the receiver is busy elsewhere */
        while (r.received < count) {
            if (next_event(p, &ev, false))
                return nc_host_printf("exhaust receiver TIMEOUT recv=%u\n", r.received), 1;
            rx_event(p, &r, &ev, 5);
        }
        nc_host_printf("exhaust receiver recv=%u bad=%u disorder=%u\n", r.received, r.bad,
                       r.disorder);
    }
    nc_close(p);
    return failures != 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "pingpong";

    static const struct { const char *mode; unsigned nodes; } need[] = {
        { "pingpong", 2 }, { "stream", 2 }, { "reqrep", 2 }, { "reuse", 2 }, { "reopen_stream", 2 }, { "exhaust", 2 },
        { "alltoall", 2 },
    };

    me = nc_host_node();
    nn = nc_host_nodes();
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        if (!strcmp(mode, need[i].mode) && nn < need[i].nodes) {
            if (me == 0)
                nc_host_printf("FAIL %s needs at least %u nodes, the cluster has %u "
                               "(lanai-run --nodes %u)\n", mode, need[i].nodes, nn,
                               need[i].nodes);
            return 2;
        }
    if (!strcmp(mode, "pingpong"))
        return pingpong(argc, argv);
    if (!strcmp(mode, "alltoall"))
        return alltoall(argc, argv);
    if (!strcmp(mode, "stream"))
        return stream(argc, argv);
    if (!strcmp(mode, "reqrep"))
        return reqrep(argc, argv);
    if (!strcmp(mode, "reuse"))
        return reuse();
    if (!strcmp(mode, "reopen_stream"))
        return reopen_stream(argc, argv);
    if (!strcmp(mode, "protect"))
        return protect();
    if (!strcmp(mode, "exhaust"))
        return exhaust(argc, argv);
    nc_host_printf("unknown mode '%s'\n", mode);
    return 2;
}
