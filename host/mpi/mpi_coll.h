/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers of the collectives (coll_util.c). */
#ifndef MPI_COLL_H
#define MPI_COLL_H

#include "mpi_impl.h"

/* Tags of the blocking collectives on a communicator's collective
 * context: calls come in the same order on every member and a peer's
 * messages do not overtake, so one tag per kind of collective is enough. */
enum { TAG_BARRIER = 1, TAG_BCAST, TAG_REDUCE, TAG_ALLREDUCE, TAG_GATHER, TAG_SCATTER,
       TAG_ALLGATHER, TAG_ALLTOALL, TAG_SCAN, TAG_EXSCAN, TAG_REDSCAT, TAG_CTX };

/* Room for count elements of t laid out as in a user buffer; free with
 * coll_free (the pointer is shifted by the type's true lower bound). */
void *coll_alloc(size_t count, MPI_Datatype t);
void coll_free(void *p, MPI_Datatype t);
/* The first byte past count elements of t placed at displ in a buffer
 * (what an MPI_IN_PLACE all-to-all must copy before it receives). */
size_t coll_block_end(MPI_Aint displ, int count, MPI_Datatype t);
/* dst = src, count elements of t (packed through, so any layout) */
void coll_copy(void *dst, const void *src, size_t count, MPI_Datatype t);
int coll_check(MPI_Comm comm, const char *fn);
bool mpi_op_valid(MPI_Op op, MPI_Datatype t);
int coll_check_op(MPI_Comm comm, MPI_Op op, MPI_Datatype t, int count, const char *fn);
int coll_check_root(MPI_Comm comm, int root, const char *fn);
int coll_check_type(MPI_Comm comm, MPI_Datatype t, int count, const char *fn);

/* Alltoall's and Alltoallv's arguments in the forms the table's alltoallw
 * takes, built the same way for the blocking and the non-blocking call:
 * Alltoall's per-peer counts and element displacements (coll_a2a_counts);
 * displacements in bytes, 0 on an in-place send side (coll_a2a_bytes:
 * element displacements times sext and rext, 1 for Alltoallw's own);
 * Alltoallv's one type per peer (coll_a2a_types). coll_a2a_free frees
 * whatever was built. */
struct coll_a2a {
    int *scounts, *sdispls, *rcounts, *rdispls;
    MPI_Aint *sbytes, *rbytes;
    MPI_Datatype *stypes, *rtypes;
};
void coll_a2a_counts(struct coll_a2a *a, int n, int scount, int rcount);
void coll_a2a_bytes(struct coll_a2a *a, int n, const void *sbuf, const int *sdispls,
                    MPI_Aint sext, const int *rdispls, MPI_Aint rext);
void coll_a2a_types(struct coll_a2a *a, int n, MPI_Datatype st, MPI_Datatype rt);
void coll_a2a_free(struct coll_a2a *a);

#endif
