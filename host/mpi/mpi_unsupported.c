/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Out of scope (docs/mpi.md, "Coverage"): inter-communicators, dynamic
 * processes, one-sided communication, I/O. These exist so that a program
 * using them links, and fail loudly: MPI_ERR_UNSUPPORTED_OPERATION with a
 * message, never a silent wrong answer.
 */
#include "mpi_impl.h"

int MPI_Intercomm_create(MPI_Comm local, int local_leader, MPI_Comm peer, int remote_leader,
                         int tag, MPI_Comm *newcomm)
{
    (void)local; (void)local_leader; (void)peer; (void)remote_leader; (void)tag;
    *newcomm = MPI_COMM_NULL;
    return mpi_unsupported("MPI_Intercomm_create", "inter-communicators are out of scope");
}

int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
                   MPI_Comm comm, MPI_Comm *intercomm, int errcodes[])
{
    (void)command; (void)argv; (void)maxprocs; (void)info; (void)root; (void)comm;
    (void)errcodes;
    *intercomm = MPI_COMM_NULL;
    return mpi_unsupported("MPI_Comm_spawn", "dynamic processes are out of scope");
}

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                   void *win)
{
    (void)base; (void)size; (void)disp_unit; (void)info; (void)comm; (void)win;
    return mpi_unsupported("MPI_Win_create", "one-sided communication is out of scope");
}

int MPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, void *fh)
{
    (void)comm; (void)filename; (void)amode; (void)info; (void)fh;
    return mpi_unsupported("MPI_File_open", "MPI I/O is out of scope");
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    (void)intercomm; (void)high;
    *newintracomm = MPI_COMM_NULL;
    return mpi_unsupported("MPI_Intercomm_merge", "inter-communicators are out of scope");
}

/* Every communicator is an intra-communicator: asking for a remote group
 * is the error the standard names for it. */
int MPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    (void)size;
    return mpi_error(comm, MPI_ERR_COMM, "MPI_Comm_remote_size",
                     "not an inter-communicator (inter-communicators are out of scope)");
}

int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    *group = MPI_GROUP_NULL;
    return mpi_error(comm, MPI_ERR_COMM, "MPI_Comm_remote_group",
                     "not an inter-communicator (inter-communicators are out of scope)");
}
