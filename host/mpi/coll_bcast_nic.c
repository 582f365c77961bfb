/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Broadcast on NIC multicast (MPI_NC_BCAST=nic; docs/mpi.md "Broadcast on
 * the NIC"), blocking and not, on the groups of coll_bcast_nic_groups.c.
 * Whether a broadcast goes on the NIC depends on the call (its size, its
 * datatype for MPI_Ibcast, whether its (communicator, root, tree class)
 * agreed on the NIC), so this algorithm takes the host's binomial tree
 * (coll_bcast_binomial.c) for the ones that cannot.
 * The group's first use is agreed by every member: MPI_Bcast by an
 * allreduce, MPI_Ibcast by a dissemination MIN in its own schedule (a
 * non-blocking call must not wait for other ranks).
 */
#include <stdlib.h>

#include "coll_sched.h"
#include "coll_table.h"
#include "nicoll/hostif.h"

/* Until r completes, then r goes. */
static void wait_req(MPI_Request r)
{
    uint64_t idle = nc_host_now_ns();

    while (!r->complete)
        mpi_progress_wait(&idle);
    mpi_req_release(r);
}

/* 1 if done on the NIC, 0 if this (communicator, root) uses the host's
 * algorithm; the same answer on every member. */
static int bcast_on_nic(void *buf, size_t count, MPI_Datatype t, int root, MPI_Comm c)
{
    size_t bytes = count * t->size;
    uint32_t group = 0;
    int st = mpi_bcast_nic_state(c, root, bytes, &group);

    if (st == 2) {
        /* an earlier MPI_Ibcast's agreement: its outcome */
        wait_req(mpi_bcast_nic_decision(c, root, bytes));
        st = mpi_bcast_nic_state(c, root, bytes, &group);
    }
    if (st == 0) {
        /* the first use: every member offers, one allreduce decides */
        int mine = mpi_bcast_nic_offer(c, root, bytes), all = 0;

        c->coll->allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, c);
        mpi_bcast_nic_agreed(c, root, bytes, mine, all);
        st = mpi_bcast_nic_state(c, root, bytes, &group);
    }
    if (st < 0)
        return 0;

    uint8_t *packed = t->contig ? (uint8_t *)buf + t->true_lb : malloc(bytes);
    if (c->rank == root) {
        MPI_Request r = mpi_req_new(REQ_COLL);

        if (!t->contig)
            mpi_pack_bytes(buf, count, t, packed);
        mpi_bcast_nic_isend(group, packed, bytes, r);
        wait_req(r);        /* the bytes are in staging slots: the buffer is free */
    } else {
        wait_req(mpi_bcast_nic_irecv(group, packed, bytes));
        if (!t->contig)
            mpi_unpack_bytes(packed, bytes, buf, count, t);
    }
    if (!t->contig)
        free(packed);
    return 1;
}

int coll_bcast_nic(void *buf, int count, MPI_Datatype t, int root, MPI_Comm c)
{
    if (bcast_on_nic(buf, (size_t)count, t, root, c))
        return MPI_SUCCESS;
    return coll_bcast_binomial(buf, count, t, root, c);
}

/* ---- MPI_Ibcast ------------------------------------------------------------------ */
/* The NIC broadcast's round: the root's multicasts, or a member's share. */
static void ibcast_nic_round(struct coll_sched *s, uint32_t group)
{
    uint8_t *at = (uint8_t *)s->ib.buf + s->ib.t->true_lb;

    coll_next_round(s);
    coll_xfer_how(s, X_NIC, s->comm->rank == s->ib.root, at, s->ib.count * s->ib.t->size, -1,
                  group);
}

/* The group's state is settled (the same on every rank): the NIC round or
 * the host's binomial rounds. */
static void ibcast_go_on(struct coll_sched *s)
{
    uint32_t group;

    if (mpi_bcast_nic_state(s->comm, s->ib.root, s->ib.count * s->ib.t->size, &group) == 1)
        ibcast_nic_round(s, group);
    else
        coll_bcast_binomial_rounds(s, s->ib.root, s->ib.buf, s->ib.count, s->ib.t);
}

/* The agreement's last round is done: every rank has the MIN of the
 * offers, so every rank takes the same path from here. */
static void ibcast_decided(struct coll_sched *s)
{
    mpi_bcast_nic_agreed(s->comm, s->ib.root, s->ib.count * s->ib.t->size, s->ib.mine,
                         ((int *)s->scratch)[0]);
    ibcast_go_on(s);
}

/* The group's first use without waiting: this rank offers its entry, a
 * dissemination MIN of the offers (coll_allreduce_dissemination.c) tells
 * every rank whether all did, and ibcast_decided goes on from there. */
static void ibcast_agree(struct coll_sched *s)
{
    int *v = calloc(2, sizeof *v);             /* v[0] the running MIN, v[1] a round's */

    s->scratch = v;
    s->ib.mine = v[0] = mpi_bcast_nic_offer(s->comm, s->ib.root, s->ib.count * s->ib.t->size);
    coll_allreduce_dissemination_rounds(s, NULL, s->comm->size, s->comm->rank, &v[0], &v[1], 1,
                                        MPI_INT, MPI_MIN);
    s->round[s->nrounds - 1].then = ibcast_decided;
}

int coll_ibcast_nic(void *buf, int count, MPI_Datatype t, int root, MPI_Comm c,
                    MPI_Request *req)
{
    struct coll_sched *s = coll_sched_nonblocking(c);
    size_t n = (size_t)count;
    uint32_t group = 0;
    /* on the NIC for contiguous data (a member's share lands in place) */
    int nic = t->contig ? mpi_bcast_nic_state(c, root, n * t->size, &group) : -1;

    s->ib.buf = buf;
    s->ib.count = n;
    s->ib.t = t;
    mpi_type_hold(t);           /* dropped with the schedule (coll_sched.c) */
    s->ib.root = root;
    if (nic == 0) {
        ibcast_agree(s);
    } else if (nic == 2) {
        /* an earlier Ibcast's agreement for this group is under way here:
         * wait for its outcome inside the schedule */
        coll_next_round(s);
        coll_xfer_how(s, X_DECISION, false, NULL, n * t->size, root, 0);
        s->round[0].then = ibcast_go_on;
    } else if (nic == 1) {
        ibcast_nic_round(s, group);
    } else if (c->size > 1) {
        coll_bcast_binomial_rounds(s, root, buf, n, t);
    }
    return coll_sched_start(s, req);
}
