/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Non-blocking collectives (MPI 3.1 section 5.12) that move data without
 * reducing it: Ibarrier, Ibcast, Igather(v), Iscatter(v), Iallgather(v),
 * Ialltoall(v/w). Each is a schedule of rounds; a round's sends and
 * receives are posted together and the next round starts when they have
 * all completed. Schedules advance inside every progress call (Test,
 * Wait, any other MPI call), so the program computes while they run.
 * The algorithms are the blocking ones' (mpi_coll*.c) but for
 * Iallgather(v), which takes MPICH's later recursive doubling / ring
 * (below). Each call takes its own tag on the collective context, so
 * several may be outstanding.
 * Ibcast goes on NIC multicast as MPI_Bcast does (MPI_NC_BCAST=nic,
 * mpi_bcast_nic.c), its group's first use agreed by a dissemination MIN
 * in the schedule itself, so the call never waits for another rank.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_coll.h"

#define AT(buf, i, t) ((uint8_t *)(buf) + (MPI_Aint)(i) * (t)->extent)

/* how: X_P2P a message; X_NIC a broadcast's bytes by NIC multicast on
 * group (send: the root's multicasts; receive: the member's share; buf
 * contiguous, count bytes); X_DECISION the end of an earlier Ibcast's
 * agreement on the NIC group of (comm, peer = root, count = bytes) */
enum { X_P2P, X_NIC, X_DECISION };
struct nbc_xfer {
    bool send;
    uint8_t how;
    void *buf;
    size_t count;
    MPI_Datatype t;
    int peer;
    uint32_t group;
};
/* After a round's transfers: inout = in (op) inout, or (op NULL) a copy in -> inout. */
struct nbc_local { MPI_Op op; const void *in; void *inout; size_t count; MPI_Datatype t; };
struct mpi_nbc;
/* then: run after the round's locals; may add rounds (the NIC broadcast's
 * agreement decides the rest of its schedule) */
struct nbc_round {
    int n, cap;
    struct nbc_xfer *x;
    int nl, lcap;
    struct nbc_local *l;
    void (*then)(struct mpi_nbc *s);
};
struct nbc_alloc { void *p; MPI_Datatype t; };

struct mpi_nbc {
    MPI_Comm comm;
    int tag;
    int nrounds, cap, cur;
    struct nbc_round *round;
    MPI_Request *reqs;          /* the current round's */
    void *scratch;              /* freed at the end (MPI_IN_PLACE copies) */
    int nalloc;
    struct nbc_alloc alloc[4];  /* reduction buffers (coll_alloc), freed at the end */
    MPI_Request owner;
    /* Ibcast on the NIC: its arguments, and this rank's offer of an entry */
    struct { void *buf; size_t count; MPI_Datatype t; int root, mine; } ib;
    struct mpi_nbc *next;
};

static struct mpi_nbc *active;

static struct mpi_nbc *nbc_new(MPI_Comm comm)
{
    struct mpi_nbc *s = calloc(1, sizeof *s);

