/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The MCP core as a host for collectives (plugin.c). A collective is a
 * table of callbacks the core calls at its moments: a host command of the
 * collective's, an in-sequence packet of one of its types, a host-DMA
 * a port opened or closed. What a collective may ask of the core in
 * return is below: sequenced zero-length packets on send tokens from the
 * core's pool, each with its completion callback (the token is the
 * collective's until it gives it back), host-DMA into SRAM with a
 * completion callback, and, through mcp_port.h, events and a port's state.
 * The core names
 * no collective: the image (firmware/mcp_image.c) registers the ones it
 * holds in mcp_plugins(), which the core calls at start-up.
 *
 * A collective's packets travel on the ordinary reliable connections
 * (tx.c, rx.c): numbered, acknowledged (late: rx.c's delayed ACKs),
 * retransmitted, in order with messages; unless it sets `raw`: then they
 * are outside every connection's sequence, sent from its own buffers with
 * mcp_xmit and handed to it as they arrive, and it numbers, acknowledges
 * and retransmits them itself (multicast, firmware/coll/mcast.c). Their type is 0x0A00 | b for a
 * byte b in the collective's range; pad2[0..1] carry two words of the
 * collective's (include/nicoll/nc_wire.h).
 */
#ifndef NC_MCP_PLUGIN_H
#define NC_MCP_PLUGIN_H

#include "mcp_base.h"
#include "mcp_dma.h"
#include "mcp_port.h"

#define MCP_PLUGINS 7u      /* collectives one image may hold: barrier, multicast, host signals,
                               NICVM, switch multicast, the NIC reduction, one a test image adds */

enum mcp_rx_verdict { MCP_RX_REFUSE, MCP_RX_DONE, MCP_RX_KEEP };
#define MCP_STACK_RESERVE 32768u  /* SRAM below the stack's top no collective takes:
                                      the deepest call chain (the verifier's, under
                                      an upload) with room to spare */
#define MCP_RX_SPARE 2u     /* rx buffers a `data` callback always leaves free */

struct mcp_coll {
    uint32_t cmd;                   /* its host command (NC_CMD_*); 0: none */
    uint8_t type_first, type_last;  /* its packet types: low bytes, inclusive */
    void (*init)(void);             /* at registration */
    void (*command)(uint32_t port, const union nc_cmd *c);  /* read in place in the
                                                                ring: valid until it returns */
    /* an in-sequence packet of its types from node src */
    void (*packet)(uint32_t src, const struct nc_pkt *h);
    void (*port_open)(uint32_t port);   /* after its generation changed */
    void (*port_closed)(uint32_t port);
    /* Set: its packets are not in any connection's sequence (no sequence
     * check, no connection ACK; the collective numbers and acknowledges
     * them itself). Each one that arrives intact, of n bytes (header and
     * payload) in rx buffer b, is handed here; true: the collective keeps
     * b (its payload is being stored: mcp_store, or it gives b back later
     * with mcp_rx_release). */
    bool (*raw)(uint32_t src, const struct nc_pkt *h, uint32_t n, uint16_t b);
    /* Every retransmission period while any collective asked for it
     * (mcp_timer_need); true: call again next period. */
    bool (*timer)(void);
    /* An in-sequence packet of its types that carries a payload (h->len
     * bytes after the header, in rx buffer b), or any one when `packet` is
     * NULL, from node src; offset and msg_len as in a message's packet.
     * Called before the connection takes it: MCP_RX_REFUSE leaves it
     * untaken and unanswered (the sender's timer sends it again, as for a
     * port without a receive buffer: flow control), and must come before
     * anything else is done with it; MCP_RX_DONE takes it (b is free again)
     * and MCP_RX_KEEP takes it and leaves b with the collective (it sends
     * from it with mcp_send_data, delivers from it with mcp_recv_deliver or
     * mcp_store, or gives it back with mcp_rx_release). Either way the
     * packet is acknowledged at once. The core refuses the packet itself
     * (without calling) while fewer than MCP_RX_SPARE other rx buffers are
     * free, so that kept buffers never take the last ones the ACKs that
     * free them must land in. NULL: such packets are malformed
     * (dropped unanswered). This is the receive path's one hook for code
     * that acts on a packet before the host sees it (seed 004's NICVM and
     * NIC-based reduction): their own packet types, so DATA pays nothing. */
    enum mcp_rx_verdict (*data)(uint32_t src, const struct nc_pkt *h, uint16_t b);
};

/* Defined by the image: registers each collective it holds. */
void mcp_plugins(void);
/* Register c and call its init; its index, or -1 when the table is full or
 * its types or command are taken. */
int mcp_register(const struct mcp_coll *c);

/* ---- what the core does for collectives ------------------------------- */
/* A packet of type 0x0A00 | type (no payload) from local port to (node,
 * dport), in the connection's sequence, with words id0 and id1, on a token
 * from the pool (NC_FW_COLL_TOKENS); false if the pool is empty. When the
 * packet is acknowledged (or dropped: its port closed, status
 * NC_ST_ECLOSED) the core calls done(tok, status), which then owns the
 * token and gives it back with mcp_release; a NULL done gives it back at
 * once. */
bool mcp_send(uint32_t port, uint32_t node, uint32_t dport, uint8_t type, uint32_t id0,
              uint32_t id1, stoken_done_fn done);
/* mcp_send, but the packet carries len bytes (at most NC_FW_MTU) from
 * payload in SRAM (an rx buffer a `data` callback kept, or the
 * collective's own), read by the send engine each time the packet goes
 * (no copy: the gather of hal_tx_gather), so they must stay unchanged
 * until done runs. Numbered, acknowledged and retransmitted like data,
 * on the connection's reliable sequence and its send time-out. The token
 * (done's tok: the collective finds its own state by it), or -1 if the
 * pool is empty or len is too long. */
int mcp_send_data(uint32_t port, uint32_t node, uint32_t dport, uint8_t type, uint32_t id0,
                  uint32_t id1, const void *payload, uint32_t len, stoken_done_fn done);
/* Give a token of mcp_send's back to the pool. */
void mcp_release(uint16_t tok);
/* Host memory (hi:lo, len bytes, checked against port's registered
 * memory by the caller) into SRAM at to, on the E2L engine; then
 * done(port, gen, arg, true, ok). False if the queue is full. */
bool mcp_fetch(dma_done_fn done, uint32_t port, uint32_t gen, uint16_t arg, void *to,
               uint32_t hi, uint32_t lo, uint32_t len);

/* An unsequenced packet of a collective (raw types): hdr points at its
 * header in SRAM, 8-byte aligned, with 8 free bytes before it for the
 * route and len payload bytes after it. mcp_xmit queues it for dst; the
 * core's send loop puts it on the wire after the control packets and
 * before the connections' packets, and calls done(x) once the send engine
 * has finished with it (not an acknowledgement): done may rewrite the
 * header and dst and queue the same packet again (seed 000 section 5.1's
 * multisend). A node without a route drops it (done is still called).
 * With payload set, the len payload bytes are sent from there instead of
 * after the header (a forwarded packet's payload in its rx buffer: no
 * copy; hal_tx_gather). */
/* dst MCP_XDST_OWN | n: the collective wrote the packet's n-byte route
 * (n <= 8) into the bytes before hdr itself (a switch group's two bytes,
 * include/nicoll/nc_mgmt.h), which the core sends as they are. */
#define MCP_XDST_OWN 0x80000000u
struct mcp_xpkt {
    struct mcp_xpkt *next;          /* the core's */
    uint8_t *hdr;
    uint32_t len, dst;
    const uint8_t *payload;         /* NULL: after the header */
    void (*done)(struct mcp_xpkt *x);
};
void mcp_xmit(struct mcp_xpkt *x);
/* mcp_xmit, but straight on the wire when the engine is free and nothing
 * waits ahead (ctrl.c); from any path, a done callback's too (the send
 * loop sees the engine taken). */
void mcp_xmit_now(struct mcp_xpkt *x);
/* Store len bytes at from (in rx buffer b, handed to a raw callback) into
 * host memory hi:lo of port (generation gen: dropped if it changed), on
 * the L2E engine; b is free again afterwards. Events posted after this
 * (port_event) reach the host after the payload (one FIFO). */
void mcp_store(uint32_t port, uint32_t gen, uint16_t b, const void *from, uint32_t hi,
               uint32_t lo, uint32_t len);
/* mcp_store, but b stays held: done(port, gen, arg, true, ok) runs once
 * the payload is in host memory (or dropped: generation changed), and the
 * collective gives b back itself (mcp_rx_release) once it is done with it
 * too (a packet stored and forwarded from the same buffer). */
void mcp_store_cb(dma_done_fn done, uint32_t port, uint32_t gen, uint16_t arg,
                  const void *from, uint32_t hi, uint32_t lo, uint32_t len);
/* A receive buffer the host of port pi provided, taken for a message a
 * collective delivers later (mcp_recv_deliver), as DATA's first packet
 * takes one: the oldest that holds len bytes. false (nothing taken) when
 * the port is not open or has none: a `data` callback then refuses its
 * packet, and the sender is held back until the host provides one. */
struct mcp_rbuf {
    uint32_t port, gen, hi, lo, len, cookie;
};
bool mcp_recv_take(uint32_t pi, uint32_t len, struct mcp_rbuf *rb);
/* Deliver len bytes at from (in rx buffer b) into rb as one message from
 * (src, sport): the payload into host memory, then the port's RECV event,
 * exactly as a DATA message's (NC_ST_EFAULT, nothing written, when the
 * region was deregistered since; nothing at all when the port's process
 * closed it); b is free again afterwards. */
void mcp_recv_deliver(const struct mcp_rbuf *rb, uint16_t b, const void *from, uint32_t len,
                      uint32_t src, uint32_t sport);
/* Give back an rx buffer a raw or data callback kept. */
void mcp_rx_release(uint16_t b);
/* Have the collectives' timer callbacks run from the next period on. */
void mcp_timer_need(void);
/* bytes of SRAM above the image and below the stack (the arena), 64-byte
 * aligned, for state too large for the 1 MiB the small code model
 * addresses (reached through the pointer only); NULL when the board's SRAM
 * has no more room. For init callbacks: the arena is handed out in the
 * order the collectives register, never given back, and starts zero (the
 * loader zeroes SRAM). MCP_STACK_RESERVE bytes below the stack's top stay
 * the stack's. Where NC_FW_HOOK is (nc_fw_config.h). */
void *mcp_sram(uint32_t bytes);

/* ---- what the core's parts call ---------------------------------------- */
void plugin_init(void);
/* the collective that owns packet type `type`, or NULL */
const struct mcp_coll *plugin_of_type(uint32_t type);
bool plugin_command(uint32_t port, const union nc_cmd *c);   /* false: no one takes it */
void plugin_port_open(uint32_t port);
void plugin_port_closed(uint32_t port);
/* The timer callbacks, if any collective asked for them; true: one wants
 * more. */
extern bool plugin_ticking;
bool plugin_timer_run(void);
static inline bool plugin_timer(void) { return plugin_ticking && plugin_timer_run(); }

#endif
