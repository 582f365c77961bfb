/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NICVM (nicvm.c): user modules verified and run by ref/nicvm's VM on the
 * receive path, before the host DMA.
 */
#ifndef NC_COLL_NICVM_H
#define NC_COLL_NICVM_H

#include "mcp_plugin.h"

extern const struct mcp_coll nc_nicvm;

#endif
