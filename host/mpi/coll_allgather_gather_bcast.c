/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Allgather(v) as a gather to rank 0 and a broadcast of each part from it,
 * both through the communicator's table (so each part goes on NIC
 * multicast with MPI_NC_BCAST=nic). Blocking only: as one schedule it
 * would have rank 0 send n log n messages in one round. */
#include "coll_sched.h"
#include "coll_table.h"

int coll_allgatherv_gather_bcast(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                                 const int *rcounts, const int *displs, int rcount_all,
                                 MPI_Datatype rt, MPI_Comm c)
{
    int rc;

    if (sbuf == MPI_IN_PLACE) {
        /* my part is in place in rbuf: send it from there */
        sbuf = AT(rbuf, displs ? displs[c->rank] : c->rank * rcount_all, rt);
        scount = rcounts ? rcounts[c->rank] : rcount_all;
        st = rt;
        if (c->rank == 0)
            sbuf = MPI_IN_PLACE;
    }
    if ((rc = c->coll->gatherv(sbuf, scount, st, rbuf, rcounts, displs, rcount_all, rt, 0, c)))
        return rc;
    for (int i = 0; i < c->size; i++) {
        int cnt = rcounts ? rcounts[i] : rcount_all;
        if ((rc = c->coll->bcast(AT(rbuf, displs ? displs[i] : i * rcount_all, rt), cnt, rt, 0,
                                 c)))
            return rc;
    }
    return MPI_SUCCESS;
}
