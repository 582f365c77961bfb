/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The seeded byte pattern of the host-DMA tests (tests/myrinet/dma), shared
 * by the LANai firmware fw_dma.c and the host program host_dma.c so that
 * either side can fill a buffer and the other check it. Byte i of the
 * pattern for seed s is the top byte of a xorshift32 step of s + i, so
 * every offset of every seed differs and a shifted copy is caught too.
 */
#ifndef NICOLL_DMA_PATTERN_H
#define NICOLL_DMA_PATTERN_H

#include <stdint.h>

static inline uint8_t dma_pattern(uint32_t seed, uint32_t i)
{
    uint32_t x = seed * 0x9E3779B1u + i + 1;

    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return (uint8_t)(x >> 24);
}

#endif
