/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The collectives' host (mcp_plugin.h): the table of registered
 * collectives, dispatch by packet type, command, DMA kind and port event,
 * the pool of send tokens for their packets, and the SRAM arena.
 */
#include "mcp_plugin.h"
#include "mcp_dma.h"
#include "mcp_port.h"
#include "mcp_tx.h"

static const struct mcp_coll *plugins[MCP_PLUGINS];
static uint32_t n_plugins;
/* the owner of each packet type's low byte (0x0A00 | b) */
static const struct mcp_coll *by_type[256];
/* the owner of each host command (nc_abi.h NC_CMD_*, below MCP_CMDS) */
#define MCP_CMDS 32u
static const struct mcp_coll *by_cmd[MCP_CMDS];

/* Tokens for the collectives' packets: stok[NC_COLL_TOK0 ...], a stack. */
static uint16_t tok_free[NC_FW_COLL_TOKENS];
static uint32_t tok_nfree;

#if NC_FW_HOOK
/* The arena's ends as words in .data: _end is addressable in the small
 * code model, __stack_top is not (main.c's mem_top). */
extern char _end[], __stack_top[];
static char *volatile arena_lo = _end;
static char *volatile arena_hi = __stack_top;
static uintptr_t arena_next;

void *mcp_sram(uint32_t bytes)
{
    uintptr_t hi = (uintptr_t)arena_hi - MCP_STACK_RESERVE;
    uintptr_t at = arena_next;

    if (at > hi || hi - at < bytes)
        return 0;
    arena_next = (at + bytes + 63u) & ~(uintptr_t)63u;
    return (void *)at;
}
#endif

void plugin_init(void)
{
#if NC_FW_HOOK
    arena_next = ((uintptr_t)arena_lo + 63u) & ~(uintptr_t)63u;
#endif
    for (uint32_t i = 0; i < NC_FW_COLL_TOKENS; i++)
        tok_free[i] = (uint16_t)(NC_COLL_TOK0 + i);
    tok_nfree = NC_FW_COLL_TOKENS;
    mcp_plugins();
}

int mcp_register(const struct mcp_coll *c)
{
    uint32_t id = n_plugins;

    if (id >= MCP_PLUGINS || c->type_first > c->type_last ||
        c->type_first <= (NC_PT_REJECT & 0xFF))
        return -1;
    for (uint32_t t = c->type_first; t <= c->type_last; t++)
        if (by_type[t])
            return -1;
    /* the core's own commands (OPEN .. SEND, TIMEOUT, SENDI) are never passed on */
    if (c->cmd && (c->cmd <= NC_CMD_SEND || c->cmd == NC_CMD_TIMEOUT || c->cmd == NC_CMD_SENDI ||
                   c->cmd >= MCP_CMDS || by_cmd[c->cmd]))
        return -1;
    for (uint32_t t = c->type_first; t <= c->type_last; t++)
        by_type[t] = c;
    if (c->cmd)
        by_cmd[c->cmd] = c;
    plugins[n_plugins++] = c;
    if (c->init)
        c->init();
    return (int)id;
}

const struct mcp_coll *plugin_of_type(uint32_t type)
{
    if ((type >> 8) != 0x0A)
        return 0;
    return by_type[type & 0xFF];
}

bool plugin_command(uint32_t port, const union nc_cmd *cmd)
{
    const struct mcp_coll *c = cmd->op < MCP_CMDS ? by_cmd[cmd->op] : 0;

    if (!c)
        return false;
    c->command(port, cmd);
    return true;
}

void plugin_port_open(uint32_t port)
{
    for (uint32_t i = 0; i < n_plugins; i++)
        if (plugins[i]->port_open)
            plugins[i]->port_open(port);
}

void plugin_port_closed(uint32_t port)
{
    for (uint32_t i = 0; i < n_plugins; i++)
        if (plugins[i]->port_closed)
            plugins[i]->port_closed(port);
}

void mcp_release(uint16_t k)
{
    stok[k].used = 0;
    tok_free[tok_nfree++] = k;
}

