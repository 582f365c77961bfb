/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libnicoll: reliable, ordered, protected messaging through a LANai 9 NIC
 * running the nicoll MCP (docs/libnicoll.md).
 *
 * A process opens one of the NIC's 8 ports, allocates DMA-able memory
 * (nc_alloc), registers what the NIC may touch (nc_register), provides
 * receive buffers and sends messages; every send and every receive buffer
 * comes back as exactly one event (nc_poll, nc_wait). Messages between two
 * ports arrive in order, exactly once, whatever the network loses.
 *
 * Backends: 'emu' (a host program in the emulated cluster, over hostif.h)
 * and 'pci' (a real board through its BAR; see nc_open_pci).
 */
#ifndef NICOLL_H
#define NICOLL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum nc_error {
    NC_OK = 0,
    NC_EINVAL = -1,       /* bad argument */
    NC_ENOMEM = -2,       /* no DMA-able memory left */
    NC_EBUSY = -3,        /* the port is open already */
    NC_ENODEV = -4,       /* no nicoll MCP on the board (or it does not answer) */
    NC_EAGAIN = -5,       /* no send or receive token free: wait for events */
    NC_ETIMEDOUT = -6,    /* nc_wait's timeout passed; as an event's status: the send
                             time-out (nc_set_send_timeout) */
    NC_EFAULT = -7,       /* memory not registered with this port (or not DMA-able) */
    NC_EPORTCLOSED = -8,  /* the destination port was closed or reopened */
    NC_ENOROUTE = -9,     /* no route to the destination node */
    NC_ENORES = -10,      /* the NIC ran out of resources */
    NC_ECLOSED = -11,     /* the operation was cancelled by nc_close */
    NC_ENOREGION = -12,   /* every registration slot of the port is used */
    NC_EPERM = -13,       /* a multicast group (a NICVM module) owned by another port of the NIC */
    NC_ENOTSUP = -14,     /* not supported by this backend (host signals on a real board) */
    NC_EREJECTED = -15,   /* NICVM: the module did not compile, or the NIC's verifier rejected it */
};
const char *nc_strerror(int err);

enum nc_event_type { NC_EVENT_SENT = 1, NC_EVENT_RECV = 2, NC_EVENT_ERROR = 3,
                     NC_EVENT_BARRIER = 4 /* a NIC-based barrier completed */,
                     NC_EVENT_NICVM = 5 /* a NICVM send or delegation completed (nc_nicvm_send) */,
                     NC_EVENT_MG = 6 /* the management entity's answer (nc_mg_create, ...) */,
                     NC_EVENT_REDUCE = 7 /* this member's part of a NIC-based reduction is done */ };

typedef struct nc_event {
    enum nc_event_type type;
    int status;           /* NC_OK or a negative enum nc_error */
    void *ctx;            /* what the send or nc_provide_recv was given */
    void *buf;            /* the buffer of the send or receive */
    size_t len;           /* bytes sent or received */
    unsigned node, port;  /* peer: destination of a send, source of a receive */
    uint32_t group;       /* a multicast's group id (RECV at a member, SENT at the
                             root); 0 for ordinary messages (docs/multicast.md); a switch
                             group's (swgroup set, NC_EVENT_MG) */
    /* switch multicast (nc_mg_*, nc_gsend; docs/libnicoll.md "Switch multicast") */
    bool swgroup;         /* RECV: a switch group's packet (nc_gsend), group its id */
    uint32_t tid;         /* NC_EVENT_MG: the request's transaction id */
    unsigned mg_op;       /* NC_EVENT_MG: NC_MG_CREATE, NC_MG_JOIN, NC_MG_LEAVE, NC_MG_STATS */
    unsigned mg_status;   /* NC_EVENT_MG: the entity's answer, NC_MG_OK or an NC_MG_* error
                             (include/nicoll/nc_mgmt.h); meaningful when status is NC_OK */
} nc_event;

typedef struct nc_port nc_port;
struct nc_backend;

/* Switch multicast (docs/libnicoll.md "Switch multicast"; the fabric's
 * groups and management entity: docs/fabric.md). Requests to the entity on
 * node sm_node: each posts one datagram and returns; the answer comes as
 * an NC_EVENT_MG event (nc_poll, nc_wait) with tid, mg_op, group and
 * mg_status (the entity's NC_MG_*; status NC_OK, or the NIC's refusal of
 * the request itself: NC_EINVAL, NC_ENOROUTE, NC_ENORES). An answer
 * means the entity took the request (or why not), never that the switches
 * are set: only a multicast test can tell (nc_gsend until every member
 * answered). Requests and answers may be lost: no answer in the caller's
 * time means ask again (the entity answers a repeated JOIN NC_MG_EEXIST).
 * At most NC_ABI_GRP_REQS requests of a port await answers; a further one
 * takes the place of the oldest, whose answer is then dropped. */
