/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The two host-DMA engines (E2L: host to LANai, the SDMA path; L2E: LANai to
 * host, the RDMA and event path). Each runs one block at a time from a FIFO
 * of requests; a completed block calls back its owner by kind. One FIFO per
 * engine keeps order: a message's data reaches the host before its event.
 */
#include "mcp.h"

struct engine {
    struct dma_req q[NC_FW_DMA_QUEUE];
    uint32_t head, count;
    bool busy;
};

static struct engine eng[2];   /* 0: L2E, 1: E2L */
static volatile struct hal_dma_desc desc[2] __attribute__((aligned(8)));

/* A finished (or empty) transfer: its owner's callback. Takes the fields,
 * not the request: the request's slot is free again when this runs, and
 * copying the whole request cost more than the callback. */
static void complete(uint32_t kind, uint32_t port, uint32_t gen, uint16_t arg, bool last,
                     bool ok)
{
    if (kind == DMA_SDMA)
        tx_sdma_done(arg, ok);
    else if (kind == DMA_RDMA) {
        if (last)
            rx_rdma_done(arg);
    } else if (kind == DMA_BARRIER)
        bar_desc_done(port, gen, arg, ok);
    else
        port_event_dma_done(arg);
}

/* Take the request at the head of engine e off its queue and call its
 * owner back. */
static void pop_complete(struct engine *g, bool ok)
{
    const struct dma_req *r = &g->q[g->head];
    uint32_t kind = r->kind, port = r->port, gen = r->gen;
    uint16_t arg = r->arg;
    bool last = r->last;

    g->head = (g->head + 1) % NC_FW_DMA_QUEUE;
    g->count--;
    complete(kind, port, gen, arg, last, ok);
}

static void start(int e)
{
    struct engine *g = &eng[e];

    while (g->count && !g->busy) {
        struct dma_req *r = &g->q[g->head];

        /* a transfer for a port that closed since it was queued never
         * touches that process's memory */
        bool stale = (r->kind == DMA_RDMA || r->kind == DMA_EVENT) &&
                     ports[r->port].gen != r->gen;
        if (!stale && r->len) {
            hal_dma_start(&desc[e], e == 1, r->lar, r->eah, r->eal, r->len);
            g->busy = true;
            return;
        }
        /* nothing to move: complete at once */
        pop_complete(g, true);
    }
}

bool dma_queue(bool to_lanai, const struct dma_req *r)
{
    struct engine *g = &eng[to_lanai ? 1 : 0];

    if (g->count == NC_FW_DMA_QUEUE)
        return false;
    g->q[(g->head + g->count) % NC_FW_DMA_QUEUE] = *r;
    g->count++;
    start(to_lanai ? 1 : 0);
    return true;
}

bool dma_busy(void)
{
    return eng[0].busy || eng[1].busy;
}

void dma_poll(uint32_t isr)
{
    for (int e = 0; e < 2; e++) {
        struct engine *g = &eng[e];
        bool ok = true;

        if (!g->busy)
            continue;
        if (!hal_dma_done(&desc[e])) {
            /* MEM_INT: the engine stopped on a bad block (a registered
             * region the host bus does not have). Both engines may be
             * busy; the one whose block is not done is the one that
             * failed, unless both are still running. */
            if (!(isr & L9_ISR_MEM_INT))
                continue;
            if (eng[1 - e].busy && !hal_dma_done(&desc[1 - e]) && e == 0)
                continue;   /* decide on the E2L engine first */
            hal_isr_clear(L9_ISR_MEM_INT);
            ok = false;
        }
        g->busy = false;
        pop_complete(g, ok);
        start(e);
    }
}
