/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NIC multicast (seed 000 section 5; docs/multicast.md): multisend from
 * the root, forwarding at inner members (FPFS, seed 001 section 3.2),
 * per-group order and acknowledgements, the send time-out.
 *
 * Groups. The host computes the tree (libnicoll nc_group.c) and writes
 * each member's entry with NC_CMD_MCAST / NC_MC_OP_SET: the group id, the
 * parent (NC_MC_ROOT at the root) and the children. An entry belongs to
 * the port that set it, in that port's generation: another port naming the
 * same id is refused with NC_ST_EPERM, and the entries of a port go when
 * it closes.
 *
 * The protocol's decisions (what to take from the parent, what to ACK up,
 * when a message is released, whom to resend to) are ref/proto nc_mcgroup's
 * (proved; the model spec/promela/mcast_order.pml describes them); this file
 * keeps the buffers, the DMA, the timers and the send time-out.
 *
 * Root. A SEND names the group and a host buffer; its messages go one at a
 * time, in the order of the commands. Each packet of the message takes the
 * group's next send sequence number (nc_mg_push), is
 * fetched from the host once into an SRAM buffer and goes to the first
 * child; the core's send-done callback (mcp_xmit) rewrites the header's
 * destination port and the route and queues the same buffer for the next
 * child, and the buffer is free after the last one (not after the ACKs:
 * the host buffer stays the copy for retransmission, section 5.2). The
 * send completes (NC_EV_SENT with the group id) when every child holds
 * every packet of the message - and a child acknowledges only what its
 * whole subtree holds, so SENT means every member has the message.
 *
 * Inner member. A packet from the parent with the expected group sequence
 * number is taken (its first packet takes a receive token), forwarded at
 * once from its rx buffer to each child in turn (the header rewritten, the
 * payload gathered from the rx buffer: hal_tx_gather) while the same
 * buffer is stored into the receive buffer on the host, and the rx buffer
 * is given back when both are done: packet i reaches every child before
 * packet i+1 is needed (FPFS). The member keeps its own nc_mcack window
 * for its children and acknowledges to its parent only what every child
 * acknowledged; the receive buffer is the copy its retransmissions are
 * fetched from (section 5.2: the receive token becomes the retransmission
 * token), so its RECV event, which gives the buffer back to the process,
 * comes once every child holds the whole message.
 *
 * Leaf. A packet taken is stored to the host, the message's last one posts
 * the RECV event after it, and the ACK goes back to the parent. A packet
 * already taken is acknowledged again (the ACK was lost); one beyond the
 * expected number is dropped: the group's order is the root's.
 *
 * Retransmission. The group's timer: a group with packets out to its
 * children that saw neither an ACK nor a send of its own for two periods
 * fetches every packet of its window again from the host buffer (the
 * root's send buffer, an inner member's receive buffer) and sends it only
 * to the children that have not acknowledged it (nc_mg_resend_mask).
 *
 * Send time-out. A child that owes packets and is not heard from (no ACK
 * at all, not even a repeated one) for the port's send time-out
 * (nc_set_send_timeout) is given up: counted as holding everything from
 * then on, sent nothing more, and the group marked lost; a lost group's
 * ACKs carry the mark up, and the root's sends complete with
 * NC_ST_ETIMEDOUT from then on (the group must be set again). An inner
 * member that waits for its own subtree answers every repeated packet
 * from its parent, so only the dead node's own parent gives it up.
 * The children are looked at every eighth of the time-out, not every
 * period (MC_WALKS): a walk of every child at each tick of a busy group
 * cost a root 0.7 us per multisend to 4 destinations (R1). A child is
 * never given up before it was silent for the time-out, and at most a
 * quarter of it (and a period) later.
 */
#include "mcast.h"
#include "mcp_port.h"
#include "mcp_route.h"
#include "nc_mcgroup.h"

#define MC_GROUPS   16u     /* group entries per NIC */
#define MC_QUEUE    8u      /* multicasts waiting at a root group */
#define MC_WALKS    8u      /* send time-out checks per time-out */
#define MC_BUFS     8u      /* SRAM packet buffers of the roots */
#define MC_ACKBUFS  16u     /* ACK packets waiting for the wire */
#define MC_STALL    2u      /* periods without progress before a retransmission */
#define MC_FWDS     NC_FW_RX_BUFS   /* packets being forwarded: at most one per rx buffer */
/* Packets an inner member holds in rx buffers while it forwards them: all
 * but two of the buffers, so the receive engine always has one to arm.
 * With all of them held, a member whose forwards wait for a child's link
 * stops its own parent's link in turn, and members forwarding to each
 * other in different groups (a root's child may have a smaller id) stopped
 * each other's links until the fabric's 50 ms blocking time-out (8 roots
 * on 16 nodes, seed 2). A packet beyond the limit is dropped and comes
 * again. (Half of the buffers was enough too, but made a lone 64 KB
 * multicast on 16 nodes 1.8 times slower: drops and retransmissions.) */
#define MC_FWD_HOLD (NC_FW_RX_BUFS - 2)

/* G_CLOSED: a member entry whose port closed. It still acknowledges the
 * packets its port took (the root may have lost the last ACK while the
 * process, which had everything, went away: without it the root never
 * completes) and delivers nothing; its slot is reused when none is free. */
enum { G_FREE, G_ROOT, G_MEMBER, G_CLOSED };

