/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reduce_scatter as a reduction of every part to rank 0 and a scatter of
 * the parts from it. Blocking: the communicator's reduce and scatterv
 * (its table); non-blocking: the binomial reduction's rounds
 * (coll_reduce_binomial.c) and one round of the parts, rank 0's own a
 * copy. */
#include <stdlib.h>

#include "coll_sched.h"
#include "coll_table.h"

int coll_reduce_scatter_reduce_scatterv(const void *sbuf, void *rbuf, const int *rcounts,
                                        MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    int total = 0, *displs = malloc(sizeof(int) * (size_t)c->size);

    for (int i = 0; i < c->size; i++) {
        displs[i] = total;
        total += rcounts[i];
    }
    void *all = coll_alloc((size_t)total, t);
    c->coll->reduce(sbuf == MPI_IN_PLACE ? rbuf : sbuf, all, total, t, op, 0, c);
    c->coll->scatterv(all, rcounts, displs, 0, t, rbuf, rcounts[c->rank], t, 0, c);
    coll_free(all, t);
    free(displs);
    return MPI_SUCCESS;
}

int coll_ireduce_scatter_reduce_scatterv(const void *sbuf, void *rbuf, const int *rcounts,
                                         MPI_Datatype t, MPI_Op op, MPI_Comm c,
                                         MPI_Request *req)
{
    int total = 0;

    for (int i = 0; i < c->size; i++)
        total += rcounts[i];
    struct coll_sched *s = coll_sched_nonblocking(c);
    void *all = coll_scratch(s, (size_t)total, t);
    coll_reduce_binomial_rounds(s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, all, (size_t)total, t, op,
                                0);
    coll_next_round(s);
    if (c->rank == 0) {
        int at = 0;
        for (int i = 0; i < c->size; i++) {
            if (i == 0)
                coll_local(s, NULL, all, rbuf, (size_t)rcounts[0], t);
            else
                coll_xfer(s, true, AT(all, at, t), (size_t)rcounts[i], t, i);
            at += rcounts[i];
        }
    } else {
        coll_xfer(s, false, rbuf, (size_t)rcounts[c->rank], t, 0);
    }
    return coll_sched_start(s, req);
}
