/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host-based multicast baselines over ordinary libnicoll messages: multiple
 * unicasts (what the NIC multisend replaces, R1) and MPICH's binomial
 * broadcast (what NIC forwarding replaces, R2). nicoll.h says what each
 * call does; docs/bench-r1r2.md how the benchmarks time them.
 */
#include "nicoll.h"
#include "nicoll/nc_limits.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Busy polls before waiting for an event falls back to nc_wait (which can
 * time out): ~5 ms of polls on P-GM2, far beyond any step, so measured
 * loops only ever busy-poll, as the paper's GM programs do. */
#define SPIN_POLLS 100000u

/* ctx values that mark the context's own sends and receive buffers */
static char send_mark, recv_mark;

int nc_hmc_init(nc_hmc *h, nc_port *p, unsigned nbufs, size_t maxlen)
{
    if (!h || !p || nbufs == 0 || nbufs > NC_ABI_RECV_TOKENS || maxlen > NC_ABI_MAX_MSG)
        return NC_EINVAL;
    memset(h, 0, sizeof *h);
    h->p = p;
    h->maxlen = maxlen;
    h->nbufs = nbufs;
    h->held = calloc(nbufs, sizeof *h->held);
    if (!h->held)
        return NC_ENOMEM;
    /* one region, one registration: a port has few registration slots */
    size_t each = maxlen ? maxlen : 1;     /* a 0-byte buffer still needs an address */
    uint8_t *b = nc_alloc(p, each * nbufs);
    int rc;

    if (!b)
        return NC_ENOMEM;
    if ((rc = nc_register(p, b, each * nbufs)))
        return rc;
    for (unsigned i = 0; i < nbufs; i++)
        if ((rc = nc_provide_recv(p, b + i * each, maxlen, &recv_mark)))
            return rc;
    return NC_OK;
}

void nc_hmc_fini(nc_hmc *h)
{
    if (!h)
        return;
    free(h->held);
    h->held = NULL;
}

/* One event of the port: a send of ours done, or a message kept until it
 * is asked for. Anything else is not the context's traffic. */
static int consume(nc_hmc *h, const nc_event *ev)
{
    if (ev->type == NC_EVENT_SENT && ev->ctx == &send_mark) {
        h->sends--;
        return ev->status;
    }
    if (ev->type != NC_EVENT_RECV || ev->ctx != &recv_mark)
        return ev->status ? ev->status : NC_EINVAL;
    if (ev->status)
        return ev->status;
    if (h->nheld == h->nbufs)
        return NC_EINVAL;   /* cannot be: every held message holds one of nbufs buffers */
    h->held[h->nheld++] = *ev;
    return NC_OK;
}

/* Take the next event: busy polling first, then a bounded wait. */
static int next(nc_hmc *h)
{
    nc_event ev;

    for (unsigned i = 0; i < SPIN_POLLS; i++)
        if (nc_poll(h->p, &ev))
            return consume(h, &ev);
    int rc = nc_wait(h->p, &ev, h->timeout_ns);
    return rc ? rc : consume(h, &ev);
}

/* Post with the context's mark; with no send token free, reap completions. */
static int post(nc_hmc *h, int (*fn)(nc_hmc *, const void *), const void *arg)
{
    for (;;) {
        int rc = fn(h, arg);

        if (rc == NC_OK) {
            h->sends++;
            return NC_OK;
        }
        if (rc != NC_EAGAIN)
            return rc;
        if ((rc = next(h)))
            return rc;
    }
}

struct send_args { nc_member to; const void *buf; size_t len; };
struct mcast_args { uint32_t group; const void *buf; size_t len; };

static int do_send(nc_hmc *h, const void *arg)
{
    const struct send_args *a = arg;

    return nc_send(h->p, a->to.node, a->to.port, a->buf, a->len, &send_mark);
}

static int do_mcast(nc_hmc *h, const void *arg)
{
    const struct mcast_args *a = arg;

    return nc_mcast(h->p, a->group, a->buf, a->len, &send_mark);
}

int nc_hmc_send(nc_hmc *h, nc_member to, const void *buf, size_t len)
{
    struct send_args a = { to, buf, len };

    if (!h || !h->held)
        return NC_EINVAL;
    return post(h, do_send, &a);
}

int nc_hmc_mcast(nc_hmc *h, uint32_t group, const void *buf, size_t len)
{
    struct mcast_args a = { group, buf, len };

    if (!h || !h->held)
        return NC_EINVAL;
    return post(h, do_mcast, &a);
}

int nc_hmc_flush(nc_hmc *h)
{
    if (!h || !h->held)
        return NC_EINVAL;
    while (h->sends) {
        int rc = next(h);

        if (rc)
            return rc;
    }
    return NC_OK;
}

int nc_hmc_recv(nc_hmc *h, nc_member from, nc_event *ev)
{
    if (!h || !h->held || !ev)
        return NC_EINVAL;
    for (;;) {
        /* the oldest kept message from 'from': per-source order is kept */
        for (unsigned i = 0; i < h->nheld; i++)
            if (h->held[i].node == from.node && h->held[i].port == from.port) {
                *ev = h->held[i];
                memmove(&h->held[i], &h->held[i + 1], (h->nheld - i - 1) * sizeof *h->held);
                h->nheld--;
                return NC_OK;
            }
        int rc = next(h);
        if (rc)
            return rc;
    }
}

int nc_hmc_release(nc_hmc *h, void *buf)
{
    if (!h || !h->held || !buf)
        return NC_EINVAL;
    return nc_provide_recv(h->p, buf, h->maxlen, &recv_mark);
}

/* "Done": every send acknowledged. */
static int finish(nc_hmc *h)
{
    return nc_hmc_flush(h);
}

int nc_hmultisend(nc_hmc *h, const nc_member *dests, unsigned n, const void *buf, size_t len)
{
    if (!h || !h->held || (n && !dests))
        return NC_EINVAL;
    for (unsigned i = 0; i < n; i++) {
        int rc = nc_hmc_send(h, dests[i], buf, len);

        if (rc)
            return rc;
    }
    return finish(h);
}

/* MPICH's mask loops (MPIR_Bcast_binomial): the first set bit of the
 * relative rank names the parent; every lower power of two that stays
 * below n names a child, the largest first. */
int nc_hbcast_tree(unsigned n, unsigned root, unsigned me, int *parent, unsigned *child)
{
    unsigned r, mask = 1, nc = 0;

    if (n == 0 || n > NC_BARRIER_MAX_MEMBERS || root >= n || me >= n || !parent || !child)
        return NC_EINVAL;
    r = (me + n - root) % n;
    *parent = -1;
    while (mask < n) {
        if (r & mask) {
            *parent = (int)((me + n - mask) % n);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (r + mask < n)
            child[nc++] = (me + mask) % n;
    return (int)nc;
}

int nc_hbcast(nc_hmc *h, const nc_member *members, unsigned n, unsigned root, unsigned me,
              const void *buf, size_t len, nc_event *got)
{
    unsigned child[NC_HBCAST_MAX_CHILDREN];
    int parent, nc, rc;

    if (!h || !h->held || !members || (me != root && !got))
        return NC_EINVAL;
    if ((nc = nc_hbcast_tree(n, root, me, &parent, child)) < 0)
        return nc;
    if (parent >= 0) {
        if ((rc = nc_hmc_recv(h, members[parent], got)))
            return rc;
        buf = got->buf;
        len = got->len;
    }
    for (int i = 0; i < nc; i++)
        if ((rc = nc_hmc_send(h, members[child[i]], buf, len)))
            return rc;
    return finish(h);
}
