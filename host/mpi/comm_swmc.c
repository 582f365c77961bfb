/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A communicator's switch multicast group (MPI_NC_COMM=basic, lazy, pool;
 * docs/mpi.md "Communicators on switch multicast"), seed 003's Basic
 * design: when a communicator is made, its rank 0 asks the fabric's
 * management entity for a group, tells the others its id, every member
 * joins, and rank 0 tests the group, blocking: a probe multicast every
 * SWMC_PROBE_NS until every member has answered one by point-to-point. An
 * answer from the entity never means the switches are set; only the test
 * can tell. Then rank 0 tells every member the verdict (by the host's
 * binomial broadcast, as the id), so that all take the same path: the
 * group (coll_bcast_swmc.c) or, when the entity had no id, a join failed
 * or the test ran out of probes, point-to-point for the communicator's
 * life. MPI_Comm_free and MPI_Finalize leave the group; the entity frees
 * the id when the last member has left. Lazy's creation (comm_swmc_lazy.c)
 * shares the first step (swmc_create) with Basic, and Lazy and Pool's
 * (comm_swmc_pool.c) share the registry, the requests and the dispatch
 * here.
 */
#include <stdlib.h>
#include <string.h>

#include "coll_table.h"
#include "mpi_swmc.h"
#include "nicoll/hostif.h"
#include "nicoll/nc_mgmt.h"

/* The test's probes and the requests' repeats (mpi_swmc.h): **decision**:
 * the probe interval SWMC_PROBE_NS, 50 us, about ten times a probe's way
 * through a switch and back on P-GM2, so that the probes cost the members
 * little; SWMC_PROBES, 400 probes (20 ms, twice the entity's default
 * time-out for a lost switch write) before the communicator gives up on
 * the group. A request to the entity unanswered for SWMC_ANSWER_NS (30
 * ms, three times the entity's own time-out) is asked again (joins and
 * leaves; the entity answers a repeated one NC_MG_EEXIST or
 * NC_MG_ENOENT), up to SWMC_ASKS times. A create is asked once: a second
 * create after a lost answer would take a second id. */

static struct mpi_swmc *all;    /* this process's communicators with a group */
static uint32_t next_tid = 1;
static struct mg_wait *waits;   /* requests awaiting answers */

/* Group packets that come before their communicator: under Pool, rank 0
 * takes a tested group and broadcasts on it as soon as its constructor
 * returns, while a member deep in the constructor's binomial broadcast of
 * the id has no communicator for the packet yet. A member keeps such a
 * packet (at most SWMC_EARLY of them) and gives it to the communicator
 * that swmc_new registers with that context and group. **Decision**: for
 * at most SWMC_EARLY_NS, the root's least time-out before it resends
 * (coll_bcast_swmc.c): past it the packet comes again by point-to-point,
 * and a copy of a freed communicator (the same context and group given
 * again) cannot wait long enough to be taken for a new one's. */
#define SWMC_EARLY 32u
#define SWMC_EARLY_NS 1000000ull
struct early {
    uint64_t at_ns;
    unsigned node;
    uint32_t group, ctx;
    size_t len;
    uint8_t data[NC_ABI_GRP_MAX];
    struct early *next;
};
static struct early *early;     /* newest first */
static unsigned nearly;

static void early_expire(uint64_t now)
{
    for (struct early **pp = &early; *pp;) {
        struct early *e = *pp;

        if (now - e->at_ns < SWMC_EARLY_NS) {
            pp = &e->next;
            continue;
        }
        *pp = e->next;
        free(e);
        nearly--;
    }
}

static bool early_keep(unsigned node, uint32_t group, uint32_t ctx, const uint8_t *data,
                       size_t len)
{
    struct early *e;

    early_expire(nc_host_now_ns());
    if (nearly >= SWMC_EARLY || len > sizeof e->data)
        return false;
    e = malloc(sizeof *e);
    *e = (struct early){ .at_ns = nc_host_now_ns(), .node = node, .group = group, .ctx = ctx,
                         .len = len, .next = early };
    memcpy(e->data, data, len);
    early = e;
    nearly++;
    return true;
}

struct mpi_swmc *mpi_swmc_of_ctx(uint32_t ctx)
{
    for (struct mpi_swmc *s = all; s; s = s->next)
        if (s->comm->ctx == ctx)
            return s;
    return NULL;
}

