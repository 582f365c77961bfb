/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Matched probe (MPI 3.0 section 3.8.2). MPI_Mprobe and MPI_Improbe take
 * the matching message out of the unexpected queue (mpi_match.c), so no
 * other receive or probe can match it, and hand it back as an
 * MPI_Message; MPI_Mrecv and MPI_Imrecv receive exactly that message. An
 * eager message keeps its payload; a rendezvous one is answered (CTS)
 * only when its MPI_Mrecv starts, the data following as for any receive.
 * A probe of MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC, whose receive
 * completes at once with the status of a receive from MPI_PROC_NULL.
 */
#include <stdlib.h>

#include "mpi_impl.h"
#include "nicoll/hostif.h"

struct mpi_message_s mpi_message_no_proc_ = { .src = MPI_PROC_NULL };

int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                MPI_Status *status)
{
    static const char fn[] = "MPI_Improbe";
    MPI_Status st;
    int rc;

    MPI_CHECK_INIT(fn);
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, fn, "MPI_COMM_NULL");
    if ((rc = mpi_p2p_check(comm, 0, MPI_BYTE, source, tag, true, fn)))
        return rc;
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        *message = MPI_MESSAGE_NO_PROC;
        mpi_status_proc_null(status);
        return MPI_SUCCESS;
    }
    mpi_progress();
    struct unexp *u = mpi_match_take(source, tag, comm->ctx, &st);
    *flag = u != NULL;
    if (!u)
        return MPI_SUCCESS;
    struct mpi_message_s *m = malloc(sizeof *m);
    *m = (struct mpi_message_s){ .comm = comm, .src = st.MPI_SOURCE, .msg = u };
    mpi_comm_hold(comm);        /* until the message is received */
    *message = m;
    if (status) {
        st.MPI_ERROR = status->MPI_ERROR;       /* a probe leaves it (mpi_req.c's finish) */
        *status = st;
    }
    return MPI_SUCCESS;
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    int flag = 0, rc;
    uint64_t idle = nc_host_now_ns();

    for (;;) {
        if ((rc = MPI_Improbe(source, tag, comm, &flag, message, status)) || flag)
            return rc;
        mpi_progress_wait(&idle);
    }
}

int MPI_Imrecv(void *buf, int count, MPI_Datatype t, MPI_Message *message, MPI_Request *req)
{
    static const char fn[] = "MPI_Imrecv";
    struct mpi_message_s *m;
    int rc;

    MPI_CHECK_INIT(fn);
    if (!message || !*message)
        return mpi_error(NULL, MPI_ERR_ARG, fn, "the message is MPI_MESSAGE_NULL");
    m = *message;
    MPI_Comm comm = m == MPI_MESSAGE_NO_PROC ? MPI_COMM_SELF : m->comm;
    if ((rc = mpi_p2p_check(comm, count, t, MPI_PROC_NULL, 0, true, fn)))
        return rc;
    *req = mpi_irecv_message(buf, count, t, comm, m->src, m->msg);
    if (m != MPI_MESSAGE_NO_PROC) {
        mpi_comm_drop(m->comm);
        free(m);
    }
    *message = MPI_MESSAGE_NULL;
    return MPI_SUCCESS;
}

int MPI_Mrecv(void *buf, int count, MPI_Datatype t, MPI_Message *message, MPI_Status *status)
{
    MPI_Request r;
    int rc = MPI_Imrecv(buf, count, t, message, &r);

    if (rc)
        return rc;
    return mpi_wait_one(&r, status);
}
