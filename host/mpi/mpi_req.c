/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Requests: their life (new, complete, released) and the Wait/Test
 * families. Every wait loops on mpi_progress, which polls the NIC (each
 * empty poll costs the host's 'poll' time, so virtual time moves on).
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_impl.h"
#include "nicoll/hostif.h"

MPI_Request mpi_req_new(enum mpi_req_kind kind)
{
    MPI_Request r = calloc(1, sizeof *r);

    r->kind = kind;
    return r;
}

void mpi_req_release(MPI_Request r)
{
    free(r->tmp);
    mpi_type_drop(r->type);     /* held since the request was made */
    mpi_comm_drop(r->comm);
    free(r);
}

void mpi_req_complete(MPI_Request r)
{
    if (r->complete)
        return;
    r->complete = true;
    if (r->bsend_bytes)
        mpi_state.bsend_used -= r->bsend_bytes;
    if (r->freed && !r->persistent)
        mpi_req_release(r);
    else if (r->freed)
        r->active = false;
}

static bool inactive(MPI_Request r)
{
    return !r || (r->persistent && !r->active);
}

static void empty_status(MPI_Status *st)
{
    if (st) {
        memset(st, 0, sizeof *st);
        st->MPI_SOURCE = MPI_ANY_SOURCE;
        st->MPI_TAG = MPI_ANY_TAG;
    }
}

/* A completed request's status out, the request freed (or, persistent,
 * made inactive). Returns the request's error. A call of one status
 * (multiple false) leaves the status's MPI_ERROR as it was unless the
 * request failed: message-passing calls do not modify it, only those
 * that return several statuses may (MPI 3.1 section 3.2.5). */
static int finish(MPI_Request *rp, MPI_Status *st, bool multiple)
{
    MPI_Request r = *rp;
    int err = r->status.MPI_ERROR;

    if (st) {
        int was = st->MPI_ERROR;
        *st = r->status;
        if (!multiple && err == MPI_SUCCESS)
            st->MPI_ERROR = was;
        if (r->kind == REQ_SEND) {
            st->MPI_SOURCE = MPI_ANY_SOURCE;
            st->MPI_TAG = MPI_ANY_TAG;
        }
    }
    if (r->persistent) {
        r->active = false;
    } else {
        mpi_req_release(r);
        *rp = MPI_REQUEST_NULL;
    }
    return err;
}

int mpi_wait_one(MPI_Request *rp, MPI_Status *st)
{
    MPI_Request r = *rp;
    MPI_Comm comm;
    int err;

    if (inactive(r)) {
        empty_status(st);
        return MPI_SUCCESS;
    }
    uint64_t t0 = mpi_state.debug ? nc_host_now_ns() : 0;
    bool told = false;
    uint64_t idle = nc_host_now_ns();
    while (!r->complete) {
        mpi_progress_wait(&idle);
        if (mpi_state.debug && !told && nc_host_now_ns() - t0 > 10000000) {
            told = true;
            nc_host_printf("libmpi: rank %d: a %s request (peer %d, tag %d, ctx %u, %zu bytes) "
                           "waits for more than 10 ms\n", mpi_state.world_rank,
                           r->kind == REQ_SEND ? "send" : "receive", r->peer, r->tag, r->ctx,
                           r->bytes);
            mpi_net_dump("stalled");
            mpi_match_dump();
        }
    }
    comm = r->comm;
    mpi_comm_hold(comm);        /* for its error handler: r's hold goes with r */
    err = finish(rp, st, false);
    if (err)
        err = mpi_error(comm, err, "MPI_Wait", "%s", err == MPI_ERR_TRUNCATE ?
                        "message longer than the receive buffer" : "request failed");
    mpi_comm_drop(comm);
    return err;
}

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    MPI_CHECK_INIT("MPI_Wait");
    return mpi_wait_one(req, status);
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
    MPI_Request r = *req;

    MPI_CHECK_INIT("MPI_Test");
    if (inactive(r)) {
        *flag = 1;
        empty_status(status);
        return MPI_SUCCESS;
    }
    mpi_progress();
    *flag = r->complete;
    if (!r->complete)
        return MPI_SUCCESS;
    MPI_Comm comm = r->comm;
    mpi_comm_hold(comm);        /* for its error handler: r's hold goes with r */
    int err = finish(req, status, false);
    if (err)
        err = mpi_error(comm, err, "MPI_Test", "request failed");
    mpi_comm_drop(comm);
    return err;
}

/* Statuses of the -all/-some forms: an error in one makes MPI_ERR_IN_STATUS. */
static int all_done(int count, MPI_Request reqs[], MPI_Status sts[], const char *fn)
{
    int errs = 0;
    MPI_Comm comm = NULL;

    for (int i = 0; i < count; i++) {
        MPI_Status *st = sts ? &sts[i] : NULL;
        if (inactive(reqs[i])) {
            empty_status(st);
            continue;
        }
        mpi_comm_drop(comm);
        comm = reqs[i]->comm;
        mpi_comm_hold(comm);    /* for its error handler: the request's hold goes with it */
        if (finish(&reqs[i], st, true))
            errs++;
    }
    int err = errs ? mpi_error(comm, MPI_ERR_IN_STATUS, fn, "%d request(s) failed", errs)
                   : MPI_SUCCESS;
    mpi_comm_drop(comm);
    return err;
}

