/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host program for tests/myrinet/swmc (one instance per node), run after
 * the machine loaded fw_swmc: node 0 writes the group's table entry and
 * sends COUNT multicast packets of LEN bytes to group GROUP, every other
 * node expects COUNT copies. Arguments: GROUP COUNT LEN. Waits for the
 * firmware's DONE (PIO reads, bounded) and prints what it saw.
 */
#include <stdio.h>
#include <stdlib.h>

#include "nicoll/hostif.h"
#include "nicoll/lanai9_regs.h"
#include "nicoll/shared_block.h"

static uint32_t sb;

static void put(uint32_t off, uint32_t v)
{
    nc_host_pio_write32(sb + off, v);
}

static uint32_t get(uint32_t off)
{
    return nc_host_pio_read32(sb + off);
}

int main(int argc, char **argv)
{
    unsigned me = nc_host_node(), n = nc_host_nodes(), tries;
    uint32_t group = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 5;
    uint32_t count = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 4;
    uint32_t len = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 0) : 64;

    sb = NC_SB_ADDR(nc_host_pio_read32(L9_BAR_EEPROM + L9_EE_SRAM_SIZE));
    put(0x104, n);
    put(0x108, group);
    put(0x10C, me == 0 ? count : 0);
    put(0x110, len);
    put(0x114, me == 0 ? 0 : count);
    put(0x100, 1);
    /* polls 50 us apart: longer than the agent's 10 us, so that the
     * machine skips idle stretches past the agent's action */
    for (tries = 0; tries < 400 && get(0x140) != 1; tries++)
        nc_host_compute_ns(50000);
    if (tries == 400) {
        nc_host_printf("timeout: firmware not done (copies %u, ack %u)\n",
                       get(0x144), get(0x148));
        return 1;
    }
    if (me == 0)
        nc_host_printf("sender ack=%u ack_rtc=%u\n", get(0x148), get(0x154));
    else
        nc_host_printf("copies=%u bad=%u sum=0x%x\n", get(0x144), get(0x150), get(0x14C));
    return 0;
}
