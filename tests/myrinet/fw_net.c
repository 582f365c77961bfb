/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test firmware for the myrinet machine: answers the loader's handshake,
 * then waits for a command its host writes into the host-shared block,
 * sends and receives packets with the send and receive engines, and
 * writes what it saw back into the block for the host to read.
 *
 * Command block (offsets from the shared block, host writes, CMD last):
 *   0x100 CMD     1: go
 *   0x104 DST     destination node (crossbar: route byte 0x80 | DST)
 *   0x108 LEN     payload bytes per packet
 *   0x10C COUNT   packets to send
 *   0x110 SPIN    idle loop iterations before the first send
 *   0x114 EXPECT  packets to receive
 *   0x118 RLEN    route bytes to DST (0: one crossbar, route 0x80 | DST)
 *   0x120 ROUTE   the route bytes (up to 8), as nc_host_route() gives them
 *   0x128 PAUSE_AT after this many packets received, stop arming the
 *                 receive buffer for PAUSE_US (0: never), as a NIC whose
 *                 host gives it no buffers would
 *   0x12C PAUSE_US
 * Results (firmware writes, DONE last):
 *   0x140 DONE 1, 0x144 packets received (also updated as they come), 0x148 last length received,
 *   0x14C ISR at the last RECV, 0x150 sum of all received bytes,
 *   0x154 RTC at the end, 0x158 RECVs with ILLEGAL_RECEIVED (CRC error),
 *   0x15C 1 once ISR.LINK_DOWN was seen (also updated as it happens)
 *   0x160 the longest wait from giving a packet to the send engine until
 *         ISR.SEND was set again, in RTC ticks (0.5 us); the firmware waits
 *         for the last packet's SEND too
 */
#include <stdint.h>

#include "nicoll/lanai9_regs.h"
#include "nicoll/shared_block.h"

extern char __mem_size[];

#define PKT_TYPE 0x0A01u

/* packet buffers on pages of their own (translated code stays valid) */
static uint8_t txbuf[16384] __attribute__((aligned(4096)));
static uint8_t rxbuf[16384] __attribute__((aligned(4096)));

static void arm(void)
{
    L9_SPECIAL(L9_RMP) = (uint32_t)(uintptr_t)rxbuf;
    L9_SPECIAL(L9_RML) = (uint32_t)(uintptr_t)rxbuf + sizeof rxbuf;
}

static uint8_t route[8];
static uint32_t route_len;

static void send(uint32_t me, uint32_t dst, uint32_t len, uint32_t seq)
{
    uint8_t *h = txbuf + 8;

    /* the route, right-aligned before the header */
    for (uint32_t i = 0; i < route_len; i++)
        txbuf[8 - route_len + i] = route[i];
    h[0] = PKT_TYPE >> 8;
    h[1] = PKT_TYPE & 0xFF;
    h[2] = (uint8_t)(len >> 8);
    h[3] = (uint8_t)len;
    for (uint32_t i = 0; i < len; i++)
        h[4 + i] = (uint8_t)(me * 31 + seq * 7 + i);
    L9_SPECIAL(L9_SMP) = (uint32_t)(uintptr_t)txbuf;
    L9_SPECIAL(L9_SA) = 8 - route_len;
    L9_SPECIAL(L9_SMLT) = (uint32_t)(uintptr_t)(h + 4 + len);
}

int main(void)
{
    volatile uint32_t *sb = (volatile uint32_t *)NC_SB_ADDR((uint32_t)(uintptr_t)__mem_size);
    uint32_t me, dst, len, count, spin, expect, sent = 0, got = 0, sum = 0, bad = 0;
    uint32_t pause_at, pause_us, sent_rtc = 0, longest = 0;
    int in_engine = 0;

    sb[NC_SB_OFF_READY / 4] = NC_SB_READY_MAGIC;
    while (sb[0x100 / 4] != 1)
        ;
    me = sb[NC_SB_OFF_NODE_ID / 4];
    dst = sb[0x104 / 4];
    len = sb[0x108 / 4];
    count = sb[0x10C / 4];
    spin = sb[0x110 / 4];
    expect = sb[0x114 / 4];
    route_len = sb[0x118 / 4];
    pause_at = sb[0x128 / 4];
    pause_us = sb[0x12C / 4];
    if (route_len == 0 || route_len > sizeof route) {
        route_len = 1;
        route[0] = (uint8_t)(0x80u | dst);
    } else {
        for (uint32_t i = 0; i < route_len; i++)
            route[i] = ((volatile uint8_t *)sb)[0x120 + i];
    }
    if (len > sizeof txbuf - 16)
        len = sizeof txbuf - 16;
    arm();
    for (volatile uint32_t i = 0; i < spin; i++)
        ;
    while (sent < count || got < expect || in_engine) {
        uint32_t isr = L9_SPECIAL(L9_ISR);

        if (isr & L9_ISR_LINK_DOWN)
            sb[0x15C / 4] = 1;

        if (in_engine && (isr & L9_ISR_SEND)) {
            uint32_t w = L9_SPECIAL(L9_RTC) - sent_rtc;
            if (w > longest)
                longest = w;
            in_engine = 0;
        }
        if (sent < count && (isr & L9_ISR_SEND)) {
            send(me, dst, len, sent);
            sent_rtc = L9_SPECIAL(L9_RTC);
            in_engine = 1;
            sent++;
        }
        if (isr & L9_ISR_RECV) {
            uint32_t n = L9_SPECIAL(L9_RMP) - (uint32_t)(uintptr_t)rxbuf;
            for (uint32_t i = 0; i < n; i++)
                sum += rxbuf[i];
            if (isr & L9_ISR_ILLEGAL_RX)
                bad++;
            sb[0x148 / 4] = n;
            sb[0x14C / 4] = isr;
            L9_SPECIAL(L9_ISR) = L9_ISR_RECV | L9_ISR_HEAD | L9_ISR_BUFF | L9_ISR_ORUN1 |
                          L9_ISR_ORUN2 | L9_ISR_ORUN4 | L9_ISR_ILLEGAL_RX;
            got++;
            sb[0x144 / 4] = got;        /* live, for hosts that do not wait */
            if (got == pause_at) {
                uint32_t t0 = L9_SPECIAL(L9_RTC);
                while (L9_SPECIAL(L9_RTC) - t0 < 2 * pause_us)
                    ;
            }
            arm();
        }
    }
    sb[0x144 / 4] = got;
    sb[0x150 / 4] = sum;
    sb[0x154 / 4] = L9_SPECIAL(L9_RTC);
    sb[0x158 / 4] = bad;
    sb[0x160 / 4] = longest;
    sb[0x140 / 4] = 1;
    for (;;)
        ;
}
