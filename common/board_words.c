/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Block access to a board window made of single 32-bit accesses, for
 * backends that have nothing better (PIO in an emulated host, test boards).
 * The window is big-endian, so byte i of a block is byte i of SRAM.
 */
#include <string.h>

#include "board.h"
#include "nicoll/nc_endian.h"

void nc_board_read_words(struct nc_board *b, uint32_t off, void *buf, size_t len)
{
    uint8_t *d = buf;

    for (size_t i = 0; i < len; i += 4) {
        uint32_t w = b->ops->read32(b, off + (uint32_t)i);
        uint8_t bytes[4];

        nc_put_be32(bytes, w);
        memcpy(d + i, bytes, len - i < 4 ? len - i : 4);
    }
}

void nc_board_write_words(struct nc_board *b, uint32_t off, const void *buf, size_t len)
{
    const uint8_t *s = buf;

    for (size_t i = 0; i < len; i += 4) {
        uint8_t bytes[4] = { 0, 0, 0, 0 };
        if (len - i < 4)        /* keep the bytes after a partial last word */
            nc_board_read_words(b, off + (uint32_t)i, bytes, 4);
        memcpy(bytes, s + i, len - i < 4 ? len - i : 4);
        b->ops->write32(b, off + (uint32_t)i,
                        nc_get_be32(bytes));
    }
}
