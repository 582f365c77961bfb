/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host program for tests/hmcast/suite: the host-based multicast baselines
 * (host/lib/nc_hmcast.c) on every node, port 0. Random choices come from
 * the SEED argument (printed by the suite); what every node must agree on
 * (a message's size and root) depends on the seed and the message's index
 * only.
 *
 *   ms SEED NMSG MAXLEN
 *       node 0 sends NMSG messages of seeded sizes (0 .. MAXLEN, packet
 *       boundaries often) to every other node with nc_hmultisend, from one
 *       buffer that it overwrites as soon as the call returns (the call
 *       is done only when every destination's NIC acknowledged: a variant
 *       that returns earlier lets the overwrite reach a destination).
 *   bc SEED NMSG MAXLEN
 *       NMSG binomial broadcasts (nc_hbcast) among all nodes, message k
 *       from a seeded root; the root overwrites its buffer as soon as the
 *       call returns.
 * Every receiver checks every message's contents, index, length and
 * source, that they come in order, and that nothing more comes afterwards.
 * Prints "hm done role=R count=N failures=F" per node.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/hostif.h"
#include "nicoll.h"
#include "../lib/open_port.h"
#include "../nicoll/pattern.h"

#define EVENT_NS 200000000ull   /* 0.2 s of virtual time for one event */
#define LINGER_NS 2000000ull    /* after the last message: nothing more may come */
#define RECV_BUFS 16u

static unsigned me, nn;
static int failures;
static uint64_t seed;
static nc_member members[NC_BARRIER_MAX_MEMBERS];

#define FAIL(...) (nc_host_printf("FAIL " __VA_ARGS__), failures++)

/* splitmix64: one stream per (seed, a) */
static uint64_t rnd(uint64_t a)
{
    uint64_t z = seed * 0x9E3779B97F4A7C15ull + a * 0xBF58476D1CE4E5B9ull;

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Message k's size: packet boundaries and small sizes often, else any. */
static size_t size_of(unsigned k, size_t maxlen)
{
    static const size_t edge[] = { 0, 1, 4, 12, 100, 1024, 4095, 4096, 4097, 8192, 16384,
                                   32768, 65535, 65536 };
    uint64_t r = rnd(k);
    size_t len = r & 1 ? edge[(r >> 1) % (sizeof edge / sizeof edge[0])] : (r >> 8) % (maxlen + 1);

    return len > maxlen ? maxlen : len;
}

/* Check message k as received (from members[src]). */
static void check(unsigned k, unsigned src, const nc_event *ev, size_t want)
{
    if (ev->len != want || ev->group != 0 || pat_check(ev->buf, ev->len, (uint32_t)seed, src, k))
        FAIL("node %u: message %u from %u: len %zu (want %zu)%s\n", me, k, src, ev->len, want,
             pat_check(ev->buf, ev->len, (uint32_t)seed, src, k) ? ", contents wrong" : "");
}

/* Nothing more may come once every message is through. */
static void linger(nc_hmc *h)
{
    nc_event ev;

    if (nc_hmc_flush(h))
        FAIL("node %u: a send did not complete\n", me);
    if (!failures && nc_wait(h->p, &ev, LINGER_NS) == NC_OK)
        FAIL("node %u: an extra event type %d len %zu from %u after all messages\n", me, ev.type,
             ev.len, ev.node);
}

static void ms(nc_hmc *h, uint8_t *buf, unsigned nmsg, size_t maxlen)
{
    nc_member root = members[0];
    unsigned k;
    int rc;

    for (k = 0; k < nmsg && !failures; k++) {
        size_t len = size_of(k, maxlen);
        nc_event ev;

        if (me == 0) {
            pat_fill(buf, len, (uint32_t)seed, 0, k);
            if ((rc = nc_hmultisend(h, members + 1, nn - 1, buf, len)))
                FAIL("nc_hmultisend k=%u: %s\n", k, nc_strerror(rc));
            memset(buf, 0xA5, maxlen);      /* done: the buffer is ours again */
        } else if ((rc = nc_hmc_recv(h, root, &ev))) {
            FAIL("node %u: message %u did not come: %s\n", me, k, nc_strerror(rc));
        } else {
            check(k, 0, &ev, len);
            memset(ev.buf, 0, ev.len);
            if ((rc = nc_hmc_release(h, ev.buf)))
                FAIL("nc_hmc_release: %s\n", nc_strerror(rc));
        }
    }
    linger(h);
    nc_host_printf("hm done role=%s count=%u failures=%d\n", me ? "dest" : "root", k, failures);
}

static void bc(nc_hmc *h, uint8_t *buf, unsigned nmsg, size_t maxlen)
{
    unsigned k;
    int rc;

    for (k = 0; k < nmsg && !failures; k++) {
        size_t len = size_of(k, maxlen);
        unsigned root = (unsigned)(rnd(k + 0x100000u) % nn);
        nc_event ev;

        if (me == root)
            pat_fill(buf, len, (uint32_t)seed, root, k);
        if ((rc = nc_hbcast(h, members, nn, root, me, buf, len, &ev))) {
            FAIL("node %u: nc_hbcast k=%u root %u: %s\n", me, k, root, nc_strerror(rc));
            break;
        }
        if (me == root) {
            memset(buf, 0xA5, maxlen);
            continue;
        }
        check(k, root, &ev, len);
        memset(ev.buf, 0, ev.len);
        if ((rc = nc_hmc_release(h, ev.buf)))
            FAIL("nc_hmc_release: %s\n", nc_strerror(rc));
    }
    linger(h);
    nc_host_printf("hm done role=member count=%u failures=%d\n", k, failures);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    unsigned nmsg = argc > 3 ? (unsigned)atoi(argv[3]) : 0;
    size_t maxlen = argc > 4 ? strtoul(argv[4], NULL, 0) : 65536;
    nc_hmc h;
    nc_port *p;
    uint8_t *buf;
    int rc;

    me = nc_host_node();
    nn = nc_host_nodes();
    seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
    if ((strcmp(mode, "ms") && strcmp(mode, "bc")) || nmsg == 0 || maxlen > 65536 || nn < 2 ||
        nn > NC_BARRIER_MAX_MEMBERS) {
        nc_host_printf("FAIL usage: host_hmcast ms|bc SEED NMSG MAXLEN (NMSG > 0, MAXLEN <= 65536, "
                       "2..%u nodes); got %s, %u messages, %zu, %u nodes\n",
                       NC_BARRIER_MAX_MEMBERS, mode, nmsg, maxlen, nn);
        return 2;
    }
    for (unsigned i = 0; i < nn; i++)
        members[i] = (nc_member){ (uint16_t)i, 0 };
    p = open_port(0);
    buf = region(p, maxlen ? maxlen : 1);
    if ((rc = nc_hmc_init(&h, p, RECV_BUFS, maxlen))) {
        nc_host_printf("FAIL nc_hmc_init: %s\n", nc_strerror(rc));
        return 1;
    }
    h.timeout_ns = EVENT_NS;
    if (!strcmp(mode, "ms"))
        ms(&h, buf, nmsg, maxlen);
    else
        bc(&h, buf, nmsg, maxlen);
    nc_hmc_fini(&h);
    nc_close(p);
    return failures != 0;
}
