/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Switch multicast in the fabric model (lanai-emu/fabric/fabric.h,
 * "Switch multicast"; docs/fabric.md): copies' arrival times computed by
 * hand against unicast's, a copy contending for a busy port as a unicast
 * packet does, back-pressure on one branch that holds only that branch,
 * drops at an empty or stale entry (counted, logged, in the pcap), fault
 * rules on the sender's packet and on each copy, the table's bound, and
 * an entry changed by its switch's management agent only after its
 * processing time. The tables are written only through
 * SW_SET packets to the switches' management ports, as the management
 * entity does.
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
#include "nicoll/nc_endian.h"
#include "nicoll/nc_mgmt.h"

static const struct fabric_timing TM = { 4000, 5000, 150000 };
#define HOP (TM.cable_ps + TM.byte_ps + TM.switch_ps)
#define MCHOP (TM.cable_ps + 2 * TM.byte_ps + TM.switch_ps)
#define US 1000000ull

/*
 * Two 8-port switches a (0) and b (1) joined by their ports 2; nodes 0, 2
 * and 4 on a's ports 0, 1, 3; nodes 1, 3 and 5 on b's ports 0, 1, 3. Node
 * 4 plays the management entity: it writes the tables.
 */
static struct topo *two_switches(void)
{
    char err[200];
    struct topo *t = topo_new();
    assert_int_equal(topo_add_switch(t, "a", 8, err, sizeof err), 0);
    assert_int_equal(topo_add_switch(t, "b", 8, err, sizeof err), 0);
    assert_int_equal(topo_link(t, 0, 2, 1, 2, err, sizeof err), 0);
    assert_int_equal(topo_attach_node(t, 0, 0, 0, err, sizeof err), 0);
    assert_int_equal(topo_attach_node(t, 2, 0, 1, err, sizeof err), 0);
    assert_int_equal(topo_attach_node(t, 4, 0, 3, err, sizeof err), 0);
    assert_int_equal(topo_attach_node(t, 1, 1, 0, err, sizeof err), 0);
    assert_int_equal(topo_attach_node(t, 3, 1, 1, err, sizeof err), 0);
    assert_int_equal(topo_attach_node(t, 5, 1, 3, err, sizeof err), 0);
    assert_int_equal(topo_finish(t, err, sizeof err), 0);
    return t;
}

static struct fabric_delivery got[32];
static unsigned ngot, room_of[6], nstop;

static unsigned room(void *o, unsigned dst)
{
    (void)o;
    return room_of[dst];
}

static void deliver(void *o, const struct fabric_delivery *dd)
{
    (void)o;
    assert_true(ngot < 32);
    got[ngot++] = *dd;
}

static void tx_stop(void *o, unsigned src, uint64_t t)
{
    (void)o;
    (void)src;
    (void)t;
    nstop++;
}

/* A fabric whose copies come to deliver(); with bp, back-pressure on. */
static struct fabric *mk(struct topo *t, bool bp)
{
    struct fabric *f = fabric_new(t, &TM, 1);
    struct fabric_bp b = { .room = bp ? room : NULL, .deliver = deliver, .tx_stop = tx_stop };

    for (unsigned i = 0; i < 6; i++)
        room_of[i] = 1;
    ngot = nstop = 0;
    fabric_set_backpressure(f, &b);
    return f;
}

/* The delivery to node n (NULL: none). */
static const struct fabric_delivery *to(unsigned n)
{
    const struct fabric_delivery *r = NULL;
    for (unsigned i = 0; i < ngot; i++)
        if (got[i].dst == n && got[i].type != NC_PT_SW_SET_ACK) {
            assert_null(r);     /* exactly one copy */
            r = &got[i];
        }
    return r;
}

/* Node 4 writes switch sw's entry for group at t and the fabric runs
 * until the agent's answer is back; returns the answer's status. */
