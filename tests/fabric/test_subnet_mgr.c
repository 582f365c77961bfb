/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The management entity (lanai-emu/fabric/subnet_mgr.h) with the fabric
 * and the hosts' side (mgmt_sim.h): create, join and leave end to end
 * through management packets, the tables it writes carrying multicast to
 * exactly the members, answers that do not mean "ready", 100,000
 * create/leave cycles that leave every group id free, exhaustion as a
 * clear error and no id reused before its entries are cleared, the
 * transaction time-out and the bound on outstanding SW_SETs, a group's
 * switches written while a storm of other groups' joins still queues at
 * the entity, and a byte-identical trace for identical inputs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <unistd.h>

#include "mgmt_sim.h"
#include "nicoll/nc_mgmt.h"

static const struct fabric_timing TM = { 4000, 5000, 150000 };
#define US 1000000ull
#define NN 16

/* 16 NICs on a two-level fat tree of 8-port switches; the entity behind node 0 */
static struct topo *fattree(void)
{
    char err[200];
    struct topo *t = topo_new();
    assert_int_equal(topo_gen_fattree(t, NN, 8, err, sizeof err), 0);
    assert_int_equal(topo_finish(t, err, sizeof err), 0);
    assert_true(t->nswitches > 2);
    return t;
}

/* What the hosts saw. */
static struct {
    struct mgmt_sim *s;
    struct mgmt_answer last[NN];
    unsigned nanswers, bad;
    unsigned copies[NN];
    unsigned mismatch_at_last_join;
    unsigned joins_left;
    bool join_all;          /* everyone joins the group tid 1 creates */
    /* the join storm: the groups nodes 1..STORM created, the last JOINED */
    bool storm;
    unsigned storm_group[NN], storm_created;
    uint64_t storm_last_join;
    /* the create/leave loop */
    unsigned cycles, target, loop_node, enospc;
} H;

static unsigned mismatches(void)
{
    struct fabric *f = mgmt_sim_fabric(H.s);
    struct sm *sm = mgmt_sim_sm(H.s);
    const struct topo *t = NULL;
    unsigned n = 0;
    (void)t;
    for (unsigned g = 0; g < 8; g++)
        for (unsigned sw = 0; sw < 64; sw++)
            n += fabric_mcast_entry(f, sw, g) != sm_wanted(sm, g, sw);
    return n;
}

static void on_answer(void *o, const struct mgmt_answer *a)
{
    (void)o;
    H.nanswers++;
    H.last[a->node] = *a;
    if (a->status && a->status != NC_MG_ENOSPC)
        H.bad++;
    if (H.join_all && a->type == NC_PT_MG_CREATED && a->tid == 1 && !a->status) {
        /* everyone else joins the new group */
        for (unsigned n = 2; n < NN; n++)
            assert_int_equal(mgmt_sim_request(H.s, a->t + n * US, n, NC_PT_MG_JOIN, a->group,
                                              n, 100 + n), 0);
        H.joins_left = NN - 2;
    }
    if (H.storm && a->type == NC_PT_MG_CREATED) {
        H.storm_group[a->tid - 1000] = a->group;
        H.storm_created++;
    }
    if (H.storm && a->type == NC_PT_MG_JOINED)
        H.storm_last_join = a->t;
    if (a->type == NC_PT_MG_JOINED && !--H.joins_left)
        H.mismatch_at_last_join = mismatches();
    if (H.target && a->node == H.loop_node) {
        if (a->type == NC_PT_MG_CREATED) {
            if (a->status) {
                H.enospc++;
                return;
            }
            assert_int_equal(mgmt_sim_request(H.s, a->t, a->node, NC_PT_MG_LEAVE, a->group,
                                              a->node, a->tid), 0);
        } else if (a->type == NC_PT_MG_LEFT && ++H.cycles < H.target) {
            assert_int_equal(mgmt_sim_request(H.s, a->t, a->node, NC_PT_MG_CREATE, 0, 0,
                                              a->tid + 1), 0);
        }
    }
}

static void on_deliver(void *o, const struct fabric_delivery *d)
{
    (void)o;
    if (d->type == 0x0A18 && d->dst < NN)
        H.copies[d->dst]++;
}

