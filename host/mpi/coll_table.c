/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Each communicator's table of collectives (coll_table.h), filled once
 * when it is made (MPI_COMM_WORLD and MPI_COMM_SELF at MPI_Init, every
 * other by the call that creates it). What decides here is fixed for the
 * communicator's life: the settings (read once by MPI_Init, the same on
 * every rank) and the size, so every member fills the same table and
 * every member of a collective runs the same algorithm.
 */
#include <stdlib.h>

#include "coll_table.h"
#include "nicoll.h"

void coll_table_fill(MPI_Comm c)
{
    struct mpi_coll_table *t = calloc(1, sizeof *t);
    bool pof2 = (c->size & (c->size - 1)) == 0;

    /* Barrier: the NIC's PE barrier serves up to NC_BARRIER_MAX_MEMBERS
     * ranks; one rank has nobody to wait for. MPI_Ibarrier has no NIC
     * form (the NIC runs one barrier per port at a time, and a
     * non-blocking call could not promise it). */
    if (c->size == 1) {
        t->barrier = coll_barrier_none;
    } else if (mpi_state.barrier_nic && (unsigned)c->size <= NC_BARRIER_MAX_MEMBERS) {
        t->barrier = coll_barrier_nic;
    } else {
        t->barrier = coll_barrier_dissemination;
    }
    t->ibarrier = coll_ibarrier_dissemination;

    /* Bcast: on switch multicast with MPI_NC_COMM=basic or lazy, else on NIC
     * multicast with MPI_NC_BCAST=nic; each call still
     * takes the binomial tree when its (communicator, root, tree class)
     * agreed on the host, or (MPI_Ibcast) its datatype is not contiguous
     * (coll_bcast_nic.c). */
    if (mpi_state.comm_mode != COMM_P2P && c->size > 1) {
        /* on the communicator's switch group once it is tested
         * (coll_bcast_swmc.c); binomial until then, and for MPI_Ibcast */
        t->bcast = coll_bcast_swmc;
        t->ibcast = coll_ibcast_binomial;
    } else if (mpi_state.bcast_nic && c->size > 1) {
        t->bcast = coll_bcast_nic;
        t->ibcast = coll_ibcast_nic;
    } else {
        t->bcast = coll_bcast_binomial;
        t->ibcast = coll_ibcast_binomial;
    }

    /* Reduce: by application bypass with MPI_NC_REDUCE=bypass, on the NIC
     * with MPI_NC_REDUCE=nic (Allreduce and the non-blocking forms too);
     * each call that does not fit
     * (a user's op, a derived type, more data) takes the host's algorithm:
     * the binomial tree, which gives the same bits, or for Allreduce
     * recursive doubling. */
    if (mpi_state.reduce_bypass && c->size > 1)
        t->reduce = coll_reduce_bypass;
    else if (mpi_state.reduce_nic && c->size > 1)
        t->reduce = coll_reduce_nic;
    else
        t->reduce = coll_reduce_binomial;
    if (mpi_state.reduce_nic && c->size > 1) {
        t->ireduce = coll_ireduce_nic;
        t->allreduce = coll_allreduce_nic;
        t->iallreduce = coll_iallreduce_nic;
    } else {
        t->ireduce = coll_ireduce_binomial;
        t->allreduce = coll_allreduce_recursive_doubling;
        t->iallreduce = coll_iallreduce_reduce_bcast;
    }
    t->gatherv = coll_gatherv_linear;
    t->igatherv = coll_igatherv_linear;
    t->scatterv = coll_scatterv_linear;
    t->iscatterv = coll_iscatterv_linear;

    /* Allgather(v): the blocking call gathers and broadcasts (MPICH-GM's
     * behaviour, on the NIC's broadcast when the table's bcast is); the
     * non-blocking one exchanges parts, which keeps every round to a few
     * messages per rank: recursive doubling on a power of two, else a
     * ring. */
    t->allgatherv = coll_allgatherv_gather_bcast;
    t->iallgatherv = pof2 ? coll_iallgatherv_recursive_doubling : coll_iallgatherv_ring;

    t->alltoallw = coll_alltoallw_linear;
    t->ialltoallw = coll_ialltoallw_linear;
    t->reduce_scatter = coll_reduce_scatter_reduce_scatterv;
    t->ireduce_scatter = coll_ireduce_scatter_reduce_scatterv;
    t->scan = coll_scan_linear;
    t->iscan = coll_iscan_linear;
    c->coll = t;
}

void coll_table_free(MPI_Comm c)
{
    free(c->coll);
    c->coll = NULL;
}
