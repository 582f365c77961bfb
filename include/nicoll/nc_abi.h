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
#include <stdint.h>

#include "nc_limits.h"

#define NC_ABI_MAGIC   0x4E434142u /* "NCAB" */
#define NC_ABI_VERSION 2u

/* Command opcodes (word 0 of a slot); each command's words are its struct
 * below. */
#define NC_CMD_OPEN      1u /* struct nc_cmd_open */
#define NC_CMD_CLOSE     2u /* struct nc_cmd_close */
#define NC_CMD_REG       3u /* struct nc_cmd_reg */
#define NC_CMD_DEREG     4u /* struct nc_cmd_dereg */
#define NC_CMD_RECV      5u /* struct nc_cmd_recv */
#define NC_CMD_SEND      6u /* struct nc_cmd_send */
#define NC_CMD_BARRIER   7u /* struct nc_cmd_barrier; docs/barrier.md */
#define NC_CMD_TIMEOUT   8u /* struct nc_cmd_timeout */
#define NC_CMD_MCAST     9u /* multicast: struct nc_cmd_mcast, word 1 the operation: */
#define NC_MC_OP_SET   1u   /* struct nc_cmd_mc_set */
#define NC_MC_OP_DEL   2u   /* struct nc_cmd_mc_del */
#define NC_MC_OP_SEND  3u   /* struct nc_cmd_mc_send */
#define NC_MC_OP_SENDI 4u   /* struct nc_cmd_mc_sendi */
#define NC_MC_MEMBER(node, port) ((uint32_t)(node) << 8 | (port))  /* a member in one word */
#define NC_MC_ROOT     0xFFFFFFFFu  /* nc_cmd_mc_set.parent of the root's entry */
#define NC_CMD_SENDI    10u /* struct nc_cmd_sendi */
#define NC_CMD_SIGNAL   12u /* host signals (firmware/coll/signal.c, docs/reduction.md):
                               struct nc_cmd_signal, word 1 the operation: */
#define NC_SIG_OP_SET   1u  /* struct nc_cmd_sig_set: the port's signals on or off */
#define NC_SIG_OP_SEND  2u  /* struct nc_cmd_sig_send: a message that signals its receiver */
#define NC_CMD_REDUCE   13u /* NIC-based reduction (firmware/coll/reduce.c, docs/reduction.md):
                               struct nc_cmd_reduce, a reduction block (struct nc_red_block) */
#define NC_CMD_GROUP    14u /* switch multicast (firmware/coll/group.c, docs/fabric.md):
                               struct nc_cmd_group, word 1 the operation: */
#define NC_GRP_OP_CREATE 1u /* struct nc_cmd_grp_mg: NC_PT_MG_CREATE to the entity */
#define NC_GRP_OP_JOIN   2u /* struct nc_cmd_grp_mg: NC_PT_MG_JOIN */
#define NC_GRP_OP_LEAVE  3u /* struct nc_cmd_grp_mg: NC_PT_MG_LEAVE */
#define NC_GRP_OP_SEND   4u /* struct nc_cmd_grp_send: one packet to a switch group */
#define NC_GRP_OP_STATS  5u /* struct nc_cmd_grp_mg (tid only): the NIC's counters */
/* The port's signal word in host memory (struct nc_cmd_sig_set), written
 * by the NIC's DMA, big-endian: word 0 the seq of the last SET it took,
 * word 1 the signals it raised for the port. */
#define NC_SIG_WORD_BYTES 8u
#define NC_CMD_NICVM    11u /* NICVM modules: struct nc_cmd_nicvm, word 1 the operation: */
#define NC_NV_OP_ADD      1u  /* struct nc_cmd_nv_add: verify and install a module image */
#define NC_NV_OP_PURGE    2u  /* struct nc_cmd_nv_purge */
#define NC_NV_OP_SEND     3u  /* struct nc_cmd_nv_send: a packet to the module at another rank */
#define NC_NV_OP_DELEGATE 4u  /* struct nc_cmd_nv_send: a packet to the local module */
#define NC_NV_OP_LIST     5u  /* struct nc_cmd_nv_list: the NIC's modules and counters */
#define NC_NV_OP_BUDGET   6u  /* struct nc_cmd_nv_budget: a port's budget (privileged port) */

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
#define NC_EV_NICVM      5u /* a NICVM operation's answer: status, cookie, three values,
                               word 7 the operation (NC_NV_OP_*; docs/nicvm.md) */
#define NC_EV_GROUP      6u /* a management request's answer (NC_CMD_GROUP): status the
                               NIC's, cookie the host's tid, len the entity's status
                               (NC_MG_*, nc_mgmt.h), src the entity's node, src port the
                               operation, word 7 the group; NC_GRP_OP_STATS: len, src and
                               word 7 the NIC's counters (NC_GRP_CTR_*) */
#define NC_EV_GRECV      7u /* a switch group's packet (NC_GRP_OP_SEND), delivered as a
                               RECV: status, cookie, len, src node, src port, word 7 the
                               group (0 is a group id here, so the type tells it apart) */
#define NC_EV_REDUCE     8u /* this NIC's part of a NIC-based reduction is done (the result,
                               where it goes, is in the block): status, cookie, len the
                               block's bytes */
