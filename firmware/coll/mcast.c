/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NIC multicast, first slice: multisend from the root (seed 000 section
 * 5.1, the second approach; docs/multicast.md).
 *
 * Groups. The host computes the tree and writes each member's entry with
 * NC_CMD_MCAST / NC_MC_OP_SET: the group id, the parent (NC_MC_ROOT at the
 * root) and the children. An entry belongs to the port that set it, in
 * that port's generation: another port naming the same id is refused with
 * NC_ST_EPERM, and the entries of a port go when it closes.
 *
 * Root. A SEND names the group and a host buffer; its messages go one at a
 * time, in the order of the commands. Each packet of the message takes the
 * group's next send sequence number (ref/proto nc_mcack, nc_mc_push), is
 * fetched from the host once into an SRAM buffer and goes to the first
 * child; the core's send-done callback (mcp_xmit) rewrites the header's
 * destination port and the route and queues the same buffer for the next
 * child, and the buffer is free after the last one (not after the ACKs:
 * the host buffer stays the copy for retransmission, section 5.2). Every
 * child acknowledges cumulatively per group (MC_ACK); nc_mc_ack keeps what
 * each child holds, and the send completes (NC_EV_SENT with the group id)
 * when every child holds every packet of the message.
 *
 * Retransmission. The group's timer: when a group with packets in flight
 * saw neither an ACK nor a send of its own for two retransmission periods,
 * every packet of the window is fetched again from the host buffer and
 * sent only to the children that have not acknowledged it
 * (nc_mc_owing_mask).
 *
 * Member. A packet from the group's parent with the expected group
 * sequence number is taken: its first packet takes a receive token of the
 * port (none: dropped unacknowledged, the root sends it again), the
 * payload goes to the host (mcp_store), the message's last one posts the
 * RECV event with the group id after it, and the ACK goes back to the
 * parent. A packet already taken is acknowledged again (the ACK was lost);
 * one beyond the expected number is dropped: the group's order is the
 * root's.
 *
 * Not yet (docs/multicast.md): forwarding at inner nodes (FPFS), the send
 * time-out of a multicast whose child never acknowledges.
 */
#include "mcast.h"
#include "mcp_port.h"
#include "mcp_route.h"
#include "nc_mcack.h"

#define MC_GROUPS   16u     /* group entries per NIC */
#define MC_QUEUE    8u      /* multicasts waiting at a root group */
#define MC_BUFS     8u      /* SRAM packet buffers of the roots */
#define MC_ACKBUFS  16u     /* ACK packets waiting for the wire */
#define MC_STALL    2u      /* periods without progress before a retransmission */

/* G_CLOSED: a member entry whose port closed. It still acknowledges the
 * packets its port took (the root may have lost the last ACK while the
 * process, which had everything, went away: without it the root never
 * completes) and delivers nothing; its slot is reused when none is free. */
enum { G_FREE, G_ROOT, G_MEMBER, G_CLOSED };

struct mcsend { uint32_t hi, lo, len, cookie; };

struct mgroup {
    uint8_t role, port, nset, stall;
    uint8_t activity;       /* an ACK or a send since the last timer tick */
    uint8_t busy;           /* root: msg is being sent */
    uint8_t active;         /* member: a message is arriving */
    uint8_t discard;        /* member: its memory went away: EFAULT */
    uint32_t id, gen, serial;
    uint32_t nchildren;
    uint32_t parent;        /* NC_MC_MEMBER of the parent; NC_MC_ROOT */
    uint32_t child[NC_MC_MAX_CHILDREN];
    /* root */
    nc_mc_t mc;
    struct mcsend msg, q[MC_QUEUE];
    uint32_t qhead, qn;
    uint32_t first, npk, built;     /* the message's packets: first.., npk, numbered */
    uint32_t resend, resend_end;    /* retransmission cursor (group sequence) */
    /* member */
    uint32_t expect;                /* next group sequence number from the parent */
    uint32_t hi, lo, cookie, msg_len, got;
};

static struct mgroup mc_groups[MC_GROUPS];
static uint32_t serials;

struct mcbuf {
    struct mcp_xpkt x;
    uint8_t used;
    uint16_t g;
    uint32_t serial, seq, mask;     /* children still to send to */
};
static struct mcbuf mc_bufs[MC_BUFS];
#define MC_BUF_BYTES (8u + NC_PKT_HDR + NC_FW_MTU)
static uint8_t buf_mem[MC_BUFS][MC_BUF_BYTES] __attribute__((aligned(8)));

