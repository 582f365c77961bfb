/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Alltoall(v/w) with every exchange posted at once: one round, the
 * receives and the sends in a staggered order (each rank starts with a
 * different peer, so that no rank is everyone's first). MPI_IN_PLACE
 * sends from a copy of the receive buffer taken when the call starts. */
#include <stdlib.h>
#include <string.h>

#include "coll_sched.h"
#include "coll_table.h"

static void alltoallw_round(struct coll_sched *s, const void *sbuf, const int *scounts,
                            const MPI_Aint *sdispls, const MPI_Datatype *stypes, void *rbuf,
                            const int *rcounts, const MPI_Aint *rdispls,
                            const MPI_Datatype *rtypes)
{
    int n = s->comm->size, me = s->comm->rank;

    if (sbuf == MPI_IN_PLACE) {
        /* send from a copy of rbuf as it is now, laid out as rbuf, kept
         * until the schedule ends (the receives overwrite rbuf) */
        size_t span = 0;
        for (int i = 0; i < n; i++) {
            size_t end = coll_block_end(rdispls[i], rcounts[i], rtypes[i]);
            if (end > span)
                span = end;
        }
        s->scratch = malloc(span + 1);
        memcpy(s->scratch, rbuf, span);
        sbuf = s->scratch;
        scounts = rcounts;
        sdispls = rdispls;
        stypes = rtypes;
    }
    coll_next_round(s);
    for (int k = 0; k < n; k++) {
        int i = (me + k) % n;
        coll_xfer(s, false, (uint8_t *)rbuf + rdispls[i], (size_t)rcounts[i], rtypes[i], i);
    }
    for (int k = 0; k < n; k++) {
        int i = (me - k + n) % n;
        coll_xfer(s, true, (const uint8_t *)sbuf + sdispls[i], (size_t)scounts[i], stypes[i], i);
    }
}

int coll_alltoallw_linear(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                          const MPI_Datatype *stypes, void *rbuf, const int *rcounts,
                          const MPI_Aint *rdispls, const MPI_Datatype *rtypes, MPI_Comm c)
{
    struct coll_sched *s = coll_sched_blocking(c, TAG_ALLTOALL);

    alltoallw_round(s, sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes);
    return coll_sched_run(s);
}

int coll_ialltoallw_linear(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                           const MPI_Datatype *stypes, void *rbuf, const int *rcounts,
                           const MPI_Aint *rdispls, const MPI_Datatype *rtypes, MPI_Comm c,
                           MPI_Request *req)
{
    struct coll_sched *s = coll_sched_nonblocking(c);

    alltoallw_round(s, sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes);
    return coll_sched_start(s, req);
}
