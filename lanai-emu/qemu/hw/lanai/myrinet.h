/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The myrinet cluster machine (docs/myrinet.md), top layer. Its files are
 * layered; each layer has one header, which includes the one below, and
 * includes and calls go down only:
 *
 *   machine      myrinet.c         QOM type, properties, init, reset
 *   (myrinet.h)  myrinet-hw.c      the nodes' QEMU hardware and callbacks
 *        |
 *        v
 *   scheduler    myrinet-sched.c   windows, the CPU hooks
 *   (-sched.h)   myrinet-end.c     traps, end of the run, exit status
 *        |
 *        v
 *   nodes, host  myrinet-node.c    a node's run state, events applied
 *   (-node.h)    myrinet-idle.c    idle loops detected and skipped
 *                myrinet-fabric.c  packets to the fabric, in order
 *                myrinet-host.c    host programs, firmware load, PIO
 *        |
 *        v
 *   base         myrinet-time.c    cycles <-> ps, the CPU's budget
 *   (-base.h)    myrinet-events.c  a node's event heap
 *                myrinet-trace.c   the event trace
 *                myrinet-console.c the hosts' console lines
 *
 * Within a layer only myrinet.c -> myrinet-hw.c, myrinet-idle.c ->
 * myrinet-node.c and myrinet-sched.c -> myrinet-end.c call each other.
 * A lower layer reaches an upper one only through a callback it was given:
 * QEMU calls the CPU hooks (LanaiCPU.board_*_hook, installed by the
 * scheduler), the NIC and board call the nic_env/board_env functions
 * (myrinet-hw.c), hostrt calls hostrt_machine's (myrinet-host.c).
 *
 * State is passed, not global: every function takes the machine or a node,
 * a node points to its machine (MrNode.m), callbacks get the node or the
 * machine as their opaque pointer (for the CPU hooks: CPUState.opaque).
 * The one exception is host_entry() in myrinet-host.c, which hostrt starts
 * with main's arguments only: it finds the machine with qdev_get_machine().
 */
#ifndef HW_LANAI_MYRINET_H
#define HW_LANAI_MYRINET_H

#include "myrinet-sched.h"

/* myrinet-hw.c */
void mr_nodes_build(MyrinetState *m, MachineState *ms);

#endif
