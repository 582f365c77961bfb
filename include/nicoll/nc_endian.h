/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Big-endian loads and stores on byte arrays: the one place that spells
 * them out. Everything the LANai keeps in memory and puts on the wire is
 * big-endian (its native order), while the hosts that read SRAM images,
 * packets, firmware images and ELF files are usually little-endian; going
 * byte by byte is correct on either and needs no alignment.
 */
#ifndef NICOLL_NC_ENDIAN_H
#define NICOLL_NC_ENDIAN_H

#include <stdint.h>

static inline uint16_t nc_get_be16(const uint8_t *p)
{
    return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static inline uint32_t nc_get_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void nc_put_be16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static inline void nc_put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

#endif
