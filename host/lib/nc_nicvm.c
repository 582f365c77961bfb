/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libnicoll's NICVM calls (nicoll.h; docs/nicvm.md): a module compiled on
 * the host with ref/nicvm's compiler (the NIC does not trust it: it runs
 * the verifier itself), uploaded as an image (nc_abi.h struct
 * nc_nv_image), purged, listed; packets sent to a module or delegated to
 * the local one. Each NC_CMD_NICVM operation is answered by one
 * NC_EV_NICVM event; add, purge, list and the budget wait for theirs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/nc_abi.h"
#include "nicoll/nc_endian.h"
#include "nicoll.h"
#include "nc_nicvm.h"
#include "nv_compile.h"

/* an image (5,280 bytes at most with 256 nodes) or the list */
#define NV_SCRATCH (4u * (8u + NC_ABI_MAX_NODES + NV_CODE_MAX + NV_CONST_MAX))
#define NV_WAIT_NS 1000000000ull    /* an answer comes within a second */
#define NV_PORTS_MAX 64u

_Static_assert(4u * NC_NV_REC_WORDS * NC_NV_LIST_RECS <= NV_SCRATCH, "the list fits it");
_Static_assert(NC_NICVM_PAYLOAD_MAX == NC_NV_PAYLOAD_MAX, "one payload limit");

/* Each port's registered scratch buffer, made at its first use. */
static struct { nc_port *p; uint8_t *buf; } scratch[NV_PORTS_MAX];

static void scratch_forget(nc_port *p, void *arg)
{
    (void)arg;
    for (unsigned i = 0; i < NV_PORTS_MAX; i++)
        if (scratch[i].p == p)
            scratch[i].p = NULL;
}

static uint8_t *scratch_of(nc_port *p)
{
    unsigned fr = NV_PORTS_MAX;
    uint8_t *b;

    for (unsigned i = 0; i < NV_PORTS_MAX; i++) {
        if (scratch[i].p == p)
            return scratch[i].buf;
        if (!scratch[i].p && fr == NV_PORTS_MAX)
            fr = i;
    }
    if (fr == NV_PORTS_MAX || !(b = nc_alloc(p, NV_SCRATCH)) || nc_register(p, b, NV_SCRATCH) ||
        nc_on_close(p, scratch_forget, NULL))
        return NULL;
    scratch[fr].p = p;
    scratch[fr].buf = b;
    return b;
}

/* The name as two words, its bytes in order: 1..8 bytes, no NUL inside. */
static int name_words(const char *name, uint32_t w[2])
{
    size_t n = name ? strlen(name) : 0;
    uint8_t b[8] = { 0 };

    if (n == 0 || n > NC_NICVM_NAME_MAX)
        return NC_EINVAL;
    memcpy(b, name, n);
    w[0] = nc_get_be32(b);
    w[1] = nc_get_be32(b + 4);
    return NC_OK;
}

/* Post c (its cookie word at *cookie_at) and wait for its answer. */
static int post_wait(nc_port *p, union nc_cmd *c, uint32_t *cookie_at, nc_event *ev)
{
    char me;
    int k = nc_nv_cookie(p, &me), rc;

    if (k < 0)
        return k;
    *cookie_at = (uint32_t)k;
    if ((rc = nc_command(p, c->w)) != NC_OK) {
        nc_nv_cookie_drop(p, (unsigned)k);
        return rc;
    }
    if ((rc = nc_nv_wait(p, &me, ev, NV_WAIT_NS)) != NC_OK)
        return rc;
    return ev->status;
}

