/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host program for tests/barrier/suite: the NIC-based barrier (libnicoll's
 * nc_barrier_start) on every node. Every barrier is framed by two lines,
 *     bar enter p=PORT inc=INC k=K n=MEMBERS
 *     bar leave p=PORT inc=INC k=K n=MEMBERS
 * printed just before the start and just after the completion event;
 * lanai-run prefixes them with the node and the virtual time, and
 * tests/barrier/check-trace checks the barrier properties on them.
 * Random choices come from the SEED argument (printed); choices all nodes
 * must agree on (subsets, algorithms, dimensions) use the seed and k only.
 *
 *   run SEED NBAR ALGO DIM SKEW_NS SUBSETS
 *       NBAR consecutive barriers on port 0; ALGO pe, gb or mix; DIM the GB
 *       dimension (0: random per barrier); each node computes a random
 *       0..SKEW_NS before entering and while waiting (fuzzy barrier);
 *       SUBSETS 1: every odd barrier is over a random subset. An optional
 *       eighth argument: the SRAM address of mcp_prof[] in a
 *       -DNC_MCP_PROFILE image (printed at the end; docs/barrier.md).
 *   slow SEED NBAR ALGO DIM SLOW_NS
 *       the last member (PE) or the root (GB) enters SLOW_NS late: every
 *       message it receives is unexpected; prints its record counter.
 *   restart SEED
 *       PE on all nodes; node 0 closes its port in the middle of a barrier,
 *       all others are killed later, then all reopen (node 0 first) and run
 *       barriers as a new incarnation.
 *   concurrent SEED NBAR SKEW_NS
 *       two barriers at once on ports 0 (PE) and 1 (GB) of every NIC.
 *   order SEED NBAR
 *       before each barrier, messages to the PE round-0 partner; the
 *       partner must see all of them before its barrier completes. Even
 *       nodes use nc_barrier_wait (events kept for nc_poll), odd ones
 *       nc_barrier_start and polling.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/hostif.h"
#include "nicoll.h"
#include "../lib/open_port.h"

#define DEADLINE_NS 20000000ull     /* 20 ms of virtual time per barrier */

static unsigned me, nn;
static int failures;
static uint64_t seed;

#define FAIL(...) (nc_host_printf("FAIL " __VA_ARGS__), failures++)

