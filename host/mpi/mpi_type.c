/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Datatypes. Every type, predefined or derived, is kept flattened: the
 * list of byte blocks (offset, length) one instance covers, in type-map
 * order, neighbours merged. Packing walks that list instance by instance
 * (the i-th instance at i x extent), so every constructor only has to
 * build a list and compute lb/extent as MPI 3.1 section 4.1 defines them.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_impl.h"
#include "nicoll/hostif.h"

#define PREDEF(var, nm, b, sz, ext) \
    struct mpi_type_s var = { .name = nm, .predefined = true, .committed = true, .base = b, \
        .size = sz, .lb = 0, .extent = ext, .true_lb = 0, .true_extent = ext, \
        .contig = (sz) == (ext), .nblocks = 1, .blocks = &var.one, .one = { 0, sz }, \
        .elements = 1 }
PREDEF(mpi_t_char_, "MPI_CHAR", B_CHAR, sizeof(char), sizeof(char));
PREDEF(mpi_t_schar_, "MPI_SIGNED_CHAR", B_SCHAR, 1, 1);
PREDEF(mpi_t_uchar_, "MPI_UNSIGNED_CHAR", B_UCHAR, 1, 1);
PREDEF(mpi_t_byte_, "MPI_BYTE", B_BYTE, 1, 1);
PREDEF(mpi_t_short_, "MPI_SHORT", B_SHORT, sizeof(short), sizeof(short));
PREDEF(mpi_t_ushort_, "MPI_UNSIGNED_SHORT", B_USHORT, sizeof(short), sizeof(short));
PREDEF(mpi_t_int_, "MPI_INT", B_INT, sizeof(int), sizeof(int));
PREDEF(mpi_t_unsigned_, "MPI_UNSIGNED", B_UINT, sizeof(int), sizeof(int));
PREDEF(mpi_t_long_, "MPI_LONG", B_LONG, sizeof(long), sizeof(long));
PREDEF(mpi_t_ulong_, "MPI_UNSIGNED_LONG", B_ULONG, sizeof(long), sizeof(long));
PREDEF(mpi_t_llong_, "MPI_LONG_LONG", B_LLONG, sizeof(long long), sizeof(long long));
PREDEF(mpi_t_ullong_, "MPI_UNSIGNED_LONG_LONG", B_ULLONG, sizeof(long long), sizeof(long long));
PREDEF(mpi_t_float_, "MPI_FLOAT", B_FLOAT, sizeof(float), sizeof(float));
PREDEF(mpi_t_double_, "MPI_DOUBLE", B_DOUBLE, sizeof(double), sizeof(double));
PREDEF(mpi_t_ldouble_, "MPI_LONG_DOUBLE", B_LDOUBLE, sizeof(long double), sizeof(long double));
PREDEF(mpi_t_wchar_, "MPI_WCHAR", B_WCHAR, 4, 4);
PREDEF(mpi_t_bool_, "MPI_C_BOOL", B_BOOL, sizeof(_Bool), sizeof(_Bool));
PREDEF(mpi_t_int8_, "MPI_INT8_T", B_INT8, 1, 1);
PREDEF(mpi_t_int16_, "MPI_INT16_T", B_INT16, 2, 2);
PREDEF(mpi_t_int32_, "MPI_INT32_T", B_INT32, 4, 4);
PREDEF(mpi_t_int64_, "MPI_INT64_T", B_INT64, 8, 8);
PREDEF(mpi_t_uint8_, "MPI_UINT8_T", B_UINT8, 1, 1);
PREDEF(mpi_t_uint16_, "MPI_UINT16_T", B_UINT16, 2, 2);
PREDEF(mpi_t_uint32_, "MPI_UINT32_T", B_UINT32, 4, 4);
PREDEF(mpi_t_uint64_, "MPI_UINT64_T", B_UINT64, 8, 8);
PREDEF(mpi_t_packed_, "MPI_PACKED", B_PACKED, 1, 1);
PREDEF(mpi_t_aint_, "MPI_AINT", B_AINT, sizeof(MPI_Aint), sizeof(MPI_Aint));
PREDEF(mpi_t_offset_, "MPI_OFFSET", B_OFFSET, sizeof(MPI_Offset), sizeof(MPI_Offset));
PREDEF(mpi_t_count_, "MPI_COUNT", B_COUNT, sizeof(MPI_Count), sizeof(MPI_Count));
PREDEF(mpi_t_float_int_, "MPI_FLOAT_INT", B_FLOAT_INT, 8, 8);
PREDEF(mpi_t_2int_, "MPI_2INT", B_2INT, 8, 8);
/* C's complex types: sent and received; no reduction takes them (MPI_ERR_OP) */
PREDEF(mpi_t_c_float_complex_, "MPI_C_FLOAT_COMPLEX", B_NONE, sizeof(float _Complex),
       sizeof(float _Complex));
