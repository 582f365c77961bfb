/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Switch multicast from the NIC (group.h; docs/fabric.md "Switch
 * multicast", "The management entity"). Nothing here is reliable: the
 * fabric's management packets and a switch group's packets are datagrams,
 * as InfiniBand's MADs and unreliable multicast are, and the host builds
 * what it needs on top (a multicast test, acknowledgements).
 *
 * Requests. NC_GRP_OP_CREATE, JOIN and LEAVE each send one NC_PT_MG_*
 * packet (struct nc_mgmt) to the entity's node over its unicast route.
 * The wire's tid is the NIC's own, port << 28 | a per-port serial number,
 * so that the answer, which comes back to the node and names no port,
 * finds its port and request slot by itself: the slot (serial mod
 * NC_ABI_GRP_REQS) holds the host's tid and the port's generation, and
 * the answer becomes an NC_EV_GROUP event there (nothing if the process
 * closed the port since). A request takes the place of its port's oldest
 * (a lost answer never holds a slot), and an answer no slot awaits is
 * dropped and counted.
 *
 * Sends. NC_GRP_OP_SEND fetches the payload into one of GRP_BUFS buffers
 * (or waits, in order, for one to be free), writes the group's two bytes
 * in place of the route and a GRP_DATA header with the group id in
 * pad2[0], and queues it as a raw packet; NC_EV_SENT once the send engine
 * has finished with it. The sender's own switch starts the tree.
 *
 * Receives. A GRP_DATA packet goes into the oldest receive buffer of its
 * destination port that holds it, as one whole message (the payload, then
 * NC_EV_GRECV with the source and the group), or is dropped and counted
 * when there is none: the NIC never waits for the host on a datagram.
 */
#include <stddef.h>

#include "mcp_plugin.h"
#include "mcp_port.h"
#include "mcp_route.h"
#include "group.h"
#include "nicoll/nc_mgmt.h"

#define GRP_FIRST (NC_PT_MGMT_FIRST & 0xFFu)
#define GRP_LAST  (NC_PT_GRP_DATA & 0xFFu)
#define GRP_BUFS  2u            /* sends being fetched or on the wire (**decision**: two, as
                                   host signals have: one fetched while the other is sent) */
#define GRP_WAIT  (NC_ABI_PORTS * NC_ABI_SEND_TOKENS)  /* sends waiting for a buffer: one per
                                                          host send token, never full */

_Static_assert(GRP_LAST == GRP_FIRST + 0x10u, "GRP_DATA follows the management types");
_Static_assert(NC_MGMT_LEN == NC_PKT_HDR, "a management packet is sent as a bare header");
_Static_assert(NC_ABI_GRP_MAX <= NC_FW_MTU, "a group packet is one packet");
_Static_assert((NC_ABI_GRP_REQS & (NC_ABI_GRP_REQS - 1)) == 0 && NC_ABI_PORTS <= 16u,
               "a request's slot and port are bits of its wire tid");

/* A request awaiting its answer, with the packet that carries it. */
struct grp_req {
    uint8_t pkt[8 + NC_MGMT_LEN] __attribute__((aligned(8)));   /* route, then the body */
    struct mcp_xpkt x;
    uint32_t tid;               /* on the wire */
    uint32_t htid, gen, op, sm;
    uint8_t used;               /* awaiting an answer */
    uint8_t wire;               /* its packet queued or on the wire */
};

struct grp_buf {
    uint8_t pkt[8 + NC_PKT_HDR + NC_ABI_GRP_MAX] __attribute__((aligned(8)));
    struct mcp_xpkt x;
    uint32_t used, port, gen, group, len, dport, cookie;
};

/* The plug-in's state, about 15 KB, lies in the MCP's arena (mcp_sram),
 * not in .bss: the 1 MiB the small code model's data must lie in
 * (firmware/mcp/nc_fw_config.h) is nearly full with the MCP's own (the
 * hazard-fixed LANai 9.0 link to within 1 KB). A board whose arena has no
 * room left refuses every command NC_ST_ENORES and drops every group
 * packet; the 1 MB boards' image, mcp_1m.img, is built without this
 * plug-in. The arena starts zero, as .bss does. */
