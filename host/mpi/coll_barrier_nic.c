/* SPDX-License-Identifier: GPL-2.0-or-later */
/* MPI_Barrier on the NIC's PE barrier (MPI_NC_BARRIER=nic; docs/barrier.md):
 * members are (node, port 0) in rank order. The NIC runs one barrier per
 * port at a time, which a blocking call respects; MPI_Ibarrier stays on
 * the host (coll_table.c). */
#include "coll_table.h"
#include "nicoll.h"

int coll_barrier_nic(MPI_Comm c)
{
    int rc = mpi_barrier_nic(c);

    if (rc)
        return mpi_error(c, MPI_ERR_OTHER, "MPI_Barrier", "NIC barrier: %s", nc_strerror(rc));
    return MPI_SUCCESS;
}