/* a message to multicast: at hi:lo in host memory, or inline (nc_abi.h
 * NC_MC_OP_SENDI) at SRAM address lo */
struct mcsend { uint32_t hi, lo, len, cookie, inl; };

struct mgroup {
    uint8_t role, port, nset, stall;
    uint8_t activity;       /* an ACK or a send since the last timer tick */
    uint8_t busy;           /* root: msg is being sent; inner: msg is held */
    uint8_t active;         /* member: a message is arriving */
    uint8_t discard;        /* member: its memory went away: EFAULT */
    uint8_t lost;           /* a member at or below a child was given up, or left */
    uint8_t self;           /* this entry's index in mc_groups (set once, mc_init) */
    uint8_t pshift;         /* packets of 1 << pshift payload bytes (NC_MC_SET_SHIFT) */
    uint8_t fpfs;           /* inner: strict FPFS (NC_MC_SET_FPFS) */
    uint8_t fwd_last;       /* inner, fpfs: the id of the last forward still sending or waiting */
    uint32_t id, gen, serial;
    /* the group's instance (docs/multicast.md "Setting a group again"):
     * the root's, made at each set; a member's, taken from the first
     * packet after its set (0: none yet); every MC packet carries it */
    uint32_t inst;
    uint32_t nchildren;
    uint32_t parent;        /* NC_MC_MEMBER of the parent; NC_MC_ROOT */
    uint32_t rootm;         /* NC_MC_MEMBER of the root (RECV events' source) */
    uint32_t child[NC_MC_MAX_CHILDREN];
    /* the protocol's state (ref/proto nc_mcgroup): from the parent (the
     * next sequence number, the ACK sent up) and toward the children (the
     * per-child ack window) */
    nc_mg_t pg;
    /* root and inner member: toward the children */
    struct mcsend msg, q[MC_QUEUE];
    uint32_t qhead, qn;
    uint32_t first, npk, built;     /* the message's packets: first.., npk, numbered */
    uint32_t resend, resend_end;    /* retransmission cursor (group sequence) */
    uint32_t stored;                /* inner: packets of msg in host memory (resend source) */
    uint32_t dead;                  /* children given up (the send time-out) */
    uint32_t ack_next;              /* where child_ack's search starts: after the last ACK's child */
    uint32_t heard, watched;        /* children heard from since the last check; being timed */
    uint32_t checked_at;            /* RTC of the last send time-out check */
    uint32_t stall_at[NC_MC_MAX_CHILDREN];  /* RTC when each one's silence began */
    /* member: from the parent */
    uint32_t hi, lo, cookie, msg_len, got;
};

static struct mgroup mc_groups[MC_GROUPS];
/* 1 + the highest entry ever used: the walks (lookup per packet, timer
 * per tick) stop there. Entries are taken lowest first, so a NIC in one
 * or two groups walks one or two, not MC_GROUPS (the walks cost ~30
 * instructions per ACK and ~110 per tick with 16). */
static uint32_t mc_top;
static uint32_t serials;

struct mcbuf {
    struct mcp_xpkt x;
    uint8_t used;
    uint16_t g;
    uint32_t serial, seq, mask;     /* children still to send to */
};
static struct mcbuf mc_bufs[MC_BUFS];
#define MC_BUF_BYTES (8u + NC_PKT_HDR + NC_FW_MTU)
_Static_assert(1u << NC_MC_PKT_SHIFT_MAX == NC_FW_MTU, "the largest group packet is the MTU");
static uint8_t buf_mem[MC_BUFS][MC_BUF_BYTES] __attribute__((aligned(8)));

/* A packet an inner member forwards from its rx buffer b: its own header
 * (route room before it), the payload gathered from b; b goes back once
 * the last child has it and the store to the host is done (refs). */
struct mcfwd {
    struct mcp_xpkt x;
    uint8_t used, refs;
    uint8_t id;             /* 1 + this entry's index in mc_fwds (no division by its size) */
    uint8_t next;           /* the id of the group's next forward, waiting for this one (0: none) */
    uint16_t g, b;
    uint32_t serial, mask;
};
static struct mcfwd mc_fwds[MC_FWDS];
static uint32_t fwds_held;      /* mc_fwds in use */
static uint8_t fwd_mem[MC_FWDS][8u + NC_PKT_HDR] __attribute__((aligned(8)));

struct mcack { struct mcp_xpkt x; uint8_t used; };
static struct mcack mc_acks[MC_ACKBUFS];
static uint8_t ack_mem[MC_ACKBUFS][8u + NC_PKT_HDR] __attribute__((aligned(8)));

static struct nc_pkt *mc_hdr(struct mcp_xpkt *x) { return (struct nc_pkt *)x->hdr; }

/* Whether g belongs to a port other than pi: then pi may neither send on,
 * set nor destroy it (NC_ST_EPERM). */
#define MC_OTHERS(g, pi) ((g)->port != (pi))

static void mc_refuse(uint32_t pi, uint32_t status)
{
    port_event(pi, port_gen(pi), NC_EV_ERROR, status, NC_CMD_MCAST, 0, 0, 0);
}

/* The entry of group id (any owner; closed ones too if closed), or NULL. */
static struct mgroup *mc_lookup(uint32_t id, bool closed)
{
    for (uint32_t i = 0; i < mc_top; i++) {
        struct mgroup *g = &mc_groups[i];

        if (g->id == id && g->role != G_FREE && (closed || g->role != G_CLOSED))
            return g;
    }
    return 0;
}

