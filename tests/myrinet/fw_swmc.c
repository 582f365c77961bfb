/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test firmware for switch multicast on the myrinet machine (one crossbar
 * switch, docs/fabric.md "Switch multicast"). Node 0 writes its switch's
 * multicast table itself, as the management entity does: an NC_PT_SW_SET
 * to the switch's management port (route byte 0xBF) naming every node's
 * port, waits for the agent's NC_PT_SW_SET_ACK, then sends COUNT packets
 * to the group (NC_ROUTE_MCAST bytes in place of the route). Every other
 * node counts the copies it receives and checks each is intact.
 *
 * With MODE 1 the table is the management entity's business (the machine's
 * sm-node): the creator (COUNT > 0) sends NC_PT_MG_CREATE to the entity's
 * node, every other member NC_PT_MG_JOIN for GROUP after WAIT_US; then the
 * creator multicasts a probe every 50 us until each of the MEMBERS - 1
 * others has answered the first probe it got with a unicast packet, and
 * only then sends COUNT data packets, as a host that cannot be told when
 * the tables are ready finds out.
 * LEAVE (0x13C), creator: after the data, wait 1 ms and send LEAVE more
 * data packets; member: after EXPECT copies, leave the group and count
 * what still arrives in the next 2 ms (0x164; 0x168 the NC_PT_MG_LEFT's
 * status + 1).
 *
 * MODE 2: the creator sends creates one after the other until one is
 * refused; 0x158 is then the number taken, 0x148 the refusal's status + 1.
 *
 * Command block (offsets from the shared block, host writes, CMD last):
 *   0x100 CMD 1: go   0x104 NODES   0x108 GROUP   0x10C COUNT (node 0)
 *   0x110 LEN payload bytes   0x114 EXPECT copies to receive (others)
 *   0x118 MODE (0: write the table, 1: through the entity)
 *   0x11C MEMBERS   0x120 WAIT_US   0x124 RLEN, 0x128 ROUTE[8] to the
 *   entity's node   0x130 RLEN0, 0x134 ROUTE0[8] to node 0
 * Results (firmware writes, DONE last):
 *   0x140 DONE 1, 0x144 copies received, 0x148 the ACK's (MODE 1: the
 *   entity's answer's) status + 1 (0: none), 0x14C sum of all copies'
 *   bytes, 0x150 copies not intact (length, type, sequence or payload
 *   wrong), 0x154 RTC when the ACK came, 0x158 the answer's group,
 *   0x15C RTC when every member had answered a probe, 0x160 probes sent
 */
#include <stddef.h>
#include <stdint.h>

#include "nicoll/lanai9_regs.h"
#include "nicoll/nc_mgmt.h"
#include "nicoll/shared_block.h"

extern char __mem_size[];

#define PKT_TYPE 0x0A01u

static uint8_t txbuf[16384] __attribute__((aligned(4096)));
static uint8_t rxbuf[16384] __attribute__((aligned(4096)));

static void arm(void)
{
    L9_SPECIAL(L9_RMP) = (uint32_t)(uintptr_t)rxbuf;
    L9_SPECIAL(L9_RML) = (uint32_t)(uintptr_t)rxbuf + sizeof rxbuf;
}

static void take(void)
{
    L9_SPECIAL(L9_ISR) = L9_ISR_RECV | L9_ISR_HEAD | L9_ISR_BUFF | L9_ISR_ORUN1 |
                  L9_ISR_ORUN2 | L9_ISR_ORUN4 | L9_ISR_ILLEGAL_RX;
    arm();
}

static void send_wait(uint32_t start, uint8_t *end)
{
    while (!(L9_SPECIAL(L9_ISR) & L9_ISR_SEND))
        ;
    L9_SPECIAL(L9_SMP) = (uint32_t)(uintptr_t)txbuf;
    L9_SPECIAL(L9_SA) = start;
    L9_SPECIAL(L9_SMLT) = (uint32_t)(uintptr_t)end;
}

/* The table write: every node's port (the crossbar's port p is node p),
 * the answer back to this node's port. */
static void sw_set(uint32_t me, uint32_t nodes, uint32_t group)
{
    struct nc_mgmt *q = (struct nc_mgmt *)(txbuf + 8);

    for (uint32_t i = 0; i < sizeof *q; i++)
        ((uint8_t *)q)[i] = 0;
    txbuf[7] = 0xBF;                    /* the switch's management port */
    q->type = NC_PT_SW_SET;
    q->src = (uint16_t)me;
    q->tid = 0x5A5A0000u | me;
    q->group = (uint16_t)group;
    q->ports = nodes >= 32 ? 0xFFFFFFFFu : (1u << nodes) - 1;
    q->nroute = 1;
    q->route[0] = (uint8_t)(0x80u | me);
    send_wait(7, txbuf + 8 + sizeof *q);
}

#define PROBE_TYPE 0x0A02u
#define REPLY_TYPE 0x0A03u