#define NC_MG_CREATE 1u   /* = nc_abi.h NC_GRP_OP_CREATE */
#define NC_MG_JOIN   2u
#define NC_MG_LEAVE  3u
#define NC_MG_STATS  5u
int nc_mg_create(nc_port *p, unsigned sm_node, uint32_t tid);
int nc_mg_join(nc_port *p, unsigned sm_node, uint32_t group, unsigned node, uint32_t tid);
int nc_mg_leave(nc_port *p, unsigned sm_node, uint32_t group, unsigned node, uint32_t tid);
/* The NIC's counters as an NC_EVENT_MG (mg_op NC_MG_STATS): len the group
 * packets dropped for want of a receive buffer, node the malformed ones,
 * group the answers no request awaited. */
int nc_mg_stats(nc_port *p, uint32_t tid);
/* One packet of len <= NC_ABI_GRP_MAX bytes of registered memory to every
 * other member of switch group `group`, to port `port` there; unreliable:
 * a receiver without a receive buffer that holds it drops it. One send
 * token; NC_EVENT_SENT (group set) once the packet left the NIC. A
 * receiver gets it through nc_provide_recv's buffers as an NC_EVENT_RECV
 * with swgroup set, group, node and port the sender's. */
int nc_gsend(nc_port *p, uint32_t group, unsigned port, const void *buf, size_t len, void *ctx);

#define NC_PORTS 8

/* Open port 'port' (0..7) of this host's NIC (the emu backend). */
int nc_open(nc_port **out, unsigned port);
/* The same over any backend (nc_backend.h). */
int nc_open_backend(nc_port **out, struct nc_backend *be, unsigned port);
/* A real board: 'bar' is its sysfs resource file (or a fake-BAR file);
 * DMA memory comes from 'dma_arena' bytes of memory whose bus addresses
 * start at 'bus_base' (docs/libnicoll.md: what a real setup must provide). */
int nc_open_pci(nc_port **out, const char *bar, unsigned port, size_t dma_arena,
                uint64_t bus_base);
/* A real board through VFIO: 'bdf' its PCI address ("0000:03:00.0") or NULL
 * for the first LANai 9 (14c1:8043); 'dma_arena' bytes that the IOMMU maps
 * at bus addresses from 'iova'; interrupts through an eventfd
 * (docs/libnicoll.md, "VFIO": untested without a board). */
int nc_open_vfio(nc_port **out, const char *bdf, unsigned port, size_t dma_arena,
                 uint64_t iova);
/* Close: pending sends and receive buffers are cancelled (no events). */
int nc_close(nc_port *p);
/* Have nc_close(p) call fn(p, arg) once the port is closed, before its
 * memory is freed (for state a library keeps per port: a port reopened
 * later may get the same address). fn must not use p other than as a key.
 * At most NC_CLOSE_HOOKS per port; called last registered first.
 * NC_OK, NC_EINVAL, or NC_ENORES when the port has no hook free. */
#define NC_CLOSE_HOOKS 4
int nc_on_close(nc_port *p, void (*fn)(nc_port *p, void *arg), void *arg);

unsigned nc_node_id(const nc_port *p);
unsigned nc_port_id(const nc_port *p);     /* the port number it was opened with */
unsigned nc_node_count(const nc_port *p);

/* DMA-able memory (not registered yet); lives as long as the process. */
void *nc_alloc(nc_port *p, size_t len);
/* The NIC may move data to and from [buf, buf+len) for this port only. */
int nc_register(nc_port *p, void *buf, size_t len);
int nc_deregister(nc_port *p, void *buf);

/* Give the NIC a buffer for one incoming message of at most len bytes. */
int nc_provide_recv(nc_port *p, void *buf, size_t len, void *ctx);
/* Send len bytes to (node, port); completes with an NC_EVENT_SENT event.
 * buf must be registered (NC_EFAULT). A message of at most the port's
 * inline limit is written to the NIC by PIO at once (the NIC reads no host
 * memory for it); a longer one is fetched by the NIC's DMA, and its buffer
 * must stay unchanged until the SENT event. */
int nc_send(nc_port *p, unsigned node, unsigned port, const void *buf, size_t len, void *ctx);
/* The port's inline limit, bytes: 0 (every send by DMA) .. NC_INLINE_MAX,
 * the default (docs/libnicoll.md "Inline sends"). NC_EINVAL beyond. */