struct grp_mem {
    struct grp_req req[NC_ABI_PORTS][NC_ABI_GRP_REQS];
    uint32_t serial[NC_ABI_PORTS];
    struct grp_buf buf[GRP_BUFS];
    struct {
        uint32_t port, gen, group, hi, lo, len, dport, cookie;
    } waitq[GRP_WAIT];
    uint32_t wq_head, wq_n;
};
static struct grp_mem *grp;     /* NULL: no SRAM for the plug-in */
static uint32_t grp_nobuf, grp_bad, grp_stale;

static void grp_init(void)
{
    grp = mcp_sram(sizeof(struct grp_mem));
}

/* ---- requests ----------------------------------------------------------- */
static void grp_answer(uint32_t port, uint32_t status, uint32_t tid, uint32_t op)
{
    port_event_group(port, port_gen(port), NC_EV_GROUP, status, tid, 0, 0, op, 0);
}

static void grp_req_sent(struct mcp_xpkt *x)
{
    struct grp_req *r = (struct grp_req *)((uint8_t *)x - offsetof(struct grp_req, x));

    r->wire = 0;
}

static void grp_request(uint32_t port, const struct nc_cmd_grp_mg *c)
{
    uint32_t op = c->grp_op, serial, type = NC_PT_MG_CREATE + 2u * (op - NC_GRP_OP_CREATE);
    struct grp_req *r;
    struct nc_mgmt *m;

    if (c->sm_node >= n_nodes || c->sm_node == my_node ||
        (op != NC_GRP_OP_CREATE && (c->group >= NC_MG_GROUP_LIMIT || c->node >= n_nodes)))
        return grp_answer(port, NC_ST_EINVAL, c->tid, op);
    if (!route_len(c->sm_node))
        return grp_answer(port, NC_ST_ENOROUTE, c->tid, op);
    serial = grp->serial[port] + 1u;
    r = &grp->req[port][serial % NC_ABI_GRP_REQS];
    if (r->wire)        /* its packet has not left yet: only a host far ahead of the wire */
        return grp_answer(port, NC_ST_ENORES, c->tid, op);
    grp->serial[port] = serial;
    r->tid = port << 28 | (serial & 0x0FFFFFFFu);
    r->htid = c->tid;
    r->gen = port_gen(port);
    r->op = op;
    r->sm = c->sm_node;
    r->used = 1;
    m = (struct nc_mgmt *)(r->pkt + 8);
    *m = (struct nc_mgmt){ .type = (uint16_t)type, .src = (uint16_t)my_node, .tid = r->tid,
                           .group = (uint16_t)(op == NC_GRP_OP_CREATE ? 0 : c->group),
                           .node = (uint16_t)(op == NC_GRP_OP_CREATE ? my_node : c->node) };
    r->x.hdr = r->pkt + 8;
    r->x.len = 0;
    r->x.dst = c->sm_node;
    r->x.payload = 0;
    r->x.done = grp_req_sent;
    r->wire = 1;
    mcp_xmit(&r->x);
}

/* An answer of the entity's (n bytes in the rx buffer): to the port whose
 * request it answers. */
static void grp_take_answer(uint32_t src, const struct nc_mgmt *m, uint32_t n)
{
    uint32_t port = m->tid >> 28;
    struct grp_req *r;

    if (n < NC_MGMT_LEN || port >= NC_ABI_PORTS) {
        grp_bad++;
        return;
    }
    r = &grp->req[port][m->tid % NC_ABI_GRP_REQS];
    if (!r->used || r->tid != m->tid || src != r->sm ||
        m->type != NC_PT_MG_CREATE + 2u * (r->op - NC_GRP_OP_CREATE) + 1u) {
        grp_stale++;
        return;
    }
    r->used = 0;
    port_event_group(port, r->gen, NC_EV_GROUP, NC_ST_OK, r->htid, m->status, src, r->op,
                     m->group);
}

/* ---- sends -------------------------------------------------------------- */
static void grp_start_waiting(void);

static void grp_send_end(struct grp_buf *g, uint32_t status)
{
    port_event_group(g->port, g->gen, NC_EV_SENT, status, g->cookie, g->len, my_node, g->dport,
                     g->group);
    g->used = 0;
    grp_start_waiting();
}

static void grp_sent(struct mcp_xpkt *x)
{
    grp_send_end((struct grp_buf *)((uint8_t *)x - offsetof(struct grp_buf, x)), NC_ST_OK);
}

