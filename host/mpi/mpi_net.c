/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The wire: every rank opens port 0 of its NIC through libnicoll. Every
 * packet is a header (struct mpi_hdr) and up to 'chunk' bytes, sent from
 * one of NC_SEND_SLOTS staging buffers and received into one of
 * NC_RECV_SLOTS pool buffers that are given back to the NIC as soon as
 * the packet is handled. The NIC delivers in order per peer and exactly
 * once, so handling packets in event order keeps MPI's non-overtaking
 * rule; packets to oneself never touch the NIC (a local queue, handled
 * in the same order as they were sent).
 *
 * Packets wait in one FIFO until a send token and a staging buffer are
 * free, so that packets to one peer leave in the order they were made.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_impl.h"
#include "nicoll.h"
#include "nicoll/hostif.h"

#define NC_SEND_SLOTS 16    /* libnicoll's send tokens per port */
#define NC_RECV_SLOTS 32    /* its receive tokens */
/* The NIC queues up to 8 multicasts per group (docs/multicast.md); more
 * at once are refused, so the queue holds the next one back. */
#define NC_MCASTS_IN_FLIGHT 8
/* A switch group packet's send context: its staging slot with this bit */
#define GSEND_CTX 0x10000u
#define GSEND_HEAD_MAX 32

struct pkt {
    int dst;
    struct mpi_hdr h;
    const uint8_t *data;
    size_t len;
    MPI_Request owner;
    uint32_t group;             /* a broadcast's multicast (no header), or 0 */
    bool swgroup;               /* a switch group packet: head, then data */
    size_t hlen;
    uint8_t head[GSEND_HEAD_MAX];
    struct pkt *next;
};

static nc_port *port;
static uint32_t reduce_timeout_us;      /* MPI_NC_REDUCE_TIMEOUT_US; 0: the port's default */
static int nic_red_out;                 /* NIC reductions started and not done */
static uint8_t *arena;
static size_t slot_size;
static int free_slots[NC_SEND_SLOTS], nfree;
static struct pkt *q_head, *q_tail;         /* waiting for a staging slot */
static struct pkt *self_head, *self_tail;   /* to this rank, with their bytes */
static unsigned mcasts_out;                 /* multicasts not yet acknowledged by all */

static size_t env_size(const char *name, size_t dflt, size_t lo, size_t hi)
{
    const char *s = getenv(name);
    char *end;
    unsigned long long v;

    if (!s || !*s)
        return dflt;
    v = strtoull(s, &end, 0);
    if (*end || v < lo || v > hi) {
        nc_host_printf("libmpi: %s='%s' is not a number in %zu..%zu\n", name, s, lo, hi);
        nc_host_exit(2);
    }
    return (size_t)v;
}

int mpi_net_init(void)
{
    int rc = nc_open(&port, 0);

    if (rc)
        return rc;
    /* MPICH-GM's switch point; docs/mpi.md says how it was chosen */
    mpi_state.chunk = env_size("MPI_NC_CHUNK", 32768, 1024, (1u << 20) - 64);
    mpi_state.spin_ns = 1000 * env_size("MPI_NC_SPIN_US", 200, 0, 1000000000);
    mpi_state.eager_max = env_size("MPI_NC_EAGER_MAX", 16287, 0, mpi_state.chunk);
    slot_size = (sizeof(struct mpi_hdr) + mpi_state.chunk + 63) & ~(size_t)63;
    reduce_timeout_us = (uint32_t)env_size("MPI_NC_REDUCE_TIMEOUT_US", 0, 0,
                                           NC_SEND_TIMEOUT_MAX_US);
    arena = nc_alloc(port, slot_size * (NC_SEND_SLOTS + NC_RECV_SLOTS));
    if (!arena)
        return NC_ENOMEM;
    if ((rc = nc_register(port, arena, slot_size * (NC_SEND_SLOTS + NC_RECV_SLOTS))))
        return rc;
    for (int i = 0; i < NC_SEND_SLOTS; i++)
        free_slots[nfree++] = NC_SEND_SLOTS - 1 - i;
    for (int i = 0; i < NC_RECV_SLOTS; i++) {
        uint8_t *b = arena + slot_size * (NC_SEND_SLOTS + i);
        if ((rc = nc_provide_recv(port, b, slot_size, b)))
            return rc;
    }
    return 0;
}

