/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tests of lanai-emu/fabric/topology: generators, route correctness (every
 * route reaches its destination and is up*-then-down*), deadlock freedom
 * (the channel dependency graph of all routes is acyclic), the text format
 * (round trip and every error with file:line), and CRC-8.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "topology.h"

/* Follow a route from src's switch; check it ends on dst's port, never
 * goes up after going down and never leaves a switch port twice. Returns
 * its length in switches. With dep, also records the route's channel
 * dependencies there (see dependencies_acyclic), so that the all-pairs
 * checks of the large trees compute each of their millions of routes once. */
static int check_route_dep(const struct topo *t, unsigned src, unsigned dst, uint32_t *dep)
{
    uint8_t r[TOPO_MAX_HOPS];
    unsigned used[TOPO_MAX_HOPS];
    int h = topo_route(t, src, dst, r);
    unsigned s = t->node[src].sw;
    bool down = false;

    if (h < 1)
        fail_msg("no route %u -> %u", src, dst);
    for (int i = 0; i < h - 1; i++) {
        const struct topo_peer *q = &t->sw[s].port[r[i]];
        bool up;
        used[i] = s * TOPO_MAX_PORTS + r[i];
        for (int j = 0; j < i; j++)
            if (used[j] == used[i])
                fail_msg("route %u -> %u leaves switch %u port %u twice", src, dst, s, r[i]);
        if (q->kind != TOPO_SWITCH)
            fail_msg("route %u -> %u: hop %d leads to no switch", src, dst, i);
        up = t->routes.level[q->id] < t->routes.level[s] ||
             (t->routes.level[q->id] == t->routes.level[s] && q->id < s);
        if (up && down)
            fail_msg("route %u -> %u goes up after down at hop %d", src, dst, i);
        down |= !up;
        if (dep && i)
            dep[used[i - 1]] |= 1u << r[i];
        s = q->id;
    }
    assert_int_equal(s, t->node[dst].sw);
    assert_int_equal(r[h - 1], t->node[dst].port);
    assert_int_equal(t->sw[s].port[r[h - 1]].kind, TOPO_NODE);
    assert_int_equal(t->sw[s].port[r[h - 1]].id, dst);
    return h;
}

static void check_all_routes(const struct topo *t, uint32_t *dep)
{
    for (unsigned a = 0; a < t->nnodes; a++)
        for (unsigned b = 0; b < t->nnodes; b++)
            check_route_dep(t, a, b, dep);
}

static uint32_t *new_deps(const struct topo *t)
{
    uint32_t *dep = calloc((size_t)t->nswitches * TOPO_MAX_PORTS, sizeof *dep);
    assert_non_null(dep);
    return dep;
}

/* Channels are directed switch-to-switch links, numbered sw * 32 + port.
 * Each route adds a dependency from each channel to the next; a cycle would
 * allow a routing deadlock. A channel's successors all leave the switch it
 * leads to, so one 32-bit mask of that switch's ports per channel holds
 * them (fat trees of 4096 NICs have 57344 channels). */
static bool deps_acyclic(const struct topo *t, uint32_t *dep);

static bool dependencies_acyclic(const struct topo *t)
{
    uint32_t *dep = new_deps(t);

    for (unsigned a = 0; a < t->nnodes; a++)
        for (unsigned b = 0; b < t->nnodes; b++) {
            uint8_t r[TOPO_MAX_HOPS];
            int h = topo_route(t, a, b, r);
            unsigned s = t->node[a].sw;
            int prev = -1;
            for (int i = 0; i < h - 1; i++) {
                unsigned ch = s * TOPO_MAX_PORTS + r[i];
                if (prev >= 0)
                    dep[prev] |= 1u << r[i];
                prev = (int)ch;
                s = t->sw[s].port[r[i]].id;
            }
        }
    return deps_acyclic(t, dep);
}

