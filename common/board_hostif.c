/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The board backend of a host program in the emulated cluster: the board
 * window through the host interface's PIO (include/nicoll/hostif.h), every
 * access a timed PIO (blocks as PIO bursts), delays spent as host compute time. With it the same
 * loader (fwload.c) that flashes a real board boots an emulated one.
 */
#include <string.h>

#include "board.h"
#include "nicoll/hostif.h"

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

static void h_delay(struct nc_board *b, unsigned us)
{
    (void)b;
    nc_host_compute_ns((uint64_t)us * 1000);
}

/* Blocks go as PIO bursts of at most 4 KiB (one request each where the
 * machine supports bursts, word by word otherwise: the same time). */
#define BURST 4096u

static void h_read(struct nc_board *b, uint32_t off, void *buf, size_t len)
{
    (void)b;
    for (size_t i = 0; i < len; i += BURST)
        nc_host_pio_read_block(off + (uint32_t)i, (uint8_t *)buf + i,
                               (uint32_t)(len - i < BURST ? len - i : BURST));
}

static void h_write(struct nc_board *b, uint32_t off, const void *buf, size_t len)
{
    (void)b;
    for (size_t i = 0; i < len; i += BURST)
        nc_host_pio_write_block(off + (uint32_t)i, (const uint8_t *)buf + i,
                                (uint32_t)(len - i < BURST ? len - i : BURST));
}

static const struct nc_board_ops hostif_ops = {
    h_read32, h_write32, h_read, h_write, h_delay, NULL,
};

void nc_board_open_hostif(struct nc_board *b)
{
    b->ops = &hostif_ops;
    b->ctx = NULL;
    strcpy(b->name, "emulated board");
}