/* Every packet we queued went out and was acknowledged: a peer may still
 * be receiving from us, so Finalize waits for that before closing. */
void mpi_net_finalize(void)
{
    uint64_t idle = nc_host_now_ns();
    while (q_head || self_head || nfree < NC_SEND_SLOTS)
        mpi_progress_wait(&idle);
    nc_close(port);
}

static void push_queue(void);

static void enqueue(struct pkt *p)
{
    if (q_tail)
        q_tail->next = p;
    else
        q_head = p;
    q_tail = p;
    push_queue();       /* not mpi_progress: no packet is handled inside another */
    mpi_compute_mark();
}

static void frag_done(MPI_Request r)
{
    if (r && r->frags_left && !--r->frags_left) {
        /* a rendezvous send is done when its data is out; a sync send
         * also had its CTS, an eager one needs nothing more */
        if (!r->rndv || r->cts)
            mpi_req_complete(r);
    }
}

void mpi_net_send(int dst, const struct mpi_hdr *h, const void *data, size_t len,
                  MPI_Request owner)
{
    struct pkt *p = malloc(sizeof *p);

    p->dst = dst;
    p->h = *h;
    p->data = data;
    p->len = len;
    p->owner = owner;
    p->group = 0;
    p->swgroup = false;
    p->next = NULL;
    if (dst == mpi_state.world_rank) {
        /* the bytes are copied now: the receive side owns its copy */
        uint8_t *copy = malloc(len ? len : 1);
        if (len)
            nc_host_memcpy(copy, data, len);
        p->data = copy;
        if (self_tail)
            self_tail->next = p;
        else
            self_head = p;
        self_tail = p;
        frag_done(owner);
        return;
    }
    enqueue(p);
}

/* Copy queued packets, oldest first, into free staging slots and hand
 * them to the NIC (so packets to one destination keep their order). */
static void push_queue(void)
{
    while (q_head && nfree && nc_send_tokens(port)) {
        struct pkt *p = q_head;
        if (p->group && !p->swgroup && mcasts_out >= NC_MCASTS_IN_FLIGHT)
            return;
        int slot = free_slots[--nfree];
        uint8_t *b = arena + slot_size * slot;
        int rc;

        if (p->swgroup) {
            memcpy(b, p->head, p->hlen);
            if (p->len)
                nc_host_memcpy(b + p->hlen, p->data, p->len);
            rc = nc_gsend(port, p->group, 0, b, p->hlen + p->len,
                          (void *)(uintptr_t)(slot | GSEND_CTX));
        } else if (p->group) {
            if (p->len)
                nc_host_memcpy(b, p->data, p->len);
            rc = nc_mcast(port, p->group, b, p->len, (void *)(uintptr_t)slot);
        } else {
            memcpy(b, &p->h, sizeof p->h);
            if (p->len)
                nc_host_memcpy(b + sizeof p->h, p->data, p->len);
            rc = nc_send(port, (unsigned)p->dst, 0, b, sizeof p->h + p->len,
                         (void *)(uintptr_t)slot);
        }
        if (rc) {
            free_slots[nfree++] = slot;
            if (rc == NC_EAGAIN)
                return;
            mpi_error(NULL, MPI_ERR_OTHER, "progress", "nc_send to rank %d: %s",
                      p->dst, nc_strerror(rc));
            return;
        }
        q_head = p->next;
        if (!q_head)
            q_tail = NULL;
        if (p->group && !p->swgroup)
            mcasts_out++;
        frag_done(p->owner);
        free(p);
    }
}

static void reduce_done(const nc_event *ev);

