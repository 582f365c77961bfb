/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A member's part of a PE or GB barrier, computed on the host with the
 * proved builders of ref/tree (seed 002 section 5.1), and its expansion
 * into the messages it exchanges, in order. The NIC and the host-based
 * baseline take the same description and follow the same expansion.
 */
#include "nicoll.h"

#include <string.h>

#include "nc_sched.h"
#include "nc_tree.h"

static bool members_ok(const nc_member *m, unsigned n, unsigned me)
{
    if (!m || n == 0 || n > NC_BARRIER_MAX_MEMBERS || me >= n)
        return false;
    for (unsigned i = 0; i < n; i++) {
        if (m[i].port >= NC_PORTS)
            return false;
        for (unsigned j = 0; j < i; j++)
            if (m[j].node == m[i].node && m[j].port == m[i].port)
                return false;
    }
    return true;
}

int nc_barrier_pe(nc_barrier *b, const nc_member *members, unsigned n, unsigned me)
{
    nc_pe_step_t st[NC_PE_MAX_STEPS];

    if (!b || !members_ok(members, n, me))
        return NC_EINVAL;
    uint32_t k = nc_pe_schedule(n, me, st);
    if (k == NC_PE_BAD || k > NC_BARRIER_MAX_STEPS)
        return NC_EINVAL;
    memset(b, 0, sizeof(*b));
    b->algo = NC_BARRIER_PE;
    b->nsteps = k;
    for (uint32_t i = 0; i < k; i++) {
        b->step[i].peer = members[st[i].partner];
        b->step[i].op = (uint8_t)st[i].op;
    }
    return NC_OK;
}

int nc_barrier_gb(nc_barrier *b, const nc_member *members, unsigned n, unsigned me,
                  unsigned dim)
{
    static nc_tree_t t; /* 16 KB: not on a host program's stack */

    if (!b || !members_ok(members, n, me) || dim == 0 || (n > 1 && dim > n - 1) ||
        nc_gb_tree(&t, n, dim) != NC_TREE_OK)
        return NC_EINVAL;
    memset(b, 0, sizeof(*b));
    b->algo = NC_BARRIER_GB;
    if (me != 0) {
        b->has_parent = true;
        b->parent = members[t.parent[me]];
    }
    for (unsigned i = 1; i < n; i++) {
        if (t.parent[i] != me)
            continue;
        if (b->nchildren == NC_BARRIER_MAX_CHILDREN)
            return NC_EINVAL;
        b->child[b->nchildren++] = members[i];
    }
    return NC_OK;
}

static nc_barrier_step step(uint8_t op, uint8_t phase, nc_member peer)
{
    return (nc_barrier_step){ .op = op, .phase = phase, .peer = peer };
}

int nc_barrier_expand(const nc_barrier *b, nc_barrier_step *s)
{
    int n = 0;

    if (!b || !s)
        return NC_EINVAL;
    if (b->algo == NC_BARRIER_PE) {
        if (b->nsteps > NC_BARRIER_MAX_STEPS)
            return NC_EINVAL;
        for (unsigned i = 0; i < b->nsteps; i++) {
            uint8_t op = b->step[i].op;

            if (op != NC_BAR_OP_EXCHANGE && op != NC_BAR_OP_SEND && op != NC_BAR_OP_RECV)
                return NC_EINVAL;
            s[n++] = step(op, NC_BAR_PHASE_PE, b->step[i].peer);
        }
        return n;
    }
    if (b->algo != NC_BARRIER_GB || b->nchildren > NC_BARRIER_MAX_CHILDREN)
        return NC_EINVAL;
    /* gather from every child, up to the parent; down from the parent, to
     * every child */
    for (unsigned i = 0; i < b->nchildren; i++)
        s[n++] = step(NC_BAR_OP_RECV, NC_BAR_PHASE_GATHER, b->child[i]);
    if (b->has_parent) {
        s[n++] = step(NC_BAR_OP_SEND, NC_BAR_PHASE_GATHER, b->parent);
        s[n++] = step(NC_BAR_OP_RECV, NC_BAR_PHASE_BCAST, b->parent);
    }
    for (unsigned i = 0; i < b->nchildren; i++)
        s[n++] = step(NC_BAR_OP_SEND, NC_BAR_PHASE_BCAST, b->child[i]);
    return n;
}
