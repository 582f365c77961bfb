/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The NIC-based barrier: pairwise exchange (PE) and gather-broadcast (GB),
 * seed 002 sections 3-5, docs/barrier.md.
 *
 * The host computes its member's part with ref/tree and hands the NIC a
 * list of steps (nc_abi.h: send to, receive from, or both, a (node, port)
 * with a phase) in a barrier buffer; NC_CMD_BARRIER makes the NIC DMA it in
 * (or reuse the port's previous list: no DMA for repeated barriers). From
 * then on the NIC runs the steps alone and posts one NC_EV_BARRIER event.
 * The barrier's state lives in struct bar, one per port (the paper's send
 * token with a pointer from the port: here the port index is the pointer).
 *
 * Barrier packets are zero-length packets in the connection's sequence
 * (tx.c), so they are retransmitted like data and keep their order with
 * ordinary messages (section 3.3). One packet is one token (section 5.2's
 * "one token for every destination"), freed by its ACK.
 *
 * A barrier message that finds its port's barrier waiting for exactly that
 * peer advances it at once. Any other goes into the port's unexpected
 * record (ref/proto nc_barrec, unchanged), which a later step tests and
 * clears. The endpoint rules (section 3.2): a message for a closed port is
 * recorded as held, with its identity (the sender's open generation and
 * barrier serial, which nc_barrec's bits cannot hold); when the port opens,
 * each held one is REJECTed with that identity (a sequenced packet, so it
 * reaches the sender before anything the new process sends); the sender
 * sends it again only if the same endpoint (generation) is still in the
 * same barrier (serial) and had sent that step. The SPIN model
 * spec/promela/barrier_unexpected.pml shows why the identity is needed.
 */
#include "barrier.h"
#include "mcp_port.h"
#include "mcp_prof.h"
#include "mcp_route.h"
#include "nc_barrec.h"

struct bstep { uint16_t node; uint8_t port, op; };  /* op: NC_BAR_OP_* bits | phase << 4 */

enum { B_IDLE, B_LOADING, B_RUN };

struct bar {
    uint8_t state;
    uint8_t sent;           /* the send part of step cur went */
    uint16_t cur, nsteps;
    uint16_t tail;          /* steps tail.. only send (GB's broadcast) */
    uint32_t gen;           /* the port's generation at start */
    uint32_t serial;        /* barriers started on this port */
    uint32_t cookie;
    uint32_t loaded_gen;    /* step[] holds a list loaded in this generation */
    struct bstep step[NC_BAR_MAX_STEPS];
};

static struct bar bars[NC_ABI_PORTS];
static nc_barrec_t rec[NC_ABI_PORTS];
/* identity of the held message from (node, port) to each local port:
 * 128 KB, in the arena in an image with the NIC reduction (the small code
 * model's 1 MiB of data has no room left for it beside the reduction's
 * code; the barrier registers first, so the arena always holds it), static
 * elsewhere (a 1 MB board's arena is smaller than it) */
typedef uint32_t held_ids_t[NC_ABI_PORTS][NC_ABI_MAX_NODES][NC_ABI_PORTS][2];
#if NC_FW_REDUCE
static uint32_t (*held_id)[NC_ABI_MAX_NODES][NC_ABI_PORTS][2];
#else
static held_ids_t held_store;
static uint32_t (*const held_id)[NC_ABI_MAX_NODES][NC_ABI_PORTS][2] = held_store;
#endif
/* the barrier buffers' DMA target: its own page (the DMA writes it) */
static uint32_t bar_list[NC_ABI_PORTS][1 + NC_BAR_MAX_STEPS] __attribute__((aligned(4096)));

/* Bits set in rec[p].unexpected and held[]: nc_barrec's open and close
 * clear and scan NC_MAX_NODES (1024) bytes, thousands of cycles (over
 * 100 us at 33 MHz, beyond libnicoll's wait for an OPEN); with nothing
 * recorded their result is known, so only the open flag is set. */
static uint32_t n_unexp[NC_ABI_PORTS], n_held[NC_ABI_PORTS];

static void bar_init(void)
{
    /* rec[] is not nc_bar_init'ed: the loader zeroes SRAM, and all zero is
     * what nc_bar_init makes (closed, nothing recorded); clearing the
     * eight 2 KB records here would overrun the loader's 500 us handshake */
#if NC_FW_REDUCE
    held_id = mcp_sram(sizeof(held_ids_t));     /* zero, as the loader leaves it */
#endif
}

static const uint8_t ph_kind[3] = {
    NC_PT_BAR_PE & 0xFF, NC_PT_BAR_GATHER & 0xFF, NC_PT_BAR_BCAST & 0xFF
};

/* One barrier packet from local port pi to (node, port): queued on the
 * connection and, if the wire is free, on it now. */
static void send_pkt(uint32_t pi, uint32_t node, uint32_t port, uint8_t kind, uint32_t id0,
                     uint32_t id1)
{
    PLOG(2);
    (void)mcp_send(pi, node, port, kind, id0, id1, 0);     /* the pool suffices by sizing */
    PLOG(3);
}

/* Has the message from (node, port) come? Test and clear its record bit. */
static bool take(uint32_t pi, uint32_t node, uint32_t port)
{
    bool got;

    /* nothing recorded for this port: the answer is known, and nc_barrec's
     * bit test divides (a libcall of ~100 cycles on the LANai) */
    if (!n_unexp[pi])
        return false;
    got = nc_bar_test_and_clear(&rec[pi], node, port);

    n_unexp[pi] -= got;
    return got;
}

/* Run the steps as far as the record allows; complete at the end.
 * Inlined into its two callers (a call spills the caller's registers). */
static inline __attribute__((always_inline)) void advance(uint32_t pi)
{
    struct bar *b = &bars[pi];

    NC_OPAQUE(b);
    while (b->cur < b->nsteps) {
        const struct bstep *s = &b->step[b->cur];

        /* only sends left: the barrier is complete here (everyone has
         * entered), so the host hears it before the sends, not after */
        if (b->cur == b->tail && !b->sent)
            port_event(pi, b->gen, NC_EV_BARRIER, NC_ST_OK, b->cookie, 0, 0, 0);
        if ((s->op & NC_BSTEP_SEND) && !b->sent) {
            send_pkt(pi, s->node, s->port, ph_kind[s->op >> 4], b->gen, b->serial);
            b->sent = 1;
        }
        if ((s->op & NC_BSTEP_RECV) && !take(pi, s->node, s->port))
            return;     /* wait: bar_packet continues */
        b->cur++;
        b->sent = 0;
    }
    b->state = B_IDLE;
    if (b->tail == b->nsteps)
        port_event(pi, b->gen, NC_EV_BARRIER, NC_ST_OK, b->cookie, 0, 0, 0);
}

static void bar_start(uint32_t pi)
{
    struct bar *b = &bars[pi];

    b->state = B_RUN;
    b->serial++;
    b->cur = 0;
    b->sent = 0;
    advance(pi);
}

static void bar_refuse(uint32_t pi, uint32_t status, uint32_t cookie)
{
    port_event(pi, port_gen(pi), NC_EV_BARRIER, status, cookie, 0, 0, 0);
}

static void bar_desc_done(uint32_t pi, uint32_t gen, uint16_t len, bool last, bool ok);

static void bar_cmd(uint32_t pi, const union nc_cmd *c)
{
    struct bar *b = &bars[pi];
    uint32_t hi = c->barrier.bus_hi, lo = c->barrier.bus_lo, len = c->barrier.len;
    uint32_t cookie = c->barrier.cookie;

    PLOG(1);
    if (b->state != B_IDLE)
        return bar_refuse(pi, NC_ST_EBUSY, cookie);
    b->gen = port_gen(pi);
    b->cookie = cookie;
    if (len == 0) {
        /* the previous list again: nothing to fetch */
        if (b->loaded_gen != b->gen)
            return bar_refuse(pi, NC_ST_EINVAL, cookie);
        return bar_start(pi);
    }
    if (len < 4 || len > sizeof bar_list[0] || (len & 3))
        return bar_refuse(pi, NC_ST_EINVAL, cookie);
    if (!port_mem_ok(pi, hi, lo, len))
        return bar_refuse(pi, NC_ST_EFAULT, cookie);
    b->state = B_LOADING;
    b->loaded_gen = 0;
    if (!mcp_fetch(bar_desc_done, pi, b->gen, (uint16_t)len, bar_list[pi], hi, lo, len)) {
        b->state = B_IDLE;
        bar_refuse(pi, NC_ST_ENORES, cookie);
    }
}

/* Check the list in bar_list[pi] (len bytes) and copy it into the steps. */
static bool parse(uint32_t pi, uint32_t len)
{
    struct bar *b = &bars[pi];
    const uint32_t *w = bar_list[pi];
    uint32_t n = w[0] & 0xFFFF;

    if (w[0] >> 16 != NC_BAR_MAGIC || n > NC_BAR_MAX_STEPS || len != 4 * (1 + n))
        return false;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t op = w[1 + i] >> 28, ph = (w[1 + i] >> 24) & 15;
        uint32_t port = (w[1 + i] >> 16) & 255, node = w[1 + i] & 0xFFFF;

        if (!op || op > 3 || ph > NC_BSTEP_BCAST || port >= NC_ABI_PORTS || node >= n_nodes ||
            node >= NC_ABI_MAX_NODES || (node == my_node && port == pi) || !route_len(node))
            return false;
        b->step[i] = (struct bstep){ (uint16_t)node, (uint8_t)port, (uint8_t)(op | ph << 4) };
    }
    b->nsteps = (uint16_t)n;
    for (b->tail = (uint16_t)n; b->tail && (b->step[b->tail - 1].op & 3) == NC_BSTEP_SEND;)
        b->tail--;
    return true;
}

