/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The test-machine ABI shared by lanai-iss and QEMU's -M lanai-test
 * (docs/test-machine.md): three 32-bit registers above RAM. Only 32-bit
 * accesses are defined; anything else traps.
 */
#ifndef NICOLL_LANAI_TESTMACHINE_H
#define NICOLL_LANAI_TESTMACHINE_H

#include <stdint.h>

#define LANAI_TM_CONSOLE 0xFFFF0000u /* write: print the low byte */
#define LANAI_TM_EXIT    0xFFFF0004u /* write: end the run with this status */
#define LANAI_TM_COUNTER 0xFFFF0008u /* read: instructions (cycles) so far */

/* The argument block: the top LANAI_TM_ARGS_MAX bytes of RAM hold argv's
 * strings (from the top down), then argc + 1 big-endian pointers, the last
 * 0; the program starts with r6 = argc and r7 = the pointers' address.
 * lanai-ld keeps the stack below it. common/tm_args.c lays it out. */
#define LANAI_TM_ARGS_MAX  4096u
#define LANAI_TM_ARGC_MAX  256u

/* Exit statuses of the runners (lanai-iss, lanai-qemu), beside the
 * program's own status when it writes LANAI_TM_EXIT. */
#define LANAI_TM_STATUS_USAGE 2    /* bad usage or program file */
#define LANAI_TM_STATUS_LIMIT 124  /* instruction or time limit reached */
#define LANAI_TM_STATUS_TRAP  125  /* the LANai trapped */

static inline void lanai_tm_putc(int c)
{
    *(volatile uint32_t *)LANAI_TM_CONSOLE = (uint32_t)(unsigned char)c;
}

static inline uint32_t lanai_tm_cycles(void)
{
    return *(volatile uint32_t *)LANAI_TM_COUNTER;
}

static inline void __attribute__((noreturn)) lanai_tm_exit(int status)
{
    *(volatile uint32_t *)LANAI_TM_EXIT = (uint32_t)status;
    for (;;)
        ;
}

#endif
