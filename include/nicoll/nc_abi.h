/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interface between libnicoll and the MCP: where things are in SRAM,
 * the command words a host process writes into its port's command ring,
 * and the event records the MCP writes by DMA into the port's event ring in
 * host memory. Everything is 32-bit big-endian words (the LANai's order);
 * the host converts (PIO words are converted by the board window).
 *
 * The firmware publishes the address of its struct nc_abi in the shared
 * block (NC_SB_OFF_ABI) before it signals ready.
 *
 * Command ring (per port): the host writes slot (prod % NC_ABI_CMD_SLOTS),
 * the words the command uses only, opcode word last, then prod + 1 into
 * 'prod'. The MCP executes commands in order and publishes its consumer
 * count in 'cons'. The host never has more than NC_ABI_CMD_SLOTS commands
 * outstanding.
 *
 * Inline sends (NC_CMD_SENDI): a message of at most NC_ABI_INLINE_MAX
 * bytes goes by PIO, not by DMA: the host writes its payload into the
 * port's inline area of the send token it uses (sdata[token], the token
 * being the command's cookie), then the command. The MCP copies the
 * payload into the packet when it builds it, and the host writes that area
 * again only after the token's SENT event: no host memory is read, no
 * DMA waited for (docs/firmware.md "Inline sends").
 *
 * Event ring (per port, host memory, given with OPEN): event i (from 0)
 * goes to slot i % slots and carries i + 1 in its first word, so the host
 * knows a slot is new without any other handshake. Every event returns the
 * token of the command that caused it (a send, a receive buffer), so a
 * host that holds at most 'slots' tokens cannot be overrun.
 */
#ifndef NICOLL_NC_ABI_H
#define NICOLL_NC_ABI_H

#include <stddef.h>

#include "nc_limits.h"

#define NC_ABI_MAGIC   0x4E434142u /* "NCAB" */
#define NC_ABI_VERSION 2u

/* Command opcodes (word 0 of a slot). */
#define NC_CMD_OPEN      1u /* a1 ev_bus_hi, a2 ev_bus_lo, a3 ev_slots */
#define NC_CMD_CLOSE     2u
#define NC_CMD_REG       3u /* a1 region index, a2 bus_hi, a3 bus_lo, a4 len */
#define NC_CMD_DEREG     4u /* a1 region index */
#define NC_CMD_RECV      5u /* a1 bus_hi, a2 bus_lo, a3 len, a4 cookie */
#define NC_CMD_SEND      6u /* a1 bus_hi, a2 bus_lo, a3 len, a4 dst node, a5 dst port, a6 cookie */
#define NC_CMD_BARRIER   7u /* a1 bus_hi, a2 bus_lo, a3 len (0: the steps of this port's
                               previous barrier again, no DMA), a4 cookie; docs/barrier.md */
#define NC_CMD_TIMEOUT   8u /* a1 send time-out in microseconds (0: the default) */
#define NC_CMD_MCAST     9u /* multicast (firmware/coll/mcast.c, docs/multicast.md); a1 the
                               operation NC_MC_OP_*, then its words: */
#define NC_MC_OP_SET   1u   /* a2 group id (not 0), a3 parent NC_MC_MEMBER or NC_MC_ROOT,
                               a4 children in all, a5 index of the first child below,
                               a6, a7 up to two children (NC_MC_MEMBER); the entry is
                               usable once every child is set; NC_EV_ERROR on refusal */
#define NC_MC_OP_DEL   2u   /* a2 group id */
#define NC_MC_OP_SEND  3u   /* a2 group id, a3 bus_hi, a4 bus_lo, a5 len, a6 cookie: from
                               the root to every child; NC_EV_SENT (word 7 the group id)
                               once every child acknowledged all of it */
#define NC_MC_OP_SENDI 4u   /* a2 group id, a3 len (<= NC_ABI_INLINE_MAX), a4 cookie (the
                               host's send token): NC_MC_OP_SEND of an inline payload, in
                               the port's sdata[cookie] (as NC_CMD_SENDI) */
