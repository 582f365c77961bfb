/*
 * Unit tests for ref/proto: every exported function, exhaustive checks on
 * small inputs, the 32-bit wraparound edge, and seeded random runs against
 * simple reference models.  The seed comes from NC_TEST_SEED (default 1)
 * and is printed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nc_seq.h"
#include "nc_mcack.h"
#include "nc_mcgroup.h"
#include "nc_barrec.h"
#include "nc_pool.h"
#include "nc_abred.h"

static uint64_t rng_state;
static uint32_t rnd(void)
{
    /* xorshift64*: small, deterministic, good enough for test inputs */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 2685821657736338717ull) >> 32);
}

/* The RFC 1982 definition, on 64-bit integers. */
static int ref_before(uint32_t a, uint32_t b)
{
    int64_t x = a, y = b;
    return (x < y && y - x < 2147483648ll) || (x > y && x - y > 2147483648ll);
}

/* Numbers around 0, around 2^31 and around 2^32 - 1. */
static const uint32_t edges[] = {
    0u, 1u, 2u, 3u, 100u, 0x7FFFFFFDu, 0x7FFFFFFEu, 0x7FFFFFFFu, 0x80000000u,
    0x80000001u, 0x80000002u, 0xFFFFFFF0u, 0xFFFFFFFDu, 0xFFFFFFFEu, 0xFFFFFFFFu
};
#define NEDGES (sizeof edges / sizeof edges[0])

static void test_seq_lt_edges(void **st)
{
    (void)st;
    for (size_t i = 0; i < NEDGES; i++)
        for (size_t j = 0; j < NEDGES; j++) {
            uint32_t a = edges[i], b = edges[j];
            assert_int_equal(nc_seq_lt(a, b), ref_before(a, b));
            assert_int_equal(nc_seq_distance(a, b), (uint32_t)(b - a));
            /* antisymmetric, irreflexive */
            assert_false(nc_seq_lt(a, b) && nc_seq_lt(b, a));
        }
    assert_true(nc_seq_lt(0xFFFFFFFFu, 0u));      /* across the wrap */
    assert_true(nc_seq_lt(0xFFFFFFF0u, 5u));
    assert_false(nc_seq_lt(5u, 0xFFFFFFF0u));
    assert_false(nc_seq_lt(0u, 0x80000000u));     /* antipodes: unordered */
    assert_false(nc_seq_lt(0x80000000u, 0u));
    assert_int_equal(nc_seq_distance(0xFFFFFFFEu, 1u), 3u);
}

static void test_seq_lt_random(void **st)
{
    (void)st;
    for (int i = 0; i < 200000; i++) {
        uint32_t a = rnd(), b = (i & 1) ? a + (rnd() % 2000u) - 1000u : rnd();
        assert_int_equal(nc_seq_lt(a, b), ref_before(a, b));
    }
}

static void test_rx_window(void **st)
{
    (void)st;
    /* Exhaustive over offsets -3 .. +3 around expected, at every edge. */
    for (size_t i = 0; i < NEDGES; i++)
        for (int off = -3; off <= 3; off++) {
            nc_rx_t w;
            uint32_t reply = 0xDEADu, e = edges[i], seq = e + (uint32_t)off;
            nc_rx_init(&w, e);
            nc_rx_verdict_t v = nc_rx_receive(&w, seq, &reply);
            if (off == 0) {
                assert_int_equal(v, NC_RX_ACCEPT);
                assert_int_equal(w.expected, e + 1u);
                assert_int_equal(reply, seq);
            } else if (off < 0) {
                assert_int_equal(v, NC_RX_DUP);
                assert_int_equal(w.expected, e);
                assert_int_equal(reply, e - 1u);
            } else {
                assert_int_equal(v, NC_RX_GAP);
                assert_int_equal(w.expected, e);
                assert_int_equal(reply, e);
            }
        }
    /* A stream across 2^32: every packet accepted exactly once, in order. */
    nc_rx_t w;
    uint32_t reply;
    nc_rx_init(&w, 0xFFFFFFFCu);
    for (uint32_t k = 0; k < 8; k++) {
        assert_int_equal(nc_rx_receive(&w, 0xFFFFFFFCu + k, &reply), NC_RX_ACCEPT);
        assert_int_equal(nc_rx_receive(&w, 0xFFFFFFFCu + k, &reply), NC_RX_DUP);
        assert_int_equal(reply, 0xFFFFFFFCu + k);
    }
    assert_int_equal(w.expected, 4u);
}

