/*
 * Unit tests for ref/tree: N(s,k) and the postal counts against direct
 * recursions, every k-binomial tree for n <= NC_MAX_NODES and every
 * k <= ceil(log2 n) (which covers the n <= 64), the worked examples
 * of seed 001 replayed on an FPFS step simulator, Theorem 2 against that
 * simulator, the optimal k, postal and GB trees, the ID-ordered rule, the
 * PE schedule (symmetry, completeness) for every n and node, the
 * barrier models of seed 002, and the ordering check and the contention
 * count of nc_order.h / nc_contention.h against direct models
 * (tests/irregular/suite checks them on real routes).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nc_kbin.h"
#include "nc_tree.h"
#include "nc_sched.h"
#include "nc_order.h"
#include "nc_contention.h"

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 2685821657736338717ull) >> 32);
}

static uint64_t ref_N(uint32_t s, uint32_t k)   /* Lemma 1, unsaturated */
{
    if (s <= k)
        return 1ull << s;
    uint64_t sum = 1;
    for (uint32_t i = 1; i <= k; i++)
        sum += ref_N(s - i, k);
    return sum;
}

static uint32_t clog2(uint32_t n)
{
    uint32_t r = 0;
    while ((1u << r) < n) r++;
    return r;
}

static void test_N_table(void **st)
{
    (void)st;
    uint32_t tab[NC_MAX_STEPS + 1];
    for (uint32_t k = 1; k <= 12; k++) {
        nc_kbin_table(k, NC_MAX_STEPS, tab);
        for (uint32_t s = 0; s <= 24; s++) {
            uint64_t want = ref_N(s, k);
            assert_int_equal(tab[s], want < NC_COVER_SAT ? want : NC_COVER_SAT);
            assert_int_equal(nc_kbin_N(s, k), tab[s]);
        }
        for (uint32_t s = 1; s <= NC_MAX_STEPS; s++)
            assert_true(tab[s] >= tab[s - 1]);          /* monotone */
    }
    /* seed 001 figure 9: 3- and 4-binomial trees on 16 nodes */
    assert_int_equal(nc_kbin_N(4, 4), 16u);
    assert_int_equal(nc_kbin_N(4, 3), 15u);
    assert_int_equal(nc_kbin_N(5, 3), 1 + 15 + 8 + 4u);
    assert_int_equal(nc_kbin_N(10, 1), 11u);            /* linear */
}

static void test_postal_table(void **st)
{
    (void)st;
    uint32_t tab[NC_MAX_STEPS + 1];
    for (uint32_t lam = 1; lam <= 8; lam++) {
        nc_postal_table(lam, NC_MAX_STEPS, tab);
        uint64_t P[64];
        for (uint32_t t = 0; t < 64; t++) {
            P[t] = t < lam ? 1 : P[t - 1] + P[t - lam];
            assert_int_equal(tab[t], P[t] < NC_COVER_SAT ? P[t] : NC_COVER_SAT);
        }
    }
    nc_postal_table(1, 10, tab);
    assert_int_equal(tab[4], 16u);                      /* lambda 1 = binomial */
}

static void test_ceil_log2_steps(void **st)
{
    (void)st;
    for (uint32_t n = 1; n <= NC_MAX_NODES; n++) {
        assert_int_equal(nc_ceil_log2(n), clog2(n));
        for (uint32_t k = 1; k <= 11; k++) {
            uint32_t s = nc_kbin_steps(n, k);
            assert_int_not_equal(s, NC_STEPS_NONE);
            assert_true(ref_N(s, k) >= n);
            assert_true(s == 0 || ref_N(s - 1, k) < n);
        }
    }
}

/* Children of each node in send (rank) order. */
struct kids { uint16_t c[NC_MAX_NODES][32]; uint32_t n[NC_MAX_NODES]; };

static void children(const nc_tree_t *t, uint32_t n, struct kids *K)
{
    memset(K->n, 0, sizeof K->n);
    for (uint32_t i = 1; i < n; i++) {
        uint32_t p = t->parent[i], r = t->rank[i];
        assert_true(r >= 1 && r <= 32);
        K->c[p][r - 1] = (uint16_t)i;
        if (r > K->n[p]) K->n[p] = r;
    }
}

