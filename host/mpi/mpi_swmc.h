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
enum { SWMC_PING = 1, SWMC_DATA = 2,
       SWMC_POOL_PING = 3 /* Pool: the owner's probe of a refill (seq its number) */ };
/* Point-to-point control (PKT_SWMC; mpi_hdr.tag the kind, ctx the
 * communicator's, len the seq, sreq and rreq the offset and total of a
 * resent DATA, whose bytes follow). */
enum { SWMC_PING_ACK = 1, SWMC_DATA_ACK = 2, SWMC_RESEND = 3,
       SWMC_GROUP_ID = 4 /* Lazy: rank 0 tells a member the id (len) */,
       SWMC_READY = 5 /* Lazy: rank 0 tells a member the test passed */,
       SWMC_POOL_ID = 6 /* Pool: an owner tells every process a refill's id (len) */,
       SWMC_POOL_ACK = 7 /* Pool: a process answers a refill's probe (len the id) */ };
/* The tag of a Lazy broadcast's tree messages (on the collective context):
 * its number in it, so that a member waiting on either path never takes
 * another broadcast's message. */
#define SWMC_TREE_TAG(seq) (0x20000000 | (int)((seq) & 0x0FFFFFFFu))
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

/* An answer of the entity a request waits for (comm_swmc.c); owner: a
 * Lazy communicator's request, handed to swmc_lazy_answer when it comes. */
struct mg_wait {
    uint32_t tid;
    bool got;
    int status;
    unsigned mg_status;
    uint32_t group;
    unsigned op, asks;
    uint64_t sent_ns;
    struct mpi_swmc *owner;
    struct mg_wait *next;
};

/* Lazy's phases of a communicator's group (comm_swmc_lazy.c) */
enum { LZ_WAIT_ID, LZ_CREATING, LZ_JOINING, LZ_TESTING, LZ_JOINED, LZ_READY, LZ_OFF };

/* A communicator's switch group (c->swmc), set up by mpi_swmc_setup. */
struct mpi_swmc {
    MPI_Comm comm;
    uint32_t group;
    /* Lazy: the phase, the request under way, the test's probes, whether
     * this rank has joined */
    bool lazy, joined;
    int phase;
    struct mg_wait req;
    bool req_busy;
    unsigned probes;
    uint64_t probe_ns;
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

/* From comm_swmc.c: a new communicator's state (registered), a request
 * to the entity posted without waiting (w's answer comes through
 * mpi_swmc_mg_event), and a group packet's probe sent. */
struct mpi_swmc *swmc_new(MPI_Comm c);
int swmc_post(struct mg_wait *w, unsigned op, uint32_t group);
/* The same for another node's join or leave (the entity takes it from any
 * node; the answer comes here). */
int swmc_post_for(struct mg_wait *w, unsigned op, uint32_t group, unsigned node);
/* Requests posted and not answered yet (the NIC keeps NC_ABI_GRP_REQS). */
unsigned swmc_outstanding(void);
void swmc_cancel(struct mg_wait *w);
void swmc_probe(struct mpi_swmc *s, uint32_t n);
/* MPI_NC_DEBUG=1: what c's switch group is doing ("tested: ..."). */
void swmc_say(MPI_Comm c, const char *what, uint32_t group);
void swmc_leave(struct mpi_swmc *s, const char *fn);     /* blocking */
/* Lazy (comm_swmc_lazy.c): the start, an answer, the point-to-point
 * controls, the background work of every progress call, the end. */
void swmc_lazy_start(MPI_Comm c);
void swmc_lazy_answer(struct mpi_swmc *s);
void swmc_lazy_control(struct mpi_swmc *s, uint32_t ctx, int kind, uint32_t value);
void swmc_lazy_tick(struct mpi_swmc *s);
void swmc_lazy_release(struct mpi_swmc *s);
/* Pool (comm_swmc_pool.c): MPI_Init's fill of the slices, a constructor,
 * the background work of every progress call, the controls and a
 * refill's probe from its owner, MPI_Finalize's leaves. */
void swmc_pool_fill(void);
void swmc_pool_start(MPI_Comm c);
void swmc_pool_tick(void);
void swmc_pool_control(int src_world, int kind, uint32_t group);
void swmc_pool_probed(unsigned owner, uint32_t group);
void swmc_pool_finalize(void);
/* The pool's groups stay within this many ids (comm_swmc_pool.c) */
#define SWMC_POOL_IDS 512u
/* The probes of the test (comm_swmc.c's decisions, shared). */
#define SWMC_PROBE_NS 50000u
#define SWMC_PROBES   400u
#define SWMC_ANSWER_NS 30000000ull
#define SWMC_ASKS      3u

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