static void grp_fetched(uint32_t port, uint32_t gen, uint16_t i, bool last, bool ok)
{
    struct grp_buf *g = &grp->buf[i];
    uint8_t *hdr = g->pkt + 8;
    struct nc_pkt *h = (struct nc_pkt *)hdr;

    (void)last;
    if (!ok || port_gen(port) != gen)
        return grp_send_end(g, NC_ST_EFAULT);   /* (no event if the port closed since) */
    *h = (struct nc_pkt){ .type = NC_PT_GRP_DATA, .src = (uint16_t)my_node,
                          .src_port = (uint8_t)port, .dst_port = (uint8_t)g->dport,
                          .msg_len = g->len, .len = g->len, .pad2 = { g->group, 0 } };
    hdr[-2] = (uint8_t)(NC_ROUTE_MCAST | g->group >> 8);
    hdr[-1] = (uint8_t)g->group;
    g->x.hdr = hdr;
    g->x.len = g->len;
    g->x.dst = MCP_XDST_OWN | 2u;
    g->x.payload = 0;
    g->x.done = grp_sent;
    mcp_xmit(&g->x);
}

static void grp_start(uint32_t i, uint32_t port, uint32_t group, uint32_t hi, uint32_t lo,
                      uint32_t len, uint32_t dport, uint32_t cookie)
{
    struct grp_buf *g = &grp->buf[i];

    /* field by field: a compound literal would zero the 4 KB buffer too */
    g->used = 1;
    g->port = port;
    g->gen = port_gen(port);
    g->group = group;
    g->len = len;
    g->dport = dport;
    g->cookie = cookie;
    if (!len)
        grp_fetched(port, g->gen, (uint16_t)i, true, true);
    else if (!mcp_fetch(grp_fetched, port, g->gen, (uint16_t)i, g->pkt + 8 + NC_PKT_HDR, hi, lo,
                        len))
        grp_send_end(g, NC_ST_ENORES);
}

/* A buffer is free: the oldest waiting send takes it. */
static void grp_start_waiting(void)
{
    for (uint32_t i = 0; i < GRP_BUFS && grp->wq_n; i++)
        if (!grp->buf[i].used) {
            uint32_t k = grp->wq_head;

            grp->wq_head = (grp->wq_head + 1) % GRP_WAIT;
            grp->wq_n--;
            /* not for a process that has closed the port since (its
             * memory was checked, not the new one's) */
            if (port_is_open(grp->waitq[k].port) &&
                port_gen(grp->waitq[k].port) == grp->waitq[k].gen)
                grp_start(i, grp->waitq[k].port, grp->waitq[k].group, grp->waitq[k].hi,
                          grp->waitq[k].lo, grp->waitq[k].len, grp->waitq[k].dport,
                          grp->waitq[k].cookie);
        }
}

static void grp_send(uint32_t port, const struct nc_cmd_grp_send *s)
{
    uint32_t i = 0;

    if (s->group >= NC_MG_GROUP_LIMIT || s->len > NC_ABI_GRP_MAX || s->dport >= NC_ABI_PORTS ||
        (s->len && !port_mem_ok(port, s->bus_hi, s->bus_lo, s->len))) {
        port_event_group(port, port_gen(port), NC_EV_SENT,
                         s->group < NC_MG_GROUP_LIMIT && s->len <= NC_ABI_GRP_MAX &&
                         s->dport < NC_ABI_PORTS ? NC_ST_EFAULT : NC_ST_EINVAL,
                         s->cookie, s->len, my_node, s->dport, s->group);
        return;
    }
    while (i < GRP_BUFS && grp->buf[i].used)
        i++;
    if (i < GRP_BUFS && !grp->wq_n)
        return grp_start(i, port, s->group, s->bus_hi, s->bus_lo, s->len, s->dport, s->cookie);
    if (grp->wq_n == GRP_WAIT) {     /* only a host that posts past its send tokens */
        port_event_group(port, port_gen(port), NC_EV_SENT, NC_ST_ENORES, s->cookie, s->len,
                         my_node, s->dport, s->group);
        return;
    }
    grp->waitq[(grp->wq_head + grp->wq_n) % GRP_WAIT] = (__typeof__(grp->waitq[0])){
        .port = port, .gen = port_gen(port), .group = s->group, .hi = s->bus_hi,
        .lo = s->bus_lo, .len = s->len,
        .dport = s->dport, .cookie = s->cookie };
    grp->wq_n++;
}

