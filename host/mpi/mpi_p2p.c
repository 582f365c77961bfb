/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Point-to-point calls: argument checks, then a request that the engine
 * starts (mpi_start_send / mpi_start_recv). Protocols (docs/mpi.md):
 *   eager       a message of at most MPI_NC_EAGER_MAX bytes goes at once,
 *               header and data in one packet (MPI_Ssend never: see below);
 *   rendezvous  a longer one (and every MPI_Ssend) sends an RTS; the
 *               receiver answers CTS when a receive matches it, then the
 *               data follows in packets of MPI_NC_CHUNK bytes. So an Ssend
 *               completes only after its receive has started.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_impl.h"
#include "nicoll/hostif.h"

static int check_comm(MPI_Comm comm, const char *fn)
{
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, fn, "MPI_COMM_NULL");
    return MPI_SUCCESS;
}

int mpi_p2p_check(MPI_Comm comm, int count, MPI_Datatype t, int peer, int tag,
                  bool recv, const char *fn)
{
    if (count < 0)
        return mpi_error(comm, MPI_ERR_COUNT, fn, "count %d < 0", count);
    if (!mpi_type_ok(t))
        return mpi_error(comm, MPI_ERR_TYPE, fn, "datatype is not a valid committed type");
    if (peer != MPI_PROC_NULL && !(recv && peer == MPI_ANY_SOURCE) &&
        (peer < 0 || peer >= comm->size))
        return mpi_error(comm, MPI_ERR_RANK, fn, "rank %d is not in 0..%d%s", peer,
                         comm->size - 1, recv ? " (or MPI_ANY_SOURCE, MPI_PROC_NULL)" : "");
    if (!(recv && tag == MPI_ANY_TAG) && (tag < 0 || tag > MPI_TAG_UB_VALUE))
        return mpi_error(comm, MPI_ERR_TAG, fn, "tag %d is not in 0..%d%s", tag,
                         MPI_TAG_UB_VALUE, recv ? " (or MPI_ANY_TAG)" : "");
    return MPI_SUCCESS;
}

void mpi_send_rndv_data(MPI_Request r)
{
    size_t chunk = mpi_state.chunk;
    unsigned n = (unsigned)((r->bytes + chunk - 1) / chunk);
    int dst = mpi_world_rank(r->comm, r->peer);

    if (!n || !r->peer_req) {    /* nothing to send (or a receive that wants nothing) */
        mpi_req_complete(r);
        return;
    }
    r->frags_left = n;
    for (unsigned i = 0; i < n; i++) {
        size_t off = (size_t)i * chunk;
        size_t len = r->bytes - off < chunk ? r->bytes - off : chunk;
        struct mpi_hdr h = { .type = PKT_DATA, .ctx = r->ctx, .len = off,
                             .rreq = r->peer_req };
        mpi_net_send(dst, &h, r->data + off, len, r);
    }
}

int mpi_start_send(MPI_Request r)
{
    struct mpi_hdr h = { .ctx = r->ctx, .src = r->comm->rank, .tag = r->tag };
    int dst;

    r->complete = false;
    r->cts = false;
    r->status.MPI_ERROR = MPI_SUCCESS;
    r->status.nc_cancelled = 0;
    if (r->peer == MPI_PROC_NULL) {
        mpi_req_complete(r);
        return MPI_SUCCESS;
    }
    dst = mpi_world_rank(r->comm, r->peer);
    r->bytes = r->type->size * (size_t)r->count;
    if (r->type->contig || r->count == 0) {
        r->data = (uint8_t *)r->buf;
    } else {
        free(r->tmp);
        r->tmp = malloc(r->bytes);
        mpi_pack_bytes(r->buf, (size_t)r->count, r->type, r->tmp);
        r->data = r->tmp;
    }
    if (r->mode == MODE_SYNC || r->bytes > mpi_state.eager_max) {
        r->rndv = true;
        r->frags_left = 0;
        h.type = PKT_RTS;
        h.len = r->bytes;
        h.sreq = (uint64_t)(uintptr_t)r;
        mpi_net_send(dst, &h, NULL, 0, NULL);
    } else {
        r->rndv = false;
        r->frags_left = 1;
        h.type = PKT_EAGER;
        mpi_net_send(dst, &h, r->data, r->bytes, r);
    }
    mpi_compute_mark();     /* packing may have let other ranks run */
    return MPI_SUCCESS;
}

