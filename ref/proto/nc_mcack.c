/* nc_mcack.c - see nc_mcack.h for the contracts. */
#include "nc_mcack.h"
#include "nc_seqarith.h"

void nc_mc_init(nc_mc_t *t, uint32_t nchildren, uint32_t first, uint32_t window)
{
    uint32_t i;
    t->base = first;
    t->count = 0u;
    t->window = window;
    t->nchildren = nchildren;
    /*@ loop invariant 0 <= i <= NC_MC_MAX_CHILDREN;
        loop invariant \forall integer j; 0 <= j < i ==> t->acked[j] == 0;
        loop assigns i, t->acked[0 .. NC_MC_MAX_CHILDREN - 1];
        loop variant NC_MC_MAX_CHILDREN - i;
    */
    for (i = 0u; i < NC_MC_MAX_CHILDREN; i++)
        t->acked[i] = 0u;
}

uint32_t nc_mc_push(nc_mc_t *t)
{
    uint32_t seq = nc_u32_add(t->base, t->count);
    t->count++;
    return seq;
}

uint32_t nc_mc_ack(nc_mc_t *t, uint32_t child, uint32_t ack)
{
    uint32_t d = nc_u32_dist(t->base, ack);
    uint32_t m, i;

    if (d < t->count && d + 1u > t->acked[child])
        t->acked[child] = d + 1u;
    /*@ assert upd: \forall integer j; 0 <= j < t->nchildren ==>
          t->acked[j] ==
            (j == child && d < \at(t->count, Pre) && d + 1 > \at(t->acked[j], Pre)
               ? d + 1 : \at(t->acked[j], Pre)); */

    /* The group has everything below the smallest per-child count. */
    m = t->acked[0];
    /*@ loop invariant 1 <= i <= t->nchildren;
        loop invariant m <= t->count;
        loop invariant \forall integer j; 0 <= j < i ==> m <= t->acked[j];
        loop invariant \exists integer j; 0 <= j < i && m == t->acked[j];
        loop assigns i, m;
        loop variant t->nchildren - i;
    */
    for (i = 1u; i < t->nchildren; i++)
        if (t->acked[i] < m)
            m = t->acked[i];

    if (m == 0u)
        return 0u;
    /*@ loop invariant 0 <= i <= t->nchildren;
        loop invariant \forall integer j; 0 <= j < i ==>
          t->acked[j] == \at(t->acked[j], LoopEntry) - m;
        loop invariant \forall integer j; i <= j < NC_MC_MAX_CHILDREN ==>
          t->acked[j] == \at(t->acked[j], LoopEntry);
        loop assigns i, t->acked[0 .. NC_MC_MAX_CHILDREN - 1];
        loop variant t->nchildren - i;
    */
    for (i = 0u; i < t->nchildren; i++)
        t->acked[i] -= m;
    t->base = nc_u32_add(t->base, m);
    t->count -= m;
    return m;
}

bool nc_mc_owes(const nc_mc_t *t, uint32_t child, uint32_t seq)
{
    uint32_t d = nc_u32_dist(t->base, seq);
    return d < t->count && t->acked[child] <= d;
}

uint32_t nc_mc_owing_mask(const nc_mc_t *t, uint32_t seq)
{
    uint32_t d = nc_u32_dist(t->base, seq);
    uint32_t mask = 0u, bit = 1u, i;

    /*@ loop invariant 0 <= i <= t->nchildren;
        loop invariant mask == nc_mc_mask(t, seq, i);
        loop invariant i < t->nchildren ==> bit == nc_pow2(i);
        loop invariant 0 <= mask < nc_pow2(i);
        loop assigns i, mask, bit;
        loop variant t->nchildren - i;
    */
    for (i = 0u; i < t->nchildren; i++) {
        if (d < t->count && t->acked[i] <= d)
            mask += bit;
        if (i + 1u < t->nchildren)
            bit *= 2u;
    }
    return mask;
}

uint32_t nc_mc_min_unacked(const nc_mc_t *t)
{
    return t->base;
}

uint32_t nc_mc_resend(const nc_mc_t *t, uint32_t child, uint32_t *first)
{
    *first = nc_u32_add(t->base, t->acked[child]);
    return t->count - t->acked[child];
}