static uint8_t route_sm[8], route_0[8];
static uint32_t rlen_sm, rlen_0;

static void load_route(volatile uint32_t *sb, uint32_t off, uint8_t *r, uint32_t *len)
{
    *len = sb[off / 4];
    if (*len > 8)
        *len = 8;
    for (uint32_t i = 0; i < *len; i++)
        r[i] = ((volatile uint8_t *)sb)[off + 4 + i];
}

/* A request to the entity's node over its unicast route. */
static void mg_request(uint32_t me, uint16_t type, uint32_t group)
{
    struct nc_mgmt *q = (struct nc_mgmt *)(txbuf + 8);

    for (uint32_t i = 0; i < sizeof *q; i++)
        ((uint8_t *)q)[i] = 0;
    for (uint32_t i = 0; i < rlen_sm; i++)
        txbuf[8 - rlen_sm + i] = route_sm[i];
    q->type = type;
    q->src = (uint16_t)me;
    q->tid = 0x77000000u | me;
    q->group = (uint16_t)group;
    q->node = (uint16_t)me;
    send_wait(8 - rlen_sm, txbuf + 8 + sizeof *q);
}

/* A short packet of 'type' carrying 'me': to node 0 (reply) or the group. */
static void small(uint16_t type, uint32_t me, uint32_t group, int to_group)
{
    uint8_t *h = txbuf + 8;
    uint32_t start;

    if (to_group) {
        txbuf[6] = (uint8_t)(NC_ROUTE_MCAST | group >> 8);
        txbuf[7] = (uint8_t)group;
        start = 6;
    } else {
        for (uint32_t i = 0; i < rlen_0; i++)
            txbuf[8 - rlen_0 + i] = route_0[i];
        start = 8 - rlen_0;
    }
    h[0] = (uint8_t)(type >> 8);
    h[1] = (uint8_t)type;
    h[2] = 0;
    h[3] = (uint8_t)me;
    send_wait(start, h + 8);
}

static uint32_t wait_recv(void)
{
    while (!(L9_SPECIAL(L9_ISR) & L9_ISR_RECV))
        ;
    return L9_SPECIAL(L9_RMP) - (uint32_t)(uintptr_t)rxbuf;
}

static uint16_t rx_type(void)
{
    return (uint16_t)(rxbuf[0] << 8 | rxbuf[1]);
}

static uint8_t pattern(uint32_t seq, uint32_t i)
{
    return (uint8_t)(seq * 13 + i * 7 + 1);
}

static void mcast(uint32_t group, uint32_t len, uint32_t seq)
{
    uint8_t *h = txbuf + 8;

    txbuf[6] = (uint8_t)(NC_ROUTE_MCAST | group >> 8);
    txbuf[7] = (uint8_t)group;
    h[0] = PKT_TYPE >> 8;
    h[1] = PKT_TYPE & 0xFF;
    h[2] = (uint8_t)seq;
    h[3] = 0;
    for (uint32_t i = 0; i < len; i++)
        h[4 + i] = pattern(seq, i);
    send_wait(6, h + 4 + len);
}

