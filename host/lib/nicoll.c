/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libnicoll over any backend: the port's command ring in the NIC's SRAM
 * (written by PIO), its event ring in host memory (written by the NIC's
 * DMA), tokens, the table of DMA-able memory and registered regions.
 * The layout and codes are the MCP's (include/nicoll/nc_abi.h).
 */
#include <stdlib.h>
#include <string.h>

#include "nicoll/lanai9_regs.h"
#include "nicoll/nc_abi.h"
#include "nc_backend.h"
#include "nicoll.h"
#include "nc_group.h"
#include "nc_internal.h"
#include "nc_nicvm.h"
#include "nicoll/shared_block.h"
#include "nicoll/nc_endian.h"

#define EV_SLOTS  64u    /* > NC_ABI_SEND_TOKENS + NC_ABI_RECV_TOKENS + NC_ABI_GRP_REQS (the
                            answers a port's requests may bring): never overrun */
_Static_assert(EV_SLOTS > NC_ABI_SEND_TOKENS + NC_ABI_RECV_TOKENS + NC_ABI_GRP_REQS,
               "the event ring holds every event the port's tokens and requests bring");
#define MAX_ALLOCS 64u
#define OPEN_POLLS 200u  /* 200 x 1 us for the MCP to take the OPEN */

struct alloc { uint8_t *ptr; size_t len; uint64_t bus; };
struct tok { bool used; void *ctx, *buf; size_t len; unsigned node, port; };

/* DMA-able memory belongs to the process, not to a port: any of its ports
 * may register it (the NIC still lets a port use only what it registered). */
static struct alloc allocs[MAX_ALLOCS];
static unsigned nallocs;

struct nc_port {
    struct nc_backend *be;
    unsigned id, node, nodes;
    uint32_t sb, abi, pbase;            /* SRAM addresses */
    uint32_t prod, cons_seen;
    uint8_t *ev;                        /* event ring (host memory) */
    uint64_t ev_bus;
    uint32_t ev_next;
    struct { void *buf; size_t len; bool used; } reg[NC_ABI_REGIONS];
    struct tok stok[NC_ABI_SEND_TOKENS], rtok[NC_ABI_RECV_TOKENS];
    unsigned nsend, nrecv;              /* tokens held by the NIC */
    unsigned inline_max;                /* largest send written by PIO (nc_set_inline_max) */
    /* the NIC-based barrier (docs/barrier.md) */
    uint8_t *bar_buf;                   /* the barrier buffer, registered */
    uint64_t bar_bus;
    uint32_t bar_last_words;            /* the list in bar_buf the NIC holds (0: none) */
    bool bar_busy;
    void *bar_ctx;
    /* nc_on_close's hooks */
    struct { void (*fn)(nc_port *, void *); void *arg; } hook[NC_CLOSE_HOOKS];
    unsigned nhooks;
    /* the board's interrupt mask outside nc_wait's sleep: HOST_SIG, or
     * TIME2 alone while the port has signals on (nc_signal.c) */
    uint32_t eimr_idle;
    /* events nc_barrier_wait took out of the ring, for nc_poll / nc_wait;
     * each keeps its token until the caller gets it, so that the stash
     * never holds more than the ring would have (docs/barrier.md) */
    struct { nc_event ev; struct tok *t; } stash[EV_SLOTS];
    unsigned stash_head, stash_n;
    /* NICVM operations in flight: their ctx by cookie (nc_nicvm.c) */
    struct { void *ctx; bool used; } nv[NC_NV_COOKIES];
};

const char *nc_strerror(int err)
{
    switch (err) {
    case NC_OK: return "success";
    case NC_EINVAL: return "invalid argument";
    case NC_ENOMEM: return "out of DMA-able memory";
    case NC_EBUSY: return "busy: port already open, or a barrier running on it";
    case NC_ENODEV: return "no nicoll MCP answering on the board";
    case NC_EAGAIN: return "no token free (wait for events first)";
    case NC_ETIMEDOUT: return "timed out";     /* nc_wait's deadline, or a send time-out */
    case NC_EFAULT: return "memory not registered with this port";
    case NC_EPORTCLOSED: return "destination port closed (or reopened)";
    case NC_ENOROUTE: return "no route to the destination node";
    case NC_ENORES: return "NIC out of resources";
    case NC_ECLOSED: return "cancelled: port closed";
    case NC_ENOREGION: return "no registration slot free on this port";
    case NC_EPERM: return "multicast group owned by another port (or NICVM module)";
    case NC_ENOTSUP: return "not supported by this backend";
    case NC_EREJECTED: return "NICVM module rejected (compiler or the NIC's verifier)";
    default: return "unknown error";
    }
}

static int from_status(uint32_t st)
{
    switch (st) {
    case NC_ST_OK: return NC_OK;
    case NC_ST_EFAULT: return NC_EFAULT;
    case NC_ST_EPORTCLOSED: return NC_EPORTCLOSED;
    case NC_ST_ENOROUTE: return NC_ENOROUTE;
    case NC_ST_EINVAL: return NC_EINVAL;
    case NC_ST_ENORES: return NC_ENORES;
    case NC_ST_ECLOSED: return NC_ECLOSED;
    case NC_ST_EBUSY: return NC_EBUSY;
    case NC_ST_ETIMEDOUT: return NC_ETIMEDOUT;
    case NC_ST_EPERM: return NC_EPERM;
    case NC_ST_EREJECTED: return NC_EREJECTED;
    default: return NC_EINVAL;
    }
}

