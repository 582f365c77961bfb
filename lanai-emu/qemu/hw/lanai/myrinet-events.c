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
    uint64_t before = mr_node_next(n);
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
    if (e->t_ps < before) {
        mr_node_watch(n);
    }
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

/*
 * The scheduler's heap of (time, node) for nodes whose CPU does not run
 * (held or idle): for each such node an entry at or before its next time,
 * pushed when it stops running and whenever its next time moves earlier,
 * so that a window opening looks only at the nodes something is due to
 * (myrinet-sched.c). Entries of nodes that run again are dropped when
 * they come up.
 */
static bool due_before(const MrDue *a, const MrDue *b)
{
    return a->t_ps < b->t_ps || (a->t_ps == b->t_ps && a->node < b->node);
}

void mr_due_push(MyrinetState *m, uint64_t t_ps, unsigned node)
{
    MrDue e = { t_ps, node };
    unsigned i;

    if (m->ndue == m->due_cap) {
        m->due_cap = m->due_cap ? m->due_cap * 2 : 64;
        m->due = g_renew(MrDue, m->due, m->due_cap);
    }
    i = m->ndue++;
    while (i > 0 && due_before(&e, &m->due[(i - 1) / 2])) {
        m->due[i] = m->due[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    m->due[i] = e;
}

void mr_due_pop(MyrinetState *m)
{
    MrDue last = m->due[--m->ndue];
    unsigned i = 0;

    for (;;) {
        unsigned c = 2 * i + 1;
        if (c >= m->ndue) {
            break;
        }
        if (c + 1 < m->ndue && due_before(&m->due[c + 1], &m->due[c])) {
            c++;
        }
        if (!due_before(&m->due[c], &last)) {
            break;
        }
        m->due[i] = m->due[c];
        i = c;
    }
    if (m->ndue) {
        m->due[i] = last;
    }
}

/* A held or idle node's next time goes into the heap. */
void mr_node_watch(MrNode *n)
{
    uint64_t t;

    if (n->state != MR_HELD && n->state != MR_IDLE) {
        return;
    }
    t = mr_node_next(n);
    if (t != UINT64_MAX) {
        mr_due_push(n->m, t, n->id);
    }
}
