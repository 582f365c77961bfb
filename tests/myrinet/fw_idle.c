/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test firmware for the machine's idle skipping (docs/myrinet.md, "Idle
 * NICs"): after the loader's handshake it waits in one of several kinds of
 * loop, then reports the RTC at which the loop ended. Some loops change
 * nothing and must be skipped; others change memory or read the clock and
 * must run for real. Either way the reported time must be the same as
 * with MYRINET_NO_IDLE=1.
 *
 * Command (host writes, GO last): 0x100 GO 1, 0x104 MODE, 0x108 ARG.
 * Stop flag: 0x10C (host writes 1 in the modes that wait for it).
 * Result (firmware writes, DONE last): 0x144 RTC when the loop ended,
 * 0x148 the loop's own result, 0x140 DONE 1.
 *
 *   1 timer    IT0 = ARG ticks, poll ISR until TIME0          (skippable)
 *   2 call     poll the stop flag through a call that pushes  (skippable:
 *              and pops a frame                                 same values)
 *   3 restore  poll the stop flag; each turn saves a word,    (skippable)
 *              scribbles on it and puts it back
 *   4 count    count ARG turns in a memory word               (not idle)
 *   5 rtc      poll RTC until it passed ARG ticks from now,   (not idle:
 *              testing one bit                                  time read)
 *   6 it0      poll IT0 itself until it reads 0               (not idle)
 *   7 memcount count ARG turns in a memory word through a call,  (not idle:
 *              clearing the register that held the count:      only memory
 *              registers and flags repeat, memory does not)    changes)
 *   8 link     poll ISR until LINK_DOWN, then until it clears  (skippable)
 *              (result: RTC when it went down)
 *   9 trap     wait ARG IT0 ticks, then load from an unmapped address: the
 *              machine stops this CPU only (never DONE)
 */
#include <stdint.h>

#include "nicoll/lanai9_regs.h"
#include "nicoll/shared_block.h"

extern char __mem_size[];


static volatile uint32_t *sb;
static volatile uint32_t scratch[64] __attribute__((aligned(4096)));

/* Not inlined: every call stores the return address and frame pointer. */
__attribute__((noinline)) static uint32_t stop_flag(volatile uint32_t *b)
{
    volatile uint32_t local[4];

    local[0] = b[0x10C / 4];
    return local[0];
}

/* One more turn: bump the count in memory; 1 when it reached lim. */
__attribute__((noinline)) static uint32_t tick(volatile uint32_t *c, uint32_t lim)
{
    uint32_t v = *c + 1;

    *c = v;
    return v >= lim;
}

static uint32_t wait_loop(uint32_t mode, uint32_t arg)
{
    switch (mode) {
    case 1:
        L9_SPECIAL(L9_IT0) = arg;
        while (!(L9_SPECIAL(L9_ISR) & L9_ISR_TIME0))
            ;
        L9_SPECIAL(L9_ISR) = L9_ISR_TIME0;
        return 0;
    case 2:
        while (!stop_flag(sb))
            ;
        return 0;
    case 3:
        while (!sb[0x10C / 4]) {
            uint32_t keep = scratch[5];
            scratch[5] = 0xDEADBEEFu;
            scratch[5] = keep;
        }
        return scratch[5];
    case 4:
        for (scratch[9] = 0; scratch[9] < arg; scratch[9]++)
            ;
        return scratch[9];
    case 5: {
        uint32_t end = L9_SPECIAL(L9_RTC) + arg;
        /* one bit of the difference: the loop's registers do not change */
        while ((L9_SPECIAL(L9_RTC) - end) & 0x80000000u)
            ;
        return 0;
    }
    case 6:
        L9_SPECIAL(L9_IT0) = arg;
        while (L9_SPECIAL(L9_IT0) != 0)
            ;
        L9_SPECIAL(L9_ISR) = L9_ISR_TIME0;
        return 0;
    case 7:
        scratch[9] = 0;
        /* tick() leaves the count in r9 (clang 14 -O2): clear it, so that
         * at the loop's head registers and flags are the same every turn */
        while (!tick(&scratch[9], arg))
            __asm__ volatile("or %%r0, 0x0, %%r9" ::: "r9");
        return scratch[9];
    case 8: {
        uint32_t down;
        while (!(L9_SPECIAL(L9_ISR) & L9_ISR_LINK_DOWN))
            ;
        down = L9_SPECIAL(L9_RTC);
        while (L9_SPECIAL(L9_ISR) & L9_ISR_LINK_DOWN)
            ;
        return down;
    }
    case 9:
        L9_SPECIAL(L9_IT0) = arg;
        while (!(L9_SPECIAL(L9_ISR) & L9_ISR_TIME0))
            ;
        return *(volatile uint32_t *)0x40000000u;   /* nothing there */
    }
    return 0xBAD;
}

int main(void)
{
    uint32_t r;

    sb = (volatile uint32_t *)NC_SB_ADDR((uint32_t)(uintptr_t)__mem_size);
    sb[NC_SB_OFF_READY / 4] = NC_SB_READY_MAGIC;
    while (sb[0x100 / 4] != 1)
        ;
    r = wait_loop(sb[0x104 / 4], sb[0x108 / 4]);
    sb[0x144 / 4] = L9_SPECIAL(L9_RTC);
    sb[0x148 / 4] = r;
    sb[0x140 / 4] = 1;
    for (;;)
        ;
}