static unsigned program(struct fabric *f, uint64_t t, unsigned sw, unsigned group,
                        uint32_t ports)
{
    uint8_t pkt[64] = { 0 };
    size_t n = 0;
    struct fabric_delivery out;
    unsigned before = ngot;

    if (sw == 1)
        pkt[n++] = 0x82;
    pkt[n++] = NC_ROUTE_MGMT;
    uint8_t *b = pkt + n;
    nc_put_be16(b + offsetof(struct nc_mgmt, type), NC_PT_SW_SET);
    nc_put_be16(b + offsetof(struct nc_mgmt, src), 4);
    nc_put_be32(b + offsetof(struct nc_mgmt, tid), 77);
    nc_put_be16(b + offsetof(struct nc_mgmt, group), (uint16_t)group);
    nc_put_be32(b + offsetof(struct nc_mgmt, ports), ports);
    unsigned r = 0;
    if (sw == 1)
        b[offsetof(struct nc_mgmt, route) + r++] = 0x82;
    b[offsetof(struct nc_mgmt, route) + r++] = 0x83;
    b[offsetof(struct nc_mgmt, nroute)] = (uint8_t)r;
    assert_int_equal(fabric_send(f, 4, t, pkt, n + NC_MGMT_LEN, &out), 0);
    fabric_run_until(f, UINT64_MAX);
    for (unsigned i = before; i < ngot; i++)
        if (got[i].type == NC_PT_SW_SET_ACK) {
            assert_int_equal(got[i].dst, 4);
            assert_int_equal(nc_get_be32(got[i].data + offsetof(struct nc_mgmt, tid)), 77);
            unsigned st = nc_get_be16(got[i].data + offsetof(struct nc_mgmt, status));
            got[i] = got[--ngot];
            return st;
        }
    fail_msg("no answer from switch %u", sw);
    return 99;
}

/* Group g to nodes 0..3: a holds ports 0, 1, 2; b holds 0, 1, 2. */
static void program_all(struct fabric *f, unsigned g)
{
    assert_int_equal(program(f, 0, 0, g, 0x7), NC_MG_OK);
    assert_int_equal(program(f, 100 * US, 1, g, 0x7), NC_MG_OK);
}

static size_t mcast(unsigned g, size_t payload, uint8_t *pkt)
{
    size_t n = 0;
    pkt[n++] = (uint8_t)(NC_ROUTE_MCAST | g >> 8);
    pkt[n++] = (uint8_t)g;
    pkt[n++] = 0x0A;
    pkt[n++] = 0x18;
    for (size_t i = 0; i < payload; i++)
        pkt[n++] = (uint8_t)(i * 13);
    return n;
}

static void test_replication_timing(void **st)
{
    struct topo *t = two_switches();
    struct fabric *f = mk(t, false);
    struct fabric_delivery out;
    struct fabric_mc_counters c;
    uint8_t pkt[256];
    size_t len = mcast(7, 100, pkt);            /* 2 + 2 + 100 bytes */
    const uint64_t T0 = 1000 * US;
    (void)st;

    program_all(f, 7);
    ngot = 0;
    assert_int_equal(fabric_send(f, 0, T0, pkt, len, &out), 0);
    assert_false(out.delivered);                /* the copies come to deliver() */
    assert_int_equal(ngot, 3);
    assert_null(to(0));                         /* not back to the sender */
    assert_null(to(4));
    assert_null(to(5));
    /* node 2, on the sender's switch: one switch, which reads both group
     * bytes (one more than a unicast route byte); the NIC gets the packet
     * from its type on */
    const struct fabric_delivery *d2 = to(2), *d1 = to(1), *d3 = to(3);
    assert_non_null(d2);
    assert_int_equal(d2->head_ps, T0 + MCHOP + TM.cable_ps);
    assert_int_equal(d2->head_ps, T0 + HOP + TM.cable_ps + TM.byte_ps);
    assert_int_equal(d2->len, len - 2);
    assert_memory_equal(d2->data, pkt + 2, len - 2);
    assert_int_equal(d2->type, 0x0A18);
    assert_true(d2->crc_ok);
    assert_int_equal(d2->tail_ps, d2->head_ps + (len - 2 + 1) * TM.byte_ps);
    assert_int_equal(d2->hops, 1);
    /* nodes 1 and 3 over the cable: two switches */
    assert_non_null(d1);
    assert_non_null(d3);
    assert_int_equal(d1->head_ps, T0 + 2 * MCHOP + TM.cable_ps);
    assert_int_equal(d3->head_ps, d1->head_ps);
    assert_int_equal(d1->tail_ps, d1->head_ps + (len - 2 + 1) * TM.byte_ps);
    assert_int_equal(d1->hops, 2);
    /* the sender's link carries the packet once */
    assert_int_equal(fabric_tx_free(f, 0), T0 + (len + 1) * TM.byte_ps);
    fabric_get_mc_counters(f, &c);
    assert_int_equal(c.copies, 3);
    assert_int_equal(c.dropped, 0);
    fabric_free(f);
    topo_free(t);
}

