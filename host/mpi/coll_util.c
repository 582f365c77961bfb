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