/* The entry found last: a root's sends and its children's ACKs, one
 * after the other, name the same group, so most lookups take one compare
 * (the walk is ~35 instructions, a tenth of an ACK's cost). */
static struct mgroup *mc_hint = &mc_groups[0];

/* The open entry of group id (root or member), or NULL. */
static struct mgroup *mc_find(uint32_t id)
{
    struct mgroup *g = mc_hint;

    if (g->id == id && g->role != G_FREE && g->role != G_CLOSED)
        return g;
    if ((g = mc_lookup(id, false)))
        mc_hint = g;
    return g;
}

static bool mc_complete(const struct mgroup *g) { return g->nset == g->nchildren; }

/* A root, or a member with children (an inner node): sends to children.
 * Inlined: mc_timer asks it of every entry in use every tick. */
static inline __attribute__((always_inline)) bool mc_sender(const struct mgroup *g)
{
    return g->role == G_ROOT || (g->role == G_MEMBER && g->nchildren);
}

/* A bit per child, for 1 .. NC_MC_MAX_CHILDREN (32) of them: a root has
 * one at least (mc_set), a member forwards only with children. One shift,
 * no select: clang 14 folds `n >= 32 ? ~0 : ...` and the test of the mask
 * after it into one conditional flag-setting instruction, wrong for 32
 * children all given up (docs/lanai-cc.md, "Known clang 14 defects"). */
static uint32_t all_children(const struct mgroup *g)
{
    return ~(0xFFFFFFFEu << (g->nchildren - 1u));
}

/* Packet seq was just numbered: the children given up hold it already. */
static void dead_hold(struct mgroup *g, uint32_t seq)
{
    for (uint32_t d = g->dead; d; d &= d - 1)
        (void)nc_mg_child_ack(&g->pg, (uint32_t)__builtin_ctz(d), seq);
}

/* ---- root ---------------------------------------------------------------- */

/* A root's new instance of its group, at each set: never 0, and new
 * across sets (the entry's serial) and MCP loads (the loader's boot id),
 * so no member or packet of an earlier instance is taken for this one. */
static uint32_t mc_instance(const struct mgroup *g)
{
    uint32_t inst = (my_boot << 20) ^ (g->serial & 0xFFFFFu);

    return inst ? inst : 1u;
}

static void mc_pump_work(struct mgroup *g);
static inline __attribute__((always_inline)) void mc_pump(struct mgroup *g);

/* b to its next child: on the wire now if the engine is free */
static void send_to_next_child(struct mcbuf *b)
{
    struct mgroup *g = &mc_groups[b->g];
    uint32_t i = (uint32_t)__builtin_ctz(b->mask), c = g->child[i];

    b->x.dst = c >> 8;
    mc_hdr(&b->x)->dst_port = (uint8_t)(c & 0xFF);
    mcp_xmit_now(&b->x);
}