/* Independent validity check: spanning, one parent, degree, ranks 1..deg. */
static void check_tree(const nc_tree_t *t, uint32_t n, uint32_t k)
{
    static uint32_t deg[NC_MAX_NODES];
    static uint8_t seen[NC_MAX_NODES][NC_MAX_NODES + 1];
    memset(deg, 0, sizeof deg);
    memset(seen, 0, sizeof seen);
    assert_int_equal(t->parent[0], NC_NONE);
    for (uint32_t i = 1; i < n; i++) {
        uint32_t p = t->parent[i];
        assert_true(p < i);
        deg[p]++;
        assert_true(t->rank[i] >= 1 && t->rank[i] <= k && t->rank[i] <= NC_MAX_NODES);
        assert_int_equal(seen[p][t->rank[i]], 0);        /* ranks distinct */
        seen[p][t->rank[i]] = 1;
    }
    for (uint32_t p = 0; p < n; p++) {
        assert_true(deg[p] <= k);
        assert_int_equal(t->deg[p], deg[p]);
        for (uint32_t r = 1; r <= deg[p]; r++)
            assert_int_equal(seen[p][r], 1);              /* ranks 1..deg */
    }
    /* every node reaches the root */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = i, hops = 0;
        while (x != 0) { x = t->parent[x]; hops++; assert_true(hops <= n); }
    }
}

/* FPFS step simulator (seed 001 section 3.2): a node forwards packet j to
 * its children in rank order, one send per step, after it holds packet j
 * and after its previous send.  Returns the step at which the last packet
 * reaches the last node. */
static uint32_t fpfs(const nc_tree_t *t, uint32_t n, uint32_t m)
{
    static struct kids K;
    static uint32_t have[NC_MAX_NODES][20];
    children(t, n, &K);
    uint32_t done = 0;
    for (uint32_t j = 0; j < m; j++) have[0][j] = 0;
    /* positions increase away from the root, so parents come first */
    for (uint32_t p = 0; p < n; p++) {
        uint32_t last = 0;
        for (uint32_t j = 0; j < m; j++)
            for (uint32_t r = 0; r < K.n[p]; r++) {
                uint32_t x = last + 1 > have[p][j] + 1 ? last + 1 : have[p][j] + 1;
                have[K.c[p][r]][j] = x;
                last = x;
                if (x > done) done = x;
            }
    }
    return done;
}

static void test_worked_examples(void **st)
{
    (void)st;
    nc_tree_t t;
    uint32_t steps;
    /* 3 packets to 3 destinations: binomial 6 steps, linear 5 (Fig. 5) */
    assert_int_equal(nc_binomial_tree(&t, 4, &steps), NC_TREE_OK);
    assert_int_equal(steps, 2u);
    assert_int_equal(fpfs(&t, 4, 3), 6u);
    assert_int_equal(nc_pipelined_steps(steps, 3, t.deg[0]), 6u);
    assert_int_equal(nc_kbin_tree(&t, 4, 1, &steps), NC_TREE_OK);
    assert_int_equal(fpfs(&t, 4, 3), 5u);
    assert_int_equal(nc_pipelined_steps(steps, 3, t.deg[0]), 5u);
    /* 3 packets to 7 destinations over a binomial tree: 9 (Fig. 8) */
    assert_int_equal(nc_binomial_tree(&t, 8, &steps), NC_TREE_OK);
    assert_int_equal(fpfs(&t, 8, 3), 9u);
    assert_int_equal(nc_pipelined_steps(steps, 3, t.deg[0]), 3u + (3u - 1u) * 3u);
    /* optimal k = ceil(log2 n) for m = 1 */
    for (uint32_t n = 2; n <= NC_MAX_NODES; n++)
        assert_int_equal(nc_kbin_optimal_k(n, 1), clog2(n));
    /* seed 001 section 5.1: 16 nodes go linear (k = 1) for large m */
    assert_int_equal(nc_kbin_optimal_k(16, 16), 1u);
}

/* Every k-binomial tree for n <= NC_MAX_NODES and k <= ceil(log2 n):
 * valid, depth L1, and Theorem 2 against the simulator for n <= 64. */