#define NC_INLINE_MAX 128u
int nc_set_inline_max(nc_port *p, size_t bytes);

/* Post a command of a collective that the MCP image holds beside the
 * built-in ones (docs/architecture.md, "The MCP core as a plug-in host"):
 * the 8 words of a command slot, its opcode in w[0]. The memory it names
 * must be registered (the NIC checks). NC_EINVAL for an opcode of the
 * built-in commands, which only their own calls post; an opcode no
 * collective of the image takes comes back as an NC_EVENT_ERROR event. */
int nc_command(nc_port *p, const uint32_t w[8]);
/* The NIC's (bus) address of len bytes at buf, for the words of such a
 * command: NC_EFAULT unless they lie in a region registered with p. */
int nc_bus_address(nc_port *p, const void *buf, size_t len, uint64_t *bus);

/* The send time-out of this port's messages (docs/libnicoll.md, "Send
 * time-outs"): a message that the destination does not acknowledge for
 * timeout_us microseconds (no receive buffer given there, the node's NIC
 * dead or cut off) completes with status NC_ETIMEDOUT, and so do the
 * messages queued behind it from this port to the same (node, port); the
 * message was not delivered and never will be, and later messages to that
 * destination go through once it takes them again. Counted from when the
 * connection to the node last made progress; the NIC checks it once per
 * retransmission period (50 us on a 133 MHz LANai), so it fires up to two
 * periods late. 0: the default, NC_SEND_TIMEOUT_DEFAULT_US (1 s); at most
 * NC_SEND_TIMEOUT_MAX_US, else NC_EINVAL. Applies from the next check on,
 * to messages already queued too; every open starts with the default. */
#define NC_SEND_TIMEOUT_DEFAULT_US 1000000u
#define NC_SEND_TIMEOUT_MAX_US     1000000000u
int nc_set_send_timeout(nc_port *p, uint32_t timeout_us);

/* 1 and *ev filled if an event is there, 0 if not. */
int nc_poll(nc_port *p, nc_event *ev);
/* Wait for the next event (interrupt-driven), at most timeout_ns (0: for
 * ever). NC_OK, or NC_ETIMEDOUT. */
int nc_wait(nc_port *p, nc_event *ev, uint64_t timeout_ns);

/* Tokens the process holds now (sends it may post, buffers it may give). */
unsigned nc_send_tokens(const nc_port *p);
unsigned nc_recv_tokens(const nc_port *p);

/* ---- Host signals (seed 004 section 3.4.1; docs/libnicoll.md) ------------ */

/* A message sent with nc_signal_send arrives as an ordinary RECV event;
 * while its port has signals on, its arrival also runs the port's handler,
 * as a signal handler (on the emulated host: pre-empting the program, at
 * the profile's host.signal cost). The handler takes what it wants with
 * nc_poll. One packet: len <= NC_SIGNAL_MAX. */
#define NC_SIGNAL_MAX 4096u
typedef void (*nc_signal_fn)(nc_port *p, void *arg);
int nc_signal_handler(nc_port *p, nc_signal_fn fn, void *arg);
/* Signals on: returns once the NIC has taken it, every event it posted
 * before then in the ring (poll once more after it: those raised none). */
int nc_signal_enable(nc_port *p);
int nc_signal_disable(nc_port *p);
bool nc_signal_on(const nc_port *p);
/* Signals the NIC raised for the port (as its last signal word says). */
unsigned long nc_signal_count(const nc_port *p);
int nc_signal_send(nc_port *p, unsigned node, unsigned port, const void *buf, size_t len,
                   void *ctx);

/* ---- Barriers (seed 002; docs/barrier.md) --------------------------------
 * A barrier is among n members, each a (node, port). Every member computes
 * its own part on the host with ref/tree (nc_barrier_pe, nc_barrier_gb) and
 * hands it either to the NIC (nc_barrier_start: the NIC exchanges the
 * messages, the host sees only the completion event) or to the host-based
 * baseline (nc_hbarrier.h: the same description over ordinary messages). */
enum nc_barrier_algo { NC_BARRIER_PE = 1, NC_BARRIER_GB = 2 };

#define NC_BARRIER_MAX_STEPS    12u  /* NC_PE_MAX_STEPS of ref/tree/nc_sched.h */
#define NC_BARRIER_MAX_CHILDREN 63u  /* a GB star over 64 members */
#define NC_BARRIER_MAX_MEMBERS  1024u