/* The engine is done with b: the next child that needs it, or free. */
static void buf_sent(struct mcp_xpkt *x)
{
    struct mcbuf *b = (struct mcbuf *)x;
    struct mgroup *g = &mc_groups[b->g];

    if (g->serial != b->serial || !mc_sender(g)) {
        b->used = 0;            /* the group went meanwhile */
        return;
    }
    g->activity = 1;
    b->mask &= b->mask - 1;
    if (b->mask) {
        send_to_next_child(b);      /* the engine is free: straight on, no queue */
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
    if (g->serial != b->serial || !mc_sender(g) || !b->mask) {
        b->used = 0;
        return;
    }
    send_to_next_child(b);      /* a DMA completion: the packet's first trip */
}

/* Packet seq of the current message into a free buffer, to the children
 * in mask; false if no buffer is free. The fetch from host memory starts
 * first and the header is written while it runs: its stores come off the
 * path from the host's doorbell to the first copy on the wire. */
static bool start_packet(struct mgroup *g, uint32_t seq, uint32_t mask)
{
    struct mcbuf *b = 0;
    struct nc_pkt *h;
    uint32_t off, len, lo;
    bool fetch;

    for (uint32_t i = 0; i < MC_BUFS; i++)
        if (!mc_bufs[i].used) {
            b = &mc_bufs[i];
            break;
        }
    if (!b)
        return false;
    off = (seq - g->first) << g->pshift;
    len = g->msg.len - off < (1u << g->pshift) ? g->msg.len - off : 1u << g->pshift;
    h = mc_hdr(&b->x);
    fetch = len && !g->msg.inl;
    b->used = 1;
    b->g = g->self;
    b->serial = g->serial;
    b->seq = seq;
    /* no child yet: a fetch that completes inside mcp_fetch (the queue's
     * head a closed port's) frees b in buf_fetched, and the packet goes
     * with the timer's resend */
    b->mask = 0;
    if (fetch) {
        lo = g->msg.lo + off;
        if (!mcp_fetch(buf_fetched, g->port, g->gen, (uint16_t)(b - mc_bufs), h + 1,
                       g->msg.hi + (lo < g->msg.lo), lo, len)) {
            b->used = 0;
            return false;
        }
    }
    b->x.done = buf_sent;
    b->x.len = len;
    h->type = NC_PT_MC_DATA;
    h->src = (uint16_t)my_node;
    h->seq = seq;
    h->src_port = g->port;
    h->flags = h->pad = 0;
    h->msg_len = g->msg.len;
    h->offset = off;
    h->len = len;
    h->pad2[0] = g->id;
    h->pad2[1] = g->rootm;
    h->ack = 0;
    h->epoch = g->inst;
    g->activity = 1;
    if (fetch) {
        if (b->used)
            b->mask = mask;     /* buf_fetched, from the main loop, sends it */
        return true;
    }
    b->mask = mask;
    if (len)    /* inline: the payload is in SRAM already */
        mcp_copy_inline((uint32_t *)(h + 1), (const uint32_t *)(uintptr_t)(g->msg.lo + off), len);
    send_to_next_child(b);
    return true;
}

/* g sends m now (nothing is being sent). */
static void start_message(struct mgroup *g, const struct mcsend *m)
{
    g->msg = *m;
    g->busy = 1;
    g->first = g->pg.mc.base + g->pg.mc.count;
    g->npk = g->msg.len ? (g->msg.len + (1u << g->pshift) - 1) >> g->pshift : 1;
    g->built = 0;
}

/* Start the next queued multicast of g, if none is being sent. */
static void next_message(struct mgroup *g)
{
    if (g->busy || !g->qn || !mc_complete(g))
        return;
    start_message(g, &g->q[g->qhead]);
    g->qhead = (g->qhead + 1) % MC_QUEUE;
    g->qn--;
    mcp_timer_need();
}

/* Send what g may send now: retransmissions first, then new packets (the
 * root's; an inner member's come from its parent). */
static void mc_pump_work(struct mgroup *g)
{
    for (;;) {
        if (g->resend != g->resend_end) {
            uint32_t seq = g->resend, mask = nc_mg_resend_mask(&g->pg, seq) & ~g->dead;

            /* an inner member's copy is its receive buffer: only what is
             * there already (and never memory the process took back: its
             * children then wait for the send time-out) */
            if (mask && g->role != G_ROOT && g->discard)
                mask = 0;
            if (mask && g->role != G_ROOT && nc_seq_distance(g->first, seq) >= g->stored)
                return;
            if (mask && !start_packet(g, seq, mask))
                return;
            g->resend++;
            continue;
        }
        if (g->role == G_ROOT && g->busy && g->built < g->npk && g->pg.mc.count < g->pg.mc.window) {
            uint32_t seq = g->pg.mc.base + g->pg.mc.count, mask = all_children(g) & ~g->dead;

            if (mask && !start_packet(g, seq, mask))
                return;
            (void)nc_mg_push(&g->pg);
            dead_hold(g, seq);      /* every child given up: the timer completes it */
            g->built++;
            continue;
        }
        return;
    }
}

/* mc_pump_work when g has anything to send: four callers per message,
 * most with nothing to do (~40 instructions a call on LANai). */
static inline __attribute__((always_inline)) void mc_pump(struct mgroup *g)
{
    if (g->resend != g->resend_end || (g->busy && g->built < g->npk))
        mc_pump_work(g);
}

static void mc_send_ack(const struct mgroup *g, uint32_t seq);

/* g's window moved (or a child was given up): the root's message may be
 * complete; an inner member tells its parent what its subtree holds now,
 * and its held message goes to the host once every child has all of it. */
static void mc_progress(struct mgroup *g)
{
    /* the release rule: every child holds the message's last packet */
    bool done = g->busy && nc_mg_msg_done(&g->pg, g->first, g->built, g->npk);

    if (g->role == G_ROOT) {
        if (!done)
            return;
        g->busy = 0;
        g->resend = g->resend_end = g->pg.mc.base;
        port_event_group(g->port, g->gen, NC_EV_SENT, g->lost ? NC_ST_ETIMEDOUT : NC_ST_OK,
                         g->msg.cookie, g->msg.len, 0, 0, g->id);
        next_message(g);
        mc_pump(g);
        return;
    }
    {
        uint32_t up;

        if (nc_mg_ack_due(&g->pg, &up))     /* the subtree holds more */
            mc_send_ack(g, up);
    }
    if (done) {
        g->busy = 0;
        g->resend = g->resend_end = g->pg.mc.base;
        port_event_group(g->port, g->gen, NC_EV_RECV, g->discard ? NC_ST_EFAULT : NC_ST_OK,
                         g->msg.cookie, g->msg.len, g->rootm >> 8, g->rootm & 0xFF, g->id);
    }
}

/* An MC_ACK from a child of a group here (the root or an inner member):
 * any ACK says the child is alive; pad2[1] that something below it was
 * given up. */
static void child_ack(uint32_t src, const struct nc_pkt *h)
{
    struct mgroup *g = mc_find(h->pad2[0]);
    uint32_t c = NC_MC_MEMBER(src, h->src_port), ci;
    bool moved;

    if (!g || !mc_sender(g) || g->port != h->dst_port || !mc_complete(g))
        return;
    if (h->epoch != g->inst)
        return;     /* another instance's ACK: from before the child's set or this one */
    /* The children ACK about in the order they were sent to: the search
     * starts after the last one's (one compare, not ~n/2, per ACK) */
    ci = g->ack_next < g->nchildren ? g->ack_next : 0;
    for (uint32_t k = 0; k < g->nchildren && g->child[ci] != c; k++)
        ci = ci + 1 < g->nchildren ? ci + 1 : 0;
    if (g->child[ci] != c || (g->dead >> ci & 1))
        return;
    g->ack_next = ci + 1;
    g->heard |= 1u << ci;
    if (h->pad2[1])
        g->lost = 1;
    moved = nc_mg_child_ack(&g->pg, ci, h->seq) != 0;
    if (moved)
        g->activity = 1;
    /* Only a window that moved can complete a message, owe the parent an
     * ACK or free room for packets: an ACK that leaves it where it was
     * (all but the last child's for a one-packet message) ends here. */
    if (!moved)
        return;
    mc_progress(g);
    mc_pump(g);
}

/* NC_MC_OP_SEND, or with inl NC_MC_OP_SENDI (the payload in the port's
 * inline area of the host's token: nothing of host memory to check) */
static void mc_send(uint32_t pi, const union nc_cmd *c, bool inl)
{
    struct mgroup *g = mc_find(c->mcast.group);
    uint32_t hi = inl ? 0 : c->mc_send.bus_hi, len = inl ? c->mc_sendi.len : c->mc_send.len;
    uint32_t cookie = inl ? c->mc_sendi.cookie : c->mc_send.cookie;
    uint32_t lo = inl ? 0 : c->mc_send.bus_lo, st = NC_ST_OK;

    if (!g || g->role != G_ROOT)
        st = g && MC_OTHERS(g, pi) ? NC_ST_EPERM : NC_ST_EINVAL;
    else if (MC_OTHERS(g, pi))
        st = NC_ST_EPERM;
    else if (len > (inl ? NC_ABI_INLINE_MAX : NC_ABI_MAX_MSG) ||
             (inl && cookie >= NC_ABI_SEND_TOKENS))
        st = NC_ST_EINVAL;
    else if (!inl && len && !port_mem_ok(pi, hi, lo, len))
        st = NC_ST_EFAULT;
    else if (g->qn == MC_QUEUE)
        st = NC_ST_ENORES;
    if (st != NC_ST_OK) {
        port_event_group(pi, port_gen(pi), NC_EV_SENT, st, cookie, 0, 0, 0, c->mcast.group);
        return;
    }
    if (inl)
        lo = (uint32_t)(uintptr_t)port_abi(pi)->sdata[cookie];
    if (!g->busy && !g->qn && mc_complete(g)) {
        /* the group is idle: straight to the wire, not through the queue */
        const struct mcsend m = { hi, lo, len, cookie, inl };

        start_message(g, &m);
        mc_pump_work(g);        /* the first packets' fetches start now */
        mcp_timer_need();       /* while they run */
        return;
    }
    g->q[(g->qhead + g->qn++) % MC_QUEUE] = (struct mcsend){ hi, lo, len, cookie, inl };
    next_message(g);
    mc_pump(g);
}

/* ---- member -------------------------------------------------------------- */

static void ack_sent(struct mcp_xpkt *x) { ((struct mcack *)x)->used = 0; }

/* Tell g's parent that it (and its subtree) hold every group packet up
 * to seq. */
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
        h->pad2[1] = g->lost;
        h->epoch = g->inst;
        mcp_xmit_now(&k->x);    /* from receive, timer and command paths only */
        return;
    }
    /* none free: the parent's timer sends again, and this ACK goes then */
}

