/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host side of tests/refsim/fw_pingpong.c for the myrinet QEMU machine
 * (lanai-run has loaded the firmware), so that the suite can run the
 * back-pressure scenario of test_refsim.c there too and compare: node 1
 * arms its buffer ARM_US late, node 0 pings with PAD bytes of padding.
 *   args: ARM_US PAD      prints "pingpong got=WORD send_ticks=N" (node 0)
 */
#include <stdio.h>
#include <stdlib.h>

#include "nicoll/hostif.h"
#include "nicoll/lanai9_regs.h"
#include "nicoll/shared_block.h"

int main(int argc, char **argv)
{
    unsigned me = nc_host_node();
    uint32_t sb = NC_SB_ADDR(nc_host_pio_read32(L9_BAR_EEPROM + L9_EE_SRAM_SIZE));
    uint8_t r[8] = { 0 };

    if (argc != 3 || nc_host_nodes() != 2) {
        nc_host_printf("usage: host_pingpong ARM_US PAD (2 nodes)\n");
        return 2;
    }
    if (nc_host_route(1 - me, r, sizeof r) != 1) {
        nc_host_printf("no one-byte route to node %u\n", 1 - me);
        return 1;
    }
    nc_host_pio_write32(sb + 0x44, r[0]);
    nc_host_pio_write32(sb + 0x50, (uint32_t)strtoul(argv[1], NULL, 0));
    nc_host_pio_write32(sb + 0x54, (uint32_t)strtoul(argv[2], NULL, 0));
    nc_host_pio_write32(L9_BAR_SPECIAL + L9_EIMR, L9_ISR_HOST_SIG);
    nc_host_pio_write32(sb + 0x40, 1);
    if (!nc_host_wait_irq(10000000)) {
        nc_host_printf("timeout: no HOST_SIG\n");
        return 1;
    }
    if (me == 0)
        nc_host_printf("pingpong got=%08x send_ticks=%u\n", nc_host_pio_read32(sb + 0x4C),
                       nc_host_pio_read32(sb + 0x58));
    return 0;
}
