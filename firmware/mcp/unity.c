/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The MCP as one translation unit: every part of firmware/ and the ref/proto
 * cores it uses (unchanged), so that the compiler inlines across files.
 * lanai-ld links objects and there is no LTO; built file by file, every call
 * from one part to a small function of another (nc_seq's window arithmetic,
 * route_to, the HAL, ctrl_pending, dma_busy) cost a call, a frame and a
 * return on the per-packet paths. mk/nicoll.mk compiles this file only; the
 * parts keep their own static names apart (one name per file).
 */
#include "../hal/hal.c"
#include "route.c"
#include "main.c"
#include "dma.c"
#include "port.c"
#include "tx.c"
#include "rx.c"
#include "ctrl.c"
#include "../coll/barrier.c"
#include "../../ref/proto/nc_seq.c"
#include "../../ref/proto/nc_barrec.c"
