/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libmpi's internals: the objects behind the handles of mpi.h and the
 * interfaces between its parts (docs/mpi.md, "How it works").
 */
#ifndef MPI_IMPL_H
#define MPI_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"
#include "nicoll.h"

/* ---- datatypes: every type is its flattened type map, a list of byte
 * blocks (offset from the buffer, length) in order; 'base' is the one
 * predefined type of every element, when there is one (reductions). */
struct mpi_block { MPI_Aint off; size_t len; };

enum mpi_base {
    B_NONE = 0, B_CHAR, B_SCHAR, B_UCHAR, B_BYTE, B_SHORT, B_USHORT, B_INT, B_UINT,
    B_LONG, B_ULONG, B_LLONG, B_ULLONG, B_FLOAT, B_DOUBLE, B_LDOUBLE, B_WCHAR, B_BOOL,
    B_INT8, B_INT16, B_INT32, B_INT64, B_UINT8, B_UINT16, B_UINT32, B_UINT64,
    B_PACKED, B_AINT, B_OFFSET, B_COUNT,
    B_FLOAT_INT, B_DOUBLE_INT, B_LONG_INT, B_2INT, B_SHORT_INT, B_LDOUBLE_INT
};

struct mpi_type_s {
    const char *name;
    bool predefined, committed;
    enum mpi_base base;         /* B_NONE: elements of different types */
    size_t size;                /* bytes of data */
    MPI_Aint lb, extent;        /* lb and extent (resized ones included) */
    MPI_Aint true_lb, true_extent;
    bool contig;                /* one block at offset 0 of 'size' bytes, extent == size */
    size_t nblocks;             /* the type map (predefined: one block) */
    struct mpi_block *blocks;
    struct mpi_block one;       /* storage of a predefined type's block */
    size_t elements;            /* predefined elements per instance */
    int refs;                   /* derived: its handle and the holds below */
    /* MPI_Type_get_envelope/_get_contents: the constructor and its
     * arguments (types held), MPI_COMBINER_NAMED for a predefined type
     * (mpi_type_contents.c) */
    int combiner, ni, na, nt;
    int *ints;
    MPI_Aint *addrs;
    MPI_Datatype *types;
    struct mpi_attr *attrs;     /* cached attributes (mpi_attr.c) */
    char *user_name;            /* MPI_Type_set_name's, or NULL */
    size_t align;               /* derived: its most aligned element's alignment */
};

size_t mpi_pack_bytes(const void *buf, size_t count, MPI_Datatype t, void *out);
size_t mpi_unpack_bytes(const void *in, size_t bytes, void *buf, size_t count, MPI_Datatype t);
bool mpi_type_ok(MPI_Datatype t);

/* ---- groups and communicators ------------------------------------------------ */
struct mpi_group_s {
    int size;
    int rank;                   /* this process's rank in it, or MPI_UNDEFINED */
    int *world;                 /* world rank of each member */
    bool predefined;
    int refs;
};

struct mpi_comm_s {
    uint32_t ctx;               /* point-to-point context id; collectives use ctx + 1 */
    int rank, size;
    MPI_Group group;
    MPI_Errhandler errh;
    bool predefined;
    uint32_t coll_seq;          /* collective calls so far (tags of non-blocking ones) */
    uint32_t red_seq;           /* bypass or NIC reductions so far (their instance ids) */
    /* per root: bit L of nic_on, a NIC group of tree class L (the postal
     * lambda, 0 for a fixed tree); of nic_pend, its agreement under way (an
     * MPI_Ibcast's); of nic_off, that class agreed on the
     * host path; neither: not tried yet (coll_bcast_nic_groups.c) */
    uint64_t *nic_on, *nic_pend, *nic_off;
    /* the collectives' algorithms, chosen when the communicator is made
     * (coll_table.c) */
    struct mpi_coll_table *coll;
    int refs;                   /* its handle and the holds below */
    struct mpi_attr *attrs;     /* cached attributes (mpi_attr.c) */
    char *name;                 /* MPI_Comm_set_name's, or NULL */
    struct mpi_topo *topo;      /* Cartesian or graph topology, or NULL (mpi_topo.c) */
    struct mpi_swmc *swmc;      /* its switch multicast group, or NULL (comm_swmc.c) */
};
/* the topology goes with MPI_Comm_dup and MPI_Comm_free */
void mpi_topo_copy(MPI_Comm old, MPI_Comm c);
void mpi_topo_free(MPI_Comm c);