static void test_tx_window(void **st)
{
    (void)st;
    for (size_t i = 0; i < NEDGES; i++) {
        nc_tx_t t;
        uint32_t first, base = edges[i];
        nc_tx_init(&t, base, 8u);
        for (uint32_t k = 0; k < 8; k++) {
            assert_true(nc_tx_can_send(&t));
            assert_int_equal(nc_tx_push(&t), base + k);
        }
        assert_false(nc_tx_can_send(&t));
        assert_int_equal(nc_tx_timeout(&t, &first), 8u);
        assert_int_equal(first, base);
        /* stale and future ACKs are ignored */
        assert_int_equal(nc_tx_ack(&t, base - 1u), 0u);
        assert_int_equal(nc_tx_ack(&t, base + 8u), 0u);
        assert_int_equal(t.count, 8u);
        /* cumulative ACK of base+2 frees three */
        assert_int_equal(nc_tx_ack(&t, base + 2u), 3u);
        assert_int_equal(t.base, base + 3u);
        assert_int_equal(t.count, 5u);
        /* NACK(base+5): two more acked, resend the remaining three */
        assert_int_equal(nc_tx_nack(&t, base + 5u, &first), 3u);
        assert_int_equal(first, base + 5u);
        assert_int_equal(t.base, base + 5u);
        /* bogus NACK beyond next: nothing changes */
        assert_int_equal(nc_tx_nack(&t, base + 100u, &first), 0u);
        assert_int_equal(t.count, 3u);
        /* NACK(base) is now stale: before base by more than count */
        assert_int_equal(nc_tx_nack(&t, base, &first), 0u);
        assert_int_equal(nc_tx_ack(&t, base + 7u), 3u);
        assert_int_equal(t.count, 0u);
        assert_int_equal(nc_tx_slot(base + 7u), (base + 7u) % NC_TX_WINDOW_MAX);
    }
}

/* Go-back-N over a lossy channel against the receive window: everything
 * arrives once, in order, whatever is dropped. */
static void test_gbn_lossy(void **st)
{
    (void)st;
    for (int run = 0; run < 200; run++) {
        nc_tx_t t;
        nc_rx_t r;
        uint32_t start = (run & 1) ? 0xFFFFFF00u + rnd() % 256u : rnd();
        uint32_t delivered = 0, want = 300, first, reply, loss = rnd() % 50u;
        nc_tx_init(&t, start, 1u + rnd() % NC_TX_WINDOW_MAX);
        nc_rx_init(&r, start);
        uint32_t pending[NC_TX_WINDOW_MAX * 2], np = 0;
        for (int step = 0; step < 100000 && delivered < want; step++) {
            while (nc_tx_can_send(&t) && np < NC_TX_WINDOW_MAX)
                pending[np++] = nc_tx_push(&t);
            if (np == 0) {               /* everything lost: timeout */
                uint32_t n = nc_tx_timeout(&t, &first);
                for (uint32_t k = 0; k < n; k++)
                    pending[np++] = first + k;
                continue;
            }
            uint32_t seq = pending[0];
            memmove(pending, pending + 1, --np * sizeof pending[0]);
            if (rnd() % 100u < loss)
                continue;                 /* data lost */
            nc_rx_verdict_t v = nc_rx_receive(&r, seq, &reply);
            if (v == NC_RX_ACCEPT) {
                assert_int_equal(seq, start + delivered);
                delivered++;
            }
            if (rnd() % 100u < loss)
                continue;                 /* answer lost */
            if (v == NC_RX_GAP) {
                uint32_t n = nc_tx_nack(&t, reply, &first);
                np = 0;
                for (uint32_t k = 0; k < n; k++)
                    pending[np++] = first + k;
            } else {
                nc_tx_ack(&t, reply);
            }
        }
        assert_int_equal(delivered, want);
    }
}