/* A copy whose output port is busy waits for it, as a unicast packet. */
static void test_contention_as_unicast(void **st)
{
    struct topo *t = two_switches();
    struct fabric *f = mk(t, false);
    struct fabric_delivery out;
    uint8_t pkt[256], u[2048];
    size_t len = mcast(7, 100, pkt), ul = 0;
    const uint64_t T0 = 1000 * US;
    (void)st;

    program_all(f, 7);
    ngot = 0;
    /* node 4 -> node 2, 1000 bytes: holds a's port 1 */
    u[ul++] = 0x81;
    u[ul++] = 0x0A;
    u[ul++] = 0x01;
    memset(u + ul, 0x5A, 1000);
    ul += 1000;
    assert_int_equal(fabric_send(f, 4, T0, u, ul, &out), 0);
    assert_true(out.delivered);
    uint64_t port_free = T0 + HOP + (ul - 1 + 1) * TM.byte_ps;
    assert_int_equal(out.tail_ps, T0 + HOP + TM.cable_ps + (ul - 1 + 1) * TM.byte_ps);
    assert_int_equal(fabric_send(f, 0, T0, pkt, len, &out), 0);
    assert_int_equal(ngot, 3);
    /* node 2's copy starts when the port is free; the others do not wait */
    assert_int_equal(to(2)->head_ps, port_free + TM.cable_ps);
    assert_int_equal(to(1)->head_ps, T0 + 2 * MCHOP + TM.cable_ps);
    struct fabric_counters c;
    fabric_get_counters(f, &c);
    assert_int_equal(c.blocked_ps, port_free - (T0 + MCHOP));
    fabric_free(f);
    topo_free(t);
}

/* Node 1 has no buffer: its copy is held at its link with its branch
 * busy; the other copies arrive on time, the sender is not stopped, and a
 * packet needing the held branch waits exactly as long as the copy. */
static void test_backpressure_on_one_branch(void **st)
{
    struct topo *t = two_switches();
    struct fabric *f = mk(t, true);
    struct fabric_delivery out;
    struct fabric_counters c;
    uint8_t pkt[2048], u[64];
    size_t len = mcast(7, 1000, pkt), ul = 0;
    const uint64_t T0 = 1000 * US, late = 1000 * US;
    (void)st;

    program_all(f, 7);
    ngot = 0;
    room_of[1] = 0;
    assert_int_equal(fabric_send(f, 0, T0, pkt, len, &out), 0);
    assert_int_equal(ngot, 3);
    assert_true(to(1)->held);
    assert_false(to(2)->held);
    assert_false(to(3)->held);
    assert_int_equal(to(3)->head_ps, T0 + 2 * MCHOP + TM.cable_ps);
    assert_int_equal(nstop, 0);                 /* the switch buffers the packet */
    assert_int_equal(fabric_tx_free(f, 0), T0 + (len + 1) * TM.byte_ps);
    uint64_t id1 = to(1)->id, head1 = to(1)->head_ps;
    /* node 5 -> node 1 (b's port 0): waits behind the held copy */
    u[ul++] = 0x80;
    u[ul++] = 0x0A;
    u[ul++] = 0x01;
    ul += 10;
    uint64_t t5 = T0 + 10 * US;
    assert_int_equal(fabric_send(f, 5, t5, u, ul, &out), 0);
    assert_int_equal(ngot, 4);
    assert_int_equal(got[3].dst, 1);
    assert_true(got[3].held);                   /* in node 1's queue, behind the copy */
    uint64_t id5 = got[3].id;
    fabric_get_counters(f, &c);
    assert_int_equal(c.waiting, 2);
    /* node 0's next packet, to node 2, is not held up by node 1's branch */
    uint8_t v[64] = { 0x81, 0x0A, 0x01 };
    assert_int_equal(fabric_send(f, 0, T0 + 20 * US, v, 13, &out), 0);
    assert_int_equal(got[ngot - 1].dst, 2);
    assert_false(got[ngot - 1].held);
    assert_int_equal(got[ngot - 1].head_ps, T0 + 20 * US + HOP + TM.cable_ps);
    /* node 1 takes the copy 1 ms late, then node 5's packet */
    fabric_rx_done(f, 1, id1, head1 + late, false);
    fabric_get_counters(f, &c);
    assert_int_equal(c.waiting, 1);
    fabric_rx_done(f, 1, id5, head1 + late + 1 * US, false);
    fabric_get_counters(f, &c);
    assert_int_equal(c.waiting, 0);
    assert_int_equal(c.dropped, 0);
    fabric_free(f);
    topo_free(t);
}