int mpi_world_rank(MPI_Comm c, int rank);
void mpi_comm_init_predefined(int rank, int size);
/* A context id for a new communicator (mpi_ctx.c), agreed by the n
 * members (ranks in comm, members[0] leading) on comm's collective
 * context with the tag: blocking; or by all of comm, started: *req
 * completes once newcomm->ctx is the agreed id. */
int mpi_ctx_agree(MPI_Comm comm, int n, int *members, int tag, uint32_t *ctx);
int mpi_ctx_agree_start(MPI_Comm comm, MPI_Comm newcomm, MPI_Request *req);

/* ---- errors -------------------------------------------------------------------- */
/* fn: a user-defined handler (mpi_errhandler.c), called instead */
struct mpi_errh_s { int fatal; bool predefined; MPI_Comm_errhandler_function *fn; };
/* the error classes and codes MPI_Add_error_class/_code made (mpi_errhandler.c):
 * the class of a code, its string (NULL: none), the last code in use */
int mpi_error_dynamic_class(int code);
const char *mpi_error_dynamic_string(int code);
int mpi_error_lastused(void);

/* Report err on comm (its handler: fatal ends the run naming the rank and
 * the function); returns err for MPI_ERRORS_RETURN. */
int mpi_error(MPI_Comm comm, int err, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int mpi_unsupported(const char *fn, const char *why);
#define MPI_CHECK_INIT(fn) do { if (!mpi_state.initialized || mpi_state.finalized) \
        return mpi_error(NULL, MPI_ERR_OTHER, fn, "called %s MPI_Init", \
                         mpi_state.finalized ? "after MPI_Finalize, not between it and" : "before"); } while (0)

/* ---- requests -------------------------------------------------------------------- */
enum mpi_req_kind { REQ_SEND, REQ_RECV, REQ_COLL };
enum mpi_send_mode { MODE_STANDARD, MODE_SYNC, MODE_READY, MODE_BUFFERED };

struct mpi_req_s {
    enum mpi_req_kind kind;
    bool complete;
    bool persistent, active;    /* persistent: started (active) or not */
    bool freed;                 /* MPI_Request_free on an active one */
    bool cancelled;
    MPI_Status status;
    MPI_Comm comm;
    /* the user's arguments */
    void *buf;
    int count;
    MPI_Datatype type;
    int peer, tag;              /* dest, or source (may be MPI_ANY_SOURCE) */
    uint32_t ctx;               /* comm->ctx, or comm->ctx + 1 for collectives */
    size_t bsend_bytes;         /* a buffered send's share of the attached buffer */
    enum mpi_send_mode mode;
    /* send: the packed bytes; receive: where the bytes land */
    uint8_t *data;              /* contiguous bytes (user buffer or 'tmp') */
    size_t bytes;               /* send: message length; recv: room */
    uint8_t *tmp;               /* malloc'ed packing buffer, or NULL */
    /* protocol state */
    size_t received;            /* recv: bytes of a rendezvous arrived so far */
    size_t msg_len;             /* recv: the sender's length */
    unsigned frags_left;        /* send: fragments not yet copied out */
    bool cts;                   /* send (rendezvous): cleared to send */
    bool rndv;
    uint64_t peer_req;          /* the other side's request id (rendezvous) */
    struct mpi_req_s *next;     /* posted receive queue */
    /* non-blocking collectives: the schedule (coll_sched.c), advanced by mpi_nbc_progress */
    struct coll_sched *sched;
    int nc_status;              /* a NIC reduction's outcome (nicoll.h's NC_OK or an error) */
    unsigned nic_parts;         /* its pieces not done, and 1 until all are started */
};

MPI_Request mpi_req_new(enum mpi_req_kind kind);
void mpi_req_complete(MPI_Request r);
void mpi_req_release(MPI_Request r);
int mpi_wait_one(MPI_Request *r, MPI_Status *st);

/* ---- point-to-point engine (mpi_p2p.c, mpi_match.c, mpi_net.c) --------------------- */
/* Start a send or receive on an initialised request (persistent or not). */
int mpi_start_send(MPI_Request r);
int mpi_start_recv(MPI_Request r);
/* Internal non-blocking p2p with an explicit context (collectives). */
MPI_Request mpi_isend_ctx(const void *buf, size_t count, MPI_Datatype t, int dest, int tag,
                          MPI_Comm comm, uint32_t ctx);