    s->comm = comm;
    /* tags above the blocking collectives' (mpi_coll.h), one per call */
    s->tag = 1000 + (int)(comm->coll_seq++ % 1000000u);
    return s;
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

static void next_round(struct mpi_nbc *s)
{
    s->round = room_for_one(s->round, s->nrounds, &s->cap, sizeof *s->round);
    s->round[s->nrounds++] = (struct nbc_round){ 0 };
}

/* x into the last round (the first one made if there is none). */
static void add_xfer(struct mpi_nbc *s, struct nbc_xfer x)
{
    struct nbc_round *r;

    if (!s->nrounds)
        next_round(s);
    r = &s->round[s->nrounds - 1];
    r->x = room_for_one(r->x, r->n, &r->cap, sizeof *r->x);
    r->x[r->n++] = x;
}

static void xfer(struct mpi_nbc *s, bool send, const void *buf, size_t count, MPI_Datatype t,
                 int peer)
{
    add_xfer(s, (struct nbc_xfer){ send, X_P2P, (void *)buf, count, t, peer, 0 });
}

/* A transfer of another kind (X_NIC, X_DECISION). */
static void xfer_how(struct mpi_nbc *s, uint8_t how, bool send, void *buf, size_t count, int peer,
                     uint32_t group)
{
    add_xfer(s, (struct nbc_xfer){ send, how, buf, count, MPI_BYTE, peer, group });
}

static void local(struct mpi_nbc *s, MPI_Op op, const void *in, void *inout, size_t count,
                  MPI_Datatype t)
{
    struct nbc_round *r;

    if (!s->nrounds)
        next_round(s);
    r = &s->round[s->nrounds - 1];
    r->l = room_for_one(r->l, r->nl, &r->lcap, sizeof *r->l);
    r->l[r->nl++] = (struct nbc_local){ op, in, inout, count, t };
}

static void *scratch(struct mpi_nbc *s, size_t count, MPI_Datatype t)
{
    void *p = coll_alloc(count, t);
    s->alloc[s->nalloc++] = (struct nbc_alloc){ p, t };
    return p;
}

static void run_locals(struct nbc_round *r)
{
    for (int i = 0; i < r->nl; i++) {
        struct nbc_local *l = &r->l[i];
        if (l->op)
            mpi_op_apply(l->op, l->in, l->inout, l->count, l->t);
        else
            coll_copy(l->inout, l->in, l->count, l->t);
    }
}

static void start_round(struct mpi_nbc *s)
{
    struct nbc_round *r = &s->round[s->cur];
    uint32_t ctx = s->comm->ctx + 1;

    free(s->reqs);
    s->reqs = calloc((size_t)r->n + 1, sizeof *s->reqs);
    /* receives first: a message to oneself then finds its receive */
    for (int i = 0; i < r->n; i++)
        if (r->x[i].how == X_DECISION)
            s->reqs[i] = mpi_bcast_nic_decision(s->comm, r->x[i].peer, r->x[i].count);
        else if (!r->x[i].send && r->x[i].how == X_NIC)
            s->reqs[i] = mpi_bcast_nic_irecv(r->x[i].group, r->x[i].buf, r->x[i].count);
        else if (!r->x[i].send)
            s->reqs[i] = mpi_irecv_ctx(r->x[i].buf, r->x[i].count, r->x[i].t, r->x[i].peer,
                                       s->tag, s->comm, ctx);
    for (int i = 0; i < r->n; i++)
        if (r->x[i].send && r->x[i].how == X_NIC) {
            s->reqs[i] = mpi_req_new(REQ_COLL);
            mpi_bcast_nic_isend(r->x[i].group, r->x[i].buf, r->x[i].count, s->reqs[i]);
        } else if (r->x[i].send) {
            s->reqs[i] = mpi_isend_ctx(r->x[i].buf, r->x[i].count, r->x[i].t, r->x[i].peer,
                                       s->tag, s->comm, ctx);
        }
}

static void finish(struct mpi_nbc *s)
{
    for (int i = 0; i < s->nrounds; i++) {
        free(s->round[i].x);
        free(s->round[i].l);
    }
    for (int i = 0; i < s->nalloc; i++)
        coll_free(s->alloc[i].p, s->alloc[i].t);
    free(s->round);
    free(s->reqs);
    free(s->scratch);
    if (s->owner) {
        s->owner->nbc = NULL;
        mpi_req_complete(s->owner);
    }
    free(s);
}

/* Advance every schedule as far as it goes without waiting. */
void mpi_nbc_progress(void)
{
    struct mpi_nbc **pp = &active;

    while (*pp) {
        struct mpi_nbc *s = *pp;
        bool done = false;
        for (;;) {
            struct nbc_round *r = &s->round[s->cur];
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
            finish(s);
        } else {
            pp = &s->next;
        }
    }
}

/* Start the schedule; the request completes when its last round has. */
static int launch(struct mpi_nbc *s, MPI_Request *req)
{
    MPI_Request r = mpi_req_new(REQ_COLL);

    r->comm = s->comm;
    *req = r;
    if (!s->nrounds) {          /* nothing to exchange (one rank) */
        free(s->scratch);
        for (int i = 0; i < s->nalloc; i++)
            coll_free(s->alloc[i].p, s->alloc[i].t);
        free(s);
        mpi_req_complete(r);
        return MPI_SUCCESS;
    }
    s->owner = r;
    r->nbc = s;
    s->next = active;
    active = s;
    start_round(s);
    mpi_progress();
    return MPI_SUCCESS;
}

/* ---- the collectives ------------------------------------------------------------- */
int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
    int rc;

