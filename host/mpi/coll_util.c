/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every collective uses (mpi_coll.h): scratch buffers laid out as a
 * user's, copies between layouts, the argument checks. */
#include <stdlib.h>
#include <string.h>

#include "mpi_coll.h"

void *coll_alloc(size_t count, MPI_Datatype t)
{
    size_t span = count ? (count - 1) * (size_t)t->extent + (size_t)t->true_extent : 0;
    uint8_t *p = malloc(span + 1);
    return p - t->true_lb;
}

void coll_free(void *p, MPI_Datatype t)
{
    free((uint8_t *)p + t->true_lb);
}

size_t coll_block_end(MPI_Aint displ, int count, MPI_Datatype t)
{
    return (size_t)displ + (count ? (size_t)(count - 1) * (size_t)t->extent +
                                    (size_t)t->true_extent + (size_t)t->true_lb
                                  : 0);
}

void coll_copy(void *dst, const void *src, size_t count, MPI_Datatype t)
{
    size_t bytes = count * t->size;
    uint8_t *tmp;

    if (dst == src || !bytes)
        return;
    tmp = malloc(bytes);
    mpi_pack_bytes(src, count, t, tmp);
    mpi_unpack_bytes(tmp, bytes, dst, count, t);
    free(tmp);
}

int coll_check(MPI_Comm comm, const char *fn)
{
    MPI_CHECK_INIT(fn);
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, fn, "MPI_COMM_NULL");
    return MPI_SUCCESS;
}

int coll_check_op(MPI_Comm comm, MPI_Op op, MPI_Datatype t, int count, const char *fn)
{
    if (count < 0)
        return mpi_error(comm, MPI_ERR_COUNT, fn, "count %d < 0", count);
    if (!mpi_type_ok(t))
        return mpi_error(comm, MPI_ERR_TYPE, fn, "not a committed datatype");
    if (!op)
        return mpi_error(comm, MPI_ERR_OP, fn, "MPI_OP_NULL");
    if (!mpi_op_valid(op, t))
        return mpi_error(comm, MPI_ERR_OP, fn, "the operation is not defined on %s", t->name);
    return MPI_SUCCESS;
}

int coll_check_root(MPI_Comm comm, int root, const char *fn)
{
    if (root < 0 || root >= comm->size)
        return mpi_error(comm, MPI_ERR_ROOT, fn, "root %d not in 0..%d", root, comm->size - 1);
    return MPI_SUCCESS;
}

int coll_check_type(MPI_Comm comm, MPI_Datatype t, int count, const char *fn)
{
    if (count < 0)
        return mpi_error(comm, MPI_ERR_COUNT, fn, "count %d < 0", count);
    if (!mpi_type_ok(t))
        return mpi_error(comm, MPI_ERR_TYPE, fn, "not a committed datatype");
    return MPI_SUCCESS;
}

void coll_a2a_counts(struct coll_a2a *a, int n, int scount, int rcount)
{
    a->scounts = malloc(sizeof(int) * (size_t)n);
    a->sdispls = malloc(sizeof(int) * (size_t)n);
    a->rcounts = malloc(sizeof(int) * (size_t)n);
    a->rdispls = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) {
        a->scounts[i] = scount;
        a->sdispls[i] = i * scount;
        a->rcounts[i] = rcount;
        a->rdispls[i] = i * rcount;
    }
}

void coll_a2a_bytes(struct coll_a2a *a, int n, const void *sbuf, const int *sdispls,
                    MPI_Aint sext, const int *rdispls, MPI_Aint rext)
{
    a->sbytes = malloc(sizeof(MPI_Aint) * (size_t)n);
    a->rbytes = malloc(sizeof(MPI_Aint) * (size_t)n);
    for (int i = 0; i < n; i++) {
        a->sbytes[i] = sbuf == MPI_IN_PLACE ? 0 : (MPI_Aint)sdispls[i] * sext;
        a->rbytes[i] = (MPI_Aint)rdispls[i] * rext;
    }
}

void coll_a2a_types(struct coll_a2a *a, int n, MPI_Datatype st, MPI_Datatype rt)
{
    a->stypes = malloc(sizeof(MPI_Datatype) * (size_t)n);
    a->rtypes = malloc(sizeof(MPI_Datatype) * (size_t)n);
    for (int i = 0; i < n; i++) {
        a->stypes[i] = st;
        a->rtypes[i] = rt;
    }
}

void coll_a2a_free(struct coll_a2a *a)
{
    free(a->scounts);
    free(a->sdispls);
    free(a->rcounts);
    free(a->rdispls);
    free(a->sbytes);
    free(a->rbytes);
    free(a->stypes);
    free(a->rtypes);
}
