/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a datatype was made from (MPI 3.1 section 4.1.13: the envelope and
 * the contents, exactly the constructor's arguments), and the
 * constructors built on the ones of mpi_type.c: hindexed_block and
 * subarray (4.1.3), with their own envelopes; the MPI_Count queries.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_impl.h"

void mpi_type_contents_free(MPI_Datatype t)
{
    for (int i = 0; i < t->nt; i++)
        mpi_type_drop(t->types[i]);
    free(t->ints);
    free(t->addrs);
    free(t->types);
    t->ints = NULL;
    t->addrs = NULL;
    t->types = NULL;
    t->ni = t->na = t->nt = 0;
}

void mpi_type_record(MPI_Datatype t, int combiner, int ni, const int *ints, int na,
                     const MPI_Aint *addrs, int nt, const MPI_Datatype *types)
{
    mpi_type_contents_free(t);
    t->combiner = combiner;
    t->ni = ni;
    t->na = na;
    t->nt = nt;
    t->ints = malloc(sizeof(int) * (size_t)(ni ? ni : 1));
    t->addrs = malloc(sizeof(MPI_Aint) * (size_t)(na ? na : 1));
    t->types = malloc(sizeof(MPI_Datatype) * (size_t)(nt ? nt : 1));
    if (ni)
        memcpy(t->ints, ints, sizeof(int) * (size_t)ni);
    if (na)
        memcpy(t->addrs, addrs, sizeof(MPI_Aint) * (size_t)na);
    for (int i = 0; i < nt; i++) {
        t->types[i] = types[i];
        mpi_type_hold(types[i]);
    }
}

int MPI_Type_get_envelope(MPI_Datatype type, int *num_integers, int *num_addresses,
                          int *num_datatypes, int *combiner)
{
    if (!type)
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Type_get_envelope", "MPI_DATATYPE_NULL");
    if (type->predefined || !type->combiner) {
        *num_integers = *num_addresses = *num_datatypes = 0;
        *combiner = MPI_COMBINER_NAMED;
        return MPI_SUCCESS;
    }
    *num_integers = type->ni;
    *num_addresses = type->na;
    *num_datatypes = type->nt;
    *combiner = type->combiner;
    return MPI_SUCCESS;
}

/* The derived types given back are new handles of the same objects (the
 * program frees them with MPI_Type_free); predefined ones are themselves. */
int MPI_Type_get_contents(MPI_Datatype type, int max_integers, int max_addresses,
                          int max_datatypes, int integers[], MPI_Aint addresses[],
                          MPI_Datatype datatypes[])
{
    if (!type)
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Type_get_contents", "MPI_DATATYPE_NULL");
    if (type->predefined || !type->combiner)
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Type_get_contents",
                         "%s is a named type (MPI_COMBINER_NAMED has no contents)", type->name);
    if (max_integers < type->ni || max_addresses < type->na || max_datatypes < type->nt)
        return mpi_error(NULL, MPI_ERR_ARG, "MPI_Type_get_contents",
                         "room for %d/%d/%d, the type has %d integers, %d addresses, %d types",
                         max_integers, max_addresses, max_datatypes, type->ni, type->na,
                         type->nt);
    if (type->ni)
        memcpy(integers, type->ints, sizeof(int) * (size_t)type->ni);
    if (type->na)
        memcpy(addresses, type->addrs, sizeof(MPI_Aint) * (size_t)type->na);
    for (int i = 0; i < type->nt; i++) {
        datatypes[i] = type->types[i];
        mpi_type_hold(type->types[i]);
    }
    return MPI_SUCCESS;
}

int MPI_Type_create_hindexed_block(int count, int blocklen, const MPI_Aint displs[],
                                   MPI_Datatype old, MPI_Datatype *newtype)
{
    int *bl, rc, ints[2] = { count, blocklen };

    if (count < 0 || blocklen < 0)
        return mpi_error(NULL, MPI_ERR_COUNT, "MPI_Type_create_hindexed_block",
                         "count %d, blocklength %d: both must be >= 0", count, blocklen);
    bl = malloc(sizeof *bl * (size_t)(count ? count : 1));
    for (int i = 0; i < count; i++)
        bl[i] = blocklen;
    rc = MPI_Type_create_hindexed(count, bl, displs, old, newtype);
    free(bl);
    if (!rc)
        mpi_type_record(*newtype, MPI_COMBINER_HINDEXED_BLOCK, 2, ints, count, displs, 1, &old);
    return rc;
}

/* A subarray is, dimension by dimension from the fastest, an hvector of
 * the previous level's subsizes at that dimension's stride, placed at the
 * starts' offset and resized to the whole array (4.1.3). */
int MPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[],
                             const int starts[], int order, MPI_Datatype old,
                             MPI_Datatype *newtype)
{
    const char *fn = "MPI_Type_create_subarray";
    MPI_Datatype cur = old, next;
    MPI_Aint stride, off = 0;
    int rc;

    if (ndims < 1)
        return mpi_error(NULL, MPI_ERR_ARG, fn, "ndims %d < 1", ndims);
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return mpi_error(NULL, MPI_ERR_ARG, fn, "order %d is not MPI_ORDER_C or MPI_ORDER_FORTRAN",
                         order);
    if (!old)
        return mpi_error(NULL, MPI_ERR_TYPE, fn, "MPI_DATATYPE_NULL");
    for (int i = 0; i < ndims; i++)
        if (sizes[i] < 1 || subsizes[i] < 1 || subsizes[i] > sizes[i] || starts[i] < 0 ||
            starts[i] > sizes[i] - subsizes[i])
            return mpi_error(NULL, MPI_ERR_ARG, fn,
                             "dimension %d: size %d, subsize %d, start %d", i, sizes[i],
                             subsizes[i], starts[i]);
    stride = old->extent;
    for (int k = 0; k < ndims; k++) {
        int d = order == MPI_ORDER_C ? ndims - 1 - k : k;   /* fastest first */
        if ((rc = MPI_Type_create_hvector(subsizes[d], 1, stride, cur, &next)))
            return rc;
        if (cur != old)
            MPI_Type_free(&cur);
        cur = next;
        off += (MPI_Aint)starts[d] * stride;
        stride *= sizes[d];
    }
    /* place it at the starts' offset; the whole array is its extent */
    int one = 1;
    MPI_Datatype placed;
    if ((rc = MPI_Type_create_struct(1, &one, &off, &cur, &placed)))
        return rc;
    MPI_Type_free(&cur);
    rc = MPI_Type_create_resized(placed, old->lb, stride, newtype);
    MPI_Type_free(&placed);
    if (rc)
        return rc;
    int *ints = malloc(sizeof(int) * (size_t)(3 * ndims + 2));
    ints[0] = ndims;
    for (int i = 0; i < ndims; i++) {
        ints[1 + i] = sizes[i];
        ints[1 + ndims + i] = subsizes[i];
        ints[1 + 2 * ndims + i] = starts[i];
    }
    ints[1 + 3 * ndims] = order;
    mpi_type_record(*newtype, MPI_COMBINER_SUBARRAY, 3 * ndims + 2, ints, 0, NULL, 1, &old);
    free(ints);
    return MPI_SUCCESS;
}

int MPI_Type_size_x(MPI_Datatype type, MPI_Count *size)
{
    if (!type)
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Type_size_x", "MPI_DATATYPE_NULL");
    *size = (MPI_Count)type->size;
    return MPI_SUCCESS;
}

int MPI_Type_get_extent_x(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent)
{
    if (!type)
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Type_get_extent_x", "MPI_DATATYPE_NULL");
    *lb = type->lb;
    *extent = type->extent;
    return MPI_SUCCESS;
}

int MPI_Type_get_true_extent_x(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent)
{
    if (!type)
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Type_get_true_extent_x", "MPI_DATATYPE_NULL");
    *lb = type->true_lb;
    *extent = type->true_extent;
    return MPI_SUCCESS;
}

/* The status's bytes in elements; counts beyond an int's range come
 * from MPI_Status_set_elements_x (no message here is that large). */
int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype type, MPI_Count *count)
{
    int n, rc;

    if (mpi_type_ok(type) && type->base != B_NONE && type->size) {
        *count = (MPI_Count)(status->nc_bytes / (type->size / type->elements));
        return MPI_SUCCESS;
    }
    if (!(rc = MPI_Get_elements(status, type, &n)))
        *count = n;
    return rc;
}

/* For a generalized request's or a program's own status (MPI 3.1 12.3):
 * count elements of type, the bytes that many take. */
int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype type, MPI_Count count)
{
    if (!mpi_type_ok(type) || count < 0)
        return mpi_error(NULL, MPI_ERR_ARG, "MPI_Status_set_elements_x",
                         "%s, count %lld", mpi_type_ok(type) ? "a datatype" : "not a committed datatype",
                         (long long)count);
    status->nc_bytes = (size_t)count * (type->size / (type->elements ? type->elements : 1));
    return MPI_SUCCESS;
}

int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype type, int count)
{
    return MPI_Status_set_elements_x(status, type, count);
}

int MPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    status->nc_cancelled = flag != 0;
    return MPI_SUCCESS;
}

/* MPI-1's names of the byte-displacement constructors, removed from the
 * standard in 3.0 and still called by programs (MPICH's dtpools among
 * them); the same types as the MPI_Type_create_ forms. */
int MPI_Type_hvector(int count, int blocklen, MPI_Aint stride, MPI_Datatype old,
                     MPI_Datatype *newtype)
{
    return MPI_Type_create_hvector(count, blocklen, stride, old, newtype);
}

int MPI_Type_hindexed(int count, int blocklens[], MPI_Aint displs[], MPI_Datatype old,
                      MPI_Datatype *newtype)
{
    return MPI_Type_create_hindexed(count, blocklens, displs, old, newtype);
}
