/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Intra-communicators (MPI 3.1 section 6.4). A communicator is a group
 * and a context id; a message carries its context id and matches only a
 * receive of the same one, so different communicators never mix (and a
 * communicator's collectives use ctx + 1, never a user's receive).
 * A new context id is agreed by the members: the maximum of their lowest
 * unused ids (an Allreduce over the parent), which no member has used
 * for anything yet.
 */
#include <stdlib.h>
#include <string.h>

#include "coll_table.h"
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
    unsigned mine = mpi_state.next_ctx, agreed = 0;

    MPI_Allreduce(&mine, &agreed, 1, MPI_UNSIGNED, MPI_MAX, parent);
    mpi_state.next_ctx = agreed + 2;
    return agreed;
}

static MPI_Comm comm_new(MPI_Group g, uint32_t ctx, MPI_Errhandler eh)
{
    MPI_Comm c = calloc(1, sizeof *c);

    c->ctx = ctx;
    c->group = g;
    c->rank = g->rank;
    c->size = g->size;
    c->errh = eh;
    coll_table_fill(c);
    return c;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    MPI_CHECK_INIT("MPI_Comm_dup");
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_dup", "MPI_COMM_NULL");
    uint32_t ctx = agree_ctx(comm);
    *newcomm = comm_new(mpi_group_new(comm->size, comm->group->world), ctx, comm->errh);
    return MPI_SUCCESS;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    MPI_CHECK_INIT("MPI_Comm_create");
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_create", "MPI_COMM_NULL");
    if (!group)
        return mpi_error(comm, MPI_ERR_GROUP, "MPI_Comm_create", "MPI_GROUP_NULL");
    for (int i = 0; i < group->size; i++) {
        bool in = false;
        for (int k = 0; k < comm->size; k++)
            in |= comm->group->world[k] == group->world[i];
        if (!in)
            return mpi_error(comm, MPI_ERR_GROUP, "MPI_Comm_create",
                             "the group is not a subset of the communicator's");
    }
    uint32_t ctx = agree_ctx(comm);
    if (group->rank == MPI_UNDEFINED) {
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    *newcomm = comm_new(mpi_group_new(group->size, group->world), ctx, comm->errh);
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
    return MPI_SUCCESS;
}

int MPI_Comm_free(MPI_Comm *comm)
{
    if (!comm || !*comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_free", "MPI_COMM_NULL");
    if ((*comm)->predefined)
        return mpi_error(*comm, MPI_ERR_COMM, "MPI_Comm_free",
                         "MPI_COMM_WORLD and MPI_COMM_SELF cannot be freed");
    mpi_bcast_nic_release(*comm);
    coll_table_free(*comm);
    MPI_Group_free(&(*comm)->group);
    free(*comm);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
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