PREDEF(mpi_t_c_double_complex_, "MPI_C_DOUBLE_COMPLEX", B_NONE, sizeof(double _Complex),
       sizeof(double _Complex));
PREDEF(mpi_t_c_ldouble_complex_, "MPI_C_LONG_DOUBLE_COMPLEX", B_NONE,
       sizeof(long double _Complex), sizeof(long double _Complex));

/* The pair types with a hole: {value; int} as C lays the struct out. */
#define PAIR(var, nm, b, vt) \
    static struct mpi_block var##blocks[2] = { { 0, sizeof(vt) }, \
        { offsetof(struct { vt v; int i; }, i), sizeof(int) } }; \
    struct mpi_type_s var = { .name = nm, .predefined = true, .committed = true, .base = b, \
        .size = sizeof(vt) + sizeof(int), .extent = sizeof(struct { vt v; int i; }), \
        .true_extent = offsetof(struct { vt v; int i; }, i) + sizeof(int), \
        .contig = false, .nblocks = 2, .blocks = var##blocks, .elements = 1 }
PAIR(mpi_t_double_int_, "MPI_DOUBLE_INT", B_DOUBLE_INT, double);
PAIR(mpi_t_long_int_, "MPI_LONG_INT", B_LONG_INT, long);
PAIR(mpi_t_short_int_, "MPI_SHORT_INT", B_SHORT_INT, short);
PAIR(mpi_t_ldouble_int_, "MPI_LONG_DOUBLE_INT", B_LDOUBLE_INT, long double);

bool mpi_type_ok(MPI_Datatype t)
{
    return t && (t->predefined || t->committed);
}

/* ---- building a type map ------------------------------------------------------------ */
struct builder {
    struct mpi_type_s *t;
    size_t cap;
    bool any;                   /* lb/ub set by a first component */
    MPI_Aint lb, ub;
    enum mpi_base base;
    bool mixed;
    size_t align;               /* the largest alignment of the elements added */
    bool pad;                   /* a struct: its extent is rounded up to 'align' */
};

/* A type's alignment: a predefined one's as the C compiler lays it out, a
 * derived one's that of its most aligned element. */
static size_t type_align(MPI_Datatype t)
{
    if (!t->predefined)
        return t->align ? t->align : 1;
    switch (t->base) {
    case B_DOUBLE_INT: return offsetof(struct { char c; double d; }, d);
    case B_LONG_INT: return offsetof(struct { char c; long d; }, d);
    case B_LDOUBLE_INT: case B_LDOUBLE: return offsetof(struct { char c; long double d; }, d);
    case B_SHORT_INT: case B_2INT: case B_FLOAT_INT: return sizeof(int);
    case B_NONE: return t->size / 2;          /* the complex types: a pair of reals */
    default: return t->size ? t->size : 1;
    }
}

static void add_block(struct builder *b, MPI_Aint off, size_t len)
{
    struct mpi_type_s *t = b->t;

    if (!len)
        return;
    if (t->nblocks) {
        struct mpi_block *last = &t->blocks[t->nblocks - 1];
        if (last->off + (MPI_Aint)last->len == off) {
            last->len += len;
            return;
        }
    }
    if (t->nblocks == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 8;
        t->blocks = realloc(t->blocks, b->cap * sizeof *t->blocks);
    }
    t->blocks[t->nblocks++] = (struct mpi_block){ off, len };
}

/* 'count' instances of 'old', the first at 'disp' bytes. */
static void add(struct builder *b, MPI_Aint disp, size_t count, MPI_Datatype old)
{
    if (!count)
        return;
    if (type_align(old) > b->align)
        b->align = type_align(old);
    for (size_t i = 0; i < count; i++) {
        MPI_Aint at = disp + (MPI_Aint)i * old->extent;
        for (size_t k = 0; k < old->nblocks; k++)
            add_block(b, at + old->blocks[k].off, old->blocks[k].len);
    }
    /* the lowest lower bound and the highest upper bound of the instances
     * (an instance's ub is its lb + extent, below it for a negative extent) */
    MPI_Aint span = (MPI_Aint)(count - 1) * old->extent;
    MPI_Aint lo = disp + old->lb + (span < 0 ? span : 0);
    MPI_Aint hi = disp + old->lb + old->extent + (span > 0 ? span : 0);
    if (!b->any || lo < b->lb)
        b->lb = lo;
    if (!b->any || hi > b->ub)
        b->ub = hi;
    b->any = true;
    b->t->size += count * old->size;
    b->t->elements += count * old->elements;
    if (old->size) {
        if (b->base == B_NONE && !b->mixed)
            b->base = old->base;
        else if (b->base != old->base)
            b->mixed = true;
        if (old->base == B_NONE)
            b->mixed = true;
    }
}

static MPI_Datatype finish(struct builder *b)
{
    struct mpi_type_s *t = b->t;

    t->lb = b->any ? b->lb : 0;
    t->extent = b->any ? b->ub - b->lb : 0;
    t->align = b->align;
    /* MPI 3.1 4.1.6: a struct's upper bound is raised to a multiple of its
     * most aligned element's alignment, as the C compiler pads a struct */
    if (b->pad && b->align > 1 && t->extent > 0 && t->extent % (MPI_Aint)b->align)
        t->extent += (MPI_Aint)b->align - t->extent % (MPI_Aint)b->align;
    t->base = b->mixed ? B_NONE : b->base;
    if (t->nblocks) {
        MPI_Aint lo = t->blocks[0].off, hi = lo;
        for (size_t k = 0; k < t->nblocks; k++) {
            if (t->blocks[k].off < lo)
                lo = t->blocks[k].off;
            if (t->blocks[k].off + (MPI_Aint)t->blocks[k].len > hi)
                hi = t->blocks[k].off + (MPI_Aint)t->blocks[k].len;
        }
        t->true_lb = lo;
        t->true_extent = hi - lo;
    }
    t->contig = t->size == 0 ||
                (t->nblocks == 1 && t->blocks[0].off == 0 && t->lb == 0 &&
                 t->extent == (MPI_Aint)t->size);
    return t;
}

static struct builder start(const char *name)
{
    struct builder b = { .t = calloc(1, sizeof(struct mpi_type_s)) };

    b.t->name = name;
    b.t->refs = 1;
    return b;
}

static int bad_old(MPI_Datatype old, const char *fn)
{
    if (!old || (!old->predefined && !old->blocks && old->nblocks))
        return mpi_error(NULL, MPI_ERR_TYPE, fn, "the old type is not a datatype");
    return MPI_SUCCESS;
}

#define CHECK_COUNT(n, fn) do { if ((n) < 0) \
        return mpi_error(NULL, MPI_ERR_COUNT, fn, "count %d < 0", (n)); } while (0)

int MPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *newtype)
{
    struct builder b;
    int rc;

    CHECK_COUNT(count, "MPI_Type_contiguous");
    if ((rc = bad_old(old, "MPI_Type_contiguous")))
        return rc;
    b = start("contiguous");
    add(&b, 0, (size_t)count, old);
    *newtype = finish(&b);
    mpi_type_record(*newtype, MPI_COMBINER_CONTIGUOUS, 1, &count, 0, NULL, 1, &old);
    return MPI_SUCCESS;
}

int MPI_Type_create_hvector(int count, int blocklen, MPI_Aint stride, MPI_Datatype old,
                            MPI_Datatype *newtype)
{
    struct builder b;
    int rc;

    CHECK_COUNT(count, "MPI_Type_create_hvector");
    CHECK_COUNT(blocklen, "MPI_Type_create_hvector");
    if ((rc = bad_old(old, "MPI_Type_create_hvector")))
        return rc;
    b = start("hvector");
    for (int i = 0; i < count; i++)
        add(&b, (MPI_Aint)i * stride, (size_t)blocklen, old);
    *newtype = finish(&b);
    int ints[2] = { count, blocklen };
    mpi_type_record(*newtype, MPI_COMBINER_HVECTOR, 2, ints, 1, &stride, 1, &old);
    return MPI_SUCCESS;
}

