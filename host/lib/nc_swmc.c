/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Switch multicast's calls (nicoll.h, docs/libnicoll.md "Switch
 * multicast"): the management entity's requests and one unreliable packet
 * to a switch group, as NC_CMD_GROUP commands (firmware/coll/group.c).
 * The answers and the group's packets come back through nicoll.c's events.
 */
#include "nicoll/nc_abi.h"
#include "nicoll/nc_mgmt.h"
#include "nicoll.h"
#include "nc_internal.h"

_Static_assert(NC_MG_CREATE == NC_GRP_OP_CREATE && NC_MG_JOIN == NC_GRP_OP_JOIN &&
               NC_MG_LEAVE == NC_GRP_OP_LEAVE && NC_MG_STATS == NC_GRP_OP_STATS,
               "the library's operations are the command's");

static int mg_post(nc_port *p, uint32_t op, unsigned sm_node, uint32_t group, unsigned node,
                   uint32_t tid)
{
    union nc_cmd c;

    if (!p || (op != NC_GRP_OP_STATS && sm_node >= nc_node_count(p)) ||
        ((op == NC_GRP_OP_JOIN || op == NC_GRP_OP_LEAVE) &&
         (group >= NC_MG_GROUP_LIMIT || node >= nc_node_count(p))))
        return NC_EINVAL;
    c.grp_mg = (struct nc_cmd_grp_mg){ .op = NC_CMD_GROUP, .grp_op = op, .sm_node = sm_node,
                                       .group = group, .node = node, .tid = tid };
    return ncp_post(p, &c);
}

int nc_mg_create(nc_port *p, unsigned sm_node, uint32_t tid)
{
    return mg_post(p, NC_GRP_OP_CREATE, sm_node, 0, 0, tid);
}

int nc_mg_join(nc_port *p, unsigned sm_node, uint32_t group, unsigned node, uint32_t tid)
{
    return mg_post(p, NC_GRP_OP_JOIN, sm_node, group, node, tid);
}

int nc_mg_leave(nc_port *p, unsigned sm_node, uint32_t group, unsigned node, uint32_t tid)
{
    return mg_post(p, NC_GRP_OP_LEAVE, sm_node, group, node, tid);
}

int nc_mg_stats(nc_port *p, uint32_t tid)
{
    return mg_post(p, NC_GRP_OP_STATS, 0, 0, 0, tid);
}

int nc_gsend(nc_port *p, uint32_t group, unsigned port, const void *buf, size_t len, void *ctx)
{
    union nc_cmd c;
    uint64_t bus = 0;
    int k, rc;

    if (!p || group >= NC_MG_GROUP_LIMIT || port >= NC_ABI_PORTS || len > NC_ABI_GRP_MAX ||
        (len && !buf))
        return NC_EINVAL;
    if (len && (rc = nc_bus_address(p, buf, len, &bus)) != NC_OK)
        return rc;
    /* the SENT event's node is the group's, not a node: NC_ABI_MAX_NODES */
    if ((k = ncp_send_token(p, ctx, buf, len, NC_ABI_MAX_NODES, port)) < 0)
        return NC_EAGAIN;
    c.grp_send = (struct nc_cmd_grp_send){ .op = NC_CMD_GROUP, .grp_op = NC_GRP_OP_SEND,
                                           .group = group, .bus_hi = (uint32_t)(bus >> 32),
                                           .bus_lo = (uint32_t)bus, .len = (uint32_t)len,
                                           .dport = port, .cookie = (uint32_t)k };
    if ((rc = ncp_post(p, &c)) != NC_OK)
        ncp_send_token_drop(p, (unsigned)k);
    return rc;
}