MPI_Request mpi_irecv_ctx(void *buf, size_t count, MPI_Datatype t, int src, int tag,
                          MPI_Comm comm, uint32_t ctx);

/* The wire (mpi_net.c): one nicoll port per rank. */
enum mpi_pkt_type { PKT_EAGER = 1, PKT_RTS = 2, PKT_CTS = 3, PKT_DATA = 4,
                    PKT_SWMC = 5 /* switch multicast's control (mpi_swmc.h) */ };
struct mpi_hdr {
    uint8_t type;               /* enum mpi_pkt_type */
    uint8_t sync;               /* unused, 0: an MPI_Ssend goes by RTS whatever its size */
    uint16_t pad;
    uint32_t ctx;
    int32_t src;                /* sender's rank in the communicator */
    int32_t tag;
    uint64_t len;               /* message length (EAGER, RTS); chunk offset (DATA) */
    uint64_t sreq, rreq;        /* request ids for the rendezvous */
};

struct mpi_state {
    bool initialized, finalized;
    int world_rank, world_size;
    int thread_level;
    size_t eager_max;           /* largest message sent eagerly (MPI_NC_EAGER_MAX) */
    uint64_t spin_ns;           /* a blocking wait polls this long before sleeping */
    size_t chunk;               /* rendezvous data per packet (MPI_NC_CHUNK) */
    int barrier_nic;            /* MPI_Barrier on the NIC (MPI_NC_BARRIER) */
    int bcast_nic;              /* MPI_Bcast on NIC multicast (MPI_NC_BCAST) */
    nc_tree_spec bcast_tree;    /* its groups' tree (MPI_NC_BCAST_TREE) */
    int reduce_bypass;          /* MPI_Reduce by application bypass (MPI_NC_REDUCE) */
    int reduce_nic;             /* MPI_Reduce and MPI_Allreduce on the NIC (MPI_NC_REDUCE) */
    int reduce_exact;           /* their float and double sums exact (MPI_NC_REDUCE_FP) */
    int debug;                  /* MPI_NC_DEBUG: say what a stalled wait waits for */
    int comm_mode;              /* MPI_NC_COMM: enum mpi_comm_mode */
    unsigned sm_node;           /* the management entity's node (MPI_NC_SM_NODE) */
    unsigned pool_size;         /* Pool: groups per owner (MPI_NC_POOL) */
    uint32_t next_ctx;          /* lowest context id this process has not used */
    uint64_t t0_ns;             /* MPI_Wtime's origin */
    /* buffered sends */
    void *bsend_buf;
    size_t bsend_size, bsend_used;
};
extern struct mpi_state mpi_state;

int mpi_net_init(void);
void mpi_net_finalize(void);
/* Queue a packet to world rank 'dst': header plus 'len' bytes of 'data'
 * (copied out later, in order with every other packet). 'owner' (may be
 * NULL) gets frags_left decremented, completing it when it reaches 0 and
 * the send is done otherwise. */
void mpi_net_send(int dst, const struct mpi_hdr *h, const void *data, size_t len,
                  MPI_Request owner);
/* Poll the NIC and move queued packets: every blocking call loops on it. */
void mpi_progress(void);
/* The same inside a blocking call: may sleep on the NIC's interrupt once
 * nothing happened since *idle_since for MPI_NC_SPIN_US. */
void mpi_progress_wait(uint64_t *idle_since);
void mpi_net_dump(const char *why);
struct nc_port *mpi_net_port(void);
/* A multicast of a broadcast's bytes to its NIC group (no header), queued
 * in order with the packets before it; owner's frags_left counts down as
 * its multicasts' bytes are copied into staging slots, and owner completes
 * at 0 (the caller's buffer is free again). */
void mpi_net_imcast(uint32_t group, const void *data, size_t len, MPI_Request owner);
/* Wait until every multicast of this rank is acknowledged by all members. */
void mpi_net_mcast_drain(void);
/* Until every packet queued for the NIC has been handed to it. */
void mpi_net_flush(void);
/* NICVM (mpi_nicvm.c): the answer to a message to a module, and
 * Finalize's wait for every such answer. */
