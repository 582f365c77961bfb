/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The two host-DMA engines (E2L: host to LANai, the SDMA path; L2E: LANai to
 * host, the RDMA and event path). Each runs one block at a time from a FIFO
 * of requests; a completed block calls its request's callback. One FIFO per
 * engine keeps order: a message's data reaches the host before its event.
 */
#include "mcp_dma.h"
#include "mcp_port.h"

struct engine {
    struct dma_req q[NC_FW_DMA_QUEUE];
    uint32_t head, count;
    bool busy;
};

static struct engine eng[2];   /* 0: L2E, 1: E2L */
static volatile struct hal_dma_desc desc[2] __attribute__((aligned(8)));

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

/* Start the head of engine e's queue (completing at once what moves
 * nothing). Always inlined with a constant e: with a run-time index every
 * address of the engine's state was computed (and spilled) in the
 * prologue, about 90 instructions a call. */
static inline __attribute__((always_inline)) void start(int e)
{
    struct engine *g = &eng[e];

    while (g->count && !g->busy) {
        struct dma_req *r = &g->q[g->head];

        NC_OPAQUE(r);
        /* a transfer for a port that closed since it was queued never
         * touches that process's memory */
        bool stale = r->checkgen && ports[r->port].gen != r->gen;
        if (!stale && r->len) {
            hal_dma_start(&desc[e], e == 1, r->lar, r->eah, r->eal, r->len);
            g->busy = true;
            return;
        }
        /* nothing to move: complete at once */
        pop_complete(g, true);
    }
}

static inline __attribute__((always_inline)) bool queue_on(int e, const struct dma_req *r)
{
    struct engine *g = &eng[e];

    if (g->count == NC_FW_DMA_QUEUE)
        return false;
    g->q[(g->head + g->count) % NC_FW_DMA_QUEUE] = *r;
    g->count++;
    start(e);
    return true;
}

bool dma_queue(bool to_lanai, const struct dma_req *r)
{
    return to_lanai ? queue_on(1, r) : queue_on(0, r);
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
    hal_dma_start(&desc[0], false, r->lar, r->eah, r->eal, r->len);
    g->busy = true;
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

bool dma_busy(void)
{
    return eng[0].busy || eng[1].busy;
}

/* Engine e's block, if it finished (or failed): its callback, then the
 * next block. */
static inline __attribute__((always_inline)) void poll_on(int e, uint32_t isr)
{
    struct engine *g = &eng[e];
    bool ok = true;

    if (!g->busy)
        return;
    if (!hal_dma_done(&desc[e])) {
        /* MEM_INT: the engine stopped on a bad block (a registered
         * region the host bus does not have). Both engines may be
         * busy; the one whose block is not done is the one that
         * failed, unless both are still running. */
        if (!(isr & L9_ISR_MEM_INT))
            return;
        if (eng[1 - e].busy && !hal_dma_done(&desc[1 - e]) && e == 0)
            return;     /* decide on the E2L engine first */
        hal_isr_clear(L9_ISR_MEM_INT);
        ok = false;
    }
    g->busy = false;
    pop_complete(g, ok);
    start(e);
}

void dma_poll(uint32_t isr)
{
    poll_on(0, isr);
    poll_on(1, isr);
}
