/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The MCP's own tuning, in one place: pools, queues, window and timer. All
 * pools are static arrays sized here; nothing is allocated at run time. The
 * capacities the host sees (nodes, ports, tokens, command slots, message
 * size) are the contract's: include/nicoll/nc_limits.h. The assertions at
 * the end tie every number to the bound it must respect.
 *
 * Why these numbers (LANai 9, 2 MB SRAM):
 *  - NC_FW_MTU 4096: payload bytes per packet; one header plus 4 KB keeps a
 *    packet well under the send engine's 16 KB limit and matches GM's 4 KB.
 *  - NC_FW_WINDOW 16: packets in flight per peer (64 KB, more than the
 *    bandwidth-delay product of one link, ~1 us x 250 MB/s).
 *  - NC_FW_PKT_BUFS 64: send packet buffers shared by all peers (260 KB).
 *  - NC_FW_RX_BUFS 8: receive packet buffers; the NIC queues up to 64 more
 *    packets in the engine while all are busy (docs/nic.md).
 *  - NC_FW_COLL_TOKENS 1024: one per collective packet until its ACK
 *    (firmware/mcp/plugin.c's pool). The barrier's need: a port
 *    has at most two barriers' packets unacknowledged (GB root: 63
 *    broadcasts each), and rejects at an open: 8 x 128, shared.
 *  - NC_FW_DMA_CHAIN 16: blocks an engine runs as one descriptor chain
 *    (at least a payload and its event); a whole window of a stream's
 *    payloads, so that the engine pauses for the CPU once a window, not
 *    every 4 packets (4 -> 16: 223.2 -> 224.9 MB/s streaming 64 KB
 *    messages on p-gm164-pci64b, docs/firmware.md "Pipelining").
 *  - NC_FW_RX_EARLY_ARM 1024: a packet with at least this much payload
 *    has the receive engine armed with the next buffer before it is
 *    handled (the next packet's 4 us or more of intake overlap the work);
 *    a smaller one re-arms its own buffer after the work, which costs
 *    small messages' latency less (rx.c, deliver).
 *  - NC_FW_RTO_TICKS 100 (50 us): a round trip with a 64 KB window of
 *    4 KB packets ahead in the queue is about 20 us on P-GM2; a lost packet
 *    costs at most twice this.
 *  - NC_FW_HOOK 1: the receive path's hook for collectives (mcp_plugin.h
 *    `data`, mcp_send_data, mcp_recv_take, mcp_recv_deliver) and the
 *    SRAM arena its collectives take their large state from (mcp_sram). The
 *    1024-peer image (mk/firmware.mk) builds with 0: its SRAM is full to
 *    the stack, and the collectives it holds (barrier, multicast) do not
 *    use the hook.
 *  - NC_FW_SIGNAL, NC_FW_NICVM (NC_FW_HOOK): the collectives on the hook,
 *    host signals and NICVM, in every image that has it. A test image
 *    that adds a collective of its own (tests/plugin) leaves them out:
 *    their data and its together do not fit below the 1 MiB that the
 *    small code model's data must lie in.
 *  - NC_FW_GROUP (NC_FW_HOOK): switch multicast (firmware/coll/group.c),
 *    which delivers with the hook's mcp_recv_take; left out with the others
 *    where the hook is.
 *  - NC_FW_REDUCE (NC_FW_HOOK): the NIC-based reduction
 *    (firmware/coll/reduce.c), which combines packets on the hook; its
 *    slots and segments are in the arena.
 */
#ifndef NC_FW_CONFIG_H
#define NC_FW_CONFIG_H

#include "nc_config.h"            /* ref/include: the ref/ cores' bounds */
#include "nicoll/nc_limits.h"

#ifndef NC_FW_HOOK
#define NC_FW_HOOK 1
#endif
#ifndef NC_FW_SIGNAL
#define NC_FW_SIGNAL NC_FW_HOOK
#endif
#ifndef NC_FW_NICVM
#define NC_FW_NICVM NC_FW_HOOK
#endif
#ifndef NC_FW_GROUP
#define NC_FW_GROUP NC_FW_HOOK
#endif
#ifndef NC_FW_REDUCE
#define NC_FW_REDUCE NC_FW_HOOK
#endif
#if (NC_FW_SIGNAL || NC_FW_NICVM || NC_FW_GROUP || NC_FW_REDUCE) && !NC_FW_HOOK
#error "host signals, NICVM, switch multicast and the NIC reduction use the receive path's hook (NC_FW_HOOK)"
#endif

#define NC_FW_MTU           4096u
#define NC_FW_WINDOW        16u          /* <= NC_TX_WINDOW_MAX (ref/include) */
#define NC_FW_PKT_BUFS      64u
#define NC_FW_RX_BUFS       8u
#define NC_FW_CTRL_BUFS     4u           /* ring of small control packets */
#define NC_FW_EV_STAGE      400u         /* events waiting for their DMA: >= every token of every port */
#define NC_FW_DMA_QUEUE     512u         /* requests per DMA engine: events + rx buffers */
#define NC_FW_DMA_CHAIN     16u          /* blocks an engine runs without the CPU: a window of payloads */
#define NC_FW_CTRL_QUEUE    64u          /* control packets waiting for the wire */
#define NC_FW_COLL_TOKENS   1024u        /* collectives' packets waiting for their ACK, all ports */
#define NC_FW_RX_EARLY_ARM  1024u        /* payload bytes from which the next receive buffer is armed first */
#define NC_FW_RTO_TICKS     100u         /* retransmission timeout, 0.5 us ticks */

/* Every number against its bound. */
_Static_assert(NC_FW_WINDOW <= NC_TX_WINDOW_MAX && (NC_FW_WINDOW & (NC_FW_WINDOW - 1)) == 0,
               "the send window is a power of two within ref/proto's nc_seq window");
_Static_assert(NC_ABI_MAX_NODES <= NC_MAX_NODES, "node ids fit ref/'s tables");
_Static_assert(NC_ABI_PORTS <= NC_MAX_PORTS, "ports fit the barrier record (ref/proto nc_barrec)");
_Static_assert(NC_FW_EV_STAGE >= NC_ABI_PORTS * (NC_ABI_SEND_TOKENS + NC_ABI_RECV_TOKENS),
               "an event can wait for its DMA for every token of every port");
_Static_assert(NC_FW_DMA_CHAIN >= 2 && NC_FW_DMA_CHAIN <= NC_FW_DMA_QUEUE,
               "a chain holds at least a payload and its event, and only queued requests");
_Static_assert(NC_FW_DMA_QUEUE >= NC_FW_EV_STAGE + NC_FW_RX_BUFS,
               "the DMA queue holds every staged event and every receive buffer");
_Static_assert(NC_FW_MTU % 4u == 0 && NC_FW_MTU + 64u <= 16384u,
               "a packet (header, payload, route) stays under the send engine's 16 KB");
_Static_assert(NC_ABI_MAX_MSG % NC_FW_MTU == 0, "a largest message is whole packets");

#endif
