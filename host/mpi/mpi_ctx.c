/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Context ids (MPI 3.1 section 6.4): the members of a new communicator
 * agree on an id that none of them uses. On each rank the ids below
 * mpi_state.next_ctx are used or held, the ones from it on are free. An
 * agreement is a schedule (coll_sched.h) among its members, a try of two
 * steps, each combining one value of every member into one answer that
 * every member ends with:
 *   1. each member proposes its next_ctx; the answer is their MAX, A;
 *   2. each member holds A if it is still free there (the rank's other
 *      agreements, outstanding MPI_Comm_idups among them, may have taken
 *      ids since it proposed) and offers 1 if it could not, 0 if it
 *      could; the answer is their OR.
 * If one could not, the others let A go unused and all try again with
 * new proposals. The first try combines by dissemination
 * (coll_allreduce_dissemination.c: ceil(log2 n) rounds, member i sending
 * to member i + 2^j and receiving from member i - 2^j in round j; MAX and
 * OR are idempotent, so a value that arrives twice does no harm). The
 * tries after it combine through the first member, which receives every
 * value and answers each member: tries of agreements that collided run
 * in the order the first member answers them, the same on every member,
 * where dissemination tries started in opposite orders on two ranks (two
 * idups on two communicators) may collide again on every try. The same
 * schedule runs to its end at once (MPI_Comm_dup, _split, _create,
 * _create_group) or is started (MPI_Comm_idup) and advances in every
 * progress call, so several agreements may be outstanding on a rank,
 * started in any order on different communicators, and none of them
 * waits inside its call.
 */
#include <stdlib.h>

#include "coll_sched.h"

struct agree {
    int n, me;
    int *members;               /* ranks in the schedule's comm; this rank is members[me] */
    unsigned mine;              /* this member's proposal, then 1 if it could not hold A;
                                 * after a step, the step's MAX or OR */
    unsigned got;               /* a dissemination round's value from a partner */
    unsigned *from;             /* the first member's, after the first try: each member's 'mine' */
    int tries;
    uint32_t agreed;
    MPI_Comm newcomm;           /* non-blocking: takes the agreed id, then the agreement ends */
};

static struct agree *arg_of(struct coll_sched *s)
{
    return s->arg;
}

static void then_last(struct coll_sched *s, void (*then)(struct coll_sched *))
{
    s->round[s->nrounds - 1].then = then;
}

static void propose(struct coll_sched *s)
{
    arg_of(s)->mine = mpi_state.next_ctx;
}

static void hold(struct coll_sched *s)
{
    struct agree *a = arg_of(s);
    bool free_here = a->mine >= mpi_state.next_ctx;

    a->agreed = a->mine;
    if (free_here)
        mpi_state.next_ctx = a->agreed + 2;     /* ctx and ctx + 1 (its collectives) */
    a->mine = !free_here;
}

static void add_try(struct coll_sched *s);

static void decide(struct coll_sched *s)
{
    struct agree *a = arg_of(s);

    if (a->mine) {              /* a member could not hold it: again */
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

/* the first member, after the first try: its 'mine' the MAX of every
 * member's (MAX of 0s and 1s is their OR) */
static void first_max(struct coll_sched *s)
{
    struct agree *a = arg_of(s);

    if (a->me != 0)
        return;
    for (int i = 1; i < a->n; i++)
        if (a->from[i] > a->mine)
            a->mine = a->from[i];
}

/* One step: the members' 'mine' combined by op into every member's
 * 'mine', then next. The first try by dissemination; a later one in two
 * rounds through the first member: every member's 'mine' to it, its
 * answer to every member. */
static void step(struct coll_sched *s, MPI_Op op, void (*next)(struct coll_sched *))
{
    struct agree *a = arg_of(s);

    if (a->tries == 1) {
        if (a->n == 1)
            coll_next_round(s); /* no partner: a round without transfers runs next */
        coll_allreduce_dissemination_rounds(s, a->members, a->n, a->me, &a->mine, &a->got, 1,
                                            MPI_UNSIGNED, op);
        then_last(s, next);
        return;
    }
    if (a->me == 0 && !a->from)
        a->from = calloc((size_t)a->n, sizeof *a->from);
    coll_next_round(s);
    if (a->me == 0)
        for (int i = 1; i < a->n; i++)
            coll_xfer(s, false, &a->from[i], 1, MPI_UNSIGNED, a->members[i]);
    else
        coll_xfer(s, true, &a->mine, 1, MPI_UNSIGNED, a->members[0]);
    then_last(s, first_max);
    coll_next_round(s);
    if (a->me == 0)
        for (int i = 1; i < a->n; i++)
            coll_xfer(s, true, &a->mine, 1, MPI_UNSIGNED, a->members[i]);
    else
        coll_xfer(s, false, &a->mine, 1, MPI_UNSIGNED, a->members[0]);
    then_last(s, next);
}

static void add_try(struct coll_sched *s)
{
    arg_of(s)->tries++;
    coll_next_round(s);         /* no transfer: the proposal is read when the try starts */
    then_last(s, propose);
    step(s, MPI_MAX, hold);
    step(s, MPI_BOR, decide);
}

int mpi_ctx_agree(MPI_Comm comm, int n, int *members, int tag, uint32_t *ctx)
{
    struct agree a = { .n = n, .members = members };
    struct coll_sched *s = coll_sched_blocking(comm, tag);
    int rc;

    while (members[a.me] != comm->rank)
        a.me++;
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
    a->me = comm->rank;
    a->members = malloc(sizeof(int) * (size_t)comm->size);
    for (int i = 0; i < comm->size; i++)
        a->members[i] = i;
    a->newcomm = newcomm;
    mpi_comm_hold(newcomm);     /* until it has its id */
    s->arg = a;
    add_try(s);
    return coll_sched_start(s, req);
}
