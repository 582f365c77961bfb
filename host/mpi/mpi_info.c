/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Info objects (MPI 3.1 chapter 9): ordered (key, value) string pairs,
 * keys unique, in the order first set. No call of libmpi acts on a hint,
 * so an info argument is accepted and not looked at (MPI allows ignoring
 * hints); MPI_Comm_get_info gives an empty info. MPI_INFO_ENV is empty
 * (the standard's keys, command, argv, maxprocs..., are optional).
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_impl.h"

struct mpi_info_s {
    int n, cap;
    char **key, **val;
    bool predefined;
};

struct mpi_info_s mpi_info_env_ = { .predefined = true };

static int bad(MPI_Info info, const char *fn)
{
    return info ? MPI_SUCCESS : mpi_error(NULL, MPI_ERR_INFO, fn, "MPI_INFO_NULL");
}

static int bad_key(const char *key, const char *fn)
{
    size_t n = key ? strlen(key) : 0;

    if (n == 0 || n > MPI_MAX_INFO_KEY)
        return mpi_error(NULL, MPI_ERR_INFO, fn, "key of %zu characters (1..%d)", n,
                         MPI_MAX_INFO_KEY);
    return MPI_SUCCESS;
}

static int index_of(MPI_Info info, const char *key)
{
    for (int i = 0; i < info->n; i++)
        if (!strcmp(info->key[i], key))
            return i;
    return -1;
}

int MPI_Info_create(MPI_Info *info)
{
    *info = calloc(1, sizeof **info);
    return MPI_SUCCESS;
}

int MPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    int rc, i;

    if ((rc = bad(info, "MPI_Info_set")) || (rc = bad_key(key, "MPI_Info_set")))
        return rc;
    if (info->predefined)
        return mpi_error(NULL, MPI_ERR_INFO, "MPI_Info_set", "MPI_INFO_ENV cannot be changed");
    if (!value || strlen(value) > MPI_MAX_INFO_VAL)
        return mpi_error(NULL, MPI_ERR_INFO, "MPI_Info_set", "value NULL or longer than %d",
                         MPI_MAX_INFO_VAL);
    if ((i = index_of(info, key)) >= 0) {
        free(info->val[i]);
        info->val[i] = strdup(value);
        return MPI_SUCCESS;
    }
    if (info->n == info->cap) {
        info->cap = info->cap ? 2 * info->cap : 8;
        info->key = realloc(info->key, sizeof(char *) * (size_t)info->cap);
        info->val = realloc(info->val, sizeof(char *) * (size_t)info->cap);
    }
    info->key[info->n] = strdup(key);
    info->val[info->n++] = strdup(value);
    return MPI_SUCCESS;
}

int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    int rc, i;

    if ((rc = bad(info, "MPI_Info_get")) || (rc = bad_key(key, "MPI_Info_get")))
        return rc;
    if (valuelen < 0)
        return mpi_error(NULL, MPI_ERR_ARG, "MPI_Info_get", "valuelen %d < 0", valuelen);
    *flag = (i = index_of(info, key)) >= 0;
    if (*flag) {        /* at most valuelen characters, and the terminator */
        size_t n = strnlen(info->val[i], (size_t)valuelen);
        memcpy(value, info->val[i], n);
        value[n] = 0;
    }
    return MPI_SUCCESS;
}

int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    int rc, i;

    if ((rc = bad(info, "MPI_Info_get_valuelen")) || (rc = bad_key(key, "MPI_Info_get_valuelen")))
        return rc;
    *flag = (i = index_of(info, key)) >= 0;
    if (*flag)
        *valuelen = (int)strlen(info->val[i]);
    return MPI_SUCCESS;
}

int MPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    int rc;

    if ((rc = bad(info, "MPI_Info_get_nkeys")))
        return rc;
    *nkeys = info->n;
    return MPI_SUCCESS;
}

int MPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    int rc;

    if ((rc = bad(info, "MPI_Info_get_nthkey")))
        return rc;
    if (n < 0 || n >= info->n)
        return mpi_error(NULL, MPI_ERR_ARG, "MPI_Info_get_nthkey", "n = %d, the info has %d keys",
                         n, info->n);
    strcpy(key, info->key[n]);
    return MPI_SUCCESS;
}

int MPI_Info_delete(MPI_Info info, const char *key)
{
    int rc, i;

    if ((rc = bad(info, "MPI_Info_delete")) || (rc = bad_key(key, "MPI_Info_delete")))
        return rc;
    if ((i = index_of(info, key)) < 0 || info->predefined)
        return mpi_error(NULL, MPI_ERR_INFO_NOKEY, "MPI_Info_delete", "no key \"%s\"", key);
    free(info->key[i]);
    free(info->val[i]);
    memmove(info->key + i, info->key + i + 1, sizeof(char *) * (size_t)(info->n - i - 1));
    memmove(info->val + i, info->val + i + 1, sizeof(char *) * (size_t)(info->n - i - 1));
    info->n--;
    return MPI_SUCCESS;
}

int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    int rc;

    if ((rc = bad(info, "MPI_Info_dup")))
        return rc;
    MPI_Info_create(newinfo);
    for (int i = 0; i < info->n; i++)
        MPI_Info_set(*newinfo, info->key[i], info->val[i]);
    return MPI_SUCCESS;
}

int MPI_Info_free(MPI_Info *info)
{
    if (!info || !*info || (*info)->predefined)
        return mpi_error(NULL, MPI_ERR_INFO, "MPI_Info_free",
                         "not an info object the program created");
    for (int i = 0; i < (*info)->n; i++) {
        free((*info)->key[i]);
        free((*info)->val[i]);
    }
    free((*info)->key);
    free((*info)->val);
    free(*info);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    (void)info;
    return MPI_Comm_dup(comm, newcomm);
}

int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    (void)info;
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_set_info", "MPI_COMM_NULL");
    return MPI_SUCCESS;
}

int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info)
{
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_get_info", "MPI_COMM_NULL");
    return MPI_Info_create(info);
}
