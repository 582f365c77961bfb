/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the exchanging allgathers (coll_allgather_recursive_doubling.c,
 * coll_allgather_ring.c, MPICH's) share. Every part is a message of its
 * own (an Allgatherv's parts need not be adjacent), sent and received in
 * part order, so the non-overtaking rule pairs them. In the first round a
 * rank sends its own part from the send buffer, and to itself too (a copy
 * between the two datatypes), so that later rounds find it in the receive
 * buffer.
 */
#ifndef COLL_ALLGATHER_PARTS_H
#define COLL_ALLGATHER_PARTS_H

#include "coll_sched.h"

struct allgather_parts {
    const void *sbuf;           /* MPI_IN_PLACE or this rank's part */
    size_t scount;
    MPI_Datatype st, rt;
    void *rbuf;
    const int *rcounts, *displs;        /* NULL: every part rcount_all */
    int rcount_all;
};

/* Rounds the exchange leaves out: none (tests/mpi/mutants/
 * mpi_allgather_short.patch makes it one, which tests/mpi/suite catches). */
#define ALLGATHER_ROUNDS_SHORT 0

/* A transfer of part i with peer; first: the exchange's first round,
 * where this rank's own part still is in the send buffer. */
void coll_allgather_part_xfer(struct coll_sched *s, const struct allgather_parts *p, bool send,
                              int i, int peer, bool first);
/* The copy of this rank's own part into the receive buffer (not with
 * MPI_IN_PLACE): a round of its own, the exchange's first round joins it. */
void coll_allgather_own_part(struct coll_sched *s, const struct allgather_parts *p);

#endif
