/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The receive side (rx.c): classification, delivery, ACK / NACK / REJECT,
 * delayed ACKs.
 */
#ifndef NC_MCP_RX_H
#define NC_MCP_RX_H

#include "mcp_base.h"

void rx_init(void);
void rx_packet(uint32_t isr);
void rx_port_closed(uint32_t port);
/* The cumulative ACK for peer, for a header going there now: whatever ACK
 * the peer was owed is then on its way (rx.c's delayed ACKs). */
uint32_t rx_ack_now(uint32_t peer);
void rx_ack_timer(void);            /* ISR.TIME1: the ACKs owed go out */

#endif