unsigned nc_node_id(const nc_port *p) { return p->node; }
unsigned nc_port_id(const nc_port *p) { return p->id; }
unsigned nc_node_count(const nc_port *p) { return p->nodes; }
unsigned nc_send_tokens(const nc_port *p) { return NC_ABI_SEND_TOKENS - p->nsend; }
unsigned nc_recv_tokens(const nc_port *p) { return NC_ABI_RECV_TOKENS - p->nrecv; }

/* The words of c the host writes (nc_abi.h): up to the last field before
 * the struct's pad; a multicast SET (its second child in word 7) or DEL,
 * the whole slot. */
static unsigned cmd_words(const union nc_cmd *c)
{
    switch (c->op) {
    case NC_CMD_OPEN: return offsetof(struct nc_cmd_open, pad) / 4;
    case NC_CMD_CLOSE: return offsetof(struct nc_cmd_close, pad) / 4;
    case NC_CMD_REG: return offsetof(struct nc_cmd_reg, pad) / 4;
    case NC_CMD_DEREG: return offsetof(struct nc_cmd_dereg, pad) / 4;
    case NC_CMD_RECV: return offsetof(struct nc_cmd_recv, pad) / 4;
    case NC_CMD_SEND: return offsetof(struct nc_cmd_send, pad) / 4;
    case NC_CMD_BARRIER: return offsetof(struct nc_cmd_barrier, pad) / 4;
    case NC_CMD_TIMEOUT: return offsetof(struct nc_cmd_timeout, pad) / 4;
    case NC_CMD_SENDI: return offsetof(struct nc_cmd_sendi, pad) / 4;
    case NC_CMD_MCAST:
        switch (c->mcast.mc_op) {
        case NC_MC_OP_SEND: return offsetof(struct nc_cmd_mc_send, pad) / 4;
        case NC_MC_OP_SENDI: return offsetof(struct nc_cmd_mc_sendi, pad) / 4;
        default: return NC_CMD_WORDS;
        }
    case NC_CMD_SIGNAL:
        switch (c->signal.sig_op) {
        case NC_SIG_OP_SET: return offsetof(struct nc_cmd_sig_set, pad) / 4;
        case NC_SIG_OP_SEND: return offsetof(struct nc_cmd_sig_send, pad) / 4;
        default: return NC_CMD_WORDS;
        }
    default: return NC_CMD_WORDS;
    }
}

/* Write command c into the ring: the words it uses (the rest of the slot
 * is not the command's), opcode last within the slot, then prod. Every
 * command is one post: the library's cost of building it (host.post on
 * the emulated host) comes before its PIO writes. */
static int command_body(nc_port *p, const union nc_cmd *c)
{
    unsigned n = cmd_words(c);
    uint8_t slot[4 * NC_CMD_WORDS];
    uint32_t off;

    if (p->prod - p->cons_seen >= NC_ABI_CMD_SLOTS) {
        for (unsigned i = 0; i < 1000; i++) {
            p->cons_seen = p->be->read32(p->be, p->pbase + NC_ABI_PORT_CONS);
            if (p->prod - p->cons_seen < NC_ABI_CMD_SLOTS)
                break;
            p->be->delay_ns(p->be, 1000);
        }
        if (p->prod - p->cons_seen >= NC_ABI_CMD_SLOTS)
            return NC_ENODEV;
    }
    p->be->post_cost(p->be);
    off = p->pbase + NC_ABI_PORT_CMD(p->prod % NC_ABI_CMD_SLOTS);
    for (unsigned i = 1; i < n; i++)
        nc_put_be32(slot + 4 * i, c->w[i]);
    if (n > 1)
        p->be->write_block(p->be, off + 4, slot + 4, 4 * (n - 1));
    p->be->write32(p->be, off, c->op);
    p->prod++;
    p->be->write32(p->be, p->pbase + NC_ABI_PORT_PROD, p->prod);
    return NC_OK;
}

/* A host signal that comes while a command is half written runs after it
 * (nc_signal.c: the handler may post commands itself). */
static int command(nc_port *p, const union nc_cmd *c)
{
    int rc;

    ncp_enter();
    rc = command_body(p, c);
    ncp_leave();
    return rc;
}

int ncp_post(nc_port *p, const union nc_cmd *c)
{
    return command(p, c);
}

struct nc_backend *ncp_backend(nc_port *p)
{
    return p->be;
}

void ncp_eimr(nc_port *p, uint32_t idle)
{
    p->eimr_idle = idle;
    p->be->write32(p->be, L9_BAR_SPECIAL + L9_EIMR, idle);
}

static int take(struct tok *t, unsigned n, unsigned *held);

int ncp_send_token(nc_port *p, void *ctx, const void *buf, size_t len, unsigned node,
                   unsigned port)
{
    int k = take(p->stok, NC_ABI_SEND_TOKENS, &p->nsend);

    if (k >= 0)
        p->stok[k] = (struct tok){ true, ctx, (void *)buf, len, node, port };
    return k;
}

