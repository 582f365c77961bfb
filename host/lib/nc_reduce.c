/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NIC-based reduction (nicoll.h "NIC-based reduction"; firmware/coll/reduce.c,
 * docs/reduction.md): each start writes a block (struct nc_red_block, then
 * the data in the NIC's order, big-endian) into one of the port's
 * NC_REDUCE_INFLIGHT blocks, registered once, and posts NC_CMD_REDUCE with
 * the block's index as its cookie. The NIC writes the result, where one
 * comes, back into the block's data; the event turns it into the host's
 * order in place (nicoll.c's take_event calls ncp_reduce_event).
 */
#include <string.h>

#include "nicoll/nc_abi.h"
#include "nicoll/nc_endian.h"
#include "nc_internal.h"
#include "nc_red.h"
#include "nicoll.h"

_Static_assert(sizeof(((nc_reduce *)0)->children) / sizeof(nc_member) == NC_RED_CHILDREN,
               "nc_reduce.children holds NC_RED_CHILDREN members");

#define BLOCK (NC_RED_HDR_BYTES + NC_RED_DATA_MAX)

static struct redport {
    nc_port *p;
    uint8_t *blocks;                    /* NC_REDUCE_INFLIGHT blocks, registered */
    uint64_t bus;
    struct {
        bool used, result;
        unsigned esize;                 /* bytes per element */
        size_t bytes;
        void *ctx;
    } c[NC_REDUCE_INFLIGHT];
} rp[NC_PORTS];

static struct redport *find(nc_port *p, bool make)
{
    struct redport *free_one = NULL;

    for (unsigned i = 0; i < NC_PORTS; i++) {
        if (rp[i].p == p)
            return &rp[i];
        if (!rp[i].p && !free_one)
            free_one = &rp[i];
    }
    if (!make || !free_one)
        return NULL;
    memset(free_one, 0, sizeof *free_one);
    free_one->p = p;
    return free_one;
}

/* The port closes: its blocks go with its memory. */
static void forget(nc_port *p, void *arg)
{
    struct redport *r = find(p, false);

    (void)arg;
    if (r)
        memset(r, 0, sizeof *r);
}

static unsigned elem_size(unsigned type)
{
    switch (type) {
    case NC_RED_I32: case NC_RED_U32: case NC_RED_F32: return 4;
    case NC_RED_I64: case NC_RED_U64: case NC_RED_F64: return 8;
    default: return 0;
    }
}

/* Elements between the host's order and the NIC's (big-endian; the same
 * swap both ways). */
static void swap_elems(uint8_t *to, const uint8_t *from, size_t bytes, unsigned esize)
{
    for (size_t i = 0; i < bytes; i += esize) {
        if (esize == 4) {
            uint32_t v;

            memcpy(&v, from + i, 4);
            nc_put_be32(to + i, v);
        } else {
            uint64_t v;

            memcpy(&v, from + i, 8);
            nc_put_be32(to + i, (uint32_t)(v >> 32));
            nc_put_be32(to + i + 4, (uint32_t)v);
        }
    }
}

static uint32_t member(nc_member m)
{
    return NC_MC_MEMBER(m.node, m.port);
}

int nc_reduce_start(nc_port *p, const nc_reduce *r, const void *data, void *ctx)
{
    union nc_cmd c = { .reduce.op = NC_CMD_REDUCE };
    struct redport *rq;
    unsigned esize, k = 0;
    size_t bytes;
    uint8_t *b;
    int rc;

    if (!p || !r || !data || !(esize = elem_size(r->type)) || r->op >= NC_RED_NOPS ||
        (r->op >= NC_RED_BAND && r->type >= NC_RED_F32) || !r->count || r->count > NC_RED_DATA_MAX / esize ||
        r->nchildren > NC_RED_CHILDREN ||
        (r->exact && (r->op != NC_RED_SUM || r->type < NC_RED_F32 || r->count > NC_RED_XMAX)))
        return NC_EINVAL;
    if (!(rq = find(p, true)))
        return NC_ENORES;
    if (!rq->blocks) {
        uint8_t *mem = nc_alloc(p, (size_t)BLOCK * NC_REDUCE_INFLIGHT);

        if (!mem)
            return NC_ENOMEM;
        if ((rc = nc_register(p, mem, (size_t)BLOCK * NC_REDUCE_INFLIGHT)) != NC_OK)
            return rc;
        if ((rc = nc_bus_address(p, mem, (size_t)BLOCK * NC_REDUCE_INFLIGHT, &rq->bus)) != NC_OK)
            return rc;
        if ((rc = nc_on_close(p, forget, NULL)) != NC_OK)
            return rc;
        rq->blocks = mem;
    }
    while (k < NC_REDUCE_INFLIGHT && rq->c[k].used)
        k++;
    if (k == NC_REDUCE_INFLIGHT)
        return NC_EAGAIN;
    bytes = r->count * esize;
    b = rq->blocks + (size_t)k * BLOCK;
    memset(b, 0, NC_RED_HDR_BYTES);
    nc_put_be32(b + offsetof(struct nc_red_block, instance), r->instance);
    nc_put_be32(b + offsetof(struct nc_red_block, op_type), NC_RED_OP_TYPE(r->op, r->type, r->all) |
                                                          (r->exact ? NC_RED_EXACT : 0u));
    nc_put_be32(b + offsetof(struct nc_red_block, count), (uint32_t)r->count);
    nc_put_be32(b + offsetof(struct nc_red_block, parent), r->root ? NC_MC_ROOT : member(r->parent));
    nc_put_be32(b + offsetof(struct nc_red_block, nchildren), r->nchildren);
    for (unsigned i = 0; i < r->nchildren; i++)
        nc_put_be32(b + offsetof(struct nc_red_block, child) + 4 * i, member(r->children[i]));
    swap_elems(b + NC_RED_HDR_BYTES, data, bytes, esize);
    c.reduce.bus_hi = (uint32_t)((rq->bus + (uint64_t)k * BLOCK) >> 32);
    c.reduce.bus_lo = (uint32_t)(rq->bus + (uint64_t)k * BLOCK);
    c.reduce.len = (uint32_t)(NC_RED_HDR_BYTES + bytes);
    c.reduce.cookie = k;
    c.reduce.instance = r->instance;
    rq->c[k].used = true;
    rq->c[k].result = r->root || r->all;
    rq->c[k].esize = esize;
    rq->c[k].bytes = bytes;
    rq->c[k].ctx = ctx;
    if ((rc = ncp_post(p, &c)) != NC_OK)
        rq->c[k].used = false;
    return rc;
}

void ncp_reduce_event(nc_port *p, uint32_t cookie, nc_event *ev)
{
    struct redport *rq = find(p, false);

    ev->type = NC_EVENT_REDUCE;
    if (!rq || cookie >= NC_REDUCE_INFLIGHT || !rq->c[cookie].used) {
        ev->type = NC_EVENT_ERROR;      /* not one of ours: the NIC or the ring is confused */
        ev->status = NC_EINVAL;
        return;
    }
    rq->c[cookie].used = false;
    ev->ctx = rq->c[cookie].ctx;
    ev->len = rq->c[cookie].bytes;
    if (ev->status == NC_OK && rq->c[cookie].result) {
        uint8_t *d = rq->blocks + (size_t)cookie * BLOCK + NC_RED_HDR_BYTES;

        swap_elems(d, d, ev->len, rq->c[cookie].esize);
        ev->buf = d;
    }
}
