/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Ports (port.c): host commands, registered memory, receive and send
 * tokens, events to the host.
 */
#ifndef NC_MCP_PORT_H
#define NC_MCP_PORT_H

#include "mcp_base.h"

struct region { uint32_t valid, hi, lo, len; };
/* 20 bytes padded to 32: p->rtok[k] is one shift (struct port, padded
 * to 2 KB below, has the room) */
struct rtoken { uint32_t valid, hi, lo, len, cookie; } __attribute__((aligned(32)));
/* A send token's completion callback (GM's send descriptors carry theirs):
 * called once, when the message is acknowledged (NC_ST_OK), refused
 * (NC_ST_EPORTCLOSED: the receiver's port closed), timed out
 * (NC_ST_ETIMEDOUT: tx.c's send time-out) or dropped unsent
 * (NC_ST_ECLOSED: its own port closed). The token is the callback's from
 * then on: it frees it, or sends it again (seed 000 section 5.1's
 * multisend re-queues one packet to its next destination this way). */
typedef void (*stoken_done_fn)(uint16_t tok, uint32_t status);
struct stoken {             /* a send token: one message */
    stoken_done_fn done;
    uint8_t used, port, dst_port, fence;
    uint8_t started;        /* its first packet was built */
    uint8_t kind;           /* 0: a message; else a collective's packet, type 0x0A00 | kind
                               (no payload, no event; gen and cookie are its two words) */
    uint8_t inl;            /* 1: an inline send (NC_CMD_SENDI), lo the payload's SRAM address,
                               copied into the packet; 2 (a collective's, mcp_send_data): the
                               same, gathered from there as the packet goes */
    uint8_t pad;
    uint16_t dst, next;     /* next in the connection's message queue */
    uint32_t gen;           /* sending port's generation */
    uint32_t hi, lo, len, cookie;
    uint32_t built;         /* bytes packetised so far */
    uint32_t acked;         /* bytes acknowledged */
    uint32_t last_seq;      /* after a time-out: the sequence number of its last packet in the old window
                               (tx.c's tx_time_out) */
} __attribute__((aligned(64)));     /* 64 bytes: an index is one shift (48 took two and an add) */
struct port {
    uint32_t open, gen, cons;
    uint32_t ev_hi, ev_lo, ev_slots, ev_next;
    struct region reg[NC_ABI_REGIONS];
    struct rtoken rtok[NC_ABI_RECV_TOKENS];
    uint16_t rq[NC_ABI_RECV_TOKENS];     /* ring of the valid tokens, oldest at rq_head */
    uint32_t nrq, rq_head;
    uint16_t rfree[NC_ABI_RECV_TOKENS];  /* the free tokens (a stack) */
    uint32_t nrfree;
} __attribute__((aligned(2048)));   /* 1,448 bytes padded to 2 KB: an index is one shift (three
                                       shifts and two adds unpadded; 16 KB of SRAM in all) */
extern struct port ports[NC_ABI_PORTS];
/* Each port's send time-out in RTC ticks (NC_CMD_TIMEOUT; tx.c's tx_timer
 * reads it). Beside struct port, not in it: with struct port unpadded a
 * word more in it made every ports[] index dearer (+43 instructions). */
extern uint32_t port_send_timeout[NC_ABI_PORTS];
/* send tokens of the ports, then one fence token per (peer, port), then
 * the pool of the collectives' packets (plugin.c) */
#define NC_FENCE_TOK(peer, port) (NC_ABI_PORTS * NC_ABI_SEND_TOKENS + (peer) * NC_ABI_PORTS + (port))
#define NC_COLL_TOK0 (NC_ABI_PORTS * NC_ABI_SEND_TOKENS + NC_ABI_MAX_NODES * NC_ABI_PORTS)
extern struct stoken stok[NC_COLL_TOK0 + NC_FW_COLL_TOKENS];

/* A port's state, for the collectives (they touch no core global). */
static inline uint32_t port_gen(uint32_t pi) { return ports[pi].gen; }
static inline bool port_is_open(uint32_t pi) { return ports[pi].open != 0; }
bool port_check(const struct port *p, uint32_t hi, uint32_t lo, uint32_t len);
/* May the NIC move len bytes at host address hi:lo for port pi? */
static inline bool port_mem_ok(uint32_t pi, uint32_t hi, uint32_t lo, uint32_t len)
{
    return port_check(&ports[pi], hi, lo, len);
}
/* pi's counters in the ABI block, which its host reads */
static inline volatile struct nc_abi_port *port_abi(uint32_t pi) { return &nc_abi_block.port[pi]; }

void ports_init(void);
void ports_poll(void);
/* Post an event to port p (if still open in generation gen). */
void port_event(uint32_t p, uint32_t gen, uint32_t type, uint32_t status, uint32_t cookie,
                uint32_t len, uint32_t src, uint32_t src_port);
/* The same with the last word set: a multicast's group id (nc_abi.h). */
void port_event_group(uint32_t p, uint32_t gen, uint32_t type, uint32_t status, uint32_t cookie,
                      uint32_t len, uint32_t src, uint32_t src_port, uint32_t group);
/* Finish a send token: its completion callback. */
static inline void send_done(uint16_t tok, uint32_t status)
{
    stok[tok].done(tok, status);
}
/* Take a receive token of port p that holds len bytes; NONE16 if none. */
uint16_t port_take_rtoken(struct port *p, uint32_t len);
/* The same, inlined for the usual case: the oldest buffer holds it. */
static inline __attribute__((always_inline)) uint16_t port_take_rtoken_head(struct port *p,
                                                                           uint32_t len)
{
    if (p->nrq) {
        uint16_t k = p->rq[p->rq_head];

        if (p->rtok[k].len >= len) {
            p->rq_head = (p->rq_head + 1) % NC_ABI_RECV_TOKENS;
            p->nrq--;
            p->rtok[k].valid = 0;
            p->rfree[p->nrfree++] = k;
            return k;
        }
    }
    return port_take_rtoken(p, len);
}

#endif