/* The DFS over dependencies already recorded in dep (freed here). */
static bool deps_acyclic(const struct topo *t, uint32_t *dep)
{
    unsigned nch = t->nswitches * TOPO_MAX_PORTS;
    uint8_t *state = calloc(nch, 1), *edge = calloc(nch, 1);
    unsigned *stack = malloc(sizeof *stack * nch);
    bool ok = true;

    /* iterative DFS colouring: 1 = on stack, 2 = done; edge[c] = the next
     * successor port of c to look at */
    for (unsigned root = 0; root < nch && ok; root++) {
        unsigned sp = 0;
        if (state[root])
            continue;
        stack[sp++] = root;
        state[root] = 1;
        while (sp && ok) {
            unsigned c = stack[sp - 1], to = t->sw[c / TOPO_MAX_PORTS].port[c % TOPO_MAX_PORTS].id;
            unsigned next = nch;
            while (edge[c] < TOPO_MAX_PORTS && next == nch) {
                unsigned p = edge[c]++, d = to * TOPO_MAX_PORTS + p;
                if (!(dep[c] >> p & 1))
                    continue;
                if (state[d] == 1)
                    ok = false;
                else if (state[d] == 0)
                    next = d;
                if (!ok)
                    break;
            }
            if (!ok)
                break;
            if (next < nch) {
                state[next] = 1;
                stack[sp++] = next;
            } else {
                state[c] = 2;
                sp--;
            }
        }
    }
    free(dep);
    free(state);
    free(edge);
    free(stack);
    return ok;
}

static void test_crossbar(void **st)
{
    char err[200];
    (void)st;
    for (unsigned n = 1; n <= 32; n++) {
        struct topo *t = topo_new();
        assert_int_equal(topo_gen_crossbar(t, n, err, sizeof err), 0);
        assert_int_equal(t->nswitches, 1);
        check_all_routes(t, NULL);
        topo_free(t);
    }
    struct topo *t = topo_new();
    assert_int_equal(topo_gen_crossbar(t, 33, err, sizeof err), -1);
    assert_non_null(strstr(err, "33 nodes"));
    topo_free(t);
}

static char *dump(const struct topo *t);

/* Every switch port holds at most one thing, cables are symmetric, and each
 * NIC sits in exactly the port the node table says. */
static void check_ports(const struct topo *t)
{
    unsigned attached = 0;
    for (unsigned s = 0; s < t->nswitches; s++)
        for (unsigned p = 0; p < t->sw[s].nports; p++) {
            const struct topo_peer *q = &t->sw[s].port[p];
            if (q->kind == TOPO_SWITCH) {
                const struct topo_peer *back = &t->sw[q->id].port[q->port];
                if (back->kind != TOPO_SWITCH || back->id != s || back->port != p)
                    fail_msg("cable %s.%u -> %s.%u is not symmetric", t->sw[s].name, p,
                             t->sw[q->id].name, q->port);
            } else if (q->kind == TOPO_NODE) {
                assert_int_equal(t->node[q->id].sw, s);
                assert_int_equal(t->node[q->id].port, p);
                attached++;
            }
        }
    assert_int_equal(attached, t->nnodes);
}

/* The level structure a fat tree of n NICs on P-port switches must have:
 * one switch up to P NICs, else the fewest levels L with 2k * k^(L-1) >= n
 * (k = P / 2). */
static unsigned fattree_levels(unsigned n, unsigned ports)
{
    unsigned k = ports / 2, L = 2;
    uint64_t cap = 2ull * k * k;
    if (n <= ports)
        return 1;
    while (cap < n) {
        cap *= k;
        L++;
    }
    return L;
}

/* Route length a -> b: NIC i is on leaf i / k; two leaves meet at the
 * level where their numbers agree after dropping one base-k digit per
 * level, and at the top at the latest. 1 switch on the same leaf, 3 when
 * they meet one level up, ..., 2L - 1 across the top. */
static int fattree_hops(unsigned a, unsigned b, unsigned ports, unsigned L)
{
    unsigned k = ports / 2, x = a / k, y = b / k, h = 1;
    if (L == 1)
        return 1;
    for (unsigned l = 1; x != y && l < L; l++, x /= k, y /= k)
        h += 2;
    return (int)h;
}