static void test_mcack(void **st)
{
    (void)st;
    nc_mc_t t;
    uint32_t first;
    nc_mc_init(&t, 3u, 0xFFFFFFFEu, 8u);
    for (uint32_t k = 0; k < 4; k++)
        assert_int_equal(nc_mc_push(&t), 0xFFFFFFFEu + k);
    assert_int_equal(nc_mc_owing_mask(&t, 0xFFFFFFFEu), 7u);
    assert_int_equal(nc_mc_owing_mask(&t, 5u), 0u);           /* not in flight */
    assert_int_equal(nc_mc_ack(&t, 0u, 1u), 0u);               /* child 0 has all 4 */
    assert_int_equal(nc_mc_owing_mask(&t, 1u), 6u);
    assert_false(nc_mc_owes(&t, 0u, 1u));
    assert_true(nc_mc_owes(&t, 1u, 1u));
    assert_int_equal(nc_mc_ack(&t, 1u, 0xFFFFFFFFu), 0u);      /* child 1 has 2 */
    assert_int_equal(nc_mc_resend(&t, 1u, &first), 2u);
    assert_int_equal(first, 0u);
    assert_int_equal(nc_mc_resend(&t, 2u, &first), 4u);
    assert_int_equal(first, 0xFFFFFFFEu);
    assert_int_equal(nc_mc_ack(&t, 2u, 0u), 2u);               /* min is now 2 */
    assert_int_equal(nc_mc_min_unacked(&t), 0u);
    assert_int_equal(t.count, 2u);
    assert_int_equal(nc_mc_ack(&t, 2u, 0u), 0u);               /* duplicate */
    assert_int_equal(nc_mc_ack(&t, 1u, 1u), 1u);               /* child 2 still owes 1 */
    assert_int_equal(nc_mc_owing_mask(&t, 1u), 4u);
    assert_int_equal(nc_mc_ack(&t, 2u, 1u), 1u);
    assert_int_equal(t.count, 0u);
    assert_int_equal(nc_mc_owing_mask(&t, 1u), 0u);
}

/* Random acks against a per-child model of "highest acked". */
static void test_mcack_random(void **st)
{
    (void)st;
    for (int run = 0; run < 300; run++) {
        nc_mc_t t;
        uint32_t nch = 1u + rnd() % NC_MC_MAX_CHILDREN;
        uint32_t start = (run & 1) ? 0xFFFFFFF0u : rnd();
        uint64_t sent = 0, held[NC_MC_MAX_CHILDREN] = {0}, released = 0;
        nc_mc_init(&t, nch, start, NC_TX_WINDOW_MAX);
        for (int step = 0; step < 2000; step++) {
            if (rnd() % 2u && t.count < t.window) {
                assert_int_equal(nc_mc_push(&t), start + (uint32_t)sent);
                sent++;
                continue;
            }
            uint32_t c = rnd() % nch;
            /* ack anything from 2 before released to 2 past sent */
            uint64_t a = released + rnd() % (uint32_t)(sent - released + 4u);
            uint32_t ack = start + (uint32_t)a - 2u;
            uint32_t got = nc_mc_ack(&t, c, ack);
            /* the incremental minimum's witness still lags */
            assert_true(t.lag < nch);
            assert_int_equal(t.acked[t.lag], 0u);
            if (a >= 2 && a - 2 < sent && a - 1 > held[c] && a - 2 >= released)
                held[c] = a - 1;
            uint64_t mn = held[0];
            for (uint32_t i = 1; i < nch; i++)
                if (held[i] < mn) mn = held[i];
            assert_int_equal(got, (uint32_t)(mn - released));
            released = mn;
            assert_int_equal(nc_mc_min_unacked(&t), start + (uint32_t)released);
            uint32_t seq = start + (uint32_t)(released + rnd() % 70u);
            uint32_t mask = nc_mc_owing_mask(&t, seq);
            for (uint32_t i = 0; i < nch; i++) {
                uint64_t d = (uint32_t)(seq - (start + (uint32_t)released));
                int owes = d < sent - released && held[i] <= released + d;
                assert_int_equal((mask >> i) & 1u, (uint32_t)owes);
                assert_int_equal(nc_mc_owes(&t, i, seq), owes);
            }
        }
    }
}

/* A leaf and an inner member take only the next packet from the parent,
 * re-ack older ones and drop the rest (NC_BROKEN_MG_ACCEPT_ANY fails here). */
