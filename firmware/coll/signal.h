/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host signals (seed 004 section 3.4.1; docs/reduction.md), a collective
 * plugged into the MCP core (mcp_plugin.h): NC_CMD_SIGNAL from the host
 * (signals on or off for a port; a send of the signalling type), packets
 * of type NC_PT_SIG on the ordinary reliable connections, delivered
 * through the receive path's hook as ordinary RECV events.
 */
#ifndef NC_COLL_SIGNAL_H
#define NC_COLL_SIGNAL_H

#include "mcp_plugin.h"

extern const struct mcp_coll nc_signal;

#endif
