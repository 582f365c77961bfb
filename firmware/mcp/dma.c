/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The two host-DMA engines (E2L: host to LANai, the SDMA path; L2E: LANai to
 * host, the RDMA and event path). Each runs a chain of up to NC_FW_DMA_CHAIN
 * blocks at a time, the requests at the head of its FIFO; a completed block
 * calls its request's callback. One FIFO per engine keeps order: a
 * message's data reaches the host before its event. A chain lets the engine
 * go from a payload to its event without waiting for the CPU to see the
 * payload done (docs/firmware.md, "The 1-byte cliff").
 */
#include "mcp_dma.h"
#include "mcp_port.h"

struct engine {
    struct dma_req q[NC_FW_DMA_QUEUE];
    uint32_t head, count;
    uint32_t busy;      /* blocks of the running chain not completed yet (the queue's first ones) */
    uint32_t at;        /* the chain's block that completes next */
};

static struct engine eng[2];   /* 0: L2E, 1: E2L */
static volatile struct hal_dma_desc desc[2][NC_FW_DMA_CHAIN] __attribute__((aligned(8)));

/* Take the request at the head of engine e off its queue and call its
 * owner back. Inlined where the engine is a constant (start, poll_on), so
 * are its queue's addresses. */
static inline __attribute__((always_inline)) void pop_complete(struct engine *g, bool ok)
{
    const struct dma_req *r = &g->q[g->head];
    dma_done_fn done = r->done;
    uint32_t port = r->port, gen = r->gen;
    uint16_t arg = r->arg;
    bool last = r->last;

    g->head = (g->head + 1) % NC_FW_DMA_QUEUE;
    g->count--;
    done(port, gen, arg, last, ok);
}

/* Start the head of engine e's queue as a chain: the requests in a row that
 * move something, for the head's port, at most NC_FW_DMA_CHAIN (completing
 * at once, at the head, what moves nothing, unless only_moving: then a
 * head that moves nothing is left for a later start). Always inlined with
 * a constant e: with a run-time index every address of the engine's state
 * would be computed (and spilled) in the prologue, about 90 instructions a
 * call. */
static inline __attribute__((always_inline)) void start_chain(int e, bool only_moving)
{
    struct engine *g = &eng[e];
    uint32_t n = 0, port = 0;

    while (!g->busy && n < g->count) {
        struct dma_req *r = &g->q[(g->head + n) % NC_FW_DMA_QUEUE];

        NC_OPAQUE(r);
        /* a transfer for a port that closed since it was queued never
         * touches that process's memory */
        bool stale = r->checkgen && ports[r->port].gen != r->gen;
        if (n) {
            /* a chain holds one port's blocks: a close while it runs
             * finds them all started, as it finds a single block */
            if (stale || !r->len || r->port != port)
                break;
            hal_dma_block(&desc[e][n], 0, e == 1, r->lar, r->eah, r->eal, r->len);
            hal_dma_link(&desc[e][n - 1], &desc[e][n]);
        } else if (!stale && r->len) {
            hal_dma_block(&desc[e][0], 0, e == 1, r->lar, r->eah, r->eal, r->len);
            port = r->port;
        } else {
            /* nothing to move: complete at once */
            if (only_moving)
                return;
            pop_complete(g, true);
            continue;
        }
        if (++n == NC_FW_DMA_CHAIN)
            break;
    }
    if (n) {
        hal_dma_go(&desc[e][0], e == 1);
        g->busy = n;
        g->at = 0;
    }
}

static inline __attribute__((always_inline)) void start(int e)
{
    start_chain(e, false);
}

struct dma_req *dma_slot(bool to_lanai)
{
    struct engine *g = &eng[to_lanai ? 1 : 0];

    if (g->count == NC_FW_DMA_QUEUE)
        return 0;
    return &g->q[(g->head + g->count) % NC_FW_DMA_QUEUE];
}

/* A request its caller has just checked (its port open in that
 * generation, len > 0), on the L2E engine: when the engine is idle (the
 * common case) it starts at once, without start()'s loop and stale check. */
void dma_push_checked_l2e(void)
{
    struct engine *g = &eng[0];
    const struct dma_req *r;

    if (g->count++ || g->busy)
        return;     /* behind others: start() takes it in turn */
    r = &g->q[g->head];
    NC_OPAQUE(r);
    hal_dma_start(&desc[0][0], false, r->lar, r->eah, r->eal, r->len);
    g->busy = 1;
    g->at = 0;
}