/* splitmix64: one stream per (seed, a, b) */
static uint64_t rnd(uint64_t a, uint64_t b)
{
    uint64_t z = seed * 0x9E3779B97F4A7C15ull + a * 0xBF58476D1CE4E5B9ull + b * 0x94D049BB133111EBull;

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

struct job {                /* one barrier in progress on one port */
    nc_port *p;
    unsigned port, inc, k, n;
    bool running;
    uint64_t deadline;
};

static void enter(struct job *j, const nc_barrier *b, unsigned n)
{
    int rc;

    j->n = n;
    nc_host_printf("bar enter p=%u inc=%u k=%u n=%u\n", j->port, j->inc, j->k, n);
    rc = nc_barrier_start(j->p, b, j);
    if (rc) {
        FAIL("nc_barrier_start p=%u k=%u: %s\n", j->port, j->k, nc_strerror(rc));
        return;
    }
    j->running = true;
    j->deadline = nc_host_now_ns() + DEADLINE_NS;
}

/* Poll once; true when j's barrier is over (done, failed or timed out). */
static bool poll_job(struct job *j, unsigned *recvs, unsigned *sents)
{
    nc_event ev;

    if (!j->running)
        return true;
    while (nc_poll(j->p, &ev)) {
        if (ev.type == NC_EVENT_RECV || ev.type == NC_EVENT_SENT) {
            unsigned *c = ev.type == NC_EVENT_RECV ? recvs : sents;

            if (c)
                (*c)++;
            continue;
        }
        if (ev.type != NC_EVENT_BARRIER)
            continue;
        if (ev.ctx != j)
            FAIL("barrier event with the wrong ctx\n");
        if (ev.status)
            FAIL("barrier p=%u k=%u: %s\n", j->port, j->k, nc_strerror(ev.status));
        else
            nc_host_printf("bar leave p=%u inc=%u k=%u n=%u\n", j->port, j->inc, j->k, j->n);
        j->running = false;
        return true;
    }
    if (nc_host_now_ns() > j->deadline) {
        FAIL("barrier p=%u inc=%u k=%u timed out\n", j->port, j->inc, j->k);
        j->running = false;
        return true;
    }
    return false;
}

/* Wait for j, computing in slices of up to fuzz_ns meanwhile. */
static void finish(struct job *j, uint64_t fuzz_ns, uint64_t r)
{
    while (!poll_job(j, NULL, NULL))
        if (fuzz_ns)
            nc_host_compute_ns(r++ % fuzz_ns);
}

/* Members of barrier k: everybody, or (odd k, subsets) a seeded subset
 * of at least two nodes. Returns the count; *mine = my position or -1. */
static unsigned members_of(unsigned k, bool subsets, nc_member *m, int *mine, unsigned port)
{
    unsigned n = 0;

    *mine = -1;
    for (unsigned i = 0; i < nn; i++) {
        bool in = !subsets || k % 2 == 0 || (rnd(1000 + k, i) & 1) || i == k % nn ||
                  i == (k + 1) % nn;
        if (!in)
            continue;
        if (i == me)
            *mine = (int)n;
        m[n++] = (nc_member){ (uint16_t)i, (uint8_t)port };
    }
    /* a seeded rotation, so the GB root and the PE pairs move around */
    unsigned rot = (unsigned)(rnd(2000 + k, 0) % n);
    nc_member t[NC_BARRIER_MAX_MEMBERS];
    for (unsigned i = 0; i < n; i++)
        t[i] = m[(i + rot) % n];
    memcpy(m, t, n * sizeof *m);
    if (*mine >= 0)
        *mine = (int)((*mine + n - rot) % n);
    return n;
}

/* The part of member 'pos' in barrier k (algo: 'p', 'g', or 'm' for both). */
static int part(nc_barrier *b, char algo, unsigned dim, unsigned k, const nc_member *m,
                unsigned n, unsigned pos)
{
    bool gb = algo == 'g' || (algo == 'm' && k % 2);

    if (!gb)
        return nc_barrier_pe(b, m, n, pos);
    if (n == 1)
        dim = 1;
    else if (!dim || dim > n - 1)
        dim = 1 + (unsigned)(rnd(3000 + k, 0) % (n - 1));
    return nc_barrier_gb(b, m, n, pos, dim);
}

static int run(int argc, char **argv)
{
    unsigned nbar = argc > 3 ? (unsigned)atoi(argv[3]) : 10;
    char algo = argc > 4 ? argv[4][0] : 'p';
    unsigned dim = argc > 5 ? (unsigned)atoi(argv[5]) : 0;
    uint64_t skew = argc > 6 ? strtoull(argv[6], NULL, 0) : 0;
    bool subsets = argc > 7 && atoi(argv[7]);
    nc_member m[NC_BARRIER_MAX_MEMBERS];
    struct job j = { open_port(0), 0, 1, 0, 0, false, 0 };
    unsigned done = 0;

    for (unsigned k = 0; k < nbar; k++) {
        nc_barrier b;
        int pos;
        unsigned n = members_of(k, subsets, m, &pos, 0);

        if (pos < 0)
            continue;
        if (part(&b, algo, dim, k, m, n, (unsigned)pos)) {
            FAIL("barrier part k=%u\n", k);
            continue;
        }
        if (skew)
            nc_host_compute_ns(rnd(k, me) % skew);
        j.k = k;
        enter(&j, &b, n);
        if (k == 0 && j.running) {
            /* one barrier at a time per port */
            int rc = nc_barrier_start(j.p, &b, NULL);

            if (rc != NC_EBUSY)
                FAIL("second nc_barrier_start: %s, not NC_EBUSY\n", nc_strerror(rc));
        }
        finish(&j, skew / 8, rnd(k, me + 77));
        done++;
    }
    nc_host_printf("run done=%u failures=%d unexpected=%u\n", done, failures,
                   nc_barrier_counter(j.p, NC_BARRIER_UNEXPECTED));
    if (argc > 8) {
        /* a -DNC_MCP_PROFILE image: mcp_prof[] at this SRAM address */
        uint32_t a = (uint32_t)strtoul(argv[8], NULL, 0), w[8];

        for (unsigned i = 0; i < 8; i++)
            w[i] = nc_host_pio_read32(a + 4 * i);
        if (w[0] && argc > 9 && me == 0) {
            uint32_t l = (uint32_t)strtoul(argv[9], NULL, 0);
            for (unsigned i = 0; i < 256; i++) {
                uint32_t v = nc_host_pio_read32(l + 4 * i);
                nc_host_printf("plog %u %u\n", v >> 24, v & 0xFFFFFF);
            }
        }
        if (w[0])
            nc_host_printf("profile packets=%u ticks/packet: classified %.2f handled %.2f "
                           "acked %.2f event %.2f %.2f %.2f (0.5 us ticks)\n", w[0],
                           (double)w[1] / w[0], (double)w[2] / w[0], (double)w[3] / w[0],
                           (double)w[4] / w[0], (double)w[5] / w[0], (double)w[6] / w[0]);
    }
    nc_close(j.p);
    return failures != 0;
}

static int slow(int argc, char **argv)
{
    unsigned nbar = argc > 3 ? (unsigned)atoi(argv[3]) : 5;
    char algo = argc > 4 ? argv[4][0] : 'p';
    unsigned dim = argc > 5 ? (unsigned)atoi(argv[5]) : 0;
    uint64_t late = argc > 6 ? strtoull(argv[6], NULL, 0) : 200000;
    nc_member m[NC_BARRIER_MAX_MEMBERS];
    struct job j = { open_port(0), 0, 1, 0, 0, false, 0 };
    unsigned n = members_of(0, false, m, &(int){ 0 }, 0);
    /* the slow one: the root of GB (it receives from every child), the
     * last member of PE */
    unsigned slowpos = algo == 'g' ? 0 : n - 1, recvs = 0, bad = 0;

    for (unsigned k = 0; k < nbar; k++) {
        nc_barrier b;
        unsigned pos = 0, before;

        for (unsigned i = 0; i < n; i++)
            if (m[i].node == me)
                pos = i;
        if (algo == 'g' ? nc_barrier_gb(&b, m, n, pos, dim ? dim : n - 1) :
                          nc_barrier_pe(&b, m, n, pos)) {
            FAIL("barrier part\n");
            break;
        }
        recvs = 0;
        if (algo == 'g')
            recvs = b.nchildren + b.has_parent;
        else
            for (unsigned s = 0; s < b.nsteps; s++)
                recvs += b.step[s].op != NC_BAR_OP_SEND;
        before = nc_barrier_counter(j.p, NC_BARRIER_UNEXPECTED);
        if (pos == slowpos)
            nc_host_compute_ns(late);
        j.k = k;
        enter(&j, &b, n);
        finish(&j, 0, 0);
        if (pos == slowpos) {
            unsigned got = nc_barrier_counter(j.p, NC_BARRIER_UNEXPECTED) - before;

            nc_host_printf("slow k=%u unexpected=%u receives=%u\n", k, got, recvs);
            bad += got != recvs;
        }
    }
    if (m[slowpos].node == me)
        nc_host_printf("slow done bad=%u failures=%d\n", bad, failures);
    nc_close(j.p);
    return failures != 0;
}

/* Everybody's PE part on port 0 among all nodes. */
static void pe_all(nc_barrier *b)
{
    nc_member m[NC_BARRIER_MAX_MEMBERS];

    for (unsigned i = 0; i < nn; i++)
        m[i] = (nc_member){ (uint16_t)i, 0 };
    nc_barrier_pe(b, m, nn, me);
}

static void until(uint64_t t)
{
    uint64_t now = nc_host_now_ns();

    if (now < t)
        nc_host_compute_ns(t - now);
}

static int restart(void)
{
    const unsigned K = 3;
    nc_barrier b;
    struct job j = { open_port(0), 0, 1, 0, 0, false, 0 };
    uint64_t t;

    pe_all(&b);
    /* incarnation 1: K barriers, then barrier K, in which node 0 dies */
    for (unsigned k = 0; k < K; k++) {
        j.k = k;
        enter(&j, &b, nn);
        finish(&j, 0, 0);
    }
    t = nc_host_now_ns();
    j.k = K;
    if (me == 0) {
        enter(&j, &b, nn);
        until(t + 20000);
        nc_host_printf("restart: closing inc=1 in barrier %u\n", K);
        nc_close(j.p);
    } else {
        /* the others come late, so their messages to node 0 are held */
        until(t + (me == 1 ? 0 : 60000));
        enter(&j, &b, nn);
        /* node 0 entered, so some complete (those that heard from it);
         * those waiting for it directly are stuck and get killed */
        while (!poll_job(&j, NULL, NULL) && nc_host_now_ns() < t + 300000)
            nc_host_compute_ns(1000);
        if (j.running)
            nc_host_printf("restart: killed inc=1 in barrier %u\n", K);
        nc_close(j.p);
    }
    /* incarnation 2: node 0 first, node 1, then the others, one by one */
    until(t + 400000 + (me == 0 ? 0 : me == 1 ? 30000 : 60000 + 30000 * me));
    j = (struct job){ open_port(0), 0, 2, 0, 0, false, 0 };
    for (unsigned k = 0; k < K; k++) {
        j.k = k;
        enter(&j, &b, nn);
        finish(&j, 0, 0);
    }
    nc_host_printf("restart inc=2 done failures=%d rejected=%u resent=%u\n", failures,
                   nc_barrier_counter(j.p, NC_BARRIER_REJECTED),
                   nc_barrier_counter(j.p, NC_BARRIER_RESENT));
    nc_close(j.p);
    return failures != 0;
}

static int concurrent(int argc, char **argv)
{
    unsigned nbar = argc > 3 ? (unsigned)atoi(argv[3]) : 10;
    uint64_t skew = argc > 4 ? strtoull(argv[4], NULL, 0) : 0;
    struct job j[2] = { { open_port(0), 0, 1, 0, 0, false, 0 },
                        { open_port(1), 1, 1, 0, 0, false, 0 } };
    nc_member m[2][NC_BARRIER_MAX_MEMBERS];
    nc_barrier b[2];

    for (unsigned i = 0; i < nn; i++) {
        m[0][i] = (nc_member){ (uint16_t)i, 0 };
        m[1][i] = (nc_member){ (uint16_t)((i + 1) % nn), 1 };   /* another root */
    }
    nc_barrier_pe(&b[0], m[0], nn, me);
    nc_barrier_gb(&b[1], m[1], nn, (me + nn - 1) % nn, nn > 2 ? 2 : 1);
    for (unsigned k = 0; k < nbar; k++) {
        /* the two barriers overlap; which one starts first varies */
        unsigned first = (unsigned)(rnd(k, me) & 1);

        for (unsigned q = 0; q < 2; q++) {
            struct job *x = &j[first ^ q];

            if (skew)
                nc_host_compute_ns(rnd(k, me + 100 * q) % skew);
            x->k = k;
            enter(x, &b[first ^ q], nn);
        }
        while (!(poll_job(&j[0], NULL, NULL) & poll_job(&j[1], NULL, NULL)))
            ;
    }
    nc_host_printf("concurrent done failures=%d\n", failures);
    nc_close(j[0].p);
    nc_close(j[1].p);
    return failures != 0;
}

static int order(int argc, char **argv)
{
    unsigned nbar = argc > 3 ? (unsigned)atoi(argv[3]) : 5;
    nc_port *p = open_port(0);
    struct job j = { p, 0, 1, 0, 0, false, 0 };
    static const size_t sizes[] = { 0, 64, 5000, 16384 };
    const unsigned M = 4;
    nc_barrier b;
    uint8_t *buf = nc_alloc(p, 16384 * 2 * M);
    unsigned partner, bad = 0, got = 0;
    nc_event ev;

    if (!buf || nc_register(p, buf, 16384 * 2 * M)) {
        FAIL("order: buffers\n");
        return 1;
    }
    pe_all(&b);
    partner = b.step[0].peer.node;      /* nodes a power of two: symmetric */
    for (unsigned k = 0; k < nbar; k++) {
        unsigned sent = 0;

        for (unsigned i = 0; i < M; i++)
            nc_provide_recv(p, buf + 16384 * (M + i), 16384, NULL);
        /* the partner's buffers are given before it sends (a first packet
         * without a buffer is only held back, but the test should not
         * depend on the retransmission timer) */
        nc_host_compute_ns(20000 + rnd(k, me) % 20000);
        for (unsigned i = 0; i < M; i++)
            nc_send(p, partner, 0, buf + 16384 * i, sizes[(i + k) % 4], NULL);
        j.k = k;
        if (me % 2 == 0) {
            /* the blocking call: the receive events that came before the
             * barrier's wait in its stash, nc_poll returns them after */
            int rc;

            nc_host_printf("bar enter p=0 inc=1 k=%u n=%u\n", k, nn);
            if ((rc = nc_barrier_wait(p, &b)) != NC_OK)
                FAIL("nc_barrier_wait: %s\n", nc_strerror(rc));
            else
                nc_host_printf("bar leave p=0 inc=1 k=%u n=%u\n", k, nn);
            while (nc_poll(p, &ev)) {
                if (ev.type == NC_EVENT_RECV)
                    got++;
                else if (ev.type == NC_EVENT_SENT)
                    sent++;
            }
        } else {
            enter(&j, &b, nn);
            while (!poll_job(&j, &got, &sent))
                ;
        }
        /* every message the partner sent before entering is here */
        if (got < M * (k + 1))
            bad++;
        while (sent < M) {
            if (nc_wait(p, &ev, DEADLINE_NS) != NC_OK) {
                FAIL("order: sends not completed\n");
                break;
            }
            if (ev.type == NC_EVENT_SENT)
                sent++;
            else if (ev.type == NC_EVENT_RECV)
                got++;
        }
    }
    nc_host_printf("order done bad=%u failures=%d\n", bad, failures);
    nc_close(p);
    return failures != 0 || bad;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "run";

    me = nc_host_node();
    nn = nc_host_nodes();
    seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
    if (me == 0)
        nc_host_printf("host_barrier %s seed=%llu nodes=%u\n", mode, (unsigned long long)seed, nn);
    if (!strcmp(mode, "run"))
        return run(argc, argv);
    if (!strcmp(mode, "slow"))
        return slow(argc, argv);
    if (!strcmp(mode, "restart"))
        return restart();
    if (!strcmp(mode, "concurrent"))
        return concurrent(argc, argv);
    if (!strcmp(mode, "order"))
        return order(argc, argv);
    nc_host_printf("unknown mode '%s'\n", mode);
    return 2;
}
