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

static void h_delay(struct nc_board *b, unsigned us)
{
    (void)b;
    nc_host_compute_ns((uint64_t)us * 1000);
}

static const struct nc_board_ops hostif_ops = {
    h_read32, h_write32, nc_board_read_words, nc_board_write_words, h_delay, NULL,
};

void nc_board_open_hostif(struct nc_board *b)
{
    b->ops = &hostif_ops;
    b->ctx = NULL;
    strcpy(b->name, "emulated board");
}