/* Word 7 of an event: 0, or the group id of a multicast's RECV (at a member)
 * or SENT (at the root), of a switch group's GRECV, or of an NC_GRP_OP_SEND's
 * SENT. */

/* Event status codes (the host library maps them to nc_strerror text). */
#define NC_ST_OK          0u
#define NC_ST_EFAULT      1u /* memory not registered by this port */
#define NC_ST_EPORTCLOSED 2u /* the destination port was closed (or reopened) */
#define NC_ST_ENOROUTE    3u /* no route to the destination node */
#define NC_ST_EINVAL      4u /* bad argument (port, length, node, index) */
#define NC_ST_ENORES      5u /* out of tokens or staging slots */
#define NC_ST_ECLOSED     6u /* cancelled: this port was closed */
#define NC_ST_EBUSY       7u /* a barrier is already running on this port */
#define NC_ST_EPERM       9u /* a group (a NICVM module) owned by another port of this NIC */
#define NC_ST_EREJECTED  10u /* NICVM: the NIC's verifier rejected the module (its reason,
                                instruction and value in the event's words 4..6) */
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

/* The commands: one struct each (multicast: one per operation), every one
 * NC_CMD_WORDS words with the opcode in word 0, and union nc_cmd of them
 * all; the host posts a union, the MCP reads the slot in place as one. The
 * host writes the words a command uses (up to its last named field before
 * 'pad'; a multicast SET or DEL the whole slot); pad words are not read.
 * Host memory is given as its bus address in two words, bus_hi and bus_lo;
 * a cookie comes back in the command's events. */
struct nc_cmd_open {
    uint32_t op;            /* NC_CMD_OPEN */
    uint32_t ev_bus_hi;     /* the event ring in host memory */
    uint32_t ev_bus_lo;
    uint32_t ev_slots;      /* its slots: a power of 2 */
    uint32_t pad[4];
};

struct nc_cmd_close {
    uint32_t op;            /* NC_CMD_CLOSE */
    uint32_t pad[7];
};

struct nc_cmd_reg {
    uint32_t op;            /* NC_CMD_REG */
    uint32_t region;        /* index, < NC_ABI_REGIONS */
    uint32_t bus_hi;
    uint32_t bus_lo;
    uint32_t len;           /* bytes, not 0 */
    uint32_t pad[3];
};

struct nc_cmd_dereg {
    uint32_t op;            /* NC_CMD_DEREG */
    uint32_t region;        /* index, < NC_ABI_REGIONS */
    uint32_t pad[6];
};

struct nc_cmd_recv {
    uint32_t op;            /* NC_CMD_RECV */
    uint32_t bus_hi;        /* the receive buffer */
    uint32_t bus_lo;
    uint32_t len;
    uint32_t cookie;        /* the host's receive token */
    uint32_t pad[3];
};

struct nc_cmd_send {
    uint32_t op;            /* NC_CMD_SEND */
    uint32_t bus_hi;        /* the message, fetched by DMA */
    uint32_t bus_lo;
    uint32_t len;
    uint32_t node;          /* destination */
    uint32_t port;
    uint32_t cookie;        /* the host's send token */
    uint32_t pad;
};

struct nc_cmd_barrier {
    uint32_t op;            /* NC_CMD_BARRIER (docs/barrier.md) */
    uint32_t bus_hi;        /* the barrier buffer */
    uint32_t bus_lo;
    uint32_t len;           /* bytes; 0: the steps of this port's previous
                               barrier again, no DMA */
    uint32_t cookie;
    uint32_t pad[3];
};

struct nc_cmd_timeout {
    uint32_t op;            /* NC_CMD_TIMEOUT */
    uint32_t timeout_us;    /* the port's send time-out, microseconds (0: the
                               default), at most NC_ABI_SEND_TIMEOUT_MAX_US */
    uint32_t pad[6];
};

/* The node and port in one word: the command is four words, the cost of
 * the smallest messages being the host's PIO writes. */
struct nc_cmd_sendi {
    uint32_t op;            /* NC_CMD_SENDI */
    uint32_t len;           /* <= NC_ABI_INLINE_MAX */
    uint32_t dst;           /* destination node << 8 | port */
    uint32_t cookie;        /* the host's send token, < NC_ABI_SEND_TOKENS:
                               the payload is in the port's sdata[cookie] */
    uint32_t pad[4];
};

/* Multicast (firmware/coll/mcast.c, docs/multicast.md): word 1 the
 * operation NC_MC_OP_*, word 2 the group id (not 0). */
struct nc_cmd_mcast {
    uint32_t op;            /* NC_CMD_MCAST */
    uint32_t mc_op;         /* NC_MC_OP_* */
    uint32_t group;
    uint32_t pad[5];
};

