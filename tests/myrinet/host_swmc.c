/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host program for tests/myrinet/swmc (one instance per node), run after
 * the machine loaded fw_swmc: node 0 writes the group's table entry and
 * sends COUNT multicast packets of LEN bytes to group GROUP, every other
 * node expects COUNT copies. Arguments: GROUP COUNT LEN. With the first
 * argument "entity": entity SM MEMBERS COUNT LEN, the management entity on
 * node SM (lanai-run --sm-node SM), node 0 creates the group, nodes 1 to
 * MEMBERS-1 join it (group 0, the first id the entity hands out) 200 us
 * later, each gets COUNT copies; the others do nothing. "entity-leave"
 * (same arguments): then node MEMBERS-1 leaves, and node 0 sends COUNT
 * more 1 ms later, which only the others get. Waits for the
 * firmware's DONE (PIO reads, bounded) and prints what it saw.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    if (argc > 1 && !strcmp(argv[1], "exhaust")) {
        /* exhaust SM: node 0 creates groups until the entity on SM refuses */
        unsigned smn = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : n - 1;
        uint8_t r[8] = { 0 };
        int rl = nc_host_route(smn, r, sizeof r);

        nc_host_pio_write_block(sb + 0x128, r, sizeof r);
        put(0x124, rl > 0 ? (uint32_t)rl : 0);
        put(0x118, 2);
        put(0x10C, me == 0);
        put(0x100, 1);
        for (tries = 0; tries < 4000 && get(0x140) != 1; tries++)
            nc_host_compute_ns(50000);
        if (me == 0)
            nc_host_printf("exhaust taken=%u refused_status=%u\n", get(0x158), get(0x148) - 1);
        return tries == 4000;
    }
    if (argc > 1 && (!strcmp(argv[1], "entity") || !strcmp(argv[1], "entity-leave"))) {
        int leave = !strcmp(argv[1], "entity-leave");
        unsigned smn = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : n - 1;
        uint32_t members = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 0) : n - 1;
        uint8_t r[8] = { 0 };
        int rl;

        count = argc > 4 ? (uint32_t)strtoul(argv[4], NULL, 0) : 4;
        len = argc > 5 ? (uint32_t)strtoul(argv[5], NULL, 0) : 64;
        group = 0;
        if (me == smn || me >= members) {
            count = 0;
            members = 0;
        }
        rl = nc_host_route(smn, r, sizeof r);
        nc_host_pio_write_block(sb + 0x128, r, sizeof r);
        put(0x124, rl > 0 ? (uint32_t)rl : 0);
        memset(r, 0, sizeof r);
        rl = nc_host_route(0, r, sizeof r);
        nc_host_pio_write_block(sb + 0x134, r, sizeof r);
        put(0x130, rl > 0 ? (uint32_t)rl : 0);
        put(0x118, 1);
        put(0x11C, members);
        put(0x120, 200);
        put(0x104, n);
        put(0x108, group);
        put(0x10C, me == 0 ? count : 0);
        put(0x110, len);
        put(0x114, me == 0 || !members ? 0 : leave && me != members - 1 ? 2 * count : count);
        put(0x13C, leave && (me == 0 || (members && me == members - 1)) ? count : 0);
        put(0x100, 1);
        for (tries = 0; tries < 400 && get(0x140) != 1; tries++)
            nc_host_compute_ns(50000);
        if (tries == 400) {
            nc_host_printf("timeout: firmware not done (copies %u, answer %u)\n",
                           get(0x144), get(0x148));
            return 1;
        }
        if (me == 0)
            nc_host_printf("creator answer=%u group=%u probes=%u ready_us=%u\n", get(0x148),
                           get(0x158), get(0x160), get(0x15C) / 2);
        else if (members && get(0x168))
            nc_host_printf("leaver answer=%u copies=%u bad=%u left=%u after_leave=%u\n",
                           get(0x148), get(0x144), get(0x150), get(0x168), get(0x164));
        else if (members)
            nc_host_printf("member answer=%u copies=%u bad=%u sum=0x%x\n", get(0x148),
                           get(0x144), get(0x150), get(0x14C));
        return 0;
    }
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