static void bar_desc_done(uint32_t pi, uint32_t gen, uint16_t len, bool last, bool ok)
{
    (void)last;
    struct bar *b = &bars[pi];

    if (b->state != B_LOADING || b->gen != gen || port_gen(pi) != gen)
        return;     /* the port closed meanwhile */
    if (!ok || !parse(pi, len)) {
        b->state = B_IDLE;
        return bar_refuse(pi, ok ? NC_ST_EINVAL : NC_ST_EFAULT, b->cookie);
    }
    b->loaded_gen = b->gen;
    bar_start(pi);
}

static void bar_port_open(uint32_t pi)
{
    volatile struct nc_abi_port *ap = port_abi(pi);
    uint32_t node, port;

    bars[pi].state = B_IDLE;
    bars[pi].loaded_gen = 0;
    ap->bar_unexp = ap->bar_resent = ap->bar_rejects = 0;
    n_unexp[pi] = 0;
    if (!n_held[pi]) {
        /* what nc_bar_open would do: unexpected[] is clear (closed since
         * nc_bar_close or with nothing recorded), held[] too */
        rec[pi].open = true;
        return;
    }
    n_held[pi] = 0;
    if (!nc_bar_open(&rec[pi]))
        return;
    while (nc_bar_next_reject(&rec[pi], &node, &port)) {
        send_pkt(pi, node, port, NC_PT_BAR_REJECT & 0xFF, held_id ? held_id[pi][node][port][0] : 0,
                 held_id ? held_id[pi][node][port][1] : 0);
        ap->bar_rejects++;
    }
}