void ncp_send_token_drop(nc_port *p, unsigned k)
{
    if (k < NC_ABI_SEND_TOKENS && p->stok[k].used) {
        p->stok[k].used = false;
        p->nsend--;
    }
}

int nc_command(nc_port *p, const uint32_t w[8])
{
    union nc_cmd c;

    if (w[0] <= NC_CMD_SENDI)
        return NC_EINVAL;
    memcpy(c.w, w, sizeof c.w);
    return command(p, &c);
}

static int load_routes(nc_port *p)
{
    uint8_t tab[8 * NC_ABI_MAX_NODES];

    if (p->be->read32(p->be, p->abi + NC_ABI_OFF_ROUTES_VALID) == p->nodes)
        return NC_OK;
    memset(tab, 0, sizeof tab);
    for (unsigned n = 0; n < p->nodes; n++) {
        int len = p->be->route(p->be, n, tab + 8 * n + 1, NC_ABI_MAX_ROUTE);
        if (len < 1)
            return NC_ENOROUTE;
        tab[8 * n] = (uint8_t)len;
    }
    p->be->write_block(p->be, p->abi + NC_ABI_OFF_ROUTES, tab, 8 * p->nodes);
    p->be->write32(p->be, p->abi + NC_ABI_OFF_ROUTES_VALID, p->nodes);
    return NC_OK;
}

/* NICOLL_INLINE_MAX=N (0 .. NC_ABI_INLINE_MAX) in the environment sets
 * every port's inline limit at open, for programs that do not call
 * nc_set_inline_max: the papers' benchmarks run GM's path, every send
 * fetched by DMA (docs/libnicoll.md). Any other value: NC_EINVAL. */
static int inline_from_env(unsigned *max)
{
    const char *v = getenv("NICOLL_INLINE_MAX");
    char *end;
    unsigned long n;

    if (!v)
        return NC_OK;
    n = strtoul(v, &end, 10);
    if (!*v || *end || n > NC_ABI_INLINE_MAX)
        return NC_EINVAL;
    *max = (unsigned)n;
    return NC_OK;
}

int nc_open_backend(nc_port **out, struct nc_backend *be, unsigned port)
{
    nc_port *p;
    uint32_t sram;
    union nc_cmd c = { .open.op = NC_CMD_OPEN };
    int rc;

    *out = NULL;
    if (port >= NC_ABI_PORTS || !be)
        return NC_EINVAL;
    p = calloc(1, sizeof *p);
    if (!p)
        return NC_ENOMEM;
    p->be = be;
    p->id = port;
    sram = be->read32(be, L9_BAR_EEPROM + L9_EE_SRAM_SIZE);
    if (sram < NC_SB_SIZE || sram > L9_BAR_CONFIG) {
        free(p);
        return NC_ENODEV;
    }
    p->sb = NC_SB_ADDR(sram);
    p->abi = be->read32(be, p->sb + NC_SB_OFF_ABI);
    if (be->read32(be, p->sb + NC_SB_OFF_READY) != NC_SB_READY_MAGIC || !p->abi ||
        p->abi >= p->sb || be->read32(be, p->abi) != NC_ABI_MAGIC ||
        be->read32(be, p->abi + 4) != NC_ABI_VERSION ||
        be->read32(be, p->abi + offsetof(struct nc_abi, max_nodes)) != NC_ABI_MAX_NODES) {
        free(p);
        return NC_ENODEV;
    }
    p->node = be->read32(be, p->sb + NC_SB_OFF_NODE_ID);
    p->nodes = be->read32(be, p->sb + NC_SB_OFF_NNODES);
    p->pbase = p->abi + NC_ABI_OFF_PORT(port);
    rc = p->nodes > NC_ABI_MAX_NODES ? NC_EINVAL : load_routes(p);
    if (rc != NC_OK) {
        free(p);
        return rc;
    }
    if (be->read32(be, p->pbase + NC_ABI_PORT_STATE) != 0) {
        free(p);
        return NC_EBUSY;
    }
    p->prod = p->cons_seen = be->read32(be, p->pbase + NC_ABI_PORT_CONS);
    p->inline_max = NC_ABI_INLINE_MAX;
    if ((rc = inline_from_env(&p->inline_max)) != NC_OK) {
        free(p);
        return rc;
    }
    p->ev = be->dma_alloc(be, EV_SLOTS * 4 * NC_EV_WORDS, &p->ev_bus);
    if (!p->ev) {
        free(p);
        return NC_ENOMEM;
    }
    memset(p->ev, 0, EV_SLOTS * 4 * NC_EV_WORDS);
    /* the host interrupt: the MCP raises HOST_SIG after each event */
    be->write32(be, L9_BAR_SPECIAL + L9_EIMR, L9_ISR_HOST_SIG);
    p->eimr_idle = L9_ISR_HOST_SIG;
    c.open.ev_bus_hi = (uint32_t)(p->ev_bus >> 32);
    c.open.ev_bus_lo = (uint32_t)p->ev_bus;
    c.open.ev_slots = EV_SLOTS;
    command(p, &c);
    for (unsigned i = 0; i < OPEN_POLLS; i++) {
        if (be->read32(be, p->pbase + NC_ABI_PORT_STATE) == 1) {
            *out = p;
            return NC_OK;
        }
        be->delay_ns(be, 1000);
    }
    free(p);
    return NC_ENODEV;
}


