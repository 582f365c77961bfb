/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CRC-32 (IEEE 802.3 / zlib: reflected polynomial 0xEDB88320, initial and
 * final value 0xFFFFFFFF). crc32("123456789") == 0xCBF43926. */
#ifndef NICOLL_CRC32_H
#define NICOLL_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* Continue a CRC: start with crc = 0 for a fresh computation. */
uint32_t crc32_update(uint32_t crc, const void *data, size_t len);

#endif