static void check_fattree(unsigned n, unsigned ports, bool all_pairs, unsigned want_switches)
{
    char err[200];
    struct topo *t = topo_new();
    unsigned L = fattree_levels(n, ports), step = all_pairs ? 1 : 37;

    if (topo_gen_fattree(t, n, ports, err, sizeof err))
        fail_msg("fattree %u/%u: %s", n, ports, err);
    assert_int_equal(t->nnodes, n);
    if (want_switches)
        assert_int_equal(t->nswitches, want_switches);
    uint32_t *dep = all_pairs ? new_deps(t) : NULL;
    check_ports(t);
    for (unsigned a = 0; a < n; a += step)
        for (unsigned b = 0; b < n; b++) {
            int h = check_route_dep(t, a, b, dep), want = fattree_hops(a, b, ports, L);
            if (h != want)
                fail_msg("fattree %u/%u: route %u -> %u has %d switches, %d expected", n,
                         ports, a, b, h, want);
        }
    if (all_pairs)
        assert_true(deps_acyclic(t, dep));
    topo_free(t);
}

static void test_fattree(void **st)
{
    static const unsigned cases[][2] = { {1, 8}, {8, 8}, {9, 8}, {16, 8}, {33, 8}, {64, 8},
                                         {100, 16}, {129, 16}, {256, 32}, {513, 32},
                                         {1024, 32}, {600, 8}, {1000, 16} };
    (void)st;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_fattree(cases[i][0], cases[i][1], true, 0);
}

/* The two large trees of the P-GM2 profile's 16-port switches: three levels
 * (128 leaves, 128 middle, 64 top switches) for 1024 NICs, four for 4096
 * (512 + 512 + 512 leaves and middles, 256 top switches taking two cables
 * from each of the 8 pods). All pairs routed, lengths 1/3/5(/7). */
static void test_fattree_1024(void **st)
{
    (void)st;
    check_fattree(1024, 16, true, 320);
}

static void test_fattree_4096(void **st)
{
    (void)st;
    check_fattree(4096, 16, true, 1792);
    check_fattree(4096, 32, false, 640);
    check_fattree(4096, 8, false, 0);
}

/* d-mod-k spreading: on a full tree, a shift permutation (every NIC a sends
 * to a + s) uses every directed cable at most once - no contention. The
 * table-only routes (first up port) would send a leaf's eight flows up one
 * cable. */
static void test_fattree_shift_no_contention(void **st)
{
    static const unsigned cases[][2] = { {1024, 16}, {4096, 16}, {128, 16}, {512, 32} };
    char err[200];
    (void)st;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned n = cases[i][0];
        struct topo *t = topo_new();
        uint8_t *use = malloc((size_t)TOPO_MAX_SWITCHES * TOPO_MAX_PORTS);
        if (topo_gen_fattree(t, n, cases[i][1], err, sizeof err))
            fail_msg("%s", err);
        for (unsigned shift = 1; shift < n; shift = shift * 3 + 1) {
            memset(use, 0, (size_t)TOPO_MAX_SWITCHES * TOPO_MAX_PORTS);
            for (unsigned a = 0; a < n; a++) {
                uint8_t r[TOPO_MAX_HOPS];
                unsigned b = (a + shift) % n, s = t->node[a].sw;
                int h = topo_route(t, a, b, r);
                for (int j = 0; j < h; j++) {
                    if (use[s * TOPO_MAX_PORTS + r[j]]++)
                        fail_msg("fattree %u: shift %u: %u -> %u shares %s port %u", n, shift,
                                 a, b, t->sw[s].name, r[j]);
                    s = t->sw[s].port[r[j]].id;
                }
            }
        }
        free(use);
        topo_free(t);
    }
}

/* lanai-topo fattree -o FILE, then --topology FILE: the levels travel in the
 * file, so the routes are the same. */
static void test_fattree_file_round_trip(void **st)
{
    char err[200], *da, *db;
    struct topo *a = topo_new(), *b = topo_new();
    (void)st;
    assert_int_equal(topo_gen_fattree(a, 200, 16, err, sizeof err), 0);
    da = dump(a);
    assert_non_null(strstr(da, "switch L0S0 16 2\n"));
    if (topo_parse(b, "dump", da, strlen(da), err, sizeof err))
        fail_msg("%s", err);
    db = dump(b);
    assert_string_equal(da, db);
    for (unsigned x = 0; x < 200; x += 7)
        for (unsigned y = 0; y < 200; y += 3) {
            uint8_t ra[TOPO_MAX_HOPS], rb[TOPO_MAX_HOPS];
            int ha = topo_route(a, x, y, ra);
            assert_int_equal(topo_route(b, x, y, rb), ha);
            assert_memory_equal(ra, rb, (size_t)ha);
        }
    free(da); free(db);
    topo_free(a); topo_free(b);
}