/* The entry is usable once every child is set; NC_EV_ERROR on refusal. */
struct nc_cmd_mc_set {
    uint32_t op;            /* NC_CMD_MCAST */
    uint32_t mc_op;         /* NC_MC_OP_SET */
    uint32_t group;
    uint32_t parent;        /* NC_MC_MEMBER or NC_MC_ROOT */
    uint32_t nchildren;     /* NC_MC_SET_SHAPE(children in all, packet shift), | NC_MC_SET_FPFS */
    uint32_t first;         /* index of child[0] among them */
    uint32_t child[2];      /* up to two children (NC_MC_MEMBER) */
};
/* nc_cmd_mc_set.nchildren: bits 0-15 the children in all, bits 16-23 the
 * group's packet size as a shift: packets of 1 << shift payload bytes,
 * NC_MC_PKT_SHIFT_MIN .. NC_MC_PKT_SHIFT_MAX (8 B .. 4 KB, the firmware's
 * MTU); 0 means the MTU. Every member of a group is set with the same
 * shift: the root cuts messages into such packets, an inner member
 * counts and resends them by it. A power of two keeps the firmware's
 * per-packet arithmetic shifts, not divisions (docs/multicast.md). */
#define NC_MC_PKT_SHIFT_MIN 3u
#define NC_MC_PKT_SHIFT_MAX 12u
#define NC_MC_SET_SHAPE(nch, shift) ((uint32_t)(nch) | (uint32_t)(shift) << 16)
#define NC_MC_SET_NCH(w)   ((w) & 0xFFFFu)
#define NC_MC_SET_SHIFT(w) ((w) >> 16 & 0xFFu)
/* Bit 24: strict FPFS at an inner member (docs/multicast.md, "Forwarding at
 * inner members"): a packet is forwarded only once every copy of the one
 * before it is sent. Without it each packet goes on the send queue as it
 * arrives, and a later packet's first copy may pass an earlier one's later
 * copies. Bits 25-31 are 0. */
#define NC_MC_SET_FPFS     (1u << 24)

struct nc_cmd_mc_del {
    uint32_t op;            /* NC_CMD_MCAST */
    uint32_t mc_op;         /* NC_MC_OP_DEL */
    uint32_t group;
    uint32_t pad[5];
};

/* From the root to every child; NC_EV_SENT (word 7 the group id) once
 * every child acknowledged all of it. */
struct nc_cmd_mc_send {
    uint32_t op;            /* NC_CMD_MCAST */
    uint32_t mc_op;         /* NC_MC_OP_SEND */
    uint32_t group;
    uint32_t bus_hi;        /* the message, fetched by DMA */
    uint32_t bus_lo;
    uint32_t len;
    uint32_t cookie;        /* the host's send token */
    uint32_t pad;
};

/* NC_MC_OP_SEND of an inline payload, in the port's sdata[cookie] (as
 * NC_CMD_SENDI). */
struct nc_cmd_mc_sendi {
    uint32_t op;            /* NC_CMD_MCAST */
    uint32_t mc_op;         /* NC_MC_OP_SENDI */
    uint32_t group;
    uint32_t len;           /* <= NC_ABI_INLINE_MAX */
    uint32_t cookie;        /* the host's send token, < NC_ABI_SEND_TOKENS */
    uint32_t pad[3];
};

/* Host signals (firmware/coll/signal.c): word 1 the operation NC_SIG_OP_*. */
struct nc_cmd_signal {
    uint32_t op;            /* NC_CMD_SIGNAL */
    uint32_t sig_op;        /* NC_SIG_OP_* */
    uint32_t pad[6];
};

/* Signals on (on = 1) or off (0) for the port. The NIC writes the signal
 * word at bus_hi:bus_lo (NC_SIG_WORD_BYTES, library memory like the event
 * ring) with seq once it took the command, after every event it posted
 * before, and again after each signal it raises. */
struct nc_cmd_sig_set {
    uint32_t op;            /* NC_CMD_SIGNAL */
    uint32_t sig_op;        /* NC_SIG_OP_SET */
    uint32_t on;
    uint32_t bus_hi;        /* the signal word */
    uint32_t bus_lo;
    uint32_t seq;
    uint32_t pad[2];
};

/* One packet of type NC_PT_SIG (len <= NC_ABI_SIG_MAX, fetched by DMA):
 * the receiver's host gets it as an ordinary RECV event, and a signal if
 * its port has them on; NC_EV_SENT with the cookie once acknowledged. */
struct nc_cmd_sig_send {
    uint32_t op;            /* NC_CMD_SIGNAL */
    uint32_t sig_op;        /* NC_SIG_OP_SEND */
    uint32_t bus_hi;        /* the message */
    uint32_t bus_lo;
    uint32_t len;
    uint32_t dst;           /* destination node << 8 | port */
    uint32_t cookie;        /* the host's send token */
    uint32_t pad;
};
#define NC_ABI_SIG_MAX 4096u    /* one packet (the firmware's MTU) */

/* A NIC-based reduction (docs/reduction.md "NIC-based reduction"): the
 * NIC fetches the block, combines its children's contributions with its
 * own in the block's order and sends the partial result to its parent,
 * segment by segment; the root (every member, for an allreduce) gets the
 * result written back into the block's data, then NC_EV_REDUCE. The
 * instance names the reduction among the port's: the same at every member,
 * never two in flight at once on one port. */
struct nc_cmd_reduce {
    uint32_t op;            /* NC_CMD_REDUCE */
    uint32_t bus_hi;        /* the block (struct nc_red_block, then the data) */
    uint32_t bus_lo;
    uint32_t len;           /* NC_RED_HDR_BYTES + the data's bytes */
    uint32_t cookie;
    uint32_t instance;      /* the block's instance, again */
    uint32_t pad[2];
};

