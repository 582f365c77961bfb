/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Myrinet fabric as a timing model: packets from NIC send engines cross
 * links and crossbar switches by source route, cut-through (wormhole), with
 * contention, CRC-8 per hop, link state and fault injection. Plain C with no
 * QEMU dependency: the emulator's synchronisation layer calls it in virtual
 * time order; tests drive it directly. docs/fabric.md explains the model.
 *
 * Time is in picoseconds (uint64_t): a Myrinet-2000 byte takes 4 ns, a
 * 1.28 Gb/s byte 6.25 ns, so nanoseconds would round.
 *
 * Timing of one packet of L bytes (route bytes included) over hops
 * 0..n (hop 0 is the sender's NIC link, hop n the link into the receiver):
 *   s_0 = max(t_send, free(c_0))
 *   s_i = max(s_{i-1} + cable + byte + switch, free(c_i))   (head at switch i-1
 *         has received its route byte and fallen through; c_i must be free)
 *   the head reaches the receiver at  head = s_n + cable
 *   the tail reaches the receiver at  tail = head + (L - n + 1) * byte
 *         (n route bytes were consumed on the way, one CRC byte is added)
 *   channel c_i stays busy until the tail has passed it:
 *         free(c_i) = s_n - (n - i) * (cable + byte + switch) + (L - i + 1) * byte
 * A blocked head therefore keeps every channel behind it busy (it blocks its
 * input, as on Myrinet). Calls must come in non-decreasing send time; equal
 * times are the caller's to order (by node id), which makes arbitration
 * deterministic.
 */
#ifndef NICOLL_FABRIC_H
#define NICOLL_FABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "topology.h"

#define FABRIC_MAX_PACKET 16384   /* bytes on the wire, route included */
#define FABRIC_MAX_RULES  64

struct fabric_timing {
    uint64_t byte_ps;     /* serialisation time of one byte on a link */
    uint64_t cable_ps;    /* propagation delay of one cable */
    uint64_t switch_ps;   /* fall-through latency of a switch, per hop */
};

/* What a fault rule does to a matching packet (or link). */
enum fabric_fault_kind {
    FAULT_DROP = 1,   /* the packet disappears at the first switch */
    FAULT_CORRUPT,    /* one payload byte flips: the receiver's CRC-8 fails */
    FAULT_DELAY,      /* delivery is late by 'delay_ps' */
    FAULT_LINK_DOWN,  /* a link is down in [from, until): the NIC link of
                       * 'node', or the switch port link_sw.link_port */
};

/*
 * A fault rule. A packet matches when every given criterion matches:
 * sender or receiver node (dir), packet type (the 16-bit type after the
 * route), the n-th matching packet only, a time window; or, instead of nth,
 * a probability drawn from the fabric's seeded generator.
 */
struct fabric_fault_rule {
    enum fabric_fault_kind kind;
    int node;             /* -1: any */
    int dir;              /* 0: node is the sender, 1: the receiver, 2: either */
    int type;             /* -1: any; else the 16-bit packet type */
    uint64_t nth;         /* 0: every match; k: only the k-th match */
    uint64_t from_ps, until_ps;   /* time window (until 0 = forever) */
    double prob;          /* 0: not probabilistic; else chance per match */
    uint64_t delay_ps;    /* FAULT_DELAY */
    int link_sw, link_port;       /* FAULT_LINK_DOWN on a switch port (-1: none) */
    uint64_t matches;     /* running count (for nth) */
};

/* The result of sending one packet. */
struct fabric_delivery {
    bool delivered;       /* false: dropped (see 'why') */
    unsigned dst;         /* receiving node */
    uint64_t head_ps;     /* first byte (after the route) at the receiver */
    uint64_t tail_ps;     /* last byte (CRC-8 trailer) at the receiver */
    uint8_t crc;          /* CRC-8 trailer appended by the last switch */
    bool crc_ok;          /* the receiver's check: crc8(data) == crc */
    uint16_t type;        /* packet type (0 if the packet is too short) */
    size_t len;           /* bytes the receiver gets (route stripped, no CRC) */
    /* Back-pressure (fabric_set_backpressure): the receiver had no room
     * when the head arrived, so the packet is held in the network at its
     * link, its path busy, until the receiver takes it or drops it; it
     * must then call fabric_rx_done(dst, id, ...). head_ps/tail_ps are
     * the times had it been taken at once. */
    bool held;
    uint64_t id;          /* the fabric's number for the packet (1, 2, ...) */
    uint8_t data[FABRIC_MAX_PACKET];   /* last: copies may stop at len */
    const char *why;      /* reason when dropped */
    unsigned hops;
};

struct fabric;

/* Create a fabric over a finished topology (topo_finish). 'seed' drives the
 * probabilistic faults. The topology must outlive the fabric. */
struct fabric *fabric_new(const struct topo *t, const struct fabric_timing *tm,
                          uint64_t seed);
void fabric_free(struct fabric *f);

/* Parse and add a fault rule, e.g. "drop:node=3,dir=tx,type=0x0a01,nth=2",
 * "corrupt:prob=0.01", "delay:node=2,delay=5us", "down:node=4,from=1ms,until=2ms".
 * Returns 0, or -1 with a message naming the bad field. */
int fabric_add_fault(struct fabric *f, const char *spec, char *err, size_t errlen);

/* Faults are logged here as they are injected (one line each); NULL: off. */
void fabric_set_fault_log(struct fabric *f, FILE *log);

/* Packet trace in pcap format (LINKTYPE_USER0, nanosecond timestamps; see
 * docs/fabric.md for the record layout). Returns 0 or -1 (err filled). */
int fabric_open_pcap(struct fabric *f, const char *path, char *err, size_t errlen);

/*
 * Send a packet from node src starting at time t_ps: pkt begins with the
 * route bytes (0x80 | port each), then the 16-bit type and the payload.
 * Fills *out. Returns 0, or -1 if the call is out of time order or src is
 * not a node (programming errors of the caller, message in out->why).
 */
int fabric_send(struct fabric *f, unsigned src, uint64_t t_ps,
                const uint8_t *pkt, size_t len, struct fabric_delivery *out);

/* Link state of a NIC's own link under the 'down' fault rules, so that the
 * machine can show it in the NIC's ISR (nic_set_link): whether it is up at
 * t_ps, and the next time after t_ps at which it may change (UINT64_MAX:
 * never). */
bool fabric_node_link_up(const struct fabric *f, unsigned node, uint64_t t_ps);
uint64_t fabric_link_change_after(const struct fabric *f, unsigned node, uint64_t t_ps);
/* The same for every NIC at once: the next time after t_ps at which any
 * NIC's link may change. */
uint64_t fabric_link_change_any_after(const struct fabric *f, uint64_t t_ps);

/* When the sender's own link is free again (its send engine may start the
 * next packet then). */
uint64_t fabric_tx_free(const struct fabric *f, unsigned node);

/*
 * Back-pressure (docs/fabric.md, "Back-pressure"). With it, a packet whose
 * receiver has no room when its head arrives is held in the network: every
 * channel its tail has not yet left stays busy, and packets that need one
 * of them wait (in the order the fabric was given them), until the
 * receiver takes the packet (fabric_rx_done, dropped false: the worm moves
 * on, late by the time it waited) or drops it after the blocking time-out
 * (dropped true: its channels are free at that time). Deliveries then no
 * longer come back from fabric_send: every one goes to 'deliver', possibly
 * during a later fabric_send or fabric_rx_done. Without it (the default)
 * every packet is taken on arrival and fabric_send fills *out.
 *
 * 'room' says how many packets node dst can take on arrival now (0 or 1:
 * its armed receive buffer); it is asked when a packet reaches the
 * receiver's link, in the fabric's processing order.
 */
struct fabric_bp {
    void *opaque;
    unsigned (*room)(void *opaque, unsigned dst);
    void (*deliver)(void *opaque, const struct fabric_delivery *d);
    /* Optional (NULL: none). A held packet whose tail had not left its
     * sender when the STOP got back there stops the sender's link at t_ps
     * (tx_stop); the link goes again at t_ps (tx_go) when the GO from the
     * receiver gets back, after the receiver took or dropped the packet.
     * Both lie at least fabric_flow_back_ps() after what decided them, so
     * a machine can deliver them as events at their times. */
    void (*tx_stop)(void *opaque, unsigned src, uint64_t t_ps);
    void (*tx_go)(void *opaque, unsigned src, uint64_t t_ps);
};
void fabric_set_backpressure(struct fabric *f, const struct fabric_bp *bp);

/* The network's long-period blocking time-out that machines use by
 * default: a packet held at its receiver's link this long is dropped
 * (docs/fabric.md, "Back-pressure", "The value"). */
#define FABRIC_BP_TIMEOUT_PS (50ull * 1000 * 1000 * 1000)

/* How long flow control (STOP, then GO) takes from a packet's receiver
 * back to its sender over a path of 'hops' switches: hops + 1 cables and
 * hops switches. Never less than two cables and a switch, the machines'
 * lookahead bound. */
uint64_t fabric_flow_back_ps(const struct fabric *f, unsigned hops);

/* The receiver dst took (dropped false) or dropped (true) the held packet
 * 'id' at t_ps. Packets waiting for its channels move on. */
void fabric_rx_done(struct fabric *f, unsigned dst, uint64_t id, uint64_t t_ps,
                    bool dropped);

/* Channels released by fabric_rx_done (and by packets that waited for
 * them) are not free before t_ps: the machine passes the start of the
 * window whose events it reports, so that nothing it hands on lands in a
 * window that already ran (docs/myrinet.md). 0 (the default): no floor. */
void fabric_set_floor(struct fabric *f, uint64_t t_ps);

/* Counters for observability and tests. held: packets held at their
 * receiver's link; timeouts: held packets the receiver dropped;
 * waiting: packets the fabric has not finished with now. */
struct fabric_counters {
    uint64_t sent, delivered, dropped, corrupted, delayed, blocked_ps;
    uint64_t held, timeouts, waiting;
};
void fabric_get_counters(const struct fabric *f, struct fabric_counters *c);

/*
 * Switch multicast and the switches' management ports (docs/fabric.md,
 * "Switch multicast"; the encodings in include/nicoll/nc_mgmt.h).
 *
 * A packet whose first byte is FABRIC_ROUTE_MCAST | (group >> 8), its
 * second group & 0xFF, goes to a multicast group: each switch replicates
 * it to the output ports its table holds for the group, except the one it
 * came in on (cut-through, each copy contending for its port as a unicast
 * packet does; each branch's copy may be held by back-pressure on its own).
 * Every copy a NIC gets goes to the 'deliver' callback of
 * fabric_set_backpressure (set one; with room NULL back-pressure stays
 * off): fabric_send's *out then says only whether the packet entered the
 * network. A switch with no entry for the group, an entry without the port
 * the packet came in on or with no other port, or a full replication
 * buffer (FABRIC_MC_BUFFER), drops it there (counted in mc_dropped,
 * logged, a pcap record with status 3).
 *
 * A route byte FABRIC_ROUTE_MGMT ends the route at the switch that reads
 * it: the packet goes to its management agent, which works on one request
 * at a time, each taking 'agent_ps', then carries it out and sends its
 * answer from the switch. Only that agent writes a switch's table.
 */
#define FABRIC_ROUTE_MCAST 0xC0
#define FABRIC_ROUTE_MGMT  0xBF
#define FABRIC_SWITCH_SRC  0x8000u   /* pcap: a switch s sends or gets as 0x8000 | s */

/* Table entries per switch by default, and the agent's time per request:
 * docs/fabric.md says where they come from. */
#define FABRIC_MCAST_ENTRIES 1024u
#define FABRIC_AGENT_PS      (10ull * 1000 * 1000)
/* Multicast branches a switch's replication buffer holds while their
 * receivers' links are held (back-pressure): a switch replicates from a
 * buffer of its own, which is finite; a packet that needs a switch whose
 * buffer is full is dropped there (mc_counters.buf_full). 32 is a
 * decision: no size for the seed's InfiniScale was found, and 32 packets
 * of the largest Myrinet payload (about 4 KB each) are 128 KB, the order
 * of a switch chip's shared buffer. */
#define FABRIC_MC_BUFFER     32u

struct fabric_switch_mgmt {
    unsigned entries;     /* multicast table entries per switch */
    uint64_t agent_ps;    /* management agent's time per request */
    unsigned mc_buffer;   /* replication buffer, held branches (0: FABRIC_MC_BUFFER) */
};
/* Before the first packet; without it the defaults above hold. */
int fabric_set_switch_mgmt(struct fabric *f, const struct fabric_switch_mgmt *m);

/* What switch sw's table holds for group (0: no entry), for observation;
 * entries in use at sw. */
uint32_t fabric_mcast_entry(const struct fabric *f, unsigned sw, unsigned group);
unsigned fabric_mcast_used(const struct fabric *f, unsigned sw);

/* The switches' agents act at their own times: the next one (UINT64_MAX:
 * none), and run every action up to t_ps (fabric_send does it first for
 * its own time). An action sends its answer at its time, which must not be
 * before a send the caller already made. */
uint64_t fabric_next_event(const struct fabric *f);
void fabric_run_until(struct fabric *f, uint64_t t_ps);

struct fabric_mc_counters {
    uint64_t copies;      /* multicast copies delivered to NICs */
    uint64_t dropped;     /* multicast packets dropped at a switch's table */
    uint64_t mgmt_in;     /* packets at switches' management ports */
    uint64_t mgmt_bad;    /* of them, dropped unanswerable */
    uint64_t mgmt_full;   /* SW_SETs refused: table full */
    uint64_t buf_full;    /* of 'dropped', at a full replication buffer */
};
void fabric_get_mc_counters(const struct fabric *f, struct fabric_mc_counters *c);

#endif