static struct mgmt_sim *sim(const struct topo *t, const struct fabric_switch_mgmt *sw,
                            const struct sm_params *p)
{
    char err[200];
    struct mgmt_hooks h = { .answer = on_answer, .deliver = on_deliver };
    memset(&H, 0, sizeof H);
    H.s = mgmt_sim_new(t, &TM, sw, p, 1, &h, err, sizeof err);
    if (!H.s)
        fail_msg("%s", err);
    return H.s;
}

static void run_idle(struct mgmt_sim *s)
{
    mgmt_sim_run(s, UINT64_MAX);
    assert_true(mgmt_sim_idle(s));
}

/* Every switch's table holds for group g what the entity wants, and the
 * entity has it acknowledged. */
static void tables_agree(struct mgmt_sim *s, const struct topo *t, unsigned g)
{
    for (unsigned sw = 0; sw < t->nswitches; sw++) {
        assert_int_equal(fabric_mcast_entry(mgmt_sim_fabric(s), sw, g),
                         sm_wanted(mgmt_sim_sm(s), g, sw));
        assert_int_equal(sm_acked(mgmt_sim_sm(s), g, sw), sm_wanted(mgmt_sim_sm(s), g, sw));
    }
}

static void send_mcast(struct mgmt_sim *s, uint64_t t, unsigned from, unsigned g)
{
    uint8_t pkt[64], pay[16] = { 1, 2, 3 };
    memset(H.copies, 0, sizeof H.copies);
    assert_int_equal(mgmt_sim_send(s, t, from, pkt,
                                   mgmt_mcast_packet(g, 0x0A18, pay, sizeof pay, pkt)), 0);
    run_idle(s);
}

static void test_end_to_end(void **st)
{
    struct topo *t = fattree();
    struct sm_params p;
    (void)st;
    sm_default_params(&p, 0);
    struct mgmt_sim *s = sim(t, NULL, &p);

    H.join_all = true;
    assert_int_equal(mgmt_sim_request(s, 10 * US, 1, NC_PT_MG_CREATE, 0, 0, 1), 0);
    run_idle(s);
    assert_int_equal(H.bad, 0);
    assert_int_equal(H.nanswers, NN - 1);
    unsigned g = H.last[1].group;
    assert_int_equal(H.last[1].type, NC_PT_MG_CREATED);
    assert_int_equal(sm_members(mgmt_sim_sm(s), g), NN - 1);
    /* when the last JOINED came, the tables were not yet written: an
     * answer does not mean ready */
    assert_true(H.mismatch_at_last_join > 0);
    tables_agree(s, t, g);
    /* now a multicast from node 5 reaches every other member once */
    uint64_t now = mgmt_sim_run(s, UINT64_MAX);
    send_mcast(s, now + 10 * US, 5, g);
    for (unsigned n = 0; n < NN; n++)
        assert_int_equal(H.copies[n], n == 0 || n == 5 ? 0 : 1);
    /* node 7 leaves: not any more */
    now = mgmt_sim_run(s, UINT64_MAX);
    assert_int_equal(mgmt_sim_request(s, now + 10 * US, 7, NC_PT_MG_LEAVE, g, 7, 2), 0);
    run_idle(s);
    assert_int_equal(H.last[7].type, NC_PT_MG_LEFT);
    assert_int_equal(H.last[7].status, NC_MG_OK);
    tables_agree(s, t, g);
    now = mgmt_sim_run(s, UINT64_MAX);
    send_mcast(s, now + 10 * US, 5, g);
    for (unsigned n = 0; n < NN; n++)
        assert_int_equal(H.copies[n], n == 0 || n == 5 || n == 7 ? 0 : 1);
    /* refused requests: a second join, a leave of a non-member, no group */
    now = mgmt_sim_run(s, UINT64_MAX);
    mgmt_sim_request(s, now + 1 * US, 3, NC_PT_MG_JOIN, g, 3, 3);
    mgmt_sim_request(s, now + 2 * US, 7, NC_PT_MG_LEAVE, g, 7, 4);
    mgmt_sim_request(s, now + 3 * US, 9, NC_PT_MG_JOIN, 900, 9, 5);
    run_idle(s);
    assert_int_equal(H.last[3].status, NC_MG_EEXIST);
    assert_int_equal(H.last[7].status, NC_MG_ENOENT);
    assert_int_equal(H.last[9].status, NC_MG_ENOENT);
    struct sm_counters c;
    sm_get_counters(mgmt_sim_sm(s), &c);
    assert_int_equal(c.refused, 3);
    assert_int_equal(c.timeouts, 0);
    assert_true(c.peak_outstanding <= SM_MAX_OUTSTANDING);
    mgmt_sim_free(s);
    topo_free(t);
}

