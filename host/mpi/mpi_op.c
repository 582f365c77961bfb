/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reduction operations (MPI 3.1 section 5.9): the predefined ones on the
 * types the standard allows them on, user ones through their function.
 * inout = in (op) inout, element by element.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_impl.h"

enum { OP_MAX = 1, OP_MIN, OP_SUM, OP_PROD, OP_LAND, OP_BAND, OP_LOR, OP_BOR, OP_LXOR,
       OP_BXOR, OP_MINLOC, OP_MAXLOC, OP_REPLACE, OP_NO_OP };

#define OPDEF(var, w) struct mpi_op_s var = { .commute = 1, .which = w, .predefined = true }
OPDEF(mpi_op_max_, OP_MAX);
OPDEF(mpi_op_min_, OP_MIN);
OPDEF(mpi_op_sum_, OP_SUM);
OPDEF(mpi_op_prod_, OP_PROD);
OPDEF(mpi_op_land_, OP_LAND);
OPDEF(mpi_op_band_, OP_BAND);
OPDEF(mpi_op_lor_, OP_LOR);
OPDEF(mpi_op_bor_, OP_BOR);
OPDEF(mpi_op_lxor_, OP_LXOR);
OPDEF(mpi_op_bxor_, OP_BXOR);
OPDEF(mpi_op_minloc_, OP_MINLOC);
OPDEF(mpi_op_maxloc_, OP_MAXLOC);
OPDEF(mpi_op_replace_, OP_REPLACE);
OPDEF(mpi_op_no_op_, OP_NO_OP);

/* Arithmetic and logical ops on one C type. */
#define ARITH(T) do { const T *a = in; T *b = inout; \
    for (size_t i = 0; i < n; i++) switch (op) { \
    case OP_MAX: if (a[i] > b[i]) b[i] = a[i]; break; \
    case OP_MIN: if (a[i] < b[i]) b[i] = a[i]; break; \
    case OP_SUM: b[i] = (T)(a[i] + b[i]); break; \
    case OP_PROD: b[i] = (T)(a[i] * b[i]); break; \
    case OP_LAND: b[i] = (T)(a[i] && b[i]); break; \
    case OP_LOR: b[i] = (T)(a[i] || b[i]); break; \
    case OP_LXOR: b[i] = (T)(!a[i] != !b[i]); break; \
    default: return false; } return true; } while (0)
#define BITS(T) do { const T *a = in; T *b = inout; \
    for (size_t i = 0; i < n; i++) switch (op) { \
    case OP_BAND: b[i] = (T)(a[i] & b[i]); break; \
    case OP_BOR: b[i] = (T)(a[i] | b[i]); break; \
    case OP_BXOR: b[i] = (T)(a[i] ^ b[i]); break; \
    default: return false; } return true; } while (0)
#define INTEGER(T) do { if (op == OP_BAND || op == OP_BOR || op == OP_BXOR) BITS(T); \
    ARITH(T); } while (0)
/* field by field: a whole-struct copy would write the padding after the
 * int, beyond the last pair of a buffer that ends at its true extent */
#define LOC(V) do { typedef struct { V v; int i; } P; const P *a = in; P *b = inout; \
    for (size_t k = 0; k < n; k++) { \
        bool take = op == OP_MAXLOC ? a[k].v > b[k].v : a[k].v < b[k].v; \
        if (take || (a[k].v == b[k].v && a[k].i < b[k].i)) { \
            b[k].v = a[k].v; \
            b[k].i = a[k].i; \
        } } \
    return true; } while (0)

static bool int_ops(int op, enum mpi_base base, const void *in, void *inout, size_t n)
{
    switch (base) {
    case B_CHAR: { INTEGER(char); }
    case B_SCHAR: case B_INT8: { INTEGER(int8_t); }
    case B_UCHAR: case B_UINT8: case B_BYTE: { INTEGER(uint8_t); }
    case B_SHORT: case B_INT16: { INTEGER(int16_t); }
    case B_USHORT: case B_UINT16: { INTEGER(uint16_t); }
    case B_INT: case B_INT32: { INTEGER(int32_t); }
    case B_UINT: case B_UINT32: case B_WCHAR: { INTEGER(uint32_t); }
    case B_LONG: case B_AINT: { INTEGER(long); }
    case B_ULONG: { INTEGER(unsigned long); }
    case B_LLONG: case B_INT64: case B_OFFSET: case B_COUNT: { INTEGER(int64_t); }
    case B_ULLONG: case B_UINT64: { INTEGER(uint64_t); }
    case B_BOOL: {          /* logical ops only (MPI 3.1 5.9.2) */
        const _Bool *a = in;
        _Bool *b = inout;
        for (size_t i = 0; i < n; i++) switch (op) {
        case OP_LAND: b[i] = a[i] && b[i]; break;
        case OP_LOR: b[i] = a[i] || b[i]; break;
        case OP_LXOR: b[i] = a[i] != b[i]; break;
        default: return false;
        }
        return true;
    }
    default: return false;
    }
}

