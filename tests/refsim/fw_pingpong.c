/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test firmware for refsim: after the loader's handshake it waits for the
 * host's "go", arms a receive buffer and, on node 0, sends a ping to the
 * peer whose route byte the host left in the shared block; node 1 answers
 * with the ping's word plus one. Each then reports what it received (and
 * node 0 the round trip in RTC ticks) in the shared block and raises
 * HOST_SIG, having started interval timer 0 (100 us) so that the host can
 * also wait for a timer interrupt. Test-only words after the loader's fields:
 *   0x40 go    0x44 route byte to the peer    0x48 round trip    0x4C word received
 *   0x50 node 1 arms its receive buffer this many us late (back-pressure)
 *   0x54 bytes of padding after the ping's word (a longer ping)
 *   0x58 node 0: RTC ticks from giving the ping to the send engine until
 *        ISR.SEND was set again
 */
#include <stdint.h>

#include "nicoll/lanai9_regs.h"
#include "nicoll/shared_block.h"

#define SB(off) (sb[(off) / 4])

extern char __mem_size[];

static uint32_t txbuf[4 + 512] __attribute__((aligned(8)));
static uint32_t rxbuf[16] __attribute__((aligned(8)));

/* One packet: the route byte right-aligned before txbuf+8, then type and
 * a word of payload. */
static void send(uint32_t route, uint16_t type, uint32_t word, uint32_t pad)
{
    uint8_t *b = (uint8_t *)txbuf;

    b[7] = (uint8_t)route;
    txbuf[2] = (uint32_t)type << 16;
    txbuf[3] = word;
    while (!(L9_SPECIAL(L9_ISR) & L9_ISR_SEND))
        ;
    L9_SPECIAL(L9_SMP) = (uint32_t)(uintptr_t)txbuf;
    L9_SPECIAL(L9_SA) = 7;
    L9_SPECIAL(L9_SMLT) = (uint32_t)(uintptr_t)txbuf + 16 + pad;
}

static uint32_t receive(void)
{
    while (!(L9_SPECIAL(L9_ISR) & L9_ISR_RECV))
        ;
    L9_SPECIAL(L9_ISR) = L9_ISR_RECV | L9_ISR_HEAD;
    return rxbuf[1];    /* after the type word */
}

int main(void)
{
    volatile uint32_t *sb = (volatile uint32_t *)NC_SB_ADDR((uint32_t)(uintptr_t)__mem_size);
    uint32_t me = SB(NC_SB_OFF_NODE_ID), route, word, t0, pad;

    SB(NC_SB_OFF_READY) = NC_SB_READY_MAGIC;
    while (!SB(0x40))
        ;
    route = SB(0x44);
    pad = SB(0x54) < 2048 ? SB(0x54) & ~3u : 2048;
    if (me == 1 && SB(0x50)) {
        t0 = L9_SPECIAL(L9_RTC);
        while (L9_SPECIAL(L9_RTC) - t0 < 2 * SB(0x50))
            ;
    }
    L9_SPECIAL(L9_RMP) = (uint32_t)(uintptr_t)rxbuf;
    L9_SPECIAL(L9_RML) = (uint32_t)(uintptr_t)rxbuf + sizeof rxbuf;
    if (me == 0) {
        t0 = L9_SPECIAL(L9_RTC);
        send(route, 0x0A01, 0xC0FFEE00, pad);
        while (!(L9_SPECIAL(L9_ISR) & L9_ISR_SEND))
            ;
        SB(0x58) = L9_SPECIAL(L9_RTC) - t0;
        word = receive();
        SB(0x48) = L9_SPECIAL(L9_RTC) - t0;
    } else {
        word = receive();
        send(route, 0x0A02, word + 1, 0);
    }
    SB(0x4C) = word;
    L9_SPECIAL(L9_IT0) = 200;          /* 100 us from now: TIME0, for the host to wait on */
    L9_SPECIAL(L9_ISR) = L9_ISR_HOST_SIG;
    for (;;)                    /* idle without touching a register: only the */
        ;                       /* machine's wake-ups can raise TIME0 on time */
}