static void test_random_networks(void **st)
{
    char err[200];
    (void)st;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        struct topo *t = topo_new();
        if (topo_gen_random(t, 64, 16, 8, 4, seed, err, sizeof err))
            fail_msg("seed %llu: %s", (unsigned long long)seed, err);
        uint32_t *dep = new_deps(t);
        check_all_routes(t, dep);
        assert_true(deps_acyclic(t, dep));
        topo_free(t);
    }
}

static char *dump(const struct topo *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    topo_write(t, f);
    fclose(f);
    return buf;
}

static void test_random_is_seeded(void **st)
{
    char err[200];
    struct topo *a = topo_new(), *b = topo_new(), *c = topo_new();
    char *da, *db, *dc;
    (void)st;
    assert_int_equal(topo_gen_random(a, 64, 16, 8, 4, 42, err, sizeof err), 0);
    assert_int_equal(topo_gen_random(b, 64, 16, 8, 4, 42, err, sizeof err), 0);
    assert_int_equal(topo_gen_random(c, 64, 16, 8, 4, 43, err, sizeof err), 0);
    da = dump(a); db = dump(b); dc = dump(c);
    assert_string_equal(da, db);
    assert_string_not_equal(da, dc);
    free(da); free(db); free(dc);
    topo_free(a); topo_free(b); topo_free(c);
}

/* A cyclic route set must be detected: the checker has teeth. Two switches
 * connected by two links, routes forced around a cycle by hand. */
static void test_cycle_detector_catches_cycles(void **st)
{
    char err[200];
    struct topo *t = topo_new();
    (void)st;
    /* ring of 3 switches, each node routed "clockwise" two hops */
    static const char ring[] =
        "switch A 8\nswitch B 8\nswitch C 8\n"
        "link A 1 B 0\nlink B 1 C 0\nlink C 1 A 0\n"
        "node 0 A 4\nnode 1 B 4\nnode 2 C 4\n";
    assert_int_equal(topo_parse(t, "ring", ring, strlen(ring), err, sizeof err), 0);
    assert_true(dependencies_acyclic(t));      /* up*-down* routes: fine */
    /* now overwrite the tables with clockwise routes A->B->C, B->C->A, C->A->B */
    unsigned S = t->nswitches;
    for (unsigned s = 0; s < S; s++)
        for (unsigned ph = 0; ph < 2; ph++)
            for (unsigned d = 0; d < S; d++)
                if (s != d)
                    t->routes.next[(size_t)(2 * s + ph) * S + d] = 1;
    memset(t->routes.level, 0, S); /* every link now looks the same way */
    assert_false(dependencies_acyclic(t));
    topo_free(t);
}

static void test_file_round_trip(void **st)
{
    char err[200];
    struct topo *a = topo_new(), *b = topo_new();
    char *da, *db;
    (void)st;
    assert_int_equal(topo_gen_random(a, 40, 10, 8, 3, 7, err, sizeof err), 0);
    da = dump(a);
    if (topo_parse(b, "dump", da, strlen(da), err, sizeof err))
        fail_msg("%s", err);
    db = dump(b);
    assert_string_equal(da, db);
    free(da); free(db);
    topo_free(a); topo_free(b);
}

static void expect_parse_error(const char *text, const char *want)
{
    char err[300];
    struct topo *t = topo_new();
    int rc = topo_parse(t, "net.topo", text, strlen(text), err, sizeof err);
    topo_free(t);
    if (rc == 0)
        fail_msg("accepted: %s", text);
    if (!strstr(err, want))
        fail_msg("message '%s' lacks '%s'", err, want);
}