/* A switch's replication buffer holds mc_buffer held branches: with one,
 * b holds the copy node 1 has no room for, and the next packet for the
 * group is dropped at b (counted as buf_full, logged) while a still
 * replicates it to node 2; once node 1 takes its copy, b has room again. */
static void test_replication_buffer_bound(void **st)
{
    struct topo *t = two_switches();
    struct fabric *f = mk(t, true);
    struct fabric_switch_mgmt m = { .entries = FABRIC_MCAST_ENTRIES,
                                    .agent_ps = FABRIC_AGENT_PS, .mc_buffer = 1 };
    struct fabric_delivery out;
    struct fabric_mc_counters c;
    uint8_t pkt[2048];
    size_t len = mcast(7, 100, pkt);
    const uint64_t T0 = 1000 * US;
    char lb[1024] = "";
    FILE *log = fmemopen(lb, sizeof lb - 1, "w");
    (void)st;

    assert_int_equal(fabric_set_switch_mgmt(f, &m), 0);
    fabric_set_fault_log(f, log);
    program_all(f, 7);
    ngot = 0;
    room_of[1] = 0;
    assert_int_equal(fabric_send(f, 0, T0, pkt, len, &out), 0);
    assert_int_equal(ngot, 3);
    assert_true(to(1)->held);
    uint64_t id1 = to(1)->id, head1 = to(1)->head_ps;
    ngot = 0;
    assert_int_equal(fabric_send(f, 0, T0 + 20 * US, pkt, len, &out), 0);
    assert_int_equal(ngot, 1);                  /* node 2 only: b's buffer is full */
    assert_non_null(to(2));
    fabric_get_mc_counters(f, &c);
    assert_int_equal(c.dropped, 1);
    assert_int_equal(c.buf_full, 1);
    fflush(log);
    assert_non_null(strstr(lb, "dropped at switch b: the switch's replication buffer is full"));
    /* node 1 takes its copy: b replicates the next packet to both its nodes */
    room_of[1] = 1;
    fabric_rx_done(f, 1, id1, head1 + 100 * US, false);
    ngot = 0;
    assert_int_equal(fabric_send(f, 0, T0 + 200 * US, pkt, len, &out), 0);
    assert_int_equal(ngot, 3);
    assert_false(to(1)->held);
    fabric_get_mc_counters(f, &c);
    assert_int_equal(c.buf_full, 1);
    fabric_free(f);
    fclose(log);
    topo_free(t);
}

static char logbuf[4096];

/* An entry that is missing, lacks the input port, or holds no other port
 * drops the packet at that switch: counted, logged, a pcap record with
 * status 3 that shows the packet as sent (the group). */