/* The block in host memory, big-endian words, then the data: count
 * elements in the NIC's order (big-endian; a 64-bit element as a
 * big-endian 64-bit value). op and type are ref/red's enum nc_red_op and
 * enum nc_red_type (ref/red/nc_red.h). */
#define NC_RED_CHILDREN  16u    /* a binomial tree of 65,536 members */
#define NC_RED_SEG       4096u  /* the data goes in segments of one packet (NC_FW_MTU) */
#define NC_RED_DATA_MAX  32768u /* 8 segments: 4,096 doubles */
#define NC_RED_ALL       0x10000u   /* op_type: an allreduce (every member gets the result) */
#define NC_RED_OP_TYPE(op, type, all) ((uint32_t)(op) << 8 | (type) | ((all) ? NC_RED_ALL : 0u))
/* op_type: the exact mode (ref/red/nc_xacc.h), for a sum of binary32 or
 * binary64 only: every member adds into one accumulator per element, sends
 * their wire windows up (NC_PT_RED_XUP) and the root rounds once. At most
 * NC_RED_XMAX elements, since an accumulator takes 280 bytes of the NIC's
 * SRAM whatever the format: 128 doubles are seed 004's largest vector, and
 * a longer one is a sequence of reductions (libmpi's pieces). */
#define NC_RED_EXACT     0x20000u
#define NC_RED_XMAX      128u
struct nc_red_block {
    uint32_t instance;      /* as the command's */
    uint32_t op_type;       /* NC_RED_OP_TYPE */
    uint32_t count;         /* elements, >= 1 */
    uint32_t parent;        /* NC_MC_MEMBER, or NC_MC_ROOT */
    uint32_t nchildren;     /* 0 .. NC_RED_CHILDREN */
    uint32_t child[NC_RED_CHILDREN];  /* NC_MC_MEMBER each, in the order they combine */
    uint32_t pad[3];
};
#define NC_RED_HDR_BYTES 96u

/* Switch multicast (firmware/coll/group.c; docs/fabric.md "Switch
 * multicast", "The management entity"): word 1 the operation NC_GRP_OP_*.
 * A request goes to the entity's node over the unicast route as an
 * NC_PT_MG_* packet; its answer comes back as an NC_EV_GROUP event to the
 * port that asked, carrying the host's tid. Requests are unreliable: a
 * lost one is never answered (the host asks again). Each port has
 * NC_ABI_GRP_REQS requests awaiting an answer at most; a further one
 * takes the place of the port's oldest, whose answer is then dropped. An
 * answer says the entity took the request (or why not), never that the
 * switches' tables are set: only a multicast test can tell. */
#define NC_ABI_GRP_REQS  4u   /* **decision**: a request rarely waits long (an entity answers
                                 within tens of us), and each may bring an event the port's
                                 ring must hold beside its tokens' (libnicoll's 64 slots) */
struct nc_cmd_group {
    uint32_t op;            /* NC_CMD_GROUP */
    uint32_t grp_op;        /* NC_GRP_OP_* */
    uint32_t pad[6];
};

struct nc_cmd_grp_mg {
    uint32_t op;            /* NC_CMD_GROUP */
    uint32_t grp_op;        /* NC_GRP_OP_CREATE, JOIN, LEAVE (or STATS: tid only) */
    uint32_t sm_node;       /* the entity's node */
    uint32_t group;         /* JOIN, LEAVE: < NC_MG_GROUP_LIMIT */
    uint32_t node;          /* JOIN, LEAVE: the member */
    uint32_t tid;           /* the host's transaction id, in the answer */
    uint32_t pad[2];
};

/* One packet of len <= NC_ABI_GRP_MAX bytes (fetched by DMA) to every
 * member of group but this node, to port dport there; unreliable (no
 * acknowledgement, no retransmission). NC_EV_SENT with the cookie (word 7
 * the group) once it left the NIC. A receiving NIC delivers it into the
 * oldest receive buffer of dport that holds it (NC_EV_GRECV), or drops and
 * counts it when there is none (NC_GRP_CTR_NOBUF). */
struct nc_cmd_grp_send {
    uint32_t op;            /* NC_CMD_GROUP */
    uint32_t grp_op;        /* NC_GRP_OP_SEND */
    uint32_t group;         /* < NC_MG_GROUP_LIMIT */
    uint32_t bus_hi;        /* the packet's payload */
    uint32_t bus_lo;
    uint32_t len;
    uint32_t dport;         /* the receivers' port */
    uint32_t cookie;        /* the host's send token */
};
#define NC_ABI_GRP_MAX 4096u    /* one packet (the firmware's MTU) */
/* NC_GRP_OP_STATS's event carries the NIC's counters since it booted:
 * len the group packets dropped for want of a receive buffer (or with
 * their port closed), src the group packets and management packets
 * dropped as malformed (or not for a NIC), word 7 the answers dropped
 * because no request awaited them (lost, late or replaced). */
/* NICVM (firmware/coll/nicvm.c, docs/nicvm.md): word 1 the operation
 * NC_NV_OP_*, words 2-3 the module's name (8 bytes, not all zero). Each
 * operation is answered by one NC_EV_NICVM event carrying the cookie. */
