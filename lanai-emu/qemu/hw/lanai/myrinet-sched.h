/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The myrinet machine, scheduler layer (myrinet.h draws all the layers):
 * what decides who runs when, and when the run is over.
 *
 *   myrinet-sched.c  conservative windows; the CPU hooks that stop each
 *                    NIC's CPU at its exact targets
 *   myrinet-stall.c  deadlock-after: the run ends when no host program
 *                    made progress for that long
 *   myrinet-end.c    LANai traps (one node's CPU stops) and the end of the
 *                    run (console, statistics, exit status)
 *
 * They drive the layer below (myrinet-node.h) and are driven by the
 * machine (myrinet.h) and, through the hooks installed in each LANai CPU,
 * by QEMU's CPU loop.
 */
#ifndef HW_LANAI_MYRINET_SCHED_H
#define HW_LANAI_MYRINET_SCHED_H

#include "myrinet-node.h"

/* myrinet-sched.c */
void mr_sched_init(MyrinetState *m);
void mr_sched_install_hooks(MrNode *n);
bool mr_all_hosts_done(MyrinetState *m);

/* QEMU's round-robin TCG loop asks this for the next CPU to run
 * (lanai-emu/hooks.patch; NULL: every CPU in turn). */
extern CPUState *(*rr_next_cpu_hook)(CPUState *cpu);

/* myrinet-stall.c */
void mr_stall_check(MyrinetState *m, uint64_t start);

/* myrinet-end.c */
void mr_trap_hook(CPUState *cs);
G_NORETURN void mr_finish(MyrinetState *m, int status, const char *why);

#endif
