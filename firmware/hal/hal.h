/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hal: the only code of the MCP that touches the hardware (special
 * registers, the send and receive engines, host-DMA descriptors, the
 * timers and the clock, the host signal). Everything above it is plain C on SRAM.
 */
#ifndef NC_HAL_H
#define NC_HAL_H

#include <stdbool.h>
#include <stdint.h>

#include "nicoll/lanai9_regs.h"

#define HAL_REG(off) L9_SPECIAL(off)

static inline uint32_t hal_isr(void) { return HAL_REG(L9_ISR); }
static inline void hal_isr_clear(uint32_t bits) { HAL_REG(L9_ISR) = bits; }

/* The receive engine: arm for one packet into [buf, buf+len). */
void hal_rx_arm(void *buf, uint32_t len);
/* End of the packet just received (RMP after RECV). */
static inline uint32_t hal_rx_end(void) { return HAL_REG(L9_RMP); }
/* Clear every receive-related ISR bit after a packet was taken. */
void hal_rx_done(void);

/* Send the packet that starts 'route_len' bytes before 'hdr' (hdr is
 * 8-byte aligned, the route bytes right-aligned before it) and ends at
 * 'end'. Only when ISR.SEND is set. */
void hal_tx(const uint8_t *hdr, uint32_t route_len, const uint8_t *end);
/* The same packet in two pieces: the route and header (route_len bytes
 * before hdr .. hdr + hdr_len), then len payload bytes at payload,
 * anywhere in SRAM (a received packet forwarded from its rx buffer). The
 * engine takes the second piece once it reports SEND again after the
 * first; only when ISR.SEND is set. */
void hal_tx_gather(const uint8_t *hdr, uint32_t route_len, uint32_t hdr_len,
                   const uint8_t *payload, uint32_t len);

/* Host-DMA: one chain per engine at a time. A descriptor is 24 bytes,
 * 8-byte aligned, in SRAM. hal_dma_done() is a load-only check: the engine
 * writes 0 into csum[1] when the block completes (docs/nic.md). */
#define HAL_DMA_E2L      1u     /* flags in next's low bits (docs/lanai9-nic.md) */
#define HAL_DMA_TERMINAL 2u
struct hal_dma_desc {
    uint32_t next_flags;
    uint32_t csum;
    uint32_t len, lar, eah, eal;
};
void hal_dma_start(volatile struct hal_dma_desc *d, bool to_lanai, uint32_t lar,
                   uint32_t eah, uint32_t eal, uint32_t len);
/* A chain: each block written with hal_dma_block (next: the block after
 * it, NULL for the last), then the first one started with hal_dma_go. The
 * engine runs the blocks one after another without the CPU. */
static inline void hal_dma_block(volatile struct hal_dma_desc *d,
                                 volatile struct hal_dma_desc *next, bool to_lanai, uint32_t lar,
                                 uint32_t eah, uint32_t eal, uint32_t len)
{
    d->next_flags = (next ? (uint32_t)(uintptr_t)next : HAL_DMA_TERMINAL) |
                    (to_lanai ? HAL_DMA_E2L : 0);
    d->csum = 0xFFFFu;      /* the engine's write-back clears the low half */
    d->len = len;
    d->lar = lar;
    d->eah = eah;
    d->eal = eal;
}
/* Make d point to next (d keeps its direction bit). */
static inline void hal_dma_link(volatile struct hal_dma_desc *d, volatile struct hal_dma_desc *next)
{
    d->next_flags = (uint32_t)(uintptr_t)next | (d->next_flags & HAL_DMA_E2L);
}
static inline void hal_dma_go(volatile struct hal_dma_desc *d, bool to_lanai)
{
    HAL_REG(L9_PULSE) = (uint32_t)(uintptr_t)d | (to_lanai ? 4u : 2u);
}
static inline bool hal_dma_done(const volatile struct hal_dma_desc *d)
{
    return (d->csum & 0xFFFFu) == 0;
}

/* Timer 0: TIME0 latches 'ticks' x 0.5 us from now. */
static inline void hal_timer0(uint32_t ticks) { HAL_REG(L9_IT0) = ticks; }
/* Timer 1 (TIME1), the same way: the delayed ACKs. */
static inline void hal_timer1(uint32_t ticks) { HAL_REG(L9_IT1) = ticks; }
/* Timer 2 (TIME2), the same way: the host signals of firmware/coll/signal.c,
 * which the host's EIMR routes to its interrupt line apart from HOST_SIG. */
static inline void hal_timer2(uint32_t ticks) { HAL_REG(L9_IT2) = ticks; }
/* The real-time clock, in the timers' 0.5 us ticks. */
static inline uint32_t hal_rtc(void) { return HAL_REG(L9_RTC); }

/* Raise the host interrupt (ISR.HOST_SIG; the host masks it with EIMR). */
static inline void hal_host_signal(void) { HAL_REG(L9_ISR) = L9_ISR_HOST_SIG; }

#endif
