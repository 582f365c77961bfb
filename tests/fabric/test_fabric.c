/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tests of the fabric timing model (lanai-emu/fabric/fabric.h): arrival
 * times computed by hand from the timing parameters, contention on a shared
 * output port, a blocked packet holding its input, multi-hop cut-through,
 * route errors, every fault kind, determinism of probabilistic faults, the
 * fault-rule parser's messages and the pcap trace.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <pcap/pcap.h>
#include <unistd.h>

#include "fabric.h"

/* Myrinet-2000-like numbers: 4 ns per byte, 5 ns of cable, 150 ns per switch. */
static const struct fabric_timing TM = { 4000, 5000, 150000 };
#define HOP (TM.cable_ps + TM.byte_ps + TM.switch_ps)

static struct topo *crossbar(unsigned n)
{
    char err[200];
    struct topo *t = topo_new();
    assert_int_equal(topo_gen_crossbar(t, n, err, sizeof err), 0);
    return t;
}

/* A packet: route from topo_route, type, then 'payload' bytes of a pattern. */
static size_t make_packet(const struct topo *t, unsigned src, unsigned dst, uint16_t type,
                          size_t payload, uint8_t *pkt)
{
    uint8_t r[TOPO_MAX_HOPS];
    int h = topo_route(t, src, dst, r);
    size_t n = 0;
    assert_true(h > 0);
    for (int i = 0; i < h; i++)
        pkt[n++] = 0x80 | r[i];
    pkt[n++] = (uint8_t)(type >> 8);
    pkt[n++] = (uint8_t)type;
    for (size_t i = 0; i < payload; i++)
        pkt[n++] = (uint8_t)(i * 7 + src);
    return n;
}

static struct fabric_delivery d, d2, d3;

static void test_single_hop_timing(void **st)
{
    struct topo *t = crossbar(4);
    struct fabric *f = fabric_new(t, &TM, 1);
    uint8_t pkt[256];
    size_t len = make_packet(t, 0, 3, 0x0A01, 100, pkt);   /* 1 + 2 + 100 bytes */
    (void)st;
    assert_int_equal(fabric_send(f, 0, 1000000, pkt, len, &d), 0);
    assert_true(d.delivered);
    assert_int_equal(d.dst, 3);
    assert_int_equal(d.hops, 1);
    assert_int_equal(d.type, 0x0A01);
    assert_int_equal(d.len, 102);
    assert_memory_equal(d.data, pkt + 1, 102);
    /* head: sender starts at 1 us, one hop (cable + route byte + switch), cable */
    assert_int_equal(d.head_ps, 1000000 + HOP + TM.cable_ps);
    /* tail: the 102 bytes after the route and the CRC-8 byte follow the head */
    assert_int_equal(d.tail_ps, d.head_ps + 103 * TM.byte_ps);
    assert_true(d.crc_ok);
    /* the sender's link is busy until all 103 + 1 bytes left it */
    assert_int_equal(fabric_tx_free(f, 0), 1000000 + (len + 1) * TM.byte_ps);
    fabric_free(f);
    topo_free(t);
}

static void test_contention_on_output_port(void **st)
{
    struct topo *t = crossbar(4);
    struct fabric *f = fabric_new(t, &TM, 1);
    uint8_t a[256], b[256];
    size_t la = make_packet(t, 0, 2, 1, 200, a), lb = make_packet(t, 1, 2, 1, 10, b);
    (void)st;
    fabric_send(f, 0, 0, a, la, &d);
    fabric_send(f, 1, 0, b, lb, &d2);
    /* the second packet waits until the first one's tail has left the
     * switch's output port towards node 2 */
    uint64_t out_free = HOP + (la - 1 + 1) * TM.byte_ps;
    assert_int_equal(d2.head_ps, out_free + TM.cable_ps);
    assert_true(d2.head_ps > d.tail_ps - TM.byte_ps);
    /* and while it waited, it blocked its own input: node 1's link */
    assert_int_equal(fabric_tx_free(f, 1), out_free - HOP + (lb + 1) * TM.byte_ps);
    fabric_free(f);
    topo_free(t);
}