/* Every switch's table is empty and every id is free. */
static void all_free(struct mgmt_sim *s, const struct topo *t, unsigned groups)
{
    struct sm_counters c;
    sm_get_counters(mgmt_sim_sm(s), &c);
    assert_int_equal(c.ids_free, groups);
    assert_int_equal(c.ids_live, 0);
    assert_int_equal(c.ids_draining, 0);
    for (unsigned sw = 0; sw < t->nswitches; sw++)
        assert_int_equal(fabric_mcast_used(mgmt_sim_fabric(s), sw), 0);
}

static void test_create_leave_cycles(void **st)
{
    struct topo *t = fattree();
    struct sm_params p;
    struct sm_counters c;
    (void)st;
    sm_default_params(&p, 0);
    struct mgmt_sim *s = sim(t, NULL, &p);

    H.target = 100000;
    H.loop_node = 3;
    assert_int_equal(mgmt_sim_request(s, 1 * US, 3, NC_PT_MG_CREATE, 0, 0, 1), 0);
    run_idle(s);
    assert_int_equal(H.cycles, H.target);
    assert_int_equal(H.enospc, 0);
    assert_int_equal(H.bad, 0);
    sm_get_counters(mgmt_sim_sm(s), &c);
    assert_int_equal(c.created, H.target);
    assert_int_equal(c.left, H.target);
    all_free(s, t, SM_GROUPS);
    print_message("# %u create/leave cycles in %.1f ms of virtual time, %llu SW_SETs\n",
                  H.cycles, (double)mgmt_sim_run(s, UINT64_MAX) / 1e9,
                  (unsigned long long)c.sets);
    mgmt_sim_free(s);
    topo_free(t);
}

static void test_exhaustion(void **st)
{
    struct topo *t = fattree();
    struct sm_params p;
    struct fabric_switch_mgmt sw = { .entries = 8, .agent_ps = FABRIC_AGENT_PS };
    struct sm_counters c;
    char err[200];
    struct mgmt_hooks h = { 0 };
    (void)st;

    /* the entity hands out no more ids than a table holds */
    sm_default_params(&p, 0);
    assert_null(mgmt_sim_new(t, &TM, &sw, &p, 1, &h, err, sizeof err));
    assert_string_equal(err, "management entity: 1024 group ids, but a switch's table "
                             "holds 8 entries");
    p.node = 99;
    assert_null(mgmt_sim_new(t, &TM, &sw, &p, 1, &h, err, sizeof err));
    assert_string_equal(err, "management entity: node 99 is not a node of this network "
                             "(0..15)");
    sm_default_params(&p, 0);
    p.groups = 8;
    struct mgmt_sim *s = sim(t, &sw, &p);

    for (unsigned i = 0; i < 9; i++)
        assert_int_equal(mgmt_sim_request(s, (1 + i) * US, 1 + i, NC_PT_MG_CREATE, 0, 0, i), 0);
    run_idle(s);
    unsigned seen = 0;
    for (unsigned i = 0; i < 8; i++) {
        assert_int_equal(H.last[1 + i].status, NC_MG_OK);
        seen |= 1u << H.last[1 + i].group;
    }
    assert_int_equal(seen, 0xFF);                  /* eight different ids */
    assert_int_equal(H.last[9].status, NC_MG_ENOSPC);
    assert_string_equal(mgmt_status_str(H.last[9].status),
                        "no free multicast group id (every id is in use or being cleared)");
    /* node 4 leaves its group; a create right after its LEFT still fails:
     * the group's entries are being cleared, its id is not free yet */
    unsigned g4 = H.last[4].group;
    uint64_t now = mgmt_sim_run(s, UINT64_MAX);
    H.target = 0;
    assert_int_equal(mgmt_sim_request(s, now + 1 * US, 4, NC_PT_MG_LEAVE, g4, 4, 20), 0);
    while (H.last[4].type != NC_PT_MG_LEFT) {
        now += 1 * US;
        mgmt_sim_run(s, now);
    }
    sm_get_counters(mgmt_sim_sm(s), &c);
    assert_int_equal(c.ids_draining, 1);
    assert_int_equal(mgmt_sim_request(s, H.last[4].t, 9, NC_PT_MG_CREATE, 0, 0, 21), 0);
    run_idle(s);
    assert_int_equal(H.last[9].status, NC_MG_ENOSPC);
    /* once cleared, the id is the one a create gets */
    now = mgmt_sim_run(s, UINT64_MAX);
    assert_int_equal(mgmt_sim_request(s, now + 1 * US, 9, NC_PT_MG_CREATE, 0, 0, 22), 0);
    run_idle(s);
    assert_int_equal(H.last[9].status, NC_MG_OK);
    assert_int_equal(H.last[9].group, g4);
    sm_get_counters(mgmt_sim_sm(s), &c);
    assert_int_equal(c.enospc, 2);
    assert_int_equal(c.ids_free, 0);
    mgmt_sim_free(s);
    topo_free(t);
}

