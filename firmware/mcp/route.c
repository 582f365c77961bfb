/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Source routes: the host writes each node's route into the ABI block
 * (libnicoll's first open); the MCP copies a route out the first time it
 * sends to that node.
 */
#include "mcp_route.h"

/* The routes, copied out of the ABI block the first time each is used: the
 * 8 bytes before a packet header (the route right-aligned, as hal_tx sends
 * it) as two words, and the length. The host writes a node's route before
 * it raises routes_valid past the node and never again (libnicoll's first
 * open), so a copy taken after that stays right; copying two words per
 * packet replaces a byte loop over volatile SRAM. */
static uint32_t rt_img[NC_ABI_MAX_NODES][2];
static uint8_t rt_len[NC_ABI_MAX_NODES];

static uint32_t route_load(uint32_t node)
{
    uint8_t img[8] __attribute__((aligned(4))) = { 0 };
    uint32_t len;

    if (node >= NC_ABI_MAX_NODES || nc_abi_block.routes_valid <= node)
        return 0;
    len = nc_abi_block.routes[node][0];
    if (!len || len > NC_ABI_MAX_ROUTE)
        return 0;
    for (uint32_t i = 0; i < len; i++)
        img[8 - len + i] = nc_abi_block.routes[node][1 + i];
    rt_img[node][0] = ((uint32_t *)img)[0];
    rt_img[node][1] = ((uint32_t *)img)[1];
    rt_len[node] = (uint8_t)len;
    return len;
}

uint32_t route_len(uint32_t node)
{
    if (node < NC_ABI_MAX_NODES && rt_len[node])
        return rt_len[node];
    return route_load(node);
}

uint32_t route_to(uint32_t node, uint8_t *hdr)
{
    uint32_t len = route_len(node);

    if (len) {
        /* hdr is 8-byte aligned (hal_tx) */
        ((uint32_t *)hdr)[-2] = rt_img[node][0];
        ((uint32_t *)hdr)[-1] = rt_img[node][1];
    }
    return len;
}