/* Step operations: the values of ref/tree's NC_PE_EXCHANGE, _SEND, _RECV. */
enum nc_barrier_op { NC_BAR_OP_EXCHANGE = 0, NC_BAR_OP_SEND = 1, NC_BAR_OP_RECV = 2 };

typedef struct nc_member { uint16_t node; uint8_t port; } nc_member;

typedef struct nc_barrier {
    enum nc_barrier_algo algo;
    /* PE: this member's steps in order (ref/tree nc_pe_schedule) */
    unsigned nsteps;
    struct { nc_member peer; uint8_t op; } step[NC_BARRIER_MAX_STEPS];
    /* GB: the parent (none at the root) and the children (ref/tree nc_gb_tree) */
    bool has_parent;
    nc_member parent;
    unsigned nchildren;
    nc_member child[NC_BARRIER_MAX_CHILDREN];
} nc_barrier;

/* This member's part of a PE barrier among members[0 .. n-1] (distinct
 * pairs, the same list in the same order on every member); the caller is
 * members[me]. NC_OK or NC_EINVAL. */
int nc_barrier_pe(nc_barrier *b, const nc_member *members, unsigned n, unsigned me);
/* The same for a GB barrier on the d-ary tree of dimension dim (1 .. n-1;
 * members[0] is the root). NC_EINVAL also when this member would have more
 * than NC_BARRIER_MAX_CHILDREN children. */
int nc_barrier_gb(nc_barrier *b, const nc_member *members, unsigned n, unsigned me,
                  unsigned dim);

/* The messages of a member's part, in the order it exchanges them: the one
 * expansion of an nc_barrier that both the NIC's step list (nicoll.c) and
 * the host-based barrier (nc_hbarrier.c) follow.
 *   PE: its steps as they are (op EXCHANGE: send, then receive; SEND; RECV);
 *   GB: receive GATHER from each child, send GATHER to the parent, receive
 *       BCAST from the parent, send BCAST to each child (the root has no
 *       parent steps).
 * The phase names the kind of message (the NIC sends one packet type per
 * phase; the host sends ordinary empty messages). */
enum nc_barrier_phase { NC_BAR_PHASE_PE = 0, NC_BAR_PHASE_GATHER = 1, NC_BAR_PHASE_BCAST = 2 };

typedef struct nc_barrier_step {
    uint8_t op;           /* enum nc_barrier_op */
    uint8_t phase;        /* enum nc_barrier_phase */
    nc_member peer;
} nc_barrier_step;

/* At most this many steps: GB with NC_BARRIER_MAX_CHILDREN children. */
#define NC_BARRIER_MAX_EXPANDED (2u * NC_BARRIER_MAX_CHILDREN + 2u)

/* b's steps into s[0 .. NC_BARRIER_MAX_EXPANDED-1]: their count (0 for a
 * barrier of one member), or NC_EINVAL when b is not a valid description
 * (algorithm, step or child count, op). Members are not checked against a
 * cluster: the NIC encoder and the host's sends do that. */
int nc_barrier_expand(const nc_barrier *b, nc_barrier_step *s);

/* NIC-based barrier, split-phase: hand b to the NIC and return at once;
 * the NIC runs it without the host and posts one NC_EVENT_BARRIER event
 * (ctx, status NC_OK or an error) to this port. One barrier at a time per
 * port (NC_EBUSY while one runs). Meanwhile the process may compute, send
 * and receive (a fuzzy barrier). */
int nc_barrier_start(nc_port *p, const nc_barrier *b, void *ctx);
/* Start and wait for the completion, by polling, at most timeout_ns (0: for
 * ever): the barrier's status (NC_OK or its error), an error of
 * nc_barrier_start, or
 *   NC_ETIMEDOUT  the completion did not come in time (a member that never
 *                 arrives, a NIC that stopped);
 *   NC_EAGAIN     more events wait for the caller than the event ring holds
 *                 (only ERROR events of refused commands, never polled, can
 *                 get there: every other event holds a token);
 * in both the barrier stays started: its NC_EVENT_BARRIER event (ctx NULL)
 * comes through nc_poll / nc_wait, and nc_barrier_start answers NC_EBUSY
 * until then; nc_close aborts it. Other events that arrive meanwhile stay
 * queued for nc_poll / nc_wait, each keeping its send or receive token
 * until the caller gets it. */
int nc_barrier_wait_for(nc_port *p, const nc_barrier *b, uint64_t timeout_ns);
/* nc_barrier_wait_for without a deadline: a NIC that never completes the
 * barrier keeps the caller polling for ever. */
