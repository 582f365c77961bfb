/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A test collective for the receive path's hook (firmware/mcp/mcp_plugin.h
 * `data`, mcp_send_data, mcp_recv_take, mcp_recv_deliver), in the shape of
 * seed 004's NICVM broadcast module: a message travels a ring of NICs, and
 * each NIC on the way sends it on from the buffer it arrived in, and gives
 * it to its own host only once that send is acknowledged (the host DMA
 * postponed until the NIC's sends are done), or not at all (consumed).
 *
 * RELAY_CMD (struct relay_cmd): the NIC fetches len bytes (<= NC_FW_MTU)
 * from its host and sends them to the next node's port of the same
 * number; each receiver delivers and passes it on, hops receivers in all.
 * A node whose bit is set in `consume` passes it on without delivering.
 * A receiver without a receive buffer refuses the packet (the sender
 * retransmits it: flow control through the hook's MCP_RX_REFUSE).
 *
 * Built only into the test image (tests/plugin/image.c); its command and
 * packet type are the test's, not the contract's.
 */
#include "mcp_plugin.h"
#include "mcp_port.h"

#define RELAY_CMD  31u          /* above every command of the contract */
#define RELAY_TYPE 0xF0u        /* packet type 0x0AF0 */
#define RELAY_BUFS 8u           /* fetches in flight per NIC */

struct relay_cmd {
    uint32_t op;                /* RELAY_CMD */
    uint32_t hi, lo, len;       /* the message in the sender's host memory */
    uint32_t hops;              /* receivers, 1 .. */
    uint32_t consume;           /* bit n: node n consumes it */
    uint32_t pad[2];
};
_Static_assert(sizeof(struct relay_cmd) == 4u * NC_CMD_WORDS, "relay_cmd: one slot");

/* A fetch buffer: the origin's message, from its host until its send is
 * acknowledged. */
static struct {
    uint8_t data[NC_FW_MTU] __attribute__((aligned(8)));
    uint32_t used, port, len, hops, consume;
    uint16_t tok;
} rbufs[RELAY_BUFS];

/* A packet kept in rx buffer b until its forward is acknowledged. */
static struct {
    uint32_t busy, deliver, src, sport, len;
    uint16_t tok;
    const uint8_t *payload;
    struct mcp_rbuf rb;
} held[NC_FW_RX_BUFS];

static uint32_t next_node(void) { return my_node + 1 < n_nodes ? my_node + 1 : 0; }

static void origin_sent(uint16_t tok, uint32_t status)
{
    (void)status;
    for (uint32_t i = 0; i < RELAY_BUFS; i++)
        if (rbufs[i].used && rbufs[i].tok == tok)
            rbufs[i].used = 0;
    mcp_release(tok);
}

static void origin_fetched(uint32_t port, uint32_t gen, uint16_t i, bool last, bool ok)
{
    int tok = -1;

    (void)gen, (void)last;
    if (ok)
        tok = mcp_send_data(port, next_node(), port, RELAY_TYPE, rbufs[i].hops - 1,
                            rbufs[i].consume, rbufs[i].data, rbufs[i].len, origin_sent);
    if (tok < 0) {
        rbufs[i].used = 0;
        port_event(port, port_gen(port), NC_EV_ERROR, NC_ST_ENORES, RELAY_CMD, 0, 0, 0);
        return;
    }
    rbufs[i].tok = (uint16_t)tok;
}

static void relay_command(uint32_t port, const union nc_cmd *c)
{
    const struct relay_cmd *r = (const struct relay_cmd *)c;
    uint32_t i = 0;

    while (i < RELAY_BUFS && rbufs[i].used)
        i++;
    if (i == RELAY_BUFS || !r->hops || !r->len || r->len > NC_FW_MTU ||
        !port_mem_ok(port, r->hi, r->lo, r->len)) {
        port_event(port, port_gen(port), NC_EV_ERROR, i == RELAY_BUFS ? NC_ST_ENORES : NC_ST_EINVAL,
                   RELAY_CMD, 0, 0, 0);
        return;
    }
    rbufs[i].used = 1;
    rbufs[i].port = port;
    rbufs[i].len = r->len;
    rbufs[i].hops = r->hops;
    rbufs[i].consume = r->consume;
    if (!mcp_fetch(origin_fetched, port, port_gen(port), (uint16_t)i, rbufs[i].data, r->hi, r->lo,
                   r->len)) {
        rbufs[i].used = 0;
        port_event(port, port_gen(port), NC_EV_ERROR, NC_ST_ENORES, RELAY_CMD, 0, 0, 0);
    }
}

/* The forward of the packet in rx buffer b is acknowledged: now the host. */
static void forwarded(uint16_t tok, uint32_t status)
{
    (void)status;
    for (uint16_t b = 0; b < NC_FW_RX_BUFS; b++)
        if (held[b].busy && held[b].tok == tok) {
            held[b].busy = 0;
            if (held[b].deliver)
                mcp_recv_deliver(&held[b].rb, b, held[b].payload, held[b].len, held[b].src,
                                 held[b].sport);
            else
                mcp_rx_release(b);
        }
    mcp_release(tok);
}

static enum mcp_rx_verdict relay_data(uint32_t src, const struct nc_pkt *h, uint16_t b)
{
    uint32_t left = h->pad2[0], consume = h->pad2[1];
    bool deliver = !((consume >> my_node) & 1u);
    const uint8_t *payload = (const uint8_t *)h + NC_PKT_HDR;
    struct mcp_rbuf rb;
    int tok;

    if (!h->len || h->len != h->msg_len)
        return MCP_RX_DONE;                 /* one packet per message: drop it */
    if (deliver && !mcp_recv_take(h->dst_port, h->len, &rb))
        return MCP_RX_REFUSE;               /* no receive buffer yet */
    if (left && (tok = mcp_send_data(h->dst_port, next_node(), h->dst_port, RELAY_TYPE, left - 1,
                                     consume, payload, h->len, forwarded)) >= 0) {
        held[b].busy = 1;
        held[b].deliver = deliver;
        held[b].src = src;
        held[b].sport = h->src_port;
        held[b].len = h->len;
        held[b].payload = payload;
        held[b].tok = (uint16_t)tok;
        held[b].rb = rb;
        return MCP_RX_KEEP;
    }
    if (!deliver)
        return MCP_RX_DONE;
    mcp_recv_deliver(&rb, b, payload, h->len, src, h->src_port);
    return MCP_RX_KEEP;                     /* b is the store's until it is done */
}

const struct mcp_coll nc_relay = {
    .cmd = RELAY_CMD,
    .type_first = RELAY_TYPE, .type_last = RELAY_TYPE,
    .command = relay_command,
    .data = relay_data,
};