int nc_close(nc_port *p)
{
    const union nc_cmd c = { .close.op = NC_CMD_CLOSE };
    int rc;

    if (!p)
        return NC_EINVAL;
    rc = command(p, &c);
    /* wait until the MCP closed it, so a new process can open it */
    for (unsigned i = 0; rc == NC_OK && i < OPEN_POLLS; i++) {
        if (p->be->read32(p->be, p->pbase + NC_ABI_PORT_STATE) == 0)
            break;
        p->be->delay_ns(p->be, 1000);
    }
    while (p->nhooks--)
        p->hook[p->nhooks].fn(p, p->hook[p->nhooks].arg);
    ncp_signal_forget(p);
    free(p);
    return rc;
}

int nc_on_close(nc_port *p, void (*fn)(nc_port *p, void *arg), void *arg)
{
    if (!p || !fn)
        return NC_EINVAL;
    if (p->nhooks == NC_CLOSE_HOOKS)
        return NC_ENORES;
    p->hook[p->nhooks].fn = fn;
    p->hook[p->nhooks].arg = arg;
    p->nhooks++;
    return NC_OK;
}

void *nc_alloc(nc_port *p, size_t len)
{
    struct alloc *a;

    if (!p || !len || nallocs == MAX_ALLOCS)
        return NULL;
    a = &allocs[nallocs];
    a->ptr = p->be->dma_alloc(p->be, len, &a->bus);
    if (!a->ptr)
        return NULL;
    a->len = len;
    nallocs++;
    return a->ptr;
}

/* The bus address of [buf, buf+len), if it lies in one allocation. */
static bool bus_of(const void *buf, size_t len, uint64_t *bus)
{
    const uint8_t *b = buf;

    for (unsigned i = 0; i < nallocs; i++) {
        const struct alloc *a = &allocs[i];

        if (b >= a->ptr && b <= a->ptr + a->len && len <= (size_t)(a->ptr + a->len - b)) {
            *bus = a->bus + (uint64_t)(b - a->ptr);
            return true;
        }
    }
    return false;
}

int nc_register(nc_port *p, void *buf, size_t len)
{
    union nc_cmd c = { .reg.op = NC_CMD_REG };
    uint64_t bus;

    if (!p || !buf || !len || len > UINT32_MAX)
        return NC_EINVAL;
    if (!bus_of(buf, len, &bus))
        return NC_EFAULT;
    for (unsigned i = 0; i < NC_ABI_REGIONS; i++) {
        if (p->reg[i].used)
            continue;
        p->reg[i].used = true;
        p->reg[i].buf = buf;
        p->reg[i].len = len;
        c.reg.region = i;
        c.reg.bus_hi = (uint32_t)(bus >> 32);
        c.reg.bus_lo = (uint32_t)bus;
        c.reg.len = (uint32_t)len;
        return command(p, &c);
    }
    return NC_ENOREGION;
}

int nc_deregister(nc_port *p, void *buf)
{
    union nc_cmd c = { .dereg.op = NC_CMD_DEREG };

    if (!p)
        return NC_EINVAL;
    for (unsigned i = 0; i < NC_ABI_REGIONS; i++) {
        if (!p->reg[i].used || p->reg[i].buf != buf)
            continue;
        p->reg[i].used = false;
        c.dereg.region = i;
        return command(p, &c);
    }
    return NC_EINVAL;
}

static int take(struct tok *t, unsigned n, unsigned *held)
{
    for (unsigned i = 0; i < n; i++)
        if (!t[i].used) {
            t[i].used = true;
            (*held)++;
            return (int)i;
        }
    return -1;
}

int nc_provide_recv(nc_port *p, void *buf, size_t len, void *ctx)
{
    union nc_cmd c = { .recv.op = NC_CMD_RECV };
    uint64_t bus = 0;
    int k;

    if (!p || len > NC_ABI_MAX_MSG || (len && !buf))
        return NC_EINVAL;
    if (len && !bus_of(buf, len, &bus))
        return NC_EFAULT;
    if ((k = take(p->rtok, NC_ABI_RECV_TOKENS, &p->nrecv)) < 0)
        return NC_EAGAIN;
    p->rtok[k] = (struct tok){ true, ctx, buf, len, 0, 0 };
    c.recv.bus_hi = (uint32_t)(bus >> 32);
    c.recv.bus_lo = (uint32_t)bus;
    c.recv.len = (uint32_t)len;
    c.recv.cookie = (uint32_t)k;
    return command(p, &c);
}

_Static_assert(NC_INLINE_MAX == NC_ABI_INLINE_MAX, "the API's inline limit is the ABI's");
_Static_assert(NC_SEND_TIMEOUT_DEFAULT_US == NC_ABI_SEND_TIMEOUT_DEFAULT_US &&
               NC_SEND_TIMEOUT_MAX_US == NC_ABI_SEND_TIMEOUT_MAX_US,
               "the API's time-out bounds are the MCP's");

int nc_set_send_timeout(nc_port *p, uint32_t timeout_us)
{
    union nc_cmd c = { .timeout.op = NC_CMD_TIMEOUT };

    if (!p || timeout_us > NC_SEND_TIMEOUT_MAX_US)
        return NC_EINVAL;
    c.timeout.timeout_us = timeout_us;
    return command(p, &c);
}