int nc_barrier_wait(nc_port *p, const nc_barrier *b);
/* The NIC's barrier counters of this port since it was opened (tests and
 * docs/barrier.md): messages that came before their step (kept in the
 * unexpected record), messages sent again after a reject, held messages
 * rejected when the port opened. One PIO read. */
enum nc_barrier_counter { NC_BARRIER_UNEXPECTED = 0, NC_BARRIER_RESENT = 1,
                          NC_BARRIER_REJECTED = 2 };
unsigned nc_barrier_counter(const nc_port *p, enum nc_barrier_counter which);

/* ---- NIC-based reduction (docs/reduction.md "NIC-based reduction") --------
 * Every member of a tree starts its part with the same instance, op, type,
 * count and all; its NIC combines its children's contributions with its
 * own, in the order of children[], and sends the partial result to its
 * parent, packet by packet. One NC_EVENT_REDUCE (ctx) per start, once this
 * NIC's part is done: at the root, and at every member when all is set,
 * buf then holds the result (len bytes, the host's order), valid until the
 * port's next nc_reduce_start; elsewhere buf is NULL. Floating point is
 * ordered: each combine is one IEEE-754 operation, child (op) running
 * result with the child's value as the first operand, as libmpi's
 * binomial reduction computes. With exact set (a sum of NC_RED_F32 or
 * NC_RED_F64, count <= NC_RED_XMAX, the same at every member) the sum is
 * exact instead: the NICs add into exact accumulators (ref/red/nc_xacc.h)
 * and the root rounds once, so the result is the correctly rounded sum,
 * the same bits whatever the tree. At most NC_REDUCE_INFLIGHT in flight
 * per port (NC_EAGAIN beyond); instances unique among them. */
#define NC_REDUCE_INFLIGHT 8u
typedef struct nc_reduce {
    uint32_t instance;
    unsigned op, type;          /* enum nc_red_op, enum nc_red_type (ref/red/nc_red.h) */
    size_t count;               /* elements: count x size <= NC_RED_DATA_MAX */
    bool all;                   /* an allreduce: every member gets the result */
    bool exact;                 /* NC_RED_EXACT: the correctly rounded sum */
    bool root;                  /* no parent */
    nc_member parent;
    unsigned nchildren;         /* <= NC_RED_CHILDREN */
    nc_member children[16];
} nc_reduce;
int nc_reduce_start(nc_port *p, const nc_reduce *r, const void *data, void *ctx);

/* ---- NIC multicast (seed 000; docs/multicast.md) ----------------------------
 * A group is a tree of members, each a (node, port), whose table entries the
 * host writes into every member's NIC before the first multicast. This
 * slice has the one-level tree: multisend, the root sends every packet to
 * each destination from its NIC. Group ids are the caller's (not 0; the
 * same on every member; unique among the groups of the NICs involved).
 * Every member calls nc_group_multisend with the same arguments; its NIC
 * then takes part as the root or as a destination. A port may use and
 * change only the groups it created: another port's id is refused
 * (NC_EPERM, as an NC_EVENT_ERROR event, or the multicast's SENT status).
 * The group goes when the port closes. */
#define NC_GROUP_MAX_DESTS 32u
int nc_group_multisend(nc_port *p, uint32_t group, nc_member root, const nc_member *dests,
                       unsigned n);
/* Trees (host/lib/nc_group.c; docs/multicast.md "Trees"). Every kind is
 * built on the ID order of seed 000 section 5.4 (the root first, then the
 * other members by increasing (node, port)) unless spec.order names another:
 * a child's id is greater than its parent's unless the parent is the root,
 * so concurrent multicasts from different roots cannot deadlock on receive
 * tokens.
 *   NC_TREE_POSTAL     latency-optimal (Bar-Noy/Kipnis) for the ratio lambda
 *                      (1 .. 64); lambda 0: from the profile's postal table
 *                      for messages of 'size' bytes (nc_postal_lambda;
 *                      NC_EINVAL when there is no valid table)
 *   NC_TREE_BINOMIAL   binomial (ref/tree nc_binomial_tree)
 *   NC_TREE_KBINOMIAL  k-binomial, k >= 1 (seed 001; k large: binomial); k 0:
 *                      nc_group_optimal_k's for n, size and pkt_size
 *   NC_TREE_FLAT       every member a child of the root (multisend)
 *   NC_TREE_LIST       parent[i]: the index of member i's parent, -1 for the
 *                      root; refused (NC_EINVAL) unless it is a tree that
 *                      keeps the ID-ordered rule
 *   NC_TREE_LIST_UNORDERED  the same without the ID-ordered rule: only for
 *                      showing the deadlock it prevents (tests/mcast)
 * A member may have at most NC_GROUP_MAX_CHILDREN children (NC_EINVAL). */
