/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The groups, receptions and early arrivals of the broadcast on NIC
 * multicast (MPI_NC_BCAST=nic; docs/mpi.md "Broadcast on the NIC"; the
 * algorithm itself, blocking and not, is coll_bcast_nic.c). A communicator gets one NIC group per root, created the first
 * time that root broadcasts and kept until MPI_Comm_free or MPI_Finalize
 * (seed 003's "lazy" creation). Creation is collective and agreed: every
 * member writes its entry if its NIC has room, then an allreduce tells all
 * whether every member did; if one could not, the ones that did drop
 * theirs and the (communicator, root) pair stays on the host's binomial
 * broadcast for good. Every member decides from the same allreduce, so
 * they never disagree on the path, and the agreement also orders every
 * member's entry before the root's first multicast.
 *
 * The group's tree is the setting MPI_NC_BCAST_TREE (default postal with
 * lambda 4), built by libnicoll on the ID order; inner members' NICs
 * forward each packet as it arrives. With postal:0 a (communicator, root)
 * has a group per tree class instead: the postal lambda of the
 * broadcast's multicast length from the profile's postal table (seed 000
 * section 5.5: one tree per message-size class), each created on its first
 * use; a broadcast's multicasts all go by the class of its first one.
 * The data go without a header: the group names the communicator and the
 * root, and MPI's matching rule (same type signature on every member)
 * tells a member how many bytes to wait for. Longer than one receive slot
 * (MPI_NC_CHUNK) they go as several multicasts of the group, in order.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_impl.h"
#include "nicoll.h"
#include "nicoll/hostif.h"

/* MPI owns port 0 alone, so the NIC's group table (16 entries) is ours;
 * a few stay free for a program that opens other ports of its own. */
#define BCAST_GROUPS_MAX 12
/* ids: bit 31 (never 0) | context id (13 bits) | tree class (6 bits) |
 * root (12 bits) */
#define CTX_BITS 13
#define CLASS_BITS 6
#define ROOT_BITS 12

static unsigned groups_used;

/* Data of a group that arrived before its MPI_Bcast was called. */
struct arrival {
    uint32_t group;
    size_t len;
    struct arrival *next;
    uint8_t data[];
};
static struct arrival *early_head, *early_tail;

/* The broadcasts this rank waits for (MPI_Bcast one, MPI_Ibcast any
 * number), oldest first: a group's bytes go to its oldest reception. */
struct reception {
    uint32_t group;
    uint8_t *dst;
    size_t left;
    MPI_Request req;            /* completed when left reaches 0 */
    struct reception *next;
};
static struct reception *want_head, *want_tail;

static uint32_t group_id(MPI_Comm c, int root, unsigned cls)
{
    return 0x80000000u | (c->ctx << (CLASS_BITS + ROOT_BITS)) | (cls << ROOT_BITS) | (uint32_t)root;
}

/* The tree class of a broadcast whose multicasts are len bytes: with
 * postal:0, lambda - 1 for len's postal lambda from the profile's table
 * (MPI_Init checked that there is one; every rank reads the same table
 * for the same length: MPI's matching rule); 0 for the one fixed tree. */
static unsigned tree_class(size_t len)
{
    unsigned lambda = 0;

    if (mpi_state.bcast_tree.kind != NC_TREE_POSTAL || mpi_state.bcast_tree.lambda ||
        nc_postal_lambda(len, &lambda, NULL, 0) != NC_OK || lambda < 1)
        return 0;
    return lambda - 1;      /* 1..64 -> 0..63 */
}

static bool group_fits(MPI_Comm c)
{
    return c->ctx < (1u << CTX_BITS) && c->size <= (1 << ROOT_BITS) &&
           (unsigned)c->size <= NC_GROUP_MAX_MEMBERS;
}

/* The members in rank order, (node, port 0); the tree is the setting's
 * (MPI_NC_BCAST_TREE), built by libnicoll on the ID order. */
