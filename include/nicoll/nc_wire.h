/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The MCP's packets on the wire (after the source route, which the switches
 * consume). The first 16-bit word is the packet type, in the project's range
 * 0x0A00..0x0AFF (docs/lanai9-nic.md); all fields big-endian, as the
 * LANai stores them. Data packets carry a connection sequence number; the
 * control packets answer with one. Every DATA and barrier packet also
 * carries the sender's cumulative ACK of the other direction (ack), so an
 * ACK packet is needed only when nothing goes back soon (rx.c).
 */
#ifndef NICOLL_NC_WIRE_H
#define NICOLL_NC_WIRE_H

#include <stdint.h>

#define NC_PT_DATA   0x0A10u /* seq, payload of one message */
#define NC_PT_ACK    0x0A11u /* cumulative: everything up to seq arrived */
#define NC_PT_NACK   0x0A12u /* resend from seq (go-back-N) */
#define NC_PT_REJECT 0x0A13u /* seq is the first packet of a message for a closed
                                (or closed since) port: ACK(seq - 1), drop that message */

/* Barrier packets (firmware/coll, docs/barrier.md): no payload, in the
 * connection's sequence like DATA (same numbers, same go-back-N), so they
 * keep their order with ordinary messages. pad2[0] is the sending port's
 * open generation, pad2[1] its barrier serial number: the identity a
 * BAR_REJECT echoes back. */
#define NC_PT_BAR_PE     0x0A14u /* pairwise exchange */
#define NC_PT_BAR_GATHER 0x0A15u /* GB: child to parent */
#define NC_PT_BAR_BCAST  0x0A16u /* GB: parent to child */
#define NC_PT_BAR_REJECT 0x0A17u /* a barrier message that arrived while dst_port was
                                    closed is refused; src_port/dst_port swapped,
                                    pad2 = the refused message's identity */

/* Multicast packets (firmware/coll/mcast.c, docs/multicast.md): not in any
 * connection's sequence. seq is the group's own sequence number (the
 * root's per-group send sequence, the same at every node of the tree),
 * pad2[0] the group id. MC_DATA goes from a parent (src_port: the root or
 * an inner member forwarding it) to a child's port (dst_port) with one
 * packet of a message (msg_len, offset, len), pad2[1] the root
 * (NC_MC_MEMBER); MC_ACK from a child to its parent says that it and its
 * whole subtree hold every group packet up to seq, pad2[1] 1 when a member
 * at or below it was given up (the send time-out) or left. epoch, in both:
 * the group's instance, which the root makes new each time the group is
 * set; a member takes and acknowledges only its own instance's packets. */
#define NC_PT_MC_DATA    0x0A18u
#define NC_PT_MC_ACK     0x0A19u
/* The handshake after a send time-out (docs/firmware.md "Send time-outs"):
 * SYNC asks the receiver to start the connection's new epoch (epoch) at
 * seq; SYNC_ACK answers it: epoch the one it took, pad2[0] the epoch it had
 * before, seq the last number it took in that one. The sender learns from
 * it which messages of the window that timed out arrived. */
#define NC_PT_SYNC       0x0A1Au
#define NC_PT_SYNC_ACK   0x0A1Bu
/* Host signals (firmware/coll/signal.c): a message of one packet that the
 * receiving NIC delivers as DATA's would be, then signals its host if the
 * port has signals on. Types 0x0A28..0x0A2F belong to reduction. */
#define NC_PT_SIG        0x0A28u

/* NIC-based reduction (firmware/coll/reduce.c, docs/reduction.md "NIC-based
 * reduction"), in the connection's sequence like DATA, one packet each:
 * RED_UP a child's partial result for one segment to its parent, RED_DOWN
 * an allreduce's result for one segment from a parent to its child;
 * pad2[0] the reduction's instance, pad2[1] the segment in its low byte
 * (the sender's own bits above it), the payload the segment's elements in
 * the NIC's order. */
#define NC_PT_RED_UP     0x0A29u
#define NC_PT_RED_DOWN   0x0A2Au
/* Without payload, pad2[0] the instance: PROBE asks only for its
 * acknowledgement (a waiting member's test that its peer's NIC lives);
 * FAIL says the reduction failed at the sender (a member dead). */
