/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One table of collective implementations per communicator (as Open MPI's
 * coll framework has): coll_table_fill chooses, when the communicator is
 * made, one algorithm for each collective from the settings (MPI_NC_*),
 * the communicator's size and whether the NIC can serve it; every MPI
 * collective checks its arguments and calls through comm->coll. What
 * depends on the call itself (a broadcast's size and datatype, a
 * reduction's op, a (communicator, root)'s NIC group) stays inside the
 * algorithm. docs/mpi.md, "Collectives: one table per communicator".
 * The arguments are the MPI function's, already checked.
 */
#ifndef COLL_TABLE_H
#define COLL_TABLE_H

#include "mpi_impl.h"

struct mpi_coll_table {
    int (*barrier)(MPI_Comm c);
    int (*bcast)(void *buf, int count, MPI_Datatype t, int root, MPI_Comm c);
    int (*reduce)(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, int root,
                  MPI_Comm c);
    int (*allreduce)(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                     MPI_Comm c);
    /* rcounts and displs NULL: every part rcount_all (Gather, Scatter, Allgather) */
    int (*gatherv)(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                   const int *rcounts, const int *displs, int rcount_all, MPI_Datatype rt,
                   int root, MPI_Comm c);
    int (*scatterv)(const void *sbuf, const int *scounts, const int *displs, int scount_all,
                    MPI_Datatype st, void *rbuf, int rcount, MPI_Datatype rt, int root,
                    MPI_Comm c);
    int (*allgatherv)(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                      const int *rcounts, const int *displs, int rcount_all, MPI_Datatype rt,
                      MPI_Comm c);
    /* displacements in bytes (Alltoall and Alltoallv convert to them) */
    int (*alltoallw)(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                     const MPI_Datatype *stypes, void *rbuf, const int *rcounts,
                     const MPI_Aint *rdispls, const MPI_Datatype *rtypes, MPI_Comm c);
    int (*reduce_scatter)(const void *sbuf, void *rbuf, const int *rcounts, MPI_Datatype t,
                          MPI_Op op, MPI_Comm c);
    /* exclusive: Exscan */
    int (*scan)(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                bool exclusive, MPI_Comm c);

    int (*ibarrier)(MPI_Comm c, MPI_Request *req);
    int (*ibcast)(void *buf, int count, MPI_Datatype t, int root, MPI_Comm c, MPI_Request *req);
    int (*ireduce)(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, int root,
                   MPI_Comm c, MPI_Request *req);
    int (*iallreduce)(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                      MPI_Comm c, MPI_Request *req);
    int (*igatherv)(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                    const int *rcounts, const int *displs, int rcount_all, MPI_Datatype rt,
                    int root, MPI_Comm c, MPI_Request *req);
    int (*iscatterv)(const void *sbuf, const int *scounts, const int *displs, int scount_all,
                     MPI_Datatype st, void *rbuf, int rcount, MPI_Datatype rt, int root,
                     MPI_Comm c, MPI_Request *req);
    int (*iallgatherv)(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                       const int *rcounts, const int *displs, int rcount_all, MPI_Datatype rt,
                       MPI_Comm c, MPI_Request *req);
    int (*ialltoallw)(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                      const MPI_Datatype *stypes, void *rbuf, const int *rcounts,
                      const MPI_Aint *rdispls, const MPI_Datatype *rtypes, MPI_Comm c,
                      MPI_Request *req);
    int (*ireduce_scatter)(const void *sbuf, void *rbuf, const int *rcounts, MPI_Datatype t,
                           MPI_Op op, MPI_Comm c, MPI_Request *req);
    int (*iscan)(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                 bool exclusive, MPI_Comm c, MPI_Request *req);
};

/* Choose c's algorithms (c->coll, allocated here); c's size, rank and
 * group are set. coll_table_free when c goes. */
void coll_table_fill(MPI_Comm c);
void coll_table_free(MPI_Comm c);

/* ---- the algorithms (one file each, coll_<collective>_<algorithm>.c) ---- */
int coll_barrier_none(MPI_Comm c);
int coll_barrier_dissemination(MPI_Comm c);
int coll_ibarrier_dissemination(MPI_Comm c, MPI_Request *req);
int coll_barrier_nic(MPI_Comm c);

int coll_bcast_binomial(void *buf, int count, MPI_Datatype t, int root, MPI_Comm c);
int coll_ibcast_binomial(void *buf, int count, MPI_Datatype t, int root, MPI_Comm c,
                         MPI_Request *req);
