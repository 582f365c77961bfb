/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The two host-DMA engines (dma.c): request queues in front of each
 * engine, and the completion of each request by its kind.
 */
#ifndef NC_MCP_DMA_H
#define NC_MCP_DMA_H

#include "mcp_base.h"

/* A request's completion callback, as GM's DMA descriptors carry theirs:
 * called once the engine moved the block (ok) or refused it (!ok: a bus
 * address the host does not have), or at once for a request that moves
 * nothing (len 0, or its port closed since: checkgen). The request's queue
 * slot is free again when it runs, so it gets the fields, not the request. */
typedef void (*dma_done_fn)(uint32_t port, uint32_t gen, uint16_t arg, bool last, bool ok);
struct dma_req {            /* 32 bytes: a queue slot's address is a shift */
    dma_done_fn done;
    uint8_t port;
    uint8_t last;           /* RDMA: buffer is released after this one */
    uint8_t checkgen;       /* dropped (len taken as 0) if port's generation is no longer gen */
    uint8_t pad;
    uint16_t arg;           /* the owner's: packet descriptor, rx buffer, event slot */
    uint16_t pad2;
    uint32_t gen;           /* port generation when queued */
    uint32_t lar, eah, eal, len;
};
/* Queue a transfer: the free slot at the queue's tail (NULL when full;
 * callers size their pools so that it never is), filled by the caller,
 * then queued by dma_push. */
struct dma_req *dma_slot(bool to_lanai);
void dma_push(bool to_lanai);
void dma_push_checked_l2e(void);    /* dma_push(false) for a fresh, non-empty request */
/* The L2E slot dma_slot(false) gave, for a fresh, non-empty request whose
 * callback fields (done, port, gen, arg, last, checkgen) are filled: if the
 * engine is idle with nothing queued, it starts now from these values and
 * true is returned (the slot's lar, eah, eal, len are never read then);
 * else false, and the caller fills them and calls dma_push_checked_l2e. */
bool dma_start_now_l2e(uint32_t lar, uint32_t eah, uint32_t eal, uint32_t len);
/* dma_push(false) without starting: the next L2E request (the payload's
 * event) joins it in one chain, which dma_start_l2e starts. */
void dma_hold_l2e(void);
void dma_start_l2e(void);
void dma_poll(uint32_t isr);
bool dma_busy(void);

#endif
