/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Benchmark firmware for the myrinet machine (make bench-emu): a ring that
 * never stops. Node 0 starts TOKENS packets; every node forwards every
 * packet it receives to the next node, as fast as its engines allow, and
 * keeps the count in the shared block. Several tokens per node keep every
 * NIC busy all the time.
 *
 * Command (host writes, GO last): 0x100 GO 1, 0x104 TOKENS, 0x108 LEN.
 * Live result: 0x140 packets forwarded.
 */
#include <stdint.h>

#include "nicoll/lanai9_regs.h"
#include "nicoll/shared_block.h"

extern char __mem_size[];


static uint8_t txbuf[4096] __attribute__((aligned(4096)));
static uint8_t rxbuf[4096] __attribute__((aligned(4096)));

int main(void)
{
    volatile uint32_t *sb = (volatile uint32_t *)NC_SB_ADDR((uint32_t)(uintptr_t)__mem_size);
    uint32_t me, next, len, pending, forwarded = 0;

    sb[NC_SB_OFF_READY / 4] = NC_SB_READY_MAGIC;
    while (sb[0x100 / 4] != 1)
        ;
    me = sb[NC_SB_OFF_NODE_ID / 4];
    next = (me + 1) % sb[NC_SB_OFF_NNODES / 4];
    pending = me == 0 ? sb[0x104 / 4] : 0;
    len = sb[0x108 / 4];
    if (len > sizeof txbuf - 16)
        len = sizeof txbuf - 16;
    txbuf[7] = (uint8_t)(0x80u | next);     /* route, right-aligned */
    txbuf[8] = 0x0A;
    txbuf[9] = 0x02;
    L9_SPECIAL(L9_RMP) = (uint32_t)(uintptr_t)rxbuf;
    L9_SPECIAL(L9_RML) = (uint32_t)(uintptr_t)rxbuf + sizeof rxbuf;
    for (;;) {
        uint32_t isr = L9_SPECIAL(L9_ISR);

        if (isr & L9_ISR_RECV) {
            L9_SPECIAL(L9_ISR) = L9_ISR_RECV | L9_ISR_HEAD | L9_ISR_BUFF;
            L9_SPECIAL(L9_RMP) = (uint32_t)(uintptr_t)rxbuf;
            L9_SPECIAL(L9_RML) = (uint32_t)(uintptr_t)rxbuf + sizeof rxbuf;
            pending++;
        }
        if (pending && (isr & L9_ISR_SEND)) {
            L9_SPECIAL(L9_SMP) = (uint32_t)(uintptr_t)txbuf;
            L9_SPECIAL(L9_SA) = 7;
            L9_SPECIAL(L9_SMLT) = (uint32_t)(uintptr_t)(txbuf + 10 + len);
            pending--;
            sb[0x140 / 4] = ++forwarded;
        }
    }
}
