/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host-based collectives with MPICH's classic algorithms (the ones
 * MPICH-GM ran, so that a NIC-based one is compared with what its users
 * had): dissemination Barrier, binomial Bcast and Reduce, recursive
 * doubling Allreduce (with MPICH's fold of the ranks beyond a power of
 * two), linear Scan/Exscan. Messages use the communicator's collective
 * context (ctx + 1): no user receive can take them.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_coll.h"
#include "nicoll.h"

void coll_send(const void *buf, size_t count, MPI_Datatype t, int dst, int tag, MPI_Comm c)
{
    MPI_Request r = mpi_isend_ctx(buf, count, t, dst, tag, c, c->ctx + 1);
    mpi_wait_one(&r, MPI_STATUS_IGNORE);
}

void coll_recv(void *buf, size_t count, MPI_Datatype t, int src, int tag, MPI_Comm c)
{
    MPI_Request r = mpi_irecv_ctx(buf, count, t, src, tag, c, c->ctx + 1);
    mpi_wait_one(&r, MPI_STATUS_IGNORE);
}

void coll_sendrecv(const void *sbuf, size_t scount, MPI_Datatype st, int dst,
                   void *rbuf, size_t rcount, MPI_Datatype rt, int src, int tag, MPI_Comm c)
{
    MPI_Request r = mpi_irecv_ctx(rbuf, rcount, rt, src, tag, c, c->ctx + 1);
    MPI_Request s = mpi_isend_ctx(sbuf, scount, st, dst, tag, c, c->ctx + 1);
    mpi_wait_one(&s, MPI_STATUS_IGNORE);
    mpi_wait_one(&r, MPI_STATUS_IGNORE);
}

void *coll_alloc(size_t count, MPI_Datatype t)
{
    size_t span = count ? (count - 1) * (size_t)t->extent + (size_t)t->true_extent : 0;
    uint8_t *p = malloc(span + 1);
    return p - t->true_lb;
}

void coll_free(void *p, MPI_Datatype t)
{
    free((uint8_t *)p + t->true_lb);
}

size_t coll_block_end(MPI_Aint displ, int count, MPI_Datatype t)
{
    return (size_t)displ + (count ? (size_t)(count - 1) * (size_t)t->extent +
                                    (size_t)t->true_extent + (size_t)t->true_lb
                                  : 0);
}

void coll_copy(void *dst, const void *src, size_t count, MPI_Datatype t)
{
    size_t bytes = count * t->size;
    uint8_t *tmp;

    if (dst == src || !bytes)
        return;
    tmp = malloc(bytes);
    mpi_pack_bytes(src, count, t, tmp);
    mpi_unpack_bytes(tmp, bytes, dst, count, t);
    free(tmp);
}

int coll_check(MPI_Comm comm, const char *fn)
{
    MPI_CHECK_INIT(fn);
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, fn, "MPI_COMM_NULL");
    return MPI_SUCCESS;
}

int coll_check_op(MPI_Comm comm, MPI_Op op, MPI_Datatype t, int count, const char *fn)
{
    if (count < 0)
        return mpi_error(comm, MPI_ERR_COUNT, fn, "count %d < 0", count);
    if (!mpi_type_ok(t))
        return mpi_error(comm, MPI_ERR_TYPE, fn, "not a committed datatype");
    if (!op)
        return mpi_error(comm, MPI_ERR_OP, fn, "MPI_OP_NULL");
    if (!mpi_op_valid(op, t))
        return mpi_error(comm, MPI_ERR_OP, fn, "the operation is not defined on %s", t->name);
    return MPI_SUCCESS;
}

/* ---- Barrier ------------------------------------------------------------------- */
static void barrier_dissemination(MPI_Comm c)
{
    for (int k = 1; k < c->size; k <<= 1)
        coll_sendrecv(NULL, 0, MPI_BYTE, (c->rank + k) % c->size,
                      NULL, 0, MPI_BYTE, (c->rank - k + c->size) % c->size, TAG_BARRIER, c);
}

