/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The capacities a host process must respect when it talks to the MCP: the
 * sizes of the shared-memory ABI (nc_abi.h) and of what a command may ask
 * for. The firmware's own tuning (windows, buffer pools, queues, timers)
 * lives in firmware/mcp/nc_fw_config.h and is no business of the host.
 *
 * Why these numbers (LANai 9, 2 MB SRAM):
 *  - NC_ABI_MAX_NODES 256 (a build setting: -DNC_ABI_MAX_NODES=N): the
 *    papers' clusters have 16 and 64 nodes. The MCP keeps 1,408 bytes per
 *    peer (connection state, one fence token per (peer, port), the
 *    barrier's held identities, ACK buffer, route), and -mcmodel=small
 *    needs all its data below 1 MiB: 256 peers end it at 941 KiB, 512 do
 *    not fit. A 1024-node cluster takes a build of its own with
 *    -DNC_ABI_MAX_NODES=1024 in the medium code model (mk/firmware.mk; 2 MB
 *    boards only). The ABI block's layout depends on this number, so the
 *    firmware publishes it (max_nodes) and libnicoll refuses an MCP built
 *    with another one (docs/multicast.md "Scale").
 *  - NC_ABI_PORTS 8: GM's eight ports per NIC (seed 002 section 4.3).
 *  - NC_ABI_MAX_MSG 1 MB: the largest message one SEND may carry.
 *  - tokens: 16 sends and 32 receive buffers per port, as GM gives a port
 *    a few dozen tokens; a host holding at most that many cannot overrun its
 *    event ring.
 *  - NC_ABI_CMD_SLOTS 32: the host's command ring per port.
 *  - NC_ABI_MAX_ROUTE 7: route bytes (switch hops) per destination; one
 *    length byte plus 7 fill the 8-byte route slot of the ABI.
 */
#ifndef NICOLL_NC_LIMITS_H
#define NICOLL_NC_LIMITS_H

#ifndef NC_ABI_MAX_NODES
#define NC_ABI_MAX_NODES    256u
#endif
#define NC_ABI_PORTS        8u
#define NC_ABI_MAX_MSG      (1u << 20)   /* largest message, bytes */
#define NC_ABI_SEND_TOKENS  16u          /* per port */
#define NC_ABI_RECV_TOKENS  32u          /* per port */
#define NC_ABI_REGIONS      16u          /* registered memory regions per port */
#define NC_ABI_CMD_SLOTS    32u          /* host command ring per port */
#define NC_ABI_MAX_ROUTE    7u           /* route bytes (switch hops) */

#endif