static int group_write(MPI_Comm c, int root, unsigned cls)
{
    nc_member *m = malloc(sizeof *m * (size_t)c->size);
    nc_tree_spec spec = mpi_state.bcast_tree;
    int rc;

    if (spec.kind == NC_TREE_POSTAL && !spec.lambda)
        spec.lambda = cls + 1;      /* the class's own tree */
    for (int i = 0; i < c->size; i++)
        m[i] = (nc_member){ (uint16_t)c->group->world[i], 0 };
    rc = nc_group_create(mpi_net_port(), group_id(c, root, cls), m, (unsigned)c->size,
                         (unsigned)root, &spec);
    free(m);
    return rc;
}

/* Requests waiting for a (communicator, root, class) agreement under way. */
struct decision_wait {
    MPI_Comm c;
    int root;
    unsigned cls;
    MPI_Request r;
    struct decision_wait *next;
};
static struct decision_wait *decision_waits;

static void states_alloc(MPI_Comm c)
{
    if (c->nic_on)
        return;
    c->nic_on = calloc((size_t)c->size, sizeof *c->nic_on);
    c->nic_pend = calloc((size_t)c->size, sizeof *c->nic_pend);
    c->nic_off = calloc((size_t)c->size, sizeof *c->nic_off);
}

/* This rank's part of a group's first use: its NIC entry written if the
 * NIC has room (1) or not (0). Local. */
static int group_offer(MPI_Comm c, int root, unsigned cls)
{
    if (!group_fits(c) || groups_used >= BCAST_GROUPS_MAX || group_write(c, root, cls) != NC_OK)
        return 0;
    groups_used++;      /* from the offer on: several may be under way at once (MPI_Ibcast) */
    return 1;
}

/* The agreement's outcome (all: every member wrote its entry; the same on
 * every member): the group kept, or dropped and the class on the host. */
static void group_agreed(MPI_Comm c, int root, unsigned cls, int mine, int all)
{
    states_alloc(c);
    c->nic_pend[root] &= ~(1ull << cls);
    if (mine && !all) {
        nc_group_destroy(mpi_net_port(), group_id(c, root, cls));
        groups_used--;
    }
    if (all)
        c->nic_on[root] |= 1ull << cls;
    else
        c->nic_off[root] |= 1ull << cls;
    if (mpi_state.debug)
        nc_host_printf("libmpi: rank %d: broadcast group %#x of root %d, tree class %u: %s\n",
                       mpi_state.world_rank, group_id(c, root, cls), root, cls,
                       all ? "on the NIC" : "on the host (a member has no room)");
    /* the broadcasts that waited for it go on */
    for (struct decision_wait **pp = &decision_waits; *pp;) {
        struct decision_wait *w = *pp;

        if (w->c == c && w->root == root && w->cls == cls) {
            *pp = w->next;
            mpi_req_complete(w->r);
            free(w);
        } else {
            pp = &w->next;
        }
    }
}

/* The tree class of a broadcast of bytes (by its first multicast). */
static unsigned class_of(size_t bytes)
{
    return tree_class(bytes < mpi_state.chunk ? bytes : mpi_state.chunk);
}

int mpi_bcast_nic_state(MPI_Comm c, int root, size_t bytes, uint32_t *group)
{
    unsigned cls = class_of(bytes);
    uint64_t bit = 1ull << cls;

    if (!mpi_state.bcast_nic || c->size < 2 || !bytes || (c->nic_off && c->nic_off[root] & bit))
        return -1;
    if (c->nic_pend && c->nic_pend[root] & bit)
        return 2;
    if (!c->nic_on || !(c->nic_on[root] & bit))
        return 0;
    *group = group_id(c, root, cls);
    return 1;
}

int mpi_bcast_nic_offer(MPI_Comm c, int root, size_t bytes)
{
    unsigned cls = class_of(bytes);

    states_alloc(c);
    c->nic_pend[root] |= 1ull << cls;
    return group_offer(c, root, cls);
}

MPI_Request mpi_bcast_nic_decision(MPI_Comm c, int root, size_t bytes)
{
    MPI_Request r = mpi_req_new(REQ_COLL);
    unsigned cls = class_of(bytes);

    if (!c->nic_pend || !(c->nic_pend[root] & 1ull << cls)) {
        mpi_req_complete(r);
        return r;
    }
    struct decision_wait *w = malloc(sizeof *w);
    *w = (struct decision_wait){ c, root, cls, r, decision_waits };
    decision_waits = w;
    return r;
}