static void test_empty_and_stale_entries_drop(void **st)
{
    struct topo *t = two_switches();
    struct fabric *f = mk(t, false);
    struct fabric_delivery out;
    struct fabric_mc_counters c;
    char err[PCAP_ERRBUF_SIZE], path[] = "/tmp/nicoll-swmcast-XXXXXX";
    uint8_t pkt[256];
    size_t len;
    FILE *log = fmemopen(logbuf, sizeof logbuf, "w");
    int fd = mkstemp(path);
    (void)st;
    close(fd);
    assert_int_equal(fabric_open_pcap(f, path, err, sizeof err), 0);
    fabric_set_fault_log(f, log);
    assert_int_equal(program(f, 0, 0, 9, 0x5), NC_MG_OK);      /* a: 0 and 2 */
    assert_int_equal(program(f, 100 * US, 1, 8, 0x3), NC_MG_OK); /* b: 0 and 1 */
    assert_int_equal(program(f, 200 * US, 0, 8, 0x5), NC_MG_OK); /* a: 0 and 2 */
    assert_int_equal(program(f, 300 * US, 0, 6, 0x1), NC_MG_OK); /* a: 0 only */
    ngot = 0;
    /* group 5: no entry at a */
    len = mcast(5, 20, pkt);
    assert_int_equal(fabric_send(f, 0, 1000 * US, pkt, len, &out), 0);
    /* group 9: a forwards to b, which has no entry */
    len = mcast(9, 20, pkt);
    assert_int_equal(fabric_send(f, 0, 1100 * US, pkt, len, &out), 0);
    /* group 8: b's entry does not hold the port it comes in on (2) */
    len = mcast(8, 20, pkt);
    assert_int_equal(fabric_send(f, 0, 1200 * US, pkt, len, &out), 0);
    /* group 6: a's entry holds only the sender's port */
    len = mcast(6, 20, pkt);
    assert_int_equal(fabric_send(f, 0, 1300 * US, pkt, len, &out), 0);
    assert_int_equal(ngot, 0);
    fabric_get_mc_counters(f, &c);
    assert_int_equal(c.dropped, 4);
    assert_int_equal(c.copies, 0);
    fflush(log);
    assert_non_null(strstr(logbuf, "group 5 dropped at switch a: no entry for the group"));
    assert_non_null(strstr(logbuf, "group 9 dropped at switch b: no entry for the group"));
    assert_non_null(strstr(logbuf, "group 8 dropped at switch b: the entry does not hold"));
    assert_non_null(strstr(logbuf, "group 6 dropped at switch a: the entry holds no other"));
    /* clearing an entry (ports 0) frees its slot; the group is dropped */
    assert_int_equal(fabric_mcast_used(f, 0), 3);
    assert_int_equal(program(f, 2000 * US, 0, 9, 0), NC_MG_OK);
    assert_int_equal(fabric_mcast_used(f, 0), 2);
    assert_int_equal(fabric_mcast_entry(f, 0, 9), 0);
    fabric_free(f);
    fclose(log);

    pcap_t *p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, err);
    struct pcap_pkthdr *h;
    const u_char *data;
    unsigned drops = 0, mgmt_in = 0, mgmt_out = 0;
    assert_non_null(p);
    while (pcap_next_ex(p, &h, &data) == 1) {
        unsigned src = data[2] << 8 | data[3], dst = data[4] << 8 | data[5];
        if (data[6] == 3) {
            drops++;
            assert_int_equal(dst, 0xFFFF);
            assert_int_equal(src, 0);
            assert_int_equal(data[32] & 0xC0, 0xC0);     /* the multicast destination */
        } else if (dst >= FABRIC_SWITCH_SRC && dst != 0xFFFF) {
            mgmt_in++;
            assert_int_equal(data[6], 0);
        } else if (src >= FABRIC_SWITCH_SRC) {
            mgmt_out++;
            assert_int_equal(dst, 4);
        }
    }
    pcap_close(p);
    unlink(path);
    assert_int_equal(drops, 4);
    assert_int_equal(mgmt_in, 5);
    assert_int_equal(mgmt_out, 5);
    topo_free(t);
}

/* Fault rules on multicast: a corrupt rule flips one bit of the copy to
 * the receiver it names (only its CRC check fails); drop and delay rules
 * that name a receiver act on that receiver's copy alone; rules that name
 * only the sender drop or delay the whole packet at the sender, once; a
 * corrupt rule that names no node counts copies (nth=2: the second copy
 * made). */
