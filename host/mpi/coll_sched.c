/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The schedules every host collective runs (coll_sched.h). A round's
 * receives are posted first (a message to oneself then finds its
 * receive), then its sends; the next round starts when they have all
 * completed and the round's local steps have run.
 * Non-blocking: schedules advance inside every progress call (Test, Wait,
 * any other MPI call), so the program computes while they run; there is
 * no progress thread. Blocking: the caller runs the rounds itself, waiting
 * on each request as the blocking algorithms always did (sends, then
 * receives), so a blocking call costs what it did when it was written
 * with coll_send and coll_recv.
 */
#include <stdlib.h>
#include <string.h>

#include "coll_sched.h"
#include "nicoll/hostif.h"

static struct coll_sched *active;

static struct coll_sched *sched_new(MPI_Comm comm, int tag)
{
    struct coll_sched *s = calloc(1, sizeof *s);

    s->comm = comm;
    s->tag = tag;
    mpi_comm_hold(comm);        /* every object the schedule names, until it ends */
    return s;
}

struct coll_sched *coll_sched_blocking(MPI_Comm comm, int tag)
{
    return sched_new(comm, tag);
}

struct coll_sched *coll_sched_nonblocking(MPI_Comm comm)
{
    /* tags above the blocking collectives' (mpi_coll.h), one per call */
    return sched_new(comm, 1000 + (int)(comm->coll_seq++ % 1000000u));
}

/* Room for one more of n elements of size elem in the array at p (its
 * capacity *cap, doubled when full): the rounds and their lists grow so. */
static void *room_for_one(void *p, int n, int *cap, size_t elem)
{
    if (n < *cap)
        return p;
    *cap = *cap ? 2 * *cap : 4;
    return realloc(p, elem * (size_t)*cap);
}

void coll_next_round(struct coll_sched *s)
{
    s->round = room_for_one(s->round, s->nrounds, &s->cap, sizeof *s->round);
    s->round[s->nrounds++] = (struct coll_round){ 0 };
}

/* x into the last round (the first one made if there is none). */
static void add_xfer(struct coll_sched *s, struct coll_xfer x)
{
    struct coll_round *r;

    if (!s->nrounds)
        coll_next_round(s);
    r = &s->round[s->nrounds - 1];
    r->x = room_for_one(r->x, r->n, &r->cap, sizeof *r->x);
    r->x[r->n++] = x;
    mpi_type_hold(x.t);
}

void coll_xfer(struct coll_sched *s, bool send, const void *buf, size_t count, MPI_Datatype t,
               int peer)
{
    add_xfer(s, (struct coll_xfer){ send, X_P2P, (void *)buf, count, t, peer, 0 });
}

void coll_xfer_how(struct coll_sched *s, uint8_t how, bool send, void *buf, size_t count,
                   int peer, uint32_t group)
{
    add_xfer(s, (struct coll_xfer){ send, how, buf, count, MPI_BYTE, peer, group });
}

void coll_local(struct coll_sched *s, MPI_Op op, const void *in, void *inout, size_t count,
                MPI_Datatype t)
{
    struct coll_round *r;

    if (!s->nrounds)
        coll_next_round(s);
    r = &s->round[s->nrounds - 1];
    r->l = room_for_one(r->l, r->nl, &r->lcap, sizeof *r->l);
    r->l[r->nl++] = (struct coll_local){ op, in, inout, count, t };
    mpi_op_hold(op);
    mpi_type_hold(t);
}

void *coll_scratch(struct coll_sched *s, size_t count, MPI_Datatype t)
{
    void *p = coll_alloc(count, t);
    s->alloc[s->nalloc++] = (struct coll_alloc){ p, t };
    mpi_type_hold(t);
    return p;
}

static void run_locals(struct coll_round *r)
{
    for (int i = 0; i < r->nl; i++) {
        struct coll_local *l = &r->l[i];
        if (l->op)
            mpi_op_apply(l->op, l->in, l->inout, l->count, l->t);
        else
            coll_copy(l->inout, l->in, l->count, l->t);
    }
}

static void post_recvs(struct coll_sched *s)
{
    struct coll_round *r = &s->round[s->cur];

    free(s->reqs);
    s->reqs = calloc((size_t)r->n + 1, sizeof *s->reqs);
    for (int i = 0; i < r->n; i++)
        if (r->x[i].how == X_DECISION)
            s->reqs[i] = mpi_bcast_nic_decision(s->comm, r->x[i].peer, r->x[i].count);
        else if (!r->x[i].send && r->x[i].how == X_NIC)
            s->reqs[i] = mpi_bcast_nic_irecv(r->x[i].group, r->x[i].buf, r->x[i].count);
        else if (!r->x[i].send)
            s->reqs[i] = mpi_irecv_ctx(r->x[i].buf, r->x[i].count, r->x[i].t, r->x[i].peer,
                                       s->tag, s->comm, s->comm->ctx + 1);
}

