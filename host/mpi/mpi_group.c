/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Groups: ordered lists of world ranks (MPI 3.1 section 6.3). */
#include <stdlib.h>
#include <string.h>

#include "mpi_impl.h"

struct mpi_group_s mpi_group_empty_ = { .size = 0, .rank = MPI_UNDEFINED, .predefined = true };

MPI_Group mpi_group_new(int size, const int *world);

MPI_Group mpi_group_new(int size, const int *world)
{
    MPI_Group g = calloc(1, sizeof *g);

    g->size = size;
    g->world = malloc(sizeof(int) * (size_t)(size ? size : 1));
    if (size)
        memcpy(g->world, world, sizeof(int) * (size_t)size);
    g->rank = MPI_UNDEFINED;
    for (int i = 0; i < size; i++)
        if (world[i] == mpi_state.world_rank)
            g->rank = i;
    g->refs = 1;
    return g;
}

/* What a group constructor gives: an empty result is MPI_GROUP_EMPTY, as
 * programs compare with it (MPICH's tests among them). */
static MPI_Group group_result(int size, const int *world)
{
    return size ? mpi_group_new(size, world) : MPI_GROUP_EMPTY;
}

static int rank_of(MPI_Group g, int world)
{
    for (int i = 0; i < g->size; i++)
        if (g->world[i] == world)
            return i;
    return MPI_UNDEFINED;
}

int MPI_Group_size(MPI_Group g, int *size)
{
    if (!g)
        return mpi_error(NULL, MPI_ERR_GROUP, "MPI_Group_size", "MPI_GROUP_NULL");
    *size = g->size;
    return MPI_SUCCESS;
}

int MPI_Group_rank(MPI_Group g, int *rank)
{
    if (!g)
        return mpi_error(NULL, MPI_ERR_GROUP, "MPI_Group_rank", "MPI_GROUP_NULL");
    *rank = g->rank;
    return MPI_SUCCESS;
}

int MPI_Group_incl(MPI_Group g, int n, const int ranks[], MPI_Group *out)
{
    int *w;

    if (!g)
        return mpi_error(NULL, MPI_ERR_GROUP, "MPI_Group_incl", "MPI_GROUP_NULL");
    if (n < 0 || n > g->size)
        return mpi_error(NULL, MPI_ERR_ARG, "MPI_Group_incl", "n %d not in 0..%d", n, g->size);
    w = malloc(sizeof(int) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= g->size) {
            free(w);
            return mpi_error(NULL, MPI_ERR_RANK, "MPI_Group_incl", "rank %d not in the group",
                             ranks[i]);
        }
        for (int k = 0; k < i; k++)
            if (ranks[k] == ranks[i]) {
                free(w);
                return mpi_error(NULL, MPI_ERR_RANK, "MPI_Group_incl", "rank %d twice", ranks[i]);
            }
        w[i] = g->world[ranks[i]];
    }
    *out = group_result(n, w);
    free(w);
    return MPI_SUCCESS;
}

int MPI_Group_excl(MPI_Group g, int n, const int ranks[], MPI_Group *out)
{
    int *w, k = 0;

    if (!g)
        return mpi_error(NULL, MPI_ERR_GROUP, "MPI_Group_excl", "MPI_GROUP_NULL");
    for (int i = 0; i < n; i++)
        if (ranks[i] < 0 || ranks[i] >= g->size)
            return mpi_error(NULL, MPI_ERR_RANK, "MPI_Group_excl", "rank %d not in the group",
                             ranks[i]);
    w = malloc(sizeof(int) * (size_t)(g->size ? g->size : 1));
    for (int i = 0; i < g->size; i++) {
        bool drop = false;
        for (int j = 0; j < n; j++)
            drop |= ranks[j] == i;
        if (!drop)
            w[k++] = g->world[i];
    }
    *out = group_result(k, w);
    free(w);
    return MPI_SUCCESS;
}

/* a's members (in a's order) that are (keep_in_b) or are not in b */
static MPI_Group filter(MPI_Group a, MPI_Group b, bool keep_in_b)
{
    int *w = malloc(sizeof(int) * (size_t)(a->size + 1)), k = 0;
    MPI_Group g;

    for (int i = 0; i < a->size; i++)
        if ((rank_of(b, a->world[i]) != MPI_UNDEFINED) == keep_in_b)
            w[k++] = a->world[i];
    g = group_result(k, w);
    free(w);
    return g;
}