/* Always inlined (into port.c's event post): the descriptor is written
 * from the caller's registers, not from the slot it would have filled and
 * this would read back (eight loads and stores an event). */
__attribute__((always_inline)) bool dma_start_now_l2e(uint32_t lar, uint32_t eah, uint32_t eal,
                                                      uint32_t len)
{
    struct engine *g = &eng[0];

    if (g->count || g->busy)
        return false;
    g->count = 1;
    hal_dma_start(&desc[0][0], false, lar, eah, eal, len);
    g->busy = 1;
    g->at = 0;
    return true;
}

void dma_push(bool to_lanai)
{
    if (to_lanai) {
        eng[1].count++;
        start(1);
    } else {
        eng[0].count++;
        start(0);
    }
}

/* Queued, not started: what the caller queues next on the L2E engine (a
 * payload's event) goes in the same chain, started by dma_start_l2e. */
void dma_hold_l2e(void)
{
    eng[0].count++;
}

void dma_start_l2e(void)
{
    struct engine *g = &eng[0];

    if (g->busy)
        return;     /* behind the running chain: poll_on starts it */
    if (g->count == 2) {
        /* the engine was idle, so its queue was empty: this is the
         * payload dma_hold_l2e kept and its event, both just checked by
         * their callers (port open in that generation, len > 0) */
        const struct dma_req *a = &g->q[g->head];
        const struct dma_req *b = &g->q[(g->head + 1) % NC_FW_DMA_QUEUE];

        NC_OPAQUE(a);
        NC_OPAQUE(b);
        hal_dma_block(&desc[0][0], &desc[0][1], false, a->lar, a->eah, a->eal, a->len);
        hal_dma_block(&desc[0][1], 0, false, b->lar, b->eah, b->eal, b->len);
        hal_dma_go(&desc[0][0], false);
        g->busy = 2;
        g->at = 0;
        return;
    }
    start(0);
}

bool dma_busy(void)
{
    return eng[0].busy || eng[1].busy;
}

/* Engine e's blocks that finished (or the one that failed): their
 * callbacks in order; at the chain's end, the next chain. */
static inline __attribute__((always_inline)) void poll_on(int e, uint32_t isr)
{
    struct engine *g = &eng[e];

    while (g->busy) {
        bool ok = true;

        if (!hal_dma_done(&desc[e][g->at])) {
            const struct engine *o = &eng[1 - e];

            /* MEM_INT: the engine stopped on a bad block (a registered
             * region the host bus does not have); the blocks after it in
             * the chain never ran. Both engines may be busy; the one
             * whose block is not done is the one that failed, unless
             * both are still running. */
            if (!(isr & L9_ISR_MEM_INT))
                return;
            if (o->busy && !hal_dma_done(&desc[1 - e][o->at]) && e == 0)
                return;     /* decide on the E2L engine first */
            hal_isr_clear(L9_ISR_MEM_INT);
            ok = false;
        }
        if (!ok || g->busy == 1) {
            /* the chain is over (the blocks after a failed one are still
             * queued, and start() takes them again) */
            g->busy = 0;
            if (e == 1 && ok && g->count > 1) {
                /* host to NIC with more payloads queued: the next chain
                 * starts before this block's owner is called back, so
                 * the engine does not wait for that work (an SDMA
                 * completion builds and transmits a packet,
                 * docs/firmware.md "Pipelining"). A head that moves
                 * nothing waits: it completes after this block, in
                 * order. Only then: the other engine's owners (a
                 * receive buffer freed, an event posted) queue nothing
                 * behind, and a lone block needs no reordering. */
                const struct dma_req *r = &g->q[g->head];
                dma_done_fn done = r->done;
                uint32_t port = r->port, gen = r->gen;
                uint16_t arg = r->arg;
                bool last = r->last;

                g->head = (g->head + 1) % NC_FW_DMA_QUEUE;
                g->count--;
                start_chain(e, true);
                done(port, gen, arg, last, true);
                start(e);
                return;
            }
            pop_complete(g, ok);
            /* tested here: start's loop set-up (the queue's constants in
             * registers) cost ~20 instructions for an empty queue */
            if (g->count)
                start(e);
            return;
        }
        g->busy--;
        g->at++;
        pop_complete(g, true);
    }
}

void dma_poll(uint32_t isr)
{
    poll_on(0, isr);
    poll_on(1, isr);
}
