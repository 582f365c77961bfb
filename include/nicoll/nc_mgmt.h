/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Switch multicast and the fabric's management packets (docs/fabric.md,
 * "Switch multicast", "The management entity").
 *
 * Routes. A unicast route byte is 0x80 | port (docs/fabric.md). Two more
 * forms, both with the top bit set as every route byte has:
 *  - a multicast destination: the two bytes 0xC0 | (group >> 8), group &
 *    0xFF start the packet instead of a route (NC_ROUTE_MCAST). They are
 *    the group id in InfiniBand's multicast LID form (0xC000 | group, 14
 *    bits). Every switch reads both (they name the entry of its multicast
 *    table), keeps them on the packet it forwards to another switch, and
 *    strips them from a copy it hands to a NIC, which gets the packet from
 *    its type on, as a unicast packet.
 *  - a switch's management port: the route byte 0xBF (port 63, which no
 *    switch has: NC_ROUTE_MGMT) ends the route at the switch that reads it;
 *    the packet goes to its management agent.
 *
 * Management packets: the type (0x0A30..0x0A3F) and a 40-byte body, all
 * fields big-endian.
 */
#ifndef NICOLL_NC_MGMT_H
#define NICOLL_NC_MGMT_H

#include <stdint.h>

#define NC_ROUTE_MCAST      0xC0u   /* first byte: 0xC0 | group >> 8 */
#define NC_ROUTE_MCAST_MASK 0xC0u
#define NC_ROUTE_MGMT       0xBFu   /* the switch's management port */
#define NC_MG_GROUP_LIMIT   0x3FFFu /* group ids 0..0x3FFE (0x3FFF reserved) */

/* A host's requests to the management entity and its answers. An answer
 * says the request was taken (or why not); it never says that the
 * group's switch entries are in place: only a multicast test can tell. */
#define NC_PT_MG_CREATE   0x0A30u /* new group, the sender its first member */
#define NC_PT_MG_CREATED  0x0A31u /* status, group */
#define NC_PT_MG_JOIN     0x0A32u /* group, node */
#define NC_PT_MG_JOINED   0x0A33u /* status */
#define NC_PT_MG_LEAVE    0x0A34u /* group, node */
#define NC_PT_MG_LEFT     0x0A35u /* status */
/* The entity's writes to a switch's multicast table, and the answer. */
#define NC_PT_SW_SET      0x0A38u /* group, ports (0: clear the entry), route back */
#define NC_PT_SW_SET_ACK  0x0A39u /* status, group, tid */

#define NC_PT_MGMT_FIRST  0x0A30u
#define NC_PT_MGMT_LAST   0x0A3Fu

/* status */
#define NC_MG_OK      0u
#define NC_MG_ENOSPC  1u   /* CREATE: every group id is in use (or draining) */
#define NC_MG_ENOENT  2u   /* no such group, or the node is not a member */
#define NC_MG_EEXIST  3u   /* JOIN: already a member */
#define NC_MG_EFULL   4u   /* SW_SET: the switch's table has no free entry */
#define NC_MG_EINVAL  5u   /* a field out of range (group, node, route) */

#define NC_MG_ROUTE_MAX 20u

struct nc_mgmt {
    uint16_t type;
    uint16_t src;        /* sending node (0xFFFF: a switch) */
    uint32_t tid;        /* the requester's transaction id, echoed */
    uint16_t group;
    uint16_t status;
    uint16_t node;       /* JOIN, LEAVE: the member */
    uint8_t nroute;      /* SW_SET: bytes in route[] */
    uint8_t pad;
    uint32_t ports;      /* SW_SET: output ports (bit p: port p) */
    uint8_t route[NC_MG_ROUTE_MAX]; /* SW_SET: from the switch back to the entity */
};

#define NC_MGMT_LEN 40u
_Static_assert(sizeof(struct nc_mgmt) == NC_MGMT_LEN, "a management body is 40 bytes");
_Static_assert((NC_PT_MG_CREATE & 0xF0u) == 0x30u && (NC_PT_SW_SET_ACK & 0xF0u) == 0x30u,
               "management types are in 0x0A30..0x0A3F");
_Static_assert(NC_PT_MGMT_LAST - NC_PT_MGMT_FIRST == 15u, "sixteen management types");
_Static_assert((NC_ROUTE_MCAST | (NC_MG_GROUP_LIMIT >> 8)) == 0xFFu,
               "a multicast destination's first byte is 0xC0..0xFF");
_Static_assert((NC_ROUTE_MGMT & 0xC0u) == 0x80u, "the management route byte is a port byte");

#endif
