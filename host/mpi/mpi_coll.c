/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The blocking collectives' entry points: each checks its arguments and
 * calls the communicator's chosen algorithm (comm->coll, coll_table.c).
 * MPI_IN_PLACE as MPI 3.1 chapter 5 defines it for each; the algorithms
 * handle it.
 */
#include <stdlib.h>

#include "coll_table.h"
#include "mpi_coll.h"

int MPI_Barrier(MPI_Comm comm)
{
    int rc;

    if ((rc = coll_check(comm, "MPI_Barrier")))
        return rc;
    return comm->coll->barrier(comm);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm)
{
    int rc;

    if ((rc = coll_check(comm, "MPI_Bcast")) ||
        (rc = coll_check_type(comm, t, count, "MPI_Bcast")) ||
        (rc = coll_check_root(comm, root, "MPI_Bcast")))
        return rc;
    return comm->coll->bcast(buf, count, t, root, comm);
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, int root,
               MPI_Comm comm)
{
    int rc;

    if ((rc = coll_check(comm, "MPI_Reduce")) ||
        (rc = coll_check_op(comm, op, t, count, "MPI_Reduce")) ||
        (rc = coll_check_root(comm, root, "MPI_Reduce")))
        return rc;
    return comm->coll->reduce(sbuf, rbuf, count, t, op, root, comm);
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                  MPI_Comm comm)
{
    int rc;

    if ((rc = coll_check(comm, "MPI_Allreduce")) ||
        (rc = coll_check_op(comm, op, t, count, "MPI_Allreduce")))
        return rc;
    return comm->coll->allreduce(sbuf, rbuf, count, t, op, comm);
}

int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    int rc;

    if ((rc = coll_check(comm, "MPI_Scan")) || (rc = coll_check_op(comm, op, t, count, "MPI_Scan")))
        return rc;
    return comm->coll->scan(sbuf, rbuf, count, t, op, false, comm);
}

int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
               MPI_Comm comm)
{
    int rc;

    if ((rc = coll_check(comm, "MPI_Exscan")) ||
        (rc = coll_check_op(comm, op, t, count, "MPI_Exscan")))
        return rc;
    return comm->coll->scan(sbuf, rbuf, count, t, op, true, comm);
}

/* ---- Gather(v), Scatter(v): the root checks the side it receives (sends) ---------- */
static int gatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                   const int *rcounts, const int *displs, int rcount_all, MPI_Datatype rt,
                   int root, MPI_Comm comm, const char *fn)
{
    int rc;

    if ((rc = coll_check(comm, fn)) || (rc = coll_check_root(comm, root, fn)))
        return rc;
    if (comm->rank != root ? (rc = coll_check_type(comm, st, scount, fn))
                           : (rc = coll_check_type(comm, rt, rcounts ? 0 : rcount_all, fn)))
        return rc;
    return comm->coll->gatherv(sbuf, scount, st, rbuf, rcounts, displs, rcount_all, rt, root,
                               comm);
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
               MPI_Datatype rt, int root, MPI_Comm comm)
{
    return gatherv(sbuf, scount, st, rbuf, NULL, NULL, rcount, rt, root, comm, "MPI_Gather");
}

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, const int rcounts[],
                const int displs[], MPI_Datatype rt, int root, MPI_Comm comm)
{
    return gatherv(sbuf, scount, st, rbuf, rcounts, displs, 0, rt, root, comm, "MPI_Gatherv");
}

static int scatterv(const void *sbuf, const int *scounts, const int *displs, int scount_all,
                    MPI_Datatype st, void *rbuf, int rcount, MPI_Datatype rt, int root,
                    MPI_Comm comm, const char *fn)
{
    int rc;

    if ((rc = coll_check(comm, fn)) || (rc = coll_check_root(comm, root, fn)))
        return rc;
    if (comm->rank != root ? (rc = coll_check_type(comm, rt, rcount, fn))
                           : (rc = coll_check_type(comm, st, scounts ? 0 : scount_all, fn)))
        return rc;
    return comm->coll->scatterv(sbuf, scounts, displs, scount_all, st, rbuf, rcount, rt, root,
                                comm);
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                MPI_Datatype rt, int root, MPI_Comm comm)
{
    return scatterv(sbuf, NULL, NULL, scount, st, rbuf, rcount, rt, root, comm, "MPI_Scatter");
}

int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype st,
                 void *rbuf, int rcount, MPI_Datatype rt, int root, MPI_Comm comm)
{
    return scatterv(sbuf, scounts, displs, 0, st, rbuf, rcount, rt, root, comm, "MPI_Scatterv");
}