static MPI_Request make_send(const void *buf, int count, MPI_Datatype t, int dest, int tag,
                             MPI_Comm comm, uint32_t ctx, enum mpi_send_mode mode)
{
    MPI_Request r = mpi_req_new(REQ_SEND);

    r->buf = (void *)buf;
    r->count = count;
    r->type = t;
    r->peer = dest;
    r->tag = tag;
    r->comm = comm;
    mpi_type_hold(t);           /* until the request is released */
    mpi_comm_hold(comm);
    r->ctx = ctx;
    r->mode = mode;
    return r;
}

static MPI_Request make_recv(void *buf, int count, MPI_Datatype t, int src, int tag,
                             MPI_Comm comm, uint32_t ctx)
{
    MPI_Request r = mpi_req_new(REQ_RECV);

    r->buf = buf;
    r->count = count;
    r->type = t;
    r->peer = src;
    r->tag = tag;
    r->comm = comm;
    mpi_type_hold(t);           /* until the request is released (unpacking) */
    mpi_comm_hold(comm);
    r->ctx = ctx;
    return r;
}

/* A receive's landing place: the user's buffer when the type is one
 * block, else a packed buffer unpacked at the end; then the receive
 * matches (msg NULL) or takes the matched message msg. */
static int begin_recv(MPI_Request r, struct unexp *msg)
{
    r->bytes = r->type->size * (size_t)r->count;
    r->msg_len = 0;
    r->status.MPI_SOURCE = MPI_ANY_SOURCE;
    r->status.MPI_TAG = MPI_ANY_TAG;
    r->status.MPI_ERROR = MPI_SUCCESS;
    r->status.nc_bytes = 0;
    if (r->peer == MPI_PROC_NULL) {
        r->status.MPI_SOURCE = MPI_PROC_NULL;
        r->complete = false;
        mpi_req_complete(r);
        return MPI_SUCCESS;
    }
    if (r->type->contig || r->count == 0) {
        r->data = r->buf;
    } else {
        r->tmp = malloc(r->bytes);
        r->data = r->tmp;
    }
    int rc = MPI_SUCCESS;
    if (msg)
        mpi_match_deliver(r, msg);
    else
        rc = mpi_start_recv(r);
    mpi_compute_mark();
    return rc;
}

MPI_Request mpi_isend_ctx(const void *buf, size_t count, MPI_Datatype t, int dest, int tag,
                          MPI_Comm comm, uint32_t ctx)
{
    MPI_Request r = make_send(buf, (int)count, t, dest, tag, comm, ctx, MODE_STANDARD);
    mpi_start_send(r);
    return r;
}

MPI_Request mpi_irecv_ctx(void *buf, size_t count, MPI_Datatype t, int src, int tag,
                          MPI_Comm comm, uint32_t ctx)
{
    MPI_Request r = make_recv(buf, (int)count, t, src, tag, comm, ctx);
    begin_recv(r, NULL);
    return r;
}

MPI_Request mpi_irecv_message(void *buf, int count, MPI_Datatype t, MPI_Comm comm, int src,
                              struct unexp *msg)
{
    MPI_Request r = make_recv(buf, count, t, src, MPI_ANY_TAG, comm, comm->ctx);
    begin_recv(r, msg);
    return r;
}

/* A buffered send: the bytes are packed into the attached buffer's
 * share at once, the user's request is complete, the packet goes later. */
