/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A collective's schedule (coll_sched.c): rounds of sends and receives,
 * each round followed by its local steps (apply an op, copy). Every host
 * algorithm (coll_*.c) is written once, as a function that adds its rounds
 * to a schedule; the blocking call runs the schedule to its end at once
 * (coll_sched_run), the non-blocking one starts it and returns a request
 * that every progress call advances (coll_sched_start).
 */
#ifndef COLL_SCHED_H
#define COLL_SCHED_H

#include "mpi_coll.h"

#define AT(buf, i, t) ((uint8_t *)(buf) + (MPI_Aint)(i) * (t)->extent)

/* how: X_P2P a message; X_NIC a broadcast's bytes by NIC multicast on
 * group (send: the root's multicasts; receive: the member's share; buf
 * contiguous, count bytes); X_DECISION the end of an earlier Ibcast's
 * agreement on the NIC group of (comm, peer = root, count = bytes) */
enum { X_P2P, X_NIC, X_DECISION };
struct coll_xfer {
    bool send;
    uint8_t how;
    void *buf;
    size_t count;
    MPI_Datatype t;
    int peer;
    uint32_t group;
};
/* After a round's transfers: inout = in (op) inout, or (op NULL) a copy in -> inout. */
struct coll_local { MPI_Op op; const void *in; void *inout; size_t count; MPI_Datatype t; };
struct coll_sched;
/* then: run after the round's locals; may add rounds (the NIC broadcast's
 * agreement decides the rest of its schedule). in_turn: run blocking, the
 * round's sends go one after the other, each complete before the next
 * starts (a binomial broadcast's largest subtree gets the whole message
 * first, as in MPICH's blocking algorithm); a non-blocking schedule cannot
 * wait inside a round, so it posts them together. */
struct coll_round {
    int n, cap;
    struct coll_xfer *x;
    int nl, lcap;
    struct coll_local *l;
    void (*then)(struct coll_sched *s);
    bool in_turn;
};
struct coll_alloc { void *p; MPI_Datatype t; };

struct coll_sched {
    MPI_Comm comm;
    int tag;
    int nrounds, cap, cur;
    struct coll_round *round;
    MPI_Request *reqs;          /* the current round's */
    void *scratch;              /* freed at the end (MPI_IN_PLACE copies) */
    int nalloc;
    struct coll_alloc alloc[4]; /* reduction buffers (coll_alloc), freed at the end */
    MPI_Request owner;
    /* Ibcast on the NIC: its arguments, and this rank's offer of an entry */
    struct { void *buf; size_t count; MPI_Datatype t; int root, mine; } ib;
    void *arg;                  /* the then callbacks' own state (a context agreement's) */
    struct coll_sched *next;
};

/* A schedule for a blocking call: its messages take the collective's own
 * tag (mpi_coll.h), as the blocking calls always did. */
struct coll_sched *coll_sched_blocking(MPI_Comm comm, int tag);
/* A schedule for a non-blocking call: a tag of its own, so several may be
 * outstanding. */
struct coll_sched *coll_sched_nonblocking(MPI_Comm comm);
void coll_next_round(struct coll_sched *s);
void coll_xfer(struct coll_sched *s, bool send, const void *buf, size_t count, MPI_Datatype t,
               int peer);
/* A transfer of another kind (X_NIC, X_DECISION). */
void coll_xfer_how(struct coll_sched *s, uint8_t how, bool send, void *buf, size_t count,
                   int peer, uint32_t group);
void coll_local(struct coll_sched *s, MPI_Op op, const void *in, void *inout, size_t count,
                MPI_Datatype t);
/* Room for count elements of t, freed when the schedule ends. */
void *coll_scratch(struct coll_sched *s, size_t count, MPI_Datatype t);
/* Run the schedule to its end, then free it (the blocking calls). */
int coll_sched_run(struct coll_sched *s);
/* Start the schedule; *req completes when its last round has. */
int coll_sched_start(struct coll_sched *s, MPI_Request *req);

/* Rounds that more than one algorithm is made of. The binomial broadcast
 * of buf from root (coll_bcast_binomial.c); the binomial reduction of in
 * into acc, valid at root once the rounds are done (coll_reduce_binomial.c). */
void coll_bcast_binomial_rounds(struct coll_sched *s, int root, void *buf, size_t count,
                                MPI_Datatype t);
void coll_reduce_binomial_rounds(struct coll_sched *s, const void *in, void *acc, size_t count,
                                 MPI_Datatype t, MPI_Op op, int root);
/* The dissemination allreduce of acc under an idempotent op among n
 * members (members[i] the comm rank of member i, or NULL: member i is
 * rank i), this rank member me; got holds count elements, each round's
 * value received (coll_allreduce_dissemination.c). No rounds when n is 1. */
void coll_allreduce_dissemination_rounds(struct coll_sched *s, const int *members, int n,
                                         int me, void *acc, void *got, size_t count,
                                         MPI_Datatype t, MPI_Op op);

#endif
