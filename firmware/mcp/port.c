/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Ports: the host commands of each port's ring (nc_abi.h), the port's
 * registered-memory table (the NIC moves data only to and from memory the
 * port registered: protection between processes), its receive tokens, its
 * send tokens, and its event ring in host memory, filled by DMA.
 */
#include "mcp_port.h"
#include "mcp_dma.h"
#include "mcp_route.h"
#include "mcp_tx.h"
#include "mcp_rx.h"
#include "mcp_plugin.h"
#include "mcp_prof.h"

struct port ports[NC_ABI_PORTS];
uint32_t port_send_timeout[NC_ABI_PORTS];
struct stoken stok[NC_COLL_TOK0 + NC_FW_COLL_TOKENS];

/* Event records waiting for (or in) their DMA to the host. */
static uint32_t ev_stage[NC_FW_EV_STAGE][NC_EV_WORDS] __attribute__((aligned(8)));
static uint16_t ev_free[NC_FW_EV_STAGE];
static uint32_t ev_nfree;

/* An event's DMA is done: its staging slot is free, and the host is told. */
static void event_dma_done(uint32_t port, uint32_t gen, uint16_t slot, bool last, bool ok)
{
    (void)port, (void)gen, (void)last, (void)ok;
    ev_free[ev_nfree++] = slot;
    hal_host_signal();
}

/* A message's send token: its SENT event, unless its port closed first
 * (the process is gone: no event), then the token is free. */
static void message_done(uint16_t tok, uint32_t status)
{
    struct stoken *t = &stok[tok];

    NC_OPAQUE(t);
    if (status != NC_ST_ECLOSED)
        port_event(t->port, t->gen, NC_EV_SENT, status, t->cookie, t->len, t->dst, t->dst_port);
    t->used = 0;
}

void ports_init(void)
{
    for (uint32_t i = 0; i < NC_FW_EV_STAGE; i++)
        ev_free[i] = (uint16_t)i;
    ev_nfree = NC_FW_EV_STAGE;
    /* the ports' send tokens always carry messages: their callback is set
     * once here, not at every SEND (four instructions a message) */
    for (uint32_t k = 0; k < NC_ABI_PORTS * NC_ABI_SEND_TOKENS; k++)
        stok[k].done = message_done;
}

bool port_check(const struct port *p, uint32_t hi, uint32_t lo, uint32_t len)
{
    uint64_t a = (uint64_t)hi << 32 | lo;

    for (uint32_t i = 0; i < NC_ABI_REGIONS; i++) {
        const struct region *r = &p->reg[i];
        uint64_t b = (uint64_t)r->hi << 32 | r->lo;

        if (r->valid && a >= b && a - b <= r->len && len <= r->len - (uint32_t)(a - b))
            return true;
    }
    return false;
}

static inline __attribute__((always_inline)) void post_event(uint32_t pi, uint32_t gen,
    uint32_t type, uint32_t status, uint32_t cookie, uint32_t len, uint32_t src,
    uint32_t src_port, uint32_t w7)
{
    struct port *p = &ports[pi];
    struct dma_req *r;
    uint32_t *e, slot, off, lo, hi;

    PROF(4);
    if (!p->open || p->gen != gen || !ev_nfree)
        return;     /* the process is gone; ev_nfree > 0 by sizing */
    r = dma_slot(false);
    if (!r)
        return;     /* cannot happen by sizing (nc_fw_config.h) */
    NC_OPAQUE(r);
    NC_OPAQUE(p);
    slot = ev_free[--ev_nfree];
    e = ev_stage[slot];
    NC_OPAQUE(e);
    e[0] = p->ev_next + 1;
    e[1] = type;
    e[2] = status;
    e[3] = cookie;
    e[4] = len;
    e[5] = src;
    e[6] = src_port;
    e[7] = w7;
    off = (p->ev_next & (p->ev_slots - 1)) * (NC_EV_WORDS * 4);   /* slots: a power of two */
    lo = p->ev_lo + off;
    hi = p->ev_hi + (lo < off);     /* the carry of the 64-bit bus address */
    p->ev_next++;
    /* filled in its queue slot: no request on the stack to copy */
    r->done = event_dma_done;
    r->checkgen = 1;
    r->port = (uint8_t)pi;
    r->arg = (uint16_t)slot;
    r->gen = gen;
    r->last = 1;
    PROF(5);
    if (!dma_start_now_l2e((uint32_t)(uintptr_t)e, hi, lo, NC_EV_WORDS * 4)) {
        r->lar = (uint32_t)(uintptr_t)e;
        r->eah = hi;
        r->eal = lo;
        r->len = NC_EV_WORDS * 4;
        dma_push_checked_l2e();
    }
    PROF(6);
}