typedef enum nc_tree_kind { NC_TREE_POSTAL, NC_TREE_BINOMIAL, NC_TREE_KBINOMIAL,
                            NC_TREE_FLAT, NC_TREE_LIST, NC_TREE_LIST_UNORDERED } nc_tree_kind;
typedef struct nc_tree_spec {
    nc_tree_kind kind;
    unsigned k;          /* NC_TREE_KBINOMIAL: k >= 1 */
    unsigned lambda;     /* NC_TREE_POSTAL: the fan-out ratio; 0 = derived from the profile */
    const int *parent;   /* NC_TREE_LIST: parent index per member, -1 for the root */
    size_t size;         /* NC_TREE_POSTAL, lambda 0: the message size the tree is
                            for (its size class in the postal table); NC_TREE_KBINOMIAL,
                            k 0: the message size whose packets pick k */
    const unsigned *order; /* NULL: the ID order. Else the order the tree is built on
                            (NC_TREE_BINOMIAL, _KBINOMIAL, _POSTAL): order[0 .. n-1]
                            a permutation of the member indices, order[0] == root
                            (e.g. seed 001's CCO, docs/irregular.md). A tree that breaks
                            the ID-ordered rule is safe for one multicast at a time
                            on its NICs only (docs/multicast.md "Trees") */
    unsigned pkt_size;   /* the group's packet payload bytes: 0 = the firmware's MTU
                            (4 KB); else a power of two, 8 .. 4096 (seed 001 uses 64) */
    unsigned fpfs;       /* 1: strict FPFS at inner members, packet i to every child
                            before packet i+1 to any (a lone pipelined multicast of
                            small packets gains; concurrent roots sharing NICs lose:
                            docs/multicast.md "Forwarding at inner members") */
} nc_tree_spec;
/* Seed 001 Theorem 3's k for a group of n members (root included) and a
 * message of size bytes cut into packets of pkt_size (0: the MTU; an empty
 * message is one packet): the k-binomial tree of least L1 + (m-1)k steps.
 * NC_OK with *k, *packets; NC_EINVAL for n outside 2 .. NC_GROUP_MAX_MEMBERS
 * or a bad pkt_size. NC_TREE_KBINOMIAL with k 0 uses it. */
int nc_group_optimal_k(unsigned n, size_t size, unsigned pkt_size, unsigned *k,
                       unsigned *packets);
/* The postal lambda for messages of len bytes on this host's platform:
 * from the table measured once per profile (PROFILE.postal beside the
 * profile file, made by `make postal-table PROFILE=...`; docs/multicast.md),
 * the row of the smallest size class >= len (the largest beyond it).
 * NC_OK, or NC_EINVAL with the reason in why (no profile, no table, a bad
 * row: file and line named). nc_postal_lambda_from reads a given table. */
int nc_postal_lambda(size_t len, unsigned *lambda, char *why, size_t whylen);
int nc_postal_lambda_from(const char *table, size_t len, unsigned *lambda, char *why,
                          size_t whylen);
#define NC_GROUP_MAX_MEMBERS  1024u
#define NC_GROUP_MAX_CHILDREN 32u
/* Every member calls it with the same arguments; members[root] is the
 * root. Members distinct, 2 .. NC_GROUP_MAX_MEMBERS of them; the caller
 * must be one (else NC_EINVAL). Writes this member's parent and children
 * into its NIC; the group may be used once every member has done so (as
 * with nc_group_multisend). Called again for a group that exists (new
 * members or tree; at the root after its last NC_EVENT_SENT, else
 * NC_EBUSY), it sets a new instance of it: packets and ACKs of an earlier
 * instance are not taken (docs/multicast.md "Setting a group again"). */
int nc_group_create(nc_port *p, uint32_t group, const nc_member *members, unsigned n,
                    unsigned root, const nc_tree_spec *tree);
/* The tree nc_group_create builds, without a NIC: parent[i] = the index of
 * member i's parent, -1 for the root. NC_OK, NC_EINVAL, NC_ENOMEM. */
int nc_group_tree(const nc_member *members, unsigned n, unsigned root,
                  const nc_tree_spec *tree, int *parent);
/* Drop this NIC's entry of the group (NC_EBUSY as an error event while
 * a multicast of it is under way). */