int MPI_Type_vector(int count, int blocklen, int stride, MPI_Datatype old, MPI_Datatype *newtype)
{
    if (!old)
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Type_vector", "MPI_DATATYPE_NULL");
    int rc = MPI_Type_create_hvector(count, blocklen, (MPI_Aint)stride * old->extent, old, newtype);
    int ints[3] = { count, blocklen, stride };

    if (!rc)
        mpi_type_record(*newtype, MPI_COMBINER_VECTOR, 3, ints, 0, NULL, 1, &old);
    return rc;
}

int MPI_Type_create_hindexed(int count, const int blocklens[], const MPI_Aint displs[],
                             MPI_Datatype old, MPI_Datatype *newtype)
{
    struct builder b;
    int rc;

    CHECK_COUNT(count, "MPI_Type_create_hindexed");
    if ((rc = bad_old(old, "MPI_Type_create_hindexed")))
        return rc;
    b = start("hindexed");
    for (int i = 0; i < count; i++) {
        if (blocklens[i] < 0)
            return mpi_error(NULL, MPI_ERR_ARG, "MPI_Type_create_hindexed",
                             "block length %d < 0", blocklens[i]);
        add(&b, displs[i], (size_t)blocklens[i], old);
    }
    *newtype = finish(&b);
    int *ints = malloc(sizeof(int) * (size_t)(count + 1));
    ints[0] = count;
    memcpy(ints + 1, blocklens, sizeof(int) * (size_t)count);
    mpi_type_record(*newtype, MPI_COMBINER_HINDEXED, count + 1, ints, count, displs, 1, &old);
    free(ints);
    return MPI_SUCCESS;
}

int MPI_Type_indexed(int count, const int blocklens[], const int displs[], MPI_Datatype old,
                     MPI_Datatype *newtype)
{
    MPI_Aint *d;
    int rc;

    CHECK_COUNT(count, "MPI_Type_indexed");
    if (!old)
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Type_indexed", "MPI_DATATYPE_NULL");
    d = malloc(sizeof *d * (size_t)(count ? count : 1));
    for (int i = 0; i < count; i++)
        d[i] = (MPI_Aint)displs[i] * old->extent;
    rc = MPI_Type_create_hindexed(count, blocklens, d, old, newtype);
    free(d);
    if (!rc) {
        int *ints = malloc(sizeof(int) * (size_t)(2 * count + 1));
        ints[0] = count;
        memcpy(ints + 1, blocklens, sizeof(int) * (size_t)count);
        memcpy(ints + 1 + count, displs, sizeof(int) * (size_t)count);
        mpi_type_record(*newtype, MPI_COMBINER_INDEXED, 2 * count + 1, ints, 0, NULL, 1, &old);
        free(ints);
    }
    return rc;
}