void port_event(uint32_t pi, uint32_t gen, uint32_t type, uint32_t status, uint32_t cookie,
                uint32_t len, uint32_t src, uint32_t src_port)
{
    post_event(pi, gen, type, status, cookie, len, src, src_port, 0);
}

void port_event_group(uint32_t pi, uint32_t gen, uint32_t type, uint32_t status, uint32_t cookie,
                      uint32_t len, uint32_t src, uint32_t src_port, uint32_t group)
{
    post_event(pi, gen, type, status, cookie, len, src, src_port, group);
}


uint16_t port_take_rtoken(struct port *p, uint32_t len)
{
    /* the oldest buffer that holds the message (GM matches by size too);
     * rq is a ring of the tokens in the order they were given, so this is
     * almost always its head */
    for (uint32_t i = 0; i < p->nrq; i++) {
        uint32_t at = (p->rq_head + i) % NC_ABI_RECV_TOKENS;
        uint16_t k = p->rq[at];

        if (p->rtok[k].len < len)
            continue;
        if (i == 0) {
            p->rq_head = (p->rq_head + 1) % NC_ABI_RECV_TOKENS;
        } else {
            /* close the gap: the ones after it move up by one */
            for (uint32_t j = i + 1; j < p->nrq; j++) {
                uint32_t to = (p->rq_head + j - 1) % NC_ABI_RECV_TOKENS;

                p->rq[to] = p->rq[(to + 1) % NC_ABI_RECV_TOKENS];
            }
        }
        p->nrq--;
        p->rtok[k].valid = 0;
        p->rfree[p->nrfree++] = k;
        return k;
    }
    return NONE16;
}

static void refuse(uint32_t pi, uint32_t op, uint32_t status, uint32_t cookie)
{
    uint32_t type = op == NC_CMD_SEND || op == NC_CMD_SENDI ? NC_EV_SENT :
                    op == NC_CMD_RECV ? NC_EV_RECV : NC_EV_ERROR;

    port_event(pi, ports[pi].gen, type, status, type == NC_EV_ERROR ? op : cookie, 0, 0, 0);
}

/* A message of port pi into a free send token, queued and kicked: lo is
 * its host address, or with inl its payload's SRAM address (an inline
 * send). Inlined into command (as cmd_recv): out of line, each cost a
 * call and a frame more per message. */
static inline __attribute__((always_inline)) void send_message(uint32_t pi, uint32_t op,
    uint32_t hi, uint32_t lo, uint32_t len, uint32_t dst, uint32_t dport, uint32_t cookie,
    uint32_t inl)
{
    struct port *p = &ports[pi];

    if (!route_len(dst))
        return refuse(pi, op, NC_ST_ENOROUTE, cookie);
    for (uint32_t i = 0; i < NC_ABI_SEND_TOKENS; i++) {
        uint16_t k = (uint16_t)(pi * NC_ABI_SEND_TOKENS + i);
        struct stoken *t = &stok[k];

        if (t->used)
            continue;
        NC_OPAQUE(t);
        t->used = 1;
        t->port = (uint8_t)pi;
        t->dst_port = (uint8_t)dport;
        t->fence = 0;
        t->inl = (uint8_t)inl;
        t->dst = (uint16_t)dst;
        t->next = NONE16;
        t->gen = p->gen;
        t->hi = hi;
        t->lo = lo;
        t->len = len;
        t->cookie = cookie;
        t->built = t->acked = 0;
        t->started = 0;
        t->kind = 0;
        tx_message(k);
        /* straight on to the wire if the engine is free (latency) */
        tx_kick(dst);
        return;
    }
    refuse(pi, op, NC_ST_ENORES, cookie);
}

