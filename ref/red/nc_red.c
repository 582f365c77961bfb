/*
 * nc_red.c - nc_red_combine (nc_red.h): one switch per element picks the
 * operation.  64-bit integers stay two 32-bit words (the LANai's width): a
 * sum carries from the low word into the high one, a comparison decides on
 * the high words first.  The float operations are nc_sfp.c's, with the
 * host's operand order: inout first.  The arithmetic is written with
 * comparisons and constant divisions rather than shifts and masks where a
 * bound matters, so that the proofs (proofs/) can follow it.
 */
#include "nc_red.h"
#include "nc_sfp.h"

#define P32 0x100000000ull

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

/* (a + b) mod 2^32 */
/*@ assigns \nothing;
    ensures \result == (a + b) % 4294967296;
*/
static uint32_t add_mod(uint32_t a, uint32_t b)
{
    uint64_t s = (uint64_t)a + (uint64_t)b;
    /*@ assert s <= 0x1FFFFFFFE; */
    if (s > 0xFFFFFFFFu)
        return (uint32_t)(s - P32);
    return (uint32_t)s;
}

/* a (op) b on 32-bit words; sgn: compare as int32_t (signed order is
 * unsigned order with the sign bit flipped). */
/*@ requires op < NC_RED_NOPS;
    assigns \nothing;
*/
static uint32_t op32(uint32_t op, uint32_t sgn, uint32_t a, uint32_t b)
{
    uint32_t ka = sgn ? a ^ 0x80000000u : a, kb = sgn ? b ^ 0x80000000u : b;
    switch (op) {
    case NC_RED_SUM: return add_mod(a, b);
    case NC_RED_MIN: return kb < ka ? b : a;
    case NC_RED_MAX: return kb > ka ? b : a;
    case NC_RED_BAND: return a & b;
    case NC_RED_BOR: return a | b;
    default: return a ^ b;
    }
}

/* o = o (op) p on the 64-bit integer o[NC_RED_HI]:o[NC_RED_LO]. */
/*@ requires op < NC_RED_NOPS;
    requires \valid(o + (0 .. 1)) && \valid_read(p + (0 .. 1));
    requires \separated(o + (0 .. 1), p + (0 .. 1));
    assigns o[0 .. 1];
*/
static void op64(uint32_t op, uint32_t sgn, uint32_t *o, const uint32_t *p)
{
    uint32_t ah = o[NC_RED_HI], al = o[NC_RED_LO], bh = p[NC_RED_HI], bl = p[NC_RED_LO];
    uint32_t ka = sgn ? ah ^ 0x80000000u : ah, kb = sgn ? bh ^ 0x80000000u : bh;
    switch (op) {
    case NC_RED_SUM: {
        uint32_t lo = add_mod(al, bl);
        o[NC_RED_HI] = add_mod(add_mod(ah, bh), lo < al ? 1u : 0u);
        o[NC_RED_LO] = lo;
        return;
    }
    case NC_RED_MIN:                                    /* b < a */
        if (kb < ka || (kb == ka && bl < al)) { o[NC_RED_HI] = bh; o[NC_RED_LO] = bl; }
        return;
    case NC_RED_MAX:
        if (kb > ka || (kb == ka && bl > al)) { o[NC_RED_HI] = bh; o[NC_RED_LO] = bl; }
        return;
    case NC_RED_BAND: o[NC_RED_HI] = ah & bh; o[NC_RED_LO] = al & bl; return;
    case NC_RED_BOR: o[NC_RED_HI] = ah | bh; o[NC_RED_LO] = al | bl; return;
    default: o[NC_RED_HI] = ah ^ bh; o[NC_RED_LO] = al ^ bl; return;
    }
}

/* o = o (op) p on a binary64 held in o[NC_RED_HI]:o[NC_RED_LO]. */
/*@ requires op <= NC_RED_MAX;
    requires \valid(o + (0 .. 1)) && \valid_read(p + (0 .. 1));
    requires \separated(o + (0 .. 1), p + (0 .. 1));
    assigns o[0 .. 1];
*/
static void opf64(uint32_t op, uint32_t *o, const uint32_t *p)
{
    uint64_t a = (uint64_t)o[NC_RED_HI] * P32 + o[NC_RED_LO];
    uint64_t b = (uint64_t)p[NC_RED_HI] * P32 + p[NC_RED_LO];
    uint64_t r = op == NC_RED_SUM ? nc_f64_add(a, b)
               : op == NC_RED_MIN ? nc_f64_min(a, b) : nc_f64_max(a, b);
    o[NC_RED_HI] = (uint32_t)(r / P32);
    o[NC_RED_LO] = (uint32_t)(r % P32);
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
        if (type == NC_RED_F64)
            opf64(op, inout + 2u * i, in + 2u * i);
        else
            op64(op, type == NC_RED_I64, inout + 2u * i, in + 2u * i);
    }
    return 0;
}
