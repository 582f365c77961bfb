/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Communicators on switch multicast (MPI_NC_COMM; docs/mpi.md
 * "Communicators on switch multicast"): a communicator's group at the
 * fabric's management entity (comm_swmc.c) and the reliable broadcast over
 * it (coll_bcast_swmc.c). Internal to libmpi.
 */
#ifndef MPI_SWMC_H
#define MPI_SWMC_H

#include "mpi_impl.h"
#include "nicoll/nc_abi.h"

/* The head of every group packet (nc_gsend, port 0), in host order as
 * struct mpi_hdr is: both ends are the same library. */
struct swmc_wire {
    uint32_t kind;              /* SWMC_PING or SWMC_DATA */
    uint32_t ctx;               /* the communicator's context id */
    uint32_t seq;               /* PING: the probe's number; DATA: the broadcast's */
    uint32_t off, total;        /* DATA: where these bytes go, the broadcast's length */
};
enum { SWMC_PING = 1, SWMC_DATA = 2 };
/* Point-to-point control (PKT_SWMC; mpi_hdr.tag the kind, ctx the
 * communicator's, len the seq, sreq and rreq the offset and total of a
 * resent DATA, whose bytes follow). */
enum { SWMC_PING_ACK = 1, SWMC_DATA_ACK = 2, SWMC_RESEND = 3 };
/* Bytes of a broadcast per group packet. */
#define SWMC_FRAG (NC_ABI_GRP_MAX - sizeof(struct swmc_wire))

/* A broadcast's bytes as they arrive at a member (coll_bcast_swmc.c). */
struct swmc_msg {
    uint32_t seq;
    size_t total, got;
    uint8_t *data, *have;       /* have: one byte per fragment */
    bool complete;
    struct swmc_msg *next;
};

/* A communicator's switch group (c->swmc), set up by mpi_swmc_setup. */
struct mpi_swmc {
    MPI_Comm comm;
    uint32_t group;
    bool ready;                 /* the multicast test passed: MPI_Bcast uses the group */
    bool ping_acked;            /* a member answered the root's test */
    unsigned tested;            /* the root: members that answered */
    uint8_t *tested_by;         /* per rank */
    /* the reliable broadcast */
    uint32_t seq;               /* broadcasts so far: the same count on every member */
    uint32_t consumed;          /* a member: the last one its MPI_Bcast took */
    struct swmc_msg *msgs;      /* a member: broadcasts arriving or waiting for their call */
    uint32_t root_seq;          /* the root: the broadcast waiting for acknowledgements */
    unsigned acks;
    uint8_t *acked;             /* per rank */
    struct mpi_swmc *next;
};

/* The communicator (of this process) whose context id is ctx, or NULL. */
struct mpi_swmc *mpi_swmc_of_ctx(uint32_t ctx);
/* The rank in c of world rank w, or -1. */
int mpi_swmc_rank_of(MPI_Comm c, int w);
/* From comm_swmc.c to coll_bcast_swmc.c: a DATA packet's bytes (from the
 * group or resent) and a DATA_ACK. */
void swmc_bcast_fragment(struct mpi_swmc *s, int src_world, const struct swmc_wire *w,
                         const uint8_t *data, size_t len);
void swmc_bcast_ack(struct mpi_swmc *s, int src_world, uint32_t seq);
void swmc_bcast_free(struct mpi_swmc *s);

#endif
