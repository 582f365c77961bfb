/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host-based PE and GB barriers over ordinary libnicoll messages: the
 * baseline the NIC-based barrier is measured against (seed 002 section 6).
 * nc_hbarrier.h says what it does and what it needs from the port.
 */
#include "nc_hbarrier.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Busy polls before an idle barrier falls back to nc_wait (which can time
 * out): ~10 ms of 100-ns polls, far beyond any barrier step, so measured
 * barriers only ever busy-poll. */
#define SPIN_POLLS 100000u

/* ctx values that mark our own sends and receive buffers */
static char send_mark, recv_mark;

int nc_hbar_init(nc_hbar *h, nc_port *p)
{
    if (!h || !p)
        return NC_EINVAL;
    memset(h, 0, sizeof *h);
    h->p = p;
    h->nodes = nc_node_count(p);
    h->count = calloc((size_t)h->nodes * NC_PORTS, 1);
    if (!h->count)
        return NC_ENOMEM;
    for (unsigned i = 0; i < NC_HB_RECV_BUFS; i++) {
        int rc = nc_provide_recv(p, NULL, 0, &recv_mark);
        if (rc)
            return rc;
    }
    return NC_OK;
}

void nc_hbar_fini(nc_hbar *h)
{
    if (!h)
        return;
    free(h->count);
    h->count = NULL;
}

/* Account for one event of the port: our send done, or a barrier message
 * (counted for its sender; its buffer owed back, given when idle). */
static int consume(nc_hbar *h, const nc_event *ev)
{
    if (ev->type == NC_EVENT_SENT && ev->ctx == &send_mark) {
        h->sends--;
        return ev->status;
    }
    if (ev->type != NC_EVENT_RECV || ev->ctx != &recv_mark)
        return ev->status ? ev->status : NC_EINVAL;
    if (ev->status)
        return ev->status;
    if (ev->len != 0 || ev->node >= h->nodes || ev->port >= NC_PORTS)
        return NC_EINVAL;
    h->owed++;
    uint8_t *c = &h->count[ev->node * NC_PORTS + ev->port];
    if (*c == UINT8_MAX)
        return NC_EINVAL;   /* impossible if every member runs the same barriers */
    (*c)++;
    return NC_OK;
}

/* Give the consumed receive buffers back to the NIC. */
static int give_back(nc_hbar *h)
{
    while (h->owed) {
        int rc = nc_provide_recv(h->p, NULL, 0, &recv_mark);
        if (rc)
            return rc;
        h->owed--;
    }
    return NC_OK;
}

/* Take the next event: busy polling first, then a bounded wait. The first
 * empty poll is idle time: the buffers owed go back then, off the path
 * from a message taken to the send it allows (and always before a wait,
 * so the NIC never runs out of them). */
static int next(nc_hbar *h)
{
    nc_event ev;

    for (unsigned i = 0; i < SPIN_POLLS; i++) {
        if (nc_poll(h->p, &ev))
            return consume(h, &ev);
        if (h->owed) {
            int rc = give_back(h);
            if (rc)
                return rc;
        }
    }
    int rc = give_back(h);
    if (!rc)
        rc = nc_wait(h->p, &ev, h->timeout_ns);
    return rc ? rc : consume(h, &ev);
}

static int send_to(nc_hbar *h, nc_member m)
{
    for (;;) {
        int rc = nc_send(h->p, m.node, m.port, NULL, 0, &send_mark);
        if (rc == NC_OK) {
            h->sends++;
            return NC_OK;
        }
        if (rc != NC_EAGAIN)
            return rc;
        if ((rc = next(h)))     /* no send token: reap a completion */
            return rc;
    }
}

/* Wait until peer m's message is there and consume it. */
static int recv_from(nc_hbar *h, nc_member m)
{
    uint8_t *c;

    if (m.node >= h->nodes || m.port >= NC_PORTS)
        return NC_EINVAL;
    c = &h->count[m.node * NC_PORTS + m.port];
    while (*c == 0) {
        int rc = next(h);
        if (rc)
            return rc;
    }
    (*c)--;
    return NC_OK;
}

#define skipped(s, n, i) false

/* The steps of nc_barrier_expand, in order, one message each (an exchange
 * is a send, then the receive from the same peer): the same order the NIC
 * follows for the same description. */
int nc_hbar_run(nc_hbar *h, const nc_barrier *b)
{
    nc_barrier_step s[NC_BARRIER_MAX_EXPANDED];
    int n;

    if (!h || !h->count || (n = nc_barrier_expand(b, s)) < 0)
        return NC_EINVAL;
    for (int i = 0; i < n; i++) {
        int rc = NC_OK;

        if (s[i].op != NC_BAR_OP_RECV)
            rc = send_to(h, s[i].peer);
        if (!rc && s[i].op != NC_BAR_OP_SEND && !skipped(s, n, i))
            rc = recv_from(h, s[i].peer);
        if (rc)
            return rc;
    }
    return NC_OK;
}

/* The convenience contexts: one per open port of this process (at most
 * NC_PORTS at a time). A slot is released when its port closes, so a port
 * reopened later, even at the same address, gets a fresh context with
 * receive buffers on the new port. */
struct hb_slot { nc_port *p; nc_hbar h; };
static struct hb_slot slots[NC_PORTS];

static void release(nc_port *p, void *arg)
{
    struct hb_slot *s = arg;

    if (s->p != p)
        return;
    nc_hbar_fini(&s->h);
    s->p = NULL;
}

int nc_hbarrier(nc_port *p, const nc_barrier *b)
{
    struct hb_slot *s = NULL;
    int rc;

    if (!p)
        return NC_EINVAL;
    for (unsigned i = 0; i < NC_PORTS; i++) {
        if (slots[i].p == p)
            return nc_hbar_run(&slots[i].h, b);
        if (!slots[i].p && !s)
            s = &slots[i];
    }
    if (!s)
        return NC_EINVAL;
    rc = nc_hbar_init(&s->h, p);
    if (!rc)
        rc = nc_on_close(p, release, s);
    if (rc) {
        nc_hbar_fini(&s->h);
        return rc;
    }
    s->p = p;
    return nc_hbar_run(&s->h, b);
}
