/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The management entity (lanai-emu/fabric/subnet_mgr.c, docs/fabric.md
 * "The management entity") as the process behind one node of the machine
 * (sm-node=N). Every packet the fabric delivers to that node goes to the
 * entity, with back-pressure never holding one (it takes each as it comes,
 * as a host process polling its own queue does), so the node's NIC gets
 * none and runs no rank: sharing the NIC would make the fabric's one
 * question per receiver ("is there room?") hold management packets behind
 * a rank's data. What the entity sends goes to the fabric as that node's
 * packets, in the window they leave in, in (time, node) order with the
 * NICs' packets. Its work runs at each window's opening up to the window's
 * end; its next action counts for the idle skip.
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "myrinet-node.h"
#include "nicoll/subnet_mgr.h"

void mr_sm_init(MyrinetState *m)
{
    struct sm_params p;
    char err[256], *end;
    unsigned long node;

    if (!m->sm_node || !*m->sm_node) {
        return;
    }
    node = strtoul(m->sm_node, &end, 10);
    if (*end || end == m->sm_node || node >= m->nodes) {
        error_report("myrinet: sm-node '%s': not a node below nodes=%u",
                     m->sm_node, m->nodes);
        exit(2);
    }
    /* Every parameter from the profile's net.sm_* keys (docs/profiles.md),
     * whose defaults are subnet_mgr.h's; the profile refuses more ids than
     * a switch's table holds. */
    p = (struct sm_params){
        .node = (unsigned)node,
        .groups = (unsigned)m->prof.sm_groups,
        .max_outstanding = (unsigned)m->prof.sm_outstanding,
        .timeout_ps = m->prof.sm_timeout_ps,
        .request_ps = m->prof.sm_request_ps,
        .set_ps = m->prof.sm_set_ps,
        .answer_ps = m->prof.sm_answer_ps,
    };
    m->sm = sm_new(m->topo, &p, err, sizeof err);
    if (!m->sm) {
        error_report("myrinet: sm-node %lu: %s", node, err);
        exit(2);
    }
    m->sm_at = (unsigned)node;
}

bool mr_sm_takes(MyrinetState *m, const struct fabric_delivery *d)
{
    if (!m->sm || d->dst != m->sm_at) {
        return false;
    }
    sm_receive(m->sm, d->tail_ps, d->data, d->len, d->crc_ok);
    return true;
}

static int sm_send(void *o, uint64_t t, const uint8_t *pkt, size_t len)
{
    MyrinetState *m = o;
    MrTx tx = {
        .at = { .t_ps = t, .seq = ++m->seq, .node = m->sm_at }, .len = len,
        .pkt = g_memdup2(pkt, len),
    };

    g_array_append_val(m->tx, tx);
    return 0;
}

/* The entity works up to the window's end; what it sends leaves then. */
void mr_sm_run(MyrinetState *m, uint64_t upto)
{
    if (m->sm && upto) {
        sm_run_until(m->sm, upto - 1, sm_send, m);
    }
}

uint64_t mr_sm_next(MyrinetState *m)
{
    return m->sm ? sm_next_event(m->sm) : UINT64_MAX;
}