static inline __attribute__((always_inline)) void cmd_send(uint32_t pi, const struct nc_cmd_send *c)
{
    uint32_t hi = c->bus_hi, lo = c->bus_lo, len = c->len, dst = c->node, dport = c->port,
             cookie = c->cookie;

    if (dst >= n_nodes || dst >= NC_ABI_MAX_NODES || dport >= NC_ABI_PORTS || len > NC_ABI_MAX_MSG)
        return refuse(pi, NC_CMD_SEND, NC_ST_EINVAL, cookie);
    if (len && !port_check(&ports[pi], hi, lo, len))
        return refuse(pi, NC_CMD_SEND, NC_ST_EFAULT, cookie);
    send_message(pi, NC_CMD_SEND, hi, lo, len, dst, dport, cookie, 0);
}

/* An inline send: its payload is in the port's area of the host's token
 * (the cookie), where it stays until the SENT event; build() copies it
 * into the packet (docs/firmware.md "Inline sends"). */
static inline __attribute__((always_inline)) void cmd_sendi(uint32_t pi,
                                                             const struct nc_cmd_sendi *c)
{
    uint32_t len = c->len, dst = c->dst >> 8, dport = c->dst & 0xFFu, cookie = c->cookie;

    if (dst >= n_nodes || dst >= NC_ABI_MAX_NODES || dport >= NC_ABI_PORTS ||
        len > NC_ABI_INLINE_MAX || cookie >= NC_ABI_SEND_TOKENS)
        return refuse(pi, NC_CMD_SENDI, NC_ST_EINVAL, cookie);
    send_message(pi, NC_CMD_SENDI, 0,
                 (uint32_t)(uintptr_t)nc_abi_block.port[pi].sdata[cookie], len, dst, dport,
                 cookie, 1);
}

static inline __attribute__((always_inline)) void cmd_recv(uint32_t pi, const struct nc_cmd_recv *c)
{
    struct port *p = &ports[pi];
    uint32_t hi = c->bus_hi, lo = c->bus_lo, len = c->len, cookie = c->cookie;

    if (len > NC_ABI_MAX_MSG)
        return refuse(pi, NC_CMD_RECV, NC_ST_EINVAL, cookie);
    if (len && !port_check(p, hi, lo, len))
        return refuse(pi, NC_CMD_RECV, NC_ST_EFAULT, cookie);
    if (p->nrfree) {
        uint16_t i = p->rfree[--p->nrfree];
        struct rtoken *t = &p->rtok[i];

        t->valid = 1;
        t->hi = hi;
        t->lo = lo;
        t->len = len;
        t->cookie = cookie;
        p->rq[(p->rq_head + p->nrq++) % NC_ABI_RECV_TOKENS] = i;
        return;
    }
    refuse(pi, NC_CMD_RECV, NC_ST_ENORES, cookie);
}

static void port_reset(struct port *p)
{
    for (uint32_t i = 0; i < NC_ABI_REGIONS; i++)
        p->reg[i].valid = 0;
    for (uint32_t i = 0; i < NC_ABI_RECV_TOKENS; i++) {
        p->rtok[i].valid = 0;
        p->rfree[i] = (uint16_t)(NC_ABI_RECV_TOKENS - 1 - i);    /* token 0 first */
    }
    p->nrfree = NC_ABI_RECV_TOKENS;
    p->nrq = 0;
    p->rq_head = 0;
}