static void test_blocked_packet_holds_its_input(void **st)
{
    struct topo *t = crossbar(4);
    struct fabric *f = fabric_new(t, &TM, 1);
    uint8_t a[2048], b[64], c[64];
    size_t la = make_packet(t, 0, 2, 1, 1000, a);
    size_t lb = make_packet(t, 1, 2, 1, 10, b);
    size_t lc = make_packet(t, 1, 3, 1, 10, c);
    (void)st;
    fabric_send(f, 0, 0, a, la, &d);     /* long packet to node 2 */
    fabric_send(f, 1, 0, b, lb, &d2);    /* blocked behind it */
    /* node 1's next packet goes to an idle port (3) but cannot start before
     * node 1's link is free: head-of-line blocking, as on Myrinet */
    fabric_send(f, 1, 100, c, lc, &d3);
    assert_true(d3.head_ps > d2.head_ps);
    assert_int_equal(d3.head_ps, fabric_tx_free(f, 1) - (lc + 1) * TM.byte_ps + HOP + TM.cable_ps);
    fabric_free(f);
    topo_free(t);
}

static void test_multi_hop_cut_through(void **st)
{
    char err[200];
    struct topo *t = topo_new();
    struct fabric *f;
    uint8_t pkt[256];
    size_t len;
    (void)st;
    assert_int_equal(topo_gen_fattree(t, 64, 8, err, sizeof err), 0);
    f = fabric_new(t, &TM, 1);
    len = make_packet(t, 0, 63, 7, 50, pkt);
    fabric_send(f, 0, 0, pkt, len, &d);
    assert_true(d.delivered);
    /* 0 and 63 share no switch below the top of a 3-level tree: 5 switches */
    assert_int_equal(d.hops, 5);
    assert_int_equal(d.head_ps, 5 * HOP + TM.cable_ps);
    assert_int_equal(d.tail_ps, d.head_ps + (len - 5 + 1) * TM.byte_ps);
    assert_int_equal(d.len, len - 5);
    fabric_free(f);
    topo_free(t);
}

static void test_route_errors(void **st)
{
    struct topo *t = crossbar(4);
    struct fabric *f = fabric_new(t, &TM, 1);
    uint8_t none[] = { 0x0A, 0x01, 1, 2 };
    uint8_t unconnected[] = { 0x80 | 6, 0x0A, 0x01 };
    uint8_t too_long[] = { 0x82, 0x81, 0x0A, 0x01 };
    uint8_t noport[] = { 0x80 | 40, 0x0A, 0x01 };
    (void)st;
    fabric_send(f, 0, 0, none, sizeof none, &d);
    assert_false(d.delivered);
    assert_string_equal(d.why, "route ends inside the network");
    fabric_send(f, 0, 0, unconnected, sizeof unconnected, &d);
    assert_string_equal(d.why, "route leads to an unconnected port");
    fabric_send(f, 0, 0, too_long, sizeof too_long, &d);
    assert_string_equal(d.why, "route is longer than the path");
    fabric_send(f, 0, 0, noport, sizeof noport, &d);
    assert_string_equal(d.why, "route byte names no port");
    assert_int_equal(fabric_send(f, 0, 0, none, sizeof none, &d), 0);
    assert_int_equal(fabric_send(f, 9, 0, none, sizeof none, &d), -1);
    fabric_free(f);
    topo_free(t);
}

static void test_time_order_enforced(void **st)
{
    struct topo *t = crossbar(2);
    struct fabric *f = fabric_new(t, &TM, 1);
    uint8_t pkt[64];
    size_t len = make_packet(t, 0, 1, 1, 4, pkt);
    (void)st;
    assert_int_equal(fabric_send(f, 0, 5000, pkt, len, &d), 0);
    assert_int_equal(fabric_send(f, 1, 4999, pkt, len, &d), -1);
    assert_string_equal(d.why, "send out of time order");
    fabric_free(f);
    topo_free(t);
}