/* A lost SW_SET and a lost answer: sent again after the time-out, the
 * tables end right, later by at least the time-out; never more than
 * max_outstanding on the wire. */
static void test_timeout_and_outstanding(void **st)
{
    struct topo *t = fattree();
    struct sm_params p;
    struct sm_counters c;
    char err[200];
    (void)st;

    for (int lose = 0; lose < 3; lose++) {
        sm_default_params(&p, 0);
        p.max_outstanding = 2;
        struct mgmt_sim *s = sim(t, NULL, &p);
        H.join_all = true;
        if (lose == 1)
            assert_int_equal(fabric_add_fault(mgmt_sim_fabric(s), "drop:type=0x0a38,nth=3",
                                              err, sizeof err), 0);
        if (lose == 2)
            assert_int_equal(fabric_add_fault(mgmt_sim_fabric(s), "drop:type=0x0a39,nth=3",
                                              err, sizeof err), 0);
        assert_int_equal(mgmt_sim_request(s, 10 * US, 1, NC_PT_MG_CREATE, 0, 0, 1), 0);
        uint64_t end = mgmt_sim_run(s, UINT64_MAX);
        assert_true(mgmt_sim_idle(s));
        unsigned g = H.last[1].group;
        tables_agree(s, t, g);
        sm_get_counters(mgmt_sim_sm(s), &c);
        assert_int_equal(c.peak_outstanding, 2);
        assert_int_equal(c.timeouts, lose ? 1 : 0);
        assert_int_equal(c.late_acks, 0);
        if (lose)
            assert_true(end > SM_TIMEOUT_PS);
        else
            assert_true(end < SM_TIMEOUT_PS);
        print_message("# group of %u on %u switches ready at %.1f us (%s)\n", NN - 1,
                      t->nswitches, (double)end / 1e6,
                      lose == 0 ? "no loss" : lose == 1 ? "an SW_SET lost" : "an answer lost");
        mgmt_sim_free(s);
    }
    topo_free(t);
}

static void scenario_to_pcap(const struct topo *t, const char *path)
{
    struct sm_params p;
    char err[200];
    sm_default_params(&p, 0);
    struct mgmt_sim *s = sim(t, NULL, &p);
    assert_int_equal(fabric_open_pcap(mgmt_sim_fabric(s), path, err, sizeof err), 0);
    H.join_all = true;
    assert_int_equal(fabric_add_fault(mgmt_sim_fabric(s), "drop:prob=0.05", err, sizeof err), 0);
    assert_int_equal(mgmt_sim_request(s, 10 * US, 1, NC_PT_MG_CREATE, 0, 0, 1), 0);
    run_idle(s);
    send_mcast(s, 100000 * US, 5, H.last[1].group);
    mgmt_sim_free(s);
}

