/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attribute caching (MPI 3.1 section 6.7) on communicators and datatypes,
 * object names (6.8), and MPI_Alloc_mem (8.2).
 *
 * A keyval is an index into one table (communicator and datatype keyvals
 * share the numbering; each remembers its kind). A keyval freed while
 * attributes still use it stays until the last of them is deleted, as
 * 6.7.2 requires: it counts its handle and each attribute set with it.
 * MPI_COMM_WORLD's predefined attributes (MPI_TAG_UB, MPI_HOST, MPI_IO,
 * MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_APPNUM, MPI_LASTUSEDCODE)
 * are answered from constants, never stored, and cannot be set or
 * deleted.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_impl.h"

enum kind { K_COMM = 1, K_TYPE };
struct keyval {
    enum kind kind;
    bool freed;                 /* MPI_*_free_keyval called */
    int refs;                   /* the handle and every attribute using it */
    void *copy, *del;           /* the callbacks of its kind, or NULL */
    void *extra;
};

#define KEYVAL_FIRST 16         /* below: MPI_KEYVAL_INVALID and the predefined ones */
static struct keyval *keyvals;
static int nkeyvals;

static struct keyval *kv_get(int keyval, enum kind kind)
{
    int i = keyval - KEYVAL_FIRST;

    if (i < 0 || i >= nkeyvals || !keyvals[i].refs || keyvals[i].kind != kind)
        return NULL;
    return &keyvals[i];
}

static void kv_drop(int keyval)
{
    struct keyval *k = &keyvals[keyval - KEYVAL_FIRST];

    if (--k->refs == 0)
        memset(k, 0, sizeof *k);
}

static int kv_create(enum kind kind, void *copy, void *del, int *keyval, void *extra)
{
    int i;

    for (i = 0; i < nkeyvals && keyvals[i].refs; i++)
        ;
    if (i == nkeyvals) {
        keyvals = realloc(keyvals, sizeof *keyvals * (size_t)(nkeyvals + 16));
        memset(keyvals + nkeyvals, 0, sizeof *keyvals * 16);
        nkeyvals += 16;
    }
    keyvals[i] = (struct keyval){ .kind = kind, .refs = 1, .copy = copy, .del = del,
                                  .extra = extra };
    *keyval = i + KEYVAL_FIRST;
    return MPI_SUCCESS;
}

