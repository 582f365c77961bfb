/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host program for fw_idle.c (the idle-skipping tests): starts the loop
 * given as MODE ARG, writes the stop flag STOP_US microseconds later (if
 * not 0: the modes that wait for it), then polls DONE every 100 us and
 * prints what the firmware reported.
 *
 *   MODE ARG STOP_US
 */
#include <stdlib.h>

#include "nicoll/hostif.h"
#include "nicoll/lanai9_regs.h"
#include "nicoll/shared_block.h"

static uint32_t sb;

int main(int argc, char **argv)
{
    uint32_t mode = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 1;
    uint32_t arg = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 100;
    uint64_t stop_us = argc > 3 ? strtoull(argv[3], NULL, 0) : 0;
    unsigned tries;

    sb = NC_SB_ADDR(nc_host_pio_read32(L9_BAR_EEPROM + L9_EE_SRAM_SIZE));
    if (mode == 9 && nc_host_node() != 1) {
        mode = 1;       /* only node 1 traps; the others wait 2 x ARG ticks */
        arg *= 2;
    }
    nc_host_pio_write32(sb + 0x104, mode);
    nc_host_pio_write32(sb + 0x108, arg);
    nc_host_pio_write32(sb + 0x100, 1);
    if (stop_us) {
        nc_host_compute_ns(stop_us * 1000);
        nc_host_pio_write32(sb + 0x10C, 1);
    }
    /* DONE is polled rarely, so that the host's reads disturb little */
    for (tries = 0; tries < 1000 && nc_host_pio_read32(sb + 0x140) != 1; tries++)
        nc_host_compute_ns(100000);
    if (tries == 1000) {
        nc_host_printf("timeout: firmware not done\n");
        return mode == 9 ? 0 : 1;   /* a trapped NIC is expected to be silent */
    }
    nc_host_printf("mode %u done rtc=%u result=%u\n", mode,
                   nc_host_pio_read32(sb + 0x144), nc_host_pio_read32(sb + 0x148));
    return 0;
}
