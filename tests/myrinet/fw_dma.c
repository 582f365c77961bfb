/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test firmware for the host-DMA tests (tests/myrinet/dma): answers the
 * loader's handshake, publishes where its DMA buffer and descriptor area
 * are, then serves commands from its host. The host builds descriptor
 * chains itself (PIO into the descriptor area) and starts most of them by
 * writing PULSE through the board window, so that their timing does not
 * depend on this loop; the firmware fills and checks the seeded pattern on
 * the LANai side and can start a chain itself (PULSE from the LANai, the
 * way a real MCP does).
 *
 * Shared block (offsets from it):
 *   0x180 BUF   firmware: SRAM address of the 64 KB DMA buffer
 *   0x184 DESC  firmware: SRAM address of the 4 KB descriptor area
 *   0x100 SEQ   host: command sequence number, written last
 *   0x104 OP    1 fill [BUF+OFF, +LEN) with pattern SEED; 2 check it;
 *               3 write PULSE = ARG, then poll ISR until WAKE0 or MEM_INT
 *   0x108 OFF, 0x10C LEN, 0x110 SEED, 0x114 ARG
 *   0x140 DONE  firmware: SEQ of the last finished command (written last)
 *   0x144 RESULT  check: bytes that differ; kick: the ISR that ended the wait
 *   0x148 FIRST   check: offset of the first difference (0xFFFFFFFF if none)
 */
#include <stdint.h>

#include "dma_pattern.h"
#include "nicoll/lanai9_regs.h"
#include "nicoll/shared_block.h"

extern char __mem_size[];


/* DMA targets at fixed addresses on pages of their own, far from code,
 * and not in .bss: crt0 would spend longer zeroing 68 KB than the loader
 * waits for the ready word (the loader has zeroed all of SRAM already) */
#define BUF_SIZE 65536u
static uint8_t *const buf = (uint8_t *)0x100000;
static uint8_t *const desc = (uint8_t *)0x110000;

int main(void)
{
    volatile uint32_t *sb = (volatile uint32_t *)NC_SB_ADDR((uint32_t)(uintptr_t)__mem_size);
    uint32_t done = 0;

    sb[0x180 / 4] = (uint32_t)(uintptr_t)buf;
    sb[0x184 / 4] = (uint32_t)(uintptr_t)desc;
    sb[NC_SB_OFF_READY / 4] = NC_SB_READY_MAGIC;
    for (;;) {
        uint32_t seq = sb[0x100 / 4], op, off, len, seed, res = 0, first = 0xFFFFFFFFu;

        if (seq == done)
            continue;
        op = sb[0x104 / 4];
        off = sb[0x108 / 4];
        len = sb[0x10C / 4];
        seed = sb[0x110 / 4];
        if (off > BUF_SIZE || len > BUF_SIZE - off)
            len = 0;
        if (op == 1) {
            for (uint32_t i = 0; i < len; i++)
                buf[off + i] = dma_pattern(seed, i);
        } else if (op == 2) {
            for (uint32_t i = 0; i < len; i++)
                if (buf[off + i] != dma_pattern(seed, i)) {
                    if (!res)
                        first = i;
                    res++;
                }
        } else if (op == 3) {
            L9_SPECIAL(L9_PULSE) = sb[0x114 / 4];
            while (!((res = L9_SPECIAL(L9_ISR)) & (L9_ISR_WAKE0 | L9_ISR_MEM_INT)))
                ;
        }
        sb[0x144 / 4] = res;
        sb[0x148 / 4] = first;
        sb[0x140 / 4] = done = seq;
    }
}