static void test_mcgroup_receive(void **st)
{
    (void)st;
    nc_mg_t g;
    nc_mg_init(&g, NC_MG_LEAF, 0u, 0xFFFFFFFFu, 4u);
    assert_int_equal(nc_mg_up_ack(&g), 0xFFFFFFFEu);           /* nothing yet */
    assert_int_equal(nc_mg_classify(&g, 0u), NC_MG_DROP);      /* one too far */
    assert_int_equal(nc_mg_classify(&g, 0xFFFFFFFFu), NC_MG_TAKE);
    nc_mg_take(&g, 0xFFFFFFFFu);
    assert_int_equal(g.expect, 0u);                             /* wrapped */
    assert_int_equal(nc_mg_up_ack(&g), 0xFFFFFFFFu);
    assert_int_equal(nc_mg_classify(&g, 0xFFFFFFFFu), NC_MG_DUP);
    assert_int_equal(nc_mg_classify(&g, 5u), NC_MG_DROP);
    assert_int_equal(nc_mg_classify(&g, 0x80000000u), NC_MG_DROP); /* 2^31 away: unordered */

    /* an inner member's window toward its children follows what it takes */
    nc_mg_init(&g, NC_MG_INNER, 2u, 1u, 2u);
    assert_int_equal(nc_mg_classify(&g, 2u), NC_MG_DROP);
    nc_mg_take(&g, 1u);
    nc_mg_take(&g, 2u);
    assert_int_equal(g.mc.count, 2u);
    assert_int_equal(g.mc.base + g.mc.count, g.expect);
    assert_int_equal(nc_mg_classify(&g, 3u), NC_MG_DROP);      /* window full */
    assert_int_equal(nc_mg_classify(&g, 1u), NC_MG_DUP);
    assert_int_equal(nc_mg_up_ack(&g), 0u);                     /* children hold nothing */
}

/* An inner member: the ACK up trails the slowest child, a message is
 * released only when every child has its last packet, retransmissions go
 * only to the children that owe (NC_BROKEN_MG_EARLY_RELEASE and
 * NC_BROKEN_MG_RESEND_ALL fail here). */
static void test_mcgroup_inner(void **st)
{
    (void)st;
    nc_mg_t g;
    uint32_t ack = 77u;
    nc_mg_init(&g, NC_MG_INNER, 3u, 10u, 8u);
    assert_false(nc_mg_ack_due(&g, &ack));
    assert_int_equal(ack, 77u);
    for (uint32_t s = 10u; s < 13u; s++) {                      /* a 3-packet message */
        assert_int_equal(nc_mg_classify(&g, s), NC_MG_TAKE);
        nc_mg_take(&g, s);
    }
    assert_int_equal(nc_mg_resend_mask(&g, 10u), 7u);
    assert_int_equal(nc_mg_child_ack(&g, 0u, 12u), 0u);         /* child 0 has it all */
    assert_int_equal(nc_mg_resend_mask(&g, 12u), 6u);
    assert_false(nc_mg_msg_done(&g, 10u, 3u, 3u));
    assert_false(nc_mg_ack_due(&g, &ack));
    assert_int_equal(nc_mg_child_ack(&g, 1u, 12u), 0u);
    assert_int_equal(nc_mg_child_ack(&g, 2u, 10u), 1u);         /* everyone has 10 */
    assert_true(nc_mg_ack_due(&g, &ack));
    assert_int_equal(ack, 10u);
    assert_int_equal(nc_mg_up_ack(&g), 10u);
    assert_false(nc_mg_ack_due(&g, &ack));                      /* told already */
    assert_int_equal(nc_mg_resend_mask(&g, 11u), 4u);           /* only child 2 */
    assert_int_equal(nc_mg_resend_mask(&g, 10u), 0u);
    assert_false(nc_mg_msg_done(&g, 10u, 3u, 3u));
    assert_int_equal(nc_mg_child_ack(&g, 2u, 12u), 2u);
    assert_true(nc_mg_msg_done(&g, 10u, 3u, 3u));
    assert_true(nc_mg_ack_due(&g, &ack));
    assert_int_equal(ack, 12u);
}

/* Seeded random runs of a root and its children over lossy links, against
 * what the children really hold: the root's message completes exactly when
 * every child holds every packet of it; an inner member never acknowledges
 * more than all its children hold. */