/* ---- Allgather(v): rank 0 checks what it receives, the others what they send ------- */
static int allgatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                      const int *rcounts, const int *displs, int rcount_all, MPI_Datatype rt,
                      MPI_Comm comm, const char *fn)
{
    int rc;

    if ((rc = coll_check(comm, fn)))
        return rc;
    if (comm->rank == 0)
        rc = coll_check_type(comm, rt, rcounts ? 0 : rcount_all, fn);
    else if (sbuf == MPI_IN_PLACE)
        rc = coll_check_type(comm, rt, rcounts ? rcounts[comm->rank] : rcount_all, fn);
    else
        rc = coll_check_type(comm, st, scount, fn);
    if (rc)
        return rc;
    return comm->coll->allgatherv(sbuf, scount, st, rbuf, rcounts, displs, rcount_all, rt, comm);
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                  MPI_Datatype rt, MPI_Comm comm)
{
    return allgatherv(sbuf, scount, st, rbuf, NULL, NULL, rcount, rt, comm, "MPI_Allgather");
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                   const int rcounts[], const int displs[], MPI_Datatype rt, MPI_Comm comm)
{
    return allgatherv(sbuf, scount, st, rbuf, rcounts, displs, 0, rt, comm, "MPI_Allgatherv");
}

/* ---- Alltoall(v/w): all three as Alltoallw with byte displacements ------------------ */
int MPI_Alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                  const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                  const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm)
{
    int rc;
    struct coll_a2a a = { 0 };

    if ((rc = coll_check(comm, "MPI_Alltoallw")))
        return rc;
    coll_a2a_bytes(&a, comm->size, sbuf, sdispls, 1, rdispls, 1);
    rc = comm->coll->alltoallw(sbuf, scounts, a.sbytes, stypes, rbuf, rcounts, a.rbytes, rtypes,
                               comm);
    coll_a2a_free(&a);
    return rc;
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype st,
                  void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rt,
                  MPI_Comm comm)
{
    int rc;
    struct coll_a2a a = { 0 };

    if ((rc = coll_check(comm, "MPI_Alltoallv")))
        return rc;
    if ((sbuf != MPI_IN_PLACE && (rc = coll_check_type(comm, st, 0, "MPI_Alltoallv"))) ||
        (rc = coll_check_type(comm, rt, 0, "MPI_Alltoallv")))
        return rc;
    coll_a2a_bytes(&a, comm->size, sbuf, sdispls, sbuf == MPI_IN_PLACE ? 0 : st->extent,
                   rdispls, rt->extent);
    coll_a2a_types(&a, comm->size, st, rt);
    rc = comm->coll->alltoallw(sbuf, scounts, a.sbytes, a.stypes, rbuf, rcounts, a.rbytes,
                               a.rtypes, comm);
    coll_a2a_free(&a);
    return rc;
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                 MPI_Datatype rt, MPI_Comm comm)
{
    int rc;
    struct coll_a2a a = { 0 };

    if ((rc = coll_check(comm, "MPI_Alltoall")))
        return rc;
    coll_a2a_counts(&a, comm->size, scount, rcount);
    rc = MPI_Alltoallv(sbuf, a.scounts, a.sdispls, st, rbuf, a.rcounts, a.rdispls, rt, comm);
    coll_a2a_free(&a);
    return rc;
}

/* ---- Reduce_scatter(_block) ------------------------------------------------------ */
int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype t,
                       MPI_Op op, MPI_Comm comm)
{
    int rc, total = 0;

    if ((rc = coll_check(comm, "MPI_Reduce_scatter")))
        return rc;
    for (int i = 0; i < comm->size; i++)
        total += rcounts[i];
    if ((rc = coll_check_op(comm, op, t, total, "MPI_Reduce_scatter")))
        return rc;
    return comm->coll->reduce_scatter(sbuf, rbuf, rcounts, t, op, comm);
}

int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype t,
                             MPI_Op op, MPI_Comm comm)
{
    int rc;

    if ((rc = coll_check(comm, "MPI_Reduce_scatter_block")))
        return rc;
    int *counts = malloc(sizeof(int) * (size_t)comm->size);
    for (int i = 0; i < comm->size; i++)
        counts[i] = rcount;
    rc = MPI_Reduce_scatter(sbuf, rbuf, counts, t, op, comm);
    free(counts);
    return rc;
}
