/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The send side of the connections (tx.c): packetisation, the go-back-N
 * window (ref/proto nc_seq), retransmission, packet descriptors.
 */
#ifndef NC_MCP_TX_H
#define NC_MCP_TX_H

#include "mcp_base.h"

struct pktd {               /* a packet descriptor */
    uint8_t state;          /* PD_FREE, PD_SDMA, PD_READY */
    uint8_t dead;           /* discarded while its SDMA ran */
    uint16_t tok;           /* the message it belongs to */
    uint16_t peer;
    uint32_t seq, offset, len;
    uint8_t *hdr;           /* its packet buffer's header (a load: pkt_buf[i] is i * 4,144) */
    const uint8_t *payload; /* PD_GATHER: the payload, elsewhere in SRAM (mcp_send_data) */
} __attribute__((aligned(32)));     /* 28 bytes padded: pd[i] is one shift */
/* PD_GATHER: ready, its payload gathered from pd.payload as it goes; a
 * state of its own (PD_READY + the token's inl bit 2, tx.c's build) so
 * that the per-packet path tests nothing more for DATA. */
enum { PD_FREE, PD_SDMA, PD_READY, PD_GATHER = PD_READY + 2 };
void tx_init(void);
void tx_message(uint16_t tok);      /* a new send token for its connection; then tx_kick */
void tx_kick(uint32_t peer);        /* build and send peer's next packet now if the wire is free;
                                       tx_poll does the rest */
void tx_poll(uint32_t isr);
void tx_ack(uint32_t peer, uint32_t ack);
void tx_nack(uint32_t peer, uint32_t want);
void tx_reject(uint32_t peer, uint32_t seq);
/* The answer to a SYNC (rx.c rx_sync): the receiver took epoch; in the one
 * before (prev) it took everything up to last. */
void tx_sync_ack(uint32_t peer, uint32_t epoch, uint32_t prev, uint32_t last);
void tx_timer(void);
/* Have timer 0 run (a collective with work in flight: mcp_timer_need). */
void tx_timer_need(void);
void tx_port_closed(uint32_t port);  /* a local port closed: cancel its sends */
extern uint32_t tx_active;          /* connections with work: the loop skips tx when 0 */
void tx_fence(uint32_t peer, uint32_t port);
/* The NIC clock in MHz (the EEPROM clock value: MHz on the emulated boards,
 * docs/myrinet.md); scales the retransmission timeout. */
void tx_set_clock(uint32_t mhz);
extern uint32_t tx_rto;             /* the retransmission timeout, RTC ticks */
/* The loader's boot id (shared_block.h): the connections' first epoch and
 * sequence number (tx.c) */
void tx_set_boot(uint32_t boot_id);
/* Does epoch e start after cur (nc_wire.h: incarnation << 16 | count)? */
static inline bool tx_epoch_newer(uint32_t e, uint32_t cur)
{
    return (e >> 16) != (cur >> 16) || (int16_t)(uint16_t)(e - cur) > 0;
}

#endif