int MPI_Barrier(MPI_Comm comm)
{
    int rc;

    if ((rc = coll_check(comm, "MPI_Barrier")))
        return rc;
    if (comm->size == 1)
        return MPI_SUCCESS;
    /* the NIC's barrier: members are (node, port 0); the NIC runs one
     * barrier per port at a time, which a blocking call respects */
    if (mpi_state.barrier_nic && (unsigned)comm->size <= NC_BARRIER_MAX_MEMBERS) {
        rc = mpi_barrier_nic(comm);
        if (rc)
            return mpi_error(comm, MPI_ERR_OTHER, "MPI_Barrier", "NIC barrier: %s",
                             nc_strerror(rc));
        return MPI_SUCCESS;
    }
    barrier_dissemination(comm);
    return MPI_SUCCESS;
}

/* ---- Bcast: binomial tree rooted at 'root' (MPICH's MPIR_Bcast_binomial) ------------ */
int MPI_Bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm)
{
    int rc, n, vr, mask;

    if ((rc = coll_check(comm, "MPI_Bcast")))
        return rc;
    if (count < 0)
        return mpi_error(comm, MPI_ERR_COUNT, "MPI_Bcast", "count %d < 0", count);
    if (!mpi_type_ok(t))
        return mpi_error(comm, MPI_ERR_TYPE, "MPI_Bcast", "not a committed datatype");
    if (root < 0 || root >= comm->size)
        return mpi_error(comm, MPI_ERR_ROOT, "MPI_Bcast", "root %d not in 0..%d", root,
                         comm->size - 1);
    if (mpi_bcast_nic(buf, (size_t)count, t, root, comm))
        return MPI_SUCCESS;
    n = comm->size;
    vr = (comm->rank - root + n) % n;
    for (mask = 1; mask < n; mask <<= 1) {
        if (vr & mask) {
            coll_recv(buf, (size_t)count, t, (vr - mask + root) % n, TAG_BCAST, comm);
            break;
        }
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < n)
            coll_send(buf, (size_t)count, t, (vr + mask + root) % n, TAG_BCAST, comm);
    return MPI_SUCCESS;
}

/* ---- Reduce: binomial tree. Relative rank vr holds the reduction of
 * ranks [vr, vr + mask) and receives [vr + mask, vr + 2 mask), which comes
 * after it in rank order: acc = acc (op) received. A non-commutative op
 * needs rank order from 0, so it reduces to rank 0 and sends to root. */
static void reduce_binomial(const void *sbuf, void *acc, int count, MPI_Datatype t, MPI_Op op,
                            int root, MPI_Comm c)
{
    int n = c->size, vr = (c->rank - root + n) % n;
    void *tmp = coll_alloc((size_t)count, t);

    coll_copy(acc, sbuf, (size_t)count, t);
    for (int mask = 1; mask < n; mask <<= 1) {
        if (vr & mask) {
            coll_send(acc, (size_t)count, t, (vr - mask + root) % n, TAG_REDUCE, c);
            break;
        }
        if (vr + mask < n) {
            coll_recv(tmp, (size_t)count, t, (vr + mask + root) % n, TAG_REDUCE, c);
            /* acc = acc op tmp: apply computes inout = in op inout */
            mpi_op_apply(op, acc, tmp, (size_t)count, t);
            coll_copy(acc, tmp, (size_t)count, t);
        }
    }
    coll_free(tmp, t);
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, int root,
               MPI_Comm comm)
{
    int rc;
    void *acc;

    if ((rc = coll_check(comm, "MPI_Reduce")) ||
        (rc = coll_check_op(comm, op, t, count, "MPI_Reduce")))
        return rc;
    if (root < 0 || root >= comm->size)
        return mpi_error(comm, MPI_ERR_ROOT, "MPI_Reduce", "root %d not in 0..%d", root,
                         comm->size - 1);
    if (sbuf == MPI_IN_PLACE)
        sbuf = rbuf;    /* meaningful at the root only */
    acc = coll_alloc((size_t)count, t);
    if (op->commute || root == 0) {
        reduce_binomial(sbuf, acc, count, t, op, root, comm);
        if (comm->rank == root)
            coll_copy(rbuf, acc, (size_t)count, t);
    } else {
        reduce_binomial(sbuf, acc, count, t, op, 0, comm);
        if (comm->rank == 0)
            coll_send(acc, (size_t)count, t, root, TAG_REDUCE, comm);
        if (comm->rank == root)
            coll_recv(rbuf, (size_t)count, t, 0, TAG_REDUCE, comm);
    }
    coll_free(acc, t);
    return MPI_SUCCESS;
}

