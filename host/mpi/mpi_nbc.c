/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The non-blocking collectives' entry points (MPI 3.1 section 5.12): each
 * checks its arguments and calls the communicator's chosen algorithm
 * (comm->coll, coll_table.c), which starts a schedule (coll_sched.c) and
 * returns its request. Each call's schedule takes its own tag on the
 * collective context, so several may be outstanding.
 */
#include <stdlib.h>

#include "coll_table.h"
#include "mpi_coll.h"

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
    int rc;

    if ((rc = coll_check(comm, "MPI_Ibarrier")))
        return rc;
    return comm->coll->ibarrier(comm, req);
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm, MPI_Request *req)
{
    int rc;

    if ((rc = coll_check(comm, "MPI_Ibcast")) || (rc = coll_check_root(comm, root, "MPI_Ibcast")))
        return rc;
    if (count < 0 || !mpi_type_ok(t))
        return mpi_error(comm, count < 0 ? MPI_ERR_COUNT : MPI_ERR_TYPE, "MPI_Ibcast",
                         "bad count or datatype");
    return comm->coll->ibcast(buf, count, t, root, comm, req);
}

static int igatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                    const int *rcounts, const int *displs, int rcount_all, MPI_Datatype rt,
                    int root, MPI_Comm comm, MPI_Request *req, const char *fn)
{
    int rc;

    if ((rc = coll_check(comm, fn)) || (rc = coll_check_root(comm, root, fn)))
        return rc;
    return comm->coll->igatherv(sbuf, scount, st, rbuf, rcounts, displs, rcount_all, rt, root,
                                comm, req);
}

int MPI_Igather(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *req)
{
    return igatherv(sbuf, scount, st, rbuf, NULL, NULL, rcount, rt, root, comm, req,
                    "MPI_Igather");
}

int MPI_Igatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, const int rcounts[],
                 const int displs[], MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *req)
{
    return igatherv(sbuf, scount, st, rbuf, rcounts, displs, 0, rt, root, comm, req,
                    "MPI_Igatherv");
}

static int iscatterv(const void *sbuf, const int *scounts, const int *displs, int scount_all,
                     MPI_Datatype st, void *rbuf, int rcount, MPI_Datatype rt, int root,
                     MPI_Comm comm, MPI_Request *req, const char *fn)
{
    int rc;

    if ((rc = coll_check(comm, fn)) || (rc = coll_check_root(comm, root, fn)))
        return rc;
    return comm->coll->iscatterv(sbuf, scounts, displs, scount_all, st, rbuf, rcount, rt, root,
                                 comm, req);
}

int MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                 MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *req)
{
    return iscatterv(sbuf, NULL, NULL, scount, st, rbuf, rcount, rt, root, comm, req,
                     "MPI_Iscatter");
}

int MPI_Iscatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype st,
                  void *rbuf, int rcount, MPI_Datatype rt, int root, MPI_Comm comm,
                  MPI_Request *req)
{
    return iscatterv(sbuf, scounts, displs, 0, st, rbuf, rcount, rt, root, comm, req,
                     "MPI_Iscatterv");
}

static int iallgatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                       const int *rcounts, const int *displs, int rcount_all, MPI_Datatype rt,
                       MPI_Comm comm, MPI_Request *req, const char *fn)
{
    int rc;

    if ((rc = coll_check(comm, fn)))
        return rc;
    return comm->coll->iallgatherv(sbuf, scount, st, rbuf, rcounts, displs, rcount_all, rt,
                                   comm, req);
}

int MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                   MPI_Datatype rt, MPI_Comm comm, MPI_Request *req)
{
    return iallgatherv(sbuf, scount, st, rbuf, NULL, NULL, rcount, rt, comm, req,
                       "MPI_Iallgather");
}

int MPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                    const int rcounts[], const int displs[], MPI_Datatype rt, MPI_Comm comm,
                    MPI_Request *req)
{
    return iallgatherv(sbuf, scount, st, rbuf, rcounts, displs, 0, rt, comm, req,
                       "MPI_Iallgatherv");
}

