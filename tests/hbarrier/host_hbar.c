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

#include "hostif.h"
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

int main(int argc, char **argv)
{
    unsigned me = nc_host_node(), n = nc_host_nodes();
    nc_port *p;
    nc_hbar h;
    nc_barrier b;
    int rc;

    if (argc < 6) {
        nc_host_printf("usage: host_hbar pe|gb|mix DIM COUNT SKEW_NS SEED [SLOW_NODE SLOW_NS]\n");
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
    if ((rc = nc_open(&p, 0)) || (rc = nc_hbar_init(&h, p))) {
        nc_host_printf("FAIL open/init: %s\n", nc_strerror(rc));
        return 1;
    }
    h.timeout_ns = 20000000;    /* 20 ms: a lost message fails the run, never hangs it */
    for (unsigned k = 0; k < count; k++) {
        bool sub = !strcmp(algo, "sub"), half = sub && k % 2 == 1;
        bool pe = !strcmp(algo, "pe") || (!strcmp(algo, "mix") && k % 3 == 0) || (sub && !half);
        unsigned d = !strcmp(algo, "mix") ? 1 + k % (n > 1 ? n - 1 : 1) : dim;
        unsigned m = half ? (n + 1) / 2 : n;

        if (half && me % 2)
            continue;   /* not a member of this one */
        if (half && d > m - 1)
            d = m > 1 ? m - 1 : 1;
        rc = pe ? nc_barrier_pe(&b, members, n, me)
                : nc_barrier_gb(&b, half ? evens : members, m, half ? me / 2 : me, d);
        if (rc) {
            nc_host_printf("FAIL barrier %u: description: %s\n", k, nc_strerror(rc));
            return 1;
        }
        uint64_t w = skew ? mix(seed ^ mix((uint64_t)me << 32 | k)) % skew : 0;
        nc_host_compute_ns(w + (me == slow ? slow_ns : 0));
        uint64_t t0 = nc_host_now_ns();
        if ((rc = nc_hbar_run(&h, &b))) {
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
