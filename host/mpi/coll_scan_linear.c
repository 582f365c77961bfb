/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scan and Exscan on a linear chain: rank r receives the reduction of
 * ranks 0 .. r-1 from r - 1, combines its own part after it (rank order,
 * so any op) and passes the result to r + 1. */
#include "coll_sched.h"
#include "coll_table.h"

static void scan_rounds(struct coll_sched *s, const void *sbuf, void *rbuf, size_t count,
                        MPI_Datatype t, MPI_Op op, bool exclusive)
{
    MPI_Comm c = s->comm;
    void *mine = coll_scratch(s, count, t), *prefix = coll_scratch(s, count, t);

    coll_next_round(s);
    coll_local(s, NULL, sbuf == MPI_IN_PLACE ? rbuf : sbuf, mine, count, t);
    if (c->rank > 0) {
        coll_next_round(s);
        coll_xfer(s, false, prefix, count, t, c->rank - 1);
        if (exclusive)
            coll_local(s, NULL, prefix, rbuf, count, t);
        coll_local(s, op, prefix, mine, count, t);      /* mine = prefix op mine */
    }
    if (!exclusive)
        coll_local(s, NULL, mine, rbuf, count, t);
    if (c->rank + 1 < c->size) {
        coll_next_round(s);
        coll_xfer(s, true, mine, count, t, c->rank + 1);
    }
}

int coll_scan_linear(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                     bool exclusive, MPI_Comm c)
{
    struct coll_sched *s = coll_sched_blocking(c, exclusive ? TAG_EXSCAN : TAG_SCAN);

    scan_rounds(s, sbuf, rbuf, (size_t)count, t, op, exclusive);
    return coll_sched_run(s);
}

int coll_iscan_linear(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                      bool exclusive, MPI_Comm c, MPI_Request *req)
{
    struct coll_sched *s = coll_sched_nonblocking(c);

    scan_rounds(s, sbuf, rbuf, (size_t)count, t, op, exclusive);
    return coll_sched_start(s, req);
}
