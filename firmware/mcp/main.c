/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The MCP: start-up and the event loop. The loop's idle path only loads
 * (ISR, the ports' command producers, the MCP's own state) and writes no
 * register, so the emulator can skip an idle NIC's time; the retransmission
 * timeout runs on timer 0 (ISR.TIME0), not on polling the RTC.
 */
#include "mcp_dma.h"
#include "mcp_port.h"
#include "mcp_tx.h"
#include "mcp_rx.h"
#include "mcp_ctrl.h"
#include "mcp_plugin.h"
#include "nicoll/shared_block.h"

extern char __mem_size[];
/* The top of SRAM as a word in .data: with -mcmodel=small (mk/firmware.mk)
 * the code addresses symbols in 21 bits, and __mem_size (2 MiB on the
 * LANai 9 link) is beyond them; a 32-bit data relocation is not. */
static char *volatile mem_top = __mem_size;

volatile struct nc_abi nc_abi_block __attribute__((aligned(4096)));
uint32_t my_node, n_nodes, my_boot;
#ifdef NC_MCP_PROFILE
volatile uint32_t mcp_prof[8], mcp_prof_t0, mcp_plog[256], mcp_plog_n;
#endif

/* crt0 calls this. SRAM is all zero when the loader releases reset (it
 * zeroes every byte before copying the image), so .bss is not cleared
 * again: clearing the MCP's ~600 KB would take longer than the loader's
 * 500 us handshake. There are no constructors. */
void __crt0_start(int argc, char **argv) __attribute__((noreturn));
void __crt0_start(int argc, char **argv)
{
    volatile uint32_t *sb = (volatile uint32_t *)NC_SB_ADDR((uint32_t)(uintptr_t)mem_top);

    (void)argc;
    (void)argv;
    my_node = sb[NC_SB_OFF_NODE_ID / 4];
    n_nodes = sb[NC_SB_OFF_NNODES / 4];
    nc_abi_block.magic = NC_ABI_MAGIC;
    nc_abi_block.version = NC_ABI_VERSION;
    nc_abi_block.nports = NC_ABI_PORTS;
    nc_abi_block.max_nodes = NC_ABI_MAX_NODES;
    ports_init();
    tx_init();
    tx_set_clock(sb[NC_SB_OFF_CLOCKVAL / 4]);
    my_boot = sb[NC_SB_OFF_BOOT_ID / 4];
    tx_set_boot(my_boot);
    rx_init();
    plugin_init();
    sb[NC_SB_OFF_ABI / 4] = (uint32_t)(uintptr_t)&nc_abi_block;
    sb[NC_SB_OFF_FW_STATUS / 4] = n_nodes > NC_ABI_MAX_NODES ? 1 : 0;
    sb[NC_SB_OFF_READY / 4] = NC_SB_READY_MAGIC;

    for (;;) {
        uint32_t isr = hal_isr();

        if (isr & L9_ISR_RECV)
            rx_packet(isr);
        if (dma_busy())
            dma_poll(isr);
        if (isr & L9_ISR_TIME0)
            tx_timer();
        if (isr & L9_ISR_TIME1)
            rx_ack_timer();
        if (tx_active || ctrl_pending())
            tx_poll(hal_isr());
        ports_poll();
    }
}