int nc_nicvm_add_image(nc_port *p, const char *name, const uint32_t *words, size_t nwords,
                       nc_nicvm_verdict *v)
{
    union nc_cmd c;
    nc_event ev;
    uint8_t *s;
    uint64_t bus;
    int rc;

    memset(&c, 0, sizeof c);
    if (v)
        memset(v, 0, sizeof *v);
    if (!p || !words || name_words(name, c.nv_add.name) || nwords * 4u > NV_SCRATCH)
        return NC_EINVAL;
    if (!(s = scratch_of(p)))
        return NC_ENOMEM;
    for (size_t i = 0; i < nwords; i++)
        nc_put_be32(s + 4 * i, words[i]);
    if ((rc = nc_bus_address(p, s, nwords * 4u, &bus)) != NC_OK)
        return rc;
    c.nv_add.op = NC_CMD_NICVM;
    c.nv_add.nv_op = NC_NV_OP_ADD;
    c.nv_add.bus_hi = (uint32_t)(bus >> 32);
    c.nv_add.bus_lo = (uint32_t)bus;
    c.nv_add.len = (uint32_t)(nwords * 4u);
    rc = post_wait(p, &c, &c.nv_add.cookie, &ev);
    if (v && rc == NC_OK) {
        v->instructions = (unsigned)ev.len;
        v->cycles = ev.node;
        v->sends = ev.port;
    } else if (v && rc == NC_EREJECTED) {
        v->reason = (unsigned)ev.len;
        v->pc = ev.node;
        v->value = ev.port;
        snprintf(v->error, sizeof v->error, "the NIC's verifier: %s (instruction %u, value %u)",
                 nv_reject_text(v->reason), v->pc, v->value);
    }
    return rc;
}

int nc_nicvm_add(nc_port *p, const char *name, const char *src, size_t len,
                 const nc_member *ranks, unsigned size, unsigned rank, nc_nicvm_verdict *v)
{
    struct nv_compiler *cc;
    uint32_t *img;
    size_t n = 0;
    int rc;

    if (v)
        memset(v, 0, sizeof *v);
    if (!p || !src || len > NV_SRC_MAX || !ranks || size == 0 || size > NC_ABI_MAX_NODES ||
        rank >= size)
        return NC_EINVAL;
    if (!(cc = malloc(sizeof *cc)))
        return NC_ENOMEM;
    if (nv_compile(cc, src, (uint32_t)len)) {
        if (v)
            snprintf(v->error, sizeof v->error, "%u:%u: %s", cc->err[0].line, cc->err[0].col,
                     cc->err[0].msg);
        free(cc);
        return NC_EREJECTED;
    }
    img = malloc(4u * (8u + size + cc->prog.len + cc->prog.nconst));
    if (!img) {
        free(cc);
        return NC_ENOMEM;
    }
    img[n++] = NC_NV_MAGIC;
    img[n++] = rank;
    img[n++] = size;
    img[n++] = cc->prog.len;
    img[n++] = cc->prog.nconst;
    img[n++] = cc->prog.nlocals;
    img[n++] = cc->prog.nstate;
    img[n++] = 0;
    for (unsigned i = 0; i < size; i++)
        img[n++] = NC_MC_MEMBER(ranks[i].node, ranks[i].port);
    for (unsigned i = 0; i < cc->prog.len; i++)
        img[n++] = cc->prog.code[i];
    for (unsigned i = 0; i < cc->prog.nconst; i++)
        img[n++] = cc->prog.konst[i];
    free(cc);
    rc = nc_nicvm_add_image(p, name, img, n, v);
    free(img);
    return rc;
}

int nc_nicvm_purge(nc_port *p, const char *name)
{
    union nc_cmd c;
    nc_event ev;

    memset(&c, 0, sizeof c);
    if (!p || name_words(name, c.nv_purge.name))
        return NC_EINVAL;
    c.nv_purge.op = NC_CMD_NICVM;
    c.nv_purge.nv_op = NC_NV_OP_PURGE;
    return post_wait(p, &c, &c.nv_purge.cookie, &ev);
}

static int send_op(nc_port *p, uint32_t op, const char *name, unsigned rank, const void *buf,
                   size_t len, void *ctx)
{
    union nc_cmd c;
    uint64_t bus = 0;
    int k, rc;

    memset(&c, 0, sizeof c);
    if (!p || name_words(name, c.nv_send.name) || len > NC_NICVM_PAYLOAD_MAX || rank > 0xFFFFu ||
        (len && !buf))
        return NC_EINVAL;
    if (len && (rc = nc_bus_address(p, buf, len, &bus)) != NC_OK)
        return rc;
    if ((k = nc_nv_cookie(p, ctx)) < 0)
        return k;
    c.nv_send.op = NC_CMD_NICVM;
    c.nv_send.nv_op = op;
    c.nv_send.bus_hi = (uint32_t)(bus >> 32);
    c.nv_send.bus_lo = (uint32_t)bus;
    c.nv_send.len = (uint32_t)len;
    c.nv_send.dst = (uint32_t)rank << 16 | (uint32_t)k;
    if ((rc = nc_command(p, c.w)) != NC_OK)
        nc_nv_cookie_drop(p, (unsigned)k);
    return rc;
}