static int bsend(const void *buf, int count, MPI_Datatype t, int dest, int tag,
                 MPI_Comm comm, const char *fn)
{
    size_t bytes = t->size * (size_t)count;
    size_t need = bytes + MPI_BSEND_OVERHEAD;
    MPI_Request r;

    if (dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (mpi_state.bsend_used + need > mpi_state.bsend_size)
        return mpi_error(comm, MPI_ERR_BUFFER, fn,
                         "%zu bytes (+%d overhead) do not fit in the attached buffer "
                         "(%zu of %zu bytes free)", bytes, MPI_BSEND_OVERHEAD,
                         mpi_state.bsend_size - mpi_state.bsend_used, mpi_state.bsend_size);
    mpi_state.bsend_used += need;
    r = make_send(NULL, (int)bytes, MPI_BYTE, dest, tag, comm, comm->ctx, MODE_STANDARD);
    r->tmp = malloc(bytes ? bytes : 1);
    mpi_pack_bytes(buf, (size_t)count, t, r->tmp);
    r->buf = r->tmp;
    r->bsend_bytes = need;
    r->freed = true;            /* nobody waits for it: released when done */
    mpi_start_send(r);
    return MPI_SUCCESS;
}

static int isend_mode(const void *buf, int count, MPI_Datatype t, int dest, int tag,
                      MPI_Comm comm, MPI_Request *req, enum mpi_send_mode mode, const char *fn)
{
    int rc;

    MPI_CHECK_INIT(fn);
    if ((rc = check_comm(comm, fn)) || (rc = mpi_p2p_check(comm, count, t, dest, tag, false, fn)))
        return rc;
    if (mode == MODE_BUFFERED) {
        rc = bsend(buf, count, t, dest, tag, comm, fn);
        *req = mpi_req_new(REQ_SEND);
        mpi_req_complete(*req);
        return rc;
    }
    *req = make_send(buf, count, t, dest, tag, comm, comm->ctx, mode);
    return mpi_start_send(*req);
}

static int send_mode(const void *buf, int count, MPI_Datatype t, int dest, int tag,
                     MPI_Comm comm, enum mpi_send_mode mode, const char *fn)
{
    MPI_Request r;
    int rc = isend_mode(buf, count, t, dest, tag, comm, &r, mode, fn);

    if (rc)
        return rc;
    return mpi_wait_one(&r, MPI_STATUS_IGNORE);
}

int MPI_Send(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm)
{
    return send_mode(buf, count, t, dest, tag, comm, MODE_STANDARD, "MPI_Send");
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm)
{
    return send_mode(buf, count, t, dest, tag, comm, MODE_SYNC, "MPI_Ssend");
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm)
{
    return send_mode(buf, count, t, dest, tag, comm, MODE_READY, "MPI_Rsend");
}

int MPI_Bsend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm)
{
    return send_mode(buf, count, t, dest, tag, comm, MODE_BUFFERED, "MPI_Bsend");
}

int MPI_Isend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    return isend_mode(buf, count, t, dest, tag, comm, req, MODE_STANDARD, "MPI_Isend");
}

int MPI_Issend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
               MPI_Request *req)
{
    return isend_mode(buf, count, t, dest, tag, comm, req, MODE_SYNC, "MPI_Issend");
}

int MPI_Irsend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
               MPI_Request *req)
{
    return isend_mode(buf, count, t, dest, tag, comm, req, MODE_READY, "MPI_Irsend");
}

int MPI_Ibsend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
               MPI_Request *req)
{
    return isend_mode(buf, count, t, dest, tag, comm, req, MODE_BUFFERED, "MPI_Ibsend");
}

int MPI_Irecv(void *buf, int count, MPI_Datatype t, int source, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    int rc;

    MPI_CHECK_INIT("MPI_Irecv");
    if ((rc = check_comm(comm, "MPI_Irecv")) ||
        (rc = mpi_p2p_check(comm, count, t, source, tag, true, "MPI_Irecv")))
        return rc;
    *req = make_recv(buf, count, t, source, tag, comm, comm->ctx);
    return begin_recv(*req, NULL);
}