struct nc_cmd_nicvm {
    uint32_t op;            /* NC_CMD_NICVM */
    uint32_t nv_op;         /* NC_NV_OP_* */
    uint32_t name[2];
    uint32_t pad[4];
};

/* The module image (struct nc_nv_image, then its tables), fetched by DMA
 * and verified on the NIC against the port's budget. Answer: OK with the
 * worst case (VM instructions, LANai cycles, sends) in words 4..6;
 * NC_ST_EREJECTED (the verifier's reason, pc, value), NC_ST_EINVAL (a
 * malformed image), NC_ST_EPERM (the name is another port's module). */
struct nc_cmd_nv_add {
    uint32_t op;            /* NC_CMD_NICVM */
    uint32_t nv_op;         /* NC_NV_OP_ADD */
    uint32_t name[2];
    uint32_t bus_hi;        /* the image */
    uint32_t bus_lo;
    uint32_t len;           /* bytes: exactly the image's */
    uint32_t cookie;
};

struct nc_cmd_nv_purge {
    uint32_t op;            /* NC_CMD_NICVM */
    uint32_t nv_op;         /* NC_NV_OP_PURGE */
    uint32_t name[2];
    uint32_t cookie;
    uint32_t pad[3];
};

/* SEND: len payload bytes to the module of that name at rank dst (of the
 * local module's table), answered once acknowledged (word 4: 1 sent).
 * DELEGATE: to the local module, as if it had arrived (the loopback
 * path), answered once its sends are done (word 4 the sends acknowledged,
 * word 5 the ones that failed, word 6 the module's result). */
struct nc_cmd_nv_send {
    uint32_t op;            /* NC_CMD_NICVM */
    uint32_t nv_op;         /* NC_NV_OP_SEND or NC_NV_OP_DELEGATE */
    uint32_t name[2];
    uint32_t bus_hi;        /* the payload, fetched by DMA */
    uint32_t bus_lo;
    uint32_t len;           /* <= NC_NV_PAYLOAD_MAX */
    uint32_t dst;           /* rank << 16 | cookie (SEND; DELEGATE: the cookie) */
};

/* NC_NV_LIST_RECS records of NC_NV_REC_WORDS words stored at bus_hi:lo:
 * the NIC's counters (NC_NV_CTR_*), then one per module slot. */
struct nc_cmd_nv_list {
    uint32_t op;            /* NC_CMD_NICVM */
    uint32_t nv_op;         /* NC_NV_OP_LIST */
    uint32_t name[2];       /* not read */
    uint32_t bus_hi;
    uint32_t bus_lo;
    uint32_t len;           /* >= 4 * NC_NV_REC_WORDS * NC_NV_LIST_RECS */
    uint32_t cookie;
};

/* From the privileged port (NC_NV_PRIV_PORT) only: the budget (VM
 * instructions per activation) modules uploaded from port must fit. */
struct nc_cmd_nv_budget {
    uint32_t op;            /* NC_CMD_NICVM */
    uint32_t nv_op;         /* NC_NV_OP_BUDGET */
    uint32_t name[2];       /* not read */
    uint32_t port;
    uint32_t budget;        /* 1 .. NC_NV_BUDGET_MAX */
    uint32_t cookie;
    uint32_t pad;
};

/* A NICVM module image in host memory (NC_NV_OP_ADD), native 32-bit
 * words: this header, then size rank words (NC_MC_MEMBER(node, port) of
 * each rank), len code words, nconst constants (ref/nicvm nv_bytecode.h). */
#define NC_NV_MAGIC 0x4E564D31u /* "NVM1" */
struct nc_nv_image {
    uint32_t magic;
    uint32_t rank;          /* this NIC's rank: ranks[rank] is (this node, the port) */
    uint32_t size;          /* ranks, 1 .. NC_ABI_MAX_NODES */
    uint32_t len, nconst, nlocals, nstate;
    uint32_t pad;
};
#define NC_NV_MODULES      8u     /* module slots per NIC */
#define NC_NV_PRIV_PORT    0u     /* may purge or replace any module, set budgets */
#define NC_NV_BUDGET_DEFAULT 256u /* VM instructions per activation, every port at start */
#define NC_NV_BUDGET_MAX   1024u  /* the longest module (NV_CODE_MAX) */
#define NC_NV_PAYLOAD_MAX  4056u  /* NC_FW_MTU less the NICVM header (nc_wire.h) */
#define NC_NV_REC_WORDS    8u
#define NC_NV_LIST_RECS    (1u + NC_NV_MODULES)
/* record 0 (the NIC's counters) */
#define NC_NV_CTR_MODULES   0u    /* modules installed */
#define NC_NV_CTR_MALFORMED 1u    /* NICVM packets from the wire refused: malformed */
#define NC_NV_CTR_NOMODULE  2u    /* ... for no module of that name and port */
#define NC_NV_CTR_SOURCE    3u    /* ... source (upload) packets: remote upload not allowed */
#define NC_NV_CTR_BADIMAGE  4u    /* ADDs refused: malformed image */
#define NC_NV_CTR_REJECTED  5u    /* ADDs refused by the verifier */
#define NC_NV_CTR_UNDELIV   6u    /* packets for a closed port, dropped */
/* records 1.. (a module slot; name 0: free) */
#define NC_NV_REC_NAME0   0u
#define NC_NV_REC_NAME1   1u
#define NC_NV_REC_OWNER   2u      /* owner port << 24 | rank << 12 | size */
#define NC_NV_REC_BOUND   3u      /* worst case, VM instructions */
#define NC_NV_REC_RUNS    4u      /* activations */
#define NC_NV_REC_STOPS   5u      /* activations that failed (stopped, FAILURE, a refused send) */
#define NC_NV_REC_SENDS   6u      /* sends acknowledged */
#define NC_NV_REC_SENDERR 7u      /* sends that failed (time-out, no token) */