void mpi_bcast_nic_agreed(MPI_Comm c, int root, size_t bytes, int mine, int all)
{
    group_agreed(c, root, class_of(bytes), mine, all);
}

/* The oldest reception of group, or NULL. */
static struct reception *reception_of(uint32_t group)
{
    struct reception *w = want_head;

    while (w && w->group != group)
        w = w->next;
    return w;
}

/* len bytes of w's group into w; w done (off the list, its request
 * complete) when it has all. */
static void deliver(struct reception *w, const uint8_t *data, size_t len)
{
    if (len > w->left) {
        mpi_error(NULL, MPI_ERR_TRUNCATE, "MPI_Bcast",
                  "the root sent more bytes than this rank's count and type hold");
        len = w->left;
    }
    nc_host_memcpy(w->dst, data, len);
    w->dst += len;
    w->left -= len;
    if (w->left)
        return;
    struct reception **pp = &want_head, *prev = NULL;
    while (*pp != w) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    *pp = w->next;
    if (want_tail == w)
        want_tail = prev;
    mpi_req_complete(w->req);
    free(w);
}

/* Hand what arrived early for group, oldest first, to its receptions. */
static void take_early(uint32_t group)
{
    struct arrival **pp = &early_head, *prev = NULL;
    struct reception *w;

    while (*pp && (w = reception_of(group))) {
        struct arrival *a = *pp;
        if (a->group != group) {
            prev = a;
            pp = &a->next;
            continue;
        }
        *pp = a->next;
        if (early_tail == a)
            early_tail = prev;
        deliver(w, a->data, a->len);
        free(a);
    }
}

/* A member's share of a multicast, from mpi_net.c's event loop. */
void mpi_bcast_nic_arrived(uint32_t group, const uint8_t *data, size_t len)
{
    struct reception *w = reception_of(group);

    if (w) {
        deliver(w, data, len);
        return;
    }
    struct arrival *a = malloc(sizeof *a + len);
    a->group = group;
    a->len = len;
    a->next = NULL;
    nc_host_memcpy(a->data, data, len);
    if (early_tail)
        early_tail->next = a;
    else
        early_head = a;
    early_tail = a;
}

MPI_Request mpi_bcast_nic_irecv(uint32_t group, void *dst, size_t bytes)
{
    struct reception *w = calloc(1, sizeof *w);
    MPI_Request r = mpi_req_new(REQ_COLL);

    w->group = group;
    w->dst = dst;
    w->left = bytes;
    w->req = r;
    if (want_tail)
        want_tail->next = w;
    else
        want_head = w;
    want_tail = w;
    take_early(group);
    return r;
}

void mpi_bcast_nic_isend(uint32_t group, const void *data, size_t bytes, MPI_Request owner)
{
    owner->frags_left = (unsigned)((bytes + mpi_state.chunk - 1) / mpi_state.chunk);
    for (size_t off = 0; off < bytes; off += mpi_state.chunk) {
        size_t len = bytes - off < mpi_state.chunk ? bytes - off : mpi_state.chunk;
        mpi_net_imcast(group, (const uint8_t *)data + off, len, owner);
    }
}

/* Before the groups go (MPI_Comm_free, MPI_Finalize): every multicast of
 * ours acknowledged by every member, then everyone past that point, so no
 * member drops its entry while a root may still send to it. Collective. */
void mpi_bcast_nic_release(MPI_Comm c)
{
    bool any = false;

    for (int r = 0; c->nic_on && r < c->size; r++)
        any |= c->nic_on[r] != 0;
    if (any) {
        coll_sched_finish_comm(c);      /* an Ibcast of c's may use them */
        mpi_net_mcast_drain();
        MPI_Barrier(c);
        for (int r = 0; r < c->size; r++)
            for (uint64_t on = c->nic_on[r]; on; on &= on - 1) {
                nc_group_destroy(mpi_net_port(), group_id(c, r, (unsigned)__builtin_ctzll(on)));
                groups_used--;
            }
    }
    free(c->nic_on);
    free(c->nic_pend);
    free(c->nic_off);
    c->nic_on = c->nic_pend = c->nic_off = NULL;
}