struct mcack { struct mcp_xpkt x; uint8_t used; };
static struct mcack mc_acks[MC_ACKBUFS];
static uint8_t ack_mem[MC_ACKBUFS][8u + NC_PKT_HDR] __attribute__((aligned(8)));

static struct nc_pkt *mc_hdr(struct mcp_xpkt *x) { return (struct nc_pkt *)x->hdr; }

static void mc_refuse(uint32_t pi, uint32_t status)
{
    port_event(pi, port_gen(pi), NC_EV_ERROR, status, NC_CMD_MCAST, 0, 0, 0);
}

/* The entry of group id (any owner; closed ones too if closed), or NULL. */
static struct mgroup *mc_lookup(uint32_t id, bool closed)
{
    for (uint32_t i = 0; i < MC_GROUPS; i++) {
        struct mgroup *g = &mc_groups[i];

        if (g->id == id && g->role != G_FREE && (closed || g->role != G_CLOSED))
            return g;
    }
    return 0;
}

static struct mgroup *mc_find(uint32_t id) { return mc_lookup(id, false); }

static bool mc_complete(const struct mgroup *g) { return g->nset == g->nchildren; }

/* ---- root ---------------------------------------------------------------- */

static void mc_pump(struct mgroup *g);

static void send_to_next_child(struct mcbuf *b)
{
    struct mgroup *g = &mc_groups[b->g];
    uint32_t i = (uint32_t)__builtin_ctz(b->mask), c = g->child[i];

    b->x.dst = c >> 8;
    mc_hdr(&b->x)->dst_port = (uint8_t)(c & 0xFF);
    mcp_xmit(&b->x);
}

/* The engine is done with b: the next child that needs it, or free. */
static void buf_sent(struct mcp_xpkt *x)
{
    struct mcbuf *b = (struct mcbuf *)x;
    struct mgroup *g = &mc_groups[b->g];

    if (g->serial != b->serial || g->role != G_ROOT) {
        b->used = 0;            /* the group went meanwhile */
        return;
    }
    g->activity = 1;
    b->mask &= b->mask - 1;
#ifdef NC_BROKEN_MC_FIRST_CHILD_ONLY
    b->mask = 0;    /* broken on purpose (tests/mcast/suite): only child 0 gets each packet */
#endif
    if (b->mask) {
        send_to_next_child(b);
        return;
    }
    b->used = 0;
    mc_pump(g);
}

static void buf_fetched(uint32_t port, uint32_t gen, uint16_t bi, bool last, bool ok)
{
    struct mcbuf *b = &mc_bufs[bi];
    struct mgroup *g = &mc_groups[b->g];

    (void)port, (void)gen, (void)last, (void)ok;
    if (g->serial != b->serial || g->role != G_ROOT || !b->mask) {
        b->used = 0;
        return;
    }
    send_to_next_child(b);
}

/* Packet seq of the current message into a free buffer, to the children
 * in mask; false if no buffer is free. */
static bool start_packet(struct mgroup *g, uint32_t seq, uint32_t mask)
{
    struct mcbuf *b = 0;
    struct nc_pkt *h;
    uint32_t off, len, lo;

    for (uint32_t i = 0; i < MC_BUFS; i++)
        if (!mc_bufs[i].used) {
            b = &mc_bufs[i];
            break;
        }
    if (!b)
        return false;
    off = (seq - g->first) * NC_FW_MTU;
    len = g->msg.len - off < NC_FW_MTU ? g->msg.len - off : NC_FW_MTU;
    b->used = 1;
    b->g = (uint16_t)(g - mc_groups);
    b->serial = g->serial;
    b->seq = seq;
    b->mask = mask;
    b->x.done = buf_sent;
    b->x.len = len;
    h = mc_hdr(&b->x);
    h->type = NC_PT_MC_DATA;
    h->src = (uint16_t)my_node;
    h->seq = seq;
    h->src_port = g->port;
    h->flags = h->pad = 0;
    h->msg_len = g->msg.len;
    h->offset = off;
    h->len = len;
    h->pad2[0] = g->id;
    h->pad2[1] = 0;
    h->ack = h->epoch = 0;
    g->activity = 1;
    if (!len) {
        send_to_next_child(b);
        return true;
    }
    lo = g->msg.lo + off;
    if (!mcp_fetch(buf_fetched, g->port, g->gen, (uint16_t)(b - mc_bufs), h + 1,
                   g->msg.hi + (lo < g->msg.lo), lo, len)) {
        b->used = 0;
        return false;
    }
    return true;
}