static int kv_free(enum kind kind, int *keyval, const char *fn)
{
    struct keyval *k;

    if (!keyval || !(k = kv_get(*keyval, kind)))
        return mpi_error(NULL, MPI_ERR_KEYVAL, fn, "keyval %d is not a live %s keyval",
                         keyval ? *keyval : 0, kind == K_COMM ? "communicator" : "datatype");
    /* a keyval freed already but kept by its attributes: freeing it again
     * is erroneous, and harmless here (the handle's count went once) */
    if (!k->freed) {
        k->freed = true;
        kv_drop(*keyval);
    }
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

/* ---- one object's list ---------------------------------------------------------- */
static struct mpi_attr **find(struct mpi_attr **list, int keyval)
{
    for (; *list; list = &(*list)->next)
        if ((*list)->keyval == keyval)
            return list;
    return NULL;
}

/* Newest first: an object's attributes are deleted in the reverse order
 * of their setting, which MPI 3.1 8.7.1 requires of MPI_COMM_SELF's at
 * MPI_Finalize (and MPICH does everywhere). */
static void put(struct mpi_attr **list, int keyval, void *val)
{
    struct mpi_attr *a = malloc(sizeof *a);

    *a = (struct mpi_attr){ keyval, val, *list };
    *list = a;
    keyvals[keyval - KEYVAL_FIRST].refs++;
}

static void unlink_attr(struct mpi_attr **at)
{
    struct mpi_attr *a = *at;

    *at = a->next;
    kv_drop(a->keyval);
    free(a);
}

/* Delete callbacks take the object's handle; one type for both kinds. */
static int call_delete(enum kind kind, void *obj, struct mpi_attr *a)
{
    struct keyval *k = &keyvals[a->keyval - KEYVAL_FIRST];

    if (!k->del)
        return MPI_SUCCESS;
    if (kind == K_COMM)
        return ((MPI_Comm_delete_attr_function *)k->del)(obj, a->keyval, a->val, k->extra);
    return ((MPI_Type_delete_attr_function *)k->del)(obj, a->keyval, a->val, k->extra);
}

static int set(enum kind kind, void *obj, struct mpi_attr **list, int keyval, void *val,
               MPI_Comm ecomm, const char *fn)
{
    struct mpi_attr **at;
    int rc;

    if (!kv_get(keyval, kind))
        return mpi_error(ecomm, MPI_ERR_KEYVAL, fn, "keyval %d is not a %s keyval", keyval,
                         kind == K_COMM ? "communicator" : "datatype");
    if ((at = find(list, keyval))) {        /* replacing deletes the old value first */
        if ((rc = call_delete(kind, obj, *at)))
            return mpi_error(ecomm, rc, fn, "the keyval's delete function returned %d", rc);
        (*at)->val = val;
        return MPI_SUCCESS;
    }
    put(list, keyval, val);
    return MPI_SUCCESS;
}

static int del(enum kind kind, void *obj, struct mpi_attr **list, int keyval, MPI_Comm ecomm,
               const char *fn)
{
    struct mpi_attr **at;
    int rc;

    if (!kv_get(keyval, kind))
        return mpi_error(ecomm, MPI_ERR_KEYVAL, fn, "keyval %d is not a %s keyval", keyval,
                         kind == K_COMM ? "communicator" : "datatype");
    if (!(at = find(list, keyval)))
        return mpi_error(ecomm, MPI_ERR_KEYVAL, fn, "no attribute for keyval %d", keyval);
    if ((rc = call_delete(kind, obj, *at)))
        return mpi_error(ecomm, rc, fn, "the keyval's delete function returned %d", rc);
    unlink_attr(at);
    return MPI_SUCCESS;
}

static int delete_all(enum kind kind, void *obj, struct mpi_attr **list)
{
    int rc;

    while (*list) {
        if ((rc = call_delete(kind, obj, *list)))
            return rc;
        unlink_attr(list);
    }
    return MPI_SUCCESS;
}

static int copy_all(enum kind kind, void *old, struct mpi_attr *from, struct mpi_attr **to)
{
    for (struct mpi_attr *a = from; a; a = a->next) {
        struct keyval *k = &keyvals[a->keyval - KEYVAL_FIRST];
        void *out = NULL;
        int flag = 0, rc;

        if (!k->copy)
            continue;
        if (kind == K_COMM)
            rc = ((MPI_Comm_copy_attr_function *)k->copy)(old, a->keyval, k->extra, a->val,
                                                          &out, &flag);
        else
            rc = ((MPI_Type_copy_attr_function *)k->copy)(old, a->keyval, k->extra, a->val,
                                                          &out, &flag);
        if (rc)
            return rc;
        if (flag)
            put(to, a->keyval, out);
    }
    return MPI_SUCCESS;
}

int mpi_comm_dup_fn_(MPI_Comm c, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)c; (void)keyval; (void)extra;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int mpi_type_dup_fn_(MPI_Datatype t, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)t; (void)keyval; (void)extra;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

/* ---- communicators -------------------------------------------------------------------- */
int mpi_attr_copy_comm(MPI_Comm old, MPI_Comm c)
{
    return copy_all(K_COMM, old, old->attrs, &c->attrs);
}

int mpi_attr_delete_comm(MPI_Comm c)
{
    return delete_all(K_COMM, c, &c->attrs);
}

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy_fn,
                           MPI_Comm_delete_attr_function *delete_fn, int *keyval,
                           void *extra_state)
{
    return kv_create(K_COMM, (void *)copy_fn, (void *)delete_fn, keyval, extra_state);
}

