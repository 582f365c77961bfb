/*
 * nc_red.c - nc_red_combine (nc_red.h): one switch per element picks the
 * operation; 64-bit elements are assembled from their two words.  The float
 * operations are nc_sfp.c's, with the host's operand order: inout first.
 */
#include "nc_red.h"
#include "nc_sfp.h"

uint32_t nc_red_elem_words(uint32_t type)
{
    switch (type) {
    case NC_RED_I32: case NC_RED_U32: case NC_RED_F32: return 1;
    case NC_RED_I64: case NC_RED_U64: case NC_RED_F64: return 2;
    default: return 0;
    }
}

int nc_red_valid(uint32_t op, uint32_t type)
{
    if (op >= NC_RED_NOPS || type >= NC_RED_NTYPES)
        return 0;
    return !(op >= NC_RED_BAND && type >= NC_RED_F32);
}

/* a (op) b on 32-bit words; sgn: compare as int32_t. */
/*@ requires op < NC_RED_NOPS;
    assigns \nothing;
*/
static uint32_t op32(uint32_t op, uint32_t sgn, uint32_t a, uint32_t b)
{
    /* signed order is unsigned order with the sign bit flipped */
    uint32_t ka = sgn ? a ^ 0x80000000u : a, kb = sgn ? b ^ 0x80000000u : b;
    switch (op) {
    case NC_RED_SUM: return (uint32_t)(((uint64_t)a + b) & 0xFFFFFFFFu);
    case NC_RED_MIN: return kb < ka ? b : a;
    case NC_RED_MAX: return kb > ka ? b : a;
    case NC_RED_BAND: return a & b;
    case NC_RED_BOR: return a | b;
    default: return a ^ b;
    }
}

/*@ requires op < NC_RED_NOPS;
    assigns \nothing;
*/
static uint64_t op64(uint32_t op, uint32_t sgn, uint64_t a, uint64_t b)
{
    uint64_t s = 0x8000000000000000ull;
    uint64_t ka = sgn ? a ^ s : a, kb = sgn ? b ^ s : b;
    switch (op) {
    case NC_RED_SUM: {          /* modulo 2^64, in halves: no C operation wraps */
        uint64_t lo = (a & 0xFFFFFFFFu) + (b & 0xFFFFFFFFu);
        uint64_t hi = ((a >> 32) + (b >> 32) + (lo >> 32)) & 0xFFFFFFFFu;
        return (hi << 32) | (lo & 0xFFFFFFFFu);
    }
    case NC_RED_MIN: return kb < ka ? b : a;
    case NC_RED_MAX: return kb > ka ? b : a;
    case NC_RED_BAND: return a & b;
    case NC_RED_BOR: return a | b;
    default: return a ^ b;
    }
}

int nc_red_combine(uint32_t op, uint32_t type, uint32_t *inout, const uint32_t *in, uint32_t count)
{
    if (!nc_red_valid(op, type))
        return -1;
    if (nc_red_elem_words(type) == 1) {
        /*@ loop invariant 0 <= i <= count;
            loop assigns i, inout[0 .. count - 1];
            loop variant count - i;
        */
        for (uint32_t i = 0; i < count; i++) {
            uint32_t a = inout[i], b = in[i];
            if (type == NC_RED_F32)
                inout[i] = op == NC_RED_SUM ? nc_f32_add(a, b)
                         : op == NC_RED_MIN ? nc_f32_min(a, b) : nc_f32_max(a, b);
            else
                inout[i] = op32(op, type == NC_RED_I32, a, b);
        }
        return 0;
    }
    /*@ loop invariant 0 <= i <= count;
        loop assigns i, inout[0 .. 2 * count - 1];
        loop variant count - i;
    */
    for (uint32_t i = 0; i < count; i++) {
        uint32_t *o = inout + 2u * i;
        const uint32_t *p = in + 2u * i;
        uint64_t a = ((uint64_t)o[NC_RED_HI] << 32) | o[NC_RED_LO];
        uint64_t b = ((uint64_t)p[NC_RED_HI] << 32) | p[NC_RED_LO];
        uint64_t r;
        if (type == NC_RED_F64)
            r = op == NC_RED_SUM ? nc_f64_add(a, b)
              : op == NC_RED_MIN ? nc_f64_min(a, b) : nc_f64_max(a, b);
        else
            r = op64(op, type == NC_RED_I64, a, b);
        o[NC_RED_HI] = (uint32_t)(r >> 32);
        o[NC_RED_LO] = (uint32_t)(r & 0xFFFFFFFFu);
    }
    return 0;
}