static void test_faults_on_copies(void **st)
{
    struct topo *t = two_switches();
    struct fabric *f = mk(t, false);
    struct fabric_delivery out;
    struct fabric_counters c;
    struct fabric_mc_counters mc;
    uint8_t pkt[256];
    size_t len = mcast(7, 100, pkt);
    const uint64_t T0 = 1000 * US;
    char err[200], lb[2048] = "";
    FILE *log = fmemopen(lb, sizeof lb - 1, "w");
    (void)st;

    fabric_set_fault_log(f, log);
    assert_int_equal(fabric_add_fault(f, "corrupt:node=3,dir=rx", err, sizeof err), 0);
    assert_int_equal(fabric_add_fault(f, "drop:node=1,dir=rx,nth=1", err, sizeof err), 0);
    assert_int_equal(fabric_add_fault(f, "delay:node=2,dir=any,delay=5us", err, sizeof err), 0);
    program_all(f, 7);
    ngot = 0;
    assert_int_equal(fabric_send(f, 0, T0, pkt, len, &out), 0);
    assert_int_equal(ngot, 2);                  /* node 1's copy dropped */
    assert_null(to(1));
    assert_true(to(2)->crc_ok);
    assert_int_equal(to(2)->head_ps, T0 + MCHOP + TM.cable_ps + 5 * US);
    assert_false(to(3)->crc_ok);
    unsigned bits = 0;
    for (size_t i = 0; i < len - 2; i++)
        bits += (unsigned)__builtin_popcount(to(3)->data[i] ^ pkt[2 + i]);
    assert_int_equal(bits, 1);
    fabric_get_counters(f, &c);
    assert_int_equal(c.corrupted, 1);
    fabric_get_mc_counters(f, &mc);
    assert_int_equal(mc.dropped, 1);
    /* the next packet: node 1's copy arrives (nth=1 has fired), intact */
    ngot = 0;
    assert_int_equal(fabric_send(f, 0, T0 + 100 * US, pkt, len, &out), 0);
    assert_int_equal(ngot, 3);
    assert_true(to(1)->crc_ok);
    assert_false(to(3)->crc_ok);
    fflush(log);
    assert_non_null(strstr(lb, "drop (multicast copy) packet 0 -> 1 type 0x0a18"));
    assert_non_null(strstr(lb, "corrupt (multicast copy) packet 0 -> 3 type 0x0a18"));
    assert_non_null(strstr(lb, "delay (multicast copy) packet 0 -> 2 type 0x0a18"));
    fabric_free(f);
    fclose(log);

    /* a rule that names only the sender drops the whole packet there */
    f = mk(t, false);
    assert_int_equal(fabric_add_fault(f, "drop:node=0,dir=tx,type=0x0a18,nth=1", err, sizeof err),
                     0);
    assert_int_equal(fabric_add_fault(f, "corrupt:type=0x0a18,nth=2", err, sizeof err), 0);
    assert_int_equal(fabric_add_fault(f, "delay:node=0,dir=tx,delay=3us", err, sizeof err), 0);
    program_all(f, 7);
    ngot = 0;
    assert_int_equal(fabric_send(f, 0, T0, pkt, len, &out), 0);
    assert_int_equal(ngot, 0);
    fabric_get_counters(f, &c);
    assert_int_equal(c.dropped, 1);
    /* the next one goes; of its copies to NICs (node 2's at a, then node
     * 1's and node 3's at b) the second is the one corrupted */
    assert_int_equal(fabric_send(f, 0, T0 + 100 * US, pkt, len, &out), 0);
    assert_int_equal(ngot, 3);
    assert_true(to(2)->crc_ok);
    assert_false(to(1)->crc_ok);
    assert_true(to(3)->crc_ok);
    /* the sender's delay once, on the whole packet */
    assert_int_equal(to(2)->head_ps, T0 + 100 * US + MCHOP + TM.cable_ps + 3 * US);
    fabric_free(f);
    topo_free(t);
}

/* A switch's table holds 'entries' groups: one more is refused with
 * NC_MG_EFULL until an entry is cleared. */
static void test_table_bound(void **st)
{
    struct topo *t = two_switches();
    struct fabric *f = mk(t, false);
    struct fabric_switch_mgmt m = { .entries = 4, .agent_ps = FABRIC_AGENT_PS };
    struct fabric_mc_counters c;
    (void)st;

    assert_int_equal(fabric_set_switch_mgmt(f, &m), 0);
    for (unsigned g = 0; g < 4; g++)
        assert_int_equal(program(f, g * 100 * US, 0, 100 + g, 0x7), NC_MG_OK);
    assert_int_equal(fabric_mcast_used(f, 0), 4);
    assert_int_equal(program(f, 500 * US, 0, 200, 0x7), NC_MG_EFULL);
    assert_int_equal(fabric_mcast_entry(f, 0, 200), 0);
    /* rewriting an existing entry needs no new slot */
    assert_int_equal(program(f, 600 * US, 0, 101, 0x3), NC_MG_OK);
    assert_int_equal(fabric_mcast_entry(f, 0, 101), 0x3);
    assert_int_equal(program(f, 700 * US, 0, 102, 0), NC_MG_OK);
    assert_int_equal(program(f, 800 * US, 0, 200, 0x7), NC_MG_OK);
    assert_int_equal(fabric_mcast_used(f, 0), 4);
    assert_int_equal(fabric_mcast_entry(f, 0, 103), 0x7);
    fabric_get_mc_counters(f, &c);
    assert_int_equal(c.mgmt_full, 1);
    /* the bound is checked */
    m.entries = 0;
    assert_int_equal(fabric_set_switch_mgmt(f, &m), -1);
    fabric_free(f);
    topo_free(t);
}

