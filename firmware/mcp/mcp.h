/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The MCP's state and the calls between its parts:
 *   main.c     start-up, the event loop
 *   dma.c      the two host-DMA engines: request queues, completion callbacks
 *   port.c     ports, host commands, registered memory, tokens, events
 *   tx.c       the send side of every connection: packetisation, the
 *              go-back-N window (ref/proto nc_seq), retransmission timer,
 *              packet descriptors with completion callbacks
 *   rx.c       the receive side: classification (nc_seq), delivery by DMA,
 *              ACK / NACK / REJECT, the closed-port rule
 *   ctrl.c     small control packets (ACK, NACK, REJECT) waiting for the wire
 * State is static and sized in nc_fw_config.h.
 */
#ifndef NC_MCP_H
#define NC_MCP_H

#include <stdbool.h>
#include <stdint.h>

#include "hal.h"
#include "nc_abi.h"
#include "nc_fw_config.h"
#include "nc_seq.h"
#include "wire.h"

#define NONE16 0xFFFFu

/* The LANai backend folds a global array's address into every access of
 * an element's field (a constant load and an indexed access: two
 * instructions a field, and registers held for each constant). Hiding the
 * element's address from the optimiser makes the accesses base + offset,
 * one instruction each; for code that touches many fields of one element. */
#define NC_OPAQUE(ptr) __asm__("" : "+r"(ptr))

/* ---- DMA (dma.c) --------------------------------------------------------- */
enum dma_kind { DMA_SDMA, DMA_RDMA, DMA_EVENT, DMA_BARRIER };
struct dma_req {            /* 32 bytes: a queue slot's address is a shift */
    uint8_t kind, port;
    uint16_t arg;           /* packet descriptor, rx buffer or event slot */
    uint32_t gen;           /* port generation when queued (RDMA, EVENT) */
    uint32_t lar, eah, eal, len;
    uint8_t last;           /* RDMA: buffer is released after this one */
    uint8_t pad[7];
};
/* Queue a transfer; false when the queue is full (callers size their pools
 * so that it never is). */
bool dma_queue(bool to_lanai, const struct dma_req *r);
/* The same without a copy: the free slot at the queue's tail (NULL when
 * full), filled by the caller, then queued by dma_push. */
struct dma_req *dma_slot(bool to_lanai);
void dma_push(bool to_lanai);
void dma_push_checked_l2e(void);    /* dma_push(false) for a fresh, non-empty request */
void dma_poll(uint32_t isr);
bool dma_busy(void);

/* ---- ports (port.c) ------------------------------------------------------ */
struct region { uint32_t valid, hi, lo, len; };
struct rtoken { uint32_t valid, hi, lo, len, cookie; };
struct stoken {             /* a send token: one message */
    uint8_t used, port, dst_port, fence;
    uint8_t started;        /* its first packet was built */
    uint8_t kind;           /* 0: a message; else a barrier packet, type 0x0A00 | kind
                               (no payload, no event; gen and cookie are its identity) */
    uint8_t pad[2];
    uint16_t dst, next;     /* next in the connection's message queue */
    uint32_t gen;           /* sending port's generation */
    uint32_t hi, lo, len, cookie;
    uint32_t built;         /* bytes packetised so far */
    uint32_t acked;         /* bytes acknowledged */
};
struct port {
    uint32_t open, gen, cons;
    uint32_t ev_hi, ev_lo, ev_slots, ev_next;
    struct region reg[NC_FW_REGIONS];
    struct rtoken rtok[NC_FW_RECV_TOKENS];
    uint16_t rq[NC_FW_RECV_TOKENS];     /* ring of the valid tokens, oldest at rq_head */
    uint32_t nrq, rq_head;
    uint16_t rfree[NC_FW_RECV_TOKENS];  /* the free tokens (a stack) */
    uint32_t nrfree;
};
extern struct port ports[NC_FW_PORTS];
extern volatile struct nc_abi nc_abi_block;
/* send tokens of the ports, then one fence token per (peer, port), then
 * the barrier packets' tokens (firmware/coll) */
