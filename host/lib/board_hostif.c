/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The board backend of a host program in the emulated cluster: the board
 * window through the host interface's PIO (lanai-emu/host/hostif.h), every
 * access a timed PIO, delays spent as host compute time. With it the same
 * loader (fwload.c) that flashes a real board boots an emulated one.
 */
#include <string.h>

#include "board.h"
#include "hostif.h"

static uint32_t h_read32(struct nc_board *b, uint32_t off)
{
    (void)b;
    return nc_host_pio_read32(off);
}

static void h_write32(struct nc_board *b, uint32_t off, uint32_t v)
{
    (void)b;
    nc_host_pio_write32(off, v);
}

/* Blocks go word by word, big-endian, as the window presents SRAM. */
static void h_read(struct nc_board *b, uint32_t off, void *buf, size_t len)
{
    uint8_t *d = buf;

    for (size_t i = 0; i < len; i += 4) {
        uint32_t w = h_read32(b, off + (uint32_t)i);
        uint8_t bytes[4] = { (uint8_t)(w >> 24), (uint8_t)(w >> 16), (uint8_t)(w >> 8), (uint8_t)w };
        memcpy(d + i, bytes, len - i < 4 ? len - i : 4);
    }
}

static void h_write(struct nc_board *b, uint32_t off, const void *buf, size_t len)
{
    const uint8_t *s = buf;

    for (size_t i = 0; i < len; i += 4) {
        uint8_t bytes[4] = { 0, 0, 0, 0 };
        if (len - i < 4)        /* keep the bytes after a partial last word */
            h_read(b, off + (uint32_t)i, bytes, 4);
        memcpy(bytes, s + i, len - i < 4 ? len - i : 4);
        h_write32(b, off + (uint32_t)i,
                  (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3]);
    }
}

static void h_delay(struct nc_board *b, unsigned us)
{
    (void)b;
    nc_host_compute_ns((uint64_t)us * 1000);
}

static const struct nc_board_ops hostif_ops = { h_read32, h_write32, h_read, h_write, h_delay, NULL };

void nc_board_open_hostif(struct nc_board *b)
{
    b->ops = &hostif_ops;
    b->ctx = NULL;
    strcpy(b->name, "emulated board");
}
