/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MPI_Reduce and MPI_Allreduce on the NIC (MPI_NC_REDUCE=nic;
 * docs/reduction.md "NIC-based reduction"): each rank's NIC combines its
 * children's contributions with its own and sends one message up the
 * tree; the host only posts its data and takes the result.
 *
 * The tree and the order of combination are coll_reduce_binomial.c's (at
 * relative rank vr the children vr + 1, vr + 2, vr + 4, ... below vr's
 * lowest set bit, combined in that order, each child's value the host's
 * inout operand), so MPI_Reduce gives the host algorithm's bits. An
 * allreduce is that reduction to rank 0 and its result sent back down the
 * same tree by the NICs: the bits of coll_allreduce_reduce_bcast.c (not
 * of the recursive doubling the host's MPI_Allreduce takes, which adds in
 * another order).
 *
 * Which calls: a predefined op of ref/red's (sum, min, max; bitwise and,
 * or, xor on integers) on a predefined 32- or 64-bit integer type, float
 * or double, contiguous, at most NC_RED_DATA_MAX bytes, on a communicator
 * of two ranks or more whose context id the instance key holds. Every
 * member passes the same op, type and count, so every member decides
 * alike; any other call takes the host's algorithm.
 */
#include "coll_table.h"
#include "nc_red.h"
#include "nicoll.h"
#include "nicoll/hostif.h"
#include "nicoll/nc_abi.h"

#include <stdlib.h>
#include <string.h>

static unsigned long on_nic, on_host;   /* calls each way (MPI_NC_REDUCE_STATS) */

static int nic_op(MPI_Op op)
{
    if (op == MPI_SUM) return NC_RED_SUM;
    if (op == MPI_MIN) return NC_RED_MIN;
    if (op == MPI_MAX) return NC_RED_MAX;
    if (op == MPI_BAND) return NC_RED_BAND;
    if (op == MPI_BOR) return NC_RED_BOR;
    if (op == MPI_BXOR) return NC_RED_BXOR;
    return -1;
}

static int nic_type(MPI_Datatype t)
{
    if (!t->predefined || !t->contig)
        return -1;
    switch (t->base) {
    case B_FLOAT: return NC_RED_F32;
    case B_DOUBLE: return NC_RED_F64;
    default: break;
    }
    switch (t->base) {
    case B_INT: case B_INT32: case B_LONG: case B_LLONG: case B_INT64: case B_AINT:
    case B_OFFSET: case B_COUNT:
        return t->size == 4 ? NC_RED_I32 : t->size == 8 ? NC_RED_I64 : -1;
    case B_UINT: case B_UINT32: case B_ULONG: case B_ULLONG: case B_UINT64:
        return t->size == 4 ? NC_RED_U32 : t->size == 8 ? NC_RED_U64 : -1;
    default:
        return -1;
    }
}

static bool eligible(int count, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    int o = nic_op(op), ty = nic_type(t);

    /* bitwise ops on integers only (nc_red_valid) */
    return c->size > 1 && count > 0 && o >= 0 && ty >= 0 && !(o >= NC_RED_BAND && ty >= NC_RED_F32) &&
           (size_t)count * t->size <= NC_RED_DATA_MAX && c->ctx < 0x10000u;
}

/* This rank's part, on a tree rooted at root, started. */
static int start(const void *own, void *out, int count, MPI_Datatype t, MPI_Op op, int root,
                 bool all, MPI_Comm c, const char *call, MPI_Request *req)
{
    int n = c->size, vr = (c->rank - root + n) % n, rc;
    nc_reduce r = { .instance = c->ctx << 16 | (c->red_seq++ & 0xFFFFu),
                    .op = (unsigned)nic_op(op), .type = (unsigned)nic_type(t),
                    .count = (size_t)count, .all = all, .root = vr == 0 };

    for (int mask = 1; mask < n; mask <<= 1) {
        if (vr & mask) {
            r.parent = (nc_member){ .node = (uint16_t)mpi_world_rank(c, (vr - mask + root) % n) };
            break;
        }
        if (vr + mask < n)
            r.children[r.nchildren++] =
                (nc_member){ .node = (uint16_t)mpi_world_rank(c, (vr + mask + root) % n) };
    }
    on_nic++;
    if ((rc = mpi_ireduce_nic(&r, own, out, c, req)))
        return mpi_error(c, MPI_ERR_OTHER, call, "NIC reduction: %s", nc_strerror(rc));
    return MPI_SUCCESS;
}

/* A blocking call: started, then waited for; the outcome as the call's. */
static int run(const void *own, void *out, int count, MPI_Datatype t, MPI_Op op, int root,
               bool all, MPI_Comm c, const char *call)
{
    MPI_Request q;
    int rc = start(own, out, count, t, op, root, all, c, call, &q);
    uint64_t idle = nc_host_now_ns();

    if (rc)
        return rc;
    while (!q->complete)
        mpi_progress_wait(&idle);
    rc = q->nc_status;
    mpi_req_release(q);
    if (rc == NC_ETIMEDOUT)
        return mpi_error(c, MPI_ERR_OTHER, call, "NIC reduction: a member's NIC did not answer "
                         "within the send time-out (a member dead or cut off)");
    if (rc)
        return mpi_error(c, MPI_ERR_OTHER, call, "NIC reduction: %s", nc_strerror(rc));
    return MPI_SUCCESS;
}

int coll_reduce_nic(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, int root,
                    MPI_Comm c)
{
    if (!eligible(count, t, op, c)) {
        on_host++;
        return coll_reduce_binomial(sbuf, rbuf, count, t, op, root, c);
    }
    return run(sbuf == MPI_IN_PLACE ? rbuf : sbuf, c->rank == root ? rbuf : NULL, count, t, op,
               root, false, c, "MPI_Reduce");
}

int coll_allreduce_nic(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                       MPI_Comm c)
{
    if (!eligible(count, t, op, c)) {
        on_host++;
        return coll_allreduce_recursive_doubling(sbuf, rbuf, count, t, op, c);
    }
    return run(sbuf == MPI_IN_PLACE ? rbuf : sbuf, rbuf, count, t, op, 0, true, c,
               "MPI_Allreduce");
}

/* The non-blocking forms: the request completes when this NIC's part is
 * done (its MPI_Wait reports a failure); a call the NIC cannot take runs
 * the host's schedule. */
int coll_ireduce_nic(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, int root,
                     MPI_Comm c, MPI_Request *req)
{
    if (!eligible(count, t, op, c)) {
        on_host++;
        return coll_ireduce_binomial(sbuf, rbuf, count, t, op, root, c, req);
    }
    return start(sbuf == MPI_IN_PLACE ? rbuf : sbuf, c->rank == root ? rbuf : NULL, count, t,
                 op, root, false, c, "MPI_Ireduce", req);
}

int coll_iallreduce_nic(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                        MPI_Comm c, MPI_Request *req)
{
    if (!eligible(count, t, op, c)) {
        on_host++;
        return coll_iallreduce_reduce_bcast(sbuf, rbuf, count, t, op, c, req);
    }
    return start(sbuf == MPI_IN_PLACE ? rbuf : sbuf, rbuf, count, t, op, 0, true, c,
                 "MPI_Iallreduce", req);
}

void coll_reduce_nic_report(void)
{
    const char *s = getenv("MPI_NC_REDUCE_STATS");

    if (mpi_state.reduce_nic && s && strcmp(s, "0"))
        nc_host_printf("libmpi: rank %d: nic reduce: on_nic=%lu on_host=%lu\n",
                       mpi_state.world_rank, on_nic, on_host);
}