/* What g acknowledges to its parent: a leaf what it took, an inner
 * member what every child holds too. */
static uint32_t up_ack(const struct mgroup *g)
{
    return nc_mg_up_ack(&g->pg);
}

static void fwd_unref(struct mcfwd *f)
{
    if (--f->refs)
        return;
    mcp_rx_release(f->b);
    f->used = 0;
    fwds_held--;
}

static void fwd_to_next_child(struct mcfwd *f)
{
    struct mgroup *g = &mc_groups[f->g];
    uint32_t c = g->child[__builtin_ctz(f->mask)];

    f->x.dst = c >> 8;
    mc_hdr(&f->x)->dst_port = (uint8_t)(c & 0xFF);
    mcp_xmit_now(&f->x);
}

/* The children f still goes to: none once its group g changed or it is
 * no longer a member, and none that g gave up. */
static inline __attribute__((always_inline)) void fwd_live(struct mcfwd *f,
                                                           const struct mgroup *g)
{
    if (g->serial == f->serial && g->role == G_MEMBER)
        f->mask &= ~g->dead;
    else
        f->mask = 0;
}

/* f's last copy went (or it had none to send): the next forward of its
 * group g goes (FPFS, fwd_start), or, if that one has no child left
 * either, the one after it, and so on. A loop over the chain of waiting
 * forwards (at most MC_FWDS), not a call per forward: the chain costs no
 * LANai stack whether or not the compiler turns tail calls into jumps. */
static __attribute__((noinline)) void fwd_done(struct mcfwd *f, struct mgroup *g)
{
    uint8_t next;

    do {
        next = f->next;
        if (g->fwd_last == f->id)
            g->fwd_last = 0;
        fwd_unref(f);
        if (!next)
            return;
        f = &mc_fwds[next - 1];
        fwd_live(f, g);
    } while (!f->mask);
    fwd_to_next_child(f);
}

/* The engine is done with a forwarded packet: the next child, or done. */
static void fwd_sent(struct mcp_xpkt *x)
{
    struct mcfwd *f = (struct mcfwd *)x;
    struct mgroup *g = &mc_groups[f->g];

    f->mask &= f->mask - 1;
    if (g->serial == f->serial && g->role == G_MEMBER) {
        g->activity = 1;
        f->mask &= ~g->dead;
        if (f->mask) {
            fwd_to_next_child(f);
            return;
        }
    }
    if (f->next || g->fwd_last == f->id)
        fwd_done(f, g);     /* strict FPFS: the next packet's turn */
    else
        fwd_unref(f);
}

