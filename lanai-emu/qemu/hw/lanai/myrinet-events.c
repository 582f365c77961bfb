/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A node's event queue in the myrinet machine: what is due to the node from
 * outside its CPU (PIO from its host, packet arrivals, link changes), as a
 * binary heap on (time, sequence). Sequence numbers come from the order in
 * which the simulation creates events, packets and console lines (one
 * counter per machine), which does not depend on how QEMU interleaves
 * CPUs, so neither does the order events are applied in.
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "myrinet-base.h"

static bool ev_before(const MrEvent *a, const MrEvent *b)
{
    return a->t_ps < b->t_ps || (a->t_ps == b->t_ps && a->seq < b->seq);
}

void mr_post(MrNode *n, MrEvent *e)
{
    MyrinetState *m = n->m;
    unsigned i;

    e->seq = ++m->seq;
    if (n->qn == n->qcap) {
        n->qcap = n->qcap ? n->qcap * 2 : 16;
        n->q = g_renew(MrEvent *, n->q, n->qcap);
    }
    i = n->qn++;
    while (i > 0 && ev_before(e, n->q[(i - 1) / 2])) {
        n->q[i] = n->q[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    n->q[i] = e;
    m->events++;
    if (n->in_mmio && n->state == MR_RUN) {
        /* cannot happen: nothing a NIC does lands on itself within L */
        error_report("myrinet: node %u: event posted inside its own window",
                     n->id);
        abort();
    }
}

MrEvent *mr_ev_pop(MrNode *n)
{
    MrEvent *top = n->q[0], *last = n->q[--n->qn];
    unsigned i = 0;

    for (;;) {
        unsigned c = 2 * i + 1;
        if (c >= n->qn) {
            break;
        }
        if (c + 1 < n->qn && ev_before(n->q[c + 1], n->q[c])) {
            c++;
        }
        if (!ev_before(n->q[c], last)) {
            break;
        }
        n->q[i] = n->q[c];
        i = c;
    }
    if (n->qn) {
        n->q[i] = last;
    }
    return top;
}

/* When something is next due at this node (event or NIC wake-up). */
uint64_t mr_node_next(MrNode *n)
{
    uint64_t t = n->wake_ps;

    if (n->qn && n->q[0]->t_ps < t) {
        t = n->q[0]->t_ps;
    }
    return t;
}

void mr_ev_free(MrEvent *e)
{
    if (e->kind == MR_EV_PIO_WRITE_BLOCK) {
        g_free(e->data);
    }
    g_free(e->pkt);
    g_free(e);
}
