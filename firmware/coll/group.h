/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Switch multicast from the NIC (docs/fabric.md "Switch multicast", "The
 * management entity"), a collective plugged into the MCP core
 * (mcp_plugin.h): NC_CMD_GROUP from the host (a management request to the
 * entity's node; one unreliable packet to a switch group), the entity's
 * answers (NC_PT_MG_CREATED, JOINED, LEFT) handed up as NC_EV_GROUP
 * events, and a group's packets (NC_PT_GRP_DATA) delivered into receive
 * buffers as NC_EV_GRECV events. All of its packets are raw: outside
 * every connection's sequence.
 */
#ifndef NC_COLL_GROUP_H
#define NC_COLL_GROUP_H

#include "mcp_plugin.h"

extern const struct mcp_coll nc_swgroup;

#endif