int MPI_Recv(void *buf, int count, MPI_Datatype t, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    MPI_Request r;
    int rc = MPI_Irecv(buf, count, t, source, tag, comm, &r);

    if (rc)
        return rc;
    return mpi_wait_one(&r, status);
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
                 void *rbuf, int rcount, MPI_Datatype rtype, int source, int rtag,
                 MPI_Comm comm, MPI_Status *status)
{
    MPI_Request r, s;
    int rc;

    if ((rc = MPI_Irecv(rbuf, rcount, rtype, source, rtag, comm, &r)))
        return rc;
    if ((rc = MPI_Isend(sbuf, scount, stype, dest, stag, comm, &s)))
        return rc;
    rc = mpi_wait_one(&s, MPI_STATUS_IGNORE);
    int rc2 = mpi_wait_one(&r, status);
    return rc ? rc : rc2;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype t, int dest, int stag,
                         int source, int rtag, MPI_Comm comm, MPI_Status *status)
{
    MPI_Request s, r;
    size_t bytes;
    uint8_t *copy;
    int rc;

    MPI_CHECK_INIT("MPI_Sendrecv_replace");
    if ((rc = check_comm(comm, "MPI_Sendrecv_replace")) ||
        (rc = mpi_p2p_check(comm, count, t, dest, stag, false, "MPI_Sendrecv_replace")))
        return rc;
    bytes = t->size * (size_t)count;
    copy = malloc(bytes ? bytes : 1);
    mpi_pack_bytes(buf, (size_t)count, t, copy);
    if ((rc = MPI_Irecv(buf, count, t, source, rtag, comm, &r))) {
        free(copy);
        return rc;
    }
    s = make_send(copy, (int)bytes, MPI_BYTE, dest, stag, comm, comm->ctx, MODE_STANDARD);
    mpi_start_send(s);
    rc = mpi_wait_one(&s, MPI_STATUS_IGNORE);
    int rc2 = mpi_wait_one(&r, status);
    free(copy);
    return rc ? rc : rc2;
}

int MPI_Buffer_attach(void *buf, int size)
{
    if (mpi_state.bsend_buf)
        return mpi_error(NULL, MPI_ERR_BUFFER, "MPI_Buffer_attach", "a buffer is attached already");
    if (size < 0)
        return mpi_error(NULL, MPI_ERR_ARG, "MPI_Buffer_attach", "size %d < 0", size);
    mpi_state.bsend_buf = buf;
    mpi_state.bsend_size = (size_t)size;
    mpi_state.bsend_used = 0;
    return MPI_SUCCESS;
}

int MPI_Buffer_detach(void *buf_addr, int *size)
{
    /* detach waits until the buffered messages have gone (MPI 3.1 3.6.1) */
    uint64_t idle = nc_host_now_ns();
    while (mpi_state.bsend_used)
        mpi_progress_wait(&idle);
    *(void **)buf_addr = mpi_state.bsend_buf;
    *size = (int)mpi_state.bsend_size;
    mpi_state.bsend_buf = NULL;
    mpi_state.bsend_size = 0;
    return MPI_SUCCESS;
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    MPI_Status st;
    int rc;

    MPI_CHECK_INIT("MPI_Iprobe");
    if ((rc = check_comm(comm, "MPI_Iprobe")) ||
        (rc = mpi_p2p_check(comm, 0, MPI_BYTE, source, tag, true, "MPI_Iprobe")))
        return rc;
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        mpi_status_proc_null(status);
        return MPI_SUCCESS;
    }
    mpi_progress();
    *flag = mpi_match_probe(source, tag, comm->ctx, &st);
    if (*flag && status) {
        st.MPI_ERROR = status->MPI_ERROR;       /* a probe leaves it (mpi_req.c's finish) */
        *status = st;
    }
    return MPI_SUCCESS;
}

void mpi_status_proc_null(MPI_Status *status)
{
    if (status) {
        int was = status->MPI_ERROR;
        memset(status, 0, sizeof *status);
        status->MPI_SOURCE = MPI_PROC_NULL;
        status->MPI_TAG = MPI_ANY_TAG;
        status->MPI_ERROR = was;
    }
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    int flag = 0, rc;
    uint64_t idle = nc_host_now_ns();

    for (;;) {
        if ((rc = MPI_Iprobe(source, tag, comm, &flag, status)) || flag)
            return rc;
        mpi_progress_wait(&idle);
    }
}

int MPI_Get_count(const MPI_Status *status, MPI_Datatype t, int *count)
{
    if (!mpi_type_ok(t))
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Get_count", "not a committed datatype");
    if (t->size == 0)
        *count = status->nc_bytes ? MPI_UNDEFINED : 0;
    else if (status->nc_bytes % t->size)
        *count = MPI_UNDEFINED;
    else
        *count = (int)(status->nc_bytes / t->size);
    return MPI_SUCCESS;
}