int MPI_Comm_free_keyval(int *keyval)
{
    return kv_free(K_COMM, keyval, "MPI_Comm_free_keyval");
}

static bool predefined_keyval(int keyval)
{
    return keyval >= MPI_TAG_UB && keyval <= MPI_LASTUSEDCODE;
}

int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void *attribute_val)
{
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_set_attr", "MPI_COMM_NULL");
    if (predefined_keyval(keyval))
        return mpi_error(comm, MPI_ERR_KEYVAL, "MPI_Comm_set_attr",
                         "keyval %d is predefined: its attribute cannot be set", keyval);
    return set(K_COMM, comm, &comm->attrs, keyval, attribute_val, comm, "MPI_Comm_set_attr");
}

int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    /* what MPI_COMM_WORLD's predefined attributes point to */
    static int tag_ub = MPI_TAG_UB_VALUE, host = MPI_PROC_NULL, io = MPI_ANY_SOURCE,
               wtime_global = 0, universe, appnum = 0, lastcode;
    struct mpi_attr **at;

    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_get_attr", "MPI_COMM_NULL");
    *flag = 0;
    if (predefined_keyval(keyval)) {
        int *v[] = { [MPI_TAG_UB] = &tag_ub, [MPI_HOST] = &host, [MPI_IO] = &io,
                     [MPI_WTIME_IS_GLOBAL] = &wtime_global, [MPI_UNIVERSE_SIZE] = &universe,
                     [MPI_APPNUM] = &appnum, [MPI_LASTUSEDCODE] = &lastcode };
        if (comm != MPI_COMM_WORLD)
            return MPI_SUCCESS;
        universe = mpi_state.world_size;
        lastcode = mpi_error_lastused();
        *(int **)attribute_val = v[keyval];
        *flag = 1;
        return MPI_SUCCESS;
    }
    if (!kv_get(keyval, K_COMM))
        return mpi_error(comm, MPI_ERR_KEYVAL, "MPI_Comm_get_attr",
                         "keyval %d is not a communicator keyval", keyval);
    if ((at = find(&comm->attrs, keyval))) {
        *(void **)attribute_val = (*at)->val;
        *flag = 1;
    }
    return MPI_SUCCESS;
}

int MPI_Comm_delete_attr(MPI_Comm comm, int keyval)
{
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_delete_attr", "MPI_COMM_NULL");
    if (predefined_keyval(keyval))
        return mpi_error(comm, MPI_ERR_KEYVAL, "MPI_Comm_delete_attr",
                         "keyval %d is predefined: its attribute cannot be deleted", keyval);
    return del(K_COMM, comm, &comm->attrs, keyval, comm, "MPI_Comm_delete_attr");
}

int MPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                      void *extra_state)
{
    return MPI_Comm_create_keyval(copy_fn, delete_fn, keyval, extra_state);
}

int MPI_Keyval_free(int *keyval)
{
    return kv_free(K_COMM, keyval, "MPI_Keyval_free");
}

int MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    return MPI_Comm_set_attr(comm, keyval, attribute_val);
}

int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    return MPI_Comm_get_attr(comm, keyval, attribute_val, flag);
}

int MPI_Attr_delete(MPI_Comm comm, int keyval)
{
    return MPI_Comm_delete_attr(comm, keyval);
}

/* ---- datatypes ---------------------------------------------------------------------------- */
int mpi_attr_copy_type(MPI_Datatype old, MPI_Datatype t)
{
    return copy_all(K_TYPE, old, old->attrs, &t->attrs);
}

int mpi_attr_delete_type(MPI_Datatype t)
{
    return delete_all(K_TYPE, t, &t->attrs);
}

int MPI_Type_create_keyval(MPI_Type_copy_attr_function *copy_fn,
                           MPI_Type_delete_attr_function *delete_fn, int *keyval,
                           void *extra_state)
{
    return kv_create(K_TYPE, (void *)copy_fn, (void *)delete_fn, keyval, extra_state);
}