/* the default completion of a collective's packet: the token goes back */
static void token_done(uint16_t tok, uint32_t status)
{
    (void)status;
    mcp_release(tok);
}

/* A collective's packet on a token of the pool: len payload bytes from
 * SRAM at payload (inl 2: gathered as it goes, tx.c), none when len is 0. */
static int send_tok(uint32_t port, uint32_t node, uint32_t dport, uint8_t type, uint32_t id0,
                     uint32_t id1, const void *payload, uint32_t len, stoken_done_fn done)
{
    uint16_t k;
    struct stoken *t;

    if (!tok_nfree)
        return -1;
    k = tok_free[--tok_nfree];
    t = &stok[k];
    NC_OPAQUE(t);
    t->used = 1;
    t->port = (uint8_t)port;
    t->dst_port = (uint8_t)dport;
    t->fence = 0;
    t->inl = len ? 2 : 0;
    t->started = 0;
    t->kind = type;
    t->done = done ? done : token_done;
    t->dst = (uint16_t)node;
    t->gen = id0;
    t->cookie = id1;
    t->hi = 0;
    t->lo = (uint32_t)(uintptr_t)payload;
    t->len = len;
    t->built = t->acked = 0;
    tx_message(k);
    tx_kick(node);
    return k;
}

bool mcp_send(uint32_t port, uint32_t node, uint32_t dport, uint8_t type, uint32_t id0,
              uint32_t id1, stoken_done_fn done)
{
    return send_tok(port, node, dport, type, id0, id1, 0, 0, done) >= 0;
}

#if NC_FW_HOOK
/* compiled for size, as rx.c's mcp_recv_take */
__attribute__((minsize)) int mcp_send_data(uint32_t port, uint32_t node, uint32_t dport,
                                           uint8_t type, uint32_t id0, uint32_t id1,
                                           const void *payload, uint32_t len,
                                           stoken_done_fn done)
{
    return len <= NC_FW_MTU ? send_tok(port, node, dport, type, id0, id1, payload, len, done) : -1;
}
#endif

/* A collective's transfer into its queue slot r (filled in place: no copy
 * into the queue), then queued. */
static inline __attribute__((always_inline)) void dma_fill_push(struct dma_req *r, bool to_lanai,
                                                                dma_done_fn done, uint32_t port,
                                                                uint32_t gen, uint16_t arg,
                                                                uint32_t lar, uint32_t hi,
                                                                uint32_t lo, uint32_t len)
{
    r->done = done;
    r->port = (uint8_t)port;
    r->last = 1;
    r->checkgen = !to_lanai;    /* a store never reaches a process that closed since */
    r->arg = arg;
    r->gen = gen;
    r->lar = lar;
    r->eah = hi;
    r->eal = lo;
    r->len = len;
    dma_push(to_lanai);
}

bool mcp_fetch(dma_done_fn done, uint32_t port, uint32_t gen, uint16_t arg, void *to,
               uint32_t hi, uint32_t lo, uint32_t len)
{
    struct dma_req *r = dma_slot(true);

    if (!r)
        return false;
    dma_fill_push(r, true, done, port, gen, arg, (uint32_t)(uintptr_t)to, hi, lo, len);
    return true;
}

void mcp_store_cb(dma_done_fn done, uint32_t port, uint32_t gen, uint16_t arg,
                  const void *from, uint32_t hi, uint32_t lo, uint32_t len)
{
    /* sized never to be full: one per rx buffer */
    dma_fill_push(dma_slot(false), false, done, port, gen, arg, (uint32_t)(uintptr_t)from, hi, lo,
                  len);
}

/* Set by mcp_timer_need, cleared when no timer callback wants more: the
 * timer tick of ordinary traffic then costs one load for the collectives
 * (walking them every tick cost R7's barriers 40-60 instructions each). */
bool plugin_ticking;

bool plugin_timer_run(void)
{
    bool more = false;

    for (uint32_t i = 0; i < n_plugins; i++)
        if (plugins[i]->timer && plugins[i]->timer())
            more = true;
    plugin_ticking = more;
    return more;
}

void mcp_timer_need(void)
{
    plugin_ticking = true;
    tx_timer_need();
}
