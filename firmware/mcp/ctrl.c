/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Control packets (ACK, NACK, REJECT, SYNC, SYNC_ACK): a FIFO in front of
 * the data on the wire, so that acknowledgements are never stuck behind a
 * window of data.
 * A new ACK to the peer of the last queued ACK replaces it (ACKs are
 * cumulative), and an ACK's value is taken when it goes on the wire.
 */
#include "mcp_ctrl.h"
#include "mcp_route.h"
#include "mcp_rx.h"
#include "mcp_plugin.h"

struct ctrl { uint16_t peer, type; uint32_t seq, epoch, word; };

static struct ctrl q[NC_FW_CTRL_QUEUE];
static uint32_t head, count;   /* the control packets queued */
/* count plus the collectives' packets queued or on the wire (below): one
 * word for the loop's test (ctrl_pending), as before they existed */
static uint32_t work;
#define CTRL_BUF (8u + NC_PKT_HDR)
static uint8_t buf[NC_FW_CTRL_BUFS][CTRL_BUF] __attribute__((aligned(8)));
static uint32_t next_buf;
/* ACK packets, the most frequent: one per peer, built once (route, type,
 * source; the rest zero), so an ACK writes only its sequence number. The
 * buffer may be written again at once: ctrl_send_one runs only when
 * ISR.SEND is set, i.e. the previous packet has left (docs/nic.md). */
static uint8_t ack_buf[NC_ABI_MAX_NODES][CTRL_BUF] __attribute__((aligned(8)));
static uint8_t ack_rl[NC_ABI_MAX_NODES];     /* route length; 0: not built yet */

void ctrl_queue(uint32_t peer, uint16_t type, uint32_t seq)
{
    ctrl_queue_ext(peer, type, seq, 0, 0);
}

void ctrl_queue_ext(uint32_t peer, uint16_t type, uint32_t seq, uint32_t epoch,
                    uint32_t word)
{
    if (count) {
        struct ctrl *last = &q[(head + count - 1) % NC_FW_CTRL_QUEUE];

        if (last->peer == peer && last->type == NC_PT_ACK && type == NC_PT_ACK) {
            last->seq = seq;
            return;
        }
    }
    if (count == NC_FW_CTRL_QUEUE)
        return;     /* the peer's timer recovers a lost answer */
    q[(head + count) % NC_FW_CTRL_QUEUE] =
        (struct ctrl){ (uint16_t)peer, type, seq, epoch, word };
    count++;
    work++;
}

/* The collectives' unsequenced packets (mcp_plugin.h, mcp_xmit): a FIFO
 * served after the control packets, and the one on the wire now, whose
 * completion runs when the engine is free again (the next ctrl_send_one).
 * work counts both, so ctrl_pending keeps tx_poll running until the
 * callback has run. */
static struct mcp_xpkt *xq_head, *xq_tail, *x_wire;

void mcp_xmit(struct mcp_xpkt *x)
{
    x->next = 0;
    if (xq_tail)
        xq_tail->next = x;
    else
        xq_head = x;
    xq_tail = x;
    work++;
}

bool ctrl_pending(void)
{
    return work != 0;
}

static void send_ack(uint32_t peer)
{
    uint8_t *h = ack_buf[peer] + 8;
    struct nc_pkt *p = (struct nc_pkt *)h;
    uint32_t rl = ack_rl[peer];

    NC_OPAQUE(p);
    if (!rl) {
        rl = route_to(peer, h);
        if (!rl)
            return;
        p->type = NC_PT_ACK;
        p->src = (uint16_t)my_node;
        ack_rl[peer] = (uint8_t)rl;     /* the rest is zero (.bss) */
    }
    /* an ACK says what has arrived by now (and pays what was owed) */
    p->seq = rx_ack_now(peer);
    hal_tx(h, rl, h + NC_PKT_HDR);
}

/* An ACK to peer now: straight on the wire if nothing is queued ahead
 * of it and the engine is free (no queue round trip), else queued. */
void ctrl_ack(uint32_t peer)
{
    if (!count && (hal_isr() & L9_ISR_SEND))
        return send_ack(peer);
    ctrl_queue(peer, NC_PT_ACK, 0);
}