static void post_send(struct coll_sched *s, int i)
{
    struct coll_xfer *x = &s->round[s->cur].x[i];

    if (x->how == X_NIC) {
        s->reqs[i] = mpi_req_new(REQ_COLL);
        mpi_bcast_nic_isend(x->group, x->buf, x->count, s->reqs[i]);
    } else {
        s->reqs[i] = mpi_isend_ctx(x->buf, x->count, x->t, x->peer, s->tag, s->comm,
                                   s->comm->ctx + 1);
    }
}

static void start_round(struct coll_sched *s)
{
    struct coll_round *r = &s->round[s->cur];

    post_recvs(s);
    for (int i = 0; i < r->n; i++)
        if (r->x[i].send)
            post_send(s, i);
}

static void sched_free(struct coll_sched *s)
{
    for (int i = 0; i < s->nrounds; i++) {
        for (int k = 0; k < s->round[i].n; k++)
            mpi_type_drop(s->round[i].x[k].t);
        for (int k = 0; k < s->round[i].nl; k++) {
            mpi_op_drop(s->round[i].l[k].op);
            mpi_type_drop(s->round[i].l[k].t);
        }
        free(s->round[i].x);
        free(s->round[i].l);
    }
    for (int i = 0; i < s->nalloc; i++) {
        coll_free(s->alloc[i].p, s->alloc[i].t);
        mpi_type_drop(s->alloc[i].t);
    }
    free(s->round);
    free(s->reqs);
    free(s->scratch);
    if (s->owner) {
        s->owner->sched = NULL;
        mpi_req_complete(s->owner);
    }
    mpi_type_drop(s->ib.t);     /* an Ibcast's, held in coll_bcast_nic.c */
    mpi_comm_drop(s->comm);
    free(s);
}

/* Advance every non-blocking schedule as far as it goes without waiting. */
void mpi_nbc_progress(void)
{
    struct coll_sched **pp = &active;

    while (*pp) {
        struct coll_sched *s = *pp;
        bool done = false;
        for (;;) {
            struct coll_round *r = &s->round[s->cur];
            bool round_done = true;
            for (int i = 0; i < r->n; i++)
                if (s->reqs[i] && !s->reqs[i]->complete)
                    round_done = false;
            if (!round_done)
                break;
            for (int i = 0; i < r->n; i++)
                if (s->reqs[i])
                    mpi_req_release(s->reqs[i]);
            memset(s->reqs, 0, sizeof *s->reqs * (size_t)r->n);
            run_locals(r);
            if (r->then)
                r->then(s);     /* (may add rounds: r is stale from here) */
            if (++s->cur == s->nrounds) {
                done = true;
                break;
            }
            start_round(s);
        }
        if (done) {
            *pp = s->next;
            sched_free(s);
        } else {
            pp = &s->next;
        }
    }
}

/* Progress until no non-blocking schedule of c is left (before c's NIC
 * groups go: a pending MPI_Ibcast may still multicast on them). */
void coll_sched_finish_comm(MPI_Comm c)
{
    uint64_t idle = nc_host_now_ns();

    for (;;) {
        struct coll_sched *s = active;
        while (s && s->comm != c)
            s = s->next;
        if (!s)
            return;
        mpi_progress_wait(&idle);
    }
}

int coll_sched_run(struct coll_sched *s)
{
    int rc = MPI_SUCCESS, err;

    for (; s->cur < s->nrounds; s->cur++) {
        struct coll_round *r = &s->round[s->cur];

        post_recvs(s);
        for (int i = 0; i < r->n; i++)
            if (r->x[i].send) {
                post_send(s, i);
                if (r->in_turn && (err = mpi_wait_one(&s->reqs[i], MPI_STATUS_IGNORE)))
                    rc = err;
            }
        for (int pass = 0; pass < 2; pass++)       /* the sends, then the receives */
            for (int i = 0; i < r->n; i++)
                if (r->x[i].send == !pass && s->reqs[i] &&
                    (err = mpi_wait_one(&s->reqs[i], MPI_STATUS_IGNORE)))
                    rc = err;
        run_locals(r);
        if (r->then)
            r->then(s);         /* (may add rounds: r is stale from here) */
    }
    sched_free(s);
    return rc;
}

int coll_sched_start(struct coll_sched *s, MPI_Request *req)
{
    MPI_Request r = mpi_req_new(REQ_COLL);

    r->comm = s->comm;
    mpi_comm_hold(r->comm);     /* dropped with the request */
    *req = r;
    if (!s->nrounds) {          /* nothing to exchange (one rank) */
        sched_free(s);
        mpi_req_complete(r);
        return MPI_SUCCESS;
    }
    s->owner = r;
    r->sched = s;
    s->next = active;
    active = s;
    start_round(s);
    mpi_progress();
    return MPI_SUCCESS;
}
