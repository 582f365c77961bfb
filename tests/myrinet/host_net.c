/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host program for the myrinet tests (built as a shared object, one
 * instance per node). Runs after the machine loaded fw_net into the NIC:
 * writes the node's command into the host-shared block by PIO, waits for
 * the firmware's DONE (PIO reads, bounded), prints the results.
 *
 *   pair LEN          node 0 sends one packet of LEN bytes to node 1
 *   fanin LEN         every node but 0 sends one packet to node 0
 *   ring LEN COUNT    node i sends COUNT packets to i+1, receives COUNT
 *   same SPIN         every node idles SPIN loop turns, sends to itself
 *   idle MS           nothing: the firmware polls its command word for MS ms
 *   stream LEN COUNT  node 0 sends COUNT packets to node 1 back to back;
 *                     node 1 reports how many arrived within 3 ms
 *   pause LEN COUNT US  node 0 sends COUNT packets to node 1, which stops
 *                     arming its receive buffer for US microseconds after
 *                     the first; node 2 (after a 20 us head start for node
 *                     0) sends 2 packets to node 3. Every node reports, and
 *                     a sender the longest its send engine took per packet
 *                     (send_wait_ns)
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
    unsigned me = nc_host_node(), n = nc_host_nodes();
    uint32_t dst = me, len = 0, count = 0, spin = 0, expect = 0;
    const char *mode = argc > 1 ? argv[1] : "pair";
    uint32_t a = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 64;
    uint32_t b = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 0) : 1;
    unsigned tries;

    sb = NC_SB_ADDR(nc_host_pio_read32(L9_BAR_EEPROM + L9_EE_SRAM_SIZE));
    if (!strcmp(mode, "idle")) {
        nc_host_compute_ns((uint64_t)a * 1000000);
        return 0;
    }
    if (!strcmp(mode, "pair")) {
        len = a;
        if (me == 0) { dst = 1 % n; count = 1; }
        if (me == 1 % n) expect += 1;
    } else if (!strcmp(mode, "fanin")) {
        len = a;
        if (me) { dst = 0; count = 1; }
        else expect = n - 1;
    } else if (!strcmp(mode, "ring")) {
        len = a;
        dst = (me + 1) % n;
        count = expect = b;
        spin = (me * 37) % 100;
    } else if (!strcmp(mode, "stream")) {
        len = a;
        if (me == 0) { dst = 1 % n; count = b; }
        if (me == 1 % n) expect = b;
    } else if (!strcmp(mode, "pause")) {
        len = a;
        if (me == 0) { dst = 1 % n; count = b; }
        if (me == 1 % n) {
            expect = b;
            put(0x128, 1);
            put(0x12C, argc > 4 ? (uint32_t)strtoul(argv[4], NULL, 0) : 100);
        }
        if (me == 2 && n > 3) { dst = 3; count = 2; spin = 2000; }
        if (me == 3) expect = 2;
    } else if (!strcmp(mode, "same")) {
        spin = a;
        count = expect = 1;
        len = 16;
    } else {
        nc_host_printf("unknown mode '%s'\n", mode);
        return 2;
    }
    {
        /* the topology's route to dst (crossbar: one byte, 0x80 | dst) */
        uint8_t r[8] = { 0 };
        int rl = nc_host_route(dst, r, sizeof r);
        if (rl < 1) {
            nc_host_printf("no route to node %u\n", dst);
            return 1;
        }
        nc_host_pio_write_block(sb + 0x120, r, sizeof r);
        put(0x118, (uint32_t)rl);
    }
    put(0x104, dst);
    put(0x108, len);
    put(0x10C, count);
    put(0x110, spin);
    put(0x114, expect);
    put(0x100, 1);
    if (!strcmp(mode, "stream") && me == 1 % n && me != 0) {
        nc_host_compute_ns(3000000);
        nc_host_printf("stream rx=%u linkdown=%u\n", get(0x144), get(0x15C));
        return 0;
    }
    for (tries = 0; tries < 2000 && get(0x140) != 1; tries++)
        nc_host_compute_ns(5000);
    if (tries == 2000) {
        nc_host_printf("timeout: firmware not done\n");
        return 1;
    }
    nc_host_printf("done rx=%u len=%u isr=0x%08x sum=0x%x rtc=%u crc_errors=%u send_wait_ns=%u\n",
                   get(0x144), get(0x148), get(0x14C), get(0x150), get(0x154), get(0x158),
                   get(0x160) * 500);
    return 0;
}
