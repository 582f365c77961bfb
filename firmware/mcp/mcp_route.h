/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Source routes to the other nodes (route.c), as the host loaded them
 * into the ABI block.
 */
#ifndef NC_MCP_ROUTE_H
#define NC_MCP_ROUTE_H

#include "mcp_base.h"

/* Put the route to a node in the 8 bytes before hdr (8-byte aligned);
 * its length, or 0 bytes if the host has not loaded it. */
uint32_t route_to(uint32_t node, uint8_t *hdr);
/* The route's length alone (0: none). */
uint32_t route_len(uint32_t node);

#endif