static void test_faults(void **st)
{
    struct topo *t = crossbar(4);
    struct fabric *f = fabric_new(t, &TM, 1);
    char err[200];
    uint8_t pkt[64];
    size_t len;
    uint64_t now = 0;
    struct fabric_counters c;
    (void)st;
    assert_int_equal(fabric_add_fault(f, "drop:node=1,dir=rx,type=0x0a05,nth=2", err, sizeof err), 0);
    assert_int_equal(fabric_add_fault(f, "corrupt:node=3,dir=rx", err, sizeof err), 0);
    assert_int_equal(fabric_add_fault(f, "delay:node=0,dir=tx,type=9,delay=2us", err, sizeof err), 0);
    assert_int_equal(fabric_add_fault(f, "down:node=2,from=10us,until=20us", err, sizeof err), 0);

    len = make_packet(t, 0, 1, 0x0A05, 8, pkt);
    for (int i = 1; i <= 3; i++) {       /* only the 2nd matching packet drops */
        fabric_send(f, 0, now += 1000000, pkt, len, &d);
        assert_int_equal(d.delivered, i != 2);
    }
    len = make_packet(t, 2, 1, 0x0A06, 8, pkt);   /* other type: untouched */
    fabric_send(f, 2, now += 1000000, pkt, len, &d);
    assert_true(d.delivered && d.crc_ok);

    len = make_packet(t, 0, 3, 1, 16, pkt);       /* corrupted: CRC-8 fails */
    fabric_send(f, 0, now += 1000000, pkt, len, &d);
    assert_true(d.delivered);
    assert_false(d.crc_ok);
    assert_memory_not_equal(d.data, pkt + 1, d.len);

    len = make_packet(t, 0, 1, 9, 4, pkt);        /* delayed by exactly 2 us */
    fabric_send(f, 0, now = 8000000, pkt, len, &d);
    assert_int_equal(d.head_ps, now + HOP + TM.cable_ps + 2000000);

    /* the NIC-side view of the same rule */
    assert_true(fabric_node_link_up(f, 2, 9999999));
    assert_false(fabric_node_link_up(f, 2, 10000000));
    assert_true(fabric_node_link_up(f, 2, 20000000));
    assert_int_equal(fabric_link_change_after(f, 2, 0), 10000000);
    assert_int_equal(fabric_link_change_after(f, 2, 10000000), 20000000);
    assert_int_equal(fabric_link_change_after(f, 2, 20000000), UINT64_MAX);
    assert_true(fabric_node_link_up(f, 1, 15000000));
    len = make_packet(t, 2, 0, 1, 4, pkt);        /* node 2's link is down 10-20 us */
    fabric_send(f, 2, 9000000, pkt, len, &d);
    assert_true(d.delivered);
    fabric_send(f, 2, 15000000, pkt, len, &d);
    assert_false(d.delivered);
    assert_string_equal(d.why, "sender's link is down");
    len = make_packet(t, 0, 2, 1, 4, pkt);        /* and as a receiver */
    fabric_send(f, 0, 16000000, pkt, len, &d);
    assert_false(d.delivered);
    fabric_send(f, 0, 21000000, pkt, len, &d);
    assert_true(d.delivered);

    fabric_get_counters(f, &c);
    assert_int_equal(c.dropped, 3);
    assert_int_equal(c.corrupted, 1);
    assert_int_equal(c.delayed, 1);
    fabric_free(f);
    topo_free(t);
}

static unsigned drop_pattern(uint64_t seed, uint32_t *bits)
{
    struct topo *t = crossbar(2);
    struct fabric *f = fabric_new(t, &TM, seed);
    char err[200];
    uint8_t pkt[64];
    size_t len = make_packet(t, 0, 1, 1, 4, pkt);
    unsigned dropped = 0;
    assert_int_equal(fabric_add_fault(f, "drop:prob=0.5", err, sizeof err), 0);
    *bits = 0;
    for (int i = 0; i < 32; i++) {
        fabric_send(f, 0, (uint64_t)i * 1000000, pkt, len, &d);
        if (!d.delivered) {
            *bits |= 1u << i;
            dropped++;
        }
    }
    fabric_free(f);
    topo_free(t);
    return dropped;
}