/* f's first copy (g its group), unless every child it would go to was
 * given up: then the group's next forward's turn. */
static inline __attribute__((always_inline)) void fwd_begin(struct mcfwd *f, struct mgroup *g)
{
    fwd_live(f, g);
    if (f->mask)
        fwd_to_next_child(f);
    else
        fwd_done(f, g);
}

/* Forward f. A group set with strict FPFS (seed 001 section 3.2) forwards
 * it after every copy of the group's packets taken before it, which the
 * send queue alone does not keep (a packet that arrives while the one
 * before is still being copied goes to the first child ahead of that
 * one's later copies); the others put it on the queue at once. */
static void fwd_start(struct mcfwd *f, struct mgroup *g)
{
    f->next = 0;
    if (g->fpfs && g->serial == f->serial) {
        if (g->fwd_last) {
            mc_fwds[g->fwd_last - 1].next = f->id;
            g->fwd_last = f->id;
            return;
        }
        g->fwd_last = f->id;
    }
    fwd_begin(f, g);
}

/* A forwarded packet's payload is in host memory: it may be fetched from
 * there again (the inner member's retransmissions). */
static void fwd_stored(uint32_t port, uint32_t gen, uint16_t fi, bool last, bool ok)
{
    struct mcfwd *f = &mc_fwds[fi];
    struct mgroup *g = &mc_groups[f->g];

    (void)port, (void)gen, (void)last, (void)ok;
    if (g->serial == f->serial)
        g->stored++;
#ifdef NC_MC_STORE_FIRST
    /* the other order (docs/multicast.md, the measurement): forward only
     * once the payload is on the host */
    fwd_start(f, g);
#endif
    fwd_unref(f);
}

/* Take the packet from the parent in rx buffer b: forward it to the
 * children and store it to the host (FPFS). True: b is held. */
static bool inner_take(struct mgroup *g, const struct nc_pkt *h, uint16_t b, uint32_t lo)
{
    struct mcfwd *f = 0;
    struct nc_pkt *fh;
    bool store = h->len && !g->discard;

    for (uint32_t i = 0; i < MC_FWDS; i++)
        if (!mc_fwds[i].used) {
            f = &mc_fwds[i];
            f->id = (uint8_t)(i + 1);
            break;
        }
    if (!f)
        return false;   /* cannot happen: member_data keeps fwds_held < MC_FWD_HOLD */
    f->used = 1;
    fwds_held++;
    f->refs = (uint8_t)(1 + store);
    f->g = g->self;
    f->b = b;
    f->serial = g->serial;
    f->mask = all_children(g);
    f->x.hdr = fwd_mem[f - mc_fwds] + 8;
    f->x.payload = (const uint8_t *)(h + 1);
    f->x.len = h->len;
    f->x.done = fwd_sent;
    fh = mc_hdr(&f->x);
    *fh = *h;
    fh->src = (uint16_t)my_node;
    fh->src_port = g->port;
    dead_hold(g, h->seq);   /* (member_data numbered it: nc_mg_take) */
    g->built++;
    g->activity = 1;
    mcp_timer_need();
    if (store)
        mcp_store_cb(fwd_stored, g->port, g->gen, (uint16_t)(f - mc_fwds), h + 1,
                     g->hi + (lo < g->lo), lo, h->len);
    else
        g->stored++;
#ifdef NC_MC_STORE_FIRST
    if (!store)
#endif
        fwd_start(f, g);
    return true;
}