int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
    MPI_CHECK_INIT("MPI_Waitall");
    uint64_t idle = nc_host_now_ns();
    for (int i = 0; i < count; i++)
        while (!inactive(reqs[i]) && !reqs[i]->complete)
            mpi_progress_wait(&idle);
    return all_done(count, reqs, statuses, "MPI_Waitall");
}

int MPI_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    MPI_CHECK_INIT("MPI_Testall");
    mpi_progress();
    for (int i = 0; i < count; i++) {
        if (!inactive(reqs[i]) && !reqs[i]->complete) {
            *flag = 0;
            return MPI_SUCCESS;
        }
    }
    *flag = 1;
    return all_done(count, reqs, statuses, "MPI_Testall");
}

int MPI_Testany(int count, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
    bool any_active = false;

    MPI_CHECK_INIT("MPI_Testany");
    mpi_progress();
    for (int i = 0; i < count; i++) {
        if (inactive(reqs[i]))
            continue;
        any_active = true;
        if (reqs[i]->complete) {
            MPI_Comm comm = reqs[i]->comm;
            *index = i;
            *flag = 1;
            mpi_comm_hold(comm);    /* for its error handler */
            int err = finish(&reqs[i], status, false);
            if (err)
                err = mpi_error(comm, err, "MPI_Testany", "request failed");
            mpi_comm_drop(comm);
            return err;
        }
    }
    *index = MPI_UNDEFINED;
    *flag = !any_active;
    if (!any_active)
        empty_status(status);
    return MPI_SUCCESS;
}

int MPI_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status)
{
    int flag = 0, rc;

    MPI_CHECK_INIT("MPI_Waitany");
    uint64_t idle = nc_host_now_ns();
    for (;;) {
        if ((rc = MPI_Testany(count, reqs, index, &flag, status)) || flag)
            return rc;
        mpi_progress_wait(&idle);
    }
}

int MPI_Testsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                 MPI_Status statuses[])
{
    bool any_active = false;
    int n = 0, errs = 0;
    MPI_Comm comm = NULL;

    MPI_CHECK_INIT("MPI_Testsome");
    mpi_progress();
    for (int i = 0; i < incount; i++) {
        if (inactive(reqs[i]))
            continue;
        any_active = true;
        if (reqs[i]->complete) {
            mpi_comm_drop(comm);
            comm = reqs[i]->comm;
            mpi_comm_hold(comm);    /* for its error handler */
            indices[n] = i;
            if (finish(&reqs[i], statuses ? &statuses[n] : NULL, true))
                errs++;
            n++;
        }
    }
    *outcount = any_active ? n : MPI_UNDEFINED;
    int err = errs ? mpi_error(comm, MPI_ERR_IN_STATUS, "MPI_Testsome", "%d request(s) failed",
                               errs) : MPI_SUCCESS;
    mpi_comm_drop(comm);
    return err;
}

int MPI_Waitsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                 MPI_Status statuses[])
{
    int rc;

    MPI_CHECK_INIT("MPI_Waitsome");
    uint64_t idle = nc_host_now_ns();
    for (;;) {
        if ((rc = MPI_Testsome(incount, reqs, outcount, indices, statuses)))
            return rc;
        if (*outcount != 0)
            break;
        mpi_progress_wait(&idle);
    }
    return MPI_SUCCESS;
}

int MPI_Request_free(MPI_Request *req)
{
    MPI_Request r = *req;

    if (!r)
        return mpi_error(NULL, MPI_ERR_REQUEST, "MPI_Request_free", "MPI_REQUEST_NULL");
    if (r->complete || inactive(r)) {
        mpi_req_release(r);
    } else {
        /* an active one ends by itself; its memory goes then */
        r->freed = true;
        r->persistent = false;
    }
    *req = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}

int MPI_Request_get_status(MPI_Request r, int *flag, MPI_Status *status)
{
    if (inactive(r)) {
        *flag = 1;
        empty_status(status);
        return MPI_SUCCESS;
    }
    mpi_progress();
    *flag = r->complete;
    if (r->complete && status) {
        int was = status->MPI_ERROR;
        *status = r->status;
        if (r->status.MPI_ERROR == MPI_SUCCESS)
            status->MPI_ERROR = was;        /* one status: as finish leaves it */
        if (r->kind == REQ_SEND) {
            status->MPI_SOURCE = MPI_ANY_SOURCE;
            status->MPI_TAG = MPI_ANY_TAG;
        }
    }
    return MPI_SUCCESS;
}

/* A receive not yet matched is cancelled; anything else (a send, a
 * receive already matched) completes normally and the cancel fails,
 * which the standard allows (MPI 3.1 3.8.4): Test_cancelled says which. */
int MPI_Cancel(MPI_Request *req)
{
    MPI_Request r = *req;

    if (!r)
        return mpi_error(NULL, MPI_ERR_REQUEST, "MPI_Cancel", "MPI_REQUEST_NULL");
    if (r->kind == REQ_RECV && !r->complete && mpi_match_cancel(r)) {
        free(r->tmp);
        r->tmp = NULL;
        r->status.nc_cancelled = 1;
        r->status.nc_bytes = 0;
        mpi_req_complete(r);
    }
    return MPI_SUCCESS;
}

int MPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    *flag = status->nc_cancelled;
    return MPI_SUCCESS;
}

int MPI_Get_address(const void *location, MPI_Aint *address)
{
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}