static void test_probabilistic_faults_are_seeded(void **st)
{
    uint32_t a, b, c;
    unsigned n;
    (void)st;
    n = drop_pattern(7, &a);
    drop_pattern(7, &b);
    drop_pattern(8, &c);
    assert_int_equal(a, b);
    assert_int_not_equal(a, c);
    assert_in_range(n, 6, 26);
}

static void expect_bad_rule(const char *spec, const char *want)
{
    struct topo *t = crossbar(4);
    struct fabric *f = fabric_new(t, &TM, 1);
    char err[300];
    int rc = fabric_add_fault(f, spec, err, sizeof err);
    fabric_free(f);
    topo_free(t);
    if (rc == 0)
        fail_msg("accepted '%s'", spec);
    if (!strstr(err, want))
        fail_msg("message '%s' lacks '%s'", err, want);
}

static void test_fault_rule_errors(void **st)
{
    (void)st;
    expect_bad_rule("explode:node=1", "unknown kind 'explode'");
    expect_bad_rule("drop:node=9", "node '9' is not a node of this network (0..3)");
    expect_bad_rule("drop:dir=up", "dir 'up' (tx, rx or any)");
    expect_bad_rule("drop:type=0x10000", "type '0x10000' is not a 16-bit number");
    expect_bad_rule("drop:nth=0", "nth '0' is not a positive number");
    expect_bad_rule("delay:node=1", "delay needs delay=TIME");
    expect_bad_rule("delay:delay=5parsecs", "delay '5parsecs' is not a time");
    expect_bad_rule("drop:prob=1.5", "prob '1.5' is not in (0, 1]");
    expect_bad_rule("down:from=1us", "down needs node=N or link=SWITCH.PORT");
    expect_bad_rule("down:link=Q.3", "link 'Q.3': no such switch port");
    expect_bad_rule("drop:node", "'node' is not key=value");
    expect_bad_rule("drop:", "no field; a rule needs at least one");
    expect_bad_rule("corrupt", "no field; a rule needs at least one");
    expect_bad_rule("drop:colour=red", "unknown field 'colour'");
    expect_bad_rule("drop:nth=2,prob=0.5", "give nth or prob, not both");
    expect_bad_rule("down:node=1,from=5us,until=2us", "until must be after from");
}

static void test_pcap_trace(void **st)
{
    struct topo *t = crossbar(4);
    struct fabric *f = fabric_new(t, &TM, 1);
    char err[PCAP_ERRBUF_SIZE], path[] = "/tmp/nicoll-fabric-XXXXXX";
    uint8_t pkt[64];
    size_t len = make_packet(t, 1, 2, 0x0A01, 6, pkt);
    struct pcap_pkthdr *h;
    const u_char *data;
    pcap_t *p;
    int fd = mkstemp(path), n = 0;
    (void)st;
    close(fd);
    assert_int_equal(fabric_open_pcap(f, path, err, sizeof err), 0);
    fabric_send(f, 1, 2500000, pkt, len, &d);
    fabric_send(f, 1, 9000000, (const uint8_t *)"\x01\x02", 2, &d2);   /* dropped */
    fabric_free(f);
    p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, err);
    assert_non_null(p);
    assert_int_equal(pcap_datalink(p), DLT_USER0);
    while (pcap_next_ex(p, &h, &data) == 1) {
        n++;
        if (n == 1) {
            assert_int_equal(h->ts.tv_usec, 2500);           /* ns: 2.5 us */
            assert_int_equal(data[3], 1);                    /* src */
            assert_int_equal(data[5], 2);                    /* dst */
            assert_int_equal(data[6], 0);                    /* delivered */
            assert_int_equal(h->caplen, 32 + len);
            assert_memory_equal(data + 32, pkt, len);
        } else {
            assert_int_equal(data[6], 1);                    /* dropped */
        }
    }
    assert_int_equal(n, 2);
    pcap_close(p);
    unlink(path);
    topo_free(t);
}


/* ---- back-pressure ---------------------------------------------------------
 * Two 8-port switches joined by one cable (port 2 of each); nodes 0 and 2
 * on switch 0 (ports 0, 1), nodes 1 and 3 on switch 1 (ports 0, 1). Node
 * 0 -> 1 and node 2 -> 3 share switch 0's output towards switch 1. */