/* Nodes 1..8 create a group each, then every node joins every group, all
 * at once, the first group's joins first: 112 joins, about 2.2 ms of the
 * entity's work. The first group has its switches written while the
 * others' joins still wait (requests and writes take turns), long before
 * the last join is answered. */
#define STORM 8
/* Every member in and every switch holding what the entity wants: a
 * multicast reaches them all (the entity takes the switches' answers
 * later, behind the joins in its inbox). */
static bool storm_group_ready(struct mgmt_sim *s, const struct topo *t, unsigned g)
{
    if (sm_members(mgmt_sim_sm(s), g) != NN - 1)
        return false;
    for (unsigned sw = 0; sw < t->nswitches; sw++)
        if (fabric_mcast_entry(mgmt_sim_fabric(s), sw, g) != sm_wanted(mgmt_sim_sm(s), g, sw))
            return false;
    return true;
}

static void test_join_storm(void **st)
{
    struct topo *t = fattree();
    struct sm_params p;
    uint64_t first_ready = 0;
    (void)st;
    sm_default_params(&p, 0);
    p.max_outstanding = 64;     /* as P-IB's: no bound in practice */
    struct mgmt_sim *s = sim(t, NULL, &p);

    H.storm = true;
    for (unsigned o = 1; o <= STORM; o++)
        assert_int_equal(mgmt_sim_request(s, o * US, o, NC_PT_MG_CREATE, 0, 0, 1000 + o), 0);
    mgmt_sim_run(s, 1000 * US);
    assert_int_equal(H.storm_created, STORM);
    for (unsigned o = 1; o <= STORM; o++)
        for (unsigned n = 1; n < NN; n++)
            if (n != o)
                assert_int_equal(mgmt_sim_request(s, 1000 * US + (o * NN + n) * 100000ull, n,
                                                  NC_PT_MG_JOIN,
                                                  H.storm_group[o], n, 2000 + o * NN + n), 0);
    for (uint64_t at = 1000 * US; at < 20000 * US && !first_ready; at += 10 * US) {
        mgmt_sim_run(s, at);
        for (unsigned o = 1; o <= STORM && !first_ready; o++)
            if (storm_group_ready(s, t, H.storm_group[o]))
                first_ready = at;
    }
    run_idle(s);
    assert_int_equal(H.bad, 0);
    for (unsigned o = 1; o <= STORM; o++) {
        assert_true(storm_group_ready(s, t, H.storm_group[o]));
        tables_agree(s, t, H.storm_group[o]);
    }
    print_message("join storm: first group ready at %.0f us, last join answered at %.0f us\n",
                  first_ready / 1e6, H.storm_last_join / 1e6);
    assert_true(first_ready != 0);
    /* ready before half of the storm's work was done */
    assert_true(first_ready - 1000 * US < (H.storm_last_join - 1000 * US) / 2);
    mgmt_sim_free(s);
    topo_free(t);
}

static void test_deterministic_trace(void **st)
{
    struct topo *t = fattree();
    char a[] = "/tmp/nicoll-sm-a-XXXXXX", b[] = "/tmp/nicoll-sm-b-XXXXXX", cmd[200];
    (void)st;
    close(mkstemp(a));
    close(mkstemp(b));
    scenario_to_pcap(t, a);
    scenario_to_pcap(t, b);
    snprintf(cmd, sizeof cmd, "cmp -s %s %s", a, b);
    assert_int_equal(system(cmd), 0);
    unlink(a);
    unlink(b);
    topo_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_end_to_end),
        cmocka_unit_test(test_create_leave_cycles),
        cmocka_unit_test(test_exhaustion),
        cmocka_unit_test(test_timeout_and_outstanding),
        cmocka_unit_test(test_join_storm),
        cmocka_unit_test(test_deterministic_trace),
    };
    return cmocka_run_group_tests_name("subnet_mgr", tests, NULL, NULL);
}
