/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Gather(v) linear at the root: one round, the root's receives from every
 * rank posted at once (its own part a message to itself, a copy between
 * the two datatypes), every other rank's one send. */
#include "coll_sched.h"
#include "coll_table.h"

static void gather_round(struct coll_sched *s, const void *sbuf, size_t scount, MPI_Datatype st,
                         void *rbuf, const int *rcounts, const int *displs, int rcount_all,
                         MPI_Datatype rt, int root)
{
    MPI_Comm c = s->comm;

    coll_next_round(s);
    if (c->rank != root) {
        coll_xfer(s, true, sbuf, scount, st, root);
        return;
    }
    for (int i = 0; i < c->size; i++) {
        if (i == root && sbuf == MPI_IN_PLACE)
            continue;
        coll_xfer(s, false, AT(rbuf, displs ? displs[i] : i * rcount_all, rt),
                  (size_t)(rcounts ? rcounts[i] : rcount_all), rt, i);
    }
    if (sbuf != MPI_IN_PLACE)
        coll_xfer(s, true, sbuf, scount, st, root);
}

int coll_gatherv_linear(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                        const int *rcounts, const int *displs, int rcount_all, MPI_Datatype rt,
                        int root, MPI_Comm c)
{
    struct coll_sched *s = coll_sched_blocking(c, TAG_GATHER);

    gather_round(s, sbuf, (size_t)scount, st, rbuf, rcounts, displs, rcount_all, rt, root);
    return coll_sched_run(s);
}

int coll_igatherv_linear(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                         const int *rcounts, const int *displs, int rcount_all,
                         MPI_Datatype rt, int root, MPI_Comm c, MPI_Request *req)
{
    struct coll_sched *s = coll_sched_nonblocking(c);

    gather_round(s, sbuf, (size_t)scount, st, rbuf, rcounts, displs, rcount_all, rt, root);
    return coll_sched_start(s, req);
}
