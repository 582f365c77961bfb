/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Broadcast on a binomial tree rooted at root (MPICH's
 * MPIR_Bcast_binomial): in relative rank order a rank receives from the
 * parent that clears its lowest set bit, then sends to its children,
 * the largest subtree first. */
#include "coll_sched.h"
#include "coll_table.h"

void coll_bcast_binomial_rounds(struct coll_sched *s, int root, void *buf, size_t count,
                                MPI_Datatype t)
{
    int n = s->comm->size, vr = (s->comm->rank - root + n) % n, mask;

    for (mask = 1; mask < n; mask <<= 1)
        if (vr & mask)
            break;
    if (mask < n) {
        coll_next_round(s);
        coll_xfer(s, false, buf, count, t, (vr - mask + root) % n);
    }
    coll_next_round(s);
    s->round[s->nrounds - 1].in_turn = true;
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < n)
            coll_xfer(s, true, buf, count, t, (vr + mask + root) % n);
}

int coll_bcast_binomial(void *buf, int count, MPI_Datatype t, int root, MPI_Comm c)
{
    struct coll_sched *s = coll_sched_blocking(c, TAG_BCAST);

    coll_bcast_binomial_rounds(s, root, buf, (size_t)count, t);
    return coll_sched_run(s);
}

int coll_ibcast_binomial(void *buf, int count, MPI_Datatype t, int root, MPI_Comm c,
                         MPI_Request *req)
{
    struct coll_sched *s = coll_sched_nonblocking(c);

    if (c->size > 1)
        coll_bcast_binomial_rounds(s, root, buf, (size_t)count, t);
    return coll_sched_start(s, req);
}