int nc_group_destroy(nc_port *p, uint32_t group);
/* From the root: len bytes (0..NC_ABI_MAX_MSG) to every destination, each
 * of which receives it in an ordinary receive buffer (nc_provide_recv) as
 * an NC_EVENT_RECV whose group is this one, in the order of the root's
 * multicasts of the group. One send token; its NC_EVENT_SENT (group set)
 * comes when every destination has acknowledged all of it, and the buffer
 * may be reused then. */
int nc_mcast(nc_port *p, uint32_t group, const void *buf, size_t len, void *ctx);

/* ---- Host-based multicast baselines (seed 000 section 7.1; docs/bench-r1r2.md)
 * What the NIC multicast is measured against, over ordinary messages
 * (nc_send, nc_provide_recv): multiple unicasts from the root (R1's
 * baseline of the NIC multisend) and the binomial-tree broadcast MPICH
 * does (R2's), with the NIC path's "done": a send is done when the
 * destination's NIC has acknowledged it (its NC_EVENT_SENT).
 *
 * An nc_hmc context owns the port's receive buffers (nbufs of maxlen
 * bytes, allocated, registered and posted by nc_hmc_init) and every event
 * of the port: the port must carry only the context's traffic. Messages
 * arrive into those buffers and wait, in arrival order, until the caller
 * asks for a message from their source (nc_hmc_recv); the caller gives
 * each buffer back (nc_hmc_release) once done with it. A message is
 * forwarded straight from its receive buffer, as a GM program forwards
 * from its receive buffer: no copy. Waiting is by busy polling (as GM
 * programs and the paper's tests do), at most timeout_ns per event. */
typedef struct nc_hmc {
    nc_port *p;
    size_t maxlen;          /* every receive buffer's size */
    unsigned nbufs;
    unsigned sends;         /* the context's sends not yet done */
    unsigned nheld;         /* received messages not taken yet */
    nc_event *held;         /* [nbufs], oldest first */
    uint64_t timeout_ns;    /* per event waited for; 0 = for ever */
} nc_hmc;

/* Set h up on an open port: nbufs (1..32) receive buffers of maxlen bytes
 * (0 .. NC_ABI_MAX_MSG) allocated with nc_alloc, registered and posted.
 * NC_OK, NC_EINVAL, NC_ENOMEM, or a libnicoll error. */
int nc_hmc_init(nc_hmc *h, nc_port *p, unsigned nbufs, size_t maxlen);
/* Forget h (its buffers stay with the port until nc_close). */
void nc_hmc_fini(nc_hmc *h);
/* Post one message (buf registered with the port); returns once posted. */
int nc_hmc_send(nc_hmc *h, nc_member to, const void *buf, size_t len);
/* Post one NIC multicast of a group this port is the root of (nc_mcast),
 * counted as one of the context's sends: so both paths can be timed by
 * the same loop. */
int nc_hmc_mcast(nc_hmc *h, uint32_t group, const void *buf, size_t len);
/* Wait until every send of the context is done (acknowledged). */
int nc_hmc_flush(nc_hmc *h);
/* The oldest message from 'from' (an ordinary message or a multicast whose
 * root it is) into *ev: ev->buf is one of h's buffers, ev->len its length.
 * Waits for it; messages from others that come meanwhile are kept. */
int nc_hmc_recv(nc_hmc *h, nc_member from, nc_event *ev);
/* Give a buffer nc_hmc_recv returned back to the NIC. */
int nc_hmc_release(nc_hmc *h, void *buf);

/* Multiple unicasts: len bytes of buf (registered) from this member to
 * each of dests[0 .. n-1] in turn, one nc_send each (the NIC fetches the
 * data once per destination); returns when every one is done, that is
 * when the last destination's NIC has acknowledged: buf may change then. */
int nc_hmultisend(nc_hmc *h, const nc_member *dests, unsigned n, const void *buf, size_t len);

/* The binomial tree of MPICH's broadcast among n members with root index
 * root, seen from member me: relative rank r = (me - root) mod n; the
 * parent is r minus its lowest set bit, the children r + 2^i for each 2^i
 * below that bit (every 2^i while below n at the root), largest first (the
 * order MPICH sends in). *parent is -1 at the root. The children's count
 * (0 at a leaf), or NC_EINVAL (n 0 or over NC_BARRIER_MAX_MEMBERS, root or
 * me not below n). child[] must hold 11 entries (log2 of 1024 + 1). */
