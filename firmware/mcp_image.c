/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The MCP image: the core (firmware/mcp), the collectives it hosts
 * (firmware/coll) and the ref/proto cores they use (unchanged), as one
 * translation unit, so that the compiler inlines across files. lanai-ld
 * links objects and there is no LTO; built file by file, every call from
 * one part to a small function of another (nc_seq's window arithmetic,
 * route_to, the HAL, ctrl_pending, dma_busy) cost a call, a frame and a
 * return on the per-packet paths. mk/firmware.mk compiles this file only;
 * the parts keep their own static names apart (one name per file).
 *
 * A new collective: its file under firmware/coll, included below, and one
 * mcp_register() line in mcp_plugins() (firmware/mcp/mcp_plugin.h).
 */
#include "hal/hal.c"
#include "mcp/route.c"
#include "mcp/main.c"
#include "mcp/dma.c"
#include "mcp/port.c"
#include "mcp/tx.c"
#include "mcp/rx.c"
#include "mcp/ctrl.c"
#include "mcp/plugin.c"
#include "coll/barrier.c"
/* Multicast's per-packet paths are compiled for speed (a 4-destination
 * multisend takes 26.5 us, 28.2 with minsize, for ~3.5 KB of code); the
 * proved cores it calls, and the whole of it in the 1024-peer image
 * (NC_MC_MINSIZE: its SRAM is full to the stack), for size: at -O3 the
 * table loops can unroll into 12 KB of code, and the loader's time to
 * copy the image grows with it (tests/timeout/suite's schedule; 2.5 ms
 * more at every boot for 12 KB). */
#ifdef NC_MC_MINSIZE
#pragma clang attribute push(__attribute__((minsize)), apply_to = function)
#include "coll/mcast.c"
#pragma clang attribute pop
#else
#include "coll/mcast.c"
#endif
/* Host signals use the receive path's hook: not in the 1024-peer image,
 * which has no hook (and no SRAM to spare). */
#if NC_FW_SIGNAL
#include "coll/signal.c"
#endif
/* Switch multicast delivers into receive buffers with the hook's
 * mcp_recv_take: not in the 1024-peer image either. Compiled for size: at
 * -O3 it is 4.9 KB of code, and every boot copies the image (the loader's
 * time grows with it; tests/timeout/suite's schedule). */
#if NC_FW_GROUP
#pragma clang attribute push(__attribute__((minsize)), apply_to = function)
#include "coll/group.c"
#pragma clang attribute pop
#endif
#pragma clang attribute push(__attribute__((minsize)), apply_to = function)
#include "../ref/proto/nc_mcack.c"
#include "../ref/proto/nc_mcgroup.c"
#pragma clang attribute pop
#include "../ref/proto/nc_seq.c"
#include "../ref/proto/nc_barrec.c"
/* NICVM: the plug-in, and ref/nicvm's verifier and VM unchanged (the
 * proved C that nicvm-check runs). Only where the receive path's hook is
 * (NC_FW_NICVM, set with NC_FW_HOOK: not in the 1024-peer image, whose
 * SRAM is full). The verifier runs once per upload and is compiled for
 * size; the plug-in and the VM run on every NICVM packet (compiled for
 * size, a NIC echo's round trip on P-VM took 1.5 times as long). */
#if NC_FW_NICVM
#include "coll/nicvm.c"
#include "../ref/nicvm/nv_vm.c"
#include "../ref/nicvm/nv_env.c"
#pragma clang attribute push(__attribute__((minsize)), apply_to = function)
#include "../ref/nicvm/nv_verify.c"
#include "../ref/nicvm/nv_cost.c"
#pragma clang attribute pop
#endif
/* The NIC-based reduction: the plug-in (for size: it runs once per
 * segment) and ref/red's arithmetic unchanged, for speed (it runs once per
 * element). On the hook, so not in the 1024-peer image; its slots are in
 * the arena, so not in the 1 MB board's image either. */
#if NC_FW_REDUCE
#pragma clang attribute push(__attribute__((minsize)), apply_to = function)
#include "coll/reduce.c"
#pragma clang attribute pop
#include "../ref/red/nc_red.c"
#include "../ref/red/nc_sfp.c"
#include "../ref/red/nc_xacc.c"
#endif

/* The collectives this image holds, in the order of their ids. */
void mcp_plugins(void)
{
    (void)mcp_register(&nc_barrier);
    (void)mcp_register(&nc_mcast);
#if NC_FW_SIGNAL
    (void)mcp_register(&nc_signal);
#endif
#if NC_FW_NICVM
    (void)mcp_register(&nc_nicvm);
#endif
#if NC_FW_GROUP
    (void)mcp_register(&nc_swgroup);
#endif
#if NC_FW_REDUCE
    (void)mcp_register(&nc_reduce);
#endif
}
