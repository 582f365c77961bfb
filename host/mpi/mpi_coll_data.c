/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The data-moving collectives in simple correct forms: linear Gather(v)
 * and Scatter(v) at the root (its receives or sends all posted at once),
 * Allgather(v) as a gather to rank 0 and a binomial Bcast of each part,
 * Alltoall(v/w) with every pair exchanging at once, Reduce_scatter as a
 * Reduce to rank 0 and a Scatterv. MPI_IN_PLACE as MPI 3.1 chapter 5
 * defines it for each.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_coll.h"

#define AT(buf, i, t) ((uint8_t *)(buf) + (MPI_Aint)(i) * (t)->extent)

static int check_root(MPI_Comm comm, int root, const char *fn)
{
    if (root < 0 || root >= comm->size)
        return mpi_error(comm, MPI_ERR_ROOT, fn, "root %d not in 0..%d", root, comm->size - 1);
    return MPI_SUCCESS;
}

static int check_type(MPI_Comm comm, MPI_Datatype t, int count, const char *fn)
{
    if (count < 0)
        return mpi_error(comm, MPI_ERR_COUNT, fn, "count %d < 0", count);
    if (!mpi_type_ok(t))
        return mpi_error(comm, MPI_ERR_TYPE, fn, "not a committed datatype");
    return MPI_SUCCESS;
}

static void wait_all(MPI_Request *r, int n)
{
    for (int i = 0; i < n; i++)
        if (r[i])
            mpi_wait_one(&r[i], MPI_STATUS_IGNORE);
}