static uint32_t all_children(const struct mgroup *g)
{
    return g->nchildren >= 32 ? 0xFFFFFFFFu : (1u << g->nchildren) - 1u;
}

/* Start the next queued multicast of g, if none is being sent. */
static void next_message(struct mgroup *g)
{
    if (g->busy || !g->qn || !mc_complete(g))
        return;
    g->msg = g->q[g->qhead];
    g->qhead = (g->qhead + 1) % MC_QUEUE;
    g->qn--;
    g->busy = 1;
    g->first = g->mc.base + g->mc.count;
    g->npk = g->msg.len ? (g->msg.len + NC_FW_MTU - 1) / NC_FW_MTU : 1;
    g->built = 0;
    mcp_timer_need();
}

/* Send what g may send now: retransmissions first, then new packets. */
static void mc_pump(struct mgroup *g)
{
    for (;;) {
        if (g->resend != g->resend_end) {
            uint32_t seq = g->resend, mask = nc_mc_owing_mask(&g->mc, seq);

#ifdef NC_BROKEN_MC_RESEND_ALL
            /* broken on purpose: resent to every child (still correct,
             * only wasteful: the suite counts duplicates) */
            if (mask)
                mask = all_children(g);
#endif
            if (mask && !start_packet(g, seq, mask))
                return;
            g->resend++;
            continue;
        }
        if (g->busy && g->built < g->npk && g->mc.count < g->mc.window) {
            uint32_t seq = g->mc.base + g->mc.count;

            if (!start_packet(g, seq, all_children(g)))
                return;
            (void)nc_mc_push(&g->mc);
            g->built++;
            continue;
        }
        return;
    }
}

/* An MC_ACK from a child of a root group here. */
static void root_ack(uint32_t src, const struct nc_pkt *h)
{
    struct mgroup *g = mc_find(h->pad2[0]);
    uint32_t c = NC_MC_MEMBER(src, h->src_port), ci;

    if (!g || g->role != G_ROOT || g->port != h->dst_port || !mc_complete(g))
        return;
    for (ci = 0; ci < g->nchildren && g->child[ci] != c; ci++)
        ;
    if (ci == g->nchildren)
        return;
    if (nc_mc_ack(&g->mc, ci, h->seq))
        g->activity = 1;
#ifdef NC_BROKEN_MC_EARLY_RELEASE
    /* broken on purpose (tests/mcast/suite): the send completes when the
     * first child has all of it, not every child */
    if (g->busy && g->built == g->npk && g->mc.acked[ci] == g->mc.count) {
        g->mc.base += g->mc.count;
        g->mc.count = 0;
        for (uint32_t i = 0; i < g->nchildren; i++)
            g->mc.acked[i] = 0;
    }
#endif
    if (g->busy && g->built == g->npk && nc_seq_distance(g->first, g->mc.base) >= g->npk) {
        g->busy = 0;
        g->resend = g->resend_end = g->mc.base;
        port_event_group(g->port, g->gen, NC_EV_SENT, NC_ST_OK, g->msg.cookie, g->msg.len,
                         0, 0, g->id);
        next_message(g);
    }
    mc_pump(g);
}

static void mc_send(uint32_t pi, const uint32_t *a)
{
    struct mgroup *g = mc_find(a[2]);
    uint32_t hi = a[3], lo = a[4], len = a[5], cookie = a[6], st = NC_ST_OK;

    if (!g || g->role != G_ROOT)
        st = g && g->port != pi ? NC_ST_EPERM : NC_ST_EINVAL;
    else if (g->port != pi)
        st = NC_ST_EPERM;
    else if (len > NC_ABI_MAX_MSG)
        st = NC_ST_EINVAL;
    else if (len && !port_mem_ok(pi, hi, lo, len))
        st = NC_ST_EFAULT;
    else if (g->qn == MC_QUEUE)
        st = NC_ST_ENORES;
    if (st != NC_ST_OK) {
        port_event_group(pi, port_gen(pi), NC_EV_SENT, st, cookie, 0, 0, 0, a[2]);
        return;
    }
    g->q[(g->qhead + g->qn++) % MC_QUEUE] = (struct mcsend){ hi, lo, len, cookie };
    next_message(g);
    mc_pump(g);
}

/* ---- member -------------------------------------------------------------- */

static void ack_sent(struct mcp_xpkt *x) { ((struct mcack *)x)->used = 0; }