/* Is [buf, buf+len) inside a region this port registered? (What the MCP's
 * port_check asks of a DMA send, asked here for an inline one, which the
 * NIC never checks: it reads no host memory.) */
static bool registered(const nc_port *p, const void *buf, size_t len)
{
    uintptr_t a = (uintptr_t)buf;

    for (unsigned i = 0; i < NC_ABI_REGIONS; i++) {
        uintptr_t b = (uintptr_t)p->reg[i].buf;

        if (p->reg[i].used && a >= b && a - b <= p->reg[i].len && len <= p->reg[i].len - (a - b))
            return true;
    }
    return false;
}

int nc_bus_address(nc_port *p, const void *buf, size_t len, uint64_t *bus)
{
    return registered(p, buf, len) && bus_of(buf, len, bus) ? NC_OK : NC_EFAULT;
}

/* An inline payload into the inline area of send token k (whole words). */
static void write_inline(nc_port *p, unsigned k, const void *buf, size_t len)
{
    uint8_t words[NC_ABI_INLINE_MAX] = { 0 };

    memcpy(words, buf, len);
    p->be->write_block(p->be, p->pbase + NC_ABI_PORT_SDATA(k), words, (uint32_t)(len + 3) & ~3u);
}

int nc_send(nc_port *p, unsigned node, unsigned port, const void *buf, size_t len, void *ctx)
{
    union nc_cmd c;
    uint64_t bus = 0;
    int k;

    if (!p || node >= p->nodes || port >= NC_ABI_PORTS || len > NC_ABI_MAX_MSG || (len && !buf))
        return NC_EINVAL;
    if (len && !bus_of(buf, len, &bus))
        return NC_EFAULT;
    if ((k = take(p->stok, NC_ABI_SEND_TOKENS, &p->nsend)) < 0)
        return NC_EAGAIN;
    p->stok[k] = (struct tok){ true, ctx, (void *)buf, len, node, port };
    if (len <= p->inline_max && (!len || registered(p, buf, len))) {
        /* small: the payload by PIO into the token's inline area, then a
         * four-word command (nc_abi.h NC_CMD_SENDI); the area is the
         * token's until its SENT event. Memory the port did not register
         * goes the DMA way, where the NIC refuses it (NC_EFAULT event), as
         * for any size. */
        if (len)
            write_inline(p, (unsigned)k, buf, len);
        c.sendi = (struct nc_cmd_sendi){ .op = NC_CMD_SENDI, .len = (uint32_t)len,
                                         .dst = node << 8 | port, .cookie = (uint32_t)k };
        return command(p, &c);
    }
    c.send = (struct nc_cmd_send){ .op = NC_CMD_SEND, .bus_hi = (uint32_t)(bus >> 32),
                                   .bus_lo = (uint32_t)bus, .len = (uint32_t)len,
                                   .node = node, .port = port, .cookie = (uint32_t)k };
    return command(p, &c);
}

int nc_set_inline_max(nc_port *p, size_t bytes)
{
    if (!p || bytes > NC_ABI_INLINE_MAX)
        return NC_EINVAL;
    p->inline_max = (unsigned)bytes;
    return NC_OK;
}

/* The next event of the ring itself (not the stash); *tp is the token it
 * completes (NULL: none), still held: give_back() frees it when the caller
 * gets the event. Each event taken out of the ring is one receive: the
 * library's cost of handling it (host.recv on the emulated host) is
 * charged here, once, whether the event goes to the caller at once or
 * into the stash first. */
static int take_event(nc_port *p, nc_event *ev, struct tok **tp)
{
    const uint8_t *e = p->ev + (p->ev_next % EV_SLOTS) * 4 * NC_EV_WORDS;
    uint32_t type, cookie;
    struct tok *t = NULL;

    p->be->poll_cost(p->be);
    if (nc_get_be32(e) != p->ev_next + 1)
        return 0;
    p->be->recv_cost(p->be);
    p->ev_next++;
    type = nc_get_be32(e + 4);
    cookie = nc_get_be32(e + 12);
    memset(ev, 0, sizeof *ev);
    ev->type = (enum nc_event_type)type;
    ev->status = from_status(nc_get_be32(e + 8));
    ev->group = nc_get_be32(e + 28);
    if (type == NC_EV_SENT && cookie < NC_ABI_SEND_TOKENS && p->stok[cookie].used) {
        t = &p->stok[cookie];
        ev->node = t->node;
        ev->port = t->port;
        ev->len = t->len;
    } else if ((type == NC_EV_RECV || type == NC_EV_GRECV) && cookie < NC_ABI_RECV_TOKENS &&
               p->rtok[cookie].used) {
        t = &p->rtok[cookie];
        if (type == NC_EV_GRECV) {
            ev->type = NC_EVENT_RECV;
            ev->swgroup = true;
        }
        ev->node = nc_get_be32(e + 20);
        ev->port = nc_get_be32(e + 24);
        ev->len = nc_get_be32(e + 16);
    } else if (type == NC_EV_NICVM) {
        /* a NICVM operation's answer (nc_nicvm.h): its three values, the
         * operation in group; the cookie is the library's */
        ev->len = nc_get_be32(e + 16);
        ev->node = nc_get_be32(e + 20);
        ev->port = nc_get_be32(e + 24);
        if (cookie < NC_NV_COOKIES && p->nv[cookie].used) {
            ev->ctx = p->nv[cookie].ctx;
            p->nv[cookie].used = false;
        }
    } else if (type == NC_EV_GROUP) {
        /* the entity's answer, or the NIC's counters (nc_swmc.c) */
        ev->type = NC_EVENT_MG;
        ev->tid = cookie;
        ev->mg_op = nc_get_be32(e + 24);
        ev->mg_status = nc_get_be32(e + 16);
        ev->node = nc_get_be32(e + 20);
        if (ev->mg_op == NC_MG_STATS)
            ev->len = ev->mg_status;
    } else if (type == NC_EV_REDUCE) {
        ncp_reduce_event(p, cookie, ev);
    } else if (type == NC_EV_BARRIER) {
        ev->ctx = p->bar_ctx;
        p->bar_busy = false;
        if (ev->status != NC_OK)
            p->bar_last_words = 0;      /* the NIC may not hold that list */
    } else {
        ev->type = NC_EVENT_ERROR;
        if (ev->status == NC_OK)
            ev->status = NC_EINVAL;
    }
    if (t) {
        ev->ctx = t->ctx;
        ev->buf = t->buf;
    }
    *tp = t;
    return 1;
}