union nc_cmd {
    uint32_t op;                    /* word 0 of every command: NC_CMD_* */
    uint32_t w[NC_CMD_WORDS];       /* the slot's words */
    struct nc_cmd_open open;
    struct nc_cmd_close close;
    struct nc_cmd_reg reg;
    struct nc_cmd_dereg dereg;
    struct nc_cmd_recv recv;
    struct nc_cmd_send send;
    struct nc_cmd_barrier barrier;
    struct nc_cmd_timeout timeout;
    struct nc_cmd_sendi sendi;
    struct nc_cmd_mcast mcast;
    struct nc_cmd_mc_set mc_set;
    struct nc_cmd_mc_del mc_del;
    struct nc_cmd_mc_send mc_send;
    struct nc_cmd_mc_sendi mc_sendi;
    struct nc_cmd_signal signal;
    struct nc_cmd_sig_set sig_set;
    struct nc_cmd_sig_send sig_send;
    struct nc_cmd_reduce reduce;
    struct nc_cmd_nicvm nicvm;
    struct nc_cmd_nv_add nv_add;
    struct nc_cmd_nv_purge nv_purge;
    struct nc_cmd_nv_send nv_send;
    struct nc_cmd_nv_list nv_list;
    struct nc_cmd_nv_budget nv_budget;
    struct nc_cmd_group group;
    struct nc_cmd_grp_mg grp_mg;
    struct nc_cmd_grp_send grp_send;
};

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