static void test_mcgroup_random(void **st)
{
    (void)st;
    for (int run = 0; run < 200; run++) {
        nc_mg_t root, kid[NC_MC_MAX_CHILDREN];
        uint32_t nch = 1u + rnd() % 8u, first = (run & 1) ? 0xFFFFFFF8u : 1u + rnd() % 1000u;
        uint32_t msgs = 0, mfirst = first, npk = 1u + rnd() % 6u, built = 0;
        nc_mg_init(&root, NC_MG_ROOT, nch, first, 8u);
        for (uint32_t c = 0; c < nch; c++)
            nc_mg_init(&kid[c], c == 0 ? NC_MG_INNER : NC_MG_LEAF, c == 0 ? 1u : 0u, first, 8u);
        for (int step = 0; step < 3000 && msgs < 20; step++) {
            uint32_t c = rnd() % nch, r = rnd() % 4u;
            if (r == 0 && built < npk && root.mc.count < root.mc.window) {
                (void)nc_mg_push(&root);
                built++;
            } else if (r == 1 && root.mc.count) {
                /* a packet in flight reaches child c (maybe a resend) */
                uint32_t seq = root.mc.base + rnd() % root.mc.count;
                if (nc_mg_resend_mask(&root, seq) >> c & 1u) {
                    nc_mg_verdict_t v = nc_mg_classify(&kid[c], seq);
                    if (v == NC_MG_TAKE)
                        nc_mg_take(&kid[c], seq);
                }
            } else if (r == 2) {
                /* child 0 is an inner member whose one child acks at random */
                uint32_t ack;
                if (c == 0 && kid[0].mc.count && rnd() % 2u)
                    (void)nc_mg_child_ack(&kid[0], 0u, kid[0].mc.base + rnd() % kid[0].mc.count);
                if (c == 0)
                    (void)nc_mg_ack_due(&kid[0], &ack);
                /* what the child says never exceeds what its subtree took */
                ack = nc_mg_up_ack(&kid[c]);
                assert_true(nc_seq_distance(ack + 1u, kid[c].expect) < 0x80000000u);
                if (c == 0)
                    assert_true(nc_seq_distance(ack + 1u, kid[0].mc.base) == 0u);
                if (rnd() % 3u)     /* the ACK may be lost */
                    (void)nc_mg_child_ack(&root, c, ack);
            }
            bool done = nc_mg_msg_done(&root, mfirst, built, npk);
            if (done) {
                /* every child (and child 0's subtree) holds the whole message */
                for (uint32_t k = 0; k < nch; k++)
                    assert_true(nc_seq_distance(mfirst, kid[k].expect) >= npk);
                assert_true(nc_seq_distance(mfirst, kid[0].up + 1u) >= npk);
                msgs++;
                mfirst += npk;
                npk = 1u + rnd() % 6u;
                built = 0;
            }
        }
        assert_true(msgs > 0);
    }
}

static void test_barrec(void **st)
{
    (void)st;
    static nc_barrec_t r;
    uint32_t node, port;
    nc_bar_init(&r);
    /* closed: held, not unexpected */
    assert_int_equal(nc_bar_receive(&r, 5u, 3u), NC_BAR_HELD);
    assert_int_equal(nc_bar_receive(&r, 2u, 7u), NC_BAR_HELD);
    assert_int_equal(nc_bar_receive(&r, 2u, 0u), NC_BAR_HELD);
    assert_false(nc_bar_test_and_clear(&r, 5u, 3u));
    /* open: held ones are to be rejected, lowest (node, port) first */
    assert_true(nc_bar_open(&r));
    assert_true(nc_bar_next_reject(&r, &node, &port));
    assert_int_equal(node, 2u); assert_int_equal(port, 0u);
    assert_true(nc_bar_next_reject(&r, &node, &port));
    assert_int_equal(node, 2u); assert_int_equal(port, 7u);
    assert_true(nc_bar_next_reject(&r, &node, &port));
    assert_int_equal(node, 5u); assert_int_equal(port, 3u);
    assert_false(nc_bar_next_reject(&r, &node, &port));
    assert_false(nc_bar_open(&r));
    /* open: recorded; a second copy is a duplicate; test-and-clear once */
    assert_int_equal(nc_bar_receive(&r, 1023u, 7u), NC_BAR_RECORDED);
    assert_int_equal(nc_bar_receive(&r, 1023u, 7u), NC_BAR_DUP);
    assert_int_equal(nc_bar_receive(&r, 1023u, 6u), NC_BAR_RECORDED);
    assert_true(nc_bar_test_and_clear(&r, 1023u, 7u));
    assert_false(nc_bar_test_and_clear(&r, 1023u, 7u));
    assert_true(nc_bar_test_and_clear(&r, 1023u, 6u));
    /* close drops what was recorded for the old process */
    assert_int_equal(nc_bar_receive(&r, 9u, 1u), NC_BAR_RECORDED);
    nc_bar_close(&r);
    assert_false(nc_bar_test_and_clear(&r, 9u, 1u));
}