/* The caller has the event of token t (NULL: none): the token is free. */
static void give_back(nc_port *p, const nc_event *ev, struct tok *t)
{
    if (!t)
        return;
    t->used = false;
    if (ev->type == NC_EVENT_SENT)
        p->nsend--;
    else
        p->nrecv--;
}

static int poll_body(nc_port *p, nc_event *ev)
{
    struct tok *t;

    if (p->stash_n) {
        *ev = p->stash[p->stash_head].ev;
        t = p->stash[p->stash_head].t;
        p->stash_head = (p->stash_head + 1) % EV_SLOTS;
        p->stash_n--;
    } else if (!take_event(p, ev, &t)) {
        return 0;
    }
    give_back(p, ev, t);
    return 1;
}

/* A host signal during a poll runs after it (the handler polls too). */
int nc_poll(nc_port *p, nc_event *ev)
{
    int got;

    ncp_enter();
    got = poll_body(p, ev);
    ncp_leave();
    return got;
}

int nc_wait(nc_port *p, nc_event *ev, uint64_t timeout_ns)
{
    uint64_t start = p->be->now_ns(p->be);

    for (;;) {
        uint64_t now, slice = 20000;

        if (nc_poll(p, ev))
            return NC_OK;
        now = p->be->now_ns(p->be);
        if (timeout_ns && now - start >= timeout_ns)
            return NC_ETIMEDOUT;
        if (timeout_ns && timeout_ns - (now - start) < slice)
            slice = timeout_ns - (now - start);
        /* clear the signal, look once more, then sleep: an event that
         * lands in between raises the line again; the slice bounds the
         * wait if its data became visible only after the look */
        /* with signals on, HOST_SIG reaches the line only while asleep */
        if (p->eimr_idle != L9_ISR_HOST_SIG)
            p->be->write32(p->be, L9_BAR_SPECIAL + L9_EIMR, p->eimr_idle | L9_ISR_HOST_SIG);
        p->be->write32(p->be, L9_BAR_SPECIAL + L9_ISR, L9_ISR_HOST_SIG);
        if (nc_poll(p, ev)) {
            if (p->eimr_idle != L9_ISR_HOST_SIG)
                p->be->write32(p->be, L9_BAR_SPECIAL + L9_EIMR, p->eimr_idle);
            return NC_OK;
        }
        p->be->wait_irq(p->be, slice);
        if (p->eimr_idle != L9_ISR_HOST_SIG)
            p->be->write32(p->be, L9_BAR_SPECIAL + L9_EIMR, p->eimr_idle);
    }
}

/* ---- NICVM's operations (nc_nicvm.h) ---------------------------------- */
int nc_nv_cookie(nc_port *p, void *ctx)
{
    for (unsigned k = 0; k < NC_NV_COOKIES; k++)
        if (!p->nv[k].used) {
            p->nv[k].used = true;
            p->nv[k].ctx = ctx;
            return (int)k;
        }
    return NC_EAGAIN;
}

void nc_nv_cookie_drop(nc_port *p, unsigned cookie)
{
    p->nv[cookie].used = false;
}

int nc_nv_wait(nc_port *p, const void *ctx, nc_event *ev, uint64_t timeout_ns)
{
    uint64_t start = p->be->now_ns(p->be);
    struct tok *t;

    /* as nc_barrier_wait_for: other events wait in the stash */
    for (;;) {
        if (p->stash_n == EV_SLOTS)
            return NC_EAGAIN;
        if (!take_event(p, ev, &t)) {
            if (timeout_ns && p->be->now_ns(p->be) - start >= timeout_ns)
                return NC_ETIMEDOUT;
            continue;
        }
        if (ev->type == NC_EVENT_NICVM && ev->ctx == ctx)
            return NC_OK;
        p->stash[(p->stash_head + p->stash_n) % EV_SLOTS].ev = *ev;
        p->stash[(p->stash_head + p->stash_n) % EV_SLOTS].t = t;
        p->stash_n++;
    }
}

