/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The NIC-based barrier (seed 002 sections 3-5; docs/barrier.md): what the
 * MCP's parts call. The barrier's packets travel on the ordinary reliable
 * connections (tx.c, rx.c); this module decides what to send and when the
 * barrier is complete.
 */
#ifndef NC_COLL_BARRIER_H
#define NC_COLL_BARRIER_H

#include <stdbool.h>
#include <stdint.h>

struct nc_pkt;

void bar_init(void);
/* NC_CMD_BARRIER of port pi (a: the command words). */
void bar_cmd(uint32_t pi, const uint32_t *a);
/* The barrier description's DMA into SRAM (len bytes, queued in port
 * generation gen) finished; ok is false if the engine refused it. */
void bar_desc_done(uint32_t pi, uint32_t gen, uint32_t len, bool ok);
/* Port pi opened (after its generation changed): reject what was held. */
void bar_port_open(uint32_t pi);
/* Port pi closed: abort its barrier, forget its record. */
void bar_port_closed(uint32_t pi);
/* An in-sequence barrier packet (NC_PT_BAR_*) from node src. */
void bar_packet(uint32_t src, const struct nc_pkt *h);
/* A barrier packet's token is done (acknowledged, or never sent). */
void bar_token_free(uint16_t tok);

#endif