__attribute__((noinline)) static void command(uint32_t pi, const union nc_cmd *c)
{
    struct port *p = &ports[pi];
    volatile struct nc_abi_port *ap = &nc_abi_block.port[pi];
    uint32_t op = c->op;

    /* the commands of every message first: a switch tested OPEN, CLOSE
     * and the port's state before them (a dozen instructions each) */
    if (__builtin_expect(op == NC_CMD_SENDI, 1) && p->open)
        return cmd_sendi(pi, &c->sendi);
    if (op == NC_CMD_SEND && p->open)
        return cmd_send(pi, &c->send);
    if (op == NC_CMD_RECV && p->open)
        return cmd_recv(pi, &c->recv);
    switch (op) {
    case NC_CMD_OPEN:
        if (p->open || !c->open.ev_slots || (c->open.ev_slots & (c->open.ev_slots - 1)))
            return refuse(pi, c->op, NC_ST_EINVAL, 0);
        port_reset(p);
        port_send_timeout[pi] = NC_ABI_SEND_TIMEOUT_DEFAULT_US * 2u;     /* 0.5 us ticks */
        p->gen++;
        p->open = 1;
        p->ev_hi = c->open.ev_bus_hi;
        p->ev_lo = c->open.ev_bus_lo;
        p->ev_slots = c->open.ev_slots;
        p->ev_next = 0;
        ap->gen = p->gen;
        ap->state = 1;
        /* after the host sees the port open: a collective's work here
         * may take a while (the barrier rejects what it held) and
         * commands wait for it anyway */
        plugin_port_open(pi);
        return;
    case NC_CMD_CLOSE:
        if (!p->open)
            return;
        p->open = 0;
        p->gen++;
        port_reset(p);
        tx_port_closed(pi);
        rx_port_closed(pi);
        ap->gen = p->gen;
        ap->state = 0;
        plugin_port_closed(pi);
        return;
    }
    if (!p->open)
        return;     /* commands of a closed port are ignored */
    switch (c->op) {
    case NC_CMD_REG:
        if (c->reg.region >= NC_ABI_REGIONS || !c->reg.len)
            return refuse(pi, c->op, NC_ST_EINVAL, 0);
        p->reg[c->reg.region].hi = c->reg.bus_hi;
        p->reg[c->reg.region].lo = c->reg.bus_lo;
        p->reg[c->reg.region].len = c->reg.len;
        p->reg[c->reg.region].valid = 1;
        return;
    case NC_CMD_DEREG:
        if (c->dereg.region >= NC_ABI_REGIONS)
            return refuse(pi, c->op, NC_ST_EINVAL, 0);
        p->reg[c->dereg.region].valid = 0;
        return;
    /* RECV, SEND and SENDI of an open port went above */
    case NC_CMD_TIMEOUT:
        /* the send time-out of this port's messages (tx.c's tx_timer reads
         * it when one of them stalls) */
        if (c->timeout.timeout_us > NC_ABI_SEND_TIMEOUT_MAX_US)
            return refuse(pi, c->op, NC_ST_EINVAL, 0);
        port_send_timeout[pi] =
            (c->timeout.timeout_us ? c->timeout.timeout_us : NC_ABI_SEND_TIMEOUT_DEFAULT_US) * 2u;
        return;
    default:
        if (!plugin_command(pi, c))
            refuse(pi, c->op, NC_ST_EINVAL, 0);
        return;
    }
}

/* Execute the next command of port pi (out of line: the idle loop stays
 * a few loads long). */
__attribute__((noinline)) static void port_command(uint32_t pi)
{
    volatile struct nc_abi_port *ap = &nc_abi_block.port[pi];
    uint32_t cons = ports[pi].cons;

    /* read in place, not copied: the host writes this slot again only
     * after ap->cons has moved past it, below */
    ports[pi].cons = cons + 1;
    command(pi, (const union nc_cmd *)ap->cmd[cons % NC_ABI_CMD_SLOTS]);
    ap->cons = cons + 1;
}

/* One command per port per call: the loop stays responsive to packets. The
 * idle path only loads (prod, cons): an idle NIC leaves the machine state
 * unchanged, so the emulator can skip its time. */
void ports_poll(void)
{
    for (uint32_t pi = 0; pi < NC_ABI_PORTS; pi++) {
        if (nc_abi_block.port[pi].prod != ports[pi].cons)
            port_command(pi);
    }
}
