/*
 * nc_seqarith.h - the two modular helpers of sequence arithmetic, written
 * without wrapping arithmetic: the proofs run with -warn-unsigned-overflow,
 * so every + and - in ref/ is shown to stay in range, and the one place
 * where sequence numbers wrap is spelled out here.
 *
 * Included by nc_seq.c and nc_mcack.c: static, so each module still proves
 * (and gets) its own copy, against the logic functions of nc_seq.h.
 */
#ifndef NC_SEQARITH_H
#define NC_SEQARITH_H

#include <stdint.h>
#include "nc_seq.h"

/* How many steps b lies ahead of a, modulo 2^32. */
/*@ assigns \nothing;
    ensures \result == nc_seq_dist(a, b);
*/
static uint32_t nc_u32_dist(uint32_t a, uint32_t b)
{
    if (b >= a)
        return b - a;
    return (0xFFFFFFFFu - a) + b + 1u;
}

/* a + d, modulo 2^32. */
/*@ assigns \nothing;
    ensures \result == nc_seq_add(a, d);
*/
static uint32_t nc_u32_add(uint32_t a, uint32_t d)
{
    if (d <= 0xFFFFFFFFu - a)
        return a + d;
    return d - (0xFFFFFFFFu - a) - 1u;
}

#endif