static void handle_event(const nc_event *ev)
{
    if (ev->type == NC_EVENT_REDUCE) {
        reduce_done(ev);        /* its status is the reduction's to report */
        return;
    }
    if (ev->type == NC_EVENT_NICVM) {
        mpi_nicvm_event(ev);     /* its status is the module's to report */
        return;
    }
    if (ev->type == NC_EVENT_MG) {
        mpi_swmc_mg_event(ev);   /* a refusal is its request's to report */
        return;
    }
    if (ev->status)
        mpi_error(NULL, MPI_ERR_OTHER, "progress", "NIC event %d: %s", ev->type,
                  nc_strerror(ev->status));
    if (ev->type == NC_EVENT_SENT) {
        uintptr_t x = (uintptr_t)ev->ctx;

        free_slots[nfree++] = (int)(x & ~(uintptr_t)GSEND_CTX);
        if (ev->group && !(x & GSEND_CTX))
            mcasts_out--;
    } else if (ev->type == NC_EVENT_RECV) {
        uint8_t *b = ev->ctx;
        if (ev->swgroup) {
            mpi_swmc_arrived(ev->node, ev->group, b, ev->len);
        } else if (ev->group) {
            mpi_bcast_nic_arrived(ev->group, b, ev->len);
        } else if (ev->len < sizeof(struct mpi_hdr)) {
            mpi_error(NULL, MPI_ERR_INTERN, "progress",
                      "a packet of %zu bytes from node %u", ev->len, ev->node);
        } else {
            struct mpi_hdr h;
            memcpy(&h, b, sizeof h);
            mpi_match_packet((int)ev->node, &h, b + sizeof h, ev->len - sizeof h);
        }
        nc_provide_recv(port, b, slot_size, b);
    }
}

nc_port *mpi_net_port(void)
{
    return port;
}

void mpi_net_imcast(uint32_t group, const void *data, size_t len, MPI_Request owner)
{
    struct pkt *p = calloc(1, sizeof *p);

    p->group = group;
    p->data = data;
    p->len = len;
    p->owner = owner;
    enqueue(p);
}

void mpi_net_gsend(uint32_t group, const void *head, size_t hlen, const void *data, size_t len,
                   MPI_Request owner)
{
    struct pkt *p = calloc(1, sizeof *p);

    if (hlen > GSEND_HEAD_MAX)
        abort();
    p->group = group;
    p->swgroup = true;
    memcpy(p->head, head, hlen);
    p->hlen = hlen;
    p->data = data;
    p->len = len;
    p->owner = owner;
    enqueue(p);
}

/* Until every multicast of ours is acknowledged by every member. */
void mpi_net_mcast_drain(void)
{
    uint64_t idle = nc_host_now_ns();

    while (mcasts_out || q_head)
        mpi_progress_wait(&idle);
}

void mpi_net_flush(void)
{
    uint64_t idle = nc_host_now_ns();

    while (q_head)
        mpi_progress_wait(&idle);
}

/* What the engine holds (MPI_NC_DEBUG=1 prints it when a wait stalls). */
void mpi_net_dump(const char *why)
{
    unsigned q = 0;
    for (struct pkt *p = q_head; p; p = p->next)
        q++;
    nc_host_printf("libmpi: rank %d: %s: %u packets queued, %d staging slots free, "
                   "%u send tokens, %u receive tokens, %u multicasts unacknowledged\n",
                   mpi_state.world_rank, why, q, nfree, nc_send_tokens(port),
                   nc_recv_tokens(port), mcasts_out);
}

/* Events, then queued packets, then packets to oneself (those queued
 * before this call: handling one may queue more, after them). True if
 * anything happened. */
static bool progress_once(void)
{
    static uint64_t last_event_ns;
    static bool told;
    bool any = false;
    nc_event ev;

    mpi_compute_charge();
    while (nc_poll(port, &ev)) {
        handle_event(&ev);
        any = true;
    }
    if (any) {
        last_event_ns = nc_host_now_ns();
        told = false;
    } else if (mpi_state.debug && !told && nc_host_now_ns() - last_event_ns > 10000000) {
        told = true;
        mpi_net_dump("no NIC event for 10 ms");
        mpi_match_dump();
    }
    push_queue();
    struct pkt *p = self_head;
    self_head = self_tail = NULL;
    any |= p != NULL;
    while (p) {
        struct pkt *next = p->next;
        mpi_match_packet(mpi_state.world_rank, &p->h, p->data, p->len);
        free((void *)p->data);
        free(p);
        p = next;
    }
    mpi_nbc_progress();
    mpi_swmc_progress();
    mpi_compute_mark();
    return any;
}

void mpi_progress(void)
{
    progress_once();
}