/* ---- Ialltoall(v/w): all three as Ialltoallw with byte displacements ---------------- */
int MPI_Ialltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                   const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                   const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm,
                   MPI_Request *req)
{
    int rc;
    struct coll_a2a a = { 0 };

    if ((rc = coll_check(comm, "MPI_Ialltoallw")))
        return rc;
    coll_a2a_bytes(&a, comm->size, sbuf, sdispls, 1, rdispls, 1);
    rc = comm->coll->ialltoallw(sbuf, scounts, a.sbytes, stypes, rbuf, rcounts, a.rbytes, rtypes,
                                comm, req);
    coll_a2a_free(&a);
    return rc;
}

int MPI_Ialltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype st,
                   void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rt,
                   MPI_Comm comm, MPI_Request *req)
{
    int rc;
    struct coll_a2a a = { 0 };

    if ((rc = coll_check(comm, "MPI_Ialltoallv")))
        return rc;
    coll_a2a_bytes(&a, comm->size, sbuf, sdispls, sbuf == MPI_IN_PLACE ? 0 : st->extent,
                   rdispls, rt->extent);
    coll_a2a_types(&a, comm->size, st, rt);
    rc = comm->coll->ialltoallw(sbuf, scounts, a.sbytes, a.stypes, rbuf, rcounts, a.rbytes,
                                a.rtypes, comm, req);
    coll_a2a_free(&a);
    return rc;
}

int MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                  MPI_Datatype rt, MPI_Comm comm, MPI_Request *req)
{
    int rc;
    struct coll_a2a a = { 0 };

    if ((rc = coll_check(comm, "MPI_Ialltoall")))
        return rc;
    coll_a2a_counts(&a, comm->size, scount, rcount);
    rc = MPI_Ialltoallv(sbuf, a.scounts, a.sdispls, st, rbuf, a.rcounts, a.rdispls, rt, comm, req);
    coll_a2a_free(&a);
    return rc;
}

/* ---- reductions ------------------------------------------------------------------ */
static int check_red(MPI_Comm comm, MPI_Op op, MPI_Datatype t, int count, const char *fn)
{
    int rc = coll_check(comm, fn);
    return rc ? rc : coll_check_op(comm, op, t, count, fn);
}

int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, int root,
                MPI_Comm comm, MPI_Request *req)
{
    int rc;

    if ((rc = check_red(comm, op, t, count, "MPI_Ireduce")) ||
        (rc = coll_check_root(comm, root, "MPI_Ireduce")))
        return rc;
    return comm->coll->ireduce(sbuf, rbuf, count, t, op, root, comm, req);
}

int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                   MPI_Comm comm, MPI_Request *req)
{
    int rc;

    if ((rc = check_red(comm, op, t, count, "MPI_Iallreduce")))
        return rc;
    return comm->coll->iallreduce(sbuf, rbuf, count, t, op, comm, req);
}

int MPI_Iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
              MPI_Request *req)
{
    int rc;

    if ((rc = check_red(comm, op, t, count, "MPI_Iscan")))
        return rc;
    return comm->coll->iscan(sbuf, rbuf, count, t, op, false, comm, req);
}

int MPI_Iexscan(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                MPI_Comm comm, MPI_Request *req)
{
    int rc;

    if ((rc = check_red(comm, op, t, count, "MPI_Iexscan")))
        return rc;
    return comm->coll->iscan(sbuf, rbuf, count, t, op, true, comm, req);
}

int MPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype t,
                        MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    int rc, total = 0;

    if ((rc = coll_check(comm, "MPI_Ireduce_scatter")))
        return rc;
    for (int i = 0; i < comm->size; i++)
        total += rcounts[i];
    if ((rc = coll_check_op(comm, op, t, total, "MPI_Ireduce_scatter")))
        return rc;
    return comm->coll->ireduce_scatter(sbuf, rbuf, rcounts, t, op, comm, req);
}

int MPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype t,
                              MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    int rc;

    if ((rc = coll_check(comm, "MPI_Ireduce_scatter_block")))
        return rc;
    int *counts = malloc(sizeof(int) * (size_t)comm->size);
    for (int i = 0; i < comm->size; i++)
        counts[i] = rcount;
    rc = MPI_Ireduce_scatter(sbuf, rbuf, counts, t, op, comm, req);
    free(counts);
    return rc;
}
