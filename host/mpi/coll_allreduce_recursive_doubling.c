/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Allreduce by recursive doubling (MPICH's MPIR_Allreduce_intra): log2 of
 * the largest power of two pof2 <= n rounds of pairwise exchange. With n
 * not a power of two, the first 2 x rem ranks pair up first: each even
 * one gives its data to the odd one above it and gets the result back at
 * the end. Operands are combined in rank order, so any op.
 */
#include "coll_sched.h"
#include "coll_table.h"

static void allreduce_rounds(struct coll_sched *s, const void *sbuf, void *rbuf, size_t count,
                             MPI_Datatype t, MPI_Op op)
{
    int n = s->comm->size, rank = s->comm->rank, pof2, rem, newrank;
    void *tmp;

    if (sbuf != MPI_IN_PLACE) {
        coll_next_round(s);
        coll_local(s, NULL, sbuf, rbuf, count, t);
    }
    if (n == 1)
        return;
    tmp = coll_scratch(s, count, t);
    for (pof2 = 1; pof2 * 2 <= n; pof2 <<= 1)
        ;
    rem = n - pof2;
    if (rank < 2 * rem) {
        coll_next_round(s);
        if (rank % 2 == 0) {
            coll_xfer(s, true, rbuf, count, t, rank + 1);
            newrank = -1;
        } else {
            coll_xfer(s, false, tmp, count, t, rank - 1);
            coll_local(s, op, tmp, rbuf, count, t);     /* lower rank first */
            newrank = rank / 2;
        }
    } else {
        newrank = rank - rem;
    }
    if (newrank != -1) {
        for (int mask = 1; mask < pof2; mask <<= 1) {
            int newdst = newrank ^ mask;
            int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
            coll_next_round(s);
            coll_xfer(s, false, tmp, count, t, dst);
            coll_xfer(s, true, rbuf, count, t, dst);
            if (dst < rank) {
                coll_local(s, op, tmp, rbuf, count, t);     /* tmp op rbuf */
            } else {
                coll_local(s, op, rbuf, tmp, count, t);     /* rbuf op tmp */
                coll_local(s, NULL, tmp, rbuf, count, t);
            }
        }
    }
    if (rank < 2 * rem) {
        coll_next_round(s);
        coll_xfer(s, rank % 2 == 1, rbuf, count, t, rank % 2 ? rank - 1 : rank + 1);
    }
}

int coll_allreduce_recursive_doubling(const void *sbuf, void *rbuf, int count, MPI_Datatype t,
                                      MPI_Op op, MPI_Comm c)
{
    struct coll_sched *s = coll_sched_blocking(c, TAG_ALLREDUCE);

    allreduce_rounds(s, sbuf, rbuf, (size_t)count, t, op);
    return coll_sched_run(s);
}
