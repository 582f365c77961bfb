/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Intra-communicators (MPI 3.1 section 6.4). A communicator is a group
 * and a context id; a message carries its context id and matches only a
 * receive of the same one, so different communicators never mix (and a
 * communicator's collectives use ctx + 1, never a user's receive).
 * A new context id is agreed by the members (mpi_ctx.c): an id that no
 * member has used for anything yet.
 */
#include <stdlib.h>
#include <string.h>

#include "coll_table.h"
#include "mpi_coll.h"
#include "mpi_impl.h"

MPI_Group mpi_group_new(int size, const int *world);

struct mpi_comm_s mpi_comm_world_, mpi_comm_self_;

static struct mpi_group_s world_group, self_group;

void mpi_comm_init_predefined(int rank, int size)
{
    static int self_world[1];
    int *w = malloc(sizeof(int) * (size_t)size);

    for (int i = 0; i < size; i++)
        w[i] = i;
    world_group = (struct mpi_group_s){ .size = size, .rank = rank, .world = w,
                                        .predefined = true };
    self_world[0] = rank;
    self_group = (struct mpi_group_s){ .size = 1, .rank = 0, .world = self_world,
                                       .predefined = true };
    mpi_comm_world_ = (struct mpi_comm_s){ .ctx = 0, .rank = rank, .size = size,
        .group = &world_group, .errh = MPI_ERRORS_ARE_FATAL, .predefined = true };
    mpi_comm_self_ = (struct mpi_comm_s){ .ctx = 2, .rank = 0, .size = 1,
        .group = &self_group, .errh = MPI_ERRORS_ARE_FATAL, .predefined = true };
    coll_table_fill(&mpi_comm_world_);
    coll_table_fill(&mpi_comm_self_);
}

int mpi_world_rank(MPI_Comm c, int rank)
{
    return c->group->world[rank];
}

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    MPI_CHECK_INIT("MPI_Comm_rank");
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_rank", "MPI_COMM_NULL");
    *rank = comm->rank;
    return MPI_SUCCESS;
}

int MPI_Comm_size(MPI_Comm comm, int *size)
{
    MPI_CHECK_INIT("MPI_Comm_size");
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_size", "MPI_COMM_NULL");
    *size = comm->size;
    return MPI_SUCCESS;
}

int MPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_group", "MPI_COMM_NULL");
    *group = mpi_group_new(comm->group->size, comm->group->world);
    return MPI_SUCCESS;
}

/* A context id every member of 'parent' agrees on (collective over it). */
static uint32_t agree_ctx(MPI_Comm parent)
{
    uint32_t ctx;
    int *all = malloc(sizeof(int) * (size_t)parent->size);

    for (int i = 0; i < parent->size; i++)
        all[i] = i;
    mpi_ctx_agree(parent, parent->size, all, TAG_CTX, &ctx);
    free(all);
    return ctx;
}

static MPI_Comm comm_new(MPI_Group g, uint32_t ctx, MPI_Errhandler eh)
{
    MPI_Comm c = calloc(1, sizeof *c);

    c->ctx = ctx;
    c->group = g;
    c->rank = g->rank;
    c->size = g->size;
    c->errh = eh;
    c->refs = 1;
    coll_table_fill(c);
    return c;
}

/* The new communicator's own parts from comm: group, topology, attributes
 * (their copy functions called); NULL after the error of a copy function. */
static MPI_Comm dup_of(MPI_Comm comm, uint32_t ctx, const char *fn, int *rc)
{
    MPI_Comm c = comm_new(mpi_group_new(comm->size, comm->group->world), ctx, comm->errh);

    mpi_topo_copy(comm, c);
    *rc = mpi_attr_copy_comm(comm, c);
    if (*rc) {
        mpi_comm_drop(c);
        *rc = mpi_error(comm, *rc, fn, "an attribute's copy function returned %d", *rc);
        return MPI_COMM_NULL;
    }
    return c;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    int rc;

    MPI_CHECK_INIT("MPI_Comm_dup");
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_dup", "MPI_COMM_NULL");
    uint32_t ctx = agree_ctx(comm);
    *newcomm = dup_of(comm, ctx, "MPI_Comm_dup", &rc);
    if (*newcomm)
        mpi_swmc_setup(*newcomm);
    return rc;
}

/*
 * MPI_Comm_idup (MPI 3.0): the new communicator is made, its attributes
 * copied, at once; its context id comes from an agreement started on
 * comm (mpi_ctx.c), which advances in every progress call, so the
 * program may use comm (and start more idups) before it waits. newcomm
 * is usable once *req has completed.
 */
int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *req)
{
    int rc;

    MPI_CHECK_INIT("MPI_Comm_idup");
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_idup", "MPI_COMM_NULL");
    /* no id until the agreement ends: one that no message carries, nor
     * (+ 1) a collective's */
    *newcomm = dup_of(comm, UINT32_MAX - 1, "MPI_Comm_idup", &rc);
    if (rc) {
        *req = MPI_REQUEST_NULL;
        return rc;
    }
    return mpi_ctx_agree_start(comm, *newcomm, req);
}

/* The rank in comm of the group's member i, or -1 if it is not in comm. */
static int comm_rank_of(MPI_Comm comm, MPI_Group group, int i)
{
    for (int k = 0; k < comm->size; k++)
        if (comm->group->world[k] == group->world[i])
            return k;
    return -1;
}