/* Every (node, port) bit against a model, over every port and many nodes. */
static void test_barrec_exhaustive(void **st)
{
    (void)st;
    static nc_barrec_t r;
    static uint8_t model[NC_MAX_NODES][NC_MAX_PORTS];
    memset(model, 0, sizeof model);
    nc_bar_init(&r);
    nc_bar_open(&r);
    for (int step = 0; step < 200000; step++) {
        uint32_t node = rnd() % NC_MAX_NODES, port = rnd() % NC_MAX_PORTS;
        if (rnd() % 2u) {
            nc_bar_verdict_t v = nc_bar_receive(&r, node, port);
            assert_int_equal(v, model[node][port] ? NC_BAR_DUP : NC_BAR_RECORDED);
            model[node][port] = 1;
        } else {
            assert_int_equal(nc_bar_test_and_clear(&r, node, port), model[node][port]);
            model[node][port] = 0;
        }
        /* the byte is exactly the model's bits: no other bit disturbed */
        uint32_t byte = 0;
        for (uint32_t q = 0; q < NC_MAX_PORTS; q++)
            byte |= (uint32_t)model[node][q] << q;
        assert_int_equal(r.unexpected[node], byte);
    }
}

static void test_tokq(void **st)
{
    (void)st;
    static nc_tokq_t q;
    uint16_t v;
    uint32_t head = 0, tail = 0;     /* model: values tail .. head-1 */
    nc_tokq_init(&q);
    assert_false(nc_tokq_pop(&q, &v));
    assert_false(nc_tokq_peek(&q, &v));
    for (int step = 0; step < 100000; step++) {
        if (rnd() % 3u) {
            bool ok = nc_tokq_push(&q, (uint16_t)head);
            assert_int_equal(ok, head - tail < NC_TOKQ_CAP);
            if (ok) head++;
        } else {
            bool ok = nc_tokq_pop(&q, &v);
            assert_int_equal(ok, head != tail);
            if (ok) { assert_int_equal(v, (uint16_t)tail); tail++; }
        }
        assert_int_equal(q.count, head - tail);
        if (head != tail) {
            assert_true(nc_tokq_peek(&q, &v));
            assert_int_equal(v, (uint16_t)tail);
        }
    }
}

static void test_freelist(void **st)
{
    (void)st;
    static nc_freelist_t f;
    static uint8_t used[NC_FREELIST_CAP];
    uint16_t idx;
    for (uint32_t size = 0; size <= NC_FREELIST_CAP; size += (size < 8 ? 1 : 61)) {
        memset(used, 0, sizeof used);
        nc_fl_init(&f, size);
        /* handed out in increasing order, each exactly once */
        for (uint32_t i = 0; i < size; i++) {
            assert_true(nc_fl_alloc(&f, &idx));
            assert_int_equal(idx, i);
            used[idx] = 1;
        }
        assert_false(nc_fl_alloc(&f, &idx));
        assert_false(nc_fl_free(&f, (uint16_t)size));     /* out of range */
        for (int step = 0; step < 20000 && size > 0; step++) {
            if (rnd() % 2u) {
                idx = (uint16_t)(rnd() % size);
                assert_int_equal(nc_fl_free(&f, idx), used[idx]);  /* double free refused */
                used[idx] = 0;
            } else {
                uint32_t nfree = 0;
                for (uint32_t i = 0; i < size; i++) nfree += !used[i];
                bool ok = nc_fl_alloc(&f, &idx);
                assert_int_equal(ok, nfree > 0);
                if (ok) { assert_false(used[idx]); used[idx] = 1; }
            }
        }
    }
}

