/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NICVM (seed 004 chapter 4; docs/nicvm.md): user modules on the NIC. A
 * host uploads a module's bytecode (compiled on the host, ref/nicvm
 * nv_compile); this NIC verifies it with ref/nicvm's verifier, the same C
 * as nicvm-check (proved: an accepted module stays inside its memory and
 * the packet and runs at most its bound), against its port's budget, and
 * keeps it under its name. ref/nicvm's VM then runs the module on every
 * NICVM data packet for it, on the receive path before the host DMA
 * (mcp_plugin.h's `data` hook), and on a packet the local host delegates
 * (the loopback path, seed 004 Figure 4.5).
 *
 * A module's sends (mpi_send_message(type, rank)) are queued while it runs
 * and go after it returns, each a reliable packet of the ordinary
 * connections (mcp_send_data) whose payload is gathered from the one
 * buffer the packet is in: the kept rx buffer, or the NICVM buffer a
 * delegated packet was fetched into. A rank is a word of the table given
 * at upload (NC_MC_MEMBER(node, port)): a module reaches only the ranks
 * of that table, never its own (the wire does not loop back), and its
 * packets leave from its own port. The host DMA (mcp_recv_take, then the
 * store and the RECV event) comes after every send's completion callback,
 * and not at all when the module consumed the packet; a send that fails
 * (the port's send time-out: a dead node) is counted and the packet still
 * reaches the local host. An activation that does not return SUCCESS or
 * PACKET_CONSUMED (a run-time stop: the step budget, an index, a rank; or
 * NICVM_RESULT_FAILURE) sends nothing and gives the packet to the host
 * with status NC_ST_EINVAL.
 *
 * Modules are named (8 bytes), NC_NV_MODULES per NIC, owned by the port
 * that uploaded them: only it or NC_NV_PRIV_PORT may replace or purge one.
 * They stay when that port closes (their packets for a closed port are
 * dropped and counted). Packets from the wire that are malformed, name no
 * module of their port, or carry a module (remote upload is not allowed)
 * are refused and counted (NC_NV_OP_LIST's counters).
 *
 * Memory. A module is ~15 KB (struct nv_prog keeps the verifier's per
 * instruction arrays beside the code, which the VM's proof reads), more
 * than the 1 MiB the small code model addresses has free, so the modules,
 * the upload staging area and the host packets' buffers live in the MCP's
 * arena above the image (mcp_sram, taken at init): every access goes
 * through pointers. Boards with less SRAM hold fewer modules (0 on a 1 MB
 * board: ADD answers NC_ST_ENORES).
 */
#include "nicvm.h"
#include "mcp_port.h"
#include "nv_verify.h"
#include "nv_vm.h"

#define NV_OWN_BUFS  8u         /* host packets (SEND, DELEGATE) in SRAM at once */
#define NV_JOBS      (NC_FW_RX_BUFS + NV_OWN_BUFS)
#define NV_IMG_WORDS (8u + NC_ABI_MAX_NODES + NV_CODE_MAX + NV_CONST_MAX)
/* the header words a module may write: PKT_TAG and PKT_USER0..2 */
#define NV_HDR_WRITABLE (1u << 3 | 1u << 5 | 1u << 6 | 1u << 7)
#define NV_FREE16 0xFFFFu

_Static_assert(NC_NV_WIRE_HDR == 4u * (NC_NV_W_HDR + NV_HDR_WORDS), "name, then the module's header");
_Static_assert(NC_NV_PAYLOAD_MAX + NC_NV_WIRE_HDR == NC_FW_MTU, "one NICVM message is one packet");
_Static_assert(NC_NV_BUDGET_MAX <= NV_CODE_MAX, "no budget beyond the longest module");
_Static_assert(NV_OWN_BUFS + NC_FW_RX_BUFS <= 0xFFFFu, "a job index is the packets' word");
/* mcp_store_cb never finds the store queue full: sized for every staged
 * event and rx buffer, and NICVM adds its own buffers' stores and a list's */
_Static_assert(NC_FW_DMA_QUEUE >= NC_FW_EV_STAGE + NC_FW_RX_BUFS + NV_OWN_BUFS + 1u,
               "the store queue holds NICVM's stores too");

/* A module's SRAM, in the arena. */
struct nv_data {
    struct nv_prog prog;
    uint32_t member[NC_ABI_MAX_NODES];  /* NC_MC_MEMBER of each rank */
    uint32_t state[NV_STATE_MAX];
};

struct nv_mod {
    uint32_t name0, name1;              /* both 0: a free slot */
    uint32_t owner, port;               /* the uploading port; its rank's port (the same) */
    uint32_t rank, size, budget, bound;
    uint32_t runs, stops, sends, senderr;
    struct nv_data *d;
} __attribute__((aligned(64)));     /* 52 bytes padded to 64: an index is one shift (the
                                       LANai multiplies in software) */

/* A packet on its way through a module: in rx buffer b (job b) or in an
 * own buffer (jobs NC_FW_RX_BUFS ..). */
struct nv_job {
    uint8_t busy, op;           /* op: 0 a packet from the wire; SEND, DELEGATE */
    uint8_t port, sport, failed, deliver, waiting, pad;
    uint16_t pending, mod;
    uint32_t name0, name1, src, len, gen, cookie, ok, err, status, result;
    uint32_t *w;                /* the NICVM payload: name, header words, payload */
} __attribute__((aligned(64)));     /* 56 bytes padded to 64, as struct nv_mod */

static struct nv_mod nv_mods[NC_NV_MODULES];
static struct nv_job nv_jobs[NV_JOBS];
static uint32_t nv_nmods;                   /* slots the arena holds */
static uint32_t nv_ctr[NC_NV_REC_WORDS];    /* NC_NV_CTR_* */
static uint32_t nv_budget[NC_ABI_PORTS];
static struct nv_data *nv_spare;            /* an upload is verified here */
static uint32_t *nv_img;                    /* the upload staging area */
static uint32_t nv_nwaiting;                /* jobs waiting for a receive buffer */
/* the ADD being fetched (one at a time) */
static struct { uint32_t busy, port, gen, name0, name1, len, cookie; } nv_add;
static uint32_t nv_list[NC_NV_LIST_RECS * NC_NV_REC_WORDS] __attribute__((aligned(8)));
static uint32_t nv_list_busy;
/* the data callback's job, while it runs: a release then is its verdict */
static struct nv_job *nv_in_data;
static bool nv_released;

static void nv_answer(uint32_t port, uint32_t gen, uint32_t op, uint32_t status, uint32_t cookie,
                      uint32_t a, uint32_t b, uint32_t c)
{
    port_event_group(port, gen, NC_EV_NICVM, status, cookie, a, b, c, op);
}

static void nv_init(void)
{
    /* the own buffers, the staging area, the spare and the first slot in
     * one piece: a board with less room holds no module at all */
    uintptr_t need = NV_OWN_BUFS * NC_FW_MTU + 4u * NV_IMG_WORDS;
    uint8_t *p = mcp_sram(need + 2u * sizeof(struct nv_data));

    for (uint32_t i = 0; i < NC_ABI_PORTS; i++)
        nv_budget[i] = NC_NV_BUDGET_DEFAULT;
    for (uint32_t i = 0; i < NV_JOBS; i++)
        nv_jobs[i].mod = NV_FREE16;
    if (!p)
        return;                 /* no room: no modules (ADD: NC_ST_ENORES) */
    for (uint32_t i = 0; i < NV_OWN_BUFS; i++)
        nv_jobs[NC_FW_RX_BUFS + i].w = (uint32_t *)(p + i * NC_FW_MTU);
    nv_img = (uint32_t *)(p + NV_OWN_BUFS * NC_FW_MTU);
    nv_spare = (struct nv_data *)(p + need);
    nv_mods[nv_nmods++].d = nv_spare + 1;
    while (nv_nmods < NC_NV_MODULES) {
        struct nv_data *d = mcp_sram(sizeof(struct nv_data));

        if (!d)
            break;
        nv_mods[nv_nmods++].d = d;
    }
}

static struct nv_mod *nv_find(uint32_t name0, uint32_t name1)
{
    for (uint32_t i = 0; i < nv_nmods; i++)
        if (nv_mods[i].name0 == name0 && nv_mods[i].name1 == name1 && (name0 | name1))
            return &nv_mods[i];
    return 0;
}

/* The module a job's counters go to: its slot, unless it was purged or
 * replaced since (a packet in flight outlives its module safely). */
static struct nv_mod *nv_job_mod(const struct nv_job *j)
{
    struct nv_mod *m = j->mod < nv_nmods ? &nv_mods[j->mod] : 0;

    return m && m->name0 == j->name0 && m->name1 == j->name1 ? m : 0;
}

/* ---- the end of a packet ---------------------------------------------- */
static void nv_job_free(struct nv_job *j)
{
    uint16_t b = (uint16_t)(j - nv_jobs);

    j->busy = 0;
    if (j->op)
        return;                 /* an own buffer: free with the job */
    if (nv_in_data == j)
        nv_released = true;     /* the data callback's verdict says it */
    else
        mcp_rx_release(b);
}

static void nv_own_stored(uint32_t port, uint32_t gen, uint16_t arg, bool last, bool ok)
{
    (void)port, (void)gen, (void)last, (void)ok;
    nv_jobs[arg].busy = 0;
}

/* DELEGATE's answer, once the packet is through (sends done, delivered or
 * consumed). */
static void nv_delegated(const struct nv_job *j)
{
    if (j->op == NC_NV_OP_DELEGATE)
        nv_answer(j->port, j->gen, NC_NV_OP_DELEGATE, j->failed ? NC_ST_EINVAL : NC_ST_OK, j->cookie,
                  j->ok, j->err, j->result);
}

/* The host DMA: a receive buffer of the port, the payload, the RECV event;
 * later (the timer) when the host has given no buffer yet. */
static void nv_deliver(struct nv_job *j)
{
    uint16_t i = (uint16_t)(j - nv_jobs);
    const uint8_t *from = (const uint8_t *)j->w + NC_NV_WIRE_HDR;
    uint32_t st = j->failed ? NC_ST_EINVAL : NC_ST_OK, len = j->len;
    struct mcp_rbuf rb;

    if (!port_is_open(j->port)) {
        nv_ctr[NC_NV_CTR_UNDELIV]++;
        nv_job_free(j);
        return;
    }
    if (!mcp_recv_take(j->port, len, &rb)) {
        if (!j->waiting) {
            j->waiting = 1;
            nv_nwaiting++;
            mcp_timer_need();
        }
        return;
    }
    /* protection again at the moment of the DMA, as the core's deliver */
    if (len && !port_mem_ok(rb.port, rb.hi, rb.lo, len)) {
        st = NC_ST_EFAULT;
        len = 0;
    }
    if (!len)
        nv_job_free(j);
    else if (j->op)
        mcp_store_cb(nv_own_stored, rb.port, rb.gen, i, from, rb.hi, rb.lo, len);
    else {
        j->busy = 0;
        mcp_store(rb.port, rb.gen, i, from, rb.hi, rb.lo, len);    /* b free once stored */
    }
    port_event(rb.port, rb.gen, NC_EV_RECV, st, rb.cookie, len, j->src, j->sport);
    nv_delegated(j);
}

/* Every send of the packet is done. */
static void nv_finish(struct nv_job *j)
{
    if (j->op == NC_NV_OP_SEND) {
        nv_answer(j->port, j->gen, NC_NV_OP_SEND, j->status, j->cookie, j->ok, j->err, 0);
        j->busy = 0;
    } else if (!j->deliver) {
        nv_delegated(j);
        nv_job_free(j);
    } else {
        nv_deliver(j);
    }
}

static void nv_sent(uint16_t tok, uint32_t status)
{
    struct nv_job *j = &nv_jobs[stok[tok].cookie];
    struct nv_mod *m = nv_job_mod(j);

    mcp_release(tok);
    if (status == NC_ST_OK) {
        j->ok++;
        if (m)
            m->sends++;
    } else {
        j->err++;
        j->status = status;
        if (m)
            m->senderr++;
    }
    if (--j->pending == 0)
        nv_finish(j);
}

static bool nv_timer(void)
{
    for (uint32_t i = 0; i < NV_JOBS && nv_nwaiting; i++)
        if (nv_jobs[i].busy && nv_jobs[i].waiting) {
            nv_jobs[i].waiting = 0;
            nv_nwaiting--;
            nv_deliver(&nv_jobs[i]);
        }
    return nv_nwaiting != 0;
}

/* ---- an activation ---------------------------------------------------- */
struct nv_act {
    const struct nv_mod *m;
    uint32_t n;
    uint32_t to[NV_SENDS_MAX];
};

/* The VM's send callback: queued, sent once the module has returned (a
 * send on the wire now would not carry what the module writes after it). */
static int nv_queue(void *ctx, uint32_t type, uint32_t rank)
{
    struct nv_act *a = ctx;

    if (type != NV_PT_NIC_DATA || rank >= a->m->size || rank == a->m->rank || a->n >= NV_SENDS_MAX)
        return 0;
    a->to[a->n++] = a->m->d->member[rank];
    return 1;
}

/* Run module m on job j's packet (its NICVM header in place), then its
 * sends; the packet's end once they are done. */
static void nv_activate(struct nv_job *j, struct nv_mod *m)
{
    struct nv_env env;
    struct nv_result r;
    struct nv_act a;
    uint32_t *w = j->w;

    env.size = m->size;
    env.rank = m->rank;
    env.root = w[NC_NV_W_SRC];
    env.hdr = w + NC_NV_W_HDR;
    env.hdr_writable = NV_HDR_WRITABLE;
    env.payload = w + NC_NV_WIRE_HDR / 4u;
    env.payload_words = (j->len + 3u) / 4u;
    env.state = m->d->state;
    env.ctx = &a;
    env.send = nv_queue;
    a.m = m;
    a.n = 0;
    nv_run(&m->d->prog, &env, m->budget, &r);
    m->runs++;
    j->mod = (uint16_t)(m - nv_mods);
    j->name0 = m->name0;
    j->name1 = m->name1;
    j->port = (uint8_t)m->port;
    j->failed = r.stop != NV_STOP_RETURN || r.result > NV_RESULT_PACKET_CONSUMED;
    j->result = j->failed ? NV_RESULT_FAILURE : r.result;
    j->deliver = j->result != NV_RESULT_PACKET_CONSUMED;
    j->ok = j->err = 0;
    j->status = NC_ST_OK;
    if (j->failed) {
        m->stops++;
        a.n = 0;
    }
    j->pending = 1;             /* the loop's own: no end before every send is queued */
    for (uint32_t i = 0; i < a.n; i++) {
        if (mcp_send_data(m->port, a.to[i] >> 8, a.to[i] & 0xFFu, NC_PT_NV_DATA & 0xFFu, 0,
                          (uint32_t)(j - nv_jobs), w, NC_NV_WIRE_HDR + j->len, nv_sent) < 0) {
            j->err++;
            m->senderr++;
        } else {
            j->pending++;
        }
    }
    if (--j->pending == 0)
        nv_finish(j);
}

/* ---- from the wire ---------------------------------------------------- */
static enum mcp_rx_verdict nv_data(uint32_t src, const struct nc_pkt *h, uint16_t b)
{
    uint32_t *w = (uint32_t *)((uintptr_t)h + NC_PKT_HDR);
    struct nv_job *j = &nv_jobs[b];
    struct nv_mod *m;

    if (h->type == NC_PT_NV_SOURCE) {
        nv_ctr[NC_NV_CTR_SOURCE]++;
        return MCP_RX_DONE;
    }
    if (h->type != NC_PT_NV_DATA || h->len < NC_NV_WIRE_HDR || h->offset || h->len != h->msg_len ||
        w[NC_NV_W_LENGTH] != h->len - NC_NV_WIRE_HDR || w[NC_NV_W_TYPE] != NV_PT_NIC_DATA) {
        nv_ctr[NC_NV_CTR_MALFORMED]++;
        return MCP_RX_DONE;
    }
    m = nv_find(w[NC_NV_W_NAME0], w[NC_NV_W_NAME1]);
    if (!m || m->port != h->dst_port || w[NC_NV_W_SRC] >= m->size) {
        nv_ctr[NC_NV_CTR_NOMODULE]++;
        return MCP_RX_DONE;
    }
    j->busy = 1;
    j->op = 0;
    j->waiting = 0;
    j->w = w;
    j->len = w[NC_NV_W_LENGTH];
    j->src = src;
    j->sport = h->src_port;
    nv_in_data = j;
    nv_released = false;
    nv_activate(j, m);
    nv_in_data = 0;
    return nv_released ? MCP_RX_DONE : MCP_RX_KEEP;
}

/* ---- host commands ---------------------------------------------------- */
/* The fetched image of the pending ADD: checked, verified, installed. */
static void nv_added(uint32_t port, uint32_t gen, uint16_t arg, bool last, bool ok)
{
    const struct nc_nv_image *im = (const struct nc_nv_image *)nv_img;
    const uint32_t *member = nv_img + 8, *code, *konst;
    uint32_t op = NC_NV_OP_ADD, cookie = nv_add.cookie, words = nv_add.len / 4u;
    struct nv_prog *p = &nv_spare->prog;
    struct nv_reject rej;
    struct nv_mod *m;
    bool good;

    (void)arg, (void)last;
    nv_add.busy = 0;
    if (!ok) {
        nv_answer(port, gen, op, NC_ST_EFAULT, cookie, 0, 0, 0);
        return;
    }
    good = im->magic == NC_NV_MAGIC && im->size >= 1 && im->size <= NC_ABI_MAX_NODES &&
           im->rank < im->size && im->len >= 1 && im->len <= NV_CODE_MAX &&
           im->nconst <= NV_CONST_MAX && im->nlocals <= NV_LOCALS_MAX && im->nstate <= NV_STATE_MAX &&
           words == 8u + im->size + im->len + im->nconst;
    for (uint32_t r = 0; good && r < im->size; r++)
        good = (member[r] >> 8) < n_nodes && (member[r] & 0xFFu) < NC_ABI_PORTS &&
               (member[r] >> 8) < NC_ABI_MAX_NODES;
    /* this NIC's rank is the uploading port: a module delivers to no
     * other port's process */
    good = good && member[im->rank] == NC_MC_MEMBER(my_node, port);
    if (!good) {
        nv_ctr[NC_NV_CTR_BADIMAGE]++;
        nv_answer(port, gen, op, NC_ST_EINVAL, cookie, 0, 0, 0);
        return;
    }
    m = nv_find(nv_add.name0, nv_add.name1);
    if (m && m->owner != port && port != NC_NV_PRIV_PORT) {
        nv_answer(port, gen, op, NC_ST_EPERM, cookie, 0, 0, 0);
        return;
    }
    if (!m)
        for (uint32_t i = 0; i < nv_nmods && !m; i++)
            if (!(nv_mods[i].name0 | nv_mods[i].name1))
                m = &nv_mods[i];
    if (!m) {
        nv_answer(port, gen, op, NC_ST_ENORES, cookie, 0, 0, 0);
        return;
    }
    code = member + im->size;
    konst = code + im->len;
    p->len = im->len;
    p->nconst = im->nconst;
    p->nlocals = im->nlocals;
    p->nstate = im->nstate;
    for (uint32_t i = 0; i < im->len; i++)
        p->code[i] = code[i];
    for (uint32_t i = 0; i < im->nconst; i++)
        p->konst[i] = konst[i];
    if (nv_verify(p, nv_budget[port], &rej) != NV_OK) {
        nv_ctr[NC_NV_CTR_REJECTED]++;
        nv_answer(port, gen, op, NC_ST_EREJECTED, cookie, rej.reason, rej.pc, rej.value);
        return;
    }
    for (uint32_t r = 0; r < im->size; r++)
        nv_spare->member[r] = member[r];
    for (uint32_t i = 0; i < NV_STATE_MAX; i++)
        nv_spare->state[i] = 0;
    /* the verified copy becomes the module; the old one the spare */
    {
        struct nv_data *d = m->d;

        m->d = nv_spare;
        nv_spare = d;
    }
    if (!(m->name0 | m->name1))
        nv_ctr[NC_NV_CTR_MODULES]++;
    m->name0 = nv_add.name0;
    m->name1 = nv_add.name1;
    m->owner = m->port = port;
    m->rank = im->rank;
    m->size = im->size;
    m->budget = nv_budget[port];
    m->bound = p->cost[0];
    m->runs = m->stops = m->sends = m->senderr = 0;
    p = &m->d->prog;
    nv_answer(port, gen, op, NC_ST_OK, cookie, p->cost[0], (uint32_t)p->ccost[0],
              (uint32_t)p->scost[0]);
}

/* A host packet fetched into job arg's buffer: SEND or DELEGATE it. */
static void nv_fetched(uint32_t port, uint32_t gen, uint16_t arg, bool last, bool ok)
{
    struct nv_job *j = &nv_jobs[arg];
    struct nv_mod *m = nv_find(j->name0, j->name1);
    uint32_t rank = j->w[NC_NV_W_DST];

    (void)last;
    if (!ok || !m || m->port != port) {
        nv_answer(port, gen, j->op, ok ? NC_ST_EINVAL : NC_ST_EFAULT, j->cookie, 0, 0, 0);
        j->busy = 0;
        return;
    }
    if (j->op == NC_NV_OP_DELEGATE) {
        nv_activate(j, m);
        return;
    }
    j->ok = j->err = 0;
    j->status = NC_ST_OK;
    j->mod = (uint16_t)(m - nv_mods);
    j->pending = 1;
    if (rank >= m->size || rank == m->rank ||
        mcp_send_data(port, m->d->member[rank] >> 8, m->d->member[rank] & 0xFFu,
                      NC_PT_NV_DATA & 0xFFu, 0, arg, j->w, NC_NV_WIRE_HDR + j->len, nv_sent) < 0) {
        nv_answer(port, gen, NC_NV_OP_SEND, NC_ST_ENORES, j->cookie, 0, 1, 0);
        j->busy = 0;
    }
}

static void nv_cmd_send(uint32_t port, const struct nc_cmd_nv_send *c)
{
    uint32_t cookie = c->nv_op == NC_NV_OP_SEND ? c->dst & 0xFFFFu : c->dst;
    uint32_t rank = c->dst >> 16;
    struct nv_mod *m = nv_find(c->name[0], c->name[1]);
    struct nv_job *j = 0;

    for (uint32_t i = NC_FW_RX_BUFS; i < NV_JOBS && !j; i++)
        if (!nv_jobs[i].busy && nv_jobs[i].w)
            j = &nv_jobs[i];
    if (!m || c->len > NC_NV_PAYLOAD_MAX || (c->len && !port_mem_ok(port, c->bus_hi, c->bus_lo, c->len)) ||
        (c->nv_op == NC_NV_OP_SEND && (rank >= m->size || rank == m->rank))) {
        nv_answer(port, port_gen(port), c->nv_op, NC_ST_EINVAL, cookie, 0, 0, 0);
        return;
    }
    if (m->port != port) {
        nv_answer(port, port_gen(port), c->nv_op, NC_ST_EPERM, cookie, 0, 0, 0);
        return;
    }
    if (!j) {
        nv_answer(port, port_gen(port), c->nv_op, NC_ST_ENORES, cookie, 0, 0, 0);
        return;
    }
    j->busy = 1;
    j->op = (uint8_t)c->nv_op;
    j->waiting = 0;
    j->port = (uint8_t)port;
    j->sport = (uint8_t)port;
    j->src = my_node;
    j->gen = port_gen(port);
    j->cookie = cookie;
    j->len = c->len;
    j->name0 = c->name[0];
    j->name1 = c->name[1];
    j->w[NC_NV_W_NAME0] = c->name[0];
    j->w[NC_NV_W_NAME1] = c->name[1];
    for (uint32_t i = 0; i < NV_HDR_WORDS; i++)
        j->w[NC_NV_W_HDR + i] = 0;
    j->w[NC_NV_W_TYPE] = NV_PT_NIC_DATA;
    j->w[NC_NV_W_SRC] = m->rank;
    j->w[NC_NV_W_DST] = c->nv_op == NC_NV_OP_SEND ? rank : m->rank;
    j->w[NC_NV_W_LENGTH] = c->len;
    if (!c->len)
        nv_fetched(port, j->gen, (uint16_t)(j - nv_jobs), true, true);
    else if (!mcp_fetch(nv_fetched, port, j->gen, (uint16_t)(j - nv_jobs), j->w + NC_NV_WIRE_HDR / 4u,
                        c->bus_hi, c->bus_lo, c->len)) {
        j->busy = 0;
        nv_answer(port, j->gen, c->nv_op, NC_ST_ENORES, cookie, 0, 0, 0);
    }
}

static void nv_listed(uint32_t port, uint32_t gen, uint16_t cookie, bool last, bool ok)
{
    (void)last;
    nv_list_busy = 0;
    nv_answer(port, gen, NC_NV_OP_LIST, ok ? NC_ST_OK : NC_ST_EFAULT, cookie, nv_nmods, 0, 0);
}

static void nv_cmd_list(uint32_t port, const struct nc_cmd_nv_list *c)
{
    uint32_t bytes = 4u * NC_NV_REC_WORDS * NC_NV_LIST_RECS;

    if (nv_list_busy || c->len < bytes || !port_mem_ok(port, c->bus_hi, c->bus_lo, bytes) ||
        c->cookie > 0xFFFFu) {
        nv_answer(port, port_gen(port), NC_NV_OP_LIST, nv_list_busy ? NC_ST_ENORES : NC_ST_EINVAL,
                  c->cookie, 0, 0, 0);
        return;
    }
    for (uint32_t i = 0; i < NC_NV_REC_WORDS; i++)
        nv_list[i] = nv_ctr[i];
    for (uint32_t s = 0; s < NC_NV_MODULES; s++) {
        uint32_t *r = &nv_list[(1u + s) * NC_NV_REC_WORDS];
        const struct nv_mod *m = &nv_mods[s];

        r[NC_NV_REC_NAME0] = m->name0;
        r[NC_NV_REC_NAME1] = m->name1;
        r[NC_NV_REC_OWNER] = m->owner << 24 | m->rank << 12 | m->size;
        r[NC_NV_REC_BOUND] = m->bound;
        r[NC_NV_REC_RUNS] = m->runs;
        r[NC_NV_REC_STOPS] = m->stops;
        r[NC_NV_REC_SENDS] = m->sends;
        r[NC_NV_REC_SENDERR] = m->senderr;
    }
    nv_list_busy = 1;
    mcp_store_cb(nv_listed, port, port_gen(port), (uint16_t)c->cookie, nv_list, c->bus_hi, c->bus_lo,
                 bytes);
}

static void nv_command(uint32_t port, const union nc_cmd *cmd)
{
    const struct nc_cmd_nicvm *c = &cmd->nicvm;
    uint32_t gen = port_gen(port);
    struct nv_mod *m;

    switch (c->nv_op) {
    case NC_NV_OP_ADD: {
        const struct nc_cmd_nv_add *a = &cmd->nv_add;

        if (!nv_nmods || nv_add.busy) {
            nv_answer(port, gen, NC_NV_OP_ADD, NC_ST_ENORES, a->cookie, 0, 0, 0);
            return;
        }
        if (!(a->name[0] | a->name[1]) || a->len < sizeof(struct nc_nv_image) || a->len % 4u ||
            a->len > 4u * NV_IMG_WORDS || !port_mem_ok(port, a->bus_hi, a->bus_lo, a->len)) {
            nv_ctr[NC_NV_CTR_BADIMAGE]++;
            nv_answer(port, gen, NC_NV_OP_ADD, NC_ST_EINVAL, a->cookie, 0, 0, 0);
            return;
        }
        nv_add.busy = 1;
        nv_add.port = port;
        nv_add.gen = gen;
        nv_add.name0 = a->name[0];
        nv_add.name1 = a->name[1];
        nv_add.len = a->len;
        nv_add.cookie = a->cookie;
        if (!mcp_fetch(nv_added, port, gen, 0, nv_img, a->bus_hi, a->bus_lo, a->len)) {
            nv_add.busy = 0;
            nv_answer(port, gen, NC_NV_OP_ADD, NC_ST_ENORES, a->cookie, 0, 0, 0);
        }
        return;
    }
    case NC_NV_OP_PURGE:
        m = nv_find(c->name[0], c->name[1]);
        if (!m) {
            nv_answer(port, gen, NC_NV_OP_PURGE, NC_ST_EINVAL, cmd->nv_purge.cookie, 0, 0, 0);
        } else if (m->owner != port && port != NC_NV_PRIV_PORT) {
            nv_answer(port, gen, NC_NV_OP_PURGE, NC_ST_EPERM, cmd->nv_purge.cookie, 0, 0, 0);
        } else {
            /* packets in flight keep what they need in their job */
            m->name0 = m->name1 = 0;
            nv_ctr[NC_NV_CTR_MODULES]--;
            nv_answer(port, gen, NC_NV_OP_PURGE, NC_ST_OK, cmd->nv_purge.cookie, 0, 0, 0);
        }
        return;
    case NC_NV_OP_SEND:
    case NC_NV_OP_DELEGATE:
        nv_cmd_send(port, &cmd->nv_send);
        return;
    case NC_NV_OP_LIST:
        nv_cmd_list(port, &cmd->nv_list);
        return;
    case NC_NV_OP_BUDGET: {
        const struct nc_cmd_nv_budget *bu = &cmd->nv_budget;
        uint32_t st = NC_ST_OK;

        if (port != NC_NV_PRIV_PORT)
            st = NC_ST_EPERM;
        else if (bu->port >= NC_ABI_PORTS || !bu->budget || bu->budget > NC_NV_BUDGET_MAX)
            st = NC_ST_EINVAL;
        else
            nv_budget[bu->port] = bu->budget;
        nv_answer(port, gen, NC_NV_OP_BUDGET, st, bu->cookie, 0, 0, 0);
        return;
    }
    default:
        nv_answer(port, gen, c->nv_op, NC_ST_EINVAL, 0, 0, 0, 0);
    }
}

const struct mcp_coll nc_nicvm = {
    .cmd = NC_CMD_NICVM,
    .type_first = NC_PT_NV_DATA & 0xFF, .type_last = NC_NV_PT_LAST & 0xFF,
    .init = nv_init,
    .command = nv_command,
    .timer = nv_timer,
    .data = nv_data,
};

_Static_assert(sizeof(struct nv_job) == 64u && sizeof(struct nv_mod) == 64u,
               "jobs and modules are indexed by a shift");