/* ---- Allreduce: recursive doubling (MPICH's MPIR_Allreduce_intra). With
 * n not a power of two, the first 2 x rem ranks pair up: each even one
 * gives its data to the odd one above it and waits for the result. */
int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                  MPI_Comm comm)
{
    int rc, n, rank, pof2, rem, newrank;
    void *tmp;

    if ((rc = coll_check(comm, "MPI_Allreduce")) ||
        (rc = coll_check_op(comm, op, t, count, "MPI_Allreduce")))
        return rc;
    if (sbuf != MPI_IN_PLACE)
        coll_copy(rbuf, sbuf, (size_t)count, t);
    n = comm->size;
    rank = comm->rank;
    if (n == 1)
        return MPI_SUCCESS;
    tmp = coll_alloc((size_t)count, t);
    for (pof2 = 1; pof2 * 2 <= n; pof2 <<= 1)
        ;
    rem = n - pof2;
    if (rank < 2 * rem) {
        if (rank % 2 == 0) {
            coll_send(rbuf, (size_t)count, t, rank + 1, TAG_ALLREDUCE, comm);
            newrank = -1;
        } else {
            coll_recv(tmp, (size_t)count, t, rank - 1, TAG_ALLREDUCE, comm);
            mpi_op_apply(op, tmp, rbuf, (size_t)count, t);    /* lower rank first */
            newrank = rank / 2;
        }
    } else {
        newrank = rank - rem;
    }
    if (newrank != -1) {
        for (int mask = 1; mask < pof2; mask <<= 1) {
            int newdst = newrank ^ mask;
            int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
            coll_sendrecv(rbuf, (size_t)count, t, dst, tmp, (size_t)count, t, dst,
                          TAG_ALLREDUCE, comm);
            if (dst < rank) {
                mpi_op_apply(op, tmp, rbuf, (size_t)count, t);    /* tmp op rbuf */
            } else {
                mpi_op_apply(op, rbuf, tmp, (size_t)count, t);    /* rbuf op tmp */
                coll_copy(rbuf, tmp, (size_t)count, t);
            }
        }
    }
    if (rank < 2 * rem) {
        if (rank % 2)
            coll_send(rbuf, (size_t)count, t, rank - 1, TAG_ALLREDUCE, comm);
        else
            coll_recv(rbuf, (size_t)count, t, rank + 1, TAG_ALLREDUCE, comm);
    }
    coll_free(tmp, t);
    return MPI_SUCCESS;
}

/* ---- Scan, Exscan: linear chain (rank order, so any op) ------------------------------ */
static int scan_common(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                       MPI_Comm comm, bool exclusive, const char *fn)
{
    int rc;
    void *mine, *prefix;

    if ((rc = coll_check(comm, fn)) || (rc = coll_check_op(comm, op, t, count, fn)))
        return rc;
    mine = coll_alloc((size_t)count, t);
    prefix = coll_alloc((size_t)count, t);
    coll_copy(mine, sbuf == MPI_IN_PLACE ? rbuf : sbuf, (size_t)count, t);
    if (comm->rank > 0) {
        /* prefix = reduction of ranks 0 .. rank-1 */
        coll_recv(prefix, (size_t)count, t, comm->rank - 1, exclusive ? TAG_EXSCAN : TAG_SCAN,
                  comm);
        if (exclusive)
            coll_copy(rbuf, prefix, (size_t)count, t);
        mpi_op_apply(op, prefix, mine, (size_t)count, t);    /* mine = prefix op mine */
    }
    if (!exclusive)
        coll_copy(rbuf, mine, (size_t)count, t);
    if (comm->rank + 1 < comm->size)
        coll_send(mine, (size_t)count, t, comm->rank + 1, exclusive ? TAG_EXSCAN : TAG_SCAN,
                  comm);
    coll_free(mine, t);
    coll_free(prefix, t);
    return MPI_SUCCESS;
}

int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    return scan_common(sbuf, rbuf, count, t, op, comm, false, "MPI_Scan");
}

int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
               MPI_Comm comm)
{
    return scan_common(sbuf, rbuf, count, t, op, comm, true, "MPI_Exscan");
}
