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

/* Cycle profile of the barrier's receive path (a test build with
 * -DNC_BAR_PROFILE): bar_prof[i] sums RTC ticks from a packet's arrival
 * in rx_packet to point i; bar_prof[0] counts the packets. */
#ifdef NC_BAR_PROFILE
extern volatile uint32_t bar_prof[8], bar_prof_t0, bar_plog[256], bar_plog_n;
#define PLOG(id) (bar_plog[bar_plog_n++ & 255] = (uint32_t)(id) << 24 | \
                  (*(volatile uint32_t *)(0xFFFFFE00u + 0x68u) & 0xFFFFFF))
#define PROF0() (bar_prof_t0 = *(volatile uint32_t *)(0xFFFFFE00u + 0x68u))
#define PROF(i) (bar_prof[i] += *(volatile uint32_t *)(0xFFFFFE00u + 0x68u) - bar_prof_t0, \
                 bar_prof[0] += (i) == 1)
#else
#define PROF0() ((void)0)
#define PROF(i) ((void)0)
#define PLOG(id) ((void)0)
#endif

#endif