static void bar_port_closed(uint32_t pi)
{
    bars[pi].state = B_IDLE;    /* aborted: no event (the process is gone) */
    bars[pi].loaded_gen = 0;
    if (n_unexp[pi])
        nc_bar_close(&rec[pi]);
    else
        rec[pi].open = false;   /* nc_bar_close with nothing to clear */
    n_unexp[pi] = 0;
}

/* A REJECT of a message port pi sent: send it again if the same endpoint
 * is still in the same barrier and had sent that step. */
static void rejected(uint32_t pi, uint32_t node, uint32_t port, uint32_t gen, uint32_t serial)
{
    struct bar *b = &bars[pi];

    if (!port_is_open(pi) || port_gen(pi) != gen || b->state != B_RUN || b->gen != gen ||
        b->serial != serial)
        return;     /* a stale reject: the message's barrier is gone */
    for (uint32_t i = 0; i <= b->cur && i < b->nsteps; i++) {
        const struct bstep *s = &b->step[i];

        if (!(s->op & NC_BSTEP_SEND) || s->node != node || s->port != port ||
            (i == b->cur && !b->sent))
            continue;
        send_pkt(pi, node, port, ph_kind[s->op >> 4], b->gen, b->serial);
        port_abi(pi)->bar_resent++;
        return;
    }
}

static void bar_packet(uint32_t src, const struct nc_pkt *h)
{
    uint32_t pi = h->dst_port, sp = h->src_port;
    struct bar *b = &bars[pi];

    if (pi >= NC_ABI_PORTS || sp >= NC_ABI_PORTS)
        return;
    if (h->type == NC_PT_BAR_REJECT)
        return rejected(pi, src, sp, h->pad2[0], h->pad2[1]);
    if (!port_is_open(pi)) {
        (void)nc_bar_receive(&rec[pi], src, sp);    /* NC_BAR_HELD */
        n_held[pi]++;
        if (held_id) {
            held_id[pi][src][sp][0] = h->pad2[0];
            held_id[pi][src][sp][1] = h->pad2[1];
        }
        return;
    }
    if (b->state == B_RUN) {
        const struct bstep *s = &b->step[b->cur];

        /* the fast path: the step waits for exactly this peer */
        if (s->node == src && s->port == sp && (s->op & NC_BSTEP_RECV) &&
            (b->sent || !(s->op & NC_BSTEP_SEND))) {
            b->cur++;
            b->sent = 0;
            return advance(pi);
        }
    }
    if (nc_bar_receive(&rec[pi], src, sp) == NC_BAR_RECORDED) {
        n_unexp[pi]++;
        port_abi(pi)->bar_unexp++;
    }
}

const struct mcp_coll nc_barrier = {
    .cmd = NC_CMD_BARRIER,
    .type_first = NC_PT_BAR_PE & 0xFF,
    .type_last = NC_PT_BAR_REJECT & 0xFF,
    .init = bar_init,
    .command = bar_cmd,
    .packet = bar_packet,
    .port_open = bar_port_open,
    .port_closed = bar_port_closed,
};