void mpi_nicvm_event(const struct nc_event *ev);
void mpi_nicvm_drain(void);
void mpi_match_dump(void);

/* Matching (mpi_match.c): called by mpi_net.c for each packet in arrival order. */
void mpi_match_packet(int src_world, const struct mpi_hdr *h, const uint8_t *payload, size_t len);
/* Look for an unexpected message matching (src, tag, ctx); fills st. */
bool mpi_match_probe(int src, int tag, uint32_t ctx, MPI_Status *st);
/* A matched probe: the first unexpected message matching (src, tag, ctx)
 * leaves the queue (NULL: none), its status in st; deliver gives it to
 * the receive r and frees it. */
struct unexp;
struct unexp *mpi_match_take(int src, int tag, uint32_t ctx, MPI_Status *st);
void mpi_match_deliver(MPI_Request r, struct unexp *msg);
/* The checks of a point-to-point call's arguments (recv: a source may
 * be MPI_ANY_SOURCE, a tag MPI_ANY_TAG), errors reported on comm. */
int mpi_p2p_check(MPI_Comm comm, int count, MPI_Datatype t, int peer, int tag, bool recv,
                  const char *fn);
/* The status of a probe of MPI_PROC_NULL (its MPI_ERROR left as it was). */
void mpi_status_proc_null(MPI_Status *status);
/* A receive on comm of the matched message msg (from rank src), started
 * (mpi_p2p.c); msg NULL with src MPI_PROC_NULL: complete at once. */
MPI_Request mpi_irecv_message(void *buf, int count, MPI_Datatype t, MPI_Comm comm, int src,
                              struct unexp *msg);
/* MPI_Message: a matched message and its communicator (mpi_mprobe.c). */
struct mpi_message_s { MPI_Comm comm; int src; struct unexp *msg; };
/* A posted receive leaves the queue (MPI_Cancel): true if it was there. */
bool mpi_match_cancel(MPI_Request r);
/* Send the rendezvous data of r (CTS arrived). */
void mpi_send_rndv_data(MPI_Request r);

/* ---- collectives ------------------------------------------------------------------ */
int mpi_barrier_nic(MPI_Comm comm);
/* This rank's part of a NIC-based reduction (mpi_net.c): a request made
 * of one NIC reduction or more (an exact one longer than NC_RED_XMAX goes
 * in pieces). mpi_nicred_request makes it; each mpi_ireduce_nic starts a
 * piece, whose result lands at out; mpi_nicred_started says the pieces are
 * all started. It completes when they and the NIC are done,
 * req->nc_status the first failure. At most MPI_NIC_RED_OUT pieces in
 * flight: a start beyond waits for the oldest. An nc_strerror code. */
#define MPI_NIC_RED_OUT 2       /* the NIC keeps 2 of its 8 slots for posted reductions
                                   whatever early packets hold, and has 2 areas for exact
                                   ones (firmware/coll/reduce.c) */
MPI_Request mpi_nicred_request(MPI_Comm c);
int mpi_ireduce_nic(const nc_reduce *r, const void *data, void *out, MPI_Request q);
void mpi_nicred_started(MPI_Request q);
/* The NIC broadcast's groups (coll_bcast_nic_groups.c): a member's share
 * of a multicast, from mpi_net.c's event loop. */
void mpi_bcast_nic_arrived(uint32_t group, const uint8_t *data, size_t len);
/* The pieces the broadcast on the NIC is made of (coll_bcast_nic.c), none
 * of which waits for another rank. The state of (c, root)'s group for a
 * broadcast of bytes: 1 on the NIC (*group set), -1 on the host, 0 not
 * agreed yet; then offer (this rank's entry written: 1, or not: 0) and
 * agreed (all: the MIN of every member's offer) settle it; 2 while an
 * earlier MPI_Ibcast's agreement is under way here, and decision gives a
 * request complete once it is settled. irecv: a request complete once
 * the group's next bytes are at dst; isend: the root's multicasts, owner
 * complete once they are in staging slots. */
