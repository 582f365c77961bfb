/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Allgather(v) by recursive doubling (MPICH's, for a power-of-two size):
 * log2 n rounds; in round k a rank swaps the 2^k parts its half holds
 * with rank ^ 2^k. coll_table.c takes it for MPI_Iallgather(v) on
 * power-of-two communicators. */
#include "coll_allgather_parts.h"
#include "coll_table.h"

static void allgather_rounds(struct coll_sched *s, const struct allgather_parts *p)
{
    int n = s->comm->size, me = s->comm->rank;

    coll_allgather_own_part(s, p);
    for (int half = 1; half < n >> ALLGATHER_ROUNDS_SHORT; half <<= 1) {
        int peer = me ^ half, mine = me & ~(half - 1), theirs = peer & ~(half - 1);
        if (half > 1 || p->sbuf == MPI_IN_PLACE)
            coll_next_round(s);
        for (int i = theirs; i < theirs + half; i++)
            coll_allgather_part_xfer(s, p, false, i, peer, half == 1);
        for (int i = mine; i < mine + half; i++)
            coll_allgather_part_xfer(s, p, true, i, peer, half == 1);
    }
}

int coll_iallgatherv_recursive_doubling(const void *sbuf, int scount, MPI_Datatype st,
                                        void *rbuf, const int *rcounts, const int *displs,
                                        int rcount_all, MPI_Datatype rt, MPI_Comm c,
                                        MPI_Request *req)
{
    const struct allgather_parts p = { sbuf, (size_t)scount, st, rt, rbuf, rcounts, displs,
                                       rcount_all };
    struct coll_sched *s = coll_sched_nonblocking(c);

    allgather_rounds(s, &p);
    return coll_sched_start(s, req);
}
