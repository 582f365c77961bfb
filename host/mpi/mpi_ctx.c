/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Context ids (MPI 3.1 section 6.4): the members of a new communicator
 * agree on an id that none of them uses. On each rank the ids below
 * mpi_state.next_ctx are used or held, the ones from it on are free. An
 * agreement is a schedule (coll_sched.h) among its members, the first of
 * them (the leader) collecting and answering, in two steps:
 *   1. each member proposes its next_ctx; the leader answers the
 *      maximum, A;
 *   2. each member holds A if it is still free there (the rank's other
 *      agreements, outstanding MPI_Comm_idups among them, may have taken
 *      ids since it proposed) and says whether it could; the leader
 *      answers whether every member could.
 * If one could not, the others let A go unused and all try again with
 * new proposals. The same schedule runs to its end at once (MPI_Comm_dup,
 * _split, _create, _create_group) or is started (MPI_Comm_idup) and
 * advances in every progress call, so several agreements may be
 * outstanding on a rank, started in any order on different communicators,
 * and none of them waits inside its call.
 */
#include <stdlib.h>

#include "coll_sched.h"

struct agree {
    int n;
    int *members;               /* ranks in the schedule's comm; members[0] leads */
    unsigned mine;              /* this member's proposal, then 1 if it could not hold A */
    unsigned *from;             /* the leader's: each member's 'mine' */
    unsigned answer;            /* the leader's answer: A, then 1 if one could not hold it */
    uint32_t agreed;
    MPI_Comm newcomm;           /* non-blocking: takes the agreed id, then the agreement ends */
};

static struct agree *arg_of(struct coll_sched *s)
{
    return s->arg;
}

static bool leads(struct coll_sched *s)
{
    return s->comm->rank == arg_of(s)->members[0];
}

static void then_last(struct coll_sched *s, void (*then)(struct coll_sched *))
{
    s->round[s->nrounds - 1].then = then;
}

static void propose(struct coll_sched *s)
{
    arg_of(s)->mine = mpi_state.next_ctx;
}

/* the leader: answer = the maximum of every member's 'mine' */
static void leader_max(struct coll_sched *s)
{
    struct agree *a = arg_of(s);

    if (!leads(s))
        return;
    a->answer = a->mine;
    for (int i = 1; i < a->n; i++)
        if (a->from[i] > a->answer)
            a->answer = a->from[i];
}

static void hold(struct coll_sched *s)
{
    struct agree *a = arg_of(s);
    bool free_here = a->answer >= mpi_state.next_ctx;

    a->agreed = a->answer;
    if (free_here)
        mpi_state.next_ctx = a->agreed + 2;     /* ctx and ctx + 1 (its collectives) */
    a->mine = !free_here;
}

static void add_try(struct coll_sched *s);

static void decide(struct coll_sched *s)
{
    struct agree *a = arg_of(s);

    if (a->answer) {            /* a member could not hold it: again */
        add_try(s);
        return;
    }
    if (a->newcomm) {
        a->newcomm->ctx = a->agreed;
        mpi_comm_drop(a->newcomm);
        free(a->members);
        free(a->from);
        free(a);
        s->arg = NULL;
    }
}

/* Two rounds: every member's 'mine' to the leader, which then runs
 * combine; the leader's 'answer' to every member, which then runs next. */
static void exchange(struct coll_sched *s, void (*combine)(struct coll_sched *),
                     void (*next)(struct coll_sched *))
{
    struct agree *a = arg_of(s);
    bool lead = leads(s);

    coll_next_round(s);
    if (lead)
        for (int i = 1; i < a->n; i++)
            coll_xfer(s, false, &a->from[i], 1, MPI_UNSIGNED, a->members[i]);
    else
        coll_xfer(s, true, &a->mine, 1, MPI_UNSIGNED, a->members[0]);
    then_last(s, combine);
    coll_next_round(s);
    if (lead)
        for (int i = 1; i < a->n; i++)
            coll_xfer(s, true, &a->answer, 1, MPI_UNSIGNED, a->members[i]);
    else
        coll_xfer(s, false, &a->answer, 1, MPI_UNSIGNED, a->members[0]);
    then_last(s, next);
}

static void add_try(struct coll_sched *s)
{
    coll_next_round(s);         /* no transfer: the proposal is read when the try starts */
    then_last(s, propose);
    exchange(s, leader_max, hold);
    exchange(s, leader_max, decide);
}

int mpi_ctx_agree(MPI_Comm comm, int n, int *members, int tag, uint32_t *ctx)
{
    struct agree a = { .n = n, .members = members };
    struct coll_sched *s = coll_sched_blocking(comm, tag);
    int rc;

    if (comm->rank == members[0])
        a.from = calloc((size_t)n, sizeof *a.from);
    s->arg = &a;
    add_try(s);
    rc = coll_sched_run(s);
    free(a.from);
    *ctx = a.agreed;
    return rc;
}

int mpi_ctx_agree_start(MPI_Comm comm, MPI_Comm newcomm, MPI_Request *req)
{
    struct agree *a = calloc(1, sizeof *a);
    struct coll_sched *s = coll_sched_nonblocking(comm);

    a->n = comm->size;
    a->members = malloc(sizeof(int) * (size_t)comm->size);
    for (int i = 0; i < comm->size; i++)
        a->members[i] = i;
    if (comm->rank == 0)
        a->from = calloc((size_t)comm->size, sizeof *a->from);
    a->newcomm = newcomm;
    mpi_comm_hold(newcomm);     /* until it has its id */
    s->arg = a;
    add_try(s);
    return coll_sched_start(s, req);
}
