/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The parts of an exchanging allgather (coll_allgather_parts.h). */
#include "coll_allgather_parts.h"

void coll_allgather_part_xfer(struct coll_sched *s, const struct allgather_parts *p, bool send,
                              int i, int peer, bool first)
{
    if (send && first && i == s->comm->rank && p->sbuf != MPI_IN_PLACE)
        coll_xfer(s, true, p->sbuf, p->scount, p->st, peer);
    else
        coll_xfer(s, send, AT(p->rbuf, p->displs ? p->displs[i] : i * p->rcount_all, p->rt),
                  (size_t)(p->rcounts ? p->rcounts[i] : p->rcount_all), p->rt, peer);
}

void coll_allgather_own_part(struct coll_sched *s, const struct allgather_parts *p)
{
    int me = s->comm->rank;

    if (p->sbuf == MPI_IN_PLACE)
        return;
    coll_next_round(s);
    coll_allgather_part_xfer(s, p, false, me, me, true);
    coll_allgather_part_xfer(s, p, true, me, me, true);
}
