/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NIC-based reduction (docs/reduction.md "NIC-based reduction"), a
 * collective plugged into the MCP core (mcp_plugin.h): NC_CMD_REDUCE from
 * the host (a reduction block: the tree at this member and its data),
 * packets NC_PT_RED_UP and NC_PT_RED_DOWN on the ordinary reliable
 * connections, combined on the receive path's hook before any host sees
 * them, with ref/red's arithmetic.
 */
#ifndef NC_COLL_REDUCE_H
#define NC_COLL_REDUCE_H

#include "mcp_plugin.h"

extern const struct mcp_coll nc_reduce;

#endif