/* Every field of every command at its word. */
#define NC_CMD_AT(cmd, field, word) \
    _Static_assert(offsetof(struct nc_cmd_##cmd, field) == 4u * (word), \
                   "nc_cmd_" #cmd "." #field " is word " #word)
NC_CMD_AT(open, op, 0);
NC_CMD_AT(open, ev_bus_hi, 1);
NC_CMD_AT(open, ev_bus_lo, 2);
NC_CMD_AT(open, ev_slots, 3);
NC_CMD_AT(open, pad, 4);
_Static_assert(sizeof(struct nc_cmd_open) == 4u * NC_CMD_WORDS, "nc_cmd_open: one slot");
NC_CMD_AT(close, op, 0);
NC_CMD_AT(close, pad, 1);
_Static_assert(sizeof(struct nc_cmd_close) == 4u * NC_CMD_WORDS, "nc_cmd_close: one slot");
NC_CMD_AT(reg, op, 0);
NC_CMD_AT(reg, region, 1);
NC_CMD_AT(reg, bus_hi, 2);
NC_CMD_AT(reg, bus_lo, 3);
NC_CMD_AT(reg, len, 4);
NC_CMD_AT(reg, pad, 5);
_Static_assert(sizeof(struct nc_cmd_reg) == 4u * NC_CMD_WORDS, "nc_cmd_reg: one slot");
NC_CMD_AT(dereg, op, 0);
NC_CMD_AT(dereg, region, 1);
NC_CMD_AT(dereg, pad, 2);
_Static_assert(sizeof(struct nc_cmd_dereg) == 4u * NC_CMD_WORDS, "nc_cmd_dereg: one slot");
NC_CMD_AT(recv, op, 0);
NC_CMD_AT(recv, bus_hi, 1);
NC_CMD_AT(recv, bus_lo, 2);
NC_CMD_AT(recv, len, 3);
NC_CMD_AT(recv, cookie, 4);
NC_CMD_AT(recv, pad, 5);
_Static_assert(sizeof(struct nc_cmd_recv) == 4u * NC_CMD_WORDS, "nc_cmd_recv: one slot");
NC_CMD_AT(send, op, 0);
NC_CMD_AT(send, bus_hi, 1);
NC_CMD_AT(send, bus_lo, 2);
NC_CMD_AT(send, len, 3);
NC_CMD_AT(send, node, 4);
NC_CMD_AT(send, port, 5);
NC_CMD_AT(send, cookie, 6);
NC_CMD_AT(send, pad, 7);
_Static_assert(sizeof(struct nc_cmd_send) == 4u * NC_CMD_WORDS, "nc_cmd_send: one slot");
NC_CMD_AT(barrier, op, 0);
NC_CMD_AT(barrier, bus_hi, 1);
NC_CMD_AT(barrier, bus_lo, 2);
NC_CMD_AT(barrier, len, 3);
NC_CMD_AT(barrier, cookie, 4);
NC_CMD_AT(barrier, pad, 5);
_Static_assert(sizeof(struct nc_cmd_barrier) == 4u * NC_CMD_WORDS, "nc_cmd_barrier: one slot");
NC_CMD_AT(timeout, op, 0);
NC_CMD_AT(timeout, timeout_us, 1);
NC_CMD_AT(timeout, pad, 2);
_Static_assert(sizeof(struct nc_cmd_timeout) == 4u * NC_CMD_WORDS, "nc_cmd_timeout: one slot");
NC_CMD_AT(sendi, op, 0);
NC_CMD_AT(sendi, len, 1);
NC_CMD_AT(sendi, dst, 2);
NC_CMD_AT(sendi, cookie, 3);
NC_CMD_AT(sendi, pad, 4);
_Static_assert(sizeof(struct nc_cmd_sendi) == 4u * NC_CMD_WORDS, "nc_cmd_sendi: one slot");
NC_CMD_AT(mcast, op, 0);
NC_CMD_AT(mcast, mc_op, 1);
NC_CMD_AT(mcast, group, 2);
NC_CMD_AT(mcast, pad, 3);
_Static_assert(sizeof(struct nc_cmd_mcast) == 4u * NC_CMD_WORDS, "nc_cmd_mcast: one slot");
NC_CMD_AT(mc_set, op, 0);
NC_CMD_AT(mc_set, mc_op, 1);
NC_CMD_AT(mc_set, group, 2);
NC_CMD_AT(mc_set, parent, 3);
NC_CMD_AT(mc_set, nchildren, 4);
NC_CMD_AT(mc_set, first, 5);
NC_CMD_AT(mc_set, child, 6);
_Static_assert(sizeof(struct nc_cmd_mc_set) == 4u * NC_CMD_WORDS, "nc_cmd_mc_set: one slot");
NC_CMD_AT(mc_del, op, 0);
NC_CMD_AT(mc_del, mc_op, 1);
NC_CMD_AT(mc_del, group, 2);
NC_CMD_AT(mc_del, pad, 3);
_Static_assert(sizeof(struct nc_cmd_mc_del) == 4u * NC_CMD_WORDS, "nc_cmd_mc_del: one slot");
NC_CMD_AT(mc_send, op, 0);
NC_CMD_AT(mc_send, mc_op, 1);
NC_CMD_AT(mc_send, group, 2);
NC_CMD_AT(mc_send, bus_hi, 3);
NC_CMD_AT(mc_send, bus_lo, 4);
NC_CMD_AT(mc_send, len, 5);
NC_CMD_AT(mc_send, cookie, 6);
NC_CMD_AT(mc_send, pad, 7);
_Static_assert(sizeof(struct nc_cmd_mc_send) == 4u * NC_CMD_WORDS, "nc_cmd_mc_send: one slot");
NC_CMD_AT(mc_sendi, op, 0);
NC_CMD_AT(mc_sendi, mc_op, 1);
NC_CMD_AT(mc_sendi, group, 2);
NC_CMD_AT(mc_sendi, len, 3);
NC_CMD_AT(mc_sendi, cookie, 4);
NC_CMD_AT(mc_sendi, pad, 5);
_Static_assert(sizeof(struct nc_cmd_mc_sendi) == 4u * NC_CMD_WORDS, "nc_cmd_mc_sendi: one slot");
NC_CMD_AT(signal, op, 0);
NC_CMD_AT(signal, sig_op, 1);
NC_CMD_AT(signal, pad, 2);
_Static_assert(sizeof(struct nc_cmd_signal) == 4u * NC_CMD_WORDS, "nc_cmd_signal: one slot");
NC_CMD_AT(sig_set, op, 0);
NC_CMD_AT(sig_set, sig_op, 1);
NC_CMD_AT(sig_set, on, 2);
NC_CMD_AT(sig_set, bus_hi, 3);
NC_CMD_AT(sig_set, bus_lo, 4);
NC_CMD_AT(sig_set, seq, 5);
NC_CMD_AT(sig_set, pad, 6);
_Static_assert(sizeof(struct nc_cmd_sig_set) == 4u * NC_CMD_WORDS, "nc_cmd_sig_set: one slot");
NC_CMD_AT(sig_send, op, 0);
NC_CMD_AT(sig_send, sig_op, 1);
NC_CMD_AT(sig_send, bus_hi, 2);
NC_CMD_AT(sig_send, bus_lo, 3);
NC_CMD_AT(sig_send, len, 4);
NC_CMD_AT(sig_send, dst, 5);
NC_CMD_AT(sig_send, cookie, 6);
NC_CMD_AT(sig_send, pad, 7);
_Static_assert(sizeof(struct nc_cmd_sig_send) == 4u * NC_CMD_WORDS, "nc_cmd_sig_send: one slot");
NC_CMD_AT(reduce, op, 0);
NC_CMD_AT(reduce, bus_hi, 1);
NC_CMD_AT(reduce, bus_lo, 2);
NC_CMD_AT(reduce, len, 3);
NC_CMD_AT(reduce, cookie, 4);
NC_CMD_AT(reduce, instance, 5);
NC_CMD_AT(reduce, pad, 6);
_Static_assert(sizeof(struct nc_cmd_reduce) == 4u * NC_CMD_WORDS, "nc_cmd_reduce: one slot");
_Static_assert(sizeof(struct nc_red_block) == NC_RED_HDR_BYTES, "the reduction block's header");
_Static_assert(NC_RED_DATA_MAX % NC_RED_SEG == 0 && NC_RED_DATA_MAX / NC_RED_SEG <= 255u,
               "whole segments, numbered in a byte");
NC_CMD_AT(nicvm, op, 0);
NC_CMD_AT(nicvm, nv_op, 1);
NC_CMD_AT(nicvm, name, 2);
NC_CMD_AT(nicvm, pad, 4);
_Static_assert(sizeof(struct nc_cmd_nicvm) == 4u * NC_CMD_WORDS, "nc_cmd_nicvm: one slot");
NC_CMD_AT(nv_add, op, 0);
NC_CMD_AT(nv_add, nv_op, 1);
NC_CMD_AT(nv_add, name, 2);
NC_CMD_AT(nv_add, bus_hi, 4);
NC_CMD_AT(nv_add, bus_lo, 5);
NC_CMD_AT(nv_add, len, 6);
NC_CMD_AT(nv_add, cookie, 7);
_Static_assert(sizeof(struct nc_cmd_nv_add) == 4u * NC_CMD_WORDS, "nc_cmd_nv_add: one slot");
NC_CMD_AT(nv_purge, op, 0);
NC_CMD_AT(nv_purge, nv_op, 1);
NC_CMD_AT(nv_purge, name, 2);
NC_CMD_AT(nv_purge, cookie, 4);
NC_CMD_AT(nv_purge, pad, 5);
_Static_assert(sizeof(struct nc_cmd_nv_purge) == 4u * NC_CMD_WORDS, "nc_cmd_nv_purge: one slot");
NC_CMD_AT(nv_send, op, 0);
NC_CMD_AT(nv_send, nv_op, 1);
NC_CMD_AT(nv_send, name, 2);
NC_CMD_AT(nv_send, bus_hi, 4);
NC_CMD_AT(nv_send, bus_lo, 5);
NC_CMD_AT(nv_send, len, 6);
NC_CMD_AT(nv_send, dst, 7);
_Static_assert(sizeof(struct nc_cmd_nv_send) == 4u * NC_CMD_WORDS, "nc_cmd_nv_send: one slot");
NC_CMD_AT(nv_list, op, 0);
NC_CMD_AT(nv_list, nv_op, 1);
NC_CMD_AT(nv_list, name, 2);
NC_CMD_AT(nv_list, bus_hi, 4);
NC_CMD_AT(nv_list, bus_lo, 5);
NC_CMD_AT(nv_list, len, 6);
NC_CMD_AT(nv_list, cookie, 7);
_Static_assert(sizeof(struct nc_cmd_nv_list) == 4u * NC_CMD_WORDS, "nc_cmd_nv_list: one slot");
NC_CMD_AT(nv_budget, op, 0);
NC_CMD_AT(nv_budget, nv_op, 1);
NC_CMD_AT(nv_budget, name, 2);
NC_CMD_AT(nv_budget, port, 4);
NC_CMD_AT(nv_budget, budget, 5);
NC_CMD_AT(nv_budget, cookie, 6);
NC_CMD_AT(nv_budget, pad, 7);
_Static_assert(sizeof(struct nc_cmd_nv_budget) == 4u * NC_CMD_WORDS, "nc_cmd_nv_budget: one slot");
NC_CMD_AT(group, op, 0);
NC_CMD_AT(group, grp_op, 1);
NC_CMD_AT(group, pad, 2);
_Static_assert(sizeof(struct nc_cmd_group) == 4u * NC_CMD_WORDS, "nc_cmd_group: one slot");
NC_CMD_AT(grp_mg, op, 0);
NC_CMD_AT(grp_mg, grp_op, 1);
NC_CMD_AT(grp_mg, sm_node, 2);
NC_CMD_AT(grp_mg, group, 3);
NC_CMD_AT(grp_mg, node, 4);
NC_CMD_AT(grp_mg, tid, 5);
NC_CMD_AT(grp_mg, pad, 6);
_Static_assert(sizeof(struct nc_cmd_grp_mg) == 4u * NC_CMD_WORDS, "nc_cmd_grp_mg: one slot");
NC_CMD_AT(grp_send, op, 0);
NC_CMD_AT(grp_send, grp_op, 1);
NC_CMD_AT(grp_send, group, 2);
NC_CMD_AT(grp_send, bus_hi, 3);
NC_CMD_AT(grp_send, bus_lo, 4);
NC_CMD_AT(grp_send, len, 5);
NC_CMD_AT(grp_send, dport, 6);
NC_CMD_AT(grp_send, cookie, 7);
_Static_assert(sizeof(struct nc_cmd_grp_send) == 4u * NC_CMD_WORDS, "nc_cmd_grp_send: one slot");
_Static_assert(sizeof(struct nc_nv_image) == 32u, "the NICVM image header is 8 words");
#undef NC_CMD_AT
_Static_assert(offsetof(union nc_cmd, op) == 0 && offsetof(union nc_cmd, w) == 0,
               "the opcode is word 0");
_Static_assert(sizeof(union nc_cmd) == sizeof(((struct nc_abi_port *)0)->cmd[0]),
               "a command is one slot");

#endif
