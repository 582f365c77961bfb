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
    uint32_t ctx;               /* the communicator's context id; POOL_PING: the owner's test */
    uint32_t seq;               /* PING: the probe's number; DATA: the broadcast's */
    uint32_t off, total;        /* DATA: where these bytes go, the broadcast's length */
    uint32_t flags;             /* DATA: SWMC_ACK_ME, SWMC_RESENT */
};
enum { SWMC_PING = 1, SWMC_DATA = 2,
       SWMC_POOL_PING = 3 /* Pool: the owner's probe of a refill (seq its number) */ };
/* DATA's flags: the root wants an acknowledgement as soon as the broadcast
 * is complete; these bytes come again by point-to-point (always answered,
 * even when the member has them). */
enum { SWMC_ACK_ME = 1, SWMC_RESENT = 2 };
/* Point-to-point control (PKT_SWMC; mpi_hdr.tag the kind, ctx the
 * communicator's, len the seq (DATA_ACK: the member's cumulative number,
 * every broadcast up to it complete there), sreq and rreq the offset and
 * total of a resent DATA, whose bytes follow). */
enum { SWMC_PING_ACK = 1, SWMC_DATA_ACK = 2, SWMC_RESEND = 3,
       SWMC_READY = 5 /* Lazy: rank 0 tells a member the test passed */,
       SWMC_POOL_ID = 6 /* Pool: an owner tells every process a refill's id (len) */,
       SWMC_POOL_ACK = 7 /* Pool: a process answers a refill's probe (len the id) */,
       SWMC_POOL_JOINED = 8 /* Pool: the entity answered a process's join (len the id) */ };
/* The three Pool controls name the owner's test in the header's ctx. */
/* The tag of a Lazy broadcast's tree messages (on the collective context):
 * its number in it, so that a member waiting on either path never takes
 * another broadcast's message. */
#define SWMC_TREE_TAG(seq) (0x20000000 | (int)((seq) & 0x0FFFFFFFu))
/* Bytes of a broadcast per group packet. */
#define SWMC_FRAG (NC_ABI_GRP_MAX - sizeof(struct swmc_wire))

/* A root's broadcast not yet acknowledged by every member
 * (coll_bcast_swmc.c): its bytes (a copy, or the caller's while its
 * MPI_Bcast waits), the group packets' and the resends' requests, the
 * members whose acknowledgement covers it, whom it was resent to. */
struct swmc_out {
    uint32_t seq;
    const uint8_t *bytes;
    uint8_t *copy;
    size_t n;
    uint64_t sent_ns;
    MPI_Request sent, resend;
    unsigned acks;
    uint8_t *resent_to;         /* per rank */
    struct swmc_out *next;
};

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
enum { LZ_JOINING, LZ_TESTING, LZ_JOINED, LZ_READY, LZ_OFF };

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
    /* the reliable broadcast (coll_bcast_swmc.c) */
    uint32_t seq;               /* broadcasts so far: the same count on every member */
    uint32_t consumed;          /* the last one this rank's MPI_Bcast took or sent */
    struct swmc_msg *msgs;      /* broadcasts arriving or waiting for their call */
    struct swmc_out *out;       /* as a root: its window, oldest first */
    unsigned n_out, since_flag;
    size_t out_bytes;
    uint32_t *cum;              /* as a root, per rank: its latest acknowledgement */
    uint64_t ack_ns;            /* as a root: when the latest new one came */
    uint32_t *owed, *told;      /* per root rank: the last broadcast complete here
                                 * not yet acknowledged; the last number sent it */
    uint64_t owed_ns;           /* since when an acknowledgement is owed (0: none) */
    struct mpi_swmc *next;
};

/* From comm_swmc.c: a new communicator's state (registered), a request
 * to the entity posted without waiting (w's answer comes through
 * mpi_swmc_mg_event), and a group packet's probe sent. */
struct mpi_swmc *swmc_new(MPI_Comm c, uint32_t group);
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
/* The first step of Basic and Lazy: rank 0 asks the entity for an id
 * and tells every member (the host's binomial broadcast); false when the
 * entity had none (the communicator stays point-to-point). */
bool swmc_create(MPI_Comm c, uint32_t *group);
/* Lazy (comm_swmc_lazy.c): the start with the group's id, an answer, rank
 * 0's SWMC_READY, the background work of every progress call, the end. */
void swmc_lazy_start(MPI_Comm c, uint32_t group);
void swmc_lazy_answer(struct mpi_swmc *s);
void swmc_lazy_ready(struct mpi_swmc *s);
void swmc_lazy_tick(struct mpi_swmc *s);
void swmc_lazy_release(struct mpi_swmc *s);
/* Pool (comm_swmc_pool.c): MPI_Init's fill of the slices, a constructor,
 * the background work of every progress call, the controls and a
 * refill's probe from its owner, MPI_Finalize's leaves. */
void swmc_pool_fill(void);
void swmc_pool_start(MPI_Comm c);
void swmc_pool_tick(void);
void swmc_pool_control(int src_world, int kind, uint32_t group, uint32_t serial);
void swmc_pool_probed(unsigned owner, uint32_t group, uint32_t serial);
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
/* From comm_swmc.c to coll_bcast_swmc.c: a communicator's broadcast
 * state made, a DATA packet's bytes (from the group or resent), a
 * DATA_ACK, every progress call's work (resends, owed acknowledgements),
 * the end of its broadcasts before the group is left (the last
 * acknowledgements sent, the window emptied), the state freed. */
void swmc_bcast_init(struct mpi_swmc *s);
void swmc_bcast_fragment(struct mpi_swmc *s, int src_world, const struct swmc_wire *w,
                         const uint8_t *data, size_t len);
void swmc_bcast_ack(struct mpi_swmc *s, int src_world, uint32_t upto);
void swmc_bcast_tick(struct mpi_swmc *s);
void swmc_bcast_drain(struct mpi_swmc *s);
void swmc_bcast_free(struct mpi_swmc *s);

#endif
