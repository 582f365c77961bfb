/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host program of tests/mcast/swgroup: switch multicast through the real
 * MCP (firmware/coll/group.c) and libnicoll's nc_mg_* and nc_gsend, on
 * port PORT of every node, the management entity on node SM (lanai-run
 * --sm-node SM).
 *
 *   group SM MEMBERS COUNT LEN [leave|burst]
 *     Node 0 creates a group, tells nodes 1..MEMBERS-1 its id by unicast,
 *     and each joins it. Node 0 then tests it: a probe by nc_gsend every
 *     PROBE_NS until every member answered one by unicast nc_send; then
 *     COUNT data packets of LEN bytes (each after the last one's SENT), one
 *     to port PORT + 1 (open nowhere: dropped and counted at every member)
 *     and an end marker. Each member checks every packet's group, source
 *     and payload, counts each data packet once, and reads its NIC's
 *     counters. With "leave" node MEMBERS-1 leaves after COUNT packets and
 *     tells node 0, which waits 1 ms and sends COUNT more: nothing may
 *     reach the leaver in the 3 ms after its answer. With "burst" node 0
 *     posts the COUNT data packets at once (each from its own buffer), so
 *     that most wait on its NIC for a send buffer. With "nicvm" (two members)
 *     both nodes also hold NICVM's no-op module and node 0, in each of
 *     COUNT rounds, posts NV_SENDS NICVM messages of NV_LEN bytes to node 1
 *     (every buffer NICVM has for host packets) and GROUP_SENDS group
 *     packets at once: the two plug-ins' SRAM in use together, each
 *     packet checked at node 1.
 *   exhaust SM: node 0 creates groups until one is refused.
 *   bad SM: node 0's bad requests, each with its clear error.
 *
 * Every wait is bounded; each node prints one line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/hostif.h"
#include "nicoll/nc_abi.h"
#include "nicoll/nc_mgmt.h"
#include "nicoll.h"
#include "../lib/open_port.h"

#define PORT     2u
#define RBUFS    16u
#define MAXLEN   NC_ABI_GRP_MAX
#define MAXSEQ   256u
#define BURST    14u            /* packets posted at once: within the 16 send tokens */
#define PROBE_NS 50000u         /* the test's choice, as tests/myrinet/swmc's */
#define WAIT_NS  50000000ull    /* the longest any step may take: 50 ms */
#define NV_SENDS 8u             /* NICVM's own buffers for host packets (firmware/coll/nicvm.c) */
#define NV_LEN   NC_NICVM_PAYLOAD_MAX
#define GROUP_SENDS 4u          /* with NV_SENDS, within the port's 16 send tokens */

static const char noop[] = "func main()\n    return NICVM_RESULT_SUCCESS;\nend func;\n";

static nc_port *p;

static uint8_t pattern(unsigned seq, unsigned i) { return (uint8_t)(seq * 13 + i * 7 + 1); }

/* The next event within ns; NC_ETIMEDOUT if none. */
static int next(nc_event *ev, uint64_t ns)
{
    return nc_wait(p, ev, ns);
}

/* The answer to tid: other events meanwhile are receives given back. */
static int answer(uint32_t tid, nc_event *ev)
{
    uint64_t t0 = nc_host_now_ns();

    while (nc_host_now_ns() - t0 < WAIT_NS) {
        if (next(ev, WAIT_NS) != NC_OK)
            break;
        if (ev->type == NC_EVENT_MG && ev->tid == tid)
            return 0;
        if (ev->type == NC_EVENT_RECV)
            nc_provide_recv(p, ev->buf, MAXLEN, NULL);
    }
    return -1;
}

/* Post a gsend and wait for its SENT. */
static int gsend(uint32_t group, unsigned port, const void *buf, size_t len)
{
    nc_event ev;
    int rc = nc_gsend(p, group, port, buf, len, NULL);

    if (rc)
        return rc;
    while (next(&ev, WAIT_NS) == NC_OK) {
        if (ev.type == NC_EVENT_SENT)
            return ev.status == NC_OK && ev.group == group ? 0 : -100 + ev.status;
        if (ev.type == NC_EVENT_RECV)
            nc_provide_recv(p, ev.buf, MAXLEN, NULL);
    }
    return -200;
}

static void fill(uint8_t *b, unsigned seq, size_t len)
{
    b[0] = 'D';
    b[1] = (uint8_t)seq;
    for (size_t i = 2; i < len; i++)
        b[i] = pattern(seq, (unsigned)i);
}

/* The no-op module on this node's NIC, rank me of nodes 0 and 1. */
static int add_noop(unsigned me)
{
    nc_member ranks[2] = { { .node = 0, .port = PORT }, { .node = 1, .port = PORT } };
    nc_nicvm_verdict v;
    int rc = nc_nicvm_add(p, "noop", noop, sizeof noop - 1, ranks, 2, me, &v);

    if (rc)
        nc_host_printf("FAIL node %u: add noop: %s %s\n", me, nc_strerror(rc), v.error);
    return rc;
}

/* COUNT rounds of NV_SENDS NICVM messages and GROUP_SENDS group packets
 * posted at once; the packets sent without error. */
static unsigned rounds_nicvm(uint32_t g, unsigned count, size_t len)
{
    uint8_t *nb = region(p, NV_SENDS * NV_LEN), *gb = region(p, GROUP_SENDS * len);
    unsigned sent = 0;
    nc_event ev;

    for (unsigned r = 0; r < count; r++) {
        unsigned posted = 0;

        for (unsigned i = 0; i < NV_SENDS; i++) {
            fill(nb + i * NV_LEN, r * NV_SENDS + i, NV_LEN);
            nb[i * NV_LEN] = 'N';
            posted += nc_nicvm_send(p, "noop", 1, nb + i * NV_LEN, NV_LEN, NULL) == 0;
        }
        for (unsigned i = 0; i < GROUP_SENDS; i++) {
            fill(gb + i * len, r * GROUP_SENDS + i, len);
            posted += nc_gsend(p, g, PORT, gb + i * len, len, NULL) == 0;
        }
        while (posted && next(&ev, WAIT_NS) == NC_OK)
            if (ev.type == NC_EVENT_SENT || ev.type == NC_EVENT_NICVM) {
                posted--;
                sent += ev.status == NC_OK;
            }
    }
    return sent;
}

static int creator(unsigned sm, unsigned members, unsigned count, size_t len, bool leave,
                   bool burst, bool nicvm)
{
    uint8_t *b = region(p, MAXLEN), *r = region(p, RBUFS * 64);
    uint32_t answered = 0, want = 0, g, probes = 0;
    uint64_t t0, t_created, t_ready;
    unsigned sent = 0;
    nc_event ev;

    for (unsigned i = 0; i < RBUFS; i++)
        nc_provide_recv(p, r + 64 * i, 64, NULL);
    t0 = nc_host_now_ns();
    if (nc_mg_create(p, sm, 0xC0DE0000u) || answer(0xC0DE0000u, &ev)) {
        nc_host_printf("creator FAIL no answer to the create\n");
        return 1;
    }
    t_created = nc_host_now_ns();
    g = ev.group;
    nc_host_printf("creator created status=%d mg_status=%u op=%u group=%u entity=%u "
                   "after_us=%llu\n", ev.status, ev.mg_status, ev.mg_op, g, ev.node,
                   (unsigned long long)(t_created - t0) / 1000);
    if (ev.status || ev.mg_status)
        return 1;
    memcpy(b, &g, sizeof g);
    for (unsigned i = 1; i < members; i++) {
        want |= 1u << i;
        if (nc_send(p, i, PORT, b, sizeof g, NULL) || next(&ev, WAIT_NS) || ev.status) {
            nc_host_printf("creator FAIL telling node %u the group\n", i);
            return 1;
        }
    }
    /* the multicast test: probes until every member answered one */
    b[0] = 'P';
    while (answered != want && probes < 1000) {
        uint64_t t = nc_host_now_ns();

        if (nc_gsend(p, g, PORT, b, 8, NULL)) {
            nc_host_printf("creator FAIL probe\n");
            return 1;
        }
        probes++;
        while (nc_host_now_ns() - t < PROBE_NS) {
            if (next(&ev, PROBE_NS - (nc_host_now_ns() - t)) != NC_OK)
                break;
            if (ev.type == NC_EVENT_RECV && !ev.swgroup && ev.status == NC_OK && ev.node < 32) {
                answered |= 1u << ev.node;
                nc_provide_recv(p, ev.buf, 64, NULL);
            }
        }
    }
    t_ready = nc_host_now_ns();
    if (answered != want) {
        nc_host_printf("creator FAIL members answered 0x%x of 0x%x after %u probes\n", answered,
                       want, probes);
        return 1;
    }
    if (nicvm) {
        sent = rounds_nicvm(g, count, len);
    } else if (burst) {
        /* every packet posted at once, from its own buffer: the NIC's two
         * send buffers serve them in order, the rest wait on the NIC */
        uint8_t *bb = region(p, count * len);
        unsigned posted = 0;

        for (unsigned s = 0; s < count; s++) {
            fill(bb + s * len, s, len);
            posted += nc_gsend(p, g, PORT, bb + s * len, len, NULL) == 0;
        }
        while (posted && next(&ev, WAIT_NS) == NC_OK)
            if (ev.type == NC_EVENT_SENT) {
                posted--;
                sent += ev.status == NC_OK && ev.group == g;
            }
    } else {
        for (unsigned s = 0; s < count; s++) {
            fill(b, s, len);
            sent += gsend(g, PORT, b, len) == 0;
        }
    }
    if (leave) {
        /* the leaver's notice, then 1 ms, then the second batch */
        uint64_t t = nc_host_now_ns();
        bool told = false;

        while (!told && nc_host_now_ns() - t < WAIT_NS && next(&ev, WAIT_NS) == NC_OK)
            if (ev.type == NC_EVENT_RECV) {
                told = !ev.swgroup && ev.node == members - 1;
                nc_provide_recv(p, ev.buf, 64, NULL);
            }
        if (!told) {
            nc_host_printf("creator FAIL no notice from the leaver\n");
            return 1;
        }
        nc_host_compute_ns(1000000);
        for (unsigned s = count; s < 2 * count; s++) {
            fill(b, s, len);
            sent += gsend(g, PORT, b, len) == 0;
        }
    }
    b[0] = 'X';         /* to a port no member has open: dropped, counted */
    sent += gsend(g, PORT + 1, b, 8) == 0;
    b[0] = 'E';
    sent += gsend(g, PORT, b, 8) == 0;
    nc_host_printf("creator probes=%u ready_us=%llu sent=%u\n", probes,
                   (unsigned long long)(t_ready - t_created) / 1000, sent);
    return 0;
}

/* A NICVM message from node 0 as rounds_nicvm sent it. */
static bool nicvm_ok(const nc_event *ev)
{
    const uint8_t *d = ev->buf;

    if (ev->swgroup || ev->node != 0 || ev->status || ev->len != NV_LEN || d[0] != 'N')
        return false;
    for (size_t i = 2; i < NV_LEN; i++)
        if (d[i] != pattern(d[1], (unsigned)i))
            return false;
    return true;
}

static int member(unsigned sm, unsigned me, unsigned count, size_t len, bool leaver, bool nicvm)
{
    uint8_t *r = region(p, RBUFS * MAXLEN), seen[MAXSEQ] = { 0 };
    uint32_t g = 0, tid = 0x10000u | me;
    unsigned got = 0, dup = 0, bad = 0, probes = 0, after = 0, left = 0, nobuf = 0, nv = 0;
    bool replied = false, end = false;
    uint64_t t0, t_join = 0, t_left = 0;
    nc_event ev;

    for (unsigned i = 0; i < RBUFS; i++)
        nc_provide_recv(p, r + MAXLEN * i, MAXLEN, NULL);
    if (nicvm && add_noop(me))
        return 1;
    if (next(&ev, WAIT_NS) || ev.type != NC_EVENT_RECV || ev.swgroup || ev.len != sizeof g) {
        nc_host_printf("member FAIL no group id from node 0\n");
        return 1;
    }
    memcpy(&g, ev.buf, sizeof g);
    nc_provide_recv(p, ev.buf, MAXLEN, NULL);
    t0 = nc_host_now_ns();
    if (nc_mg_join(p, sm, g, me, tid) || answer(tid, &ev)) {
        nc_host_printf("member FAIL no answer to the join\n");
        return 1;
    }
    t_join = nc_host_now_ns() - t0;
    if (ev.status || ev.mg_status || ev.mg_op != NC_MG_JOIN || ev.group != g)
        bad++;
    while (!end) {
        const uint8_t *d;

        if (left && nc_host_now_ns() - t_left >= 3000000)
            break;
        if (next(&ev, left ? 3000000 - (nc_host_now_ns() - t_left) : WAIT_NS) != NC_OK) {
            if (left)
                break;
            nc_host_printf("member FAIL waiting (got %u)\n", got);
            return 1;
        }
        if (ev.type == NC_EVENT_MG) {
            if (ev.tid == tid + 1 && ev.mg_op == NC_MG_LEAVE && !ev.status) {
                left = ev.mg_status + 1;
                t_left = nc_host_now_ns();
                /* tell node 0 (its buffer: the received one, still ours) */
                nc_send(p, 0, PORT, r, 4, NULL);
            }
            continue;
        }
        if (ev.type != NC_EVENT_RECV)
            continue;
        d = ev.buf;
        if (nicvm && !ev.swgroup && ev.len == NV_LEN) {
            if (nicvm_ok(&ev))
                nv++;
            else
                bad++;
        } else if (!ev.swgroup || ev.group != g || ev.node != 0 || ev.port != PORT || ev.status) {
            bad++;
        } else if (left) {
            after++;
        } else if (d[0] == 'P') {
            probes++;
            if (!replied)
                replied = nc_send(p, 0, PORT, r, 4, NULL) == 0;
        } else if (d[0] == 'E') {
            end = true;
        } else if (d[0] == 'D' && ev.len == len) {
            unsigned s = d[1];

            if (seen[s]++)
                dup++;
            else
                got++;
            for (size_t i = 2; i < len; i++)
                if (d[i] != pattern(s, (unsigned)i)) {
                    bad++;
                    break;
                }
            if (leaver && got == count && nc_mg_leave(p, sm, g, me, tid + 1))
                bad++;
        } else {
            bad++;
        }
        nc_provide_recv(p, ev.buf, MAXLEN, NULL);
    }
    if (!nc_mg_stats(p, 7) && !answer(7, &ev) && ev.mg_op == NC_MG_STATS)
        nobuf = (unsigned)ev.len;
    if (leaver)
        nc_host_printf("leaver got=%u dup=%u bad=%u left=%u after_leave=%u\n", got, dup, bad,
                       left, after);
    else if (nicvm)
        nc_host_printf("member got=%u dup=%u bad=%u nicvm=%u\n", got, dup, bad, nv);
    else
        nc_host_printf("member got=%u dup=%u bad=%u probes_seen=%u join_us=%llu nobuf=%u\n", got,
                       dup, bad, probes > 0, (unsigned long long)t_join / 1000, nobuf);
    return 0;
}

static int exhaust(unsigned sm)
{
    unsigned taken = 0;
    nc_event ev;

    for (uint32_t tid = 1; tid < 4096; tid++) {
        if (nc_mg_create(p, sm, tid) || answer(tid, &ev) || ev.status) {
            nc_host_printf("exhaust FAIL no answer\n");
            return 1;
        }
        if (ev.mg_status != NC_MG_OK) {
            nc_host_printf("exhaust taken=%u refused_status=%u\n", taken, ev.mg_status);
            return 0;
        }
        taken++;
    }
    return 1;
}

static int bad(unsigned sm)
{
    union nc_cmd c = { .grp_mg = { .op = NC_CMD_GROUP, .grp_op = 99 } };
    uint8_t *b = region(p, 64);
    nc_event e1, e2, e3, e4;
    int rc = nc_gsend(p, NC_MG_GROUP_LIMIT, PORT, b, 8, NULL);
    int rc2 = nc_gsend(p, 0, PORT, b, NC_ABI_GRP_MAX + 1, NULL);

    nc_command(p, c.w);
    if (next(&e1, WAIT_NS))
        return 1;
    c.grp_mg = (struct nc_cmd_grp_mg){ .op = NC_CMD_GROUP, .grp_op = NC_GRP_OP_JOIN,
                                       .sm_node = 200, .tid = 5 };
    nc_command(p, c.w);
    if (answer(5, &e2))
        return 1;
    c.grp_send = (struct nc_cmd_grp_send){ .op = NC_CMD_GROUP, .grp_op = NC_GRP_OP_SEND,
                                           .group = 1, .len = NC_ABI_GRP_MAX + 1, .cookie = 99 };
    nc_command(p, c.w);
    if (next(&e3, WAIT_NS))
        return 1;
    if (nc_mg_leave(p, sm, 0, 1, 6) || answer(6, &e4))
        return 1;
    nc_host_printf("bad gsend_rc=%d,%d op=%d/%d sm_node=%d/%d len=%d/%d leave=%d/%u\n", rc, rc2,
                   e1.type, e1.status, e2.type, e2.status, e3.type, e3.status, e4.status,
                   e4.mg_status);
    return 0;
}

int main(int argc, char **argv)
{
    unsigned me = nc_host_node(), sm, members, count;
    size_t len;
    bool leave, burst, nicvm;

    if (argc < 3) {
        nc_host_printf("FAIL usage: group|exhaust|bad SM [MEMBERS COUNT LEN [leave]]\n");
        return 2;
    }
    sm = (unsigned)atoi(argv[2]);
    if (me == sm)
        return 0;       /* the entity's node: its process is the entity */
    if (!strcmp(argv[1], "exhaust") || !strcmp(argv[1], "bad")) {
        if (me)
            return 0;
        p = open_port(PORT);
        return argv[1][0] == 'e' ? exhaust(sm) : bad(sm);
    }
    if (argc < 6)
        return 2;
    members = (unsigned)atoi(argv[3]);
    count = (unsigned)atoi(argv[4]);
    len = (size_t)atol(argv[5]);
    leave = argc > 6 && !strcmp(argv[6], "leave");
    burst = argc > 6 && !strcmp(argv[6], "burst");
    nicvm = argc > 6 && !strcmp(argv[6], "nicvm");
    if (me >= members || count > MAXSEQ / 2 || len < 2 || len > MAXLEN ||
        (burst && count > BURST) || (nicvm && (members != 2 || count * GROUP_SENDS > MAXSEQ ||
                                               count * NV_SENDS > MAXSEQ)))
        return me >= members ? 0 : 2;
    p = open_port(PORT);
    if (nicvm && !me && add_noop(me))
        return 1;
    return me ? member(sm, me, count, len, leave && me == members - 1, nicvm)
              : creator(sm, members, count, len, leave, burst, nicvm);
}