int MPI_Type_free_keyval(int *keyval)
{
    return kv_free(K_TYPE, keyval, "MPI_Type_free_keyval");
}

int MPI_Type_set_attr(MPI_Datatype type, int keyval, void *attribute_val)
{
    if (!type)
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Type_set_attr", "MPI_DATATYPE_NULL");
    return set(K_TYPE, type, &type->attrs, keyval, attribute_val, NULL, "MPI_Type_set_attr");
}

int MPI_Type_get_attr(MPI_Datatype type, int keyval, void *attribute_val, int *flag)
{
    struct mpi_attr **at;

    if (!type)
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Type_get_attr", "MPI_DATATYPE_NULL");
    if (!kv_get(keyval, K_TYPE))
        return mpi_error(NULL, MPI_ERR_KEYVAL, "MPI_Type_get_attr",
                         "keyval %d is not a datatype keyval", keyval);
    *flag = 0;
    if ((at = find(&type->attrs, keyval))) {
        *(void **)attribute_val = (*at)->val;
        *flag = 1;
    }
    return MPI_SUCCESS;
}

int MPI_Type_delete_attr(MPI_Datatype type, int keyval)
{
    if (!type)
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Type_delete_attr", "MPI_DATATYPE_NULL");
    return del(K_TYPE, type, &type->attrs, keyval, NULL, "MPI_Type_delete_attr");
}

/* ---- names ------------------------------------------------------------------------------------- */
static void name_set(char **slot, const char *name)
{
    size_t n = strnlen(name, MPI_MAX_OBJECT_NAME - 1);

    free(*slot);
    *slot = malloc(n + 1);
    memcpy(*slot, name, n);
    (*slot)[n] = 0;
}

static void name_get(const char *name, char *out, int *len)
{
    size_t n = strnlen(name, MPI_MAX_OBJECT_NAME - 1);

    memcpy(out, name, n);
    out[n] = 0;
    *len = (int)n;
}

int MPI_Comm_set_name(MPI_Comm comm, const char *name)
{
    if (!comm || !name)
        return mpi_error(NULL, comm ? MPI_ERR_ARG : MPI_ERR_COMM, "MPI_Comm_set_name",
                         comm ? "name is NULL" : "MPI_COMM_NULL");
    name_set(&comm->name, name);
    return MPI_SUCCESS;
}

int MPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen)
{
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Comm_get_name", "MPI_COMM_NULL");
    name_get(comm->name ? comm->name : comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD"
             : comm == MPI_COMM_SELF ? "MPI_COMM_SELF" : "", name, resultlen);
    return MPI_SUCCESS;
}

int MPI_Type_set_name(MPI_Datatype type, const char *name)
{
    if (!type || !name)
        return mpi_error(NULL, type ? MPI_ERR_ARG : MPI_ERR_TYPE, "MPI_Type_set_name",
                         type ? "name is NULL" : "MPI_DATATYPE_NULL");
    name_set(&type->user_name, name);
    return MPI_SUCCESS;
}

/* A predefined type's name is its MPI name; a derived type has none until set. */
int MPI_Type_get_name(MPI_Datatype type, char *name, int *resultlen)
{
    if (!type)
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Type_get_name", "MPI_DATATYPE_NULL");
    name_get(type->user_name ? type->user_name : type->predefined ? type->name : "", name,
             resultlen);
    return MPI_SUCCESS;
}

/* ---- memory ---------------------------------------------------------------------------------------- */
int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    void *p;

    (void)info;
    if (size < 0)
        return mpi_error(NULL, MPI_ERR_ARG, "MPI_Alloc_mem", "size %ld < 0", (long)size);
    if (!(p = malloc(size ? (size_t)size : 1)))
        return mpi_error(NULL, MPI_ERR_NO_MEM, "MPI_Alloc_mem", "%ld bytes", (long)size);
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}

int MPI_Free_mem(void *base)
{
    free(base);
    return MPI_SUCCESS;
}