static void test_file_errors(void **st)
{
    (void)st;
    expect_parse_error("switch A 8\nrouter B 8\n", "net.topo:2: unknown keyword 'router'");
    expect_parse_error("switch A 12\n", "net.topo:1: switch A: 12 ports (8, 16 or 32 expected)");
    expect_parse_error("switch A x\n", "net.topo:1: switch A: port count 'x' is not a number");
    expect_parse_error("switch A 8\nswitch A 8\n", "net.topo:2: switch A is defined twice");
    expect_parse_error("switch A 8\nnode 0 A 8\n", "net.topo:2: switch A has no port 8");
    expect_parse_error("switch A 8\nnode 0 A 1\nnode 1 A 1\n",
                       "net.topo:3: switch A port 1 is already connected");
    expect_parse_error("switch A 8\nnode 0 B 1\n", "net.topo:2: node 0: unknown switch 'B'");
    expect_parse_error("switch A 8\nnode 0 A 1\nnode 0 A 2\n", "net.topo:3: node 0 is attached twice");
    expect_parse_error("switch A 8\nnode 0 A 1\nnode 2 A 2\n",
                       "net.topo: node 1 is not attached");
    expect_parse_error("switch A 8\nswitch B 8\nnode 0 A 1\nnode 1 B 1\n",
                       "net.topo: switch B is not connected to switch A");
    expect_parse_error("switch A 8\nlink A 1 A 2\n", "net.topo:2: switch A: a link from the switch to itself");
    expect_parse_error("switch A 8\nlink A 1 Q 2\n", "net.topo:2: link: unknown switch 'Q'");
    expect_parse_error("node -1 A 1\n", "net.topo:1: node id '-1' is not a number");
    expect_parse_error("switch A 8 1 2\n", "net.topo:1: expected 'switch NAME PORTS [LEVEL]'");
    expect_parse_error("switch A 8 extra\n", "net.topo:1: switch A: level 'extra' is not a number");
    expect_parse_error("switch A 8 0\nswitch B 8\n",
                       "net.topo:2: switch B: give a level on every switch or on none");
    expect_parse_error("switch A 8\nswitch B 8 1\n",
                       "net.topo:2: switch B: give a level on every switch or on none");
    /* levels that leave a pair of NICs without an up*-down* route:
     * A - B - C in a line, B below both A and C */
    expect_parse_error("switch A 8 0\nswitch B 8 1\nswitch C 8 0\nlink A 0 B 0\nlink B 1 C 0\n"
                       "node 0 A 4\nnode 1 C 4\n", "net.topo: no up*-down* route from switch A to C");
    expect_parse_error("", "net.topo: no switches");
    expect_parse_error("switch A 8\n", "net.topo: no nodes");
}

static void test_crc8(void **st)
{
    (void)st;
    assert_int_equal(crc8(0, "123456789", 9), 0xF4); /* CRC-8/SMBUS check value */
    assert_int_equal(crc8(0, "", 0), 0);
    /* appending the CRC gives a zero remainder: how a hop checks a packet */
    {
        uint8_t pkt[5] = { 0x81, 0x0A, 0x01, 0x00, 0 };
        pkt[4] = crc8(0, pkt, 4);
        assert_int_equal(crc8(0, pkt, 5), 0);
        pkt[2] ^= 0x10;
        assert_int_not_equal(crc8(0, pkt, 5), 0);
    }
    /* eight bytes at a time gives what one byte at a time gives, at every
     * length and alignment (seeded bytes) */
    {
        uint8_t buf[300];
        uint32_t x = 12345;
        for (unsigned i = 0; i < sizeof buf; i++) {
            x = x * 1103515245u + 12345u;
            buf[i] = (uint8_t)(x >> 16);
        }
        for (unsigned off = 0; off < 9; off++) {
            for (unsigned len = 0; len + off <= sizeof buf; len += 7) {
                uint8_t one = 0x5A;
                for (unsigned i = 0; i < len; i++) {
                    one = crc8(one, buf + off + i, 1);
                }
                assert_int_equal(crc8(0x5A, buf + off, len), one);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crossbar),
        cmocka_unit_test(test_fattree),
        cmocka_unit_test(test_fattree_1024),
        cmocka_unit_test(test_fattree_4096),
        cmocka_unit_test(test_fattree_shift_no_contention),
        cmocka_unit_test(test_fattree_file_round_trip),
        cmocka_unit_test(test_random_networks),
        cmocka_unit_test(test_random_is_seeded),
        cmocka_unit_test(test_cycle_detector_catches_cycles),
        cmocka_unit_test(test_file_round_trip),
        cmocka_unit_test(test_file_errors),
        cmocka_unit_test(test_crc8),
    };
    return cmocka_run_group_tests_name("topology", tests, NULL, NULL);
}