#define NC_MC_MEMBER(node, port) ((uint32_t)(node) << 8 | (port))
#define NC_MC_ROOT     0xFFFFFFFFu
#define NC_CMD_SENDI    10u /* a1 len (<= NC_ABI_INLINE_MAX), a2 dst node << 8 | dst port,
                               a3 cookie (the host's send token, < NC_ABI_SEND_TOKENS):
                               the payload is in the port's sdata[cookie] */

/* The send time-out (docs/firmware.md "Send time-outs"): a message whose
 * connection has made no progress (no packet acknowledged) for this long
 * while the message holds the oldest unacknowledged packet fails with
 * NC_ST_ETIMEDOUT, with every message queued behind it from the same port
 * to the same (node, port). Per port, set by NC_CMD_TIMEOUT; reset to the
 * default at every open. */
#define NC_ABI_SEND_TIMEOUT_DEFAULT_US 1000000u      /* 1 s */
#define NC_ABI_SEND_TIMEOUT_MAX_US     1000000000u   /* 1000 s: 2e9 RTC ticks fit 31 bits */

/* Event types (word 1 of an event). */
#define NC_EV_SENT       1u /* status 0 or an error; cookie of the send */
#define NC_EV_RECV       2u /* status 0 or an error; cookie, len, src node, src port */
#define NC_EV_ERROR      3u /* a command was refused: status, cookie = opcode */
#define NC_EV_BARRIER    4u /* a NIC-based barrier completed (or was refused): status, cookie */
/* Word 7 of an event: 0, or the group id of a multicast's RECV (at a member)
 * or SENT (at the root). */

/* Event status codes (the host library maps them to nc_strerror text). */
#define NC_ST_OK          0u
#define NC_ST_EFAULT      1u /* memory not registered by this port */
#define NC_ST_EPORTCLOSED 2u /* the destination port was closed (or reopened) */
#define NC_ST_ENOROUTE    3u /* no route to the destination node */
#define NC_ST_EINVAL      4u /* bad argument (port, length, node, index) */
#define NC_ST_ENORES      5u /* out of tokens or staging slots */
#define NC_ST_ECLOSED     6u /* cancelled: this port was closed */
#define NC_ST_EBUSY       7u /* a barrier is already running on this port */
#define NC_ST_EPERM       9u /* a group owned by another port of this NIC */
#define NC_ST_ETIMEDOUT   8u /* SENT: not acknowledged within the port's send time-out
                                (receiver without buffers, or its NIC dead or cut off);
                                RECV: the sender timed out in the middle of this message */

/* The barrier buffer (NC_CMD_BARRIER), big-endian words: a header, then one
 * word per step, done in order (firmware/coll/barrier.c, docs/barrier.md). */
#define NC_BAR_MAGIC      0x4E42u   /* header: magic << 16 | steps */
#define NC_BAR_MAX_STEPS  128u      /* GB with 63 children: 63 + 1 + 1 + 63 */
#define NC_BSTEP_SEND     1u        /* step: op << 28 | phase << 24 | port << 16 | node */
#define NC_BSTEP_RECV     2u        /* both bits: send, then receive (PE exchange) */
#define NC_BSTEP_PE       0u
#define NC_BSTEP_GATHER   1u
#define NC_BSTEP_BCAST    2u
#define NC_BSTEP(op, ph, port, node) \
    ((unsigned)(op) << 28 | (unsigned)(ph) << 24 | (unsigned)(port) << 16 | (unsigned)(node))

#define NC_EV_WORDS 8u     /* counter, type, status, cookie, len, src node, src port, 0 */
#define NC_CMD_WORDS 8u
/* The largest inline send, bytes (a multiple of 4). Where PIO stops paying:
 * each payload word costs the host a PIO write (and the packet that much
 * later), the DMA path costs one host-memory read and the MCP's DMA
 * set-up and completion (docs/firmware.md "Inline sends" has the numbers). */
#define NC_ABI_INLINE_MAX 128u

/* Per-port block in SRAM. */
struct nc_abi_port {
    volatile unsigned prod;        /* host: commands written */
    volatile unsigned cons;        /* MCP: commands executed */
    volatile unsigned state;       /* MCP: 0 closed, 1 open */
    volatile unsigned gen;         /* MCP: incremented at every open and close */
    volatile unsigned bar_unexp;   /* MCP: barrier messages recorded as unexpected */
    volatile unsigned bar_resent;  /* MCP: barrier messages sent again after a reject */
    volatile unsigned bar_rejects; /* MCP: held barrier messages rejected at open */
    unsigned pad;
    volatile unsigned cmd[NC_ABI_CMD_SLOTS][NC_CMD_WORDS];
    /* inline sends' payloads, one area per send token (NC_CMD_SENDI) */
    volatile unsigned sdata[NC_ABI_SEND_TOKENS][NC_ABI_INLINE_MAX / 4];
};

struct nc_abi {
    volatile unsigned magic, version, nports, max_nodes;
    volatile unsigned routes_valid;  /* host: node count once routes[] is written */
    unsigned pad[3];
    /* host: routes[n] = route length, then up to NC_ABI_MAX_ROUTE bytes */
    volatile unsigned char routes[NC_ABI_MAX_NODES][8];
    struct nc_abi_port port[NC_ABI_PORTS];
};

#define NC_ABI_OFF_ROUTES_VALID 16u
#define NC_ABI_OFF_ROUTES       32u
#define NC_ABI_PORT_SIZE        (32u + 4u * NC_CMD_WORDS * NC_ABI_CMD_SLOTS + \
                                 NC_ABI_INLINE_MAX * NC_ABI_SEND_TOKENS)
