/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * User-defined error handlers on communicators (MPI 3.1 section 8.3.1)
 * and the error classes, codes and strings a program adds (8.5). An added
 * class or code is a number above MPI_ERR_LASTCODE, in the order made;
 * MPI_LASTUSEDCODE is the last of them (mpi_attr.c).
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_impl.h"

struct dyn { int cls; char *str; };
#define FIRST (MPI_ERR_LASTCODE + 1)
static struct dyn *dyn;         /* dyn[i]: the code FIRST + i */
static int ndyn;

int mpi_error_dynamic_class(int code)
{
    int i = code - FIRST;

    return i >= 0 && i < ndyn ? dyn[i].cls : -1;
}

const char *mpi_error_dynamic_string(int code)
{
    int i = code - FIRST;

    return i >= 0 && i < ndyn ? dyn[i].str : NULL;
}

int mpi_error_lastused(void)
{
    return FIRST + ndyn - 1;
}

static int add(int cls)
{
    dyn = realloc(dyn, sizeof *dyn * (size_t)(ndyn + 1));
    dyn[ndyn] = (struct dyn){ cls, NULL };
    return FIRST + ndyn++;
}

int MPI_Add_error_class(int *errorclass)
{
    int c = FIRST + ndyn;

    *errorclass = add(c);       /* a class is its own class */
    return MPI_SUCCESS;
}

int MPI_Add_error_code(int errorclass, int *errorcode)
{
    if (errorclass < 0 || (errorclass >= MPI_ERR_LASTCODE &&
                           mpi_error_dynamic_class(errorclass) != errorclass))
        return mpi_error(NULL, MPI_ERR_ARG, "MPI_Add_error_code", "%d is not an error class",
                         errorclass);
    *errorcode = add(errorclass);
    return MPI_SUCCESS;
}

int MPI_Add_error_string(int errorcode, const char *string)
{
    int i = errorcode - FIRST;

    if (i < 0 || i >= ndyn)
        return mpi_error(NULL, MPI_ERR_ARG, "MPI_Add_error_string",
                         "%d is not a code MPI_Add_error_class/_code made", errorcode);
    free(dyn[i].str);
    dyn[i].str = strndup(string, MPI_MAX_ERROR_STRING - 1);
    return MPI_SUCCESS;
}

int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    struct mpi_errh_s *e = calloc(1, sizeof *e);

    if (!fn)
        return mpi_error(NULL, MPI_ERR_ARG, "MPI_Comm_create_errhandler", "function is NULL");
    e->fn = fn;
    *errhandler = e;
    return MPI_SUCCESS;
}

/* As an error raised in an MPI call on comm: its handler is called (the
 * program's, or fatal, or return). */
int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_call_errhandler", "MPI_COMM_NULL");
    mpi_error(comm, errorcode, "MPI_Comm_call_errhandler", "the program raised error %d",
              errorcode);
    return MPI_SUCCESS;
}
