/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Message contents the tests can check at the receiver: a header naming
 * the sender, the message's index and a seed, then bytes derived from
 * them, so a corrupted, duplicated, reordered or stale message shows. */
#ifndef NC_TEST_PATTERN_H
#define NC_TEST_PATTERN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint8_t pat_byte(uint32_t seed, uint32_t src, uint32_t idx, size_t i)
{
    uint32_t x = seed * 2654435761u ^ src * 40503u ^ idx * 9973u ^ (uint32_t)i * 131u;
    return (uint8_t)(x ^ x >> 11 ^ x >> 19);
}

static inline void pat_fill(uint8_t *b, size_t len, uint32_t seed, uint32_t src, uint32_t idx)
{
    for (size_t i = 0; i < len; i++)
        b[i] = pat_byte(seed, src, idx, i);
    if (len >= 12) {
        memcpy(b, &src, 4);
        memcpy(b + 4, &idx, 4);
        memcpy(b + 8, &seed, 4);
    }
}

/* 0 if b holds message (seed, src, idx) of length len */
static inline int pat_check(const uint8_t *b, size_t len, uint32_t seed, uint32_t src, uint32_t idx)
{
    size_t i = 0;

    if (len >= 12) {
        uint32_t h[3];
        memcpy(h, b, 12);
        if (h[0] != src || h[1] != idx || h[2] != seed)
            return -1;
        i = 12;
    }
    for (; i < len; i++)
        if (b[i] != pat_byte(seed, src, idx, i))
            return -1;
    return 0;
}

/* the index written in a message's header (len >= 12), or ~0 */
static inline uint32_t pat_index(const uint8_t *b, size_t len)
{
    uint32_t idx = ~0u;
    if (len >= 12)
        memcpy(&idx, b + 4, 4);
    return idx;
}

#endif