int mpi_bcast_nic_state(MPI_Comm c, int root, size_t bytes, uint32_t *group);
int mpi_bcast_nic_offer(MPI_Comm c, int root, size_t bytes);
void mpi_bcast_nic_agreed(MPI_Comm c, int root, size_t bytes, int mine, int all);
MPI_Request mpi_bcast_nic_decision(MPI_Comm c, int root, size_t bytes);
MPI_Request mpi_bcast_nic_irecv(uint32_t group, void *dst, size_t bytes);
void mpi_bcast_nic_isend(uint32_t group, const void *data, size_t bytes, MPI_Request owner);
/* Drop c's broadcast groups (collective: MPI_Comm_free). */
void mpi_bcast_nic_release(MPI_Comm c);
/* Communicators on switch multicast (comm_swmc.c; MPI_NC_COMM): c's group
 * set up (collective over c, from every blocking constructor and
 * MPI_Init), given back (collective: MPI_Comm_free) and every one left
 * (MPI_Finalize); what mpi_net.c's event loop hands over: a group packet,
 * a PKT_SWMC packet and the entity's answers. */
enum mpi_comm_mode { COMM_P2P, COMM_BASIC, COMM_LAZY, COMM_POOL };
void mpi_swmc_setup(MPI_Comm c);
void mpi_swmc_release(MPI_Comm c);
void mpi_swmc_finalize(void);
void mpi_swmc_progress(void);
void mpi_swmc_arrived(unsigned node, uint32_t group, const uint8_t *data, size_t len);
void mpi_swmc_control(int src_world, const struct mpi_hdr *h, const uint8_t *payload,
                      size_t len);
void mpi_swmc_mg_event(const struct nc_event *ev);
/* One group packet: hlen bytes of head, then len of data, to every other
 * member of switch group `group`, queued in order with the packets before
 * it; owner as for mpi_net_send. */
void mpi_net_gsend(uint32_t group, const void *head, size_t hlen, const void *data, size_t len,
                   MPI_Request owner);
void mpi_nbc_progress(void);
/* Progress until c has no non-blocking collective left (coll_sched.c). */
void coll_sched_finish_comm(MPI_Comm c);
void mpi_op_apply(MPI_Op op, const void *in, void *inout, size_t count, MPI_Datatype t);
struct mpi_op_s { MPI_User_function *user; int commute; int which; bool predefined; int refs; };

/* ---- reference counts (MPI 3.1 section 2.5.1: freeing an object marks it
 * for deallocation, and an operation pending on it completes as if it had
 * not been freed). A user-defined object counts its handle (refs = 1 when
 * made, dropped by its MPI_*_free) and a hold of every operation that will
 * use it later: a non-blocking collective's schedule (its communicator, its
 * ops and datatypes), a point-to-point request (its datatype and
 * communicator). The last drop frees it. Predefined objects are never
 * freed and are not counted. Groups count theirs in mpi_group_s. */
void mpi_type_hold(MPI_Datatype t);
void mpi_type_drop(MPI_Datatype t);
void mpi_op_hold(MPI_Op op);
void mpi_op_drop(MPI_Op op);
void mpi_comm_hold(MPI_Comm c);
void mpi_comm_drop(MPI_Comm c);

/* ---- attributes (mpi_attr.c): an object's cached (keyval, value) pairs.
 * Copied by MPI_Comm_dup/MPI_Type_dup through each keyval's copy function,
 * deleted (delete functions called) by MPI_Comm_free/MPI_Type_free and,
 * for MPI_COMM_SELF, first thing in MPI_Finalize. 0 or the error of a
 * callback that failed. */
struct mpi_attr { int keyval; void *val; struct mpi_attr *next; };
int mpi_attr_copy_comm(MPI_Comm old, MPI_Comm c);
int mpi_attr_delete_comm(MPI_Comm c);
int mpi_attr_copy_type(MPI_Datatype old, MPI_Datatype t);
int mpi_attr_delete_type(MPI_Datatype t);
/* the constructor of t and its arguments (mpi_type_contents.c) */
void mpi_type_record(MPI_Datatype t, int combiner, int ni, const int *ints, int na,
                     const MPI_Aint *addrs, int nt, const MPI_Datatype *types);
void mpi_type_contents_free(MPI_Datatype t);

/* ---- host runtime ----------------------------------------------------------------- */
void mpi_stdio_flush(void);
/* MPI_NC_COMPUTE (mpi_compute.c): the rank's own CPU time charged to its clock */
void mpi_compute_init(void);
void mpi_compute_charge(void);
void mpi_compute_mark(void);

#endif
