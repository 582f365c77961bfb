/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Seed 003's Pool design (MPI_NC_COMM=pool; docs/mpi.md "Communicators on
 * switch multicast"): groups of every process, made and tested ahead of
 * time, so that a new communicator's first MPI_Bcast already goes on a
 * tested group. **Decision**: each process owns a slice of the pool, the
 * groups it created, and a communicator takes a group from the slice of
 * its rank 0: a process makes its constructors one after the other, so no
 * two communicators ever take the same group, even when disjoint ones are
 * made at once by different processes, and a parent smaller than
 * MPI_COMM_WORLD needs nothing from the processes outside it. Rank 0 tells
 * the members the id (the host's binomial broadcast, as Basic) and asks
 * the entity to take the non-members out (a leave names its node, so one
 * node may leave for another); a non-member drops the group packets that
 * come before its leave reaches the switches (mpi_swmc_arrived: not its
 * group). The owner refills its slice in the background, from progress
 * calls: it creates a group, tells every process the id (SWMC_POOL_ID),
 * each joins, and the owner probes the group (SWMC_POOL_PING) until every
 * process has answered one (SWMC_POOL_ACK); only then does the group enter
 * the slice. The test gives up only after SWMC_PROBES probes with no news:
 * no new answer, and no word from a process that the entity answered its
 * join (SWMC_POOL_JOINED). At MPI_Init every owner's joins queue at the
 * one entity at once (N(N-1) of them, 20 ms of its work at 32 processes on
 * P-IB), so a group whose joins the entity takes late in that storm
 * answers its probes only then, however long the storm lasts.
 * **Decision**: a process sends that word only for a join the entity took
 * longer than POOL_JOIN_SLOW_NS to answer, a quarter of the test's budget:
 * a refill in the background while the program broadcasts (a join
 * answered in about a millisecond) costs the owner no extra message. An
 * empty slice makes the constructor Lazy's. MPI_Init fills every slice,
 * blocking; MPI_Finalize takes every process out of the
 * groups still in the owner's slice.
 */
#include <stdlib.h>
#include <string.h>

#include "coll_table.h"
#include "mpi_swmc.h"
#include "nicoll/hostif.h"
#include "nicoll/nc_mgmt.h"

/* The pool's requests to the entity under way at once: the NIC keeps
 * NC_ABI_GRP_REQS per port awaiting answers, and a request beyond them
 * takes the oldest's place (its answer is dropped: a lost create's id is
 * never known, so never freed). **Decision**: one fewer, so that a
 * communicator's own request (Lazy's fallback) has room too. */
#define POOL_REQS_OUT (NC_ABI_GRP_REQS - 1u)

static uint32_t *slice;         /* this process's tested groups */
static unsigned nslice, want;
static bool closing;            /* MPI_Finalize: no refill starts */
static bool held;               /* a create failed: none until a group is taken */

/* The owner's refill under way. */
static struct {
    enum { R_IDLE, R_WAIT_ROOM, R_CREATING, R_TESTING } phase;
    struct mg_wait req;
    uint32_t group;
    uint32_t serial;            /* this owner's tests, counted: a probe names its test */
    uint8_t *answered;          /* per world rank */
    unsigned answers, probes;
    unsigned quiet;             /* probes since the last new answer */
    uint64_t probe_ns;
} refill;

/* A join (for another owner's refill: its owner and test, when it was
 * queued) or a leave (for any node) waiting to be posted or answered. */
struct pool_req {
    struct mg_wait w;
    unsigned op, node, owner;
    uint32_t group, serial;
    uint64_t queued_ns;
    bool posted;
    struct pool_req *next;
};
static struct pool_req *joins, *leaves;

/* The refills this process has answered a probe of: one answer each (the
 * answer is reliable), so that the probes of every owner's test, all at
 * once at MPI_Init, cost each process one message per group. A record
 * names the owner's test (its serial), so an id the entity gives the same
 * owner again is a new test, answered again. A record goes after
 * SWMC_PROBES probe periods; a test still probing after that is answered
 * once more, and the owner counts each process once. */
struct answered {
    uint32_t group, serial;
    unsigned owner;
    uint64_t at_ns;
    struct answered *next;
};
static struct answered *answered;
#define POOL_ANSWER_KEEP_NS ((uint64_t)SWMC_PROBES * SWMC_PROBE_NS)

static void say(const char *what, uint32_t group)
{
    if (mpi_state.debug)
        nc_host_printf("libmpi: rank %d: pool: switch group %u: %s\n", mpi_state.world_rank,
                       group, what);
}

static struct pool_req *queue(struct pool_req **list, unsigned op, uint32_t group,
                              unsigned node)
{
    struct pool_req *r = calloc(1, sizeof *r);

    r->op = op;
    r->group = group;
    r->node = node;
    r->queued_ns = nc_host_now_ns();
    r->next = *list;
    *list = r;
    return r;
}

#define POOL_JOIN_SLOW_NS ((uint64_t)SWMC_PROBES * SWMC_PROBE_NS / 4)

/* The entity answered this process's join of a refill, late: its owner
 * learns the entity is at work (a refused join says nothing of the kind). */
static void joined(const struct pool_req *r)
{
    struct mpi_hdr h = { .type = PKT_SWMC, .ctx = r->serial, .tag = SWMC_POOL_JOINED,
                         .len = r->group };

    if ((r->w.mg_status == NC_MG_OK || r->w.mg_status == NC_MG_EEXIST) &&
        nc_host_now_ns() - r->queued_ns >= POOL_JOIN_SLOW_NS)
        mpi_net_send((int)r->owner, &h, NULL, 0, NULL);
}

static bool room(void)
{
    return swmc_outstanding() < POOL_REQS_OUT;
}

/* Post (while there is room), repeat (SWMC_ANSWER_NS, SWMC_ASKS) and
 * retire the requests of a list; a repeated join is NC_MG_EEXIST, a
 * repeated leave NC_MG_ENOENT, both taken. */
static void advance(struct pool_req **list)
{
    uint64_t now = nc_host_now_ns();

    for (struct pool_req **pp = list; *pp;) {
        struct pool_req *r = *pp;

        if (r->posted && !r->w.got && now - r->w.sent_ns >= SWMC_ANSWER_NS) {
            if (r->w.asks >= SWMC_ASKS) {
                swmc_cancel(&r->w);
                say(r->op == NC_MG_JOIN ? "no answer to a join" : "no answer to a leave",
                    r->group);
                r->w.got = true;
                r->w.status = NC_ETIMEDOUT;
            } else if (swmc_post_for(&r->w, r->op, r->group, r->node) != NC_OK) {
                r->posted = false;
            }
        }
        if (r->posted && r->w.got) {
            if (r->op == NC_MG_JOIN && r->w.status == NC_OK)
                joined(r);
            *pp = r->next;
            free(r);
            continue;
        }
        if (!r->posted && room())
            r->posted = swmc_post_for(&r->w, r->op, r->group, r->node) == NC_OK;
        pp = &r->next;
    }
}

static void leave_all(uint32_t group)
{
    for (int i = 0; i < mpi_state.world_size; i++)
        queue(&leaves, NC_MG_LEAVE, group, (unsigned)i);
}

static void refill_start(void)
{
    if (refill.phase != R_IDLE || closing || held || nslice >= want)
        return;
    refill.req = (struct mg_wait){ 0 };
    refill.phase = R_WAIT_ROOM;
}

static void refill_post(void)
{
    if (!room())
        return;
    if (swmc_post_for(&refill.req, NC_MG_CREATE, 0, 0) != NC_OK) {
        refill.phase = R_IDLE;
        held = true;
        say("the NIC refused a create: the pool stays smaller", 0);
        return;
    }
    refill.phase = R_CREATING;
}

static void refill_created(void)
{
    const struct mg_wait *w = &refill.req;
    struct mpi_hdr h = { .type = PKT_SWMC, .tag = SWMC_POOL_ID, .len = w->group };

    refill.phase = R_IDLE;
    if (w->status != NC_OK || w->mg_status != NC_MG_OK) {
        held = true;
        say("no id from the entity: the pool stays smaller", 0);
        return;
    }
    refill.group = w->group;
    h.ctx = ++refill.serial;
    refill.answers = refill.probes = refill.quiet = 0;
    memset(refill.answered, 0, (size_t)mpi_state.world_size);
    for (int i = 0; i < mpi_state.world_size; i++)
        if (i != mpi_state.world_rank)
            mpi_net_send(i, &h, NULL, 0, NULL);
    refill.phase = R_TESTING;
}

static void refill_tested(void)
{
    slice[nslice++] = refill.group;
    refill.phase = R_IDLE;
    say("tested: in this process's pool", refill.group);
    refill_start();
}

static void refill_tick(void)
{
    uint64_t now = nc_host_now_ns();

    if (refill.phase == R_WAIT_ROOM)
        refill_post();
    if (refill.phase == R_CREATING) {
        if (refill.req.got) {
            refill_created();
        } else if (now - refill.req.sent_ns >= SWMC_ANSWER_NS) {
            /* a create is asked once: a second would take a second id */
            swmc_cancel(&refill.req);
            refill.phase = R_IDLE;
            held = true;
            say("no answer from the entity: the pool stays smaller", 0);
        }
    }
    if (refill.phase != R_TESTING)
        return;
    if (refill.answers == (unsigned)mpi_state.world_size - 1) {
        refill_tested();
    } else if (refill.quiet >= SWMC_PROBES) {
        refill.phase = R_IDLE;
        held = true;
        say("the test ran out of probes: every process leaves it", refill.group);
        leave_all(refill.group);
    } else if (!refill.probes || now - refill.probe_ns >= SWMC_PROBE_NS) {
        struct swmc_wire probe = { .kind = SWMC_POOL_PING, .ctx = refill.serial,
                                   .seq = refill.probes++ };

        refill.quiet++;
        mpi_net_gsend(refill.group, &probe, sizeof probe, NULL, 0, NULL);
        refill.probe_ns = now;
    }
}

void swmc_pool_tick(void)
{
    /* the joins first: other owners' tests wait for them */
    advance(&joins);
    advance(&leaves);
    refill_tick();
}

void swmc_pool_control(int src_world, int kind, uint32_t group, uint32_t serial)
{
    if (kind == SWMC_POOL_ID) {
        struct pool_req *r = queue(&joins, NC_MG_JOIN, group, (unsigned)mpi_state.world_rank);

        r->owner = (unsigned)src_world;
        r->serial = serial;
        advance(&joins);
        return;
    }
    if (refill.phase != R_TESTING || group != refill.group || serial != refill.serial ||
        src_world == mpi_state.world_rank)
        return;
    if (kind == SWMC_POOL_JOINED) {
        refill.quiet = 0;
    } else if (kind == SWMC_POOL_ACK && !refill.answered[src_world]) {
        refill.answered[src_world] = 1;
        refill.answers++;
        refill.quiet = 0;
    }
}

void swmc_pool_probed(unsigned owner, uint32_t group, uint32_t serial)
{
    struct mpi_hdr h = { .type = PKT_SWMC, .ctx = serial, .tag = SWMC_POOL_ACK, .len = group };

    uint64_t now = nc_host_now_ns();

    if (owner == (unsigned)mpi_state.world_rank)
        return;
    for (struct answered **pp = &answered; *pp;) {
        struct answered *a = *pp;

        if (now - a->at_ns >= POOL_ANSWER_KEEP_NS) {
            *pp = a->next;
            free(a);
            continue;
        }
        if (a->group == group && a->owner == owner && a->serial == serial)
            return;
        pp = &a->next;
    }
    struct answered *a = malloc(sizeof *a);
    *a = (struct answered){ group, serial, owner, now, answered };
    answered = a;
    /* the switches hold this port: the entity took the join, whose
     * repeat (its answer lost) would come after the owner may have
     * given the group away and taken this process out */
    for (struct pool_req **pp = &joins; *pp; pp = &(*pp)->next)
        if ((*pp)->group == group) {
            struct pool_req *r = *pp;

            swmc_cancel(&r->w);
            *pp = r->next;
            free(r);
            break;
        }
    mpi_net_send((int)owner, &h, NULL, 0, NULL);
}

static void wait_until(bool (*done)(void))
{
    uint64_t idle = nc_host_now_ns();

    while (!done())
        mpi_progress_wait(&idle);
}

static bool filled(void)
{
    return refill.phase == R_IDLE && !joins;
}

static bool left(void)
{
    return !leaves;
}

void swmc_pool_fill(void)
{
    int np = mpi_state.world_size;

    want = mpi_state.pool_size;
    /* **decision**: the pool's groups, np per slot, stay within half the
     * entity's 1,024 ids (SWMC_POOL_IDS), the rest for the communicators
     * that took theirs and the Lazy fallback */
    if (want * (unsigned)np > SWMC_POOL_IDS)
        want = SWMC_POOL_IDS / (unsigned)np;
    slice = calloc(want ? want : 1, sizeof *slice);
    refill.answered = calloc((size_t)np, 1);
    refill_start();
    wait_until(filled);
    /* every process's slice is filled: none leaves MPI_Init while another
     * owner's test waits for its answers */
    MPI_Barrier(MPI_COMM_WORLD);
}

/* A communicator's constructor: a group of rank 0's slice, or Lazy's
 * creation when the slice is empty. */
void swmc_pool_start(MPI_Comm c)
{
    /* [0]: 1 when rank 0 took a group, [1]: its id */
    unsigned id[2] = { 0, 0 };
    struct mpi_swmc *s;

    if (c->rank == 0 && nslice) {
        id[0] = 1;
        id[1] = slice[0];
        memmove(slice, slice + 1, --nslice * sizeof *slice);
        held = false;
    }
    coll_bcast_binomial(id, 2, MPI_UNSIGNED, 0, c);
    if (!id[0]) {
        uint32_t group;

        swmc_say(c, "rank 0's pool is empty: Lazy's creation", 0);
        if (swmc_create(c, &group))
            swmc_lazy_start(c, group);
        return;
    }
    s = swmc_new(c, id[1]);
    s->ready = true;
    swmc_say(c, "tested: broadcasts on the group, from rank 0's pool", s->group);
    if (c->rank != 0)
        return;
    for (int i = 0; i < mpi_state.world_size; i++)
        if (mpi_swmc_rank_of(c, i) < 0)
            queue(&leaves, NC_MG_LEAVE, s->group, (unsigned)i);
    advance(&leaves);
    refill_start();
}

void swmc_pool_finalize(void)
{
    closing = true;
    wait_until(filled);
    MPI_Barrier(MPI_COMM_WORLD);
    for (unsigned i = 0; i < nslice; i++)
        leave_all(slice[i]);
    nslice = 0;
    wait_until(left);
    free(slice);
    free(refill.answered);
    slice = NULL;
    refill.answered = NULL;
    while (answered) {
        struct answered *a = answered;

        answered = a->next;
        free(a);
    }
}