/* ---- Gather(v) ------------------------------------------------------------------- */
static int gatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                   const int *rcounts, const int *displs, int rcount_all, MPI_Datatype rt,
                   int root, MPI_Comm comm, const char *fn)
{
    int rc;

    if ((rc = coll_check(comm, fn)) || (rc = check_root(comm, root, fn)))
        return rc;
    if (comm->rank != root) {
        if ((rc = check_type(comm, st, scount, fn)))
            return rc;
        coll_send(sbuf, (size_t)scount, st, root, TAG_GATHER, comm);
        return MPI_SUCCESS;
    }
    if ((rc = check_type(comm, rt, rcounts ? 0 : rcount_all, fn)))
        return rc;
    MPI_Request *r = calloc((size_t)comm->size, sizeof *r);
    for (int i = 0; i < comm->size; i++) {
        size_t cnt = (size_t)(rcounts ? rcounts[i] : rcount_all);
        void *at = AT(rbuf, displs ? displs[i] : i * rcount_all, rt);
        if (i == root) {
            if (sbuf != MPI_IN_PLACE) {
                MPI_Request s = mpi_isend_ctx(sbuf, (size_t)scount, st, root, TAG_GATHER, comm,
                                              comm->ctx + 1);
                r[i] = mpi_irecv_ctx(at, cnt, rt, i, TAG_GATHER, comm, comm->ctx + 1);
                mpi_wait_one(&s, MPI_STATUS_IGNORE);
            }
            continue;
        }
        r[i] = mpi_irecv_ctx(at, cnt, rt, i, TAG_GATHER, comm, comm->ctx + 1);
    }
    wait_all(r, comm->size);
    free(r);
    return MPI_SUCCESS;
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

/* ---- Scatter(v) ------------------------------------------------------------------ */
static int scatterv(const void *sbuf, const int *scounts, const int *displs, int scount_all,
                    MPI_Datatype st, void *rbuf, int rcount, MPI_Datatype rt, int root,
                    MPI_Comm comm, const char *fn)
{
    int rc;

    if ((rc = coll_check(comm, fn)) || (rc = check_root(comm, root, fn)))
        return rc;
    if (comm->rank != root) {
        if ((rc = check_type(comm, rt, rcount, fn)))
            return rc;
        coll_recv(rbuf, (size_t)rcount, rt, root, TAG_SCATTER, comm);
        return MPI_SUCCESS;
    }
    if ((rc = check_type(comm, st, scounts ? 0 : scount_all, fn)))
        return rc;
    MPI_Request *r = calloc((size_t)comm->size + 1, sizeof *r);
    for (int i = 0; i < comm->size; i++) {
        size_t cnt = (size_t)(scounts ? scounts[i] : scount_all);
        const void *at = AT(sbuf, displs ? displs[i] : i * scount_all, st);
        if (i == root && rbuf == MPI_IN_PLACE)
            continue;
        if (i == root)
            r[comm->size] = mpi_irecv_ctx(rbuf, (size_t)rcount, rt, root, TAG_SCATTER, comm,
                                          comm->ctx + 1);
        r[i] = mpi_isend_ctx(at, cnt, st, i, TAG_SCATTER, comm, comm->ctx + 1);
    }
    wait_all(r, comm->size + 1);
    free(r);
    return MPI_SUCCESS;
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

/* ---- Allgather(v): gather to 0, then each part broadcast ---------------------------- */
static int allgatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                      const int *rcounts, const int *displs, int rcount_all, MPI_Datatype rt,
                      MPI_Comm comm, const char *fn)
{
    int rc;

    if ((rc = coll_check(comm, fn)))
        return rc;
    if (sbuf == MPI_IN_PLACE) {
        /* my part is in place in rbuf: send it from there */
        sbuf = AT(rbuf, displs ? displs[comm->rank] : comm->rank * rcount_all, rt);
        scount = rcounts ? rcounts[comm->rank] : rcount_all;
        st = rt;
        if (comm->rank == 0)
            sbuf = MPI_IN_PLACE;
    }
    if ((rc = gatherv(sbuf, scount, st, rbuf, rcounts, displs, rcount_all, rt, 0, comm, fn)))
        return rc;
    for (int i = 0; i < comm->size; i++) {
        int cnt = rcounts ? rcounts[i] : rcount_all;
        if ((rc = MPI_Bcast(AT(rbuf, displs ? displs[i] : i * rcount_all, rt), cnt, rt, 0, comm)))
            return rc;
    }
    return MPI_SUCCESS;
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

/* ---- Alltoall(v/w): every exchange posted at once ---------------------------------- */
static int alltoallw(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                     const MPI_Datatype *stypes, void *rbuf, const int *rcounts,
                     const MPI_Aint *rdispls, const MPI_Datatype *rtypes, MPI_Comm comm)
{
    int n = comm->size;
    MPI_Request *r = calloc(2 * (size_t)n, sizeof *r);
    void *copy = NULL;

    if (sbuf == MPI_IN_PLACE) {
        /* send from a copy of what is in rbuf now, laid out as rbuf */
        size_t span = 0;
        for (int i = 0; i < n; i++) {
            size_t end = coll_block_end(rdispls[i], rcounts[i], rtypes[i]);
            if (end > span)
                span = end;
        }
        copy = malloc(span + 1);
        memcpy(copy, rbuf, span);
        sbuf = copy;
        scounts = rcounts;
        sdispls = rdispls;
        stypes = rtypes;
    }
    for (int k = 0; k < n; k++) {
        /* pairs in a staggered order: each rank starts with a different peer */
        int i = (comm->rank + k) % n;
        r[i] = mpi_irecv_ctx((uint8_t *)rbuf + rdispls[i], (size_t)rcounts[i], rtypes[i], i,
                             TAG_ALLTOALL, comm, comm->ctx + 1);
    }
    for (int k = 0; k < n; k++) {
        int i = (comm->rank - k + n) % n;
        r[n + i] = mpi_isend_ctx((const uint8_t *)sbuf + sdispls[i], (size_t)scounts[i],
                                 stypes[i], i, TAG_ALLTOALL, comm, comm->ctx + 1);
    }
    wait_all(r, 2 * n);
    free(r);
    free(copy);
    return MPI_SUCCESS;
}

int MPI_Alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                  const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                  const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm)
{
    int rc, n;

    if ((rc = coll_check(comm, "MPI_Alltoallw")))
        return rc;
    n = comm->size;
    MPI_Aint *sd = malloc(sizeof *sd * (size_t)n), *rd = malloc(sizeof *rd * (size_t)n);
    for (int i = 0; i < n; i++) {
        sd[i] = sbuf == MPI_IN_PLACE ? 0 : sdispls[i];
        rd[i] = rdispls[i];
    }
    rc = alltoallw(sbuf, scounts, sd, stypes, rbuf, rcounts, rd, rtypes, comm);
    free(sd);
    free(rd);
    return rc;
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype st,
                  void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rt,
                  MPI_Comm comm)
{
    int rc, n;

    if ((rc = coll_check(comm, "MPI_Alltoallv")))
        return rc;
    if ((sbuf != MPI_IN_PLACE && (rc = check_type(comm, st, 0, "MPI_Alltoallv"))) ||
        (rc = check_type(comm, rt, 0, "MPI_Alltoallv")))
        return rc;
    n = comm->size;
    MPI_Aint *sd = malloc(sizeof *sd * (size_t)n), *rd = malloc(sizeof *rd * (size_t)n);
    MPI_Datatype *sts = malloc(sizeof *sts * (size_t)n), *rts = malloc(sizeof *rts * (size_t)n);
    for (int i = 0; i < n; i++) {
        sd[i] = sbuf == MPI_IN_PLACE ? 0 : (MPI_Aint)sdispls[i] * st->extent;
        rd[i] = (MPI_Aint)rdispls[i] * rt->extent;
        sts[i] = st;
        rts[i] = rt;
    }
    rc = alltoallw(sbuf, scounts, sd, sts, rbuf, rcounts, rd, rts, comm);
    free(sd);
    free(rd);
    free(sts);
    free(rts);
    return rc;
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                 MPI_Datatype rt, MPI_Comm comm)
{
    int rc, n;

    if ((rc = coll_check(comm, "MPI_Alltoall")))
        return rc;
    n = comm->size;
    int *sc = malloc(sizeof(int) * (size_t)n), *sd = malloc(sizeof(int) * (size_t)n);
    int *rc_ = malloc(sizeof(int) * (size_t)n), *rd = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) {
        sc[i] = scount;
        sd[i] = i * scount;
        rc_[i] = rcount;
        rd[i] = i * rcount;
    }
    rc = MPI_Alltoallv(sbuf, sc, sd, st, rbuf, rc_, rd, rt, comm);
    free(sc);
    free(sd);
    free(rc_);
    free(rd);
    return rc;
}

/* ---- Reduce_scatter(_block): Reduce to 0, Scatterv ---------------------------------- */
int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype t,
                       MPI_Op op, MPI_Comm comm)
{
    int rc, total = 0;

    if ((rc = coll_check(comm, "MPI_Reduce_scatter")))
        return rc;
    int *displs = malloc(sizeof(int) * (size_t)comm->size);
    for (int i = 0; i < comm->size; i++) {
        displs[i] = total;
        total += rcounts[i];
    }
    if ((rc = coll_check_op(comm, op, t, total, "MPI_Reduce_scatter"))) {
        free(displs);
        return rc;
    }
    void *all = coll_alloc((size_t)total, t);
    const void *in = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    MPI_Reduce(in, all, total, t, op, 0, comm);
    MPI_Scatterv(all, rcounts, displs, t, rbuf, rcounts[comm->rank], t, 0, comm);
    coll_free(all, t);
    free(displs);
    return MPI_SUCCESS;
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
