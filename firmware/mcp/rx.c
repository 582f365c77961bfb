/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The receive side (GM's RECV and RDMA machines). Packets land in a ring of
 * SRAM buffers; each data packet is classified by its connection's receive
 * window (ref/proto nc_seq): the expected one is delivered (payload DMA'd
 * into the receive buffer the port provided, an event after the message's
 * last packet) and acknowledged; a duplicate is acknowledged again; one
 * beyond a gap is answered by a NACK, once per gap.
 *
 * Flow control: the first packet of a message that finds no receive buffer
 * (or its port not yet open) is dropped unanswered, so the sender's timer
 * holds it back and retries; nothing is lost.
 *
 * The closed-port rule (seed 002 section 3.2): closing a port sets a fence
 * for every peer that sent to it; until that peer's FENCE packet arrives,
 * the first packet of each message it sends to the port is REJECTed, so no
 * message meant for the old process reaches a new one. The sender fails
 * those messages (NC_ST_EPORTCLOSED) and then sends the FENCE.
 *
 * Epochs (the send time-out, tx.c): every DATA and collective packet names
 * its connection's epoch. A packet of another epoch than the connection's
 * is dropped unanswered, unless it is the SYNC packet that starts a newer
 * epoch (or one of another incarnation: the sender's MCP loaded again):
 * then the sequence
 * starts again at its number, and a message cut off by the sender's
 * time-out completes here with NC_ST_ETIMEDOUT (its buffer goes back to the
 * host, nothing more is written into it).
 *
 * Delayed ACKs: a collective's packet (a barrier's) is not acknowledged at
 * once. Every packet that goes to its sender carries the cumulative ACK
 * (include/nicoll/nc_wire.h), and in a barrier one often does soon (the partner's own
 * barrier message); only if none has gone within ACK_DELAY() (three
 * quarters of the retransmission timeout: the sender's timer never sees
 * the delay) of the oldest packet owed does an ACK packet go, at that
 * deadline (timer 1, set for the oldest). A deadline per packet, not
 * periods of a quarter of the timeout (owed one to two periods, 50-100 us
 * at 33 MHz): those are shorter than R7's 16-node barrier, so nearly every
 * barrier packet's ACK would go as its own packet in the middle of some
 * step, costing both NICs time on the critical path (2.4 ACK packets per
 * node and barrier, 140 us a barrier, against none and 115 us). Data
 * packets, duplicates and the NC_FW_WINDOW / 2-th packet owed are
 * acknowledged at once: a stream is never held back. (Delaying the ACKs
 * of empty messages too makes R7's host-based PE 3% faster on 2 nodes and
 * 17% slower on 8 of P-GM1-L43: the ACKs then go out in bursts at the
 * timer, beside the next barrier's messages.)
 */
#include "mcp_rx.h"
#include "mcp_port.h"
#include "mcp_dma.h"
#include "mcp_tx.h"
#include "mcp_ctrl.h"
#include "mcp_plugin.h"
#include "mcp_prof.h"

struct rxconn {
    nc_rx_t w;
    uint32_t nacked;            /* expected value last NACKed */
    uint8_t nack_sent, active, discard, port;
    uint8_t fence, touched;     /* bit per local port */
    uint16_t pad;
    uint32_t gen, msg_len, got, hi, lo, cookie, src_port;
    uint32_t epoch;             /* the sender's epoch taken (nc_wire.h) */
    uint32_t prev_epoch, prev_last; /* the epoch before and the last number taken in it
                                       (the answer to a SYNC, rx_sync) */
} __attribute__((aligned(64)));  /* 56 bytes padded: rxc[src] is one shift, not two and an add */

static struct rxconn rxc[NC_ABI_MAX_NODES];
#define RX_BUF (NC_PKT_HDR + NC_FW_MTU + 64u)
static uint8_t rx_buf[NC_FW_RX_BUFS][RX_BUF] __attribute__((aligned(4096)));
static uint8_t rx_held[NC_FW_RX_BUFS];
static uint32_t rx_armed = NONE16;      /* buffer the engine is armed with */
static uint8_t *rx_armed_at;            /* its address (rx_buf[b] is b * 4,200: a multiply) */

/* Delayed ACKs: packets accepted since the last ACK went to each peer,
 * the RTC when the oldest of them came, and the peers that may owe one
 * (each once). */
static uint8_t owes[NC_ABI_MAX_NODES], listed[NC_ABI_MAX_NODES];
static uint32_t since[NC_ABI_MAX_NODES];
static uint16_t owe_list[NC_ABI_MAX_NODES];
static uint32_t n_owe;
static bool ack_timer_on;

/* An owed ACK goes at the latest this long after the packet that it is
 * owed for: three quarters of the sender's retransmission timeout, so its
 * timer never sees the delay. */
#define ACK_DELAY() (tx_rto * 3u / 4u)

uint32_t rx_ack_now(uint32_t peer)
{
    owes[peer] = 0;
    return rxc[peer].w.expected - 1;
}

/* Acknowledge the packet just accepted from src: now, or with the next
 * packet to src, or when timer 1 expires. */
static void ack(uint32_t src, bool now)
{
    if (!now && owes[src] < NC_FW_WINDOW / 2 - 1) {
        if (!owes[src]++)
            since[src] = hal_rtc();
        if (!listed[src]) {
            listed[src] = 1;
            owe_list[n_owe++] = (uint16_t)src;
        }
        if (!ack_timer_on) {
            hal_timer1(ACK_DELAY());
            ack_timer_on = true;
        }
        return;
    }
    ctrl_ack(src);                      /* the value is taken when it goes */
}

/* TIME1: the ACKs owed since ACK_DELAY() ago go now (an ACK that a
 * packet to the peer carried meanwhile is no longer owed); timer 1 is set
 * again for the oldest one left. */
void rx_ack_timer(void)
{
    uint32_t kept = 0, now = hal_rtc(), d = ACK_DELAY(), next = d;

    hal_isr_clear(L9_ISR_TIME1);
    for (uint32_t i = 0; i < n_owe; i++) {
        uint32_t peer = owe_list[i];

        if (owes[peer]) {
            int32_t left = (int32_t)(since[peer] + d - now);

            if (left > 0) {
                owe_list[kept++] = (uint16_t)peer;
                if ((uint32_t)left < next)
                    next = (uint32_t)left;
                continue;
            }
            ctrl_queue(peer, NC_PT_ACK, 0);
        }
        listed[peer] = 0;
    }
    n_owe = kept;
    ack_timer_on = kept != 0;
    if (kept)
        hal_timer1(next);
}

static void arm(void)
{
    if (rx_armed != NONE16)
        return;
    for (uint32_t i = 0; i < NC_FW_RX_BUFS; i++)
        if (!rx_held[i]) {
            rx_armed = i;
            rx_armed_at = rx_buf[i];
            hal_rx_arm(rx_buf[i], RX_BUF);
            return;
        }
}

void rx_init(void)
{
    for (uint32_t i = 0; i < NC_ABI_MAX_NODES; i++)
        nc_rx_init(&rxc[i].w, 1);
    arm();
}

/* A received payload is in host memory (its DMA request's callback): the
 * packet's buffer is free after the message's last block. */
static void rdma_done(uint32_t port, uint32_t gen, uint16_t b, bool last, bool ok)
{
    (void)port, (void)gen, (void)ok;
    if (last) {
        rx_held[b] = 0;
        arm();
    }
}

void mcp_rx_release(uint16_t b)
{
    rx_held[b] = 0;
    arm();
}

void mcp_store(uint32_t port, uint32_t gen, uint16_t b, const void *from, uint32_t hi,
               uint32_t lo, uint32_t len)
{
    mcp_store_cb(rdma_done, port, gen, b, from, hi, lo, len);     /* b back when it is done */
}

#if NC_FW_HOOK
/* The hook's services (mcp_plugin.h) are compiled for size: only a
 * collective's packets take them, and the 1024-peer image has no room to
 * spare (-O3 inlined the DMA queue into each: 1.5 KB). */
__attribute__((minsize)) bool mcp_recv_take(uint32_t pi, uint32_t len, struct mcp_rbuf *rb)
{
    struct port *p = &ports[pi];
    uint16_t t;

    if (pi >= NC_ABI_PORTS || !p->open || len > NC_ABI_MAX_MSG ||
        (t = port_take_rtoken_head(p, len)) == NONE16)
        return false;
    /* copied now: the host may provide another buffer in the token's slot */
    rb->port = pi;
    rb->gen = p->gen;
    rb->hi = p->rtok[t].hi;
    rb->lo = p->rtok[t].lo;
    rb->len = len;
    rb->cookie = p->rtok[t].cookie;
    return true;
}

__attribute__((minsize)) void mcp_recv_deliver(const struct mcp_rbuf *rb, uint16_t b,
                                               const void *from, uint32_t len, uint32_t src,
                                               uint32_t sport)
{
    uint32_t st = NC_ST_OK;

    if (len > rb->len)
        len = rb->len;          /* what the buffer was taken for */
    /* protection again at the moment of the DMA, as deliver's */
    if (len && ports[rb->port].gen == rb->gen && port_check(&ports[rb->port], rb->hi, rb->lo, len))
        mcp_store(rb->port, rb->gen, b, from, rb->hi, rb->lo, len);
    else {
        if (len)
            st = NC_ST_EFAULT;
        mcp_rx_release(b);
    }
    port_event(rb->port, rb->gen, NC_EV_RECV, st, rb->cookie, len, src, sport);
}

#endif

void rx_port_closed(uint32_t port)
{
    for (uint32_t s = 0; s < NC_ABI_MAX_NODES; s++) {
        struct rxconn *c = &rxc[s];

        if (c->active && c->port == port)
            c->discard = 1;
        if (c->touched & (1u << port)) {
            c->fence |= (uint8_t)(1u << port);
            c->touched &= (uint8_t)~(1u << port);
        }
    }
}

/* Deliver (or discard) an accepted data packet; true if b stays held. */
static inline __attribute__((always_inline)) bool deliver(uint32_t src, const struct nc_pkt *h,
                                                         uint16_t b)
{
    struct rxconn *c = &rxc[src];
    struct port *p;
    bool last = h->offset + h->len == c->msg_len, held = false, chain = false;
    uint32_t lo;

    NC_OPAQUE(c);
    p = &ports[c->port];
    lo = c->lo + h->offset;
    if (!c->discard && p->gen == c->gen && h->len) {
        /* protection again at the moment of the DMA: the region may have
         * been deregistered since the buffer was provided */
        if (!port_check(p, c->hi + (lo < c->lo), lo, h->len)) {
            c->discard = 2;
        } else {
            struct dma_req *r;

            if (h->len >= NC_FW_RX_EARLY_ARM && rx_armed == NONE16) {
                /* A large payload: the next packet lands in the ring's
                 * next buffer (if free) while this one is handled. The
                 * engine takes a packet at the link's rate only while
                 * armed, and re-arming after the work (~4 us a 4 KB packet
                 * on a PCI64B) would hold a stream to one packet per 20 us where
                 * the wire needs 16.5 (docs/firmware.md, "Pipelining").
                 * b is held from here (its payload's DMA is queued next);
                 * rx_packet's arm() at the end finds the engine armed, or
                 * searches if the next buffer was busy. Here, inline and
                 * for large payloads only: at the top of rx_packet, or as
                 * a call, it costs every packet's path (R7's 16-node NIC-PE
                 * 1 us a barrier, or 0.25-0.35 us one-way at 1 B). */
                uint32_t next = (b + 1) % NC_FW_RX_BUFS;

                rx_held[b] = 1;
                if (!rx_held[next]) {
                    rx_armed = next;
                    rx_armed_at = rx_buf[next];
                    HAL_REG(L9_RMP) = (uint32_t)(uintptr_t)rx_buf[next];
                    HAL_REG(L9_RML) = (uint32_t)(uintptr_t)rx_buf[next] + RX_BUF;
                }
            }
            r = dma_slot(false);    /* sized never to be full */

            NC_OPAQUE(r);
            r->done = rdma_done;
            r->port = (uint8_t)c->port;
            r->last = 1;
            r->checkgen = 1;
            r->arg = b;
            r->gen = c->gen;
            r->lar = (uint32_t)(uintptr_t)((const uint8_t *)h + NC_PKT_HDR);
            r->eah = c->hi + (lo < c->lo);
            r->eal = lo;
            r->len = h->len;
            held = true;
            /* the message's last payload waits for its RECV event, and
             * the engine runs both as one chain: the event does not
             * wait for the CPU to see the payload done */
            chain = last;
            if (chain)
                dma_hold_l2e();
            else
                dma_push(false);
        }
    }
    c->got += h->len;
    if (last) {
        if (c->discard != 1)
            port_event(c->port, c->gen, NC_EV_RECV, c->discard ? NC_ST_EFAULT : NC_ST_OK,
                       c->cookie, c->msg_len, src, c->src_port);
        c->active = 0;
        if (chain)
            dma_start_l2e();
    }
    return held;
}

/* h starts a newer epoch of src's connection (its SYNC packet): the
 * sequence starts again at h's number. Out of line: it runs once per
 * send time-out. */
static __attribute__((noinline)) void resync(uint32_t src, const struct nc_pkt *h)
{
    struct rxconn *c = &rxc[src];

    if (c->active) {
        /* the sender gave this message up: its buffer comes back, with
         * what arrived of it */
        if (c->discard != 1)
            port_event(c->port, c->gen, NC_EV_RECV, NC_ST_ETIMEDOUT, c->cookie, c->got, src,
                       c->src_port);
        c->active = 0;
    }
    c->prev_epoch = c->epoch;
    c->prev_last = c->w.expected - 1;
    c->epoch = h->epoch;
    nc_rx_init(&c->w, h->seq);
    c->nack_sent = 0;
}

/* A SYNC: the sender timed a message out and asks to start its new epoch
 * at h's number. The answer says what arrived of the old one (the last
 * number taken in the epoch before), so the sender completes exactly the
 * messages that arrived: none is reported timed out when it was
 * delivered, none sent again when it was (docs/firmware.md "Send
 * time-outs"). A repeated SYNC (the answer was lost) gets the same answer;
 * an older one none. Out of line: once per send time-out. */
static __attribute__((noinline)) void rx_sync(uint32_t src, const struct nc_pkt *h)
{
    struct rxconn *c = &rxc[src];

    if (h->epoch != c->epoch) {
        if (!tx_epoch_newer(h->epoch, c->epoch))
            return;
        resync(src, h);
    }
    ctrl_queue_ext(src, NC_PT_SYNC_ACK, c->prev_last, c->epoch, c->prev_epoch);
}

#if NC_FW_HOOK
/* May a collective keep rx buffer b? Only while MCP_RX_SPARE others stay
 * free: the packets that free buffers (the ACKs of the collective's own
 * sends from them) need one to land in, and a ring held entirely by
 * collectives would wait for them forever. */
static __attribute__((minsize, noinline)) bool rx_spare(uint16_t b)
{
    uint32_t free = 0;

    for (uint32_t i = 0; i < NC_FW_RX_BUFS; i++)
        free += i != b && !rx_held[i];
    return free >= MCP_RX_SPARE;
}
#endif

/* coll: the owner of a collective's packet (NULL for DATA) */
static bool data(uint32_t src, const struct nc_pkt *h, uint32_t n, uint16_t b,
                 const struct mcp_coll *coll)
{
    struct rxconn *c = &rxc[src];
    uint32_t reply, bit = 1u << h->dst_port;
    bool held;

    NC_OPAQUE(c);
    if (h->dst_port >= NC_ABI_PORTS || h->len > NC_FW_MTU || n != NC_PKT_HDR + h->len ||
        h->msg_len > NC_ABI_MAX_MSG || h->offset > h->msg_len || h->len > h->msg_len - h->offset)
        return false;   /* malformed: never acknowledged */
    if (__builtin_expect(h->epoch != c->epoch, 0)) {
        /* only the SYNC of a newer epoch, or of another incarnation of
         * the sender (an MCP loaded again, tx.c's tx_set_boot), starts
         * one; anything else of another epoch is a timed-out message's:
         * never delivered */
        if (!(h->flags & NC_DF_SYNC) || !tx_epoch_newer(h->epoch, c->epoch))
            return false;
        resync(src, h);
    }
    if (h->seq != c->w.expected) {
        nc_rx_verdict_t v = nc_rx_receive(&c->w, h->seq, &reply);

        if (v == NC_RX_DUP) {
            /* our ACK was lost (or is late): say again what arrived, or
             * a sender with nothing else coming back waits forever */
            ctrl_queue(src, NC_PT_ACK, reply);
        } else if (!c->nack_sent || c->nacked != reply) {
            ctrl_queue(src, NC_PT_NACK, reply);
            c->nack_sent = 1;
            c->nacked = reply;
        }
        return false;
    }
    if (coll) {
#if NC_FW_HOOK
        if (h->len || !coll->packet) {
            /* one with a payload (mcp_plugin.h `data`): the collective
             * decides before the connection takes it */
            enum mcp_rx_verdict v;

            if (!coll->data || !rx_spare(b) || (v = coll->data(src, h, b)) == MCP_RX_REFUSE)
                return false;
            nc_rx_receive(&c->w, h->seq, &reply);
            c->nack_sent = 0;
            ctrl_ack(src);
            return v == MCP_RX_KEEP;
        }
#endif
        /* a collective's packet: consumed by the collective, whatever the
         * port's state; what it sends next first, then the ACK */
        PROF(1);
        nc_rx_receive(&c->w, h->seq, &reply);
        c->nack_sent = 0;
        coll->packet(src, h);
        PROF(2);
        ack(src, false);
        PROF(3);
        return false;
    }
    if (h->flags & NC_DF_FENCE) {
        c->fence &= (uint8_t)~bit;
    } else if (h->offset == 0) {
        struct port *p = &ports[h->dst_port];
        uint16_t t;

        if (c->fence & bit) {
            ctrl_queue(src, NC_PT_REJECT, h->seq);
            return false;
        }
        if (!p->open)
            return false;       /* not open yet: hold the sender back */
        t = port_take_rtoken_head(p, h->msg_len);
        if (t == NONE16)
            return false;       /* no receive buffer: hold the sender back */
        c->active = 1;
        c->discard = 0;
        c->port = h->dst_port;
        c->gen = p->gen;
        c->msg_len = h->msg_len;
        c->got = 0;
        c->hi = p->rtok[t].hi;
        c->lo = p->rtok[t].lo;
        c->cookie = p->rtok[t].cookie;
        c->src_port = h->src_port;
        c->touched |= (uint8_t)bit;
    } else if (!c->active || h->offset != c->got || h->msg_len != c->msg_len ||
               h->dst_port != c->port) {
        return false;           /* cannot happen with intact packets */
    }
    nc_rx_receive(&c->w, h->seq, &reply);
    c->nack_sent = 0;
    /* the host's event first (latency), then the ACK, on the wire at once
     * if the engine is free */
    held = (h->flags & NC_DF_FENCE) ? false : deliver(src, h, b);
    ctrl_ack(src);      /* ack(src, true) without its call */
    return held;
}

void rx_packet(uint32_t isr)
{
    uint16_t b = (uint16_t)rx_armed;
    const struct nc_pkt *h;
    uint32_t n;
    bool held = false;

    PROF0();
    PLOG(4);
    if (b == NONE16) {
        hal_rx_done();
        return;
    }
    h = (const struct nc_pkt *)rx_armed_at;
    NC_OPAQUE(h);
    n = hal_rx_end() - (uint32_t)(uintptr_t)h;
    hal_rx_done();
    rx_armed = NONE16;
    if (!(isr & (L9_ISR_ILLEGAL_RX | L9_ISR_BUFF)) && n >= NC_PKT_HDR &&
        h->src < n_nodes && h->src < NC_ABI_MAX_NODES) {
        switch (h->type) {
        case NC_PT_ACK: tx_ack(h->src, h->seq); break;
        case NC_PT_NACK: tx_nack(h->src, h->seq); break;
        case NC_PT_REJECT: tx_reject(h->src, h->seq); break;
        case NC_PT_SYNC: rx_sync(h->src, h); break;
        case NC_PT_SYNC_ACK: tx_sync_ack(h->src, h->epoch, h->pad2[0], h->seq); break;
        default: {
            /* DATA, or a packet of a collective that is plugged in
             * (mcp_plugin.h): in the connection's sequence */
            const struct mcp_coll *coll = 0;

            if (h->type != NC_PT_DATA) {
                if (!(coll = plugin_of_type(h->type)))
                    break;
                if (coll->raw) {
                    /* unsequenced (mcp_plugin.h): no connection state,
                     * no piggy-backed ACK */
                    held = coll->raw(h->src, h, n, b);
                    break;
                }
            }
            held = data(h->src, h, n, b, coll);
            /* then the piggy-backed ACK: its SENT events queue behind
             * the RECV or collective's event this packet may have made
             * (the one the host is waiting for) */
            tx_ack(h->src, h->ack);
            break;
        }
        }
    }
    rx_held[b] = held;
    if (!held) {
        /* the buffer just read is free again: no search, unless a
         * callback of this packet armed the engine already (an ACK that
         * completes a plug-in's last send gives a kept buffer back and
         * calls arm()): then that buffer is where the next packet goes,
         * and re-arming here would leave rx_armed_at pointing at the
         * other one */
        if (rx_armed == NONE16) {
            rx_armed = b;   /* rx_armed_at is still h */
            hal_rx_arm((void *)h, RX_BUF);
        }
        return;
    }
    arm();
}
