/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The myrinet machine, middle layer (myrinet.h draws all the layers): the
 * parts the scheduler drives, each one node's or the fabric's business.
 *
 *   myrinet-node.c    a node's run state (held, running, waiting, idle),
 *                     its CPU's reset and wake-ups, the events applied to it
 *   myrinet-idle.c    idle detection: a CPU in a loop that changes nothing
 *                     is halted and its time skipped, exactly
 *   myrinet-fabric.c  packets from the NICs to the fabric, in order; the
 *                     fabric's deliveries and link changes become events
 *   myrinet-host.c    hosts: a private copy of the host program per node,
 *                     the firmware load, host requests as events
 *
 * These call down into myrinet-base.h only (and myrinet-idle.c into
 * myrinet-node.c); the NIC, the board and hostrt reach them through the
 * callbacks the machine gave them when it built the nodes.
 */
#ifndef HW_LANAI_MYRINET_NODE_H
#define HW_LANAI_MYRINET_NODE_H

#include "myrinet-base.h"

/*
 * The private interrupt bit that keeps QEMU calling the scheduler's CPU
 * hook between translation blocks; a node's CPU reset keeps it set.
 */
#define MR_HOOK_IRQ CPU_INTERRUPT_TGT_EXT_0

/* myrinet-node.c */
void mr_node_set_state(MrNode *n, enum mr_state s);
void mr_cpu_hold(MrNode *n, bool hold);
void mr_node_cpu_reset(MrNode *n);
void mr_wake_at(MrNode *n, uint64_t t_ps);
void mr_sram_write(MrNode *n, uint32_t addr, const void *buf, uint32_t len);
void mr_node_apply_due(MrNode *n, uint64_t upto, bool running);

/* myrinet-idle.c */
bool mr_idle_checking(const MrNode *n);
void mr_idle_consider(MrNode *n);
bool mr_idle_step(MrNode *n);
void mr_idle_cancel(MrNode *n);
void mr_idle_wake(MrNode *n, uint64_t t_ps);
void mr_idle_store_hook(CPUState *cs, uint32_t addr, uint32_t size);

/* myrinet-fabric.c */
void mr_tx_init(MyrinetState *m);
void mr_transmit(MrNode *n, uint64_t t_ps, const uint8_t *pkt, size_t len);
void mr_tx_flush(MyrinetState *m, uint64_t upto);
void mr_link_changes(MyrinetState *m);
void mr_bp_init(MyrinetState *m);
void mr_rx_done(MrNode *n, uint64_t id, uint64_t t_ps, bool dropped);
/* runs the switches' agents up to start; the next action's time */
uint64_t mr_agents_run(MyrinetState *m, uint64_t start);

/* myrinet-sm.c: the management entity as the process behind one node */
void mr_sm_init(MyrinetState *m);
bool mr_sm_takes(MyrinetState *m, const struct fabric_delivery *d);
void mr_sm_run(MyrinetState *m, uint64_t upto);
uint64_t mr_sm_next(MyrinetState *m);

/* myrinet-ext.c: a node whose host is an outside process (board-dir) */
void mr_ext_map_sram(MyrinetState *m);
void mr_ext_attach(MyrinetState *m);
uint64_t mr_ext_wall_ps(MyrinetState *m);
bool mr_ext_sample(MyrinetState *m, uint64_t t_ps);
void mr_ext_stats(MyrinetState *m);

/* myrinet-host.c */
void mr_hosts_init(MyrinetState *m);
void mr_hosts_cleanup(MyrinetState *m);

#endif