int MPI_Type_create_indexed_block(int count, int blocklen, const int displs[],
                                  MPI_Datatype old, MPI_Datatype *newtype)
{
    int *bl;
    int rc;

    CHECK_COUNT(count, "MPI_Type_create_indexed_block");
    bl = malloc(sizeof *bl * (size_t)(count ? count : 1));
    for (int i = 0; i < count; i++)
        bl[i] = blocklen;
    rc = MPI_Type_indexed(count, bl, displs, old, newtype);
    free(bl);
    if (!rc) {
        int *ints = malloc(sizeof(int) * (size_t)(count + 2));
        ints[0] = count;
        ints[1] = blocklen;
        memcpy(ints + 2, displs, sizeof(int) * (size_t)count);
        mpi_type_record(*newtype, MPI_COMBINER_INDEXED_BLOCK, count + 2, ints, 0, NULL, 1, &old);
        free(ints);
    }
    return rc;
}

int MPI_Type_create_struct(int count, const int blocklens[], const MPI_Aint displs[],
                           const MPI_Datatype types[], MPI_Datatype *newtype)
{
    struct builder b;
    int rc;

    CHECK_COUNT(count, "MPI_Type_create_struct");
    b = start("struct");
    b.pad = true;
    for (int i = 0; i < count; i++) {
        if ((rc = bad_old(types[i], "MPI_Type_create_struct")))
            return rc;
        if (blocklens[i] < 0)
            return mpi_error(NULL, MPI_ERR_ARG, "MPI_Type_create_struct",
                             "block length %d < 0", blocklens[i]);
        add(&b, displs[i], (size_t)blocklens[i], types[i]);
    }
    *newtype = finish(&b);
    int *ints = malloc(sizeof(int) * (size_t)(count + 1));
    ints[0] = count;
    memcpy(ints + 1, blocklens, sizeof(int) * (size_t)count);
    mpi_type_record(*newtype, MPI_COMBINER_STRUCT, count + 1, ints, count, displs, count, types);
    free(ints);
    return MPI_SUCCESS;
}

int MPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype)
{
    struct builder b;
    int rc;

    if ((rc = bad_old(old, "MPI_Type_create_resized")))
        return rc;
    b = start("resized");
    add(&b, 0, 1, old);
    b.lb = lb;
    b.ub = lb + extent;
    *newtype = finish(&b);
    MPI_Aint a[2] = { lb, extent };
    mpi_type_record(*newtype, MPI_COMBINER_RESIZED, 0, NULL, 2, a, 1, &old);
    return MPI_SUCCESS;
}

int MPI_Type_dup(MPI_Datatype old, MPI_Datatype *newtype)
{
    int rc = MPI_Type_create_resized(old, old ? old->lb : 0, old ? old->extent : 0, newtype);

    if (!rc && old->committed)
        (*newtype)->committed = true;
    if (!rc) {
        mpi_type_record(*newtype, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &old);
        if ((rc = mpi_attr_copy_type(old, *newtype)))
            return mpi_error(NULL, rc, "MPI_Type_dup", "an attribute's copy function returned %d",
                             rc);
    }
    return rc;
}

int MPI_Type_commit(MPI_Datatype *type)
{
    if (!type || !*type)
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Type_commit", "MPI_DATATYPE_NULL");
    (*type)->committed = true;
    return MPI_SUCCESS;
}

int MPI_Type_free(MPI_Datatype *type)
{
    if (!type || !*type || (*type)->predefined)
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Type_free",
                         "not a derived datatype (predefined ones cannot be freed)");
    int rc = mpi_attr_delete_type(*type);
    if (rc)
        return mpi_error(NULL, rc, "MPI_Type_free", "an attribute's delete function returned %d",
                         rc);
    mpi_type_drop(*type);
    *type = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

void mpi_type_hold(MPI_Datatype t)
{
    if (t && !t->predefined)
        t->refs++;
}

void mpi_type_drop(MPI_Datatype t)
{
    if (t && !t->predefined && --t->refs == 0) {
        mpi_type_contents_free(t);
        free(t->user_name);
        free(t->blocks);
        free(t);
    }
}

int MPI_Type_size(MPI_Datatype t, int *size)
{
    if (!t)
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Type_size", "MPI_DATATYPE_NULL");
    *size = t->size > INT_MAX ? MPI_UNDEFINED : (int)t->size;
    return MPI_SUCCESS;
}

