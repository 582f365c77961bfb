/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Barrier by dissemination (MPICH's classic one): ceil(log2 n) rounds; in
 * round k a rank sends to rank + 2^k and receives from rank - 2^k, so
 * after the last round every rank has heard, through some chain, from
 * every other. */
#include "coll_sched.h"
#include "coll_table.h"

static void barrier_rounds(struct coll_sched *s)
{
    int n = s->comm->size, rank = s->comm->rank;

    for (int k = 1; k < n; k <<= 1) {
        coll_next_round(s);
        coll_xfer(s, false, NULL, 0, MPI_BYTE, (rank - k + n) % n);
        coll_xfer(s, true, NULL, 0, MPI_BYTE, (rank + k) % n);
    }
}

int coll_barrier_dissemination(MPI_Comm c)
{
    struct coll_sched *s = coll_sched_blocking(c, TAG_BARRIER);

    barrier_rounds(s);
    return coll_sched_run(s);
}

int coll_ibarrier_dissemination(MPI_Comm c, MPI_Request *req)
{
    struct coll_sched *s = coll_sched_nonblocking(c);

    barrier_rounds(s);
    return coll_sched_start(s, req);
}

/* One rank: nothing to wait for. */
int coll_barrier_none(MPI_Comm c)
{
    (void)c;
    return MPI_SUCCESS;
}
