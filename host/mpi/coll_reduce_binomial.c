/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reduce on a binomial tree (MPICH's classic one). Relative rank vr holds
 * the reduction of ranks [vr, vr + mask) and receives [vr + mask,
 * vr + 2 mask), which comes after it in rank order: acc = acc (op)
 * received. A non-commutative op needs rank order from 0, so it reduces
 * to rank 0, which sends the result to the root.
 */
#include "coll_sched.h"
#include "coll_table.h"

void coll_reduce_binomial_rounds(struct coll_sched *s, const void *in, void *acc, size_t count,
                                 MPI_Datatype t, MPI_Op op, int root)
{
    int n = s->comm->size, vr = (s->comm->rank - root + n) % n;
    void *tmp = coll_scratch(s, count, t);

    coll_next_round(s);
    coll_local(s, NULL, in, acc, count, t);
    for (int mask = 1; mask < n; mask <<= 1) {
        if (vr & mask) {
            coll_next_round(s);
            coll_xfer(s, true, acc, count, t, (vr - mask + root) % n);
            break;
        }
        if (vr + mask < n) {
            coll_next_round(s);
            coll_xfer(s, false, tmp, count, t, (vr + mask + root) % n);
            /* acc = acc op tmp: apply computes inout = in op inout */
            coll_local(s, op, acc, tmp, count, t);
            coll_local(s, NULL, tmp, acc, count, t);
        }
    }
}

/* The whole reduction into rbuf at root. */
static void reduce_rounds(struct coll_sched *s, const void *sbuf, void *rbuf, size_t count,
                          MPI_Datatype t, MPI_Op op, int root)
{
    MPI_Comm c = s->comm;
    void *acc = coll_scratch(s, count, t);
    bool direct = op->commute || root == 0;

    coll_reduce_binomial_rounds(s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, acc, count, t, op,
                                direct ? root : 0);
    if (!direct && c->rank == 0) {
        coll_next_round(s);
        coll_xfer(s, true, acc, count, t, root);
    }
    if (c->rank == root) {
        coll_next_round(s);
        if (direct)
            coll_local(s, NULL, acc, rbuf, count, t);
        else
            coll_xfer(s, false, rbuf, count, t, 0);
    }
}

int coll_reduce_binomial(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                         int root, MPI_Comm c)
{
    struct coll_sched *s = coll_sched_blocking(c, TAG_REDUCE);

    reduce_rounds(s, sbuf, rbuf, (size_t)count, t, op, root);
    return coll_sched_run(s);
}

int coll_ireduce_binomial(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                          int root, MPI_Comm c, MPI_Request *req)
{
    struct coll_sched *s = coll_sched_nonblocking(c);

    reduce_rounds(s, sbuf, rbuf, (size_t)count, t, op, root);
    return coll_sched_start(s, req);
}