static struct topo *two_switches(void)
{
    char err[200];
    struct topo *t = topo_new();
    assert_int_equal(topo_add_switch(t, "a", 8, err, sizeof err), 0);
    assert_int_equal(topo_add_switch(t, "b", 8, err, sizeof err), 0);
    assert_int_equal(topo_link(t, 0, 2, 1, 2, err, sizeof err), 0);
    assert_int_equal(topo_attach_node(t, 0, 0, 0, err, sizeof err), 0);
    assert_int_equal(topo_attach_node(t, 2, 0, 1, err, sizeof err), 0);
    assert_int_equal(topo_attach_node(t, 1, 1, 0, err, sizeof err), 0);
    assert_int_equal(topo_attach_node(t, 3, 1, 1, err, sizeof err), 0);
    assert_int_equal(topo_finish(t, err, sizeof err), 0);
    return t;
}

static unsigned bp_room_of[4];
static struct fabric_delivery bp_got[8];
static unsigned bp_ngot;

static unsigned bp_room(void *o, unsigned dst)
{
    (void)o;
    return bp_room_of[dst];
}

static void bp_deliver(void *o, const struct fabric_delivery *dd)
{
    (void)o;
    assert_true(bp_ngot < 8);
    bp_got[bp_ngot++] = *dd;
}

/* flow control seen by the senders: (node, time, go) */
static struct { unsigned src; uint64_t t; bool go; } bp_flow[8];
static unsigned bp_nflow;

static void bp_flow_at(unsigned src, uint64_t t, bool go)
{
    assert_true(bp_nflow < 8);
    bp_flow[bp_nflow].src = src;
    bp_flow[bp_nflow].t = t;
    bp_flow[bp_nflow++].go = go;
}

static void bp_stop(void *o, unsigned src, uint64_t t)
{
    (void)o;
    bp_flow_at(src, t, false);
}

static void bp_go(void *o, unsigned src, uint64_t t)
{
    (void)o;
    bp_flow_at(src, t, true);
}

/* Node 0 sends 1000 bytes to node 1, node 2 then 10 bytes to node 3;
 * 'room1' says whether node 1 takes packets on arrival. */
static struct fabric *bp_scenario(struct topo *t, unsigned room1)
{
    struct fabric *f = fabric_new(t, &TM, 1);
    struct fabric_bp bp = { .room = bp_room, .deliver = bp_deliver,
                            .tx_stop = bp_stop, .tx_go = bp_go };
    uint8_t a[2048], c[64];
    size_t la = make_packet(t, 0, 1, 1, 1000, a), lc = make_packet(t, 2, 3, 1, 10, c);

    fabric_set_backpressure(f, &bp);
    bp_room_of[0] = bp_room_of[2] = bp_room_of[3] = 1;
    bp_room_of[1] = room1;
    bp_ngot = bp_nflow = 0;
    assert_int_equal(fabric_send(f, 0, 0, a, la, &d), 0);
    assert_int_equal(fabric_send(f, 2, 100, c, lc, &d), 0);
    return f;
}

