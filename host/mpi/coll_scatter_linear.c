/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scatter(v) linear at the root: one round, the root's sends to every
 * rank posted at once (its own part a message to itself), every other
 * rank's one receive. */
#include "coll_sched.h"
#include "coll_table.h"

static void scatter_round(struct coll_sched *s, const void *sbuf, const int *scounts,
                          const int *displs, int scount_all, MPI_Datatype st, void *rbuf,
                          int rcount, MPI_Datatype rt, int root)
{
    MPI_Comm c = s->comm;

    coll_next_round(s);
    if (c->rank != root) {
        coll_xfer(s, false, rbuf, (size_t)rcount, rt, root);
        return;
    }
    if (rbuf != MPI_IN_PLACE)
        coll_xfer(s, false, rbuf, (size_t)rcount, rt, root);
    for (int i = 0; i < c->size; i++) {
        if (i == root && rbuf == MPI_IN_PLACE)
            continue;
        coll_xfer(s, true, AT(sbuf, displs ? displs[i] : i * scount_all, st),
                  (size_t)(scounts ? scounts[i] : scount_all), st, i);
    }
}

int coll_scatterv_linear(const void *sbuf, const int *scounts, const int *displs,
                         int scount_all, MPI_Datatype st, void *rbuf, int rcount,
                         MPI_Datatype rt, int root, MPI_Comm c)
{
    struct coll_sched *s = coll_sched_blocking(c, TAG_SCATTER);

    scatter_round(s, sbuf, scounts, displs, scount_all, st, rbuf, rcount, rt, root);
    return coll_sched_run(s);
}

int coll_iscatterv_linear(const void *sbuf, const int *scounts, const int *displs,
                          int scount_all, MPI_Datatype st, void *rbuf, int rcount,
                          MPI_Datatype rt, int root, MPI_Comm c, MPI_Request *req)
{
    struct coll_sched *s = coll_sched_nonblocking(c);

    scatter_round(s, sbuf, scounts, displs, scount_all, st, rbuf, rcount, rt, root);
    return coll_sched_start(s, req);
}
