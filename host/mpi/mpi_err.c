/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Errors: the two predefined handlers, set per communicator (errors not
 * tied to one, e.g. in MPI_Init or on a request, use MPI_COMM_WORLD's as
 * MPI 3.1 section 8.3 says), error strings and classes, and the one
 * answer of everything out of scope.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mpi_impl.h"
#include "nicoll/hostif.h"

struct mpi_errh_s mpi_errors_are_fatal_ = { .fatal = 1, .predefined = true };
struct mpi_errh_s mpi_errors_return_ = { .fatal = 0, .predefined = true };

static const char *const err_text[MPI_ERR_LASTCODE] = {
    [MPI_SUCCESS] = "no error",
    [MPI_ERR_BUFFER] = "invalid buffer pointer",
    [MPI_ERR_COUNT] = "invalid count argument",
    [MPI_ERR_TYPE] = "invalid datatype",
    [MPI_ERR_TAG] = "invalid tag",
    [MPI_ERR_COMM] = "invalid communicator",
    [MPI_ERR_RANK] = "invalid rank",
    [MPI_ERR_REQUEST] = "invalid request",
    [MPI_ERR_ROOT] = "invalid root",
    [MPI_ERR_GROUP] = "invalid group",
    [MPI_ERR_OP] = "invalid operation",
    [MPI_ERR_TOPOLOGY] = "invalid topology",
    [MPI_ERR_DIMS] = "invalid dimension argument",
    [MPI_ERR_ARG] = "invalid argument",
    [MPI_ERR_UNKNOWN] = "unknown error",
    [MPI_ERR_TRUNCATE] = "message truncated",
    [MPI_ERR_OTHER] = "other error",
    [MPI_ERR_INTERN] = "internal error",
    [MPI_ERR_IN_STATUS] = "error code is in status",
    [MPI_ERR_PENDING] = "pending request",
    [MPI_ERR_NO_MEM] = "out of memory",
    [MPI_ERR_UNSUPPORTED_OPERATION] = "operation not supported by this MPI (docs/mpi.md)",
    [MPI_ERR_UNSUPPORTED_DATAREP] = "unsupported data representation",
    [MPI_ERR_INFO] = "invalid info",
    [MPI_ERR_KEYVAL] = "invalid key value",
    [MPI_ERR_WIN] = "invalid window",
    [MPI_ERR_FILE] = "invalid file handle",
    [MPI_ERR_SPAWN] = "cannot spawn processes",
};

int mpi_error(MPI_Comm comm, int err, const char *fn, const char *fmt, ...)
{
    MPI_Errhandler eh = comm ? comm->errh : mpi_comm_world_.errh;
    char msg[256];
    va_list ap;

    if (!eh)
        eh = MPI_ERRORS_ARE_FATAL;
    if (eh->fn) {               /* the program's handler decides */
        MPI_Comm handle = comm ? comm : MPI_COMM_WORLD;
        eh->fn(&handle, &err);
        return err;
    }
    if (!eh->fatal)
        return err;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mpi_stdio_flush();
    const char *what = err >= 0 && err < MPI_ERR_LASTCODE ? err_text[err]
                       : mpi_error_dynamic_string(err);
    nc_host_printf("libmpi: rank %d: %s: %s (%s); MPI_ERRORS_ARE_FATAL: the run ends\n",
                   mpi_state.world_rank, fn, msg, what ? what : "?");
    extern void mpi_real_exit(int) __attribute__((noreturn));
    mpi_real_exit(1);
}

int mpi_unsupported(const char *fn, const char *why)
{
    nc_host_printf("libmpi: rank %d: %s is not supported (%s; docs/mpi.md)\n",
                   mpi_state.world_rank, fn, why);
    return mpi_error(NULL, MPI_ERR_UNSUPPORTED_OPERATION, fn, "%s", why);
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler eh)
{
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_set_errhandler", "MPI_COMM_NULL");
    if (!eh)
        return mpi_error(comm, MPI_ERR_ARG, "MPI_Comm_set_errhandler", "MPI_ERRHANDLER_NULL");
    comm->errh = eh;
    return MPI_SUCCESS;
}

int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *eh)
{
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_get_errhandler", "MPI_COMM_NULL");
    *eh = comm->errh;
    return MPI_SUCCESS;
}

/* A user handler's object stays for the run: communicators that have it
 * keep calling it after the handle is freed (8.3.4), and it is a few bytes. */
int MPI_Errhandler_free(MPI_Errhandler *eh)
{
    *eh = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

int MPI_Error_string(int code, char *string, int *resultlen)
{
    const char *t = code >= 0 && code < MPI_ERR_LASTCODE ? err_text[code]
                    : mpi_error_dynamic_class(code) >= 0 ? mpi_error_dynamic_string(code) : NULL;

    if (!t && mpi_error_dynamic_class(code) >= 0)
        t = "";                 /* added, no string given */

    if (!t)
        return mpi_error(NULL, MPI_ERR_ARG, "MPI_Error_string", "%d is not an error code", code);
    *resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "%s", t);
    return MPI_SUCCESS;
}

int MPI_Error_class(int code, int *cls)
{
    if (code >= MPI_ERR_LASTCODE && mpi_error_dynamic_class(code) >= 0) {
        *cls = mpi_error_dynamic_class(code);
        return MPI_SUCCESS;
    }
    if (code < 0 || code >= MPI_ERR_LASTCODE)
        return mpi_error(NULL, MPI_ERR_ARG, "MPI_Error_class", "%d is not an error code", code);
    *cls = code;    /* every predefined code is its own class */
    return MPI_SUCCESS;
}