static void test_all_kbin_trees(void **st)
{
    (void)st;
    static nc_tree_t t;
    uint32_t steps, trees = 0;
    for (uint32_t n = 1; n <= NC_MAX_NODES; n++) {
        uint32_t kmax = clog2(n) ? clog2(n) : 1;
        for (uint32_t k = 1; k <= kmax; k++) {
            assert_int_equal(nc_kbin_tree(&t, n, k, &steps), NC_TREE_OK);
            check_tree(&t, n, k);
            trees++;
            uint32_t depth = 0;
            for (uint32_t i = 0; i < n; i++) {
                if (t.time[i] > depth) depth = t.time[i];
                assert_true(t.end[i] > i && t.end[i] <= n);  /* contiguous subtrees */
            }
            assert_int_equal(depth, steps);                   /* L1 reached exactly */
            assert_int_equal(fpfs(&t, n, 1), steps);
            if (n <= 64 && n > 1) {
                /* Theorem 2's delta_r is the root's degree, which in a full
                 * k-binomial tree is the largest; when n < N(L1,k) the
                 * range construction can leave an inner node with more
                 * children than the root, and that node sets the pace. */
                uint32_t dmax = 0;
                for (uint32_t i = 0; i < n; i++) if (t.deg[i] > dmax) dmax = t.deg[i];
                assert_true(dmax <= k);
                for (uint32_t m = 1; m <= 8; m++)
                    assert_int_equal(fpfs(&t, n, m), nc_pipelined_steps(steps, m, dmax));
                if (n == (uint32_t)ref_N(steps, k))
                    assert_int_equal(t.deg[0], dmax);
            }
        }
    }
    printf("# %u k-binomial trees checked\n", trees);
}

static void test_optimal_k(void **st)
{
    (void)st;
    for (uint32_t n = 2; n <= 256; n++)
        for (uint32_t m = 1; m <= 16; m++) {
            uint32_t best = nc_kbin_optimal_k(n, m), bc = 0xFFFFFFFFu, bk = 0;
            for (uint32_t k = 1; k <= clog2(n); k++) {
                uint32_t c = nc_kbin_steps(n, k) + (m - 1) * k;
                if (c <= bc) { bc = c; bk = k; }
            }
            assert_int_equal(best, bk);
        }
}

static void test_postal_tree(void **st)
{
    (void)st;
    static nc_tree_t t;
    uint32_t steps;
    assert_int_equal(nc_postal_ratio(0, 5), 1u);
    assert_int_equal(nc_postal_ratio(10, 5), 2u);
    assert_int_equal(nc_postal_ratio(11, 5), 3u);
    assert_int_equal(nc_postal_ratio(1000000, 1), NC_MAX_LAMBDA);
    for (uint32_t lam = 1; lam <= 12; lam++)
        for (uint32_t n = 1; n <= 300; n++) {
            assert_int_equal(nc_postal_tree(&t, n, lam, &steps), NC_TREE_OK);
            check_tree(&t, n, NC_MAX_NODES);
            uint32_t last = 0;
            for (uint32_t i = 0; i < n; i++) if (t.time[i] > last) last = t.time[i];
            assert_int_equal(last, steps);
            /* the node sends while its first child is still in flight:
             * the root has min(lambda, ...) children when n is large */
            if (n >= 2 * lam + 2)
                assert_true(t.deg[0] >= lam);
        }
    /* lambda = 1 is the binomial tree's depth */
    for (uint32_t n = 1; n <= NC_MAX_NODES; n++) {
        assert_int_equal(nc_postal_tree(&t, n, 1, &steps), NC_TREE_OK);
        assert_int_equal(steps, clog2(n));
    }
}

static void test_gb_tree(void **st)
{
    (void)st;
    static nc_tree_t t;
    for (uint32_t n = 1; n <= 200; n++)
        for (uint32_t d = 1; d < n || d == 1; d++) {
            assert_int_equal(nc_gb_tree(&t, n, d), NC_TREE_OK);
            check_tree(&t, n, d);
            for (uint32_t i = 1; i < n; i++)
                assert_int_equal(t.parent[i], (i - 1) / d);
        }
    assert_int_equal(nc_gb_tree(&t, 16, 15), NC_TREE_OK);   /* star */
    assert_int_equal(t.deg[0], 15u);
}

static void test_id_ordered(void **st)
{
    (void)st;
    static nc_tree_t t;
    uint16_t ids[64], order[64];
    uint32_t steps;
    for (int run = 0; run < 2000; run++) {
        uint32_t n = 1 + rnd() % 64, k;
        uint16_t id = (uint16_t)(rnd() % 8);
        for (uint32_t i = 0; i < n; i++) { id = (uint16_t)(id + 1 + rnd() % 9); ids[i] = id; }
        uint16_t root = ids[rnd() % n];
        nc_id_order(ids, n, root, order);
        assert_int_equal(order[0], root);
        for (uint32_t i = 2; i < n; i++) assert_true(order[i - 1] < order[i]);
        k = 1 + rnd() % (clog2(n) ? clog2(n) : 1);
        assert_int_equal(nc_kbin_tree(&t, n, k, &steps), NC_TREE_OK);
        for (uint32_t i = 1; i < n; i++)
            assert_true(t.parent[i] == 0 || order[t.parent[i]] < order[i]);
        /* every member appears once */
        for (uint32_t i = 0; i < n; i++) {
            int found = 0;
            for (uint32_t j = 0; j < n; j++) found += order[j] == ids[i];
            assert_int_equal(found, 1);
        }
    }
}