int mpi_swmc_rank_of(MPI_Comm c, int w)
{
    for (int i = 0; i < c->size; i++)
        if (c->group->world[i] == w)
            return i;
    return -1;
}

void swmc_cancel(struct mg_wait *w)
{
    for (struct mg_wait **pp = &waits; *pp; pp = &(*pp)->next)
        if (*pp == w) {
            *pp = w->next;
            return;
        }
}

unsigned swmc_outstanding(void)
{
    unsigned n = 0;

    for (struct mg_wait *w = waits; w; w = w->next)
        n++;
    return n;
}

int swmc_post(struct mg_wait *w, unsigned op, uint32_t group)
{
    return swmc_post_for(w, op, group, (unsigned)mpi_state.world_rank);
}

int swmc_post_for(struct mg_wait *w, unsigned op, uint32_t group, unsigned node)
{
    nc_port *p = mpi_net_port();
    unsigned sm = mpi_state.sm_node;
    int rc;

    swmc_cancel(w);
    w->tid = next_tid++;
    w->op = op;
    w->group = group;
    w->got = false;
    w->asks++;
    w->sent_ns = nc_host_now_ns();
    rc = op == NC_MG_CREATE ? nc_mg_create(p, sm, w->tid)
       : op == NC_MG_JOIN   ? nc_mg_join(p, sm, group, node, w->tid)
                            : nc_mg_leave(p, sm, group, node, w->tid);
    if (rc == NC_OK) {
        w->next = waits;
        waits = w;
    }
    return rc;
}

void mpi_swmc_mg_event(const struct nc_event *ev)
{
    for (struct mg_wait *w = waits; w; w = w->next)
        if (w->tid == ev->tid) {
            swmc_cancel(w);
            w->got = true;
            w->status = ev->status;
            w->mg_status = ev->mg_status;
            w->group = ev->group;
            if (w->owner)
                swmc_lazy_answer(w->owner);
            return;
        }
    /* a late answer to a request asked again: nobody waits for it */
}

/* Ask the entity (op NC_MG_CREATE, JOIN or LEAVE) and wait for its answer,
 * asking again after SWMC_ANSWER_NS (not a create). NC_OK with the
 * entity's verdict in *mg (and a create's id in *group), or the NIC's
 * refusal, or NC_ETIMEDOUT. */
static int ask(unsigned op, uint32_t group, unsigned *mg, uint32_t *out)
{
    struct mg_wait w = { 0 };
    int rc = NC_ETIMEDOUT;

    while (w.asks < (op == NC_MG_CREATE ? 1u : SWMC_ASKS) && !w.got) {
        uint64_t idle = nc_host_now_ns();

        if ((rc = swmc_post(&w, op, group)))
            break;
        rc = NC_ETIMEDOUT;
        while (!w.got && nc_host_now_ns() - w.sent_ns < SWMC_ANSWER_NS)
            mpi_progress_wait(&idle);
    }
    swmc_cancel(&w);
    if (!w.got)
        return rc;
    *mg = w.mg_status;
    if (out)
        *out = w.group;
    return w.status;
}

struct mpi_swmc *swmc_new(MPI_Comm c, uint32_t group)
{
    struct mpi_swmc *s = calloc(1, sizeof *s);
    struct early *mine = NULL;

    s->comm = c;
    s->group = group;
    s->tested_by = calloc((size_t)c->size, 1);
    swmc_bcast_init(s);
    s->next = all;
    all = s;
    c->swmc = s;
    /* the packets kept for it, oldest first */
    early_expire(nc_host_now_ns());
    for (struct early **pp = &early; *pp;) {
        struct early *e = *pp;

        if (e->ctx != c->ctx || e->group != group) {
            pp = &e->next;
            continue;
        }
        *pp = e->next;
        nearly--;
        e->next = mine;
        mine = e;
    }
    while (mine) {
        struct early *e = mine;

        mine = e->next;
        mpi_swmc_arrived(e->node, e->group, e->data, e->len);
        free(e);
    }
    return s;
}

void swmc_probe(struct mpi_swmc *s, uint32_t n)
{
    struct swmc_wire probe = { .kind = SWMC_PING, .ctx = s->comm->ctx, .seq = n };

    mpi_net_gsend(s->group, &probe, sizeof probe, NULL, 0, NULL);
}