#define NC_FENCE_TOK(peer, port) (NC_FW_PORTS * NC_FW_SEND_TOKENS + (peer) * NC_FW_PORTS + (port))
#define NC_BAR_TOK0 (NC_FW_PORTS * NC_FW_SEND_TOKENS + NC_FW_MAX_NODES * NC_FW_PORTS)
extern struct stoken stok[NC_BAR_TOK0 + NC_FW_BAR_TOKENS];
extern uint32_t my_node, n_nodes;

void ports_init(void);
void ports_poll(void);
bool port_check(const struct port *p, uint32_t hi, uint32_t lo, uint32_t len);
/* Post an event to port p (if still open in generation gen). */
void port_event(uint32_t p, uint32_t gen, uint32_t type, uint32_t status, uint32_t cookie,
                uint32_t len, uint32_t src, uint32_t src_port);
void port_event_dma_done(uint16_t slot);
/* Finish a send token: event to its port, token free. */
void send_done(uint16_t tok, uint32_t status);
/* Take a receive token of port p that holds len bytes; NONE16 if none. */
uint16_t port_take_rtoken(struct port *p, uint32_t len);
/* The same, inlined for the usual case: the oldest buffer holds it. */
static inline __attribute__((always_inline)) uint16_t port_take_rtoken_head(struct port *p,
                                                                           uint32_t len)
{
    if (p->nrq) {
        uint16_t k = p->rq[p->rq_head];

        if (p->rtok[k].len >= len) {
            p->rq_head = (p->rq_head + 1) % NC_FW_RECV_TOKENS;
            p->nrq--;
            p->rtok[k].valid = 0;
            p->rfree[p->nrfree++] = k;
            return k;
        }
    }
    return port_take_rtoken(p, len);
}

/* ---- connections, send side (tx.c) -------------------------------------- */
struct pktd {               /* a packet descriptor */
    uint8_t state;          /* PD_FREE, PD_SDMA, PD_READY */
    uint8_t dead;           /* discarded while its SDMA ran */
    uint16_t tok;           /* the message it belongs to */
    uint16_t peer;
    uint32_t seq, offset, len;
};
enum { PD_FREE, PD_SDMA, PD_READY };
void tx_message(uint16_t tok);      /* a new send token for its connection; then tx_kick */
void tx_kick(uint32_t peer);        /* build and send peer's next packet now if the wire is free;
                                       tx_poll does the rest */
void tx_poll(uint32_t isr);
void tx_sdma_done(uint16_t pd, bool ok);
void tx_ack(uint32_t peer, uint32_t ack);
void tx_nack(uint32_t peer, uint32_t want);
void tx_reject(uint32_t peer, uint32_t seq);
void tx_timer(void);
void tx_port_closed(uint32_t port);  /* a local port closed: cancel its sends */
extern uint32_t tx_active;          /* connections with work: the loop skips tx when 0 */
void tx_fence(uint32_t peer, uint32_t port);
/* The NIC clock in MHz (the EEPROM clock value: MHz on the emulated boards,
 * docs/myrinet.md); scales the retransmission timeout. */
void tx_set_clock(uint32_t mhz);
extern uint32_t tx_rto;             /* the retransmission timeout, RTC ticks */

/* ---- receive side (rx.c) ------------------------------------------------- */
void rx_init(void);
void rx_packet(uint32_t isr);
void rx_rdma_done(uint16_t buf);
void rx_port_closed(uint32_t port);
/* The cumulative ACK for peer, for a header going there now: whatever ACK
 * the peer was owed is then on its way (rx.c's delayed ACKs). */
uint32_t rx_ack_now(uint32_t peer);
void rx_ack_timer(void);            /* ISR.TIME1: the ACKs owed go out */

/* ---- control packets (ctrl.c) ------------------------------------------- */
void ctrl_queue(uint32_t peer, uint16_t type, uint32_t seq);
bool ctrl_pending(void);
void ctrl_send_one(void);           /* only when ISR.SEND */
void ctrl_ack(uint32_t peer);       /* an ACK now (queued if it must wait) */

/* Put the route to a node in the 8 bytes before hdr (8-byte aligned);
 * its length, or 0 bytes if the host has not loaded it. */
uint32_t route_to(uint32_t node, uint8_t *hdr);
/* The route's length alone (0: none). */
uint32_t route_len(uint32_t node);

#include "barrier.h"

#endif