/* PE: partners are mutual and matching, and a barrier over the schedule
 * lets nobody leave before everyone has arrived (knowledge propagation). */
static void test_pe(void **st)
{
    (void)st;
    static nc_pe_step_t s[NC_MAX_NODES][NC_PE_MAX_STEPS];
    static uint32_t cnt[NC_MAX_NODES];
    static uint8_t know[NC_MAX_NODES][NC_MAX_NODES];
    for (uint32_t n = 1; n <= NC_MAX_NODES; n++) {
        uint32_t P = 1, d = 0;
        while (P * 2 <= n) { P *= 2; d++; }
        assert_int_equal(nc_pe_rounds(n), P == n ? d : d + 2);
        for (uint32_t me = 0; me < n; me++) {
            cnt[me] = nc_pe_schedule(n, me, s[me]);
            assert_int_not_equal(cnt[me], NC_PE_BAD);
            if (P == n) {
                assert_int_equal(cnt[me], d);
                for (uint32_t r = 0; r < d; r++) {
                    assert_int_equal(s[me][r].partner, me ^ (1u << r));
                    assert_int_equal(s[me][r].op, NC_PE_EXCHANGE);
                }
            }
        }
        if (n > 64 && n != NC_MAX_NODES && n % 97 != 0)
            continue;       /* the knowledge simulation is O(n^2 log n) */
        /* Simulate: each node runs its steps in order; a send carries the
         * sender's knowledge.  Rounds of "everyone does its next step". */
        memset(know, 0, sizeof know);
        uint32_t pc[NC_MAX_NODES] = {0};
        for (uint32_t i = 0; i < n; i++) know[i][i] = 1;
        int progress = 1;
        while (progress) {
            progress = 0;
            for (uint32_t i = 0; i < n; i++) {
                if (pc[i] >= cnt[i]) continue;
                nc_pe_step_t a = s[i][pc[i]];
                uint32_t j = a.partner;
                if (j >= n || pc[j] >= cnt[j]) continue;
                nc_pe_step_t b = s[j][pc[j]];
                int ok = b.partner == i &&
                    ((a.op == NC_PE_EXCHANGE && b.op == NC_PE_EXCHANGE) ||
                     (a.op == NC_PE_SEND && b.op == NC_PE_RECV));
                if (!ok) continue;
                if (a.op == NC_PE_EXCHANGE) {
                    for (uint32_t x = 0; x < n; x++)
                        know[i][x] = know[j][x] = know[i][x] | know[j][x];
                } else {
                    for (uint32_t x = 0; x < n; x++) know[j][x] |= know[i][x];
                }
                pc[i]++; pc[j]++;
                progress = 1;
            }
        }
        for (uint32_t i = 0; i < n; i++) {
            assert_int_equal(pc[i], cnt[i]);              /* nobody stuck */
            for (uint32_t x = 0; x < n; x++)
                assert_int_equal(know[i][x], 1);          /* heard from all */
        }
    }
}

static void test_models(void **st)
{
    (void)st;
    nc_bar_costs_t c = { .send = 7000, .sdma = 3000, .network = 1000,
                         .recv = 2000, .rdma = 4000, .hrecv = 6000 };
    /* 8 nodes: 3 rounds (seed 002 figure 2) */
    assert_int_equal(nc_model_host_barrier(&c, 3), 3u * 23000u);
    assert_int_equal(nc_model_nic_barrier(&c, 3), 7000u + 3u * 3000u + 4000u + 6000u);
    assert_int_equal(nc_model_improvement_permille(&c, 3), 69000u * 1000u / 26000u);
    /* equation 3's prediction: the factor grows with the number of nodes */
    uint64_t prev = 0;
    for (uint32_t r = 1; r <= 10; r++) {
        uint64_t f = nc_model_improvement_permille(&c, r);
        assert_true(f >= prev);
        prev = f;
    }
    nc_bar_costs_t z = {0, 0, 0, 0, 0, 0};
    assert_int_equal(nc_model_improvement_permille(&z, 3), 0u);
    assert_int_equal(nc_pipelined_steps(3, 3, 3), 9u);
}

/* nc_order_check against the definition, on seeded permutations with the
 * source first and on the same with one entry replaced (a repeat, a value
 * out of range) or the source moved. */