    if ((rc = coll_check(comm, "MPI_Ibarrier")))
        return rc;
    struct mpi_nbc *s = nbc_new(comm);
    for (int k = 1; k < comm->size; k <<= 1) {
        next_round(s);
        xfer(s, false, NULL, 0, MPI_BYTE, (comm->rank - k + comm->size) % comm->size);
        xfer(s, true, NULL, 0, MPI_BYTE, (comm->rank + k) % comm->size);
    }
    return launch(s, req);
}

/* Binomial broadcast as two rounds: from the parent, to the children. */
static void bcast_rounds(struct mpi_nbc *s, int root, void *buf, size_t count, MPI_Datatype t)
{
    int n = s->comm->size, vr = (s->comm->rank - root + n) % n, mask;

    for (mask = 1; mask < n; mask <<= 1)
        if (vr & mask)
            break;
    if (mask < n) {
        next_round(s);
        xfer(s, false, buf, count, t, (vr - mask + root) % n);
    }
    next_round(s);
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < n)
            xfer(s, true, buf, count, t, (vr + mask + root) % n);
}

/* The NIC broadcast's round: the root's multicasts, or a member's share. */
static void ibcast_nic_round(struct mpi_nbc *s, uint32_t group)
{
    uint8_t *at = (uint8_t *)s->ib.buf + s->ib.t->true_lb;

    next_round(s);
    xfer_how(s, X_NIC, s->comm->rank == s->ib.root, at, s->ib.count * s->ib.t->size, -1, group);
}

/* The group's state is settled (the same on every rank): the NIC round or
 * the host's binomial rounds. */
static void ibcast_go_on(struct mpi_nbc *s)
{
    uint32_t group;

    if (mpi_bcast_nic_state(s->comm, s->ib.root, s->ib.count * s->ib.t->size, &group) == 1)
        ibcast_nic_round(s, group);
    else
        bcast_rounds(s, s->ib.root, s->ib.buf, s->ib.count, s->ib.t);
}

/* The agreement's last round is done: every rank has the MIN of the
 * offers, so every rank takes the same path from here. */
static void ibcast_decided(struct mpi_nbc *s)
{
    mpi_bcast_nic_agreed(s->comm, s->ib.root, s->ib.count * s->ib.t->size, s->ib.mine,
                         ((int *)s->scratch)[0]);
    ibcast_go_on(s);
}

/* The group's first use without waiting: this rank offers its entry, a
 * dissemination MIN of the offers (round k: to rank + 2^k, from
 * rank - 2^k) tells every rank whether all did, and ibcast_decided goes
 * on from there. */
static void ibcast_agree(struct mpi_nbc *s)
{
    int n = s->comm->size, rank = s->comm->rank, nr = 0, i = 1;
    int *v;

    for (int k = 1; k < n; k <<= 1)
        nr++;
    v = calloc((size_t)nr + 1, sizeof *v);     /* v[0] the running MIN, v[i] round i's */
    s->scratch = v;
    s->ib.mine = v[0] = mpi_bcast_nic_offer(s->comm, s->ib.root, s->ib.count * s->ib.t->size);
    for (int k = 1; k < n; k <<= 1, i++) {
        next_round(s);
        xfer(s, false, &v[i], 1, MPI_INT, (rank - k + n) % n);
        xfer(s, true, &v[0], 1, MPI_INT, (rank + k) % n);
        local(s, MPI_MIN, &v[i], &v[0], 1, MPI_INT);
    }
    s->round[s->nrounds - 1].then = ibcast_decided;
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm, MPI_Request *req)
{
    int rc;

    if ((rc = coll_check(comm, "MPI_Ibcast")))
        return rc;
    if (root < 0 || root >= comm->size)
        return mpi_error(comm, MPI_ERR_ROOT, "MPI_Ibcast", "root %d not in 0..%d", root,
                         comm->size - 1);
    if (count < 0 || !mpi_type_ok(t))
        return mpi_error(comm, count < 0 ? MPI_ERR_COUNT : MPI_ERR_TYPE, "MPI_Ibcast",
                         "bad count or datatype");
    struct mpi_nbc *s = nbc_new(comm);
    size_t c = (size_t)count;
    uint32_t group = 0;
    /* on the NIC for contiguous data (a member's share lands in place) */
    int nic = t->contig ? mpi_bcast_nic_state(comm, root, c * t->size, &group) : -1;

    s->ib.buf = buf;
    s->ib.count = c;
    s->ib.t = t;
    s->ib.root = root;
    if (nic == 0) {
        ibcast_agree(s);
    } else if (nic == 2) {
        /* an earlier Ibcast's agreement for this group is under way here:
         * wait for its outcome inside the schedule */
        next_round(s);
        xfer_how(s, X_DECISION, false, NULL, c * t->size, root, 0);
        s->round[0].then = ibcast_go_on;
    } else if (nic == 1) {
        ibcast_nic_round(s, group);
    } else if (comm->size > 1) {
        bcast_rounds(s, root, buf, c, t);
    }
    return launch(s, req);
}