/* Tell g's parent that every group packet up to seq arrived. */
static void mc_send_ack(const struct mgroup *g, uint32_t seq)
{
    for (uint32_t i = 0; i < MC_ACKBUFS; i++) {
        struct mcack *k = &mc_acks[i];
        struct nc_pkt *h;

        if (k->used)
            continue;
        k->used = 1;
        k->x.hdr = ack_mem[i] + 8;
        k->x.len = 0;
        k->x.dst = g->parent >> 8;
        k->x.done = ack_sent;
        h = mc_hdr(&k->x);
        h->type = NC_PT_MC_ACK;
        h->src = (uint16_t)my_node;
        h->seq = seq;
        h->src_port = g->port;
        h->dst_port = (uint8_t)(g->parent & 0xFF);
        h->pad2[0] = g->id;
        mcp_xmit(&k->x);
        return;
    }
    /* none free: the parent's timer sends again, and this ACK goes then */
}

static bool member_data(uint32_t src, const struct nc_pkt *h, uint32_t n, uint16_t b)
{
    struct mgroup *g = mc_lookup(h->pad2[0], true);
    struct port *p;
    bool held = false, last;
    uint32_t lo;

    if (g && g->role == G_CLOSED && g->port == h->dst_port &&
        g->parent == NC_MC_MEMBER(src, h->src_port)) {
        if (nc_seq_lt(h->seq, g->expect))
            mc_send_ack(g, g->expect - 1);
        return false;
    }
    if (!g || g->role != G_MEMBER || g->port != h->dst_port ||
        g->parent != NC_MC_MEMBER(src, h->src_port) || h->len > NC_FW_MTU ||
        n != NC_PKT_HDR + h->len || h->msg_len > NC_ABI_MAX_MSG || h->offset > h->msg_len ||
        h->len > h->msg_len - h->offset)
        return false;
    if (h->seq != g->expect) {
#ifndef NC_BROKEN_MC_ACCEPT_ANY
        if (nc_seq_lt(h->seq, g->expect))
            mc_send_ack(g, g->expect - 1);     /* taken before: our ACK was lost */
        return false;
#endif
    }
    p = &ports[g->port];
    if (h->offset == 0) {
        uint16_t t;

        if (!p->open || p->gen != g->gen)
            return false;
        t = port_take_rtoken(p, h->msg_len);
        if (t == NONE16)
            return false;   /* no buffer yet: the root sends it again */
        g->active = 1;
        g->discard = 0;
        g->hi = p->rtok[t].hi;
        g->lo = p->rtok[t].lo;
        g->cookie = p->rtok[t].cookie;
        g->msg_len = h->msg_len;
        g->got = 0;
    } else if (!g->active || h->offset != g->got || h->msg_len != g->msg_len) {
        return false;
    }
    lo = g->lo + h->offset;
    if (h->len && !g->discard) {
        if (!port_mem_ok(g->port, g->hi + (lo < g->lo), lo, h->len)) {
            g->discard = 1;
        } else {
            mcp_store(g->port, g->gen, b, h + 1, g->hi + (lo < g->lo), lo, h->len);
            held = true;
        }
    }
    g->got += h->len;
    g->expect = h->seq + 1;
    last = h->offset + h->len == h->msg_len;
    if (last) {
        port_event_group(g->port, g->gen, NC_EV_RECV, g->discard ? NC_ST_EFAULT : NC_ST_OK,
                         g->cookie, g->msg_len, src, h->src_port, g->id);
        g->active = 0;
    }
    mc_send_ack(g, h->seq);
    return held;
}

/* ---- the plug-in ----------------------------------------------------------- */

static bool mc_raw(uint32_t src, const struct nc_pkt *h, uint32_t n, uint16_t b)
{
    if (h->type == NC_PT_MC_DATA)
        return member_data(src, h, n, b);
    if (h->type == NC_PT_MC_ACK && n == NC_PKT_HDR)
        root_ack(src, h);
    return false;
}