int main(void)
{
    volatile uint32_t *sb = (volatile uint32_t *)NC_SB_ADDR((uint32_t)(uintptr_t)__mem_size);
    uint32_t me, nodes, group, count, len, expect, got = 0, sum = 0, bad = 0;

    sb[NC_SB_OFF_READY / 4] = NC_SB_READY_MAGIC;
    while (sb[0x100 / 4] != 1)
        ;
    me = sb[NC_SB_OFF_NODE_ID / 4];
    nodes = sb[0x104 / 4];
    group = sb[0x108 / 4];
    count = sb[0x10C / 4];
    len = sb[0x110 / 4];
    expect = sb[0x114 / 4];
    if (len > sizeof txbuf - 16)
        len = sizeof txbuf - 16;
    arm();
    if (sb[0x118 / 4] == 2) {
        uint32_t taken = 0, status = 0;

        load_route(sb, 0x124, route_sm, &rlen_sm);
        while (count && status == 0) {
            mg_request(me, NC_PT_MG_CREATE, 0);
            while (wait_recv() < NC_MGMT_LEN || rx_type() != NC_PT_MG_CREATED)
                take();
            status = ((const struct nc_mgmt *)rxbuf)->status;
            if (status == 0)
                taken++;
            take();
        }
        sb[0x148 / 4] = status + 1u;
        sb[0x158 / 4] = taken;
    } else if (sb[0x118 / 4] == 1) {
        uint32_t members = sb[0x11C / 4], wait_us = sb[0x120 / 4];
        uint32_t t0 = L9_SPECIAL(L9_RTC);

        load_route(sb, 0x124, route_sm, &rlen_sm);
        load_route(sb, 0x130, route_0, &rlen_0);
        if (count) {
            uint32_t answered = 0, probes = 0, seen = 0;

            mg_request(me, NC_PT_MG_CREATE, 0);
            while (wait_recv() < NC_MGMT_LEN || rx_type() != NC_PT_MG_CREATED)
                take();
            sb[0x148 / 4] = ((const struct nc_mgmt *)rxbuf)->status + 1u;
            sb[0x158 / 4] = ((const struct nc_mgmt *)rxbuf)->group;
            group = ((const struct nc_mgmt *)rxbuf)->group;
            take();
            while (answered < members - 1) {
                uint32_t t = L9_SPECIAL(L9_RTC);
                small(PROBE_TYPE, me, group, 1);
                probes++;
                while (L9_SPECIAL(L9_RTC) - t < 100) {
                    if (!(L9_SPECIAL(L9_ISR) & L9_ISR_RECV))
                        continue;
                    if (rx_type() == REPLY_TYPE && rxbuf[3] < 32 &&
                        !(seen & (1u << rxbuf[3]))) {
                        seen |= 1u << rxbuf[3];
                        answered++;
                    }
                    take();
                }
            }
            sb[0x15C / 4] = L9_SPECIAL(L9_RTC);
            sb[0x160 / 4] = probes;
            for (uint32_t s = 0; s < count; s++)
                mcast(group, len, s);
            if (sb[0x13C / 4]) {
                uint32_t t = L9_SPECIAL(L9_RTC);
                while (L9_SPECIAL(L9_RTC) - t < 2000)
                    ;
                for (uint32_t s = count; s < count + sb[0x13C / 4]; s++)
                    mcast(group, len, s);
            }
            while (!(L9_SPECIAL(L9_ISR) & L9_ISR_SEND))
                ;
        } else if (expect) {
            int replied = 0;

            while (L9_SPECIAL(L9_RTC) - t0 < 2 * wait_us)
                ;
            mg_request(me, NC_PT_MG_JOIN, group);
            while (wait_recv() < NC_MGMT_LEN || rx_type() != NC_PT_MG_JOINED)
                take();
            sb[0x148 / 4] = ((const struct nc_mgmt *)rxbuf)->status + 1u;
            take();
            /* probes: the first one answered, the rest dropped; data
             * packets counted below */
            for (;;) {
                wait_recv();
                if (rx_type() != PROBE_TYPE)
                    break;
                if (!replied) {
                    take();
                    small(REPLY_TYPE, me, group, 0);
                    replied = 1;
                    continue;
                }
                take();
            }
        }
    } else if (count) {
        sw_set(me, nodes, group);
        while (!(L9_SPECIAL(L9_ISR) & L9_ISR_RECV))
            ;
        if (L9_SPECIAL(L9_RMP) - (uint32_t)(uintptr_t)rxbuf >= NC_MGMT_LEN) {
            const struct nc_mgmt *a = (const struct nc_mgmt *)rxbuf;
            if (a->type == NC_PT_SW_SET_ACK)
                sb[0x148 / 4] = a->status + 1u;
        }
        sb[0x154 / 4] = L9_SPECIAL(L9_RTC);
        take();
        for (uint32_t s = 0; s < count; s++)
            mcast(group, len, s);
        while (!(L9_SPECIAL(L9_ISR) & L9_ISR_SEND))
            ;
    }
    while (got < expect) {
        uint32_t n;

        if (!(L9_SPECIAL(L9_ISR) & L9_ISR_RECV))
            continue;
        n = L9_SPECIAL(L9_RMP) - (uint32_t)(uintptr_t)rxbuf;
        for (uint32_t i = 0; i < n; i++)
            sum += rxbuf[i];
        if (n != 4 + len || rxbuf[0] != PKT_TYPE >> 8 || rxbuf[1] != (PKT_TYPE & 0xFF) ||
            rxbuf[2] != (uint8_t)got || (L9_SPECIAL(L9_ISR) & L9_ISR_ILLEGAL_RX)) {
            bad++;
        } else {
            for (uint32_t i = 0; i < len; i++)
                if (rxbuf[4 + i] != pattern(got, i)) {
                    bad++;
                    break;
                }
        }
        got++;
        take();
    }
    if (sb[0x118 / 4] == 1 && expect && sb[0x13C / 4]) {
        uint32_t t, after = 0;

        mg_request(me, NC_PT_MG_LEAVE, group);
        while (wait_recv() < NC_MGMT_LEN || rx_type() != NC_PT_MG_LEFT)
            take();
        sb[0x168 / 4] = ((const struct nc_mgmt *)rxbuf)->status + 1u;
        take();
        t = L9_SPECIAL(L9_RTC);
        while (L9_SPECIAL(L9_RTC) - t < 4000)
            if (L9_SPECIAL(L9_ISR) & L9_ISR_RECV) {
                after++;
                take();
            }
        sb[0x164 / 4] = after;
    }
    sb[0x144 / 4] = got;
    sb[0x14C / 4] = sum;
    sb[0x150 / 4] = bad;
    sb[0x140 / 4] = 1;
    for (;;)
        ;
}
