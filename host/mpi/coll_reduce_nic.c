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
 *
 * MPI_NC_REDUCE_FP=exact: a sum of float or double is exact instead
 * (nicoll.h's exact, the NIC's accumulators): the correctly rounded sum,
 * the same bits on any tree and any number of ranks, of any length, in
 * pieces of NC_RED_XMAX elements, one NIC reduction each, on one request.
 * A float sum the NIC cannot take (a derived type, a communicator the
 * instance key cannot hold) is then an MPI error, never an ordered result
 * under the exact mode's name; a communicator of one rank is its own
 * exact sum.
 */
#include "coll_table.h"
#include "nc_red.h"
#include "nicoll.h"
#include "nicoll/hostif.h"
#include "nicoll/nc_abi.h"

#include <stdlib.h>
#include <string.h>

static unsigned long on_nic, on_host, on_exact;    /* calls each way (MPI_NC_REDUCE_STATS) */

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

/* A sum of float or double under MPI_NC_REDUCE_FP=exact. */
static bool wants_exact(MPI_Datatype t, MPI_Op op)
{
    return mpi_state.reduce_exact && op == MPI_SUM && t->predefined &&
           (t->base == B_FLOAT || t->base == B_DOUBLE);
}

static bool eligible(int count, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    int o = nic_op(op), ty = nic_type(t);

    /* bitwise ops on integers only (nc_red_valid) */
    return c->size > 1 && count > 0 && o >= 0 && ty >= 0 && !(o >= NC_RED_BAND && ty >= NC_RED_F32) &&
           ((size_t)count * t->size <= NC_RED_DATA_MAX || wants_exact(t, op)) &&
           c->ctx < 0x10000u;
}

/* The exact mode's refusal of a float sum the NIC cannot take (see the
 * top); 0 when the call may run on the host. */
static int refuse_inexact(int count, MPI_Datatype t, MPI_Op op, MPI_Comm c, const char *call)
{
    bool is_float = t->base == B_FLOAT || t->base == B_DOUBLE ||
                    (!t->predefined && mpi_state.reduce_exact);

    if (!mpi_state.reduce_exact || op != MPI_SUM || !is_float || c->size == 1 || count == 0)
        return 0;
    return mpi_error(c, MPI_ERR_OTHER, call, "MPI_NC_REDUCE_FP=exact: the NIC's exact sum takes "
                     "MPI_FLOAT or MPI_DOUBLE on a communicator with a context id below 65536; "
                     "this call has %s", !t->predefined || !t->contig ? "a derived datatype" :
                     "a context id beyond");
}

/* This rank's part, on a tree rooted at root, started: one piece, or an
 * exact sum's pieces of NC_RED_XMAX elements. */
static int start(const void *own, void *out, int count, MPI_Datatype t, MPI_Op op, int root,
                 bool all, MPI_Comm c, const char *call, MPI_Request *req)
{
    int n = c->size, vr = (c->rank - root + n) % n, rc = NC_OK;
    bool exact = wants_exact(t, op);
    size_t piece = exact ? NC_RED_XMAX : (size_t)count;
    nc_reduce r = { .op = (unsigned)nic_op(op), .type = (unsigned)nic_type(t),
                    .all = all, .exact = exact, .root = vr == 0 };
    MPI_Request q;

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
    if (exact)
        on_exact++;
    q = mpi_nicred_request(c);
    for (size_t at = 0; at < (size_t)count && rc == NC_OK; at += piece) {
        r.instance = c->ctx << 16 | (c->red_seq++ & 0xFFFFu);
        r.count = (size_t)count - at < piece ? (size_t)count - at : piece;
        rc = mpi_ireduce_nic(&r, (const char *)own + at * t->size,
                             out ? (char *)out + at * t->size : NULL, q);
    }
    mpi_nicred_started(q);
    if (rc) {
        /* the started pieces still end at the NIC: the request goes with them */
        q->freed = true;
        if (q->complete)
            mpi_req_release(q);
        return mpi_error(c, MPI_ERR_OTHER, call, "NIC reduction: %s", nc_strerror(rc));
    }
    *req = q;
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
        int rc = refuse_inexact(count, t, op, c, "MPI_Reduce");

        if (rc)
            return rc;
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
        int rc = refuse_inexact(count, t, op, c, "MPI_Allreduce");

        if (rc)
            return rc;
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
        int rc = refuse_inexact(count, t, op, c, "MPI_Ireduce");

        if (rc)
            return rc;
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
        int rc = refuse_inexact(count, t, op, c, "MPI_Iallreduce");

        if (rc)
            return rc;
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
        nc_host_printf("libmpi: rank %d: nic reduce: on_nic=%lu on_host=%lu exact=%lu\n",
                       mpi_state.world_rank, on_nic, on_host, on_exact);
}