static void mc_set(uint32_t pi, const uint32_t *a)
{
    uint32_t id = a[2], parent = a[3], nch = a[4], first = a[5];
    struct mgroup *g = mc_find(id);

    if (!id || nch > NC_MC_MAX_CHILDREN || (parent == NC_MC_ROOT && !nch) ||
        (parent != NC_MC_ROOT && ((parent >> 8) >= n_nodes || (parent & 0xFF) >= NC_ABI_PORTS)))
        return mc_refuse(pi, NC_ST_EINVAL);
    if (g && g->port != pi)
        return mc_refuse(pi, NC_ST_EPERM);
    if (g && (first == 0 ? g->busy || g->qn : g->parent != parent || g->nchildren != nch))
        return mc_refuse(pi, NC_ST_EBUSY);
    if (!g) {
        /* a free slot, else a closed member's (the same id's first) */
        g = mc_lookup(id, true);
        for (uint32_t i = 0; i < MC_GROUPS && !g; i++)
            if (mc_groups[i].role == G_FREE)
                g = &mc_groups[i];
        for (uint32_t i = 0; i < MC_GROUPS && !g; i++)
            if (mc_groups[i].role == G_CLOSED)
                g = &mc_groups[i];
        if (!g)
            return mc_refuse(pi, NC_ST_ENORES);
        first = 0;
    }
    if (first == 0) {
        g->role = parent == NC_MC_ROOT ? G_ROOT : G_MEMBER;
        g->id = id;
        g->port = (uint8_t)pi;
        g->gen = port_gen(pi);
        g->serial = ++serials;
        g->parent = parent;
        g->nchildren = nch;
        g->nset = 0;
        g->busy = g->active = 0;
        g->qn = g->qhead = 0;
        g->expect = 1;
        g->stall = 0;
        nc_mc_init(&g->mc, nch ? nch : 1, 1, NC_FW_WINDOW);
        g->resend = g->resend_end = 1;
    }
    for (uint32_t i = 0; i < 2 && first + i < nch; i++) {
        uint32_t c = a[6 + i];

        if ((c >> 8) >= n_nodes || (c & 0xFF) >= NC_ABI_PORTS || !route_len(c >> 8)) {
            g->role = G_FREE;
            return mc_refuse(pi, NC_ST_EINVAL);
        }
        g->child[first + i] = c;
        if (first + i >= g->nset)
            g->nset = (uint8_t)(first + i + 1);
    }
}

static void mc_cmd(uint32_t pi, const uint32_t *a)
{
    switch (a[1]) {
    case NC_MC_OP_SET:
        return mc_set(pi, a);
    case NC_MC_OP_SEND:
        return mc_send(pi, a);
    case NC_MC_OP_DEL: {
        struct mgroup *g = mc_find(a[2]);

        if (!g)
            return mc_refuse(pi, NC_ST_EINVAL);
        if (g->port != pi)
            return mc_refuse(pi, NC_ST_EPERM);
        if (g->busy || g->qn)
            return mc_refuse(pi, NC_ST_EBUSY);
        g->role = G_FREE;
        return;
    }
    default:
        return mc_refuse(pi, NC_ST_EINVAL);
    }
}

/* Every period: a root group with packets out that saw no progress for
 * MC_STALL periods sends its window again to the children that owe it. */
static bool mc_timer(void)
{
    bool more = false;

    for (uint32_t i = 0; i < MC_GROUPS; i++) {
        struct mgroup *g = &mc_groups[i];

        if (g->role != G_ROOT || (!g->busy && !g->mc.count))
            continue;
        more = true;
        if (g->activity) {
            g->activity = 0;
            g->stall = 0;
            continue;
        }
#ifndef NC_BROKEN_MC_NO_RETRANSMIT
        if (++g->stall >= MC_STALL && g->resend == g->resend_end) {
            g->stall = 0;
            g->resend = g->mc.base;
            g->resend_end = g->mc.base + g->mc.count;
            mc_pump(g);
        }
#endif
    }
    return more;
}

/* A port's mc_groups go with it (its process is gone); buffers in flight see
 * the serial change and free themselves. */
static void mc_port_closed(uint32_t pi)
{
    for (uint32_t i = 0; i < MC_GROUPS; i++) {
        struct mgroup *g = &mc_groups[i];

        if (g->role == G_MEMBER && g->port == pi) {
#ifdef NC_BROKEN_MC_FORGET_ON_CLOSE
            g->role = G_FREE;   /* broken on purpose (tests/mcast/suite): a lost last ACK is never repaired */
            continue;
#endif
            g->role = G_CLOSED;
            g->active = 0;
        } else if (g->role == G_ROOT && g->port == pi) {
            g->role = G_FREE;
        }
    }
}

static void mc_init(void)
{
    for (uint32_t i = 0; i < MC_BUFS; i++)
        mc_bufs[i].x.hdr = buf_mem[i] + 8;
}

const struct mcp_coll nc_mcast = {
    .cmd = NC_CMD_MCAST,
    .type_first = NC_PT_MC_DATA & 0xFF,
    .type_last = NC_PT_MC_ACK & 0xFF,
    .init = mc_init,
    .command = mc_cmd,
    .port_closed = mc_port_closed,
    .raw = mc_raw,
    .timer = mc_timer,
};