int MPI_Group_union(MPI_Group a, MPI_Group b, MPI_Group *out)
{
    if (!a || !b)
        return mpi_error(NULL, MPI_ERR_GROUP, "MPI_Group_union", "MPI_GROUP_NULL");
    /* all of a, then b's members not in a */
    int *w = malloc(sizeof(int) * (size_t)(a->size + b->size + 1)), k = a->size;

    memcpy(w, a->world, sizeof(int) * (size_t)a->size);
    for (int i = 0; i < b->size; i++)
        if (rank_of(a, b->world[i]) == MPI_UNDEFINED)
            w[k++] = b->world[i];
    *out = group_result(k, w);
    free(w);
    return MPI_SUCCESS;
}

int MPI_Group_intersection(MPI_Group a, MPI_Group b, MPI_Group *out)
{
    if (!a || !b)
        return mpi_error(NULL, MPI_ERR_GROUP, "MPI_Group_intersection", "MPI_GROUP_NULL");
    *out = filter(a, b, true);
    return MPI_SUCCESS;
}

int MPI_Group_difference(MPI_Group a, MPI_Group b, MPI_Group *out)
{
    if (!a || !b)
        return mpi_error(NULL, MPI_ERR_GROUP, "MPI_Group_difference", "MPI_GROUP_NULL");
    *out = filter(a, b, false);
    return MPI_SUCCESS;
}

int MPI_Group_translate_ranks(MPI_Group a, int n, const int ranks_a[], MPI_Group b, int ranks_b[])
{
    if (!a || !b)
        return mpi_error(NULL, MPI_ERR_GROUP, "MPI_Group_translate_ranks", "MPI_GROUP_NULL");
    for (int i = 0; i < n; i++) {
        if (ranks_a[i] == MPI_PROC_NULL) {
            ranks_b[i] = MPI_PROC_NULL;
            continue;
        }
        if (ranks_a[i] < 0 || ranks_a[i] >= a->size)
            return mpi_error(NULL, MPI_ERR_RANK, "MPI_Group_translate_ranks",
                             "rank %d not in the first group", ranks_a[i]);
        ranks_b[i] = rank_of(b, a->world[ranks_a[i]]);
    }
    return MPI_SUCCESS;
}

int MPI_Group_compare(MPI_Group a, MPI_Group b, int *result)
{
    bool same_order = a->size == b->size, same_set = a->size == b->size;

    for (int i = 0; same_set && i < a->size; i++) {
        same_order &= a->world[i] == b->world[i];
        same_set &= rank_of(b, a->world[i]) != MPI_UNDEFINED;
    }
    *result = same_order ? MPI_IDENT : same_set ? MPI_SIMILAR : MPI_UNEQUAL;
    return MPI_SUCCESS;
}

int MPI_Group_free(MPI_Group *g)
{
    if (!g || !*g)
        return mpi_error(NULL, MPI_ERR_GROUP, "MPI_Group_free", "MPI_GROUP_NULL");
    if (!(*g)->predefined && --(*g)->refs == 0) {
        free((*g)->world);
        free(*g);
    }
    *g = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}

/* The ranks of n (first, last, stride) triplets in order (6.3.2); -1 and
 * an error message if a triplet is malformed or reaches outside g. */
static int *range_ranks(MPI_Group g, int n, int ranges[][3], int *count, const char *fn,
                        int *err)
{
    int total = 0, *r;

    *err = MPI_SUCCESS;
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (stride == 0 || first < 0 || first >= g->size || last < 0 || last >= g->size ||
            (stride > 0 && first > last) || (stride < 0 && first < last)) {
            *err = mpi_error(NULL, MPI_ERR_ARG, fn, "range %d (%d, %d, %d) in a group of %d", i,
                             first, last, stride, g->size);
            return NULL;
        }
        total += (last - first) / stride + 1;
    }
    r = malloc(sizeof(int) * (size_t)(total ? total : 1));
    total = 0;
    for (int i = 0; i < n; i++)
        for (int k = ranges[i][0]; ranges[i][2] > 0 ? k <= ranges[i][1] : k >= ranges[i][1];
             k += ranges[i][2])
            r[total++] = k;
    *count = total;
    return r;
}

int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    int count, err, *r;

    if (!group)
        return mpi_error(NULL, MPI_ERR_GROUP, "MPI_Group_range_incl", "MPI_GROUP_NULL");
    if (!(r = range_ranks(group, n, ranges, &count, "MPI_Group_range_incl", &err)))
        return err;
    err = MPI_Group_incl(group, count, r, newgroup);
    free(r);
    return err;
}

int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    int count, err, *r;

    if (!group)
        return mpi_error(NULL, MPI_ERR_GROUP, "MPI_Group_range_excl", "MPI_GROUP_NULL");
    if (!(r = range_ranks(group, n, ranges, &count, "MPI_Group_range_excl", &err)))
        return err;
    err = MPI_Group_excl(group, count, r, newgroup);
    free(r);
    return err;
}