static bool member_data(uint32_t src, const struct nc_pkt *h, uint32_t n, uint16_t b)
{
    struct mgroup *g = mc_find(h->pad2[0]);
    struct port *p;
    bool held = false, last, inner;
    nc_mg_verdict_t v;
    uint32_t lo;

    if (!g)
        g = mc_lookup(h->pad2[0], true);    /* a closed member's entry */
    if (g && g->role == G_CLOSED && g->port == h->dst_port &&
        g->parent == NC_MC_MEMBER(src, h->src_port) && h->epoch == g->inst) {
        if (nc_mg_classify(&g->pg, h->seq) == NC_MG_DUP)
            mc_send_ack(g, g->pg.expect - 1);
        return false;
    }
    if (!g || g->role != G_MEMBER || g->port != h->dst_port ||
        g->parent != NC_MC_MEMBER(src, h->src_port) || h->len > (1u << g->pshift) ||
        n != NC_PKT_HDR + h->len || h->msg_len > NC_ABI_MAX_MSG || h->offset > h->msg_len ||
        h->len > h->msg_len - h->offset || !mc_complete(g))
        return false;
    if (h->epoch != g->inst) {
        /* Another instance of the group (docs/multicast.md "Setting a
         * group again"): the root set it again and this member not yet
         * (dropped unanswered: the root sends it again until the member
         * is set too, or gives it up), or the instance before this
         * member's set. A member set afresh joins the instance of the
         * first packet it may take: the start of a numbering. */
        if (g->inst || h->seq != g->pg.expect || h->offset != 0)
            return false;
        g->inst = h->epoch;
    }
    inner = g->nchildren != 0;
    v = nc_mg_classify(&g->pg, h->seq);
    if (v == NC_MG_DUP)
        mc_send_ack(g, up_ack(g));     /* taken before: our ACK was lost, or we wait for our children */
    if (v != NC_MG_TAKE)
        return false;
    if (inner && fwds_held >= MC_FWD_HOLD)
        return false;   /* the parent sends it again */
    /* an inner member holds one message at a time (its receive buffer is
     * the retransmission copy until every child has it all); the root
     * starts the next one only then anyway */
    if (inner && h->offset == 0 && g->busy) {
        mc_send_ack(g, up_ack(g));
        return false;
    }
    p = &ports[g->port];
    if (h->offset == 0) {
        uint16_t t;

        if (!p->open || p->gen != g->gen)
            return false;
        t = port_take_rtoken_head(p, h->msg_len);
        if (t == NONE16)
            return false;   /* no buffer yet: the parent sends it again */
        if (!inner)
            mc_send_ack(g, h->seq);     /* taken: the ACK first (below) */
        g->active = 1;
        g->discard = 0;
        g->hi = p->rtok[t].hi;
        g->lo = p->rtok[t].lo;
        g->cookie = p->rtok[t].cookie;
        g->msg_len = h->msg_len;
        g->got = 0;
        g->rootm = h->pad2[1];
        if (inner) {
            g->msg = (struct mcsend){ g->hi, g->lo, h->msg_len, g->cookie };
            g->first = h->seq;
            g->npk = h->msg_len ? (h->msg_len + (1u << g->pshift) - 1) >> g->pshift : 1;
            g->built = g->stored = 0;
            g->busy = 1;
        }
    } else if (!g->active || h->offset != g->got || h->msg_len != g->msg_len) {
        return false;
    } else if (!inner) {
        mc_send_ack(g, h->seq);
    }
    lo = g->lo + h->offset;
    g->got += h->len;
    nc_mg_take(&g->pg, h->seq);     /* an inner member numbers it for its children too */
    last = h->offset + h->len == h->msg_len;
    if (inner) {
        if (h->len && !g->discard && !port_mem_ok(g->port, g->hi + (lo < g->lo), lo, h->len))
            g->discard = 1;
        held = inner_take(g, h, b, lo);
        if (last)
            g->active = 0;
        mc_progress(g);     /* every child given up: done at once */
        return held;
    }
    /* A leaf sent its ACK above, as soon as the packet was taken, before
     * an ordinary message's: the packet is in this NIC's SRAM and the
     * store below cannot fail for want of anything, so the parent may
     * count it now. Queued after the store and the RECV event it left
     * ~3 us later (docs/multicast.md, "Per-message cost").
     * The memory check after the ACK: a message the process's memory
     * cannot take is still taken (its RECV says EFAULT), so the ACK does
     * not wait for the check */
    if (h->len && !g->discard && !port_mem_ok(g->port, g->hi + (lo < g->lo), lo, h->len))
        g->discard = 1;
    if (h->len && !g->discard) {
        mcp_store(g->port, g->gen, b, h + 1, g->hi + (lo < g->lo), lo, h->len);
        held = true;
    }
    if (last) {
        port_event_group(g->port, g->gen, NC_EV_RECV, g->discard ? NC_ST_EFAULT : NC_ST_OK,
                         g->cookie, g->msg_len, g->rootm >> 8, g->rootm & 0xFF, g->id);
        g->active = 0;
    }
    return held;
}

/* ---- the plug-in ----------------------------------------------------------- */

static bool mc_raw(uint32_t src, const struct nc_pkt *h, uint32_t n, uint16_t b)
{
    if (h->type == NC_PT_MC_DATA)
        return member_data(src, h, n, b);
    if (h->type == NC_PT_MC_ACK && n == NC_PKT_HDR)
        child_ack(src, h);
    return false;
}

static void mc_set(uint32_t pi, const struct nc_cmd_mc_set *set)
{
    uint32_t id = set->group, parent = set->parent, first = set->first;
    uint32_t nch = NC_MC_SET_NCH(set->nchildren), shift = NC_MC_SET_SHIFT(set->nchildren);
    struct mgroup *g = mc_find(id);

    if (!shift)
        shift = NC_MC_PKT_SHIFT_MAX;
    if (!id || nch > NC_MC_MAX_CHILDREN || set->nchildren >> 25 ||
        shift < NC_MC_PKT_SHIFT_MIN || shift > NC_MC_PKT_SHIFT_MAX || (parent == NC_MC_ROOT && !nch) ||
        parent == NC_MC_MEMBER(my_node, pi) ||
        (parent != NC_MC_ROOT && ((parent >> 8) >= n_nodes || (parent & 0xFF) >= NC_ABI_PORTS)))
        return mc_refuse(pi, NC_ST_EINVAL);
    if (g && MC_OTHERS(g, pi))
        return mc_refuse(pi, NC_ST_EPERM);
    if (g && (first == 0 ? g->busy || g->qn
                         : g->parent != parent || g->nchildren != nch || g->pshift != shift ||
                           g->fpfs != !!(set->nchildren & NC_MC_SET_FPFS)))
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
        if (g->self >= mc_top)
            mc_top = g->self + 1u;
        g->role = parent == NC_MC_ROOT ? G_ROOT : G_MEMBER;
        g->id = id;
        g->port = (uint8_t)pi;
        g->gen = port_gen(pi);
        g->serial = ++serials;
        g->parent = parent;
        g->nchildren = nch;
        g->pshift = (uint8_t)shift;
        g->fpfs = !!(set->nchildren & NC_MC_SET_FPFS);
        g->fwd_last = 0;
        g->nset = 0;
        g->busy = g->active = 0;
        g->qn = g->qhead = 0;
        g->stall = 0;
        g->lost = 0;
        g->dead = g->heard = g->watched = 0;
        g->checked_at = hal_rtc();
        g->built = g->npk = g->stored = 0;
        g->first = 1;
        g->rootm = parent == NC_MC_ROOT ? NC_MC_MEMBER(my_node, pi) : 0;
        g->inst = parent == NC_MC_ROOT ? mc_instance(g) : 0;
        nc_mg_init(&g->pg, parent == NC_MC_ROOT ? NC_MG_ROOT : nch ? NC_MG_INNER : NC_MG_LEAF,
                   nch, 1, NC_FW_WINDOW);      /* numbers from 1; nothing acknowledged up */
        g->resend = g->resend_end = 1;
    }
    for (uint32_t i = 0; i < 2 && first + i < nch; i++) {
        uint32_t c = set->child[i];

        if ((c >> 8) >= n_nodes || (c & 0xFF) >= NC_ABI_PORTS || !route_len(c >> 8)) {
            g->role = G_FREE;
            return mc_refuse(pi, NC_ST_EINVAL);
        }
        g->child[first + i] = c;
        if (first + i >= g->nset)
            g->nset = (uint8_t)(first + i + 1);
    }
}

