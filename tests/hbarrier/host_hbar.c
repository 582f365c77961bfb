/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host program for tests/hbarrier/suite: host-based barriers (nc_hbarrier.h)
 * among all nodes, port 0, with seeded random skew before each barrier.
 *
 *   host_hbar ALGO DIM COUNT SKEW_NS SEED [SLOW_NODE SLOW_NS]
 *     ALGO pe | gb | mix (mix: barrier k is PE when k % 3 == 0, else GB
 *          of dimension 1 + k % (N-1): consecutive barriers, different trees)
 *          | sub (barrier k is PE among all nodes when k is even, GB of
 *          dimension DIM among the even nodes only when k is odd: the odd
 *          nodes go on to k+1 and their messages reach nodes still in k)
 *          | reopen (PE through nc_hbarrier(), the per-port convenience:
 *          after COUNT/2 barriers every node, one at a time, closes its
 *          port 0 and opens port 1; prints "hb reopen same_address=0|1"
 *          (the new nc_port where the old one was) and checks that the new
 *          port got its own receive buffers; then the other barriers, on
 *          port 1)
 *     before barrier k every node computes a random 0 .. SKEW_NS-1 ns
 *     (seed SEED, node, k); SLOW_NODE computes SLOW_NS more, so that every
 *     other node's messages reach it before it waits for them
 *
 * Every node prints, per barrier, its entry and exit time in virtual ns:
 *   hb k=K n=MEMBERS in=T0 out=T1
 * and at the end "hb done count=COUNT". The suite checks, for every k, that
 * no node left before the last one entered (the barrier property), on
 * times of one global virtual clock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/hostif.h"
#include "nc_hbarrier.h"
#include "nicoll.h"

static nc_member members[NC_BARRIER_MAX_MEMBERS], evens[NC_BARRIER_MAX_MEMBERS];

/* splitmix64: a deterministic per-(seed, node, k) draw */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Between two barriers: every node closes its port 0 and opens port 1,
 * node i at 2 ms + i x 200 us after it left the last barrier, so that no
 * message is in flight and no other node allocates meanwhile: the new
 * nc_port usually gets the old one's address, what nc_hbarrier keyed its
 * contexts by. (Port 1, not 0 again: a peer that sent to the closed port 0
 * has its first message to the new process rejected, the MCP's
 * closed-port rule, and host-based barriers fail on that.) The
 * convenience context must be a new one, with its receive buffers on the
 * new port. NULL (after a FAIL line) if not. */
static nc_port *reopen(nc_port *p, unsigned me, unsigned n)
{
    nc_member self = { (uint16_t)me, 1 };
    nc_port *q;
    nc_barrier solo;
    int rc;

    nc_host_compute_ns(2000000 + (uint64_t)me * 200000);
    if ((rc = nc_close(p)) || (rc = nc_open(&q, 1))) {
        nc_host_printf("FAIL reopen: %s\n", nc_strerror(rc));
        return NULL;
    }
    nc_host_printf("hb reopen same_address=%d\n", q == p);
    /* a barrier of one member: no message, only the context */
    if ((rc = nc_barrier_pe(&solo, &self, 1, 0)) || (rc = nc_hbarrier(q, &solo))) {
        nc_host_printf("FAIL reopen: solo barrier: %s\n", nc_strerror(rc));
        return NULL;
    }
    if (nc_recv_tokens(q) != 32 - NC_HB_RECV_BUFS) {
        nc_host_printf("FAIL reopen: stale context, %u receive tokens free on the new port\n",
                       nc_recv_tokens(q));
        return NULL;
    }
    nc_host_compute_ns((uint64_t)(n - me) * 200000 + 2000000);
    return q;
}

int main(int argc, char **argv)
{
    unsigned me = nc_host_node(), n = nc_host_nodes();
    nc_port *p;
    nc_hbar h;
    nc_barrier b;
    int rc;

    if (argc < 6) {
        nc_host_printf("usage: host_hbar pe|gb|mix|sub|reopen DIM COUNT SKEW_NS SEED [SLOW_NODE SLOW_NS]\n");
        return 2;
    }
    const char *algo = argv[1];
    unsigned dim = (unsigned)atoi(argv[2]), count = (unsigned)atoi(argv[3]);
    uint64_t skew = strtoull(argv[4], NULL, 0), seed = strtoull(argv[5], NULL, 0);
    unsigned slow = argc > 7 ? (unsigned)atoi(argv[6]) : n;
    uint64_t slow_ns = argc > 7 ? strtoull(argv[7], NULL, 0) : 0;

    if (me == 0)
        nc_host_printf("hb seed=%llu algo=%s nodes=%u dim=%u count=%u skew_ns=%llu\n",
                       (unsigned long long)seed, algo, n, dim, count, (unsigned long long)skew);
    for (unsigned i = 0; i < n; i++) {
        members[i] = (nc_member){ (uint16_t)i, 0 };
        evens[i / 2] = (nc_member){ (uint16_t)(i & ~1u), 0 };
    }
    /* reopen: nc_hbarrier's own context instead of h */
    bool conv = !strcmp(algo, "reopen");
    memset(&h, 0, sizeof h);
    if ((rc = nc_open(&p, 0)) || (!conv && (rc = nc_hbar_init(&h, p)))) {
        nc_host_printf("FAIL open/init: %s\n", nc_strerror(rc));
        return 1;
    }
    h.timeout_ns = 20000000;    /* 20 ms: a lost message fails the run, never hangs it */
    for (unsigned k = 0; k < count; k++) {
        bool sub = !strcmp(algo, "sub"), half = sub && k % 2 == 1;
        bool pe = !strcmp(algo, "pe") || (!strcmp(algo, "mix") && k % 3 == 0) || (sub && !half) ||
                  conv;
        unsigned d = !strcmp(algo, "mix") ? 1 + k % (n > 1 ? n - 1 : 1) : dim;
        unsigned m = half ? (n + 1) / 2 : n;

        if (half && me % 2)
            continue;   /* not a member of this one */
        if (half && d > m - 1)
            d = m > 1 ? m - 1 : 1;
        if (conv && k == count / 2) {
            if (!(p = reopen(p, me, n)))
                return 1;
            for (unsigned i = 0; i < n; i++)
                members[i].port = 1;
        }
        rc = pe ? nc_barrier_pe(&b, members, n, me)
                : nc_barrier_gb(&b, half ? evens : members, m, half ? me / 2 : me, d);
        if (rc) {
            nc_host_printf("FAIL barrier %u: description: %s\n", k, nc_strerror(rc));
            return 1;
        }
        uint64_t w = skew ? mix(seed ^ mix((uint64_t)me << 32 | k)) % skew : 0;
        nc_host_compute_ns(w + (me == slow ? slow_ns : 0));
        uint64_t t0 = nc_host_now_ns();
        if ((rc = conv ? nc_hbarrier(p, &b) : nc_hbar_run(&h, &b))) {
            nc_host_printf("FAIL barrier %u: %s\n", k, nc_strerror(rc));
            return 1;
        }
        nc_host_printf("hb k=%u n=%u in=%llu out=%llu\n", k, m, (unsigned long long)t0,
                       (unsigned long long)nc_host_now_ns());
    }
    nc_host_printf("hb done count=%u\n", count);
    nc_hbar_fini(&h);
    nc_close(p);
    return 0;
}