static void test_backpressure_blocks_the_path(void **st)
{
    struct topo *t = two_switches();
    struct fabric *f;
    struct fabric_counters cnt;
    uint64_t base, late = 1000000000;   /* node 1 arms a buffer 1 ms late */
    (void)st;

    /* unblocked: both delivered at once; node 2's packet waits only for
     * the tail of node 0's on the shared cable */
    f = bp_scenario(t, 1);
    assert_int_equal(bp_ngot, 2);
    assert_false(bp_got[0].held);
    assert_int_equal(bp_got[1].dst, 3);
    base = bp_got[1].head_ps;
    /* node 0's tail (2 route bytes, type, 1000 bytes) leaves the cable
     * at HOP + 1004 bytes; node 2's head then crosses switch 1 */
    assert_int_equal(base, HOP + (2 + 2 + 1000) * TM.byte_ps + HOP + TM.cable_ps);
    fabric_free(f);

    /* node 1 has no buffer armed: node 0's packet is held at its link and
     * keeps the shared cable busy, so node 2's packet (to an idle node)
     * waits in the network */
    f = bp_scenario(t, 0);
    assert_int_equal(bp_ngot, 1);
    assert_true(bp_got[0].held);
    assert_int_equal(bp_got[0].dst, 1);
    fabric_get_counters(f, &cnt);
    assert_int_equal(cnt.waiting, 2);
    /* node 1 takes it 1 ms after its head arrived: the worm moves on and
     * node 2's packet arrives exactly 1 ms later than unblocked */
    fabric_rx_done(f, 1, bp_got[0].id, bp_got[0].head_ps + late, false);
    assert_int_equal(bp_ngot, 2);
    assert_int_equal(bp_got[1].dst, 3);
    assert_false(bp_got[1].held);
    assert_int_equal(bp_got[1].head_ps, base + late);
    fabric_get_counters(f, &cnt);
    assert_int_equal(cnt.delivered, 2);     /* nothing lost */
    assert_int_equal(cnt.dropped, 0);
    assert_int_equal(cnt.held, 1);
    assert_int_equal(cnt.waiting, 0);
    fabric_free(f);

    /* node 1 never arms: at the time-out the held packet is dropped and
     * its path freed; node 2's packet goes on from then */
    f = bp_scenario(t, 0);
    uint64_t tdrop = bp_got[0].head_ps + 50 * late;
    fabric_rx_done(f, 1, bp_got[0].id, tdrop, true);
    assert_int_equal(bp_ngot, 2);
    assert_int_equal(bp_got[1].head_ps, tdrop + HOP + TM.cable_ps);
    fabric_get_counters(f, &cnt);
    assert_int_equal(cnt.timeouts, 1);
    assert_int_equal(cnt.dropped, 1);
    assert_int_equal(cnt.delivered, 1);
    fabric_free(f);
    topo_free(t);
}

/*
 * The sender's side of a held packet: node 0's 1000-byte packet is held
 * at node 1's link while most of it is still in node 0's NIC, so the STOP
 * that gets back to node 0 (over 3 cables and 2 switches) stops its link;
 * the GO after node 1 takes it gets back just as long after, and node 0's
 * engine then finishes the packet (its link is free) exactly as late as
 * the wait. A packet short enough to have left its sender before the STOP
 * comes back stops nothing.
 */
