/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every capacity of the MCP, in one place. All pools are static arrays
 * sized here; nothing is allocated at run time. The host library reads the
 * ones it must respect (ports, command slots, tokens) from this header too.
 *
 * Why these numbers (LANai 9, 2 MB SRAM):
 *  - NC_FW_MAX_NODES 64: the papers' clusters have 16 and 64 nodes; per-peer
 *    state is about 200 bytes, so 64 peers cost 13 KB.
 *  - NC_FW_PORTS 8: GM's eight ports per NIC (seed 002 section 4.3).
 *  - NC_FW_MTU 4096: payload bytes per packet; one header plus 4 KB keeps a
 *    packet well under the send engine's 16 KB limit and matches GM's 4 KB.
 *  - NC_FW_WINDOW 16: packets in flight per peer (64 KB, more than the
 *    bandwidth-delay product of one link, ~1 us x 250 MB/s).
 *  - NC_FW_PKT_BUFS 64: send packet buffers shared by all peers (260 KB).
 *  - NC_FW_RX_BUFS 8: receive packet buffers; the NIC queues up to 64 more
 *    packets in the engine while all are busy (docs/nic.md).
 *  - tokens: 16 sends and 32 receive buffers per port, as GM gives a port
 *    a few dozen tokens.
 *  - NC_FW_COLL_TOKENS 1024: one per collective packet until its ACK
 *    (firmware/mcp/plugin.c's pool). The barrier's need: a port
 *    has at most two barriers' packets unacknowledged (GB root: 63
 *    broadcasts each), and rejects at an open: 8 x 128, shared.
 *  - NC_FW_RTO_TICKS 100 (50 us): a round trip with a 64 KB window of
 *    4 KB packets ahead in the queue is about 20 us on P-GM2; a lost packet
 *    costs at most twice this.
 */
#ifndef NC_FW_CONFIG_H
#define NC_FW_CONFIG_H

#define NC_FW_MAX_NODES     64u
#define NC_FW_PORTS         8u
#define NC_FW_MTU           4096u
#define NC_FW_MAX_MSG       (1u << 20)   /* largest message, bytes */
#define NC_FW_WINDOW        16u          /* <= NC_TX_WINDOW_MAX (ref/include) */
#define NC_FW_PKT_BUFS      64u
#define NC_FW_RX_BUFS       8u
#define NC_FW_CTRL_BUFS     4u           /* ring of small control packets */
#define NC_FW_SEND_TOKENS   16u          /* per port */
#define NC_FW_RECV_TOKENS   32u          /* per port */
#define NC_FW_REGIONS       16u          /* registered memory regions per port */
#define NC_FW_CMD_SLOTS     32u          /* host command ring per port */
#define NC_FW_EV_STAGE      400u         /* events waiting for their DMA: >= every token of every port */
#define NC_FW_DMA_QUEUE     512u         /* requests per DMA engine: events + rx buffers */
#define NC_FW_CTRL_QUEUE    64u          /* control packets waiting for the wire */
#define NC_FW_MAX_ROUTE     7u           /* route bytes (switch hops) */
#define NC_FW_COLL_TOKENS   1024u        /* collectives' packets waiting for their ACK, all ports */
#define NC_FW_RTO_TICKS     100u         /* retransmission timeout, 0.5 us ticks */

#endif
