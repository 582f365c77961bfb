/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Control packets waiting for the wire (ctrl.c): ACK, NACK, REJECT.
 */
#ifndef NC_MCP_CTRL_H
#define NC_MCP_CTRL_H

#include "mcp_base.h"

void ctrl_queue(uint32_t peer, uint16_t type, uint32_t seq);
/* the same with the header's epoch and first word (SYNC, SYNC_ACK) */
void ctrl_queue_ext(uint32_t peer, uint16_t type, uint32_t seq, uint32_t epoch,
                    uint32_t word);
bool ctrl_pending(void);
bool ctrl_send_one(void);           /* only when ISR.SEND; false: nothing went */
void ctrl_ack(uint32_t peer);       /* an ACK now (queued if it must wait) */

#endif