/* Every progress call: the Lazy communicators' and the pool's background
 * work. */
void mpi_swmc_progress(void)
{
    if (mpi_state.comm_mode == COMM_POOL && mpi_state.initialized)
        swmc_pool_tick();
    for (struct mpi_swmc *s = all, *next; s; s = next) {
        next = s->next;
        if (s->lazy)
            swmc_lazy_tick(s);
        swmc_bcast_tick(s);
    }
}

void swmc_say(MPI_Comm c, const char *what, uint32_t group)
{
    if (mpi_state.debug)
        nc_host_printf("libmpi: rank %d: communicator %u (%d ranks): switch group %u: %s\n",
                       mpi_state.world_rank, c->ctx, c->size, group, what);
}

/* Rank 0's multicast test: true once every other member answered a probe. */
static bool test_group(struct mpi_swmc *s)
{
    unsigned want = (unsigned)s->comm->size - 1;

    for (unsigned n = 0; n < SWMC_PROBES && s->tested < want; n++) {
        uint64_t t0 = nc_host_now_ns(), idle = t0;

        swmc_probe(s, n);
        while (s->tested < want && nc_host_now_ns() - t0 < SWMC_PROBE_NS)
            mpi_progress_wait(&idle);
    }
    return s->tested == want;
}

static void swmc_free(struct mpi_swmc *s)
{
    for (struct mpi_swmc **pp = &all; *pp; pp = &(*pp)->next)
        if (*pp == s) {
            *pp = s->next;
            break;
        }
    swmc_bcast_free(s);
    free(s->tested_by);
    free(s);
}

void swmc_leave(struct mpi_swmc *s, const char *fn)
{
    unsigned mg = 0;
    int rc = ask(NC_MG_LEAVE, s->group, &mg, NULL);

    /* NC_MG_ENOENT: an earlier leave's answer was lost, the entity took it */
    if (rc || (mg != NC_MG_OK && mg != NC_MG_ENOENT))
        mpi_error(s->comm, MPI_ERR_OTHER, fn, "leaving switch group %u: %s (entity status %u)",
                  s->group, rc ? nc_strerror(rc) : "refused", mg);
}

bool swmc_create(MPI_Comm c, uint32_t *group)
{
    /* [0]: 1 when the entity gave an id, [1]: the id */
    unsigned id[2] = { 0, 0 }, mg = 0;

    if (c->rank == 0 && ask(NC_MG_CREATE, 0, &mg, &id[1]) == NC_OK && mg == NC_MG_OK)
        id[0] = 1;
    coll_bcast_binomial(id, 2, MPI_UNSIGNED, 0, c);
    if (!id[0])
        swmc_say(c, "no id from the entity: point-to-point", 0);
    *group = id[1];
    return id[0] != 0;
}

void mpi_swmc_setup(MPI_Comm c)
{
    /* [0]: 1 when the group is tested, [1]: its id */
    unsigned id[2] = { 0, 0 }, mg = 0, ok, all_ok;
    struct mpi_swmc *s;

    if (mpi_state.comm_mode == COMM_P2P || c->size < 2)
        return;
    if (mpi_state.comm_mode == COMM_POOL) {
        /* MPI_Init: every slice filled before MPI_COMM_WORLD takes its group */
        if (c == MPI_COMM_WORLD)
            swmc_pool_fill();
        swmc_pool_start(c);
        return;
    }
    if (!swmc_create(c, &id[1]))
        return;
    if (mpi_state.comm_mode == COMM_LAZY) {
        swmc_lazy_start(c, id[1]);
        return;
    }
    s = swmc_new(c, id[1]);
    /* a repeated join (its first answer lost) is NC_MG_EEXIST */
    ok = ask(NC_MG_JOIN, s->group, &mg, NULL) == NC_OK && (mg == NC_MG_OK || mg == NC_MG_EEXIST);
    /* the others answer the test's probes as they come (mpi_swmc_arrived) */
    if (c->rank == 0)
        id[0] = ok && test_group(s);
    coll_bcast_binomial(id, 1, MPI_UNSIGNED, 0, c);
    all_ok = id[0];
    if (all_ok) {
        s->ready = true;
        swmc_say(c, "tested: broadcasts on the group", s->group);
        return;
    }
    swmc_say(c, "a join failed or the test ran out of probes: point-to-point", s->group);
    if (ok)
        swmc_leave(s, "a communicator's creation");
    c->swmc = NULL;
    swmc_free(s);
}