int coll_bcast_nic(void *buf, int count, MPI_Datatype t, int root, MPI_Comm c);
int coll_bcast_swmc(void *buf, int count, MPI_Datatype t, int root, MPI_Comm c);
int coll_ibcast_nic(void *buf, int count, MPI_Datatype t, int root, MPI_Comm c,
                    MPI_Request *req);

int coll_reduce_binomial(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                         int root, MPI_Comm c);
/* MPI_NC_REDUCE=bypass (coll_reduce_bypass.c): its port opened by MPI_Init,
 * drained and closed by MPI_Finalize (the finalize part returns the error
 * of a bypass reduction that failed, else MPI_SUCCESS) */
int coll_reduce_bypass(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                       int root, MPI_Comm c);
int coll_reduce_bypass_init(void);
int coll_reduce_bypass_finalize(void);
/* MPI_NC_REDUCE=nic (coll_reduce_nic.c): a call the NIC cannot take runs
 * the host's algorithm */
int coll_reduce_nic(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, int root,
                    MPI_Comm c);
int coll_allreduce_nic(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                       MPI_Comm c);
int coll_ireduce_nic(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, int root,
                     MPI_Comm c, MPI_Request *req);
int coll_iallreduce_nic(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                        MPI_Comm c, MPI_Request *req);
/* MPI_Finalize: with MPI_NC_REDUCE_STATS set, the calls taken each way */
void coll_reduce_nic_report(void);
int coll_ireduce_binomial(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                          int root, MPI_Comm c, MPI_Request *req);

int coll_allreduce_recursive_doubling(const void *sbuf, void *rbuf, int count, MPI_Datatype t,
                                      MPI_Op op, MPI_Comm c);
int coll_iallreduce_reduce_bcast(const void *sbuf, void *rbuf, int count, MPI_Datatype t,
                                 MPI_Op op, MPI_Comm c, MPI_Request *req);

int coll_gatherv_linear(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                        const int *rcounts, const int *displs, int rcount_all, MPI_Datatype rt,
                        int root, MPI_Comm c);
int coll_igatherv_linear(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                         const int *rcounts, const int *displs, int rcount_all,
                         MPI_Datatype rt, int root, MPI_Comm c, MPI_Request *req);
int coll_scatterv_linear(const void *sbuf, const int *scounts, const int *displs,
                         int scount_all, MPI_Datatype st, void *rbuf, int rcount,
                         MPI_Datatype rt, int root, MPI_Comm c);
int coll_iscatterv_linear(const void *sbuf, const int *scounts, const int *displs,
                          int scount_all, MPI_Datatype st, void *rbuf, int rcount,
                          MPI_Datatype rt, int root, MPI_Comm c, MPI_Request *req);

int coll_allgatherv_gather_bcast(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                                 const int *rcounts, const int *displs, int rcount_all,
                                 MPI_Datatype rt, MPI_Comm c);
int coll_iallgatherv_recursive_doubling(const void *sbuf, int scount, MPI_Datatype st,
                                        void *rbuf, const int *rcounts, const int *displs,
                                        int rcount_all, MPI_Datatype rt, MPI_Comm c,
                                        MPI_Request *req);
int coll_iallgatherv_ring(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                          const int *rcounts, const int *displs, int rcount_all,
                          MPI_Datatype rt, MPI_Comm c, MPI_Request *req);

int coll_alltoallw_linear(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                          const MPI_Datatype *stypes, void *rbuf, const int *rcounts,
                          const MPI_Aint *rdispls, const MPI_Datatype *rtypes, MPI_Comm c);
int coll_ialltoallw_linear(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                           const MPI_Datatype *stypes, void *rbuf, const int *rcounts,
                           const MPI_Aint *rdispls, const MPI_Datatype *rtypes, MPI_Comm c,
                           MPI_Request *req);

int coll_reduce_scatter_reduce_scatterv(const void *sbuf, void *rbuf, const int *rcounts,
                                        MPI_Datatype t, MPI_Op op, MPI_Comm c);
int coll_ireduce_scatter_reduce_scatterv(const void *sbuf, void *rbuf, const int *rcounts,
                                         MPI_Datatype t, MPI_Op op, MPI_Comm c,
                                         MPI_Request *req);

int coll_scan_linear(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                     bool exclusive, MPI_Comm c);
int coll_iscan_linear(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                      bool exclusive, MPI_Comm c, MPI_Request *req);

#endif