static void mc_cmd(uint32_t pi, const union nc_cmd *c)
{
    switch (c->mcast.mc_op) {
    case NC_MC_OP_SET:
        return mc_set(pi, &c->mc_set);
    case NC_MC_OP_SEND:
        return mc_send(pi, c, false);
    case NC_MC_OP_SENDI:
        return mc_send(pi, c, true);
    case NC_MC_OP_DEL: {
        struct mgroup *g = mc_find(c->mc_del.group);

        if (!g)
            return mc_refuse(pi, NC_ST_EINVAL);
        if (MC_OTHERS(g, pi))
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

/* Children of g that owe packets and were not heard from for the port's
 * send time-out are given up: they hold everything from now on. A child's
 * silence is timed from the first check that found it owing and not heard
 * from since the check before (so never from before its last ACK). */
static void mc_time_out(struct mgroup *g, uint32_t now)
{
    uint32_t limit = port_send_timeout[g->port];
    bool gave_up = false;

    /* unsigned: after an idle time of any length, the worst is one more
     * eighth before the first check */
    if (now - g->checked_at < limit / MC_WALKS)
        return;
    g->checked_at = now;

    for (uint32_t ci = 0; ci < g->nchildren; ci++) {
        uint32_t bit = 1u << ci;

        if ((g->dead & bit) || g->pg.mc.acked[ci] == g->pg.mc.count) {
            g->watched &= ~bit;
            continue;
        }
        if (!(g->watched & bit) || (g->heard & bit)) {
            g->watched |= bit;
            g->stall_at[ci] = now;
        } else if (now - g->stall_at[ci] >= limit) {
            g->dead |= bit;
            g->lost = 1;
            (void)nc_mg_child_ack(&g->pg, ci, g->pg.mc.base + g->pg.mc.count - 1);
            gave_up = true;
        }
    }
    g->heard = 0;
    if (gave_up)
        mc_progress(g);
}

/* Every period: a group with packets out to its children that saw no
 * progress for MC_STALL periods sends its window again to the children
 * that owe it; children silent for the send time-out are given up. */
static bool mc_timer(void)
{
    bool more = false;
    uint32_t now = hal_rtc();

    for (uint32_t i = 0; i < mc_top; i++) {
        struct mgroup *g = &mc_groups[i];

        if (!mc_sender(g) || (!g->busy && !g->pg.mc.count))
            continue;
        more = true;
        mc_time_out(g, now);
        if (g->role == G_ROOT && !g->pg.mc.count && g->busy) {
            /* every child given up (nothing else comes to move it), or
             * the message's first packet found no SRAM buffer free */
            mc_progress(g);
            mc_pump(g);
        }
        if (g->resend != g->resend_end) {
            /* a round that stopped for want of an SRAM buffer (another
             * group's) or of the host copy: on with it */
            mc_pump(g);
        }
        if (g->activity) {
            g->activity = 0;
            g->stall = 0;
            continue;
        }
        if (++g->stall >= MC_STALL && g->resend == g->resend_end) {
            g->stall = 0;
            g->resend = g->pg.mc.base;
            g->resend_end = g->pg.mc.base + g->pg.mc.count;
            mc_pump(g);
        }
    }
    return more;
}

/* A port's mc_groups go with it (its process is gone); buffers in flight see
 * the serial change and free themselves. */
static void mc_port_closed(uint32_t pi)
{
    for (uint32_t i = 0; i < mc_top; i++) {
        struct mgroup *g = &mc_groups[i];

        if (g->role == G_MEMBER && g->port == pi) {
            /* an inner member's children lose their retransmission copy:
             * the root is told (the lost mark of its ACKs) */
            if (g->nchildren && (g->busy || g->pg.mc.count))
                g->lost = 1;
            g->role = G_CLOSED;
            g->active = 0;
        } else if (g->role == G_ROOT && g->port == pi) {
            g->role = G_FREE;
        }
    }
}

static void mc_init(void)
{
    for (uint32_t i = 0; i < MC_GROUPS; i++)
        mc_groups[i].self = (uint8_t)i;
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