/* While an entry changes: a packet that the switch's agent has received
 * but not yet carried out (agent_ps) leaves the old entry in use; the
 * agent carries requests out one at a time. */
static void test_entry_changes_after_the_agent(void **st)
{
    struct topo *t = two_switches();
    struct fabric *f = mk(t, false);
    struct fabric_delivery out;
    uint8_t pkt[256], sw[64] = { 0 };
    size_t len = mcast(7, 20, pkt);
    (void)st;

    program_all(f, 7);
    ngot = 0;
    /* node 4 asks a to drop port 1 (node 2) from group 7 at 1 ms */
    size_t n = 0;
    sw[n++] = NC_ROUTE_MGMT;
    nc_put_be16(sw + n + offsetof(struct nc_mgmt, type), NC_PT_SW_SET);
    nc_put_be32(sw + n + offsetof(struct nc_mgmt, ports), 0x5);
    nc_put_be16(sw + n + offsetof(struct nc_mgmt, group), 7);
    sw[n + offsetof(struct nc_mgmt, nroute)] = 1;
    sw[n + offsetof(struct nc_mgmt, route)] = 0x83;
    assert_int_equal(fabric_send(f, 4, 1000 * US, sw, n + NC_MGMT_LEN, &out), 0);
    assert_true(out.delivered);
    assert_int_equal(out.dst, FABRIC_SWITCH_SRC | 0);
    uint64_t done = out.tail_ps + FABRIC_AGENT_PS;
    assert_int_equal(fabric_next_event(f), done);
    /* before the agent is done: the old entry, node 2 gets a copy */
    assert_int_equal(fabric_send(f, 0, done - 2 * US, pkt, len, &out), 0);
    assert_non_null(to(2));
    assert_non_null(to(1));
    ngot = 0;
    /* after: the new one */
    assert_int_equal(fabric_send(f, 0, done + 1 * US, pkt, len, &out), 0);
    assert_null(to(2));
    assert_non_null(to(1));
    assert_non_null(to(3));
    assert_int_equal(fabric_mcast_entry(f, 0, 7), 0x5);
    fabric_free(f);
    topo_free(t);
}

/* Bad requests at a management port: unanswerable ones are dropped and
 * counted; a bad field is answered NC_MG_EINVAL; and a multicast packet
 * needs a deliver callback. */
static void test_bad_requests(void **st)
{
    struct topo *t = two_switches();
    struct fabric *f = mk(t, false);
    struct fabric_delivery out;
    struct fabric_mc_counters c;
    uint8_t pkt[64] = { NC_ROUTE_MGMT, 0x0A, 0x38 };
    (void)st;

    assert_int_equal(fabric_send(f, 4, 0, pkt, 10, &out), 0);        /* too short */
    assert_int_equal(program(f, 10 * US, 0, 0x3FFF, 0x7), NC_MG_EINVAL);
    assert_int_equal(program(f, 20 * US, 0, 3, 0x100), NC_MG_EINVAL); /* port 8 of 8 */
    fabric_get_mc_counters(f, &c);
    assert_int_equal(c.mgmt_bad, 1);
    assert_int_equal(c.mgmt_in, 3);
    assert_int_equal(fabric_mcast_used(f, 0), 0);
    fabric_free(f);

    f = fabric_new(t, &TM, 1);
    pkt[0] = 0xC0;
    assert_int_equal(fabric_send(f, 0, 0, pkt, 10, &out), -1);
    assert_non_null(strstr(out.why, "deliver callback"));
    fabric_free(f);
    topo_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replication_timing),
        cmocka_unit_test(test_contention_as_unicast),
        cmocka_unit_test(test_backpressure_on_one_branch),
        cmocka_unit_test(test_replication_buffer_bound),
        cmocka_unit_test(test_empty_and_stale_entries_drop),
        cmocka_unit_test(test_table_bound),
        cmocka_unit_test(test_entry_changes_after_the_agent),
        cmocka_unit_test(test_bad_requests),
        cmocka_unit_test(test_faults_on_copies),
    };
    return cmocka_run_group_tests_name("swmcast", tests, NULL, NULL);
}