#define NC_HBCAST_MAX_CHILDREN 11u
int nc_hbcast_tree(unsigned n, unsigned root, unsigned me, int *parent, unsigned *child);
/* Binomial broadcast (MPICH's MPIR_Bcast_binomial over GM-level messages):
 * every member calls it with the same members[0 .. n-1] and root index,
 * me being the caller's index. The root sends buf/len; any other member
 * waits for the message from its parent, which *got receives (got->buf is
 * one of h's buffers: nc_hmc_release it when done), and forwards it from
 * there to its children. Returns when this member's sends are done. */
int nc_hbcast(nc_hmc *h, const nc_member *members, unsigned n, unsigned root, unsigned me,
              const void *buf, size_t len, nc_event *got);

/* ---- NICVM: user modules on the NIC (seed 004 chapter 4; docs/nicvm.md) --
 * A module (the language of docs/nicvm.md) is compiled here, on the host,
 * and uploaded to this port's NIC, which verifies it (ref/nicvm's proved
 * verifier) against the port's budget and runs it on every NICVM packet
 * for it before the host sees the packet. It is one rank of a table of
 * size ranks, ranks[i] the (node, port) of rank i; ranks[rank] must be
 * this port. A module is named (at most NC_NICVM_NAME_MAX bytes), owned by
 * the port that added it (only it, or the NIC's privileged port 0, may
 * replace or purge it) and stays on the NIC after the port closes. */
#define NC_NICVM_NAME_MAX    8u
#define NC_NICVM_PAYLOAD_MAX 4056u   /* bytes of one NICVM message */

typedef struct nc_nicvm_verdict {
    /* accepted: the worst case per activation, as nicvm-check prints it */
    unsigned instructions, cycles, sends;
    /* NC_EREJECTED by the NIC: the verifier's reason (ref/nicvm nv_verify.h
     * NV_E_*), the instruction, the value; by the compiler: reason 0 */
    unsigned reason, pc, value;
    char error[160];      /* the first compile error, "line:column: message" */
} nc_nicvm_verdict;

/* Compile src[0 .. len-1], upload it, wait for the NIC's verdict (v may be
 * NULL). NC_OK; NC_EREJECTED (v says why); NC_EPERM (the name is another
 * port's module); NC_EINVAL; NC_ENORES (no module slot free). */
int nc_nicvm_add(nc_port *p, const char *name, const char *src, size_t len,
                 const nc_member *ranks, unsigned size, unsigned rank, nc_nicvm_verdict *v);
/* Upload an image as it is (include/nicoll/nc_abi.h struct nc_nv_image,
 * its words in host order): for tools and tests; the NIC checks it. */
int nc_nicvm_add_image(nc_port *p, const char *name, const uint32_t *words, size_t nwords,
                       nc_nicvm_verdict *v);
int nc_nicvm_purge(nc_port *p, const char *name);
/* Send len bytes (registered memory) as one NICVM packet to the module
 * `name` at rank `rank` of the local module of that name's table; or
 * delegate them to the local module (the loopback path: it runs on them
 * as if they had arrived). Each completes with one NC_EVENT_NICVM event
 * (ctx, status; len the module's sends acknowledged, node the ones that
 * failed, port the module's result for a delegation). The buffer is the
 * NIC's until then. */
int nc_nicvm_send(nc_port *p, const char *name, unsigned rank, const void *buf, size_t len,
                  void *ctx);
int nc_nicvm_delegate(nc_port *p, const char *name, const void *buf, size_t len, void *ctx);

typedef struct nc_nicvm_info {
    char name[NC_NICVM_NAME_MAX + 1];   /* "" : a free slot */
    unsigned owner, rank, size, bound;  /* bound: worst case, VM instructions */
    unsigned runs, stops, sends, senderr;
} nc_nicvm_info;
typedef struct nc_nicvm_counters {
    unsigned modules;       /* installed */
    unsigned malformed;     /* NICVM packets refused: malformed */
    unsigned nomodule;      /* ... naming no module of their port */
    unsigned source;        /* ... carrying a module (remote upload is refused) */
    unsigned badimage;      /* uploads refused: malformed image */
    unsigned rejected;      /* uploads refused by the verifier */
    unsigned undelivered;   /* packets for a closed port, dropped */
} nc_nicvm_counters;
/* The NIC's module slots (at most max into mods, *n of them) and counters. */
int nc_nicvm_list(nc_port *p, nc_nicvm_info *mods, unsigned max, unsigned *n,
                  nc_nicvm_counters *ctr);
/* From port 0 only: the budget (VM instructions per activation) that
 * modules uploaded from `port` must fit; 256 at start. */
int nc_nicvm_set_budget(nc_port *p, unsigned port, unsigned budget);

#endif