/* ---- NIC-based barrier (docs/barrier.md) --------------------------------- */

/* b as the NIC's step list (nc_abi.h), big-endian words into w:
 * nc_barrier_expand's steps with the NIC's op and phase bits; the number
 * of words, 0 if b is not valid here. */
static unsigned encode(const nc_port *p, const nc_barrier *b, uint8_t *w)
{
    static const uint8_t op_bits[] = {
        [NC_BAR_OP_EXCHANGE] = NC_BSTEP_SEND | NC_BSTEP_RECV,
        [NC_BAR_OP_SEND] = NC_BSTEP_SEND,
        [NC_BAR_OP_RECV] = NC_BSTEP_RECV,
    };
    static const uint8_t phase_bits[] = {
        [NC_BAR_PHASE_PE] = NC_BSTEP_PE,
        [NC_BAR_PHASE_GATHER] = NC_BSTEP_GATHER,
        [NC_BAR_PHASE_BCAST] = NC_BSTEP_BCAST,
    };
    nc_barrier_step s[NC_BARRIER_MAX_EXPANDED];
    int n = nc_barrier_expand(b, s);

    if (n < 0 || (unsigned)n > NC_BAR_MAX_STEPS)
        return 0;
    for (int i = 0; i < n; i++) {
        if (s[i].peer.node >= p->nodes || s[i].peer.port >= NC_ABI_PORTS)
            return 0;
        nc_put_be32(w + 4 * (1 + i), NC_BSTEP(op_bits[s[i].op], phase_bits[s[i].phase],
                                           s[i].peer.port, s[i].peer.node));
    }
    nc_put_be32(w, NC_BAR_MAGIC << 16 | (uint32_t)n);
    return 1 + (unsigned)n;
}

int nc_barrier_start(nc_port *p, const nc_barrier *b, void *ctx)
{
    union nc_cmd c = { .barrier.op = NC_CMD_BARRIER };
    uint8_t list[4 * (1 + NC_BAR_MAX_STEPS)];
    unsigned words;
    int rc;

    if (!p || !b)
        return NC_EINVAL;
    if (p->bar_busy)
        return NC_EBUSY;
    if (!(words = encode(p, b, list)))
        return NC_EINVAL;
    if (!p->bar_buf) {
        /* one buffer per port, registered once: the NIC fetches the list
         * from it by DMA */
        uint8_t *buf = nc_alloc(p, sizeof list);

        if (!buf)
            return NC_ENOMEM;
        if ((rc = nc_register(p, buf, sizeof list)) != NC_OK)
            return rc;
        bus_of(buf, sizeof list, &p->bar_bus);
        p->bar_buf = buf;
    }
    if (words == p->bar_last_words && !memcmp(list, p->bar_buf, 4 * words)) {
        c.barrier.len = 0;      /* the NIC still holds this list: no DMA */
    } else {
        memcpy(p->bar_buf, list, 4 * words);
        p->bar_last_words = words;
        c.barrier.len = 4 * words;
    }
    c.barrier.bus_hi = (uint32_t)(p->bar_bus >> 32);
    c.barrier.bus_lo = (uint32_t)p->bar_bus;
    c.barrier.cookie = 0;
    p->bar_ctx = ctx;
    if ((rc = command(p, &c)) != NC_OK)
        return rc;
    p->bar_busy = true;
    return NC_OK;
}

int nc_barrier_wait_for(nc_port *p, const nc_barrier *b, uint64_t timeout_ns)
{
    nc_event ev;
    struct tok *t;
    uint64_t start;
    int rc = nc_barrier_start(p, b, NULL);

    if (rc != NC_OK)
        return rc;
    start = p->be->now_ns(p->be);
    /* poll (a barrier is short); other events wait in the stash */
    for (;;) {
        /* Every stashed event holds its token (at most 16 + 32) or is the
         * ERROR event of a refused command: a full stash means more events
         * outstanding than the event ring holds, which only a caller that
         * never polls its refused commands' errors can cause. Leave the
         * rest in the ring; the barrier runs on (nicoll.h). */
        if (p->stash_n == EV_SLOTS)
            return NC_EAGAIN;
        if (!take_event(p, &ev, &t)) {
            if (timeout_ns && p->be->now_ns(p->be) - start >= timeout_ns)
                return NC_ETIMEDOUT;
            continue;
        }
        if (ev.type == NC_EVENT_BARRIER)
            return ev.status;
        p->stash[(p->stash_head + p->stash_n) % EV_SLOTS].ev = ev;
        p->stash[(p->stash_head + p->stash_n) % EV_SLOTS].t = t;
        p->stash_n++;
    }
}

int nc_barrier_wait(nc_port *p, const nc_barrier *b)
{
    return nc_barrier_wait_for(p, b, 0);
}

unsigned nc_barrier_counter(const nc_port *p, enum nc_barrier_counter which)
{
    static const uint32_t off[] = { NC_ABI_PORT_BAR_UNEXP, NC_ABI_PORT_BAR_RESENT,
                                    NC_ABI_PORT_BAR_REJECTS };

    if (!p || (unsigned)which >= 3)
        return 0;
    return p->be->read32(p->be, p->pbase + off[which]);
}

/* ---- NIC multicast (docs/multicast.md) ------------------------------------ */