/* The collective packet last on the wire is done (the engine is free
 * again): its owner may rewrite it and queue it again (multisend's next
 * destination). Out of line: ordinary traffic never comes here. */
static __attribute__((noinline)) void xmit_finish(void)
{
    struct mcp_xpkt *x = x_wire;

    x_wire = 0;
    work--;
    x->done(x);
}

/* A route the collective wrote itself (MCP_XDST_OWN): its length, else 0.
 * Called only where route_to found none (dst is not a node then), so the
 * packets with a node's route pay nothing for it. */
static __attribute__((noinline)) uint32_t own_route(uint32_t dst)
{
    return dst & MCP_XDST_OWN ? dst & 0xFu : 0;
}

/* The next collective packet on the wire; false if there is none. */
static __attribute__((noinline)) bool xmit_one(void)
{
    struct mcp_xpkt *x;

    while ((x = xq_head)) {
        uint32_t rl;

        xq_head = x->next;
        if (!xq_head)
            xq_tail = 0;
        rl = route_to(x->dst, x->hdr);
        if (!rl && !(rl = own_route(x->dst))) {
            work--;
            x->done(x);     /* no route: dropped, as the wire would */
            if (x_wire)
                return true;    /* done sent another one (mcp_xmit_now) */
            continue;
        }
        x_wire = x;
        if (x->payload)
            hal_tx_gather(x->hdr, rl, NC_PKT_HDR, x->payload, x->len);
        else
            hal_tx(x->hdr, rl, x->hdr + NC_PKT_HDR + x->len);
        return true;
    }
    return false;
}

/* x on the wire at once when nothing is ahead of it (no control packet,
 * no collective packet queued or unfinished) and the engine is free, as
 * ctrl_ack does for ACKs; else queued. Saves the trip through the main
 * loop to tx_poll (~1-3 us a packet on P-GM2). From a done callback too
 * (xmit_finish): ctrl_send_one then sees the engine taken (x_wire) and
 * says so to tx_poll; a multisend's next copy skips the queue that way. */
void mcp_xmit_now(struct mcp_xpkt *x)
{
    uint32_t rl;

    if (count || xq_head || x_wire || !(hal_isr() & L9_ISR_SEND))
        return mcp_xmit(x);
    rl = route_to(x->dst, x->hdr);
    if (!rl && !(rl = own_route(x->dst))) {
        x->done(x);     /* no route: dropped, as the wire would */
        return;
    }
    x_wire = x;
    work++;             /* until xmit_finish runs its callback */
    if (x->payload)
        hal_tx_gather(x->hdr, rl, NC_PKT_HDR, x->payload, x->len);
    else
        hal_tx(x->hdr, rl, x->hdr + NC_PKT_HDR + x->len);
}

bool ctrl_send_one(void)
{
    if (__builtin_expect(x_wire != 0, 0)) {
        xmit_finish();
        if (x_wire)
            return true;    /* its callback put a packet on the wire (mcp_xmit_now) */
    }
    if (!count)
        return xmit_one();
    struct ctrl c = q[head];
    uint8_t *h = buf[next_buf] + 8;
    struct nc_pkt *p = (struct nc_pkt *)h;
    uint32_t rl;

    NC_OPAQUE(p);
    head = (head + 1) % NC_FW_CTRL_QUEUE;
    count--;
    work--;
    if (c.type == NC_PT_ACK) {
        send_ack(c.peer);
        return true;
    }
    next_buf = (next_buf + 1) % NC_FW_CTRL_BUFS;
    rl = route_to(c.peer, h);
    if (!rl)
        return false;
    p->type = c.type;
    p->src = (uint16_t)my_node;
    p->seq = c.seq;
    p->src_port = p->dst_port = p->flags = p->pad = 0;
    p->msg_len = p->offset = p->len = 0;
    p->pad2[0] = c.word;
    p->pad2[1] = 0;
    p->ack = 0;
    p->epoch = c.epoch;
    hal_tx(h, rl, h + NC_PKT_HDR);
    return true;
}