int nc_nicvm_send(nc_port *p, const char *name, unsigned rank, const void *buf, size_t len,
                  void *ctx)
{
    return send_op(p, NC_NV_OP_SEND, name, rank, buf, len, ctx);
}

int nc_nicvm_delegate(nc_port *p, const char *name, const void *buf, size_t len, void *ctx)
{
    return send_op(p, NC_NV_OP_DELEGATE, name, 0, buf, len, ctx);
}

int nc_nicvm_list(nc_port *p, nc_nicvm_info *mods, unsigned max, unsigned *n,
                  nc_nicvm_counters *ctr)
{
    union nc_cmd c;
    nc_event ev;
    uint8_t *s;
    uint64_t bus;
    unsigned bytes = 4u * NC_NV_REC_WORDS * NC_NV_LIST_RECS, got = 0;
    int rc;

    if (!p || (max && !mods))
        return NC_EINVAL;
    if (!(s = scratch_of(p)))
        return NC_ENOMEM;
    if ((rc = nc_bus_address(p, s, bytes, &bus)) != NC_OK)
        return rc;
    memset(&c, 0, sizeof c);
    c.nv_list.op = NC_CMD_NICVM;
    c.nv_list.nv_op = NC_NV_OP_LIST;
    c.nv_list.bus_hi = (uint32_t)(bus >> 32);
    c.nv_list.bus_lo = (uint32_t)bus;
    c.nv_list.len = bytes;
    if ((rc = post_wait(p, &c, &c.nv_list.cookie, &ev)) != NC_OK)
        return rc;
    if (ctr) {
        const uint8_t *r = s;

        ctr->modules = nc_get_be32(r + 4 * NC_NV_CTR_MODULES);
        ctr->malformed = nc_get_be32(r + 4 * NC_NV_CTR_MALFORMED);
        ctr->nomodule = nc_get_be32(r + 4 * NC_NV_CTR_NOMODULE);
        ctr->source = nc_get_be32(r + 4 * NC_NV_CTR_SOURCE);
        ctr->badimage = nc_get_be32(r + 4 * NC_NV_CTR_BADIMAGE);
        ctr->rejected = nc_get_be32(r + 4 * NC_NV_CTR_REJECTED);
        ctr->undelivered = nc_get_be32(r + 4 * NC_NV_CTR_UNDELIV);
    }
    for (unsigned i = 1; i < NC_NV_LIST_RECS && got < max; i++) {
        const uint8_t *r = s + 4 * NC_NV_REC_WORDS * i;
        nc_nicvm_info *m = &mods[got++];
        uint32_t owner = nc_get_be32(r + 4 * NC_NV_REC_OWNER);

        memset(m, 0, sizeof *m);
        memcpy(m->name, r + 4 * NC_NV_REC_NAME0, 8);
        m->owner = owner >> 24;
        m->rank = (owner >> 12) & 0xFFFu;
        m->size = owner & 0xFFFu;
        m->bound = nc_get_be32(r + 4 * NC_NV_REC_BOUND);
        m->runs = nc_get_be32(r + 4 * NC_NV_REC_RUNS);
        m->stops = nc_get_be32(r + 4 * NC_NV_REC_STOPS);
        m->sends = nc_get_be32(r + 4 * NC_NV_REC_SENDS);
        m->senderr = nc_get_be32(r + 4 * NC_NV_REC_SENDERR);
    }
    if (n)
        *n = got;
    return NC_OK;
}

int nc_nicvm_set_budget(nc_port *p, unsigned port, unsigned budget)
{
    union nc_cmd c;
    nc_event ev;

    if (!p)
        return NC_EINVAL;
    memset(&c, 0, sizeof c);
    c.nv_budget.op = NC_CMD_NICVM;
    c.nv_budget.nv_op = NC_NV_OP_BUDGET;
    c.nv_budget.port = port;
    c.nv_budget.budget = budget;
    return post_wait(p, &c, &c.nv_budget.cookie, &ev);
}