static void test_backpressure_stops_the_sender(void **st)
{
    struct topo *t = two_switches();
    struct fabric *f;
    uint64_t late = 1000000000, back, tail0;
    (void)st;

    f = bp_scenario(t, 0);
    back = fabric_flow_back_ps(f, 2);
    assert_int_equal(back, 3 * TM.cable_ps + 2 * TM.switch_ps);
    assert_int_equal(bp_nflow, 1);
    assert_int_equal(bp_flow[0].src, 0);
    assert_false(bp_flow[0].go);
    assert_int_equal(bp_flow[0].t, bp_got[0].head_ps + back);
    /* unblocked, node 0's tail (2 route bytes, type, 1000 bytes, CRC) would
     * have left its link at 1005 bytes */
    tail0 = (2 + 2 + 1000 + 1) * TM.byte_ps;
    assert_true(tail0 > bp_flow[0].t);
    assert_int_equal(fabric_tx_free(f, 0), 0);      /* not known yet: held */
    fabric_rx_done(f, 1, bp_got[0].id, bp_got[0].head_ps + late, false);
    assert_int_equal(bp_nflow, 2);
    assert_true(bp_flow[1].go);
    assert_int_equal(bp_flow[1].t, bp_got[0].head_ps + late + back);
    /* the work left at the STOP is done after the GO: late by the wait */
    assert_int_equal(fabric_tx_free(f, 0), tail0 + late);
    assert_int_equal(bp_flow[1].t + (tail0 - bp_flow[0].t), tail0 + late);
    fabric_free(f);

    /* dropped at the time-out: the GO comes back all the same */
    f = bp_scenario(t, 0);
    fabric_rx_done(f, 1, bp_got[0].id, bp_got[0].head_ps + 50 * late, true);
    assert_int_equal(bp_nflow, 2);
    assert_true(bp_flow[1].go);
    assert_int_equal(bp_flow[1].t, bp_got[0].head_ps + 50 * late + back);
    assert_int_equal(fabric_tx_free(f, 0), tail0 + 50 * late);
    fabric_free(f);

    /* node 2's packet, 1000 bytes this time, waits behind node 0's held
     * one for the shared cable (channel 1): the STOP gets back to node 2
     * over 2 cables and 1 switch after its head got there, the GO as long
     * after its head took the cable, and node 2's link is free after the
     * work it had left at the STOP */
    {
        struct fabric_bp bp = { .room = bp_room, .deliver = bp_deliver,
                                .tx_stop = bp_stop, .tx_go = bp_go };
        uint8_t a[2048], c[2048];
        size_t la = make_packet(t, 0, 1, 1, 1000, a), lc = make_packet(t, 2, 3, 1, 1000, c);
        uint64_t back1, ready, tail2, s1, go;
        f = fabric_new(t, &TM, 1);
        back1 = fabric_flow_back_ps(f, 1);
        fabric_set_backpressure(f, &bp);
        bp_room_of[1] = 0;
        bp_room_of[3] = 1;
        bp_ngot = bp_nflow = 0;
        assert_int_equal(fabric_send(f, 0, 0, a, la, &d), 0);
        assert_int_equal(fabric_send(f, 2, 100, c, lc, &d), 0);
        ready = 100 + HOP;
        tail2 = 100 + (lc + 1) * TM.byte_ps;
        assert_int_equal(bp_nflow, 2);
        assert_int_equal(bp_flow[1].src, 2);
        assert_false(bp_flow[1].go);
        assert_int_equal(bp_flow[1].t, ready + back1);
        fabric_rx_done(f, 1, bp_got[0].id, bp_got[0].head_ps + late, false);
        assert_int_equal(bp_ngot, 2);
        assert_int_equal(bp_nflow, 4);
        assert_int_equal(bp_flow[3].src, 2);
        assert_true(bp_flow[3].go);
        s1 = bp_got[1].head_ps - HOP - TM.cable_ps;     /* it took the cable then */
        go = s1 + back1;
        assert_int_equal(bp_flow[3].t, go);
        assert_true(s1 >= bp_got[0].head_ps + late);
        assert_int_equal(fabric_tx_free(f, 2), go + (tail2 - (ready + back1)));
        fabric_free(f);
    }

    /* a 10-byte packet held: out of its sender before the STOP is back */
    {
        struct fabric_bp bp = { .room = bp_room, .deliver = bp_deliver,
                                .tx_stop = bp_stop, .tx_go = bp_go };
        uint8_t c[64];
        size_t lc = make_packet(t, 0, 1, 1, 10, c);
        f = fabric_new(t, &TM, 1);
        fabric_set_backpressure(f, &bp);
        bp_room_of[1] = 0;
        bp_ngot = bp_nflow = 0;
        assert_int_equal(fabric_send(f, 0, 0, c, lc, &d), 0);
        assert_int_equal(bp_ngot, 1);
        assert_true(bp_got[0].held);
        assert_int_equal(bp_nflow, 0);
        assert_int_equal(fabric_tx_free(f, 0), (lc + 1) * TM.byte_ps);
        fabric_rx_done(f, 1, bp_got[0].id, bp_got[0].head_ps + late, false);
        assert_int_equal(bp_nflow, 0);
        fabric_free(f);
    }
    topo_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_hop_timing),
        cmocka_unit_test(test_contention_on_output_port),
        cmocka_unit_test(test_blocked_packet_holds_its_input),
        cmocka_unit_test(test_multi_hop_cut_through),
        cmocka_unit_test(test_route_errors),
        cmocka_unit_test(test_time_order_enforced),
        cmocka_unit_test(test_faults),
        cmocka_unit_test(test_probabilistic_faults_are_seeded),
        cmocka_unit_test(test_fault_rule_errors),
        cmocka_unit_test(test_pcap_trace),
        cmocka_unit_test(test_backpressure_blocks_the_path),
        cmocka_unit_test(test_backpressure_stops_the_sender),
    };
    return cmocka_run_group_tests_name("fabric", tests, NULL, NULL);
}