int MPI_Type_get_extent(MPI_Datatype t, MPI_Aint *lb, MPI_Aint *extent)
{
    if (!t)
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Type_get_extent", "MPI_DATATYPE_NULL");
    *lb = t->lb;
    *extent = t->extent;
    return MPI_SUCCESS;
}

int MPI_Type_get_true_extent(MPI_Datatype t, MPI_Aint *lb, MPI_Aint *extent)
{
    if (!t)
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Type_get_true_extent", "MPI_DATATYPE_NULL");
    *lb = t->true_lb;
    *extent = t->true_extent;
    return MPI_SUCCESS;
}

/* ---- packing ------------------------------------------------------------------------ */
size_t mpi_pack_bytes(const void *buf, size_t count, MPI_Datatype t, void *out)
{
    uint8_t *o = out;
    const uint8_t *in = buf;

    if (t->contig) {
        if (count * t->size != 0)
            nc_host_memcpy(o, in, count * t->size);
        return count * t->size;
    }
    for (size_t i = 0; i < count; i++)
        for (size_t k = 0; k < t->nblocks; k++) {
            nc_host_memcpy(o, in + (MPI_Aint)i * t->extent + t->blocks[k].off, t->blocks[k].len);
            o += t->blocks[k].len;
        }
    return (size_t)(o - (uint8_t *)out);
}

/* At most 'bytes' of packed data into count instances; a partial last
 * instance gets what there is (a truncated or short message). */
size_t mpi_unpack_bytes(const void *in, size_t bytes, void *buf, size_t count, MPI_Datatype t)
{
    const uint8_t *i8 = in;
    uint8_t *b = buf;
    size_t done = 0;

    for (size_t i = 0; i < count && done < bytes; i++)
        for (size_t k = 0; k < t->nblocks && done < bytes; k++) {
            size_t n = t->blocks[k].len < bytes - done ? t->blocks[k].len : bytes - done;
            nc_host_memcpy(b + (MPI_Aint)i * t->extent + t->blocks[k].off, i8 + done, n);
            done += n;
        }
    return done;
}

int MPI_Pack(const void *inbuf, int incount, MPI_Datatype t, void *outbuf, int outsize,
             int *position, MPI_Comm comm)
{
    size_t need;

    if (!mpi_type_ok(t))
        return mpi_error(comm, MPI_ERR_TYPE, "MPI_Pack", "not a committed datatype");
    CHECK_COUNT(incount, "MPI_Pack");
    need = (size_t)incount * t->size;
    if (*position < 0 || (size_t)*position + need > (size_t)outsize)
        return mpi_error(comm, MPI_ERR_TRUNCATE, "MPI_Pack",
                         "%zu bytes at position %d do not fit in %d", need, *position, outsize);
    *position += (int)mpi_pack_bytes(inbuf, (size_t)incount, t, (uint8_t *)outbuf + *position);
    return MPI_SUCCESS;
}

int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
               MPI_Datatype t, MPI_Comm comm)
{
    size_t need;

    if (!mpi_type_ok(t))
        return mpi_error(comm, MPI_ERR_TYPE, "MPI_Unpack", "not a committed datatype");
    CHECK_COUNT(outcount, "MPI_Unpack");
    need = (size_t)outcount * t->size;
    if (*position < 0 || (size_t)*position + need > (size_t)insize)
        return mpi_error(comm, MPI_ERR_TRUNCATE, "MPI_Unpack",
                         "%zu bytes at position %d are beyond %d", need, *position, insize);
    *position += (int)mpi_unpack_bytes((const uint8_t *)inbuf + *position, need, outbuf,
                                       (size_t)outcount, t);
    return MPI_SUCCESS;
}

int MPI_Pack_size(int incount, MPI_Datatype t, MPI_Comm comm, int *size)
{
    (void)comm;
    if (!t)
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Pack_size", "MPI_DATATYPE_NULL");
    *size = (int)((size_t)incount * t->size);
    return MPI_SUCCESS;
}
