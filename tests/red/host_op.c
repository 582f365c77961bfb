/*
 * host_op.c - the host library's own reduction code, for tests/red: this
 * file is linked with host/mpi/mpi_op.c (compiled with libmpi's flags) so
 * that "equal to the host" means equal to what libmpi computes, NaN operand
 * order included.  It provides the two functions of libmpi that mpi_op.c
 * names and test_red.c does not reach (MPI_Reduce_local's checks), and one
 * entry point taking a type by name.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "mpi_impl.h"
#include "host_op.h"

int mpi_error(MPI_Comm comm, int err, const char *fn, const char *fmt, ...)
{
    (void)comm; (void)fmt;
    fprintf(stderr, "host_op: unexpected mpi_error from %s\n", fn);
    return err;
}

bool mpi_type_ok(MPI_Datatype t)
{
    return t != NULL;
}

void host_reduce(int op, int type, void *inout, const void *in, size_t count)
{
    static const enum mpi_base base[] = { B_INT32, B_UINT32, B_INT64, B_UINT64, B_FLOAT, B_DOUBLE };
    static const size_t size[] = { 4, 4, 8, 8, 4, 8 };
    struct mpi_type_s t = { .name = "host_op", .predefined = true, .committed = true,
                            .base = base[type], .size = size[type], .extent = (MPI_Aint)size[type],
                            .true_extent = (MPI_Aint)size[type], .contig = true, .nblocks = 1,
                            .elements = 1 };
    MPI_Op o = op == HOST_SUM ? MPI_SUM : op == HOST_MIN ? MPI_MIN : op == HOST_MAX ? MPI_MAX
             : op == HOST_BAND ? MPI_BAND : op == HOST_BOR ? MPI_BOR : MPI_BXOR;
    mpi_op_apply(o, in, inout, count, &t);
}