static void gather_round(struct mpi_nbc *s, const void *sbuf, size_t scount, MPI_Datatype st,
                         void *rbuf, const int *rcounts, const int *displs, int rcount_all,
                         MPI_Datatype rt, int root)
{
    MPI_Comm c = s->comm;

    next_round(s);
    if (c->rank != root) {
        xfer(s, true, sbuf, scount, st, root);
        return;
    }
    for (int i = 0; i < c->size; i++) {
        if (i == root && sbuf == MPI_IN_PLACE)
            continue;
        xfer(s, false, AT(rbuf, displs ? displs[i] : i * rcount_all, rt),
             (size_t)(rcounts ? rcounts[i] : rcount_all), rt, i);
    }
    if (sbuf != MPI_IN_PLACE)
        xfer(s, true, sbuf, scount, st, root);
}

static int igatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                    const int *rcounts, const int *displs, int rcount_all, MPI_Datatype rt,
                    int root, MPI_Comm comm, MPI_Request *req, const char *fn)
{
    int rc;

    if ((rc = coll_check(comm, fn)))
        return rc;
    if (root < 0 || root >= comm->size)
        return mpi_error(comm, MPI_ERR_ROOT, fn, "root %d not in 0..%d", root, comm->size - 1);
    struct mpi_nbc *s = nbc_new(comm);
    gather_round(s, sbuf, (size_t)scount, st, rbuf, rcounts, displs, rcount_all, rt, root);
    return launch(s, req);
}

int MPI_Igather(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *req)
{
    return igatherv(sbuf, scount, st, rbuf, NULL, NULL, rcount, rt, root, comm, req,
                    "MPI_Igather");
}

int MPI_Igatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, const int rcounts[],
                 const int displs[], MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *req)
{
    return igatherv(sbuf, scount, st, rbuf, rcounts, displs, 0, rt, root, comm, req,
                    "MPI_Igatherv");
}

static int iscatterv(const void *sbuf, const int *scounts, const int *displs, int scount_all,
                     MPI_Datatype st, void *rbuf, int rcount, MPI_Datatype rt, int root,
                     MPI_Comm comm, MPI_Request *req, const char *fn)
{
    int rc;

    if ((rc = coll_check(comm, fn)))
        return rc;
    if (root < 0 || root >= comm->size)
        return mpi_error(comm, MPI_ERR_ROOT, fn, "root %d not in 0..%d", root, comm->size - 1);
    struct mpi_nbc *s = nbc_new(comm);
    next_round(s);
    if (comm->rank != root) {
        xfer(s, false, rbuf, (size_t)rcount, rt, root);
    } else {
        if (rbuf != MPI_IN_PLACE)
            xfer(s, false, rbuf, (size_t)rcount, rt, root);
        for (int i = 0; i < comm->size; i++) {
            if (i == root && rbuf == MPI_IN_PLACE)
                continue;
            xfer(s, true, AT(sbuf, displs ? displs[i] : i * scount_all, st),
                 (size_t)(scounts ? scounts[i] : scount_all), st, i);
        }
    }
    return launch(s, req);
}

int MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                 MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *req)
{
    return iscatterv(sbuf, NULL, NULL, scount, st, rbuf, rcount, rt, root, comm, req,
                     "MPI_Iscatter");
}

int MPI_Iscatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype st,
                  void *rbuf, int rcount, MPI_Datatype rt, int root, MPI_Comm comm,
                  MPI_Request *req)
{
    return iscatterv(sbuf, scounts, displs, 0, st, rbuf, rcount, rt, root, comm, req,
                     "MPI_Iscatterv");
}