static bool apply_predefined(int op, enum mpi_base base, const void *in, void *inout, size_t n)
{
    if (op == OP_REPLACE) {
        return false;
    }
    if (op == OP_MINLOC || op == OP_MAXLOC) {
        switch (base) {
        case B_FLOAT_INT: LOC(float);
        case B_DOUBLE_INT: LOC(double);
        case B_LONG_INT: LOC(long);
        case B_2INT: LOC(int);
        case B_SHORT_INT: LOC(short);
        case B_LDOUBLE_INT: LOC(long double);
        default: return false;
        }
    }
    switch (base) {
    case B_FLOAT:
        if (op <= OP_PROD) ARITH(float);
        return false;
    case B_DOUBLE:
        if (op <= OP_PROD) ARITH(double);
        return false;
    case B_LDOUBLE:
        if (op <= OP_PROD) ARITH(long double);
        return false;
    default:
        return int_ops(op, base, in, inout, n);
    }
}

bool mpi_op_valid(MPI_Op op, MPI_Datatype t);

/* Whether op applies to elements of t (a predefined op needs one base type). */
bool mpi_op_valid(MPI_Op op, MPI_Datatype t)
{
    if (!op->predefined)
        return true;
    if (op->which == OP_NO_OP || op->which == OP_REPLACE)
        return true;
    if (t->base == B_NONE || t->base == B_PACKED)
        return false;
    /* try the op on one element: the table above is the one truth */
    unsigned char a[64] = { 0 }, b[64] = { 0 };
    return apply_predefined(op->which, t->base, a, b, 1);
}

void mpi_op_apply(MPI_Op op, const void *in, void *inout, size_t count, MPI_Datatype t)
{
    if (!op->predefined) {
        int len = (int)count;
        op->user((void *)in, inout, &len, &t);
        return;
    }
    if (op->which == OP_NO_OP)
        return;
    if (op->which == OP_REPLACE) {
        memcpy(inout, in, count * (size_t)t->extent);
        return;
    }
    /* a derived type of one base: its elements, block by block */
    if (t->predefined) {
        apply_predefined(op->which, t->base, in, inout, count);
        return;
    }
    size_t esize = t->size / t->elements;
    for (size_t i = 0; i < count; i++)
        for (size_t k = 0; k < t->nblocks; k++) {
            MPI_Aint off = (MPI_Aint)i * t->extent + t->blocks[k].off;
            apply_predefined(op->which, t->base, (const uint8_t *)in + off,
                             (uint8_t *)inout + off, t->blocks[k].len / esize);
        }
}

int MPI_Op_create(MPI_User_function *fn, int commute, MPI_Op *op)
{
    if (!fn)
        return mpi_error(NULL, MPI_ERR_ARG, "MPI_Op_create", "no function");
    *op = calloc(1, sizeof **op);
    (*op)->user = fn;
    (*op)->commute = commute;
    (*op)->refs = 1;
    return MPI_SUCCESS;
}

int MPI_Op_free(MPI_Op *op)
{
    if (!op || !*op || (*op)->predefined)
        return mpi_error(NULL, MPI_ERR_OP, "MPI_Op_free", "not a user-defined operation");
    mpi_op_drop(*op);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

void mpi_op_hold(MPI_Op op)
{
    if (op && !op->predefined)
        op->refs++;
}

void mpi_op_drop(MPI_Op op)
{
    if (op && !op->predefined && --op->refs == 0)
        free(op);
}

int MPI_Op_commutative(MPI_Op op, int *commute)
{
    if (!op)
        return mpi_error(NULL, MPI_ERR_OP, "MPI_Op_commutative", "MPI_OP_NULL");
    *commute = op->commute;
    return MPI_SUCCESS;
}

int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype t, MPI_Op op)
{
    if (!op)
        return mpi_error(NULL, MPI_ERR_OP, "MPI_Reduce_local", "MPI_OP_NULL");
    if (!mpi_type_ok(t))
        return mpi_error(NULL, MPI_ERR_TYPE, "MPI_Reduce_local", "not a committed datatype");
    if (!mpi_op_valid(op, t))
        return mpi_error(NULL, MPI_ERR_OP, "MPI_Reduce_local",
                         "the operation is not defined on %s", t->name);
    mpi_op_apply(op, inbuf, inoutbuf, (size_t)count, t);
    return MPI_SUCCESS;
}
