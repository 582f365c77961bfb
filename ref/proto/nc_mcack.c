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
    t->lag = 0u;
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

/*@ predicate nc_mc_shape(nc_mc_t *t) =
      \valid(t) &&
      1 <= t->window <= NC_TX_WINDOW_MAX && t->count <= t->window &&
      1 <= t->nchildren <= NC_MC_MAX_CHILDREN &&
      (\forall integer i; 0 <= i < t->nchildren ==> t->acked[i] <= t->count);
*/

/* The window slides by the smallest per-child count (the group has
 * everything below it), and a child at the minimum lags from then on. */
/*@ requires nc_mc_shape(t);
    assigns t->base, t->count, t->lag, t->acked[0 .. NC_MC_MAX_CHILDREN - 1];
    ensures nc_mc_ok(t) && nc_mc_lag_ok(t);
    ensures t->count == \old(t->count) - \result;
    ensures t->base == nc_seq_add(\old(t->base), \result);
    ensures slid: \forall integer i; 0 <= i < t->nchildren ==>
      t->acked[i] + \result == \old(t->acked[i]);
*/
static uint32_t mc_slide(nc_mc_t *t)
{
    uint32_t m = t->acked[0], at = 0u, i;

    /*@ loop invariant 1 <= i <= t->nchildren;
        loop invariant m <= t->count;
        loop invariant at < i && m == t->acked[at];
        loop invariant \forall integer j; 0 <= j < i ==> m <= t->acked[j];
        loop assigns i, m, at;
        loop variant t->nchildren - i;
    */
    for (i = 1u; i < t->nchildren; i++)
        if (t->acked[i] < m) {
            m = t->acked[i];
            at = i;
        }

    t->lag = at;
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

uint32_t nc_mc_ack(nc_mc_t *t, uint32_t child, uint32_t ack)
{
    uint32_t d = nc_u32_dist(t->base, ack);
    uint32_t i, k, m;

    if (d < t->count && d + 1u > t->acked[child])
        t->acked[child] = d + 1u;
    /*@ assert upd: \forall integer j; 0 <= j < t->nchildren ==>
          t->acked[j] ==
            (j == child && d < \at(t->count, Pre) && d + 1 > \at(t->acked[j], Pre)
               ? d + 1 : \at(t->acked[j], Pre)); */

    /* The lagging child still holds nothing new: the window stays. */
    if (t->acked[t->lag] == 0u) {
        /*@ assert nc_mc_ok(t) && nc_mc_lag_ok(t); */
        /*@ assert \forall integer j; 0 <= j < t->nchildren ==>
              t->acked[j] + 0 == (j == child && d < \at(t->count, Pre) && d + 1 > \at(t->acked[j], Pre)
                 ? d + 1 : \at(t->acked[j], Pre)); */
        return 0u;
    }
    /* Another child that holds nothing new, from the next one on; it
     * lags from now on.  (Only a shortcut: mc_slide would also find one,
     * so this search needs no invariant beyond its bounds.) */
    /*@ loop invariant 1 <= k <= t->nchildren;
        loop assigns k, i;
        loop variant t->nchildren - k;
    */
    for (k = 1u; k < t->nchildren; k++) {
        i = t->lag + k;
        if (i >= t->nchildren)
            i -= t->nchildren;
        if (t->acked[i] == 0u) {
            t->lag = i;
            /*@ assert nc_mc_ok(t) && nc_mc_lag_ok(t); */
            /*@ assert \forall integer j; 0 <= j < t->nchildren ==>
                  t->acked[j] + 0 == (j == child && d < \at(t->count, Pre) && d + 1 > \at(t->acked[j], Pre)
                 ? d + 1 : \at(t->acked[j], Pre)); */
            return 0u;
        }
    }
    /*@ assert nc_mc_shape(t); */
    m = mc_slide(t);
    /*@ assert \forall integer j; 0 <= j < t->nchildren ==>
          t->acked[j] + m == (j == child && d < \at(t->count, Pre) && d + 1 > \at(t->acked[j], Pre)
                 ? d + 1 : \at(t->acked[j], Pre)); */
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
