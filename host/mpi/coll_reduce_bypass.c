/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Application-bypass MPI_Reduce (seed 004 sections 3.2-3.4; docs/reduction.md
 * "Application-bypass MPI_Reduce"): MPI_NC_REDUCE=bypass.
 *
 * The tree and the order of combination are coll_reduce_binomial.c's: at
 * relative rank vr the children are vr + 1, vr + 2, vr + 4, ... (below the
 * first set bit of vr, inside the communicator), the parent vr - lowbit(vr),
 * and the running result is acc = (((own (op) c1) (op) c2) (op) c4) ..., each
 * step mpi_op_apply(op, in = acc, inout = child's data) as the host's
 * coll_local does, so that the result is the host algorithm's bit for bit
 * (NaN payloads and min/max ties included: the operands keep their roles).
 *
 * The messages are signalling messages (nc_signal_send) on a port of their
 * own, BYPASS_PORT, which carries nothing else. An internal process of the
 * tree takes what has come (early contributions held in the queue, the
 * port's events), leaves a descriptor (ref/proto nc_abred: instance,
 * parent, children still owed) when a child has not sent yet, turns the
 * port's signals on and returns. The rest runs in the port's signal
 * handler: it combines the late contributions in child order and sends the
 * result to the parent. Leaves and the root are synchronous (the root waits
 * for its children, a leaf sends and returns).
 *
 * A dead member (its node's link down, its NIC dead: docs/reduction.md, "A
 * dead member") ends the reductions it takes part in with an MPI error,
 * never a wrong result or a hang: a send that the MCP fails after the send
 * time-out (a contribution, or a probe that a process waiting for a child
 * sends it every time-out) fails the descriptors concerned, and a failed
 * descriptor sends FAIL to its parent instead of its result, so the
 * failure climbs to the root, whose MPI_Reduce returns it through the
 * communicator's error handler. A process that has seen a failure fails
 * each later bypass reduction at once (FAIL to its parent) and returns the
 * error; one learned after its MPI_Reduce returned is returned by the next
 * one, or by MPI_Finalize.
 *
 * Safety: the handler may run at any point of delivery of the host (every
 * call into the host interface, inside compute). It touches only this
 * file's state (the queues q, the descriptors' data, the slot arena, the
 * heap buffers and parked list of early contributions, the send FIFO) and
 * BYPASS_PORT through libnicoll, which defers a signal that
 * comes during one of its own calls until the call ends (ncp_enter). It
 * never calls libmpi's progress, the matching engine or port 0. Everything
 * else in this file touches that state only between mask() and unmask():
 * a handler that finds the mask set records 'pending' and returns at once,
 * and unmask() replays it. So the state has one writer at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_table.h"
#include "mpi_coll.h"
#include "mpi_impl.h"
#include "nc_abred.h"
#include "nicoll.h"
#include "nicoll/hostif.h"

#define BYPASS_PORT 1u
/* DMA buffers: the NIC's receive pool, and per descriptor a running result
 * and its children's contributions held until their turn */
#define SLOTS (RECV_POOL + NC_AB_DESCS * (NC_AB_CHILDREN + 1) + 16u)
#define RECV_POOL 32u            /* of them given to the NIC at a time */
#define MAGIC 0x4142u            /* 'AB': a contribution */
#define MAGIC_FAIL 0x4146u       /* 'AF': the sender's subtree failed; payload: the rank found dead */
#define MAGIC_PROBE 0x4150u      /* 'AP': alive? (the NIC's ACK answers); forwarded to the children owed */
#define NO_PARENT 0xFFFFFFFFu
#define NO_SLOT (-1)

/* A contribution on the wire: this header, then count x extent bytes. */
struct abhdr {
    uint32_t magic;
    uint32_t ctx;               /* the communicator's context id */
    uint32_t seq;               /* the reduction's number on it */
    uint32_t bytes;             /* payload bytes */
};
#define HDR ((size_t)sizeof(struct abhdr))
#define SLOT_BYTES ((size_t)NC_SIGNAL_MAX)
#define PAYLOAD_MAX (SLOT_BYTES - HDR)

/* The data beside descriptor i of the queues. */
static struct desc {
    MPI_Op op;                  /* predefined: never freed */
    MPI_Datatype t;             /* predefined: never freed */
    size_t count, bytes;
    int acc;                    /* slot of the running result */
    int held[NC_AB_CHILDREN];   /* a counted child's data not yet combined, or NO_SLOT */
    uint32_t next;              /* children combined so far (in child order) */
    uint32_t ctx, seq;
    bool left;                  /* its MPI_Reduce has returned */
    bool done;                  /* the root's: every child combined, or failed */
    bool failed;                /* the root's: a member of its tree is dead */
    uint64_t begun_ns;          /* when its MPI_Reduce began it (or it was last probed) */
} D[NC_AB_DESCS];

static nc_abq_t q;
static nc_port *port;
static uint8_t *arena;
static int freel[SLOTS], nfree;
static unsigned at_nic;         /* slots given to the NIC */
/* Buffers past the arena (ids SLOTS and up): early contributions' copies,
 * in memory of the process's heap */
static uint8_t **heap;
static unsigned nheap, *heap_free, nheap_free;
/* Early contributions the core's queue (NC_AB_EARLY) has no room for:
 * offered to it again, oldest first, as it takes others out. */
static struct park { uint32_t inst, src; int id; struct park *next; } *park_head, **park_tail = &park_head;
static struct { int slot; uint32_t dst; } fifo[SLOTS];
static unsigned f_head, f_len;  /* results waiting for a send token */
static unsigned sends_out;      /* sent, SENT event not yet seen */
static volatile int masked, pending;
static uint64_t delay_ns;       /* MPI_NC_REDUCE_DELAY_US */
static int stats;               /* MPI_NC_REDUCE_STATS */
static uint32_t timeout_us;     /* the port's send time-out (MPI_NC_REDUCE_TIMEOUT_US) */
static uint64_t probe_ns;       /* a waiting process probes the children it is owed this often */
static int dead = -1;           /* the first rank found dead (world rank), or -1 */
static int dead_st;             /* and how: the failed send's status */
static unsigned long n_probes, n_fails;
static unsigned long n_result_copies, n_early, n_copies, n_expected, n_late, n_refused, n_runs, n_sig_late;

static void mask(void);
static void unmask(void);

static void fatal(const char *what)
{
    mpi_error(NULL, MPI_ERR_INTERN, "MPI_Reduce (bypass)", "%s", what);
}

static uint8_t *slot_at(int s)
{
    return s < (int)SLOTS ? arena + (size_t)s * SLOT_BYTES : heap[s - (int)SLOTS];
}

/* A heap buffer of len bytes. The emulated host delivers a signal only
 * at a call into the host interface, which malloc never makes, so the
 * handler never interrupts the allocator it uses (a real host's SIGIO
 * would need a pool allocated beforehand). */
static int heap_new(size_t len)
{
    unsigned k;

    if (nheap_free) {
        k = heap_free[--nheap_free];
    } else {
        heap = realloc(heap, sizeof *heap * (nheap + 1));
        heap_free = realloc(heap_free, sizeof *heap_free * (nheap + 1));
        if (!heap || !heap_free)
            fatal("out of memory for early contributions");
        k = nheap++;
    }
    if (!(heap[k] = malloc(len)))
        fatal("out of memory for early contributions");
    return (int)(SLOTS + k);
}

static void to_nic(int s)
{
    int rc = nc_provide_recv(port, slot_at(s), SLOT_BYTES, (void *)(intptr_t)s);

    if (rc != NC_OK)
        mpi_error(NULL, MPI_ERR_OTHER, "MPI_Reduce (bypass)", "nc_provide_recv: %s",
                  nc_strerror(rc));
    at_nic++;
}

/* A slot nobody uses any more: the NIC's pool first. */
static void release(int s)
{
    if (s >= (int)SLOTS) {
        free(heap[s - (int)SLOTS]);
        heap_free[nheap_free++] = (unsigned)(s - (int)SLOTS);
    } else if (at_nic < RECV_POOL)
        to_nic(s);
    else
        freel[nfree++] = s;
}

static int take_free(void)
{
    return nfree ? freel[--nfree] : NO_SLOT;
}

static uint32_t key(uint32_t ctx, uint32_t seq)
{
    return ctx << 16 | (seq & 0xFFFFu);
}

/* Post what waits for a send token, oldest first. */
static void push_sends(void)
{
    while (f_len) {
        int s = fifo[f_head].slot;
        const struct abhdr *h = (const void *)slot_at(s);
        int rc;

        if (s >= (int)SLOTS) {
            /* a result in the heap (its last child came early) goes out of DMA memory */
            int d = take_free();

            if (d == NO_SLOT)
                return;
            nc_host_memcpy(slot_at(d), h, HDR + h->bytes);
            n_result_copies++;
            release(s);
            fifo[f_head].slot = s = d;
            h = (const void *)slot_at(s);
        }
        rc = nc_signal_send(port, fifo[f_head].dst, BYPASS_PORT, slot_at(s),
                                HDR + h->bytes, (void *)(intptr_t)s);

        if (rc == NC_EAGAIN)
            return;
        if (rc != NC_OK)
            mpi_error(NULL, MPI_ERR_OTHER, "MPI_Reduce (bypass)", "nc_signal_send to rank %u: %s",
                      fifo[f_head].dst, nc_strerror(rc));
        sends_out++;
        f_head = (f_head + 1) % SLOTS;
        f_len--;
    }
}

static void send_msg(uint32_t magic, int s, uint32_t dst, uint32_t ctx, uint32_t seq, size_t bytes)
{
    struct abhdr h = { magic, ctx, seq, (uint32_t)bytes };

    memcpy(slot_at(s), &h, HDR);
    fifo[(f_head + f_len) % SLOTS].slot = s;
    fifo[(f_head + f_len) % SLOTS].dst = dst;
    f_len++;
    push_sends();
}

static void send_slot(int s, uint32_t dst, uint32_t ctx, uint32_t seq, size_t bytes)
{
    send_msg(MAGIC, s, dst, ctx, seq, bytes);
}

/* The first failure this process sees: every later bypass reduction fails. */
static void note_dead(uint32_t who, int st)
{
    if (dead < 0) {
        dead = (int)who;
        dead_st = st;
    }
}

static void drop_held(uint32_t i)
{
    for (uint32_t k = 0; k < NC_AB_CHILDREN; k++)
        if (D[i].held[k] != NO_SLOT) {
            release(D[i].held[k]);
            D[i].held[k] = NO_SLOT;
        }
}

/* Descriptor i cannot complete (who is dead): FAIL to the parent in the
 * running result's slot, and the descriptor ends; the root's stays for
 * its MPI_Reduce, which returns the error. */
static void fail_desc(uint32_t i, uint32_t who)
{
    struct desc *d = &D[i];

    note_dead(who, NC_ETIMEDOUT);
    drop_held(i);
    n_fails++;
    if (q.parent[i] == NO_PARENT) {
        d->done = d->failed = true;
        return;
    }
    memcpy(slot_at(d->acc) + HDR, &who, sizeof who);
    send_msg(MAGIC_FAIL, d->acc, q.parent[i], d->ctx, d->seq, sizeof who);
    d->acc = NO_SLOT;
    nc_ab_end(&q, i);
}

/* A probe to each child descriptor i still owes (a free slot each, if
 * there is one: the next probe comes one period later). */
static void probe_desc(uint32_t i)
{
    for (uint32_t k = 0; k < q.nchild[i]; k++) {
        int s;

        if (!q.owes[i][k] || (s = take_free()) == NO_SLOT)
            continue;
        n_probes++;
        send_msg(MAGIC_PROBE, s, q.child[i][k], D[i].ctx, D[i].seq, 0);
    }
}

static void probe_all(void)
{
    for (uint32_t i = 0; i < NC_AB_DESCS; i++)
        if (q.used[i] && !D[i].done)
            probe_desc(i);
}

/* A send of ours failed (its destination did not take it within the send
 * time-out, or its port closed): a probe's failure fails every descriptor
 * that owes that child; a contribution's or a FAIL's is this process's
 * failure (its descriptor has ended). */
static void sent_failed(int s, uint32_t node, int st)
{
    const struct abhdr *h = (const void *)slot_at(s);

    note_dead(node, st);
    if (h->magic != MAGIC_PROBE)
        return;
    for (uint32_t i = 0; i < NC_AB_DESCS; i++) {
        if (!q.used[i] || D[i].done)
            continue;
        for (uint32_t k = 0; k < q.nchild[i]; k++)
            if (q.owes[i][k] && q.child[i][k] == node) {
                fail_desc(i, node);
                break;
            }
    }
}

/* Combine descriptor i's counted children in child order, as far as they
 * go; when all are in, the result goes to the parent (or the root's
 * MPI_Reduce takes it). */
static void advance(uint32_t i)
{
    struct desc *d = &D[i];

    /* a child's FAIL fails the descriptor at once, whatever its turn */
    for (uint32_t k = 0; k < q.nchild[i]; k++) {
        const struct abhdr *h;
        uint32_t who;

        if (d->held[k] == NO_SLOT)
            continue;
        h = (const void *)slot_at(d->held[k]);
        if (h->magic == MAGIC_FAIL) {
            memcpy(&who, slot_at(d->held[k]) + HDR, sizeof who);
            fail_desc(i, who);
            return;
        }
    }
    while (d->next < q.nchild[i] && d->held[d->next] != NO_SLOT) {
        int x = d->held[d->next];

        /* x = acc (op) x, the host's coll_local(op, acc, tmp) */
        mpi_op_apply(d->op, slot_at(d->acc) + HDR, slot_at(x) + HDR, d->count, d->t);
        release(d->acc);
        d->acc = x;
        d->held[d->next] = NO_SLOT;
        d->next++;
    }
    if (d->next < q.nchild[i] || d->done)
        return;
    if (q.parent[i] == NO_PARENT) {
        d->done = true;
        return;
    }
    send_slot(d->acc, q.parent[i], d->ctx, d->seq, d->bytes);
    d->acc = NO_SLOT;
    nc_ab_end(&q, i);
}

/* A contribution in slot s from src for (ctx, seq), matched by the proved
 * core: counted (kept in its slot until its turn: no copy), early (copied
 * once into a slot of the arena, its receive buffer back to the NIC) or
 * refused (dropped). */
static void arrive(int s, uint32_t src, bool from_handler)
{
    const struct abhdr *h = (const void *)slot_at(s);
    int32_t i;
    uint32_t c;

    if (h->magic == MAGIC_PROBE) {
        /* alive (our NIC acknowledged it); the children we still owe
         * that instance are asked in turn */
        for (uint32_t k = 0; k < NC_AB_DESCS; k++)
            if (q.used[k] && !D[k].done && q.inst[k] == key(h->ctx, h->seq))
                probe_desc(k);
        release(s);
        return;
    }
    if ((h->magic != MAGIC && h->magic != MAGIC_FAIL) || h->bytes > PAYLOAD_MAX ||
        (h->magic == MAGIC_FAIL && h->bytes != sizeof(uint32_t))) {
        n_refused++;
        release(s);
        return;
    }
    switch (nc_ab_arrive(&q, key(h->ctx, h->seq), src, &i, &c)) {
    case NC_AB_COUNTED:
    case NC_AB_COMPLETE:
        if (D[i].left) {
            n_late++;
            n_sig_late += from_handler;
        } else {
            n_expected++;
        }
        D[i].held[c] = s;
        advance((uint32_t)i);
        return;
    case NC_AB_UNMATCHED: {
        int e = heap_new(HDR + h->bytes);
        uint32_t inst = key(h->ctx, h->seq);

        nc_host_memcpy(slot_at(e), slot_at(s), HDR + h->bytes);
        n_copies++;
        n_early++;
        release(s);
        if (park_head || !nc_ab_hold(&q, inst, src, (uint32_t)e)) {
            struct park *k = malloc(sizeof *k);

            if (!k)
                fatal("out of memory for early contributions");
            *k = (struct park){ inst, src, e, NULL };
            *park_tail = k;
            park_tail = &k->next;
        }
        return;
    }
    default:
        n_refused++;
        release(s);
        return;
    }
}

static void handle(const nc_event *ev, bool from_handler)
{
    int s = (int)(intptr_t)ev->ctx;

    if (ev->status && ev->type != NC_EVENT_SENT)
        mpi_error(NULL, MPI_ERR_OTHER, "MPI_Reduce (bypass)", "NIC event %d: %s", ev->type,
                  nc_strerror(ev->status));
    if (ev->type == NC_EVENT_SENT) {
        sends_out--;
        if (ev->status)
            sent_failed(s, ev->node, ev->status);
        release(s);
    } else if (ev->type == NC_EVENT_RECV) {
        int r;

        at_nic--;
        if ((r = take_free()) != NO_SLOT)
            to_nic(r);
        arrive(s, ev->node, from_handler);
    }
}

/* Every event of the port; then every result waiting for a send token is
 * posted (the NIC frees one within a round trip). */
static void drain(bool from_handler)
{
    nc_event ev;

    for (;;) {
        while (nc_poll(port, &ev))
            handle(&ev, from_handler);
        push_sends();
        if (!f_len)
            return;
    }
}

/* Masked, until done() holds: libmpi's progress (unmasked) and this port's
 * events; past MPI_NC_SPIN_US idle, asleep on this port in slices. */
static void wait_until(bool (*done)(void *), void *arg)
{
    uint64_t idle = nc_host_now_ns(), probed = idle, period = probe_ns;
    nc_event ev;

    drain(false);
    while (!done(arg)) {
        unsigned before = f_len + sends_out;

        if (nc_host_now_ns() - probed >= period) {
            /* children that owe us: alive? (a dead one's probe fails). The
             * period doubles, so that a child out of MPI for long holds
             * few of its receive buffers with probes (each takes one until
             * it polls) */
            probe_all();
            probed = nc_host_now_ns();
            if (period < UINT64_MAX / 4)
                period *= 2;
        }

        unmask();
        mpi_progress();
        mask();
        if (nc_poll(port, &ev)) {
            handle(&ev, false);
            idle = nc_host_now_ns();
        } else if (nc_host_now_ns() - idle >= mpi_state.spin_ns &&
                   nc_wait(port, &ev, 200000) == NC_OK) {
            handle(&ev, false);
            idle = nc_host_now_ns();
        }
        drain(false);
        if (f_len + sends_out != before)
            idle = nc_host_now_ns();
    }
}

/* Signals exactly while a descriptor is outstanding. */
static void update_signals(void)
{
    bool want = nc_ab_outstanding(&q) != 0;
    int rc;

    if (want && !nc_signal_on(port)) {
        if ((rc = nc_signal_enable(port)) != NC_OK)
            mpi_error(NULL, MPI_ERR_OTHER, "MPI_Reduce (bypass)", "nc_signal_enable: %s",
                      nc_strerror(rc));
        /* what came before the NIC took it raised no signal */
        drain(false);
        want = nc_ab_outstanding(&q) != 0;
    }
    if (!want && nc_signal_on(port))
        nc_signal_disable(port);
}

static void handler(nc_port *p, void *arg)
{
    (void)p;
    (void)arg;
    if (masked) {
        pending = 1;
        return;
    }
    masked = 1;
    n_runs++;
    drain(true);
    update_signals();
    masked = 0;
}

static void mask(void)
{
    masked = 1;
}

static void unmask(void)
{
    masked = 0;
    while (pending) {
        masked = 1;
        pending = 0;
        drain(true);
        update_signals();
        masked = 0;
    }
}

static uint64_t env_u64(const char *name, uint64_t hi)
{
    const char *s = getenv(name);
    char *end;
    unsigned long long v;

    if (!s || !*s)
        return 0;
    v = strtoull(s, &end, 10);
    if (*end || v > hi) {
        nc_host_printf("libmpi: %s='%s' is not a number in 0..%llu\n", name, s,
                       (unsigned long long)hi);
        nc_host_exit(2);
    }
    return v;
}

int coll_reduce_bypass_init(void)
{
    int rc;

    delay_ns = 1000 * env_u64("MPI_NC_REDUCE_DELAY_US", 1000000);
    stats = (int)env_u64("MPI_NC_REDUCE_STATS", 1);
    /* docs/firmware.md, "Send time-outs": a message its peer does not
     * take fails after this; probes go out as often */
    timeout_us = (uint32_t)env_u64("MPI_NC_REDUCE_TIMEOUT_US", NC_SEND_TIMEOUT_MAX_US);
    if (!timeout_us)
        timeout_us = NC_SEND_TIMEOUT_DEFAULT_US;
    probe_ns = 1000ull * timeout_us;
    nc_ab_init(&q);
    if ((rc = nc_open(&port, BYPASS_PORT)))
        return rc;
    if ((rc = nc_set_send_timeout(port, timeout_us)))
        return rc;
    arena = nc_alloc(port, SLOTS * SLOT_BYTES);
    if (!arena)
        return NC_ENOMEM;
    if ((rc = nc_register(port, arena, SLOTS * SLOT_BYTES)))
        return rc;
    if ((rc = nc_signal_handler(port, handler, NULL)))
        return rc;
    for (int s = SLOTS - 1; s >= 0; s--)
        freel[nfree++] = s;
    while (at_nic < RECV_POOL && nc_recv_tokens(port))
        to_nic(take_free());
    return NC_OK;
}

static bool all_sent(void *arg)
{
    (void)arg;
    return !nc_ab_outstanding(&q) && !f_len && !sends_out;
}

static bool have_free(void *arg)
{
    (void)arg;
    return nfree != 0;
}

static bool desc_free(void *arg)
{
    (void)arg;
    return nc_ab_outstanding(&q) < NC_AB_DESCS;
}

static bool root_done(void *arg)
{
    return D[*(int32_t *)arg].done;
}

/* The parked contribution of src to inst, out of the list; -1 if none. */
static int64_t unpark(uint32_t inst, uint32_t src)
{
    for (struct park **pp = &park_head; *pp; pp = &(*pp)->next) {
        struct park *k = *pp;

        if (k->inst == inst && k->src == src) {
            int id = k->id;

            *pp = k->next;
            if (!*pp)
                park_tail = pp;
            free(k);
            return id;
        }
    }
    return -1;
}

/* Parked contributions into the core's early queue while it has room. */
static void repark(void)
{
    while (park_head && nc_ab_hold(&q, park_head->inst, park_head->src, (uint32_t)park_head->id)) {
        struct park *k = park_head;

        park_head = k->next;
        if (!park_head)
            park_tail = &park_head;
        free(k);
    }
}

/* The failure, through comm's error handler (the default ends the run
 * with this message). */
static int report(MPI_Comm comm)
{
    return mpi_error(comm, MPI_ERR_OTHER, "MPI_Reduce (bypass)",
                     "a reduction failed: rank %d did not take a message within the send "
                     "time-out (%u us): %s", dead, timeout_us, nc_strerror(dead_st));
}

/* Every reduction of this process done (or failed) and its result sent:
 * then the port may close. A failure is the return value. */
int coll_reduce_bypass_finalize(void)
{
    if (!port)
        return MPI_SUCCESS;
    mask();
    wait_until(all_sent, NULL);
    if (nc_signal_on(port))
        nc_signal_disable(port);
    unmask();
    if (stats)
        nc_host_printf("libmpi: rank %d: bypass reduce: runs=%lu early=%lu copies=%lu "
                       "expected=%lu late=%lu late_in_handler=%lu refused=%lu result_copies=%lu "
                       "signals=%lu probes=%lu failed=%lu\n", mpi_state.world_rank, n_runs,
                       n_early, n_copies, n_expected, n_late, n_sig_late, n_refused,
                       n_result_copies, nc_signal_count(port), n_probes, n_fails);
    nc_close(port);
    port = NULL;
    return dead < 0 ? MPI_SUCCESS : report(NULL);
}

/* Whether this call can go by signalling messages: a predefined op on a
 * predefined type (every member passes the same, so every member decides
 * alike), fitting one packet, on a context id the instance key holds. */
static bool eligible(int count, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    return port && c->size > 1 && count > 0 && op->predefined && op->commute &&
           t->predefined && (size_t)count * (size_t)t->extent <= PAYLOAD_MAX &&
           c->ctx < 0x10000u;
}

int coll_reduce_bypass(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                       int root, MPI_Comm c)
{
    int n = c->size, vr = (c->rank - root + n) % n;
    uint32_t child[NC_AB_CHILDREN], nchild = 0, parent = NO_PARENT, seq;
    size_t bytes = (size_t)count * (size_t)t->extent;
    const void *own = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    int32_t i;
    int s;

    if (!eligible(count, t, op, c))
        return coll_reduce_binomial(sbuf, rbuf, count, t, op, root, c);
    seq = c->red_seq++;
    for (int mask = 1; mask < n; mask <<= 1) {
        if (vr & mask) {
            parent = (uint32_t)mpi_world_rank(c, (vr - mask + root) % n);
            break;
        }
        if (vr + mask < n)
            child[nchild++] = (uint32_t)mpi_world_rank(c, (vr + mask + root) % n);
    }
    mask();
    /* descriptors left a probe period ago and still owed: their children
     * are probed (a dead one's failure comes out at a later call) */
    for (uint32_t k = 0; k < NC_AB_DESCS; k++)
        if (q.used[k] && D[k].left && nc_host_now_ns() - D[k].begun_ns >= probe_ns) {
            probe_desc(k);
            D[k].begun_ns = nc_host_now_ns();   /* the next one a period later */
        }
    if (!nfree)
        wait_until(have_free, NULL);
    s = take_free();
    if (dead >= 0) {
        /* this process has seen a member dead: FAIL to the parent, so that
         * nobody waits for us, and the error */
        uint32_t who = (uint32_t)dead;

        if (parent != NO_PARENT) {
            memcpy(slot_at(s) + HDR, &who, sizeof who);
            send_msg(MAGIC_FAIL, s, parent, c->ctx, seq, sizeof who);
            drain(false);
        } else {
            release(s);
        }
        unmask();
        mpi_compute_mark();
        return report(c);
    }
    /* the running result starts as our own contribution */
    nc_host_memcpy(slot_at(s) + HDR, own, bytes);
    if (!nchild) {
        /* a leaf: send and go */
        send_slot(s, parent, c->ctx, seq, bytes);
        drain(false);
        unmask();
        mpi_compute_mark();
        return dead < 0 ? MPI_SUCCESS : report(c);
    }
    /* NC_AB_DESCS reductions in flight: wait for one to end */
    if (nc_ab_outstanding(&q) == NC_AB_DESCS)
        wait_until(desc_free, NULL);
    if ((i = nc_ab_begin(&q, key(c->ctx, seq), parent, child, nchild)) < 0)
        fatal("no descriptor for the reduction");
    D[i] = (struct desc){ .op = op, .t = t, .count = (size_t)count, .bytes = bytes, .acc = s,
                          .ctx = c->ctx, .seq = seq, .begun_ns = nc_host_now_ns() };
    for (uint32_t k = 0; k < NC_AB_CHILDREN; k++)
        D[i].held[k] = NO_SLOT;
    /* the early ones, from the queue (or parked beside it), in child order */
    for (uint32_t k = 0; k < nchild; k++) {
        int64_t e = nc_ab_take_early(&q, key(c->ctx, seq), child[k]);
        int32_t d2;
        uint32_t c2;

        if (e < 0)
            e = unpark(key(c->ctx, seq), child[k]);
        if (e < 0)
            continue;
        if (nc_ab_arrive(&q, key(c->ctx, seq), child[k], &d2, &c2) > NC_AB_COMPLETE || d2 != i)
            fatal("an early contribution its descriptor does not owe");
        D[i].held[c2] = (int)e;
    }
    repark();
    advance((uint32_t)i);
    drain(false);
    if (parent == NO_PARENT) {
        /* the root: synchronous */
        wait_until(root_done, &i);
        if (!D[i].failed)
            coll_copy(rbuf, slot_at(D[i].acc) + HDR, (size_t)count, t);
        release(D[i].acc);
        drop_held((uint32_t)i);
        nc_ab_end(&q, (uint32_t)i);
    } else if (delay_ns && q.used[i]) {
        /* section 3.3.5: wait a little for the children before leaving */
        uint64_t t0 = nc_host_now_ns();

        while (q.used[i] && nc_host_now_ns() - t0 < delay_ns)
            drain(false);
    }
    /* (this call begins no other descriptor: i is still this one's if used) */
    if (q.used[i])
        D[i].left = true;
    update_signals();
    unmask();
    mpi_compute_mark();
    return dead < 0 ? MPI_SUCCESS : report(c);
}
