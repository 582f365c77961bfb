/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every part of the MCP uses: the HAL, the host ABI, the capacities,
 * the wire format, the sequence-number core, and two small helpers.
 */
#ifndef NC_MCP_BASE_H
#define NC_MCP_BASE_H

#include <stdbool.h>
#include <stdint.h>

#include "hal.h"
#include "nicoll/nc_abi.h"
#include "nc_fw_config.h"
#include "nc_seq.h"
#include "nicoll/nc_wire.h"

#define NONE16 0xFFFFu

/* The LANai backend folds a global array's address into every access of
 * an element's field (a constant load and an indexed access: two
 * instructions a field, and registers held for each constant). Hiding the
 * element's address from the optimiser makes the accesses base + offset,
 * one instruction each; for code that touches many fields of one element. */
#define NC_OPAQUE(ptr) __asm__("" : "+r"(ptr))

/* This node, the cluster's size and the loader's boot id of this MCP
 * (main.c, from the shared block: 0 at a board's first load, one more at
 * each later one), and the block the host and the MCP share (nc_abi.h). */
extern uint32_t my_node, n_nodes, my_boot;
extern volatile struct nc_abi nc_abi_block;

/* An inline payload (nc_abi.h NC_CMD_SENDI): len bytes from the port's
 * inline area into a packet, as whole words (both are word-aligned SRAM;
 * the area holds whole words). For the core's sends and the collectives'. */
static inline __attribute__((always_inline)) void mcp_copy_inline(uint32_t *to,
                                                                  const uint32_t *from,
                                                                  uint32_t len)
{
    for (uint32_t w = 0; w < (len + 3u) / 4u; w++)
        to[w] = from[w];
}

#endif