int MPI_Get_elements(const MPI_Status *status, MPI_Datatype t, int *count)
{
    size_t per = t->size / (t->elements ? t->elements : 1);

    if (!mpi_type_ok(t))
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Get_elements", "not a committed datatype");
    if (t->base == B_NONE && t->size) {
        /* mixed types: whole instances only */
        if (status->nc_bytes % t->size)
            *count = MPI_UNDEFINED;
        else
            *count = (int)(status->nc_bytes / t->size * t->elements);
        return MPI_SUCCESS;
    }
    *count = per ? (int)(status->nc_bytes / per) : 0;
    return MPI_SUCCESS;
}

/* ---- persistent requests ---------------------------------------------------------- */
static int send_init(const void *buf, int count, MPI_Datatype t, int dest, int tag,
                     MPI_Comm comm, MPI_Request *req, enum mpi_send_mode mode, const char *fn)
{
    int rc;

    MPI_CHECK_INIT(fn);
    if ((rc = check_comm(comm, fn)) || (rc = mpi_p2p_check(comm, count, t, dest, tag, false, fn)))
        return rc;
    *req = make_send(buf, count, t, dest, tag, comm, comm->ctx, mode);
    (*req)->persistent = true;
    return MPI_SUCCESS;
}

int MPI_Send_init(const void *buf, int count, MPI_Datatype t, int dest, int tag,
                  MPI_Comm comm, MPI_Request *req)
{
    return send_init(buf, count, t, dest, tag, comm, req, MODE_STANDARD, "MPI_Send_init");
}

int MPI_Ssend_init(const void *buf, int count, MPI_Datatype t, int dest, int tag,
                   MPI_Comm comm, MPI_Request *req)
{
    return send_init(buf, count, t, dest, tag, comm, req, MODE_SYNC, "MPI_Ssend_init");
}

int MPI_Rsend_init(const void *buf, int count, MPI_Datatype t, int dest, int tag,
                   MPI_Comm comm, MPI_Request *req)
{
    return send_init(buf, count, t, dest, tag, comm, req, MODE_READY, "MPI_Rsend_init");
}

int MPI_Bsend_init(const void *buf, int count, MPI_Datatype t, int dest, int tag,
                   MPI_Comm comm, MPI_Request *req)
{
    return send_init(buf, count, t, dest, tag, comm, req, MODE_BUFFERED, "MPI_Bsend_init");
}

int MPI_Recv_init(void *buf, int count, MPI_Datatype t, int source, int tag,
                  MPI_Comm comm, MPI_Request *req)
{
    int rc;

    MPI_CHECK_INIT("MPI_Recv_init");
    if ((rc = check_comm(comm, "MPI_Recv_init")) ||
        (rc = mpi_p2p_check(comm, count, t, source, tag, true, "MPI_Recv_init")))
        return rc;
    *req = make_recv(buf, count, t, source, tag, comm, comm->ctx);
    (*req)->persistent = true;
    return MPI_SUCCESS;
}

int MPI_Start(MPI_Request *req)
{
    MPI_Request r = *req;

    if (!r || !r->persistent)
        return mpi_error(NULL, MPI_ERR_REQUEST, "MPI_Start", "not a persistent request");
    if (r->active)
        return mpi_error(r->comm, MPI_ERR_REQUEST, "MPI_Start", "the request is active already");
    r->active = true;
    if (r->kind == REQ_RECV)
        return begin_recv(r, NULL);
    if (r->mode == MODE_BUFFERED) {
        int rc = bsend(r->buf, r->count, r->type, r->peer, r->tag, r->comm, "MPI_Start");
        r->complete = false;
        mpi_req_complete(r);
        return rc;
    }
    return mpi_start_send(r);
}

int MPI_Startall(int count, MPI_Request reqs[])
{
    for (int i = 0; i < count; i++) {
        int rc = MPI_Start(&reqs[i]);
        if (rc)
            return rc;
    }
    return MPI_SUCCESS;
}
