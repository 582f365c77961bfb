/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Seed 003's Lazy design (MPI_NC_COMM=lazy; docs/mpi.md "Communicators on
 * switch multicast"): a communicator's constructor issues its group's
 * requests and returns; the group is tested in the background, by the
 * progress calls of whatever MPI calls come next, and until the test has
 * passed the communicator's broadcasts go on a tree by point-to-point.
 * In the constructor rank 0 asks the entity for an id and tells every
 * member (swmc_create, Basic's first step), and every member posts its
 * join without waiting for the answer: the entity writes the switches
 * while the program computes. Rank 0, once its own join is answered,
 * probes the group every SWMC_PROBE_NS from its progress calls until every
 * member has answered one; then it tells every member SWMC_READY. A rank
 * that knows the group is ready sends its broadcasts on it; every member
 * takes a broadcast by whichever path its root chose (coll_bcast_swmc.c),
 * so that no member needs to agree with another on when the switch
 * happens.
 */
#include <stdlib.h>

#include "mpi_swmc.h"
#include "nicoll/hostif.h"
#include "nicoll/nc_mgmt.h"

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

void swmc_lazy_start(MPI_Comm c, uint32_t group)
{
    struct mpi_swmc *s = swmc_new(c, group);

    s->lazy = true;
    s->phase = LZ_JOINING;
    post(s, NC_MG_JOIN);
}

void swmc_lazy_answer(struct mpi_swmc *s)
{
    const struct mg_wait *w = &s->req;
    /* a repeated join (its first answer lost) is NC_MG_EEXIST */
    bool ok = w->status == NC_OK && (w->mg_status == NC_MG_OK || w->mg_status == NC_MG_EEXIST);

    s->req_busy = false;
    if (s->phase != LZ_JOINING && s->phase != LZ_READY)
        return;
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

void swmc_lazy_ready(struct mpi_swmc *s)
{
    if (!s->lazy || s->phase == LZ_OFF)
        return;
    /* it may come before this rank has taken its join's answer: the
     * switches hold this NIC's port, the probes found it */
    s->ready = true;
    if (s->phase == LZ_JOINED)
        s->phase = LZ_READY;
    say(s, "tested: broadcasts on the group");
}

void swmc_lazy_tick(struct mpi_swmc *s)
{
    uint64_t now = nc_host_now_ns();

    if (s->req_busy && now - s->req.sent_ns >= SWMC_ANSWER_NS) {
        if (s->req.asks >= SWMC_ASKS) {
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