static int check_subgroup(MPI_Comm comm, MPI_Group group, const char *fn)
{
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, fn, "MPI_COMM_NULL");
    if (!group)
        return mpi_error(comm, MPI_ERR_GROUP, fn, "MPI_GROUP_NULL");
    for (int i = 0; i < group->size; i++)
        if (comm_rank_of(comm, group, i) < 0)
            return mpi_error(comm, MPI_ERR_GROUP, fn,
                             "the group is not a subset of the communicator's");
    return MPI_SUCCESS;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    int rc;

    MPI_CHECK_INIT("MPI_Comm_create");
    if ((rc = check_subgroup(comm, group, "MPI_Comm_create")))
        return rc;
    uint32_t ctx = agree_ctx(comm);
    if (group->rank == MPI_UNDEFINED) {
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    *newcomm = comm_new(mpi_group_new(group->size, group->world), ctx, comm->errh);
    mpi_swmc_setup(*newcomm);
    return MPI_SUCCESS;
}

/*
 * MPI_Comm_create_group (MPI 3.0): collective over the group's members
 * only, so the context id is agreed among them (the group's first member
 * leading) on comm's collective context with a tag made of the user's
 * (bit 30 set: above every tag of the collectives, mpi_coll.h), so that
 * calls with different tags on overlapping groups do not mix.
 */
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_create_group";
    int rc, itag = (1 << 30) | tag;
    uint32_t ctx;

    MPI_CHECK_INIT(fn);
    if ((rc = check_subgroup(comm, group, fn)))
        return rc;
    if (tag < 0 || tag > MPI_TAG_UB_VALUE)
        return mpi_error(comm, MPI_ERR_TAG, fn, "tag %d is not in 0..%d", tag, MPI_TAG_UB_VALUE);
    if (group->rank == MPI_UNDEFINED) {
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    int *members = malloc(sizeof(int) * (size_t)group->size);
    for (int i = 0; i < group->size; i++)
        members[i] = comm_rank_of(comm, group, i);
    rc = mpi_ctx_agree(comm, group->size, members, itag, &ctx);
    free(members);
    if (rc)
        return rc;
    *newcomm = comm_new(mpi_group_new(group->size, group->world), ctx, comm->errh);
    mpi_swmc_setup(*newcomm);
    return MPI_SUCCESS;
}

struct split_entry { int color, key, rank; };

static int by_key(const void *a, const void *b)
{
    const struct split_entry *x = a, *y = b;

    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank - y->rank;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    MPI_CHECK_INIT("MPI_Comm_split");
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_split", "MPI_COMM_NULL");
    if (color < 0 && color != MPI_UNDEFINED)
        return mpi_error(comm, MPI_ERR_ARG, "MPI_Comm_split", "color %d < 0", color);
    struct split_entry mine = { color, key, comm->rank };
    struct split_entry *all = malloc(sizeof *all * (size_t)comm->size);
    MPI_Allgather(&mine, 3, MPI_INT, all, 3, MPI_INT, comm);
    /* one context id for all the new communicators: they are disjoint */
    uint32_t ctx = agree_ctx(comm);
    if (color == MPI_UNDEFINED) {
        free(all);
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    int n = 0;
    for (int i = 0; i < comm->size; i++)
        if (all[i].color == color)
            all[n++] = all[i];
    qsort(all, (size_t)n, sizeof *all, by_key);
    int *w = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        w[i] = comm->group->world[all[i].rank];
    *newcomm = comm_new(mpi_group_new(n, w), ctx, comm->errh);
    free(w);
    free(all);
    mpi_swmc_setup(*newcomm);
    return MPI_SUCCESS;
}

int MPI_Comm_free(MPI_Comm *comm)
{
    if (!comm || !*comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_free", "MPI_COMM_NULL");
    if ((*comm)->predefined)
        return mpi_error(*comm, MPI_ERR_COMM, "MPI_Comm_free",
                         "MPI_COMM_WORLD and MPI_COMM_SELF cannot be freed");
    /* attributes go first, while the communicator is whole (6.7.2) */
    int rc = mpi_attr_delete_comm(*comm);
    if (rc)
        return mpi_error(*comm, rc, "MPI_Comm_free", "an attribute's delete function returned %d",
                         rc);
    /* the collective part now, while every member is here */
    mpi_bcast_nic_release(*comm);
    mpi_swmc_release(*comm);
    mpi_comm_drop(*comm);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

void mpi_comm_hold(MPI_Comm c)
{
    if (c && !c->predefined)
        c->refs++;
}

void mpi_comm_drop(MPI_Comm c)
{
    if (c && !c->predefined && --c->refs == 0) {
        coll_table_free(c);
        MPI_Group_free(&c->group);
        free(c->name);
        mpi_topo_free(c);
        free(c);
    }
}

int MPI_Comm_compare(MPI_Comm a, MPI_Comm b, int *result)
{
    int g;

    if (!a || !b)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_compare", "MPI_COMM_NULL");
    if (a == b) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    MPI_Group_compare(a->group, b->group, &g);
    *result = g == MPI_IDENT ? MPI_CONGRUENT : g;
    return MPI_SUCCESS;
}

int MPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    (void)comm;
    *flag = 0;      /* inter-communicators do not exist here */
    return MPI_SUCCESS;
}

/* Every rank is a node of its own: MPI_COMM_TYPE_SHARED gives each rank a
 * communicator of itself (key orders one rank: nothing to order);
 * MPI_UNDEFINED gives MPI_COMM_NULL. info is not looked at. */
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                        MPI_Comm *newcomm)
{
    (void)info;
    MPI_CHECK_INIT("MPI_Comm_split_type");
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_split_type", "MPI_COMM_NULL");
    if (split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_UNDEFINED)
        return mpi_error(comm, MPI_ERR_ARG, "MPI_Comm_split_type",
                         "split_type %d is not MPI_COMM_TYPE_SHARED or MPI_UNDEFINED", split_type);
    return MPI_Comm_split(comm, split_type == MPI_UNDEFINED ? MPI_UNDEFINED : comm->rank, key,
                          newcomm);
}
