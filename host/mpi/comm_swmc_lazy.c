/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Seed 003's Lazy design (MPI_NC_COMM=lazy; docs/mpi.md "Communicators on
 * switch multicast"): a communicator's constructor only starts its group
 * and returns; the group is made, joined and tested in the background, by
 * the progress calls of whatever MPI calls come next, and until the test
 * has passed the communicator's broadcasts go on a tree by point-to-point.
 * Rank 0 asks the entity for an id without waiting, tells every member the
 * id by point-to-point (SWMC_GROUP_ID), joins, and probes the group every
 * SWMC_PROBE_NS from its progress calls until every member has answered
 * one; then it tells every member SWMC_READY. A rank that knows the group
 * is ready sends its broadcasts on it; every member takes a broadcast by
 * whichever path its root chose (coll_bcast_swmc.c), so that no member
 * needs to agree with another on when the switch happens.
 */
#include <stdlib.h>

#include "mpi_swmc.h"
#include "nicoll/hostif.h"
#include "nicoll/nc_mgmt.h"

/* Controls that came for a communicator this rank has not made yet (its
 * constructor still under way when rank 0's GROUP_ID arrived). */
struct early {
    uint32_t ctx, value;
    int kind;
    struct early *next;
};
static struct early *early;

static void say(struct mpi_swmc *s, const char *what)
{
    swmc_say(s->comm, what, s->group);
}

static void control(struct mpi_swmc *s, int kind, uint32_t value)
{
    struct mpi_hdr h = { .type = PKT_SWMC, .ctx = s->comm->ctx, .tag = kind, .len = value };

    for (int i = 1; i < s->comm->size; i++)
        mpi_net_send(s->comm->group->world[i], &h, NULL, 0, NULL);
}

static void post(struct mpi_swmc *s, unsigned op)
{
    s->req.asks = 0;
    s->req.owner = s;
    s->req_busy = swmc_post(&s->req, op, s->group) == NC_OK;
    if (!s->req_busy) {
        s->phase = LZ_OFF;
        say(s, "the NIC refused a request to the entity: point-to-point");
    }
}

static void join(struct mpi_swmc *s, uint32_t group)
{
    s->group = group;
    s->phase = LZ_JOINING;
    post(s, NC_MG_JOIN);
}

void swmc_lazy_start(MPI_Comm c)
{
    struct mpi_swmc *s = swmc_new(c);

    s->lazy = true;
    if (c->rank == 0) {
        s->phase = LZ_CREATING;
        post(s, NC_MG_CREATE);
        return;
    }
    s->phase = LZ_WAIT_ID;
    for (struct early **pp = &early; *pp;) {
        struct early *e = *pp;

        if (e->ctx == c->ctx) {
            *pp = e->next;
            swmc_lazy_control(s, e->ctx, e->kind, e->value);
            free(e);
        } else {
            pp = &e->next;
        }
    }
}

void swmc_lazy_answer(struct mpi_swmc *s)
{
    const struct mg_wait *w = &s->req;
    bool ok = w->status == NC_OK && (w->mg_status == NC_MG_OK ||
                                     (w->op == NC_MG_JOIN && w->mg_status == NC_MG_EEXIST));

    s->req_busy = false;
    if (s->phase == LZ_CREATING) {
        if (!ok) {
            s->phase = LZ_OFF;
            say(s, "no id from the entity: point-to-point");
            return;
        }
        control(s, SWMC_GROUP_ID, w->group);
        join(s, w->group);
    } else if (s->phase == LZ_JOINING || s->phase == LZ_READY) {
        if (!ok) {
            s->phase = LZ_OFF;
            s->ready = false;
            say(s, "a join failed: point-to-point");
            return;
        }
        s->joined = true;
        if (s->phase == LZ_JOINING)
            s->phase = s->comm->rank == 0 ? LZ_TESTING : LZ_JOINED;
    }
}

void swmc_lazy_control(struct mpi_swmc *s, uint32_t ctx, int kind, uint32_t value)
{
    if (!s) {
        struct early *e = malloc(sizeof *e);

        *e = (struct early){ ctx, value, kind, early };
        early = e;
        return;
    }
    if (kind == SWMC_GROUP_ID && s->phase == LZ_WAIT_ID) {
        join(s, value);
    } else if (kind == SWMC_READY && s->phase != LZ_OFF) {
        /* it may come before this rank has taken its join's answer: the
         * switches hold this NIC's port, the probes found it */
        s->ready = true;
        if (s->phase == LZ_JOINED)
            s->phase = LZ_READY;
        say(s, "tested: broadcasts on the group");
    }
}

void swmc_lazy_tick(struct mpi_swmc *s)
{
    uint64_t now = nc_host_now_ns();

    if (s->req_busy && now - s->req.sent_ns >= SWMC_ANSWER_NS) {
        if (s->req.op == NC_MG_CREATE || s->req.asks >= SWMC_ASKS) {
            swmc_cancel(&s->req);
            s->req_busy = false;
            s->phase = LZ_OFF;
            say(s, "no answer from the entity: point-to-point");
        } else if (swmc_post(&s->req, s->req.op, s->group) != NC_OK) {
            s->req_busy = false;
            s->phase = LZ_OFF;
        }
    }
    if (s->phase != LZ_TESTING)
        return;
    if (s->tested == (unsigned)s->comm->size - 1) {
        s->phase = LZ_READY;
        s->ready = true;
        control(s, SWMC_READY, 0);
        say(s, "tested: broadcasts on the group");
    } else if (s->probes >= SWMC_PROBES) {
        s->phase = LZ_OFF;
        say(s, "the test ran out of probes: point-to-point");
    } else if (!s->probes || now - s->probe_ns >= SWMC_PROBE_NS) {
        swmc_probe(s, s->probes++);
        s->probe_ns = now;
    }
}

/* MPI_Comm_free, MPI_Finalize: the request under way answered (or given
 * up), then a leave if this rank joined. */
void swmc_lazy_release(struct mpi_swmc *s)
{
    uint64_t idle = nc_host_now_ns();

    while (s->req_busy)
        mpi_progress_wait(&idle);
    if (s->joined)
        swmc_leave(s, "MPI_Comm_free");
}
