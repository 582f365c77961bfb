/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Allgather(v) on a ring (MPICH's, for any size): n - 1 rounds; in round
 * k a rank passes part rank - k to its right neighbour and takes part
 * rank - k - 1 from its left. coll_table.c takes it for MPI_Iallgather(v)
 * when the size is not a power of two. */
#include "coll_allgather_parts.h"
#include "coll_table.h"

static void allgather_rounds(struct coll_sched *s, const struct allgather_parts *p)
{
    int n = s->comm->size, me = s->comm->rank;

    coll_allgather_own_part(s, p);
    for (int k = 0; k < n - 1 - ALLGATHER_ROUNDS_SHORT; k++) {
        if (k > 0 || p->sbuf == MPI_IN_PLACE)
            coll_next_round(s);
        coll_allgather_part_xfer(s, p, false, (me - k - 1 + n) % n, (me - 1 + n) % n, k == 0);
        coll_allgather_part_xfer(s, p, true, (me - k + n) % n, (me + 1) % n, k == 0);
    }
}

int coll_iallgatherv_ring(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                          const int *rcounts, const int *displs, int rcount_all,
                          MPI_Datatype rt, MPI_Comm c, MPI_Request *req)
{
    const struct allgather_parts p = { sbuf, (size_t)scount, st, rt, rbuf, rcounts, displs,
                                       rcount_all };
    struct coll_sched *s = coll_sched_nonblocking(c);

    allgather_rounds(s, &p);
    return coll_sched_start(s, req);
}