/* Allgather(v) as MPICH's allgather does it: recursive doubling when the
 * size is a power of two (log2 n rounds: in round k a rank swaps the 2^k
 * parts its half holds with rank ^ 2^k), a ring otherwise (n - 1 rounds:
 * in round k a rank passes part rank - k to its right neighbour and takes
 * part rank - k - 1 from its left). Every part is a message of its own
 * (an Allgatherv's parts need not be adjacent), sent and received in part
 * order, so the non-overtaking rule pairs them. In the first round a rank
 * sends its own part from the send buffer, and to itself too (a copy
 * between the two datatypes), so that later rounds find it in the receive
 * buffer. (This was a gather to rank 0 and n binomial broadcasts from it:
 * on 16 ranks rank 0 sent 64 messages in one round.) */
struct allgather_parts {
    const void *sbuf;           /* MPI_IN_PLACE or this rank's part */
    size_t scount;
    MPI_Datatype st, rt;
    void *rbuf;
    const int *rcounts, *displs;        /* NULL: every part rcount_all */
    int rcount_all;
};

#define ALLGATHER_ROUNDS_SHORT 0

static void part_xfer(struct mpi_nbc *s, const struct allgather_parts *p, bool send, int i,
                      int peer, bool first)
{
    if (send && first && i == s->comm->rank && p->sbuf != MPI_IN_PLACE)
        xfer(s, true, p->sbuf, p->scount, p->st, peer);
    else
        xfer(s, send, AT(p->rbuf, p->displs ? p->displs[i] : i * p->rcount_all, p->rt),
             (size_t)(p->rcounts ? p->rcounts[i] : p->rcount_all), p->rt, peer);
}

static int iallgatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                       const int *rcounts, const int *displs, int rcount_all, MPI_Datatype rt,
                       MPI_Comm comm, MPI_Request *req, const char *fn)
{
    int rc;

    if ((rc = coll_check(comm, fn)))
        return rc;
    const struct allgather_parts p = { sbuf, (size_t)scount, st, rt, rbuf, rcounts, displs,
                                       rcount_all };
    int n = comm->size, me = comm->rank;
    struct mpi_nbc *s = nbc_new(comm);
    if (sbuf != MPI_IN_PLACE) {
        next_round(s);
        part_xfer(s, &p, false, me, me, true);
        part_xfer(s, &p, true, me, me, true);
    }
    if ((n & (n - 1)) == 0) {
        for (int half = 1; half < n >> ALLGATHER_ROUNDS_SHORT; half <<= 1) {
            int peer = me ^ half, mine = me & ~(half - 1), theirs = peer & ~(half - 1);
            if (half > 1 || sbuf == MPI_IN_PLACE)
                next_round(s);
            for (int i = theirs; i < theirs + half; i++)
                part_xfer(s, &p, false, i, peer, half == 1);
            for (int i = mine; i < mine + half; i++)
                part_xfer(s, &p, true, i, peer, half == 1);
        }
    } else {
        for (int k = 0; k < n - 1 - ALLGATHER_ROUNDS_SHORT; k++) {
            if (k > 0 || sbuf == MPI_IN_PLACE)
                next_round(s);
            part_xfer(s, &p, false, (me - k - 1 + n) % n, (me - 1 + n) % n, k == 0);
            part_xfer(s, &p, true, (me - k + n) % n, (me + 1) % n, k == 0);
        }
    }
    return launch(s, req);
}

int MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                   MPI_Datatype rt, MPI_Comm comm, MPI_Request *req)
{
    return iallgatherv(sbuf, scount, st, rbuf, NULL, NULL, rcount, rt, comm, req,
                       "MPI_Iallgather");
}

int MPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                    const int rcounts[], const int displs[], MPI_Datatype rt, MPI_Comm comm,
                    MPI_Request *req)
{
    return iallgatherv(sbuf, scount, st, rbuf, rcounts, displs, 0, rt, comm, req,
                       "MPI_Iallgatherv");
}

