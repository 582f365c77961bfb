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
 * Command block (offsets from the shared block, host writes, CMD last):
 *   0x100 CMD 1: go   0x104 NODES   0x108 GROUP   0x10C COUNT (node 0)
 *   0x110 LEN payload bytes   0x114 EXPECT copies to receive (others)
 * Results (firmware writes, DONE last):
 *   0x140 DONE 1, 0x144 copies received, 0x148 the ACK's status + 1
 *   (0: none), 0x14C sum of all copies' bytes, 0x150 copies not intact
 *   (length, type, sequence or payload wrong), 0x154 RTC when the ACK came
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
    if (count) {
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
    sb[0x144 / 4] = got;
    sb[0x14C / 4] = sum;
    sb[0x150 / 4] = bad;
    sb[0x140 / 4] = 1;
    for (;;)
        ;
}