#define NC_ABI_OFF_PORT(p)      (NC_ABI_OFF_ROUTES + 8u * NC_ABI_MAX_NODES + (p) * NC_ABI_PORT_SIZE)
#define NC_ABI_PORT_PROD  0u
#define NC_ABI_PORT_CONS  4u
#define NC_ABI_PORT_STATE 8u
#define NC_ABI_PORT_GEN   12u
#define NC_ABI_PORT_BAR_UNEXP   16u
#define NC_ABI_PORT_BAR_RESENT  20u
#define NC_ABI_PORT_BAR_REJECTS 24u
#define NC_ABI_PORT_CMD(slot) (32u + (slot) * 4u * NC_CMD_WORDS)
#define NC_ABI_PORT_SDATA(tok) (NC_ABI_PORT_CMD(NC_ABI_CMD_SLOTS) + (tok) * NC_ABI_INLINE_MAX)

/* The offsets above are what the host uses over PIO; the struct is what the
 * firmware uses. They are one layout: */
_Static_assert(offsetof(struct nc_abi, routes_valid) == NC_ABI_OFF_ROUTES_VALID, "routes_valid");
_Static_assert(offsetof(struct nc_abi, routes) == NC_ABI_OFF_ROUTES, "routes");
_Static_assert(offsetof(struct nc_abi, port) == NC_ABI_OFF_PORT(0), "port[0]");
_Static_assert(offsetof(struct nc_abi, port[1]) == NC_ABI_OFF_PORT(1), "port stride");
_Static_assert(offsetof(struct nc_abi_port, prod) == NC_ABI_PORT_PROD, "prod");
_Static_assert(offsetof(struct nc_abi_port, cons) == NC_ABI_PORT_CONS, "cons");
_Static_assert(offsetof(struct nc_abi_port, state) == NC_ABI_PORT_STATE, "state");
_Static_assert(offsetof(struct nc_abi_port, gen) == NC_ABI_PORT_GEN, "gen");
_Static_assert(offsetof(struct nc_abi_port, bar_unexp) == NC_ABI_PORT_BAR_UNEXP, "bar_unexp");
_Static_assert(offsetof(struct nc_abi_port, bar_resent) == NC_ABI_PORT_BAR_RESENT, "bar_resent");
_Static_assert(offsetof(struct nc_abi_port, bar_rejects) == NC_ABI_PORT_BAR_REJECTS, "bar_rejects");
_Static_assert(offsetof(struct nc_abi_port, cmd[1]) == NC_ABI_PORT_CMD(1), "cmd slot stride");
_Static_assert(offsetof(struct nc_abi_port, sdata[1]) == NC_ABI_PORT_SDATA(1), "inline area stride");
_Static_assert(NC_ABI_INLINE_MAX % 4u == 0, "inline payloads are whole words");
_Static_assert(sizeof(struct nc_abi_port) == NC_ABI_OFF_PORT(1) - NC_ABI_OFF_PORT(0), "port size");
_Static_assert(sizeof(((struct nc_abi *)0)->routes[0]) == 1u + NC_ABI_MAX_ROUTE,
               "a route slot is a length byte and NC_ABI_MAX_ROUTE route bytes");
_Static_assert(NC_BAR_MAX_STEPS <= 0xFFFFu, "the barrier header's step count is 16 bits");

#endif