/* Application-bypass reduction's queues: the cases one by one. */
static void test_abred(void **st)
{
    (void)st;
    nc_abq_t q;
    const uint32_t ch[3] = { 4, 6, 7 };
    int32_t d = -1;
    uint32_t c = 99;

    nc_ab_init(&q);
    assert_int_equal(nc_ab_outstanding(&q), 0);
    /* early: no descriptor of instance 1 yet */
    assert_int_equal(nc_ab_arrive(&q, 1, 6, &d, &c), NC_AB_UNMATCHED);
    assert_true(nc_ab_hold(&q, 1, 6, 40));
    assert_false(nc_ab_hold(&q, 1, 6, 41));          /* once per sender and instance */
    int i1 = nc_ab_begin(&q, 1, 0, ch, 3);
    assert_true(i1 >= 0);
    assert_int_equal(nc_ab_begin(&q, 1, 0, ch, 3), -1);  /* one descriptor per instance */
    assert_int_equal(nc_ab_outstanding(&q), 1);
    assert_int_equal(nc_ab_take_early(&q, 1, 4), -1);
    assert_int_equal(nc_ab_take_early(&q, 1, 6), 40);
    assert_int_equal(nc_ab_take_early(&q, 1, 6), -1);
    assert_int_equal(nc_ab_arrive(&q, 1, 6, &d, &c), NC_AB_COUNTED);
    assert_int_equal(d, i1);
    assert_int_equal(c, 1);
    assert_int_equal(nc_ab_arrive(&q, 1, 6, &d, &c), NC_AB_REFUSED);  /* counted once */
    assert_int_equal(nc_ab_arrive(&q, 1, 5, &d, &c), NC_AB_REFUSED);  /* not a child */
    /* a second reduction skewed behind: 7's contributions go each to its own */
    int i2 = nc_ab_begin(&q, 2, 0, ch, 3);
    assert_true(i2 >= 0 && i2 != i1);
    assert_int_equal(nc_ab_arrive(&q, 2, 7, &d, &c), NC_AB_COUNTED);
    assert_int_equal(d, i2);
    assert_int_equal(nc_ab_arrive(&q, 1, 7, &d, &c), NC_AB_COUNTED);
    assert_int_equal(d, i1);
    assert_int_equal(nc_ab_arrive(&q, 1, 4, &d, &c), NC_AB_COMPLETE);
    assert_int_equal(d, i1);
    assert_int_equal(c, 0);
    nc_ab_end(&q, (uint32_t)i1);
    assert_int_equal(nc_ab_outstanding(&q), 1);
    /* a leaf's reduction: no child, nothing owed */
    int i3 = nc_ab_begin(&q, 3, 0, ch, 0);
    assert_true(i3 >= 0);
    assert_int_equal(nc_ab_arrive(&q, 3, 4, &d, &c), NC_AB_REFUSED);
    nc_ab_end(&q, (uint32_t)i3);
    /* full queues */
    for (uint32_t k = 0; k < NC_AB_DESCS - 1; k++)
        assert_true(nc_ab_begin(&q, 100 + k, 0, ch, 3) >= 0);
    assert_int_equal(nc_ab_begin(&q, 999, 0, ch, 3), -1);
    assert_int_equal(nc_ab_begin(&q, 998, 0, ch, NC_AB_CHILDREN + 1), -1);
    for (uint32_t k = 0; k < NC_AB_EARLY; k++)
        assert_true(nc_ab_hold(&q, 500, k, k));
    assert_false(nc_ab_hold(&q, 501, 0, 0));
}

/* Random runs: R reductions of a process with random children, each
 * child's contributions arriving in a random interleaving with the
 * process's own MPI_Reduce calls (children run ahead: early; the process
 * runs ahead: late); every contribution must be counted exactly once, in
 * its own reduction, and every reduction complete once. */