static void test_order_check(void **state)
{
    static uint16_t o[NC_MAX_NODES];
    (void)state;
    for (int round = 0; round < 400; round++) {
        uint32_t n = 1 + rnd() % 64, src = rnd() % n;
        for (uint32_t i = 0; i < n; i++)
            o[i] = (uint16_t)i;
        for (uint32_t i = n; i > 1; i--) {
            uint32_t j = rnd() % i;
            uint16_t x = o[i - 1];
            o[i - 1] = o[j];
            o[j] = x;
        }
        for (uint32_t i = 0; i < n; i++)
            if (o[i] == src) {
                o[i] = o[0];
                o[0] = (uint16_t)src;
            }
        assert_true(nc_order_check(o, n, src));
        if (n > 1) {
            uint32_t a = 1 + rnd() % (n - 1), b = rnd() % n;
            uint16_t keep = o[a];
            o[a] = o[b == a ? 0 : b];               /* a repeat */
            assert_false(nc_order_check(o, n, src));
            o[a] = (uint16_t)n;                     /* out of range */
            assert_false(nc_order_check(o, n, src));
            o[a] = keep;
            assert_false(nc_order_check(o, n, o[1]));  /* not the source first */
        }
    }
}

/* The contention count on a chain of four members whose routes are given
 * by hand: 0 -> 1 and 2 -> 3 share channel 7; 0 -> 2 shares nothing. */
static void test_contention(void **state)
{
    static uint32_t ch[4 * NC_MAX_NODES * NC_ROUTE_MAX];
    static uint8_t len[4 * NC_MAX_NODES];
    static nc_tree_t t;
    uint16_t order[4] = { 0, 1, 2, 3 };
    uint32_t per[8], steps, c = 100;
    nc_routes_t r = { 4, ch, len };
    (void)state;
    for (uint32_t a = 0; a < 4; a++)
        for (uint32_t b = 0; b < 4; b++) {
            uint32_t p = nc_route_index(4, a, b);
            len[p] = 2;
            ch[p * NC_ROUTE_MAX] = 1000 + a;         /* a's own cable */
            ch[p * NC_ROUTE_MAX + 1] = c++;          /* a channel of its own */
        }
    ch[nc_route_index(4, 0, 1) * NC_ROUTE_MAX + 1] = 7;
    ch[nc_route_index(4, 2, 3) * NC_ROUTE_MAX + 1] = 7;
    /* binomial on 4: 0 -> 2 (step 1), 0 -> 1 and 2 -> 3 (step 2) */
    assert_int_equal(nc_binomial_tree(&t, 4, &steps), NC_TREE_OK);
    assert_int_equal(steps, 2);
    assert_int_equal(nc_contention(&t, order, 4, &r, 1, 1, per, 3), 1u);
    assert_int_equal(per[1], 0u);
    assert_int_equal(per[2], 1u);
    /* the same edges never meet on the linear tree with one packet ... */
    assert_int_equal(nc_kbin_tree(&t, 4, 1, &steps), NC_TREE_OK);
    assert_int_equal(nc_contention(&t, order, 4, &r, 1, 1, per, 4), 0u);
    /* ... but 0 -> 1 (step 1) and 2 -> 3 (step 3) do with 3 packets */
    assert_int_equal(nc_contention(&t, order, 4, &r, 1, 3, per, 4), 1u);
    assert_int_equal(nc_contention(&t, order, 4, &r, 1, 2, per, 4), 0u);
    assert_true(nc_concurrent(5, 1, 2, 3) && !nc_concurrent(5, 1, 2, 2) &&
                !nc_concurrent(4, 1, 2, 9) && nc_concurrent(3, 3, 7, 1));
}

int main(void)
{
    const char *s = getenv("NC_TEST_SEED");
    uint64_t seed = s ? strtoull(s, NULL, 0) : 1u;
    rng_state = seed ? seed : 1u;
    printf("# test_tree seed %llu (set NC_TEST_SEED to change)\n", (unsigned long long)seed);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_N_table),
        cmocka_unit_test(test_postal_table),
        cmocka_unit_test(test_ceil_log2_steps),
        cmocka_unit_test(test_worked_examples),
        cmocka_unit_test(test_all_kbin_trees),
        cmocka_unit_test(test_optimal_k),
        cmocka_unit_test(test_postal_tree),
        cmocka_unit_test(test_gb_tree),
        cmocka_unit_test(test_id_ordered),
        cmocka_unit_test(test_pe),
        cmocka_unit_test(test_models),
        cmocka_unit_test(test_order_check),
        cmocka_unit_test(test_contention),
    };
    return cmocka_run_group_tests_name("ref_tree", tests, NULL, NULL);
}