static bool member_ok(const nc_port *p, nc_member m)
{
    return m.node < p->nodes && m.port < NC_ABI_PORTS;
}

int nc_group_multisend(nc_port *p, uint32_t group, nc_member root, const nc_member *dests,
                       unsigned n)
{
    union nc_cmd c = { .mc_set = { .op = NC_CMD_MCAST, .mc_op = NC_MC_OP_SET, .group = group } };
    bool is_root, is_dest = false;
    int rc;

    if (!p || !group || !dests || !n || n > NC_GROUP_MAX_DESTS || !member_ok(p, root))
        return NC_EINVAL;
    for (unsigned i = 0; i < n; i++) {
        if (!member_ok(p, dests[i]) || (dests[i].node == root.node && dests[i].port == root.port))
            return NC_EINVAL;
        if (dests[i].node == p->node && dests[i].port == p->id)
            is_dest = true;
    }
    is_root = root.node == p->node && root.port == p->id;
    if (!is_root && !is_dest)
        return NC_EINVAL;       /* not a member */
    if (!is_root) {
        c.mc_set.parent = NC_MC_MEMBER(root.node, root.port);
        return command(p, &c);
    }
    /* the root's entry: the destinations, two a command */
    c.mc_set.parent = NC_MC_ROOT;
    c.mc_set.nchildren = n;
    for (unsigned i = 0; i < n; i += 2) {
        c.mc_set.first = i;
        c.mc_set.child[0] = NC_MC_MEMBER(dests[i].node, dests[i].port);
        c.mc_set.child[1] = i + 1 < n ? NC_MC_MEMBER(dests[i + 1].node, dests[i + 1].port) : 0;
        if ((rc = command(p, &c)) != NC_OK)
            return rc;
    }
    return NC_OK;
}

int nc_group_write(nc_port *p, uint32_t group, const nc_member *parent,
                   const nc_member *children, unsigned nch, unsigned pkt_shift, bool fpfs)
{
    union nc_cmd c = { .mc_set = { .op = NC_CMD_MCAST, .mc_op = NC_MC_OP_SET, .group = group } };
    int rc;

    if (!p || !group || nch > NC_GROUP_MAX_CHILDREN || (!parent && !nch) ||
        (parent && !member_ok(p, *parent)) ||
        (pkt_shift && (pkt_shift < NC_MC_PKT_SHIFT_MIN || pkt_shift > NC_MC_PKT_SHIFT_MAX)))
        return NC_EINVAL;
    c.mc_set.parent = parent ? NC_MC_MEMBER(parent->node, parent->port) : NC_MC_ROOT;
    c.mc_set.nchildren = NC_MC_SET_SHAPE(nch, pkt_shift) | (fpfs ? NC_MC_SET_FPFS : 0);
    /* two children a command; a leaf's entry is one command */
    for (unsigned i = 0; i == 0 || i < nch; i += 2) {
        c.mc_set.first = i;
        c.mc_set.child[0] = i < nch ? NC_MC_MEMBER(children[i].node, children[i].port) : 0;
        c.mc_set.child[1] =
            i + 1 < nch ? NC_MC_MEMBER(children[i + 1].node, children[i + 1].port) : 0;
        if (i < nch && !member_ok(p, children[i]))
            return NC_EINVAL;
        if (i + 1 < nch && !member_ok(p, children[i + 1]))
            return NC_EINVAL;
        if ((rc = command(p, &c)) != NC_OK)
            return rc;
    }
    return NC_OK;
}

int nc_group_destroy(nc_port *p, uint32_t group)
{
    const union nc_cmd c = {
        .mc_del = { .op = NC_CMD_MCAST, .mc_op = NC_MC_OP_DEL, .group = group }
    };

    if (!p || !group)
        return NC_EINVAL;
    return command(p, &c);
}

int nc_mcast(nc_port *p, uint32_t group, const void *buf, size_t len, void *ctx)
{
    union nc_cmd c;
    uint64_t bus = 0;
    int k;

    if (!p || !group || len > NC_ABI_MAX_MSG || (len && !buf))
        return NC_EINVAL;
    if (len && !bus_of(buf, len, &bus))
        return NC_EFAULT;
    if ((k = take(p->stok, NC_ABI_SEND_TOKENS, &p->nsend)) < 0)
        return NC_EAGAIN;
    p->stok[k] = (struct tok){ true, ctx, (void *)buf, len, 0, 0 };
    if (len && len <= p->inline_max && registered(p, buf, len)) {
        /* small: inline, as nc_send (NC_MC_OP_SENDI) */
        write_inline(p, (unsigned)k, buf, len);
        c.mc_sendi = (struct nc_cmd_mc_sendi){ .op = NC_CMD_MCAST, .mc_op = NC_MC_OP_SENDI,
                                               .group = group, .len = (uint32_t)len,
                                               .cookie = (uint32_t)k };
        return command(p, &c);
    }
    c.mc_send = (struct nc_cmd_mc_send){ .op = NC_CMD_MCAST, .mc_op = NC_MC_OP_SEND,
                                         .group = group, .bus_hi = (uint32_t)(bus >> 32),
                                         .bus_lo = (uint32_t)bus, .len = (uint32_t)len,
                                         .cookie = (uint32_t)k };
    return command(p, &c);
}