static void grp_command(uint32_t port, const union nc_cmd *c)
{
    const struct nc_cmd_group *g = (const struct nc_cmd_group *)c;

    if (!grp && g->grp_op != NC_GRP_OP_STATS) {     /* a board without the SRAM */
        if (g->grp_op == NC_GRP_OP_SEND)
            port_event(port, port_gen(port), NC_EV_SENT, NC_ST_ENORES,
                       ((const struct nc_cmd_grp_send *)c)->cookie, 0, 0, 0);
        else
            grp_answer(port, NC_ST_ENORES, ((const struct nc_cmd_grp_mg *)c)->tid, g->grp_op);
        return;
    }
    switch (g->grp_op) {
    case NC_GRP_OP_CREATE:
    case NC_GRP_OP_JOIN:
    case NC_GRP_OP_LEAVE:
        grp_request(port, (const struct nc_cmd_grp_mg *)c);
        break;
    case NC_GRP_OP_SEND:
        grp_send(port, (const struct nc_cmd_grp_send *)c);
        break;
    case NC_GRP_OP_STATS:
        port_event_group(port, port_gen(port), NC_EV_GROUP, NC_ST_OK,
                         ((const struct nc_cmd_grp_mg *)c)->tid, grp_nobuf, grp_bad,
                         NC_GRP_OP_STATS, grp_stale);
        break;
    default:
        port_event(port, port_gen(port), NC_EV_ERROR, NC_ST_EINVAL, NC_CMD_GROUP, 0, 0, 0);
    }
}

/* ---- receives ----------------------------------------------------------- */
/* A group's packet into a receive buffer of its port: the payload, then
 * NC_EV_GRECV (as mcp_recv_deliver, with the group); true: b is the
 * store's until its DMA is done. */
static bool grp_deliver(const struct nc_pkt *h, uint16_t b)
{
    struct mcp_rbuf rb;
    uint32_t st = NC_ST_OK;
    bool kept = false;

    if (!mcp_recv_take(h->dst_port, h->len, &rb)) {
        grp_nobuf++;        /* unreliable: dropped, the NIC never waits for its host */
        return false;
    }
    if (h->len && port_mem_ok(rb.port, rb.hi, rb.lo, h->len)) {
        mcp_store(rb.port, rb.gen, b, (const uint8_t *)h + NC_PKT_HDR, rb.hi, rb.lo, h->len);
        kept = true;
    } else if (h->len) {
        st = NC_ST_EFAULT;  /* the region was deregistered since the buffer was given */
    }
    port_event_group(rb.port, rb.gen, NC_EV_GRECV, st, rb.cookie, h->len, h->src, h->src_port,
                     h->pad2[0]);
    return kept;
}

static bool grp_raw(uint32_t src, const struct nc_pkt *h, uint32_t n, uint16_t b)
{
    if (!grp) {
        grp_nobuf++;
        return false;
    }
    if (h->type == NC_PT_GRP_DATA) {
        if (n != NC_PKT_HDR + h->len || h->len > NC_ABI_GRP_MAX || h->dst_port >= NC_ABI_PORTS ||
            h->offset || h->msg_len != h->len || h->pad2[0] >= NC_MG_GROUP_LIMIT) {
            grp_bad++;
            return false;
        }
        return grp_deliver(h, b);
    }
    if (h->type == NC_PT_MG_CREATED || h->type == NC_PT_MG_JOINED || h->type == NC_PT_MG_LEFT)
        grp_take_answer(src, (const struct nc_mgmt *)h, n);
    else
        grp_bad++;          /* a request, a switch's packet: not a NIC's business */
    return false;
}

/* A new process on the port awaits no answer of the old one's. */
static void grp_port_closed(uint32_t pi)
{
    if (!grp)
        return;
    for (uint32_t k = 0; k < NC_ABI_GRP_REQS; k++)
        grp->req[pi][k].used = 0;
}

const struct mcp_coll nc_swgroup = {
    .cmd = NC_CMD_GROUP,
    .type_first = GRP_FIRST, .type_last = GRP_LAST,
    .init = grp_init,
    .command = grp_command,
    .port_closed = grp_port_closed,
    .raw = grp_raw,
};