void mpi_swmc_release(MPI_Comm c)
{
    struct mpi_swmc *s = c->swmc;

    if (!s)
        return;
    swmc_bcast_drain(s);
    if (s->lazy)
        swmc_lazy_release(s);
    else
        swmc_leave(s, "MPI_Comm_free");
    c->swmc = NULL;
    swmc_free(s);
}

void mpi_swmc_finalize(void)
{
    if (mpi_state.comm_mode == COMM_POOL)
        swmc_pool_finalize();
    while (all) {
        struct mpi_swmc *s = all;

        swmc_bcast_drain(s);
        if (s->lazy)
            swmc_lazy_release(s);
        else
            swmc_leave(s, "MPI_Finalize");
        s->comm->swmc = NULL;
        swmc_free(s);
    }
    early_expire(UINT64_MAX);
}

/* A group packet from node `node` on switch group `group`: a probe of the
 * test (a communicator's or a pool group's), or a broadcast's bytes. */
void mpi_swmc_arrived(unsigned node, uint32_t group, const uint8_t *data, size_t len)
{
    struct swmc_wire w;
    struct mpi_swmc *s;

    if (len < sizeof w)
        return;     /* not ours: the group carries only libmpi's packets */
    memcpy(&w, data, sizeof w);
    if (w.kind == SWMC_POOL_PING) {
        swmc_pool_probed(node, group, w.ctx);
        return;
    }
    /* a communicator freed since (a late copy), or a group this process
     * was taken out of whose switches still reach it (Pool: a
     * non-member's communicator may have the same context id) */
    if (!(s = mpi_swmc_of_ctx(w.ctx)) || s->group != group) {
        bool kept = !s && early_keep(node, group, w.ctx, data, len);

        if (mpi_state.debug)
            nc_host_printf("libmpi: rank %d: switch group %u: a packet for context %u from node %u before or after its communicator here: %s\n",
                           mpi_state.world_rank, group, w.ctx, node, kept ? "kept" : "dropped");
        return;
    }
    if (w.kind == SWMC_PING) {
        if (!s->ping_acked) {
            struct mpi_hdr h = { .type = PKT_SWMC, .ctx = w.ctx, .tag = SWMC_PING_ACK,
                                 .len = w.seq };

            s->ping_acked = true;
            mpi_net_send((int)node, &h, NULL, 0, NULL);
        }
    } else if (w.kind == SWMC_DATA) {
        swmc_bcast_fragment(s, (int)node, &w, data + sizeof w, len - sizeof w);
    }
}

void mpi_swmc_control(int src_world, const struct mpi_hdr *h, const uint8_t *payload,
                      size_t len)
{
    struct mpi_swmc *s = mpi_swmc_of_ctx(h->ctx);
    int r;

    if (h->tag == SWMC_POOL_ID || h->tag == SWMC_POOL_ACK || h->tag == SWMC_POOL_JOINED) {
        swmc_pool_control(src_world, h->tag, (uint32_t)h->len, h->ctx);
        return;
    }
    if (!s)
        return;
    if (h->tag == SWMC_READY) {
        swmc_lazy_ready(s);
        return;
    }
    switch (h->tag) {
    case SWMC_PING_ACK:
        r = mpi_swmc_rank_of(s->comm, src_world);
        if (r >= 0 && !s->tested_by[r]) {
            s->tested_by[r] = 1;
            s->tested++;
        }
        break;
    case SWMC_DATA_ACK:
        swmc_bcast_ack(s, src_world, (uint32_t)h->len);
        break;
    case SWMC_RESEND: {
        struct swmc_wire w = { .kind = SWMC_DATA, .ctx = h->ctx, .seq = (uint32_t)h->len,
                               .off = (uint32_t)h->sreq, .total = (uint32_t)h->rreq,
                               .flags = SWMC_RESENT };

        swmc_bcast_fragment(s, src_world, &w, payload, len);
        break;
    }
    default:
        mpi_error(NULL, MPI_ERR_INTERN, "progress", "switch multicast control %d from node %d",
                  h->tag, src_world);
    }
}
