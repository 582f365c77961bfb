/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host program for fw_ring.c (make bench-emu): starts the ring, lets it run
 * MS milliseconds of virtual time, prints how many packets this node
 * forwarded. Arguments: MS TOKENS LEN.
 */
#include <stdlib.h>

#include "nicoll/hostif.h"
#include "nicoll/lanai9_regs.h"
#include "nicoll/shared_block.h"

int main(int argc, char **argv)
{
    uint64_t ms = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
    uint32_t tokens = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 16;
    uint32_t len = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 0) : 64;
    uint32_t sb = NC_SB_ADDR(nc_host_pio_read32(L9_BAR_EEPROM + L9_EE_SRAM_SIZE));

    nc_host_pio_write32(sb + 0x104, tokens);
    nc_host_pio_write32(sb + 0x108, len);
    nc_host_pio_write32(sb + 0x100, 1);
    nc_host_compute_ns(ms * 1000000);
    nc_host_printf("forwarded=%u\n", nc_host_pio_read32(sb + 0x140));
    return 0;
}
