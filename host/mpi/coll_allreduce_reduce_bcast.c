/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Allreduce as a binomial reduction to rank 0 and a binomial broadcast
 * from it (coll_reduce_binomial.c, coll_bcast_binomial.c): twice the
 * rounds of recursive doubling, but every round is one message per rank,
 * which suits a schedule that runs while the program computes. */
#include "coll_sched.h"
#include "coll_table.h"

static void allreduce_rounds(struct coll_sched *s, const void *sbuf, void *rbuf, size_t count,
                             MPI_Datatype t, MPI_Op op)
{
    void *acc = coll_scratch(s, count, t);

    coll_reduce_binomial_rounds(s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, acc, count, t, op, 0);
    if (s->comm->rank == 0) {
        coll_next_round(s);
        coll_local(s, NULL, acc, rbuf, count, t);
    }
    if (s->comm->size > 1)
        coll_bcast_binomial_rounds(s, 0, rbuf, count, t);
}

int coll_iallreduce_reduce_bcast(const void *sbuf, void *rbuf, int count, MPI_Datatype t,
                                 MPI_Op op, MPI_Comm c, MPI_Request *req)
{
    struct coll_sched *s = coll_sched_nonblocking(c);

    allreduce_rounds(s, sbuf, rbuf, (size_t)count, t, op);
    return coll_sched_start(s, req);
}