/* A blocking wait: poll (as MPICH-GM did: the latency path never sleeps)
 * until nothing has happened for MPI_NC_SPIN_US, then sleep on the NIC's
 * interrupt in slices, so that a rank waiting long costs the emulator
 * nothing (an idle host's clock jumps). */
void mpi_progress_wait(uint64_t *idle_since)
{
    nc_event ev;

    if (progress_once()) {
        *idle_since = nc_host_now_ns();
        return;
    }
    if (nc_host_now_ns() - *idle_since < mpi_state.spin_ns)
        return;
    int rc = nc_wait(port, &ev, 1000000);
    mpi_compute_mark();         /* other ranks ran while this one slept */
    if (rc == NC_OK) {
        handle_event(&ev);
        *idle_since = nc_host_now_ns();
        progress_once();
    }
    mpi_compute_mark();
}

/* A NIC reduction's request (coll_reduce_nic.c): complete once started
 * and its pieces done. */
MPI_Request mpi_nicred_request(MPI_Comm c)
{
    MPI_Request q = mpi_req_new(REQ_COLL);

    q->comm = c;
    mpi_comm_hold(c);           /* dropped with the request */
    q->nic_parts = 1;
    return q;
}

static void nicred_part_done(MPI_Request q, int status)
{
    if (status && !q->nc_status) {
        q->nc_status = status;
        q->status.MPI_ERROR = MPI_ERR_OTHER;
    }
    if (!--q->nic_parts)
        mpi_req_complete(q);
}

void mpi_nicred_started(MPI_Request q)
{
    nicred_part_done(q, NC_OK);
}

/* A piece: its request and where its result goes (the event's ctx). */
struct nicred_piece {
    MPI_Request q;
    void *out;
};

int mpi_ireduce_nic(const nc_reduce *r, const void *data, void *out, MPI_Request q)
{
    static bool timeout_set;
    struct nicred_piece *pc;
    int rc;

    /* The NIC reduction runs on this port: the send time-out that ends a
     * reduction with a dead member (docs/reduction.md) is the port's.
     * MPI_NC_REDUCE_TIMEOUT_US sets it from the first NIC reduction on,
     * not at MPI_Init: ranks start at different times, and a short
     * time-out would fail the first messages to a rank whose port is not
     * open yet. */
    if (reduce_timeout_us && !timeout_set) {
        if ((rc = nc_set_send_timeout(port, reduce_timeout_us)))
            return rc;
        timeout_set = true;
    }
    uint64_t idle = nc_host_now_ns();

    while (nic_red_out >= MPI_NIC_RED_OUT)
        mpi_progress_wait(&idle);
    if (!(pc = malloc(sizeof *pc)))
        return NC_ENOMEM;
    *pc = (struct nicred_piece){ q, out };
    if ((rc = nc_reduce_start(port, r, data, pc))) {
        free(pc);
        return rc;
    }
    nic_red_out++;
    q->nic_parts++;
    return NC_OK;
}

/* A piece's event: its result out. */
static void reduce_done(const nc_event *ev)
{
    struct nicred_piece *pc = ev->ctx;
    MPI_Request q = pc->q;

    nic_red_out--;
    if (!ev->status && ev->buf && pc->out)
        nc_host_memcpy(pc->out, ev->buf, ev->len);
    free(pc);
    mpi_compute_mark();
    nicred_part_done(q, ev->status);
}

int mpi_barrier_nic(MPI_Comm comm)
{
    nc_member *m = malloc(sizeof *m * (size_t)comm->size);
    nc_barrier b;
    int rc;

    for (int i = 0; i < comm->size; i++) {
        m[i].node = (uint16_t)comm->group->world[i];
        m[i].port = 0;
    }
    rc = nc_barrier_pe(&b, m, (unsigned)comm->size, (unsigned)comm->rank);
    free(m);
    if (rc)
        return rc;
    /* pending packets first: the barrier must not pass a send of ours */
    while (q_head)
        mpi_progress();
    rc = nc_barrier_start(port, &b, NULL);
    if (rc)
        return rc;
    for (;;) {
        nc_event ev;
        if (nc_poll(port, &ev)) {
            if (ev.type == NC_EVENT_BARRIER) {
                mpi_compute_mark();
                return ev.status;
            }
            handle_event(&ev);
        }
        push_queue();
    }
}
