/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NIC-based reduction (reduce.h; docs/reduction.md "NIC-based reduction").
 *
 * The host posts NC_CMD_REDUCE with a block (struct nc_red_block): this
 * member's parent and children in the tree, in the order their
 * contributions combine, and its own data in the NIC's order. The NIC
 * fetches the header, then the data segment by segment (NC_RED_SEG bytes,
 * one packet each), and for each segment independently:
 *   acc = own; for each child c in order: acc = c (op) acc
 * with ref/red's nc_red_combine, the child's data as the host's inout
 * operand (host/mpi/coll_reduce_binomial.c: NaN payloads, signed zeros and
 * ties come out as the host's). A complete segment goes up to the parent
 * (NC_PT_RED_UP, from the slot's data: mcp_send_data); at the root it is
 * the result. For an allreduce the root sends each result segment down to
 * its children (NC_PT_RED_DOWN), and every member forwards it to its own
 * and writes it into its block. Segments are independent, so a long vector
 * is pipelined packet by packet up and down the tree.
 *
 * A child's segment that arrives in its turn is combined straight from its
 * rx buffer. One that arrives early (before this host posted the
 * reduction: a slot of the instance is opened for it) or out of turn is
 * copied into a chunk and combined when its turn comes. With no chunk or
 * slot free the packet is refused, and the child's NIC sends it again
 * (the connection's flow control): never lost, never combined twice. A
 * down segment that comes before this NIC's own up segment was
 * acknowledged is refused too, since that send may still read the slot's
 * data the result would overwrite.
 *
 * The slot ends, with NC_EV_REDUCE to its port, when every segment went up
 * and was acknowledged (non-root), and, at the root and in an allreduce,
 * every result segment is in host memory and its down sends acknowledged.
 *
 * A dead member ends the reduction in an error, never a wrong result or a
 * wait for ever. A send that fails (the send time-out of a dead parent or
 * child) fails the slot. A member that has waited RED_PROBE_TICKS for a
 * child's segment (or, in an allreduce, for its parent's result) probes
 * it: a packet without payload, acknowledged by the peer's NIC whatever its
 * host does, so only a dead NIC or link lets it time out, and that fails
 * the slot. A failed slot tells its parent, and in an allreduce its
 * children, with a FAIL packet; theirs fail in turn, so the error reaches
 * every member that waits on the dead one. Packets for an instance that
 * ended in failure are dropped (a ring of the last RED_DEAD), so a live
 * child's late segment cannot open a slot nobody will claim.
 *
 * An exact block (NC_RED_EXACT: a binary32 or binary64 sum of at most
 * NC_RED_XMAX elements) does not combine segments in a fixed order. Its
 * slot takes one of RED_XAREAS areas of the arena (ref/red's exact
 * accumulators, one per element, and room for the packets to the parent),
 * adds its own data and merges each child's wire windows (NC_PT_RED_XUP)
 * in whatever order they come: the accumulators' integer sum does not
 * depend on it. Children send in element order, so the prefix every child
 * has reached is complete; it goes up encoded as it grows. The root
 * rounds each sum once into its block; an allreduce sends the rounded
 * result down the ordinary way.
 */
#include "mcp_plugin.h"
#include "mcp_port.h"
#include "reduce.h"
#include "nc_red.h"
#include "nc_xacc.h"

#define RED_UP    (NC_PT_RED_UP & 0xFFu)
#define RED_DOWN  (NC_PT_RED_DOWN & 0xFFu)
#define RED_PROBE (NC_PT_RED_PROBE & 0xFFu)
#define RED_FAIL  (NC_PT_RED_FAIL & 0xFFu)
#define RED_XUP   (NC_PT_RED_XUP & 0xFFu)
#define RED_SLOTS  8u           /* reductions in flight at one NIC, early ones included */
#define RED_EARLY  (RED_SLOTS - 2u)     /* slots opened by early packets: the rest stay for
                                           the host's own commands, so that children running
                                           ahead on one communicator never starve a reduction
                                           this host posts on another */
#define RED_CHUNKS 16u          /* segments held early or out of turn */
#define RED_SEGS   (NC_RED_DATA_MAX / NC_RED_SEG)
#define RED_PROBE_TICKS 2000u   /* 1 ms of the RTC's 0.5 us ticks: long beside a reduction's
                                   latency and skew, short beside a send time-out */
#define RED_DEAD   8u           /* instances that ended in failure, remembered */
#define RED_XAREAS 2u           /* exact-mode reductions running at one NIC: libmpi has at
                                   most 2 in flight per process (MPI_NIC_RED_OUT); a third
                                   waits for an area with its packets held */
#define RED_XPKTS  16u          /* up packets of one exact reduction: a packet holds at least
                                   14 windows of the largest size, so 128 elements take 10 */
#define RED_XOUT   (NC_RED_XMAX * NC_XACC_WIRE_MAX + 2u * RED_XPKTS)   /* words */

enum { RS_FREE, RS_EARLY, RS_FETCH, RS_RUN };

struct red_seg {
    uint8_t own;                /* own data fetched */
    uint8_t next;               /* children combined */
    uint8_t up;                 /* 0 not sent, 1 sent, 2 acknowledged (or failed) */
    uint8_t res;                /* the result is in the slot (root: complete; else: came down) */
    uint8_t stored;             /* 0, 1 being written into the block, 2 written */
    uint8_t pad[3];
};

struct red_slot {
    uint32_t state, port, gen, instance, cookie, status;
    uint32_t hi, lo, len;       /* the block in host memory */
    uint32_t op, type, all, count, nseg;
    uint32_t pending;           /* fetches, sends and stores in flight */
    uint32_t chunks;            /* chunks held for it */
    uint32_t since;             /* RTC when it last made progress or probed */
    uint32_t probing;           /* a probe in flight */
    uint32_t told;              /* its failure sent to its parent and children */
    uint32_t exact;             /* NC_RED_EXACT: accumulators in an area */
    uint32_t xa;                /* 1 + its area's index; 0 none */
    uint32_t xwait;             /* exact, waiting for an area */
    uint32_t xown;              /* its own elements are in the accumulators */
    uint32_t xenc;              /* elements encoded for the parent */
    uint16_t prog[NC_RED_CHILDREN];    /* elements merged from each child */
    struct red_seg seg[RED_SEGS];
    struct nc_red_block hdr __attribute__((aligned(8)));
    uint32_t data[NC_RED_DATA_MAX / 4] __attribute__((aligned(8)));
};

struct red_chunk {
    uint32_t used, slot, seg, from, len, x;    /* x: an exact-mode packet (RED_XUP) */
    uint32_t data[NC_RED_SEG / 4] __attribute__((aligned(8)));
};

static struct red_slot *red_slot;     /* RED_SLOTS, in the arena */
static struct { uint32_t port, gen, instance; } red_dead[RED_DEAD];
static uint32_t red_dead_next;
static struct red_chunk *red_chunk;   /* RED_CHUNKS */

/* An exact reduction's accumulators, one per element, and its packets to
 * the parent: packet p is out[off[p] .. off[p + 1]), each starting on 8
 * bytes; the open one (not yet sent) is np - 1 while open is set. */
struct red_xarea {
    uint32_t used;
    uint32_t np, open, cur, acked;
    uint32_t off[RED_XPKTS + 1];
    struct nc_xacc acc[NC_RED_XMAX];
    uint32_t out[RED_XOUT] __attribute__((aligned(8)));
};
static struct red_xarea *red_xarea;   /* RED_XAREAS; NULL: no exact mode */

_Static_assert(1u + 14u * NC_XACC_WIRE_MAX <= NC_RED_SEG / 4u &&
               (NC_RED_XMAX + 13u) / 14u <= RED_XPKTS, "an exact reduction's packets");
_Static_assert(NC_RED_XMAX * 8u <= NC_RED_SEG, "an exact reduction's data is one segment");

/* Why packets were refused or dropped (for a debugger or mcp_profile). */
static struct {
    uint32_t refused_early, refused_down, refused_closed, malformed, probes, failed;
} red_ctr;

static void red_init(void)
{
    red_slot = mcp_sram(RED_SLOTS * sizeof *red_slot);
    red_chunk = red_slot ? mcp_sram(RED_CHUNKS * sizeof *red_chunk) : 0;
    if (!red_chunk)
        red_slot = 0;
    red_xarea = red_slot ? mcp_sram(RED_XAREAS * sizeof *red_xarea) : 0;
}

static uint32_t seg_bytes(const struct red_slot *s, uint32_t k)
{
    uint32_t bytes = s->len - NC_RED_HDR_BYTES, off = k * NC_RED_SEG;

    return bytes - off < NC_RED_SEG ? bytes - off : NC_RED_SEG;
}

static void copy_words(uint32_t *to, const uint32_t *from, uint32_t words)
{
    for (uint32_t i = 0; i < words; i++)
        to[i] = from[i];
}

static uint32_t slot_index(const struct red_slot *s)
{
    return (uint32_t)(s - red_slot);
}

static void chunks_free(uint32_t si)
{
    for (uint32_t i = 0; i < RED_CHUNKS; i++)
        if (red_chunk[i].used && red_chunk[i].slot == si)
            red_chunk[i].used = 0;
    red_slot[si].chunks = 0;
}

static void xa_give(struct red_slot *s);

/* The slot is done when nothing is in flight and every segment went where
 * it goes (or a failure ended it): the port's event, the slot free. */
static void red_try_end(struct red_slot *s)
{
    if (s->state != RS_RUN && !(s->state == RS_FETCH && s->status))
        return;
    if (s->pending)
        return;
    if (!s->status)
        for (uint32_t k = 0; k < s->nseg; k++) {
            const struct red_seg *g = &s->seg[k];

            if (s->hdr.parent != NC_MC_ROOT && g->up != 2)
                return;
            if ((s->hdr.parent == NC_MC_ROOT || s->all) && g->stored != 2)
                return;
        }
    port_event(s->port, s->gen, NC_EV_REDUCE, s->status, s->cookie, s->len, 0, 0);
    chunks_free(slot_index(s));
    s->state = RS_FREE;
    xa_give(s);
}

/* Once the tree is known: FAIL to the parent, and to the children of an
 * allreduce (they wait for its result); tokens given back at once. */
static void red_tell(struct red_slot *s)
{
    if (s->told || s->state != RS_RUN)
        return;
    s->told = 1;
    if (s->hdr.parent != NC_MC_ROOT)
        (void)mcp_send(s->port, s->hdr.parent >> 8, s->hdr.parent & 0xFFu, RED_FAIL, s->instance,
                       0, 0);
    if (s->all)
        for (uint32_t c = 0; c < s->hdr.nchildren; c++)
            (void)mcp_send(s->port, s->hdr.child[c] >> 8, s->hdr.child[c] & 0xFFu, RED_FAIL,
                           s->instance, 0, 0);
}

/* Instance of port (generation gen) failed: its packets are dropped. */
static void dead_note(uint32_t port, uint32_t gen, uint32_t instance)
{
    red_dead[red_dead_next] = (__typeof__(red_dead[0])){ port, gen, instance };
    red_dead_next = (red_dead_next + 1) % RED_DEAD;
}

static void red_fail(struct red_slot *s, uint32_t status)
{
    if (!s->status) {
        s->status = status;
        red_ctr.failed++;
        dead_note(s->port, s->gen, s->instance);
    }
    red_tell(s);
    red_try_end(s);
}

static bool is_dead(uint32_t port, uint32_t instance)
{
    for (uint32_t i = 0; i < RED_DEAD; i++)
        if (red_dead[i].port == port && red_dead[i].gen == port_gen(port) &&
            red_dead[i].instance == instance)
            return true;
    return false;
}

/* acc = in (op) acc for segment k: integers commute bit for bit, so they
 * combine in place; floats keep the host's operand roles (the child's data
 * is inout) and the result is copied back. */
static void red_combine(struct red_slot *s, uint32_t k, uint32_t *in)
{
    uint32_t *acc = s->data + k * (NC_RED_SEG / 4), words = seg_bytes(s, k) / 4;
    uint32_t n = words / nc_red_elem_words(s->type);

    s->since = hal_rtc();

    if (s->type == NC_RED_F32 || s->type == NC_RED_F64) {
        (void)nc_red_combine(s->op, s->type, in, acc, n);
        copy_words(acc, in, words);
    } else {
        (void)nc_red_combine(s->op, s->type, acc, in, n);
    }
}

static void red_up_sent(uint16_t tok, uint32_t status);
static void red_down_sent(uint16_t tok, uint32_t status);
static void red_stored(uint32_t port, uint32_t gen, uint16_t arg, bool last, bool ok);

static bool red_send(struct red_slot *s, uint32_t k, uint32_t to, uint8_t type,
                     stoken_done_fn done)
{
    if (mcp_send_data(s->port, to >> 8, to & 0xFFu, type, s->instance,
                      slot_index(s) << 8 | k, s->data + k * (NC_RED_SEG / 4), seg_bytes(s, k),
                      done) < 0) {
        red_fail(s, NC_ST_ENORES);
        return false;
    }
    s->pending++;
    return true;
}

/* Segment k's result is in the slot: down to the children (allreduce),
 * into the block. */
static void red_result(struct red_slot *s, uint32_t k)
{
    uint32_t off = NC_RED_HDR_BYTES + k * NC_RED_SEG, lo = s->lo + off;

    s->seg[k].res = 1;
    s->since = hal_rtc();
    if (s->all)
        for (uint32_t c = 0; c < s->hdr.nchildren; c++)
            if (!red_send(s, k, s->hdr.child[c], RED_DOWN, red_down_sent))
                return;
    s->seg[k].stored = 1;
    s->pending++;
    mcp_store_cb(red_stored, s->port, s->gen, (uint16_t)(slot_index(s) << 8 | k),
                 s->data + k * (NC_RED_SEG / 4), s->hi + (lo < s->lo), lo, seg_bytes(s, k));
}

static void x_advance(struct red_slot *s);

/* Combine what segment k can in order; once complete, up (or the result). */
static void red_advance(struct red_slot *s, uint32_t k)
{
    struct red_seg *g = &s->seg[k];
    uint32_t si = slot_index(s);

    if (s->exact) {
        x_advance(s);
        return;
    }
    if (s->state != RS_RUN || s->status || !g->own || g->up || g->res)
        return;
    while (g->next < s->hdr.nchildren) {
        uint32_t from = s->hdr.child[g->next], i = 0;

        while (i < RED_CHUNKS && !(red_chunk[i].used && red_chunk[i].slot == si &&
                                   red_chunk[i].seg == k && red_chunk[i].from == from))
            i++;
        if (i == RED_CHUNKS)
            return;
        red_combine(s, k, red_chunk[i].data);
        red_chunk[i].used = 0;
        s->chunks--;
        g->next++;
    }
    if (s->hdr.parent == NC_MC_ROOT) {
        red_result(s, k);
    } else if (red_send(s, k, s->hdr.parent, RED_UP, red_up_sent)) {
        g->up = 1;
    }
}

static struct red_slot *slot_of_tok(uint16_t tok)
{
    return &red_slot[(stok[tok].cookie >> 8) % RED_SLOTS];
}

/* One of s's sends or stores is done, with status. */
static void red_settle(struct red_slot *s, uint32_t status)
{
    s->pending--;
    if (status)
        red_fail(s, status);
    else
        red_try_end(s);
}

/* ---- exact mode (NC_RED_EXACT) ------------------------------------------
 * Every element has an accumulator (ref/red/nc_xacc.h) in the slot's area:
 * the NIC adds its own elements and merges each child's windows as they
 * come, in any order, since integer addition commutes. Each child's
 * packets come in element order, so what is complete is the prefix every
 * child has reached: a member encodes that prefix into packets for its
 * parent as it grows (a packet goes once the next window does not fit, the
 * last at the end), and the root rounds each element once into the slot's
 * data, which then goes down and into the block as an ordered result does.
 * An area is taken once the header is in and given back when the last up
 * packet is acknowledged (at the root, after rounding); a slot that finds
 * none waits, its children's packets held in chunks or refused. */
enum { X_OK, X_DUP, X_LATER, X_BAD };

static void red_fetch_data(struct red_slot *s);

static struct red_xarea *xa_of(const struct red_slot *s)
{
    return &red_xarea[s->xa - 1u];
}

static uint32_t child_index(const struct red_slot *s, uint32_t from)
{
    uint32_t c = 0;

    while (c < s->hdr.nchildren && s->hdr.child[c] != from)
        c++;
    return c;
}

/* Child c's packet (p[0] its first element, then windows): merged when it
 * is the next one, X_DUP when already merged, X_LATER when one before it
 * is missing, X_BAD when a window is malformed (the slot then fails: some
 * of it may be merged). */
static uint32_t x_merge(struct red_slot *s, uint32_t c, const uint32_t *p, uint32_t words)
{
    struct red_xarea *a = xa_of(s);
    uint32_t e = p[0], i = 1;

    if (e != s->prog[c])
        return e < s->prog[c] ? X_DUP : X_LATER;
    while (i < words) {
        uint32_t used;

        if (e >= s->count || !(used = nc_xacc_merge_wire(&a->acc[e], p + i, words - i)))
            return X_BAD;
        i += used;
        e++;
    }
    s->prog[c] = (uint16_t)e;
    s->since = hal_rtc();
    return X_OK;
}

/* Held packets of the slot merged, in each child's order. */
static void x_chunks(struct red_slot *s)
{
    uint32_t si = slot_index(s);
    bool more = true;

    while (more && !s->status) {
        more = false;
        for (uint32_t i = 0; i < RED_CHUNKS; i++) {
            struct red_chunk *k = &red_chunk[i];
            uint32_t r;

            if (!k->used || k->slot != si)
                continue;
            r = x_merge(s, child_index(s, k->from), k->data, k->len / 4u);
            if (r == X_LATER)
                continue;
            k->used = 0;
            s->chunks--;
            if (r == X_BAD) {
                red_ctr.malformed++;
                red_fail(s, NC_ST_EINVAL);
                return;
            }
            more = r == X_OK;
        }
    }
}

/* The area's accumulators emptied, held packets merged, the own data
 * fetched. */
static void x_begin(struct red_slot *s)
{
    struct red_xarea *a = xa_of(s);
    uint32_t n = s->type == NC_RED_F64 ? NC_XACC64_WORDS : NC_XACC32_WORDS;

    a->np = a->open = a->cur = a->acked = 0;
    a->off[0] = 0;
    for (uint32_t i = 0; i < s->count; i++)
        nc_xacc_init(&a->acc[i], n);
    x_chunks(s);
    if (!s->status)
        red_fetch_data(s);
}

static bool xa_take(struct red_slot *s)
{
    for (uint32_t i = 0; red_xarea && i < RED_XAREAS; i++)
        if (!red_xarea[i].used) {
            red_xarea[i].used = 1;
            s->xa = i + 1u;
            return true;
        }
    return false;
}

/* s's area back; the oldest slot waiting for one starts. */
static void xa_give(struct red_slot *s)
{
    if (!s->xa)
        return;
    xa_of(s)->used = 0;
    s->xa = 0;
    for (uint32_t i = 0; i < RED_SLOTS; i++) {
        struct red_slot *w = &red_slot[i];

        if (w->state == RS_RUN && w->xwait && !w->status && xa_take(w)) {
            w->xwait = 0;
            x_begin(w);
            return;
        }
    }
}

static void x_up_sent(uint16_t tok, uint32_t status)
{
    struct red_slot *s = slot_of_tok(tok);
    struct red_xarea *a = xa_of(s);

    mcp_release(tok);
    if (++a->acked == a->np && !a->open && s->xenc == s->count) {
        s->seg[0].up = 2;
        xa_give(s);
    }
    red_settle(s, status);
}

/* The open packet to the parent. */
static bool x_send(struct red_slot *s)
{
    struct red_xarea *a = xa_of(s);
    uint32_t p = a->np - 1u, at = a->off[p];

    a->open = 0;
    a->off[a->np] = (a->cur + 1u) & ~1u;
    if (mcp_send_data(s->port, s->hdr.parent >> 8, s->hdr.parent & 0xFFu, RED_XUP, s->instance,
                      slot_index(s) << 8 | p, a->out + at, (a->cur - at) * 4u, x_up_sent) < 0) {
        red_fail(s, NC_ST_ENORES);
        return false;
    }
    s->pending++;
    s->seg[0].up = 1;
    return true;
}

/* What is complete goes on: encoded for the parent, or rounded at the root. */
static void x_advance(struct red_slot *s)
{
    struct red_xarea *a;
    uint32_t done = s->count;

    if (s->state != RS_RUN || s->status || !s->xa || !s->seg[0].own || s->seg[0].res)
        return;
    a = xa_of(s);
    if (!s->xown) {
        for (uint32_t i = 0; i < s->count; i++)
            if (s->type == NC_RED_F64)
                nc_xacc_add_f64(&a->acc[i], (uint64_t)s->data[2u * i] << 32 | s->data[2u * i + 1u]);
            else
                nc_xacc_add_f32(&a->acc[i], s->data[i]);
        s->xown = 1;
    }
    for (uint32_t c = 0; c < s->hdr.nchildren; c++)
        if (s->prog[c] < done)
            done = s->prog[c];
    if (s->hdr.parent == NC_MC_ROOT) {
        if (done < s->count)
            return;
        for (uint32_t i = 0; i < s->count; i++)
            if (s->type == NC_RED_F64) {
                uint64_t v = nc_xacc_round_f64(&a->acc[i]);

                s->data[2u * i] = (uint32_t)(v >> 32);
                s->data[2u * i + 1u] = (uint32_t)v;
            } else {
                s->data[i] = nc_xacc_round_f32(&a->acc[i]);
            }
        xa_give(s);
        red_result(s, 0);
        return;
    }
    while (s->xenc < done) {
        uint32_t w = 0, at;

        if (a->open) {
            at = a->off[a->np - 1u];
            w = nc_xacc_encode(&a->acc[s->xenc], a->out + a->cur, NC_RED_SEG / 4u - (a->cur - at));
        }
        if (!w) {
            if (a->open && !x_send(s))
                return;
            a->cur = a->off[a->np];
            a->out[a->cur++] = s->xenc;
            a->np++;
            a->open = 1;
            continue;
        }
        a->cur += w;
        s->xenc++;
    }
    if (s->xenc == s->count && a->open)
        (void)x_send(s);
}

/* A child's RED_XUP for a running exact slot with its area. */
static enum mcp_rx_verdict x_data(struct red_slot *s, uint32_t from, const uint32_t *payload,
                                  uint32_t words)
{
    uint32_t c = child_index(s, from);

    if (c == s->hdr.nchildren || s->seg[0].res) {
        red_ctr.malformed++;
        return MCP_RX_DONE;
    }
    switch (x_merge(s, c, payload, words)) {
    case X_LATER:
        return MCP_RX_REFUSE;
    case X_DUP:
        red_ctr.malformed++;
        return MCP_RX_DONE;
    case X_BAD:
        red_ctr.malformed++;
        red_fail(s, NC_ST_EINVAL);
        return MCP_RX_DONE;
    default:
        x_advance(s);
        red_try_end(s);
        return MCP_RX_DONE;
    }
}

static void red_up_sent(uint16_t tok, uint32_t status)
{
    struct red_slot *s = slot_of_tok(tok);

    s->seg[stok[tok].cookie & 0xFFu].up = 2;
    mcp_release(tok);
    red_settle(s, status);
}

static void red_down_sent(uint16_t tok, uint32_t status)
{
    struct red_slot *s = slot_of_tok(tok);

    mcp_release(tok);
    red_settle(s, status);
}

static void red_stored(uint32_t port, uint32_t gen, uint16_t arg, bool last, bool ok)
{
    struct red_slot *s = &red_slot[(arg >> 8) % RED_SLOTS];

    (void)port, (void)gen, (void)last;
    s->seg[arg & 0xFFu].stored = 2;
    red_settle(s, ok ? NC_ST_OK : NC_ST_EFAULT);
}

static void red_seg_fetched(uint32_t port, uint32_t gen, uint16_t arg, bool last, bool ok)
{
    struct red_slot *s = &red_slot[(arg >> 8) % RED_SLOTS];

    (void)port, (void)gen, (void)last;
    s->pending--;
    if (!ok || s->status) {
        red_fail(s, NC_ST_EFAULT);
        return;
    }
    s->seg[arg & 0xFFu].own = 1;
    red_advance(s, arg & 0xFFu);
    red_try_end(s);
}

static bool is_child(const struct red_slot *s, uint32_t from)
{
    return child_index(s, from) < s->hdr.nchildren;
}

static bool member_ok(uint32_t m)
{
    return (m >> 8) < n_nodes && (m & 0xFFu) < NC_ABI_PORTS;
}

/* The header is in: check it against the command, then fetch the data. */
static void red_hdr_fetched(uint32_t port, uint32_t gen, uint16_t si, bool last, bool ok)
{
    struct red_slot *s = &red_slot[si % RED_SLOTS];
    const struct nc_red_block *h = &s->hdr;
    uint32_t op = h->op_type >> 8 & 0xFFu, type = h->op_type & 0xFFu, bytes, ew;
    bool exact;

    (void)port, (void)gen, (void)last;
    s->pending--;
    if (!ok) {
        red_fail(s, NC_ST_EFAULT);
        return;
    }
    ew = nc_red_elem_words(type);
    bytes = s->len - NC_RED_HDR_BYTES;
    exact = (h->op_type & NC_RED_EXACT) != 0;
    if (h->instance != s->instance || (h->op_type & ~(NC_RED_ALL | NC_RED_EXACT | 0xFFFFu)) ||
        !nc_red_valid(op, type) || !h->count || h->count > NC_RED_DATA_MAX ||
        h->count * 4u * ew != bytes || h->nchildren > NC_RED_CHILDREN ||
        (h->parent != NC_MC_ROOT && !member_ok(h->parent)) ||
        (exact && (op != NC_RED_SUM || (type != NC_RED_F32 && type != NC_RED_F64) ||
                   h->count > NC_RED_XMAX))) {
        red_fail(s, NC_ST_EINVAL);
        return;
    }
    for (uint32_t c = 0; c < h->nchildren; c++)
        if (!member_ok(h->child[c])) {
            red_fail(s, NC_ST_EINVAL);
            return;
        }
    s->op = op;
    s->type = type;
    s->all = (h->op_type & NC_RED_ALL) != 0;
    s->count = h->count;
    s->exact = exact;
    s->nseg = (bytes + NC_RED_SEG - 1) / NC_RED_SEG;
    /* what came early from anyone but a child, or does not fit, goes */
    for (uint32_t i = 0; i < RED_CHUNKS; i++)
        if (red_chunk[i].used && red_chunk[i].slot == si &&
            (!is_child(s, red_chunk[i].from) || red_chunk[i].x != exact ||
             (!exact && (red_chunk[i].seg >= s->nseg ||
                         red_chunk[i].len != seg_bytes(s, red_chunk[i].seg))))) {
            red_chunk[i].used = 0;
            s->chunks--;
            red_ctr.malformed++;
        }
    s->state = RS_RUN;
    s->since = hal_rtc();
    if (s->status) {            /* a FAIL came first: pass it on, end */
        red_fail(s, s->status);
        return;
    }
    if (s->hdr.nchildren || (s->all && s->hdr.parent != NC_MC_ROOT))
        mcp_timer_need();       /* it may wait on a peer: probes */
    if (!s->exact)
        red_fetch_data(s);
    else if (!red_xarea)
        red_fail(s, NC_ST_ENORES);
    else if (xa_take(s))
        x_begin(s);
    else
        s->xwait = 1;           /* an area's end starts it (xa_give) */
}

/* The own data, segment by segment. */
static void red_fetch_data(struct red_slot *s)
{
    uint32_t si = slot_index(s);

    for (uint32_t k = 0; k < s->nseg; k++) {
        uint32_t off = NC_RED_HDR_BYTES + k * NC_RED_SEG, lo = s->lo + off;

        if (!mcp_fetch(red_seg_fetched, s->port, s->gen, (uint16_t)(si << 8 | k),
                       s->data + k * (NC_RED_SEG / 4), s->hi + (lo < s->lo), lo,
                       seg_bytes(s, k))) {
            red_fail(s, NC_ST_ENORES);
            return;
        }
        s->pending++;
    }
}

static struct red_slot *slot_find(uint32_t port, uint32_t instance)
{
    if (!red_slot)
        return 0;
    for (uint32_t i = 0; i < RED_SLOTS; i++)
        if (red_slot[i].state != RS_FREE && red_slot[i].port == port &&
            red_slot[i].gen == port_gen(port) && red_slot[i].instance == instance)
            return &red_slot[i];
    return 0;
}

static struct red_slot *slot_new(uint32_t port, uint32_t instance, uint32_t state)
{
    uint32_t early = 0;

    if (!red_slot)
        return 0;
    for (uint32_t i = 0; i < RED_SLOTS; i++)
        early += red_slot[i].state == RS_EARLY;
    if (state == RS_EARLY && early >= RED_EARLY)
        return 0;
    for (uint32_t i = 0; i < RED_SLOTS; i++)
        if (red_slot[i].state == RS_FREE) {
            struct red_slot *s = &red_slot[i];

            /* field by field: a compound literal would zero 32 KB of data */
            s->state = state;
            s->port = port;
            s->gen = port_gen(port);
            s->instance = instance;
            s->status = s->pending = s->chunks = s->probing = s->told = 0;
            s->exact = s->xa = s->xwait = s->xown = s->xenc = 0;
            for (uint32_t c = 0; c < NC_RED_CHILDREN; c++)
                s->prog[c] = 0;
            s->since = hal_rtc();
            s->cookie = s->hi = s->lo = s->len = s->nseg = 0;
            for (uint32_t k = 0; k < RED_SEGS; k++)
                s->seg[k] = (struct red_seg){ 0 };
            return s;
        }
    return 0;
}

static void red_command(uint32_t port, const union nc_cmd *c)
{
    const struct nc_cmd_reduce *r = &c->reduce;
    struct red_slot *s;

    if (!red_slot) {
        port_event(port, port_gen(port), NC_EV_REDUCE, NC_ST_ENORES, r->cookie, r->len, 0, 0);
        return;
    }
    if (r->len <= NC_RED_HDR_BYTES || r->len > NC_RED_HDR_BYTES + NC_RED_DATA_MAX ||
        !port_mem_ok(port, r->bus_hi, r->bus_lo, r->len)) {
        port_event(port, port_gen(port), NC_EV_REDUCE,
                   r->len > NC_RED_HDR_BYTES && r->len <= NC_RED_HDR_BYTES + NC_RED_DATA_MAX ?
                   NC_ST_EFAULT : NC_ST_EINVAL, r->cookie, r->len, 0, 0);
        return;
    }
    s = slot_find(port, r->instance);
    if (s && s->state != RS_EARLY) {
        port_event(port, port_gen(port), NC_EV_REDUCE, NC_ST_EBUSY, r->cookie, r->len, 0, 0);
        return;
    }
    if (!s && !(s = slot_new(port, r->instance, RS_FETCH))) {
        port_event(port, port_gen(port), NC_EV_REDUCE, NC_ST_ENORES, r->cookie, r->len, 0, 0);
        return;
    }
    s->state = RS_FETCH;
    if (is_dead(port, r->instance) && !s->status)
        s->status = NC_ST_ETIMEDOUT;    /* a member below or above already failed it */
    s->cookie = r->cookie;
    s->hi = r->bus_hi;
    s->lo = r->bus_lo;
    s->len = r->len;
    if (!mcp_fetch(red_hdr_fetched, port, s->gen, (uint16_t)slot_index(s), &s->hdr, r->bus_hi,
                   r->bus_lo, NC_RED_HDR_BYTES)) {
        red_fail(s, NC_ST_ENORES);
        return;
    }
    s->pending++;
}

/* A child's segment (UP) or a parent's result (DOWN), before the
 * connection takes it. */
static enum mcp_rx_verdict red_data(uint32_t src, const struct nc_pkt *h, uint16_t b)
{
    uint32_t pi = h->dst_port, k = h->pad2[1] & 0xFFu, from = NC_MC_MEMBER(src, h->src_port);
    uint32_t *payload = (uint32_t *)((uint8_t *)h + NC_PKT_HDR);
    struct red_slot *s;
    struct red_seg *g;

    bool x = (h->type & 0xFFu) == RED_XUP;

    (void)b;
    if (pi >= NC_ABI_PORTS || !red_slot || k >= (x ? RED_XPKTS : RED_SEGS) ||
        h->len < (x ? 8u : 1u) || h->len > NC_RED_SEG || h->len % 4u) {
        red_ctr.malformed++;
        return MCP_RX_DONE;
    }
    if (!port_is_open(pi)) {
        /* its process is not there yet (a slow start): held back, as DATA
         * for a port without receive buffers; one that never comes ends
         * the sender's reduction in its send time-out */
        red_ctr.refused_closed++;
        return MCP_RX_REFUSE;
    }
    s = slot_find(pi, h->pad2[0]);
    if ((s && s->status) || (!s && is_dead(pi, h->pad2[0])))
        return MCP_RX_DONE;                 /* it ended in an error: nothing more to combine */
    if ((h->type & 0xFFu) == RED_DOWN) {
        if (!s || s->state != RS_RUN || !s->all || from != s->hdr.parent || k >= s->nseg ||
            h->len != seg_bytes(s, k) || s->seg[k].res) {
            red_ctr.malformed++;
            return MCP_RX_DONE;
        }
        if (s->seg[k].up != 2) {
            red_ctr.refused_down++;
            return MCP_RX_REFUSE;
        }
        copy_words(s->data + k * (NC_RED_SEG / 4), payload, h->len / 4);
        red_result(s, k);
        red_try_end(s);
        return MCP_RX_DONE;
    }
    if (s && s->state == RS_RUN && s->exact != x) {
        red_ctr.malformed++;                /* the other mode's packet */
        return MCP_RX_DONE;
    }
    if (s && s->state == RS_RUN && x) {
        if (s->xa)
            return x_data(s, from, payload, h->len / 4u);
        if (!s->xwait || !is_child(s, from)) {
            red_ctr.malformed++;            /* after its end, or not from a child */
            return MCP_RX_DONE;
        }
    } else if (s && s->state == RS_RUN) {
        g = &s->seg[k];
        if (k >= s->nseg || h->len != seg_bytes(s, k) || !is_child(s, from) || g->up || g->res) {
            red_ctr.malformed++;
            return MCP_RX_DONE;
        }
        if (g->own && g->next < s->hdr.nchildren && s->hdr.child[g->next] == from) {
            red_combine(s, k, payload);     /* in its turn: from the rx buffer */
            g->next++;
            red_advance(s, k);
            red_try_end(s);
            return MCP_RX_DONE;
        }
    }
    {
        uint32_t i = 0;
        bool opened = false;

        while (i < RED_CHUNKS && red_chunk[i].used)
            i++;
        if (i == RED_CHUNKS || (!s && !(opened = true, s = slot_new(pi, h->pad2[0], RS_EARLY)))) {
            red_ctr.refused_early++;
            return MCP_RX_REFUSE;
        }
        (void)opened;
        red_chunk[i].used = 1;
        red_chunk[i].slot = slot_index(s);
        red_chunk[i].seg = k;
        red_chunk[i].from = from;
        red_chunk[i].len = h->len;
        red_chunk[i].x = x;
        copy_words(red_chunk[i].data, payload, h->len / 4);
        s->chunks++;
        if (s->state == RS_RUN && !x)
            red_advance(s, k);
        return MCP_RX_DONE;
    }
}

static void red_probe_done(uint16_t tok, uint32_t status)
{
    struct red_slot *s = slot_find(stok[tok].port, stok[tok].gen);

    mcp_release(tok);
    if (!s)
        return;
    s->probing = 0;
    if (status && s->state == RS_RUN)
        red_fail(s, status);
}

/* A PROBE (its acknowledgement is all it asks for) or a FAIL. */
static void red_packet(uint32_t src, const struct nc_pkt *h)
{
    uint32_t pi = h->dst_port;
    struct red_slot *s;

    (void)src;
    if ((h->type & 0xFFu) != RED_FAIL || pi >= NC_ABI_PORTS || !port_is_open(pi) || !red_slot)
        return;
    if ((s = slot_find(pi, h->pad2[0]))) {
        red_fail(s, NC_ST_ETIMEDOUT);
    } else if (!is_dead(pi, h->pad2[0])) {
        dead_note(pi, port_gen(pi), h->pad2[0]);  /* before this host's reduction:
                                                      it fails when it comes */
    }
}

/* The peer a running slot waits on (a child's segment, or an allreduce's
 * result from the parent), or NC_MC_ROOT. */
static uint32_t waits_on(const struct red_slot *s)
{
    if (s->exact && s->xa && s->seg[0].own && !s->seg[0].res) {
        uint32_t c = 0;

        for (uint32_t i = 1; i < s->hdr.nchildren; i++)
            if (s->prog[i] < s->prog[c])
                c = i;
        if (c < s->hdr.nchildren && s->prog[c] < s->count)
            return s->hdr.child[c];
    }
    for (uint32_t k = 0; !s->exact && k < s->nseg; k++) {
        const struct red_seg *g = &s->seg[k];

        if (g->own && !g->up && !g->res && g->next < s->hdr.nchildren)
            return s->hdr.child[g->next];
    }
    if (s->all && s->hdr.parent != NC_MC_ROOT)
        for (uint32_t k = 0; k < s->nseg; k++)
            if (s->seg[k].up == 2 && !s->seg[k].res)
                return s->hdr.parent;
    return NC_MC_ROOT;
}

/* Every retransmission period while a slot may wait on a peer: probe one
 * that has kept it waiting RED_PROBE_TICKS. */
static bool red_timer(void)
{
    uint32_t now = hal_rtc();
    bool waiting = false;

    if (!red_slot)
        return false;
    for (uint32_t i = 0; i < RED_SLOTS; i++) {
        struct red_slot *s = &red_slot[i];
        uint32_t peer;

        if (s->state != RS_RUN || s->status || (peer = waits_on(s)) == NC_MC_ROOT)
            continue;
        waiting = true;
        if (s->probing || now - s->since < RED_PROBE_TICKS)
            continue;
        if (mcp_send(s->port, peer >> 8, peer & 0xFFu, RED_PROBE, s->instance, 0, red_probe_done)) {
            s->probing = 1;
            s->since = now;
            red_ctr.probes++;
        }
    }
    return waiting;
}

/* A port's process went: its slots end (what is in flight completes into
 * the old generation, which the core drops). */
static void red_port_closed(uint32_t pi)
{
    if (!red_slot)
        return;
    for (uint32_t i = 0; i < RED_SLOTS; i++) {
        struct red_slot *s = &red_slot[i];

        if (s->state == RS_FREE || s->port != pi)
            continue;
        if (s->state == RS_EARLY || !s->pending) {
            chunks_free(i);
            s->state = RS_FREE;
            xa_give(s);
        } else if (!s->status) {
            s->status = NC_ST_ECLOSED;
        }
    }
}

const struct mcp_coll nc_reduce = {
    .cmd = NC_CMD_REDUCE,
    .type_first = RED_UP, .type_last = RED_XUP,
    .init = red_init,
    .command = red_command,
    .packet = red_packet,
    .timer = red_timer,
    .port_closed = red_port_closed,
    .data = red_data,
};
