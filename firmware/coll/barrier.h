/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The NIC-based barrier (seed 002 sections 3-5; docs/barrier.md), a
 * collective plugged into the MCP core (mcp_plugin.h): NC_CMD_BARRIER from
 * the host, barrier packets 0x0A14..0x0A17 on the ordinary reliable
 * connections, one NC_EV_BARRIER event per barrier.
 */
#ifndef NC_COLL_BARRIER_H
#define NC_COLL_BARRIER_H

#include "mcp_plugin.h"

extern const struct mcp_coll nc_barrier;

#endif