static void test_abred_random(void **st)
{
    (void)st;
    enum { R = 40, NCH = 5 };
    for (int run = 0; run < 200; run++) {
        nc_abq_t q;
        uint32_t child[NCH], nch = 1 + rnd() % NCH, sent[NCH] = { 0 }, began = 0, done = 0;
        uint32_t counted[R][NCH], slotof[R][NCH];
        int32_t descof[R];

        memset(counted, 0, sizeof counted);
        for (uint32_t k = 0; k < nch; k++)
            child[k] = 10 + 3 * k + rnd() % 3;
        nc_ab_init(&q);
        while (done < R) {
            uint32_t k = rnd() % (nch + 1);
            if (k == nch) {
                /* the process enters MPI_Reduce of the next instance, if the
                 * queue has room (else it waits for contributions) */
                if (began == R || nc_ab_outstanding(&q) == NC_AB_DESCS)
                    continue;
                int d = nc_ab_begin(&q, began, 1, child, nch);
                assert_true(d >= 0);
                descof[began] = d;
                for (uint32_t j = 0; j < nch; j++) {
                    int64_t slot = nc_ab_take_early(&q, began, child[j]);
                    if (slot >= 0) {
                        int32_t dd;
                        uint32_t cc;
                        assert_int_equal(slot, slotof[began][j]);
                        nc_ab_verdict_t v = nc_ab_arrive(&q, began, child[j], &dd, &cc);
                        assert_true(v == NC_AB_COUNTED || v == NC_AB_COMPLETE);
                        assert_int_equal(dd, d);
                        assert_int_equal(cc, j);
                        counted[began][j]++;
                        if (v == NC_AB_COMPLETE) {
                            nc_ab_end(&q, (uint32_t)d);
                            done++;
                        }
                    }
                }
                if (nch == 0) {
                    nc_ab_end(&q, (uint32_t)d);
                    done++;
                }
                began++;
                continue;
            }
            /* child k's next contribution arrives, unless it is more than
             * NC_AB_EARLY / NCH instances ahead (its own flow control) */
            if (sent[k] == R || sent[k] >= began + NC_AB_EARLY / NCH)
                continue;
            uint32_t inst = sent[k]++;
            int32_t dd;
            uint32_t cc;
            nc_ab_verdict_t v = nc_ab_arrive(&q, inst, child[k], &dd, &cc);
            if (v == NC_AB_UNMATCHED) {
                assert_true(inst >= began);                 /* only an early one */
                slotof[inst][k] = rnd();
                assert_true(nc_ab_hold(&q, inst, child[k], slotof[inst][k]));
                continue;
            }
            assert_true(inst < began);                      /* late: its reduction is out */
            assert_true(v == NC_AB_COUNTED || v == NC_AB_COMPLETE);
            assert_int_equal(dd, descof[inst]);
            assert_int_equal(cc, k);
            counted[inst][k]++;
            if (v == NC_AB_COMPLETE) {
                nc_ab_end(&q, (uint32_t)dd);
                done++;
            }
        }
        for (uint32_t r = 0; r < R; r++)
            for (uint32_t k = 0; k < nch; k++)
                assert_int_equal(counted[r][k], 1);
        assert_int_equal(nc_ab_outstanding(&q), 0);
    }
}

int main(void)
{
    const char *s = getenv("NC_TEST_SEED");
    uint64_t seed = s ? strtoull(s, NULL, 0) : 1u;
    rng_state = seed ? seed : 1u;
    printf("# test_proto seed %llu (set NC_TEST_SEED to change)\n", (unsigned long long)seed);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seq_lt_edges),
        cmocka_unit_test(test_seq_lt_random),
        cmocka_unit_test(test_rx_window),
        cmocka_unit_test(test_tx_window),
        cmocka_unit_test(test_gbn_lossy),
        cmocka_unit_test(test_mcack),
        cmocka_unit_test(test_mcack_random),
        cmocka_unit_test(test_mcgroup_receive),
        cmocka_unit_test(test_mcgroup_inner),
        cmocka_unit_test(test_mcgroup_random),
        cmocka_unit_test(test_barrec),
        cmocka_unit_test(test_barrec_exhaustive),
        cmocka_unit_test(test_tokq),
        cmocka_unit_test(test_freelist),
        cmocka_unit_test(test_abred),
        cmocka_unit_test(test_abred_random),
    };
    return cmocka_run_group_tests_name("ref_proto", tests, NULL, NULL);
}
