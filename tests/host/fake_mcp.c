/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stands in for a LANai running firmware, on a fake-BAR file: waits until the
 * loader releases reset (the control register holds RESET_OFF), checks the
 * shared block was filled, then writes the ready word, as fw_ready.c does on
 * a real LANai. usage: fake_mcp BAR-FILE [timeout-ms]
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "board.h"
#include "nicoll/lanai9_regs.h"
#include "nicoll/shared_block.h"

int main(int argc, char **argv)
{
    struct nc_board b;
    char err[256];
    long ms = argc > 2 ? atol(argv[2]) : 5000;
    uint32_t sb;

    if (argc < 2 || nc_board_open_mmap(&b, argv[1], err, sizeof err)) {
        fprintf(stderr, "fake_mcp: %s\n", argc < 2 ? "usage: fake_mcp BAR [ms]" : err);
        return 2;
    }
    sb = NC_SB_ADDR(nc_board_read32(&b, L9_BAR_EEPROM + L9_EE_SRAM_SIZE));
    for (long t = 0; t < ms * 10; t++) {
        if (nc_board_read32(&b, L9_BAR_CONTROL) == L9_CTL_RESET_OFF) {
            if (nc_board_read32(&b, sb + NC_SB_OFF_MAGIC) != NC_SB_MAGIC)
                nc_board_write32(&b, sb + NC_SB_OFF_FW_STATUS, 1);
            nc_board_write32(&b, sb + NC_SB_OFF_READY, NC_SB_READY_MAGIC);
            nc_board_close(&b);
            return 0;
        }
        usleep(100);
    }
    fprintf(stderr, "fake_mcp: reset was never released\n");
    nc_board_close(&b);
    return 1;
}
