/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hal: register sequences for the engines (docs/lanai9-nic.md). */
#include "hal.h"

void hal_rx_arm(void *buf, uint32_t len)
{
    HAL_REG(L9_RMP) = (uint32_t)(uintptr_t)buf;
    HAL_REG(L9_RML) = (uint32_t)(uintptr_t)buf + len;  /* arms the engine */
}

void hal_rx_done(void)
{
    hal_isr_clear(L9_ISR_RECV | L9_ISR_HEAD | L9_ISR_BUFF | L9_ISR_ORUN1 | L9_ISR_ORUN2 |
                  L9_ISR_ORUN4 | L9_ISR_ILLEGAL_RX);
}

void hal_tx(const uint8_t *hdr, uint32_t route_len, const uint8_t *end)
{
    uint32_t start = (uint32_t)(uintptr_t)hdr - route_len;

    HAL_REG(L9_SMP) = start & ~7u;
    HAL_REG(L9_SA) = start & 7u;
    HAL_REG(L9_SMLT) = (uint32_t)(uintptr_t)end;
}

void hal_tx_gather(const uint8_t *hdr, uint32_t route_len, uint32_t hdr_len,
                   const uint8_t *payload, uint32_t len)
{
    uint32_t start = (uint32_t)(uintptr_t)hdr - route_len, p = (uint32_t)(uintptr_t)payload;

    HAL_REG(L9_SMP) = start & ~7u;
    HAL_REG(L9_SA) = start & 7u;
    HAL_REG(L9_SML) = (uint32_t)(uintptr_t)hdr + hdr_len;     /* more follows */
    /* the header piece is a few dozen bytes: a short wait, and the
     * engine's rule (docs/lanai9-nic.md: SEND, then the next piece) */
    while (!(hal_isr() & L9_ISR_SEND))
        ;
    HAL_REG(L9_SMP) = p & ~7u;
    HAL_REG(L9_SA) = p & 7u;
    HAL_REG(L9_SMLT) = p + len;
}

void hal_dma_start(volatile struct hal_dma_desc *d, bool to_lanai, uint32_t lar,
                   uint32_t eah, uint32_t eal, uint32_t len)
{
    d->next_flags = HAL_DMA_TERMINAL | (to_lanai ? HAL_DMA_E2L : 0);
    d->csum = 0xFFFFu;      /* the engine's write-back clears the low half */
    d->len = len;
    d->lar = lar;
    d->eah = eah;
    d->eal = eal;
    HAL_REG(L9_PULSE) = (uint32_t)(uintptr_t)d | (to_lanai ? 4u : 2u);
}
