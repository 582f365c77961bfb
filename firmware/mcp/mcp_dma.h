/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The two host-DMA engines (dma.c): request queues in front of each
 * engine, and the completion of each request by its kind.
 */
#ifndef NC_MCP_DMA_H
#define NC_MCP_DMA_H

#include "mcp_base.h"

/* DMA_PLUGIN0 + id: a transfer of collective id (mcp_fetch) */
enum dma_kind { DMA_SDMA, DMA_RDMA, DMA_EVENT, DMA_PLUGIN0 };
struct dma_req {            /* 32 bytes: a queue slot's address is a shift */
    uint8_t kind, port;
    uint16_t arg;           /* packet descriptor, rx buffer or event slot */
    uint32_t gen;           /* port generation when queued (RDMA, EVENT) */
    uint32_t lar, eah, eal, len;
    uint8_t last;           /* RDMA: buffer is released after this one */
    uint8_t pad[7];
};
/* Queue a transfer; false when the queue is full (callers size their pools
 * so that it never is). */
bool dma_queue(bool to_lanai, const struct dma_req *r);
/* The same without a copy: the free slot at the queue's tail (NULL when
 * full), filled by the caller, then queued by dma_push. */
struct dma_req *dma_slot(bool to_lanai);
void dma_push(bool to_lanai);
void dma_push_checked_l2e(void);    /* dma_push(false) for a fresh, non-empty request */
void dma_poll(uint32_t isr);
bool dma_busy(void);

#endif
