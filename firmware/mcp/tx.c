/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The send side of the per-peer connections (GM's SDMA and SEND machines):
 * each peer has a FIFO of messages (send tokens); the message at the cursor
 * is cut into packets of at most NC_FW_MTU bytes, each a packet descriptor
 * with a sequence number from the go-back-N window (ref/proto nc_seq). A
 * packet's payload comes from host memory by DMA (SDMA), then goes on the
 * wire (SEND) and stays in SRAM until a cumulative ACK frees it; the ACK is
 * the descriptor's completion callback, which completes the message once
 * its last packet is acknowledged. A NACK or the retransmission timer (IT0)
 * sends the window again from its base. A REJECT (the destination port was
 * closed) fails that message and every queued message to that port.
 *
 * Send time-out (docs/firmware.md "Send time-outs"): a connection whose
 * window has not moved for the send time-out of the port of its oldest
 * message (a receiver that never provides a buffer, a NIC that is dead or
 * cut off) fails that message, and the messages queued behind it from the
 * same port to the same (node, port), with NC_ST_ETIMEDOUT (GM's
 * GM_SEND_TIMED_OUT). A copy of a message sent before (the last
 * retransmission) may still be on its way and be taken, so the sender
 * asks: a SYNC packet names the new epoch of the connection and where it
 * starts (sequence numbers beyond every one the old epoch used). The
 * receiver takes it (from then on no packet of an older epoch) and answers
 * with the last number it took in the epoch before: the messages of the
 * old window up to it arrived and complete OK, timed out or not; the
 * others get their error events, and everything else starts again in the
 * new epoch. One route keeps its packets in order, so no copy arrives
 * after the SYNC. Without an answer for the send time-out again (a dead
 * receiver) the events go anyway and the new epoch starts with its first
 * packet flagged NC_DF_SYNC.
 */
#include "mcp_tx.h"
#include "mcp_port.h"
#include "mcp_dma.h"
#include "mcp_route.h"
#include "mcp_rx.h"
#include "mcp_ctrl.h"
#include "mcp_plugin.h"

struct txconn {
    nc_tx_t w;
    uint32_t send_next;                 /* next sequence number for the wire */
    uint32_t last_base;                 /* base at the previous timer tick */
    uint32_t epoch;                     /* the connection's epoch (nc_wire.h) */
    uint32_t sync;                      /* NC_DF_SYNC until the epoch's first packet is built */
    uint32_t stall_at;                  /* RTC when the window last moved (watched) */
    uint16_t watched;                   /* stall_at is valid: the window was busy at the last tick */
    uint16_t failed;                    /* timed-out tokens whose events wait for the SYNC's answer */
    uint8_t backoff;                    /* resends since the window last moved (capped) */
    uint8_t wait;                       /* stalled ticks still to let pass before the next */
    uint8_t holding;                    /* timed out: nothing is built until the SYNC's answer */
    uint8_t probing;                    /* timed out: a SYNC asks what arrived (until fail_at) */
    uint32_t fail_at;                   /* RTC after which a SYNC unanswered gives up */
    uint32_t old_epoch;                 /* the epoch that timed out last */
    uint32_t sync_seq;                  /* where the new epoch starts (the SYNC's number) */
    uint32_t old_base, old_count;       /* the window that timed out last */
    uint16_t slot[NC_TX_WINDOW_MAX];    /* packet descriptor of each seq in flight */
    uint16_t qhead, qtail, cur;         /* message FIFO and the packetising cursor */
} __attribute__((aligned(256)));        /* 188 bytes padded: txc[peer] is one shift (the LANai
                                           has no multiply: 184 took three shifts and two adds) */

static struct txconn txc[NC_ABI_MAX_NODES];
static void tx_ack_old(struct txconn *c, uint32_t ack);
static void tx_fail_timed_out(struct txconn *c);
static struct pktd pd[NC_FW_PKT_BUFS];
static uint16_t pd_free[NC_FW_PKT_BUFS];
static uint32_t pd_nfree;
/* packet buffers: 8 bytes for the route, the header, the payload */
#define PKT_BUF (8u + NC_PKT_HDR + NC_FW_MTU)
static uint8_t pkt_buf[NC_FW_PKT_BUFS][PKT_BUF] __attribute__((aligned(4096)));
/* The peers with work, as a list: tx_poll runs on every loop iteration
 * while any has work, so it walks only these (walking all 64 peers cost
 * ~1000 cycles per iteration and delayed ACKs past the timeout). */
static uint16_t alist[NC_ABI_MAX_NODES];
static uint16_t in_list[NC_ABI_MAX_NODES];  /* 1 + the peer's index in alist; 0: not in it */
uint32_t tx_active;                     /* entries in alist */
/* The peers the retransmission timer looks at: a packet of theirs was
 * built since they were last found with an empty window and no timed-out
 * message (tx_timer). The timer walked all n_nodes peers at every tick
 * (~20 instructions a peer: 300 a tick on 16 nodes, at a 200 us period on
 * a 33 MHz LANai, at any point of a barrier's path). */
static uint16_t tlist[NC_ABI_MAX_NODES];
static uint8_t in_tlist[NC_ABI_MAX_NODES];
static uint32_t n_tlist;
static uint32_t rr;                     /* round-robin start (a list index) for the wire */
static bool timer_on;
/* The retransmission timeout in RTC ticks: NC_FW_RTO_TICKS at 133 MHz,
 * longer on a slower LANai, whose ACKs come later in proportion (a fixed
 * 50 us at 33 MHz resent every window again and again: over 1 ms per
 * 4-node barrier). Set by tx_set_clock. */
uint32_t tx_rto = NC_FW_RTO_TICKS;

void tx_set_clock(uint32_t mhz)
{
    if (mhz && mhz < 133)
        tx_rto = NC_FW_RTO_TICKS * 133u / mhz;
}

/* The first load of a board (boot id 0) numbers its connections from 1 in
 * epoch 0, as the peers' receive sides expect after their own boot. A later
 * load starts every connection in an epoch of its own incarnation (boot id
 * hashed to 16 bits, never 0) and at a sequence number far from the
 * previous MCP's (the hash again, as TCP picks an initial sequence number):
 * the peers take its first packet as a SYNC of another incarnation, and
 * the ACKs they still send for the previous MCP's packets fall outside its
 * window. */
void tx_set_boot(uint32_t boot_id)
{
    uint32_t h = boot_id * 2654435761u, inc = h >> 16;

    if (!boot_id)
        return;
    if (!inc)
        inc = 1;
    for (uint32_t i = 0; i < NC_ABI_MAX_NODES; i++) {
        struct txconn *c = &txc[i];

        nc_tx_init(&c->w, h, NC_FW_WINDOW);
        c->send_next = c->last_base = h;
        c->sync = NC_DF_SYNC;
        c->epoch = inc << 16;
    }
}

static void set_active(uint32_t peer)
{
    if (!in_list[peer]) {
        alist[tx_active++] = (uint16_t)peer;
        in_list[peer] = (uint16_t)tx_active;
    }
}

/* Take alist[i] out of the list (the last entry moves into its place). */
static void drop_at(uint32_t i)
{
    uint32_t last = alist[--tx_active];

    in_list[alist[i]] = 0;
    if (i < tx_active) {
        alist[i] = (uint16_t)last;
        in_list[last] = (uint16_t)(i + 1);
    }
}

/* Nothing for tx_poll to do at this peer: everything built, and the next
 * packet for the wire is either none (only ACKs awaited, which need no
 * polling: a NACK or the timer puts the peer back, set_active) or one whose
 * payload is still on its way from the host (its SDMA completion kicks the
 * peer, sdma_done: polling for it cost a whole tx_poll pass per loop turn
 * and up to a loop turn of delay, the "1-byte cliff" of docs/firmware.md). */
static bool tx_idle(const struct txconn *c)
{
    if (c->cur != NONE16)
        return false;
    if (c->send_next == c->w.base + c->w.count)
        return true;
    return pd[c->slot[nc_tx_slot(c->send_next)]].state == PD_SDMA;
}

/* A fence's token: nothing to tell anyone (the fence is the core's). */
static void fence_done(uint16_t tok, uint32_t status)
{
    (void)status;
    stok[tok].used = 0;
}

void tx_init(void)
{
    for (uint32_t i = 0; i < NC_ABI_MAX_NODES; i++) {
        nc_tx_init(&txc[i].w, 1, NC_FW_WINDOW);
        txc[i].send_next = 1;
        txc[i].qhead = txc[i].qtail = txc[i].cur = txc[i].failed = NONE16;
    }
    for (uint32_t i = 0; i < NC_FW_PKT_BUFS; i++) {
        pd_free[i] = (uint16_t)i;
        pd[i].hdr = pkt_buf[i] + 8;
    }
    pd_nfree = NC_FW_PKT_BUFS;
    for (uint32_t peer = 0; peer < NC_ABI_MAX_NODES; peer++)
        for (uint32_t port = 0; port < NC_ABI_PORTS; port++)
            stok[NC_FENCE_TOK(peer, port)].done = fence_done;
}

static uint8_t *hdr_of(uint16_t i) { return pd[i].hdr; }

static void pd_release(uint16_t i)
{
    if (pd[i].state == PD_SDMA) {
        pd[i].dead = 1;         /* its DMA completion frees it */
        return;
    }
    pd[i].state = PD_FREE;
    pd_free[pd_nfree++] = i;
}

static void enqueue(struct txconn *c, uint16_t k)
{
    stok[k].next = NONE16;
    if (c->qtail == NONE16)
        c->qhead = k;
    else
        stok[c->qtail].next = k;
    c->qtail = k;
    if (c->cur == NONE16 && !c->holding)
        c->cur = k;
}

/* Queued only: the caller kicks the peer next (tx_kick), which puts it on
 * tx_poll's list if anything is left then. */
void tx_message(uint16_t k)
{
    enqueue(&txc[stok[k].dst], k);
}

/* A fence message to (peer, port): ahead of everything queued. */
void tx_fence(uint32_t peer, uint32_t port)
{
    uint16_t k = (uint16_t)NC_FENCE_TOK(peer, port);
    struct txconn *c = &txc[peer];
    struct stoken *t = &stok[k];

    if (t->used)
        return;
    t->used = 1;
    t->fence = 1;
    t->inl = 0;
    t->kind = 0;
    t->port = 0;
    t->dst_port = (uint8_t)port;
    t->dst = (uint16_t)peer;
    t->len = t->built = t->acked = 0;
    t->started = 0;
    t->next = c->qhead;
    c->qhead = k;
    if (c->qtail == NONE16)
        c->qtail = k;
    if (c->holding)
        return;                 /* it goes first when the SYNC is answered */
    c->cur = k;
    set_active(peer);
}

/* A packet's payload is in SRAM (its DMA request's callback). */
static void sdma_done(uint32_t port, uint32_t gen, uint16_t i, bool last, bool ok)
{
    (void)port, (void)gen, (void)last;
    if (pd[i].dead) {
        pd[i].state = PD_READY;
        pd_release(i);
        return;
    }
    /* ok is false only for a bus address the host's memory does not have:
     * the payload is then zeros, and the host learned of it from the
     * registration (docs/firmware.md); the packet still goes, so that the
     * connection's sequence stays intact. */
    (void)ok;
    pd[i].state = PD_READY;
    /* on the wire now if it is the next one and the engine is free (the
     * latency of every message with a payload); ACKs waiting for the wire
     * go first, through tx_poll */
    if (ctrl_pending())
        set_active(pd[i].peer);
    else
        tx_kick(pd[i].peer);
}

/* Cut the next packet of the cursor's message, start its SDMA. Always
 * inlined, like transmit: the LANai code keeps nothing in registers across
 * a call (the callers spill and reload around it), and these two run for
 * every packet (tx_kick, tx_poll). */
static inline __attribute__((always_inline)) bool build(uint32_t peer)
{
    struct txconn *c = &txc[peer];
    struct stoken *t;
    struct pktd *d;
    struct nc_pkt *h;
    uint32_t seq, len;
    uint16_t i;

    NC_OPAQUE(c);
    if (c->cur == NONE16 || !nc_tx_can_send(&c->w) || !pd_nfree)
        return false;
    t = &stok[c->cur];
    NC_OPAQUE(t);
    i = pd_free[--pd_nfree];
    d = &pd[i];
    NC_OPAQUE(d);
    len = t->len - t->built;
    if (len > NC_FW_MTU)
        len = NC_FW_MTU;
    if (len && t->inl) {
        /* an inline send: the payload is in SRAM already (nc_abi.h
         * NC_CMD_SENDI), whole words, at most NC_ABI_INLINE_MAX bytes; a
         * collective's (inl 2, mcp_send_data) stays where it is */
        if (NC_FW_HOOK && __builtin_expect(t->inl & 2u, 0))
            d->payload = (const uint8_t *)(uintptr_t)(t->lo + t->built);
        else
            mcp_copy_inline((uint32_t *)(d->hdr + NC_PKT_HDR),
                            (const uint32_t *)(uintptr_t)(t->lo + t->built), len);
    } else if (len) {
        /* the payload's DMA first, filled in its queue slot: the engine
         * fetches it while the descriptor and the header are written
         * (its completion runs from dma_poll, never before this returns) */
        struct dma_req *r = dma_slot(true);    /* the E2L queue is deeper than the pool */

        NC_OPAQUE(r);
        r->done = sdma_done;
        r->checkgen = 0;
        r->port = t->port;
        r->arg = i;
        r->gen = 0;
        r->lar = (uint32_t)(uintptr_t)(d->hdr + NC_PKT_HDR);
        r->eal = t->lo + t->built;
        r->eah = t->hi + (r->eal < t->lo);
        r->len = len;
        r->last = 1;
        dma_push(true);
    }
    seq = nc_tx_push(&c->w);
    if (!in_tlist[peer]) {
        in_tlist[peer] = 1;
        tlist[n_tlist++] = (uint16_t)peer;
    }
    c->slot[nc_tx_slot(seq)] = i;
    d->state = PD_SDMA;     /* PD_READY below when there is no payload */
    d->dead = 0;
    d->tok = c->cur;
    d->peer = (uint16_t)peer;
    d->seq = seq;
    d->offset = t->built;
    d->len = len;
    h = (struct nc_pkt *)d->hdr;
    NC_OPAQUE(h);
    h->type = t->kind ? (uint16_t)(0x0A00u | t->kind) : NC_PT_DATA;
    h->src = (uint16_t)my_node;
    h->seq = seq;
    h->src_port = t->port;
    h->dst_port = t->dst_port;
    h->flags = (uint8_t)((t->fence ? NC_DF_FENCE : 0) | c->sync);
    c->sync = 0;
    h->pad = 0;
    h->msg_len = t->len;
    h->offset = t->built;
    h->len = len;
    h->pad2[0] = t->kind ? t->gen : 0;         /* a collective packet's two words */
    h->pad2[1] = t->kind ? t->cookie : 0;
    h->epoch = c->epoch;
    t->built += len;
    t->started = 1;
    if (t->built == t->len)
        c->cur = t->next;
    /* nothing to fetch (barrier packets, empty messages, fences, inline
     * sends): ready now, not after a trip through the DMA queue; a
     * gathered payload's packet (inl 2, never empty) is PD_GATHER */
    if (!len)
        d->state = PD_READY;
    else if (t->inl)
        d->state = (uint8_t)(PD_READY + (NC_FW_HOOK ? t->inl & 2u : 0u));
    return true;
}

/* The retransmission timer runs while packets wait for their ACK: started
 * by the first one on the wire (and by a collective, mcp_timer_need).
 * Inlined into transmit, which runs for every packet. */
__attribute__((always_inline)) void tx_timer_need(void)
{
    if (!timer_on) {
        hal_timer0(tx_rto);
        timer_on = true;
    }
}

#if NC_FW_HOOK
/* transmit's packet i with its payload elsewhere in SRAM (PD_GATHER): the
 * route and header from its buffer, then the payload. Out of line: DATA's
 * path tests nothing for it. */
static __attribute__((noinline, minsize)) bool transmit_gather(uint32_t peer, struct txconn *c, uint16_t i)
{
    uint8_t *h = hdr_of(i);
    uint32_t rl = route_to(peer, h);

    ((struct nc_pkt *)h)->ack = rx_ack_now(peer);
    hal_tx_gather(h, rl, NC_PKT_HDR, pd[i].payload, pd[i].len);
    c->send_next++;
    tx_timer_need();
    return true;
}
#endif

/* Put the packet with sequence send_next on the wire, if it is ready. */
static inline __attribute__((always_inline)) bool transmit(uint32_t peer)
{
    struct txconn *c = &txc[peer];
    uint8_t *h;
    uint32_t rl;
    uint16_t i;

    NC_OPAQUE(c);
    if (nc_seq_distance(c->w.base, c->send_next) >= c->w.count)
        return false;
    i = c->slot[nc_tx_slot(c->send_next)];
    if (pd[i].state != PD_READY)
#if NC_FW_HOOK
        return pd[i].state == PD_GATHER && transmit_gather(peer, c, i);
#else
        return false;
#endif
    h = hdr_of(i);
    rl = route_to(peer, h);
    /* the ACK of the other direction rides along (written now, not when
     * built: a packet sent again carries the latest) */
    ((struct nc_pkt *)h)->ack = rx_ack_now(peer);
    hal_tx(h, rl, h + NC_PKT_HDR + pd[i].len);
    c->send_next++;
    tx_timer_need();
    return true;
}

/* The barrier's fast path: a packet just queued for peer goes on the wire
 * now if the engine is free, without the round over every peer. */
void tx_kick(uint32_t peer)
{
    struct txconn *c = &txc[peer];

    while (build(peer) && c->cur != NONE16)
        ;
    if (hal_isr() & L9_ISR_SEND)
        transmit(peer);
    /* tx_poll's list holds the peer only if something is left to build or
     * to put on the wire: a packet that went now never enters it, and the
     * loop does not walk it once more to find that out */
    if (!tx_idle(c))
        set_active(peer);
    else if (in_list[peer])
        drop_at(in_list[peer] - 1u);
}

void tx_poll(uint32_t isr)
{
    bool sent = !(isr & L9_ISR_SEND);

    if (!sent && ctrl_pending())
        sent = ctrl_send_one();
    /* the peers with work; start after the last one that sent */
    uint32_t m = tx_active, i = rr < m ? rr : 0;

    for (uint32_t j = 0; j < m; j++, i++) {
        if (i >= m)
            i = 0;
        uint32_t peer = alist[i];

        while (build(peer))
            ;
        if (!sent && transmit(peer)) {
            sent = true;
            rr = i + 1;
        }
    }
    /* then drop the ones with nothing left to build or to put on the wire
     * (not during the walk: the list would move under it). Packets that
     * only wait for their ACK need no polling: a NACK or the timer puts
     * the peer back (set_active), and the loop stays short meanwhile. */
    for (i = 0; i < tx_active;) {
        if (tx_idle(&txc[alist[i]]))
            drop_at(i);
        else
            i++;
    }
}

/* Completion callback of an acknowledged packet descriptor. */
static void pd_acked(struct txconn *c, uint16_t i)
{
    uint16_t k = pd[i].tok;
    struct stoken *t = &stok[k];

    NC_OPAQUE(t);
    t->acked += pd[i].len;
    if (pd[i].offset + pd[i].len == t->len) {
        /* the last packet: the message is at the queue's head */
        c->qhead = t->next;
        if (c->qhead == NONE16)
            c->qtail = NONE16;
        send_done(k, NC_ST_OK);
    }
    pd_release(i);
}

/* A cumulative ACK from peer (its own packet or piggy-backed). Always
 * inlined (into rx_packet): one runs for nearly every packet received. */
__attribute__((always_inline)) void tx_ack(uint32_t peer, uint32_t ack)
{
    struct txconn *c = &txc[peer];
    uint32_t base, n;

    NC_OPAQUE(c);
    base = c->w.base;
    n = nc_tx_ack(&c->w, ack);

    for (uint32_t j = 0; j < n; j++)
        pd_acked(c, c->slot[nc_tx_slot(base + j)]);
    if (n && nc_seq_lt(c->send_next, c->w.base))
        c->send_next = c->w.base;
    else if (__builtin_expect(!n && c->probing, 0))
        tx_ack_old(c, ack);
}

void tx_nack(uint32_t peer, uint32_t want)
{
    struct txconn *c = &txc[peer];

    if (nc_seq_distance(c->w.base, want) > c->w.count)
        return;                 /* stale */
    if (want != c->w.base)
        tx_ack(peer, want - 1);
    c->send_next = want;        /* go back N */
    set_active(peer);
}

/* Take token k (after prev, NONE16 if first) out of c's queue. */
static void q_unlink(struct txconn *c, uint16_t prev, uint16_t k)
{
    uint16_t next = stok[k].next;

    if (prev == NONE16)
        c->qhead = next;
    else
        stok[prev].next = next;
    if (c->qtail == k)
        c->qtail = prev;
}

void tx_reject(uint32_t peer, uint32_t seq)
{
    struct txconn *c = &txc[peer];
    const struct stoken *t;
    uint32_t port, count;
    uint16_t k, prev, next;

    if (nc_seq_distance(c->w.base, seq) >= c->w.count)
        return;                 /* stale */
    /* A second REJECT of the packet a first one refused (the timer sent
     * it again before the first REJECT came back): the first restarted
     * the window at seq with the FENCE there, and a FENCE is never
     * refused (rx.c), so this one is stale. Taken as new, it failed the
     * messages posted since (some already delivered) and restarted the
     * window behind the receiver, which then acknowledged beyond it for
     * ever (found by spec/promela/p2p_reliable.pml, docs/models.md). */
    t = &stok[pd[c->slot[nc_tx_slot(seq)]].tok];
    if (t->fence)
        return;
    port = t->dst_port;
    if (seq != c->w.base)
        tx_ack(peer, seq - 1);
    /* everything in flight goes: the messages behind start again */
    count = c->w.count;
    for (uint32_t j = 0; j < count; j++)
        pd_release(c->slot[nc_tx_slot(seq + j)]);
    nc_tx_init(&c->w, seq, NC_FW_WINDOW);
    c->send_next = seq;
    /* fail every message to that port, restart the others */
    prev = NONE16;
    for (k = c->qhead; k != NONE16; k = next) {
        next = stok[k].next;
        /* collectives' packets are not messages of the closed port's
         * process: they follow their collective's rules there (the
         * barrier's: held, rejected) */
        if (stok[k].dst_port == port && !stok[k].fence && !stok[k].kind) {
            q_unlink(c, prev, k);
            send_done(k, NC_ST_EPORTCLOSED);
            continue;
        }
        stok[k].built = stok[k].acked = 0;
        stok[k].started = 0;
        prev = k;
    }
    c->cur = c->qhead;
    /* then tell the receiver that (this node, port) starts afresh */
    tx_fence(peer, port);
}

/* A local port closed: its messages not started are dropped (no event:
 * the process is gone); started ones finish so the peer sees whole
 * messages. */
void tx_port_closed(uint32_t port)
{
    for (uint32_t peer = 0; peer < NC_ABI_MAX_NODES; peer++) {
        struct txconn *c = &txc[peer];
        uint16_t k, prev = NONE16, next;

        for (k = c->qhead; k != NONE16; k = next) {
            next = stok[k].next;
            if (!stok[k].fence && stok[k].port == port && !stok[k].started) {
                q_unlink(c, prev, k);
                if (c->cur == k)
                    c->cur = next;
                send_done(k, NC_ST_ECLOSED);
                continue;
            }
            prev = k;
        }
    }
}

#define SEND_TIMEOUT_ON 1

/* The send time-out of token k's messages, in RTC ticks: its port's (a
 * fence belongs to no port: the default). */
static uint32_t timeout_of(const struct stoken *t)
{
    return t->fence ? NC_ABI_SEND_TIMEOUT_DEFAULT_US * 2u : port_send_timeout[t->port];
}


/* peer's window has not moved for the send time-out of its oldest message:
 * that message and the ones queued behind it from the same port to the
 * same (node, port) fail (their events after the SYNC's answer); the rest
 * restarts in a new epoch (see the top). */
static void tx_time_out(uint32_t peer)
{
    struct txconn *c = &txc[peer];
    uint16_t head = pd[c->slot[nc_tx_slot(c->w.base)]].tok, k, prev, next;
    uint32_t port = stok[head].port, dport = stok[head].dst_port;
    /* beyond every number used, and one more: the receiver's ACK once it
     * took the SYNC (restart - 1) then names no packet of the old window */
    uint32_t restart = c->w.base + c->w.count + 1;
    bool messages = !stok[head].fence && !stok[head].kind;
    uint32_t wait = timeout_of(&stok[head]);

    c->old_epoch = c->epoch;

    /* the number of each message's last packet, for an ACK of the old
     * window that may still come (tx_ack_old); none for a message not
     * all in the window (restart - 1: past it) */
    for (k = c->qhead; k != NONE16; k = stok[k].next)
        stok[k].last_seq = restart - 1;
    for (uint32_t j = 0; j < c->w.count; j++) {
        const struct pktd *d = &pd[c->slot[nc_tx_slot(c->w.base + j)]];

        if (d->offset + d->len == stok[d->tok].len)
            stok[d->tok].last_seq = c->w.base + j;
        pd_release(c->slot[nc_tx_slot(c->w.base + j)]);
    }
    c->old_base = c->w.base;
    c->old_count = c->w.count;
    nc_tx_init(&c->w, restart, NC_FW_WINDOW);
    c->send_next = c->last_base = restart;
    c->sync = NC_DF_SYNC;
    c->epoch = (c->epoch & 0xFFFF0000u) | ((c->epoch + 1u) & 0xFFFFu);
    c->watched = 0;
    prev = NONE16;
    for (k = c->qhead; k != NONE16; k = next) {
        const struct stoken *t = &stok[k];

        next = t->next;
        /* the head goes whatever it is: a fence or a collective's packet
         * too (the receiver that missed a fence refuses once more, rx.c;
         * a collective's packet follows its collective's rules, its
         * completion callback sees the status) */
        if (k == head || (messages && !t->fence && !t->kind && t->port == port &&
                          t->dst_port == dport)) {
            /* out of the queue, onto the list of events to come (its
             * order: the queue's) */
            q_unlink(c, prev, k);
            stok[k].next = NONE16;
            if (c->failed == NONE16) {
                c->failed = k;
            } else {
                uint16_t l = c->failed;

                while (stok[l].next != NONE16)
                    l = stok[l].next;
                stok[l].next = k;
            }
            continue;
        }
        stok[k].built = stok[k].acked = 0;
        stok[k].started = 0;
        prev = k;
    }
    /* the SYNC's answer is awaited for the head's send time-out again at
     * most (a receiver that is dead never answers) */
    c->fail_at = hal_rtc() + wait;
    /* the new epoch waits for the answer: a message of the window that
     * timed out, not timed out itself (another port's, behind the head),
     * may have arrived from a last copy, and sent again it was delivered
     * twice (tests/timeout/suite, the race) */
    c->cur = NONE16;
    c->holding = 1;
    c->probing = 1;
    c->sync_seq = restart;
    ctrl_queue_ext(peer, NC_PT_SYNC, restart, c->epoch, 0);
}

/* The handshake is over (the answer came, or fail_at passed without one):
 * the events of the timed-out messages not found delivered, in the order
 * they were queued; then the new epoch. */
static void tx_end_sync(struct txconn *c, uint32_t peer)
{
    tx_fail_timed_out(c);
    c->probing = 0;
    if (c->holding) {
        c->holding = 0;
        c->cur = c->qhead;
        set_active(peer);
    }
}

void tx_sync_ack(uint32_t peer, uint32_t epoch, uint32_t prev, uint32_t last)
{
    struct txconn *c = &txc[peer];

    if (!c->probing || epoch != c->epoch)
        return;                 /* stale: another time-out's */
    /* the receiver was in the epoch that timed out: what it took of it
     * arrived (an older epoch: it took nothing of that one) */
    if (prev == c->old_epoch)
        tx_ack_old(c, last);
    tx_end_sync(c, peer);
}

/* The receiver took the window that timed out up to ack (the SYNC's
 * answer, or a late ACK of it): the last copy of a message, sent just
 * before the time-out, found a buffer. Those messages complete OK, not
 * timed out, and the ones waiting for the new epoch are not sent again.
 * Both lists are in sequence order. Out of line: once per time-out. */
static __attribute__((noinline)) void tx_ack_old(struct txconn *c, uint32_t ack)
{
    uint32_t upto = nc_seq_distance(c->old_base, ack);

    if (upto >= c->old_count)
        return;
    while (c->failed != NONE16 &&
           nc_seq_distance(c->old_base, stok[c->failed].last_seq) <= upto) {
        uint16_t k = c->failed;

        c->failed = stok[k].next;
        send_done(k, NC_ST_OK);
    }
    while (c->holding && c->qhead != NONE16 &&
           nc_seq_distance(c->old_base, stok[c->qhead].last_seq) <= upto) {
        uint16_t k = c->qhead;

        q_unlink(c, NONE16, k);
        send_done(k, NC_ST_OK);
    }
}

/* The events of peer's timed-out messages, in the order they were queued. */
static void tx_fail_timed_out(struct txconn *c)
{
    uint16_t k = c->failed, next;

    c->failed = NONE16;
    for (; k != NONE16; k = next) {
        next = stok[k].next;
        send_done(k, NC_ST_ETIMEDOUT);
    }
}

/* The longest wait between two retransmissions of a stalled window is
 * 2^RTO_BACKOFF_MAX periods (16: 800 us at 133 MHz, shorter than the
 * default send time-out by far, so a lost packet still costs little when
 * the receiver is only slow). */
#define RTO_BACKOFF_MAX 4u

/* TIME0: a connection whose window has not moved for a whole period goes
 * back to its base (the retransmission timeout), and again after a period
 * twice as long each time (exponential back-off); one that has not moved
 * for its oldest message's send time-out gives that message up. */
void tx_timer(void)
{
    bool any = false;
    uint32_t now = hal_rtc();

    hal_isr_clear(L9_ISR_TIME0);
    /* tlist may grow meanwhile (a callback that sends): the new entries
     * are looked at in this tick too */
    for (uint32_t i = 0; i < n_tlist;) {
        uint32_t peer = tlist[i];
        struct txconn *c = &txc[peer];

        if (c->probing) {
            any = true;
            if ((int32_t)(now - c->fail_at) >= 0)
                tx_end_sync(c, peer);   /* no answer: what was not heard of timed out */
            else
                ctrl_queue_ext(peer, NC_PT_SYNC, c->sync_seq, c->epoch, 0);     /* again */
        }
        if (!c->w.count) {
            c->watched = 0;
            if (!c->probing) {
                /* nothing to watch until its next packet is built */
                in_tlist[peer] = 0;
                tlist[i] = tlist[--n_tlist];
            } else {
                i++;
            }
            continue;
        }
        any = true;
        i++;
        if (!c->watched || c->w.base != c->last_base) {
            /* busy since the last tick, or moved: the stall starts now.
             * Nothing goes again at this tick: the base packet of a window
             * that was empty at the last tick may be a microsecond old, and
             * its ACK may be delayed by three quarters of a period (rx.c) */
            c->watched = 1;
            c->stall_at = now;
            c->backoff = c->wait = 0;
        } else if (SEND_TIMEOUT_ON &&
                 now - c->stall_at >= timeout_of(&stok[pd[c->slot[nc_tx_slot(c->w.base)]].tok])) {
            tx_time_out(peer);
            continue;
        } else if (c->wait) {
            c->wait--;
        } else {
            /* stalled a whole period or more: the window again from its
             * base, then wait twice as long before the next time (1, 2, 4,
             * ... RTO_BACKOFF_MAX periods). Resending every period would keep a
             * receiver that many peers send to (a barrier's root with 11
             * children, an all-to-all on 16 nodes) busy with copies of
             * what it is still acknowledging: it would never catch up */
            c->send_next = c->w.base;
            set_active(peer);
            if (c->backoff < RTO_BACKOFF_MAX)
                c->backoff++;
            c->wait = (uint8_t)((1u << c->backoff) - 1u);
        }
        c->last_base = c->w.base;
    }
    if (plugin_timer())
        any = true;
    timer_on = any;
    if (any)
        hal_timer0(tx_rto);
}