int MPI_Ialltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                   const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                   const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm,
                   MPI_Request *req)
{
    int rc;

    if ((rc = coll_check(comm, "MPI_Ialltoallw")))
        return rc;
    struct mpi_nbc *s = nbc_new(comm);
    if (sbuf == MPI_IN_PLACE) {
        /* send from a copy of rbuf as it is now, laid out as rbuf, kept
         * until the schedule ends (the receives overwrite rbuf) */
        size_t span = 0;
        for (int i = 0; i < comm->size; i++) {
            size_t end = coll_block_end(rdispls[i], rcounts[i], rtypes[i]);
            if (end > span)
                span = end;
        }
        s->scratch = malloc(span + 1);
        memcpy(s->scratch, rbuf, span);
        sbuf = s->scratch;
        scounts = rcounts;
        sdispls = rdispls;
        stypes = rtypes;
    }
    next_round(s);
    for (int k = 0; k < comm->size; k++) {
        int i = (comm->rank + k) % comm->size;
        xfer(s, false, (uint8_t *)rbuf + rdispls[i], (size_t)rcounts[i], rtypes[i], i);
    }
    for (int k = 0; k < comm->size; k++) {
        int i = (comm->rank - k + comm->size) % comm->size;
        xfer(s, true, (const uint8_t *)sbuf + sdispls[i], (size_t)scounts[i], stypes[i], i);
    }
    return launch(s, req);
}

int MPI_Ialltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype st,
                   void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rt,
                   MPI_Comm comm, MPI_Request *req)
{
    int rc, n;

    if ((rc = coll_check(comm, "MPI_Ialltoallv")))
        return rc;
    n = comm->size;
    int *sd = malloc(sizeof(int) * (size_t)n), *rd = malloc(sizeof(int) * (size_t)n);
    MPI_Datatype *sts = malloc(sizeof *sts * (size_t)n), *rts = malloc(sizeof *rts * (size_t)n);
    for (int i = 0; i < n; i++) {
        sd[i] = sbuf == MPI_IN_PLACE ? 0 : sdispls[i] * (int)st->extent;
        rd[i] = rdispls[i] * (int)rt->extent;
        sts[i] = st;
        rts[i] = rt;
    }
    rc = MPI_Ialltoallw(sbuf, scounts, sd, sts, rbuf, rcounts, rd, rts, comm, req);
    free(sd);
    free(rd);
    free(sts);
    free(rts);
    return rc;
}

int MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                  MPI_Datatype rt, MPI_Comm comm, MPI_Request *req)
{
    int rc, n;

    if ((rc = coll_check(comm, "MPI_Ialltoall")))
        return rc;
    n = comm->size;
    int *sc = malloc(sizeof(int) * (size_t)n), *sd = malloc(sizeof(int) * (size_t)n);
    int *rcn = malloc(sizeof(int) * (size_t)n), *rd = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) {
        sc[i] = scount;
        sd[i] = i * scount;
        rcn[i] = rcount;
        rd[i] = i * rcount;
    }
    rc = MPI_Ialltoallv(sbuf, sc, sd, st, rbuf, rcn, rd, rt, comm, req);
    free(sc);
    free(sd);
    free(rcn);
    free(rd);
    return rc;
}

/* ---- reductions ---------------------------------------------------------------- */
/* Binomial reduction to 'root' of 'in' into the scratch 'acc' (valid at the
 * root when the rounds are done), as reduce_binomial in mpi_coll.c. */
static void reduce_rounds(struct mpi_nbc *s, const void *in, void *acc, size_t count,
                          MPI_Datatype t, MPI_Op op, int root)
{
    int n = s->comm->size, vr = (s->comm->rank - root + n) % n;
    void *tmp = scratch(s, count, t);

    next_round(s);
    local(s, NULL, in, acc, count, t);
    for (int mask = 1; mask < n; mask <<= 1) {
        if (vr & mask) {
            next_round(s);
            xfer(s, true, acc, count, t, (vr - mask + root) % n);
            break;
        }
        if (vr + mask < n) {
            next_round(s);
            xfer(s, false, tmp, count, t, (vr + mask + root) % n);
            local(s, op, acc, tmp, count, t);       /* tmp = acc op tmp */
            local(s, NULL, tmp, acc, count, t);
        }
    }
}

static int check_red(MPI_Comm comm, MPI_Op op, MPI_Datatype t, int count, const char *fn)
{
    int rc = coll_check(comm, fn);
    return rc ? rc : coll_check_op(comm, op, t, count, fn);
}