#define NC_PT_RED_PROBE  0x0A2Bu
#define NC_PT_RED_FAIL   0x0A2Cu
/* The exact mode's RED_UP (NC_RED_EXACT): pad2[0] the instance, pad2[1]
 * the packet's number in its low byte, the payload a word with the index
 * of its first element, then one wire window (ref/red/nc_xacc.h) per
 * element, as many whole windows as the packet holds; a member's packets
 * go in element order. */
#define NC_PT_RED_XUP    0x0A2Du

/* Switch multicast (firmware/coll/group.c, docs/fabric.md "Switch
 * multicast"): types 0x0A30..0x0A3F are the fabric's management packets
 * (nc_mgmt.h), which the MCP sends and takes too. GRP_DATA is one packet
 * to a switch group, sent with the group's two bytes (NC_ROUTE_MCAST) in
 * place of the route: not in any connection's sequence, never
 * acknowledged; seq 0, one whole message (msg_len == len, offset 0),
 * src_port the sender's port, dst_port the receivers', pad2[0] the
 * group id (the switches strip their two bytes, so the header says it). */
#define NC_PT_GRP_DATA   0x0A40u

/* NICVM packets (firmware/coll/nicvm.c, docs/nicvm.md), in the
 * connection's sequence like DATA; one packet is one message (offset 0,
 * len == msg_len). NV_DATA's payload: NC_NV_WIRE_HDR bytes of NICVM header
 * (native words: the module's name, then the eight header words a module
 * reads, NC_NV_W_*), then NC_NV_W_LENGTH payload bytes. NV_SOURCE is a
 * module uploaded from another node: refused (and counted) by every NIC,
 * remote upload is not allowed. 0x0A22..0x0A23 are NICVM's, unused. */
#define NC_PT_NV_DATA    0x0A20u
#define NC_PT_NV_SOURCE  0x0A21u
#define NC_NV_PT_LAST    0x0A23u  /* the last of NICVM's types */
#define NC_NV_WIRE_HDR   40u
#define NC_NV_W_NAME0    0u
#define NC_NV_W_NAME1    1u
#define NC_NV_W_HDR      2u     /* the module's header words 0..7 start here: */
#define NC_NV_W_TYPE     2u     /* PKT_TYPE: 1, a NIC-to-NIC NICVM send */
#define NC_NV_W_SRC      3u     /* PKT_SRC: the rank whose host sent or delegated it (the root) */
#define NC_NV_W_DST      4u     /* PKT_DST: the rank it was sent to first */
#define NC_NV_W_TAG      5u     /* PKT_TAG, PKT_USER0..2: 0 from the host, the module's to write */
#define NC_NV_W_LENGTH   6u     /* PKT_LENGTH: payload bytes */

#define NC_DF_FENCE  1u      /* data flag: no payload, clears the receiver's
                                port fence for (sender, dst_port) */
#define NC_DF_SYNC   2u      /* data flag: the first packet of the sender's epoch
                                (epoch): the receiver starts the connection's
                                sequence again at seq (a send time-out, docs/firmware.md) */

struct nc_pkt {
    uint16_t type;
    uint16_t src;       /* sending node */
    uint32_t seq;
    uint8_t src_port, dst_port, flags, pad;
    uint32_t msg_len;   /* whole message */
    uint32_t offset;    /* of this payload in the message */
    uint32_t len;       /* payload bytes in this packet */
    uint32_t pad2[2];   /* a collective's two words (barrier: port generation, serial) */
    uint32_t ack;       /* DATA and barrier packets: a cumulative ACK of the other
                           direction, piggy-backed (everything up to ack arrived) */
    uint32_t epoch;     /* DATA and barrier packets: the sending connection's epoch,
                           incarnation << 16 | count (0 after a board's first load;
                           count one more at every send time-out); a receiver takes
                           only packets of its current epoch, or the SYNC packet that
                           starts a newer one (docs/firmware.md "Send time-outs") */
};                      /* 40 bytes, then the payload */

#define NC_PKT_HDR 40u
_Static_assert(sizeof(struct nc_pkt) == NC_PKT_HDR, "the header is 40 bytes on every side");

#endif
