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

/* Follow a route from src's switch; check it ends on dst's port and never
 * goes up after going down. */
static void check_route(const struct topo *t, unsigned src, unsigned dst)
{
    uint8_t r[TOPO_MAX_HOPS];
    int h = topo_route(t, src, dst, r);
    unsigned s = t->node[src].sw;
    bool down = false;

    if (h < 1)
        fail_msg("no route %u -> %u", src, dst);
    for (int i = 0; i < h - 1; i++) {
        const struct topo_peer *q = &t->sw[s].port[r[i]];
        bool up;
        assert_int_equal(q->kind, TOPO_SWITCH);
        up = t->routes.level[q->id] < t->routes.level[s] ||
             (t->routes.level[q->id] == t->routes.level[s] && q->id < s);
        if (up && down)
            fail_msg("route %u -> %u goes up after down at hop %d", src, dst, i);
        down |= !up;
        s = q->id;
    }
    assert_int_equal(s, t->node[dst].sw);
    assert_int_equal(r[h - 1], t->node[dst].port);
    assert_int_equal(t->sw[s].port[r[h - 1]].kind, TOPO_NODE);
    assert_int_equal(t->sw[s].port[r[h - 1]].id, dst);
}

static void check_all_routes(const struct topo *t)
{
    for (unsigned a = 0; a < t->nnodes; a++)
        for (unsigned b = 0; b < t->nnodes; b++)
            check_route(t, a, b);
}

/* Channels are directed switch-to-switch links, numbered sw * 32 + port.
 * Each route adds a dependency from each channel to the next; a cycle would
 * allow a routing deadlock. */
static bool dependencies_acyclic(const struct topo *t)
{
    unsigned nch = t->nswitches * TOPO_MAX_PORTS;
    uint8_t *dep = calloc((size_t)nch * nch, 1), *state = calloc(nch, 1);
    unsigned *stack = malloc(sizeof *stack * nch * 2);
    bool ok = true;

    for (unsigned a = 0; a < t->nnodes; a++)
        for (unsigned b = 0; b < t->nnodes; b++) {
            uint8_t r[TOPO_MAX_HOPS];
            int h = topo_route(t, a, b, r);
            unsigned s = t->node[a].sw;
            int prev = -1;
            for (int i = 0; i < h - 1; i++) {
                unsigned ch = s * TOPO_MAX_PORTS + r[i];
                if (prev >= 0)
                    dep[(size_t)prev * nch + ch] = 1;
                prev = (int)ch;
                s = t->sw[s].port[r[i]].id;
            }
        }
    /* iterative DFS colouring: 1 = on stack, 2 = done */
    for (unsigned root = 0; root < nch && ok; root++) {
        unsigned sp = 0;
        if (state[root])
            continue;
        stack[sp++] = root;
        while (sp && ok) {
            unsigned c = stack[sp - 1], next = nch;
            state[c] = state[c] ? state[c] : 1;
            for (unsigned d = 0; d < nch; d++) {
                if (!dep[(size_t)c * nch + d])
                    continue;
                if (state[d] == 1) { ok = false; break; }
                if (state[d] == 0) { next = d; break; }
            }
            if (!ok)
                break;
            if (next < nch)
                stack[sp++] = next;
            else {
                state[c] = 2;
                sp--;
            }
        }
    }
    free(dep);
    free(state);
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
        check_all_routes(t);
        topo_free(t);
    }
    struct topo *t = topo_new();
    assert_int_equal(topo_gen_crossbar(t, 33, err, sizeof err), -1);
    assert_non_null(strstr(err, "33 nodes"));
    topo_free(t);
}

static void test_fattree(void **st)
{
    static const unsigned cases[][2] = { {16, 8}, {64, 8}, {100, 16}, {256, 32}, {1024, 32} };
    char err[200];
    (void)st;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct topo *t = topo_new();
        uint8_t r[TOPO_MAX_HOPS];
        if (topo_gen_fattree(t, cases[i][0], cases[i][1], err, sizeof err))
            fail_msg("%s", err);
        /* spot-check routes (all pairs for the small ones) */
        if (cases[i][0] <= 256)
            check_all_routes(t);
        for (unsigned a = 0; a < t->nnodes; a += 37)
            for (unsigned b = 0; b < t->nnodes; b += 41) {
                check_route(t, a, b);
                assert_true(topo_route(t, a, b, r) <= 2 * 3 - 1 + 1);
            }
        topo_free(t);
    }
}

static void test_random_networks(void **st)
{
    char err[200];
    (void)st;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        struct topo *t = topo_new();
        if (topo_gen_random(t, 64, 16, 8, 4, seed, err, sizeof err))
            fail_msg("seed %llu: %s", (unsigned long long)seed, err);
        check_all_routes(t);
        assert_true(dependencies_acyclic(t));
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
    expect_parse_error("switch A 8 extra\n", "net.topo:1: expected 'switch NAME PORTS'");
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
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crossbar),
        cmocka_unit_test(test_fattree),
        cmocka_unit_test(test_random_networks),
        cmocka_unit_test(test_random_is_seeded),
        cmocka_unit_test(test_cycle_detector_catches_cycles),
        cmocka_unit_test(test_file_round_trip),
        cmocka_unit_test(test_file_errors),
        cmocka_unit_test(test_crc8),
    };
    return cmocka_run_group_tests_name("topology", tests, NULL, NULL);
}