int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, int root,
                MPI_Comm comm, MPI_Request *req)
{
    int rc;

    if ((rc = check_red(comm, op, t, count, "MPI_Ireduce")))
        return rc;
    if (root < 0 || root >= comm->size)
        return mpi_error(comm, MPI_ERR_ROOT, "MPI_Ireduce", "root %d not in 0..%d", root,
                         comm->size - 1);
    struct mpi_nbc *s = nbc_new(comm);
    void *acc = scratch(s, (size_t)count, t);
    bool direct = op->commute || root == 0;
    reduce_rounds(s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, acc, (size_t)count, t, op,
                  direct ? root : 0);
    if (!direct && comm->rank == 0) {
        next_round(s);
        xfer(s, true, acc, (size_t)count, t, root);
    }
    if (comm->rank == root) {
        next_round(s);
        if (direct)
            local(s, NULL, acc, rbuf, (size_t)count, t);
        else
            xfer(s, false, rbuf, (size_t)count, t, 0);
    }
    return launch(s, req);
}

int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                   MPI_Comm comm, MPI_Request *req)
{
    int rc;

    if ((rc = check_red(comm, op, t, count, "MPI_Iallreduce")))
        return rc;
    struct mpi_nbc *s = nbc_new(comm);
    void *acc = scratch(s, (size_t)count, t);
    size_t c = (size_t)count;
    reduce_rounds(s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, acc, c, t, op, 0);
    if (comm->rank == 0) {
        next_round(s);
        local(s, NULL, acc, rbuf, c, t);
    }
    if (comm->size > 1)
        bcast_rounds(s, 0, rbuf, c, t);
    return launch(s, req);
}

static int iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                 MPI_Comm comm, MPI_Request *req, bool exclusive, const char *fn)
{
    int rc;

    if ((rc = check_red(comm, op, t, count, fn)))
        return rc;
    struct mpi_nbc *s = nbc_new(comm);
    size_t c = (size_t)count;
    void *mine = scratch(s, c, t), *prefix = scratch(s, c, t);
    next_round(s);
    local(s, NULL, sbuf == MPI_IN_PLACE ? rbuf : sbuf, mine, c, t);
    if (comm->rank > 0) {
        next_round(s);
        xfer(s, false, prefix, c, t, comm->rank - 1);
        if (exclusive)
            local(s, NULL, prefix, rbuf, c, t);
        local(s, op, prefix, mine, c, t);           /* mine = prefix op mine */
    }
    if (!exclusive)
        local(s, NULL, mine, rbuf, c, t);
    if (comm->rank + 1 < comm->size) {
        next_round(s);
        xfer(s, true, mine, c, t, comm->rank + 1);
    }
    return launch(s, req);
}

int MPI_Iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
              MPI_Request *req)
{
    return iscan(sbuf, rbuf, count, t, op, comm, req, false, "MPI_Iscan");
}

int MPI_Iexscan(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                MPI_Comm comm, MPI_Request *req)
{
    return iscan(sbuf, rbuf, count, t, op, comm, req, true, "MPI_Iexscan");
}

/* Reduce_scatter: a reduction to rank 0, then its parts scattered. */
int MPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype t,
                        MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    int rc, total = 0;

    if ((rc = coll_check(comm, "MPI_Ireduce_scatter")))
        return rc;
    for (int i = 0; i < comm->size; i++)
        total += rcounts[i];
    if ((rc = coll_check_op(comm, op, t, total, "MPI_Ireduce_scatter")))
        return rc;
    struct mpi_nbc *s = nbc_new(comm);
    void *all = scratch(s, (size_t)total, t);
    reduce_rounds(s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, all, (size_t)total, t, op, 0);
    next_round(s);
    if (comm->rank == 0) {
        int at = 0;
        for (int i = 0; i < comm->size; i++) {
            if (i == 0)
                local(s, NULL, all, rbuf, (size_t)rcounts[0], t);
            else
                xfer(s, true, AT(all, at, t), (size_t)rcounts[i], t, i);
            at += rcounts[i];
        }
    } else {
        xfer(s, false, rbuf, (size_t)rcounts[comm->rank], t, 0);
    }
    return launch(s, req);
}

int MPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype t,
                              MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    int rc;

    if ((rc = coll_check(comm, "MPI_Ireduce_scatter_block")))
        return rc;
    int *counts = malloc(sizeof(int) * (size_t)comm->size);
    for (int i = 0; i < comm->size; i++)
        counts[i] = rcount;
    rc = MPI_Ireduce_scatter(sbuf, rbuf, counts, t, op, comm, req);
    free(counts);
    return rc;
}
