/*
 * nc_abred.c - the descriptor and early queues of application-bypass
 * reduction (nc_abred.h). Linear searches: a process has at most
 * NC_AB_DESCS reductions and NC_AB_EARLY early contributions at a time,
 * and the library consults them once per contribution.
 */
#include "nc_abred.h"

void nc_ab_init(nc_abq_t *q)
{
    /*@ loop invariant 0 <= i <= NC_AB_DESCS;
        loop invariant \forall integer k; 0 <= k < i ==> q->used[k] == 0;
        loop assigns i, q->used[0 .. NC_AB_DESCS - 1], q->inst[0 .. NC_AB_DESCS - 1],
                     q->parent[0 .. NC_AB_DESCS - 1], q->nchild[0 .. NC_AB_DESCS - 1];
        loop variant NC_AB_DESCS - i;
    */
    for (uint32_t i = 0; i < NC_AB_DESCS; i++) {
        q->used[i] = 0;
        q->inst[i] = q->parent[i] = q->nchild[i] = 0;
    }
    /*@ loop invariant 0 <= i <= NC_AB_EARLY;
        loop invariant \forall integer k; 0 <= k < i ==> q->e_used[k] == 0;
        loop invariant \forall integer k; 0 <= k < NC_AB_DESCS ==> q->used[k] == 0;
        loop assigns i, q->e_used[0 .. NC_AB_EARLY - 1], q->e_inst[0 .. NC_AB_EARLY - 1],
                     q->e_src[0 .. NC_AB_EARLY - 1], q->e_slot[0 .. NC_AB_EARLY - 1];
        loop variant NC_AB_EARLY - i;
    */
    for (uint32_t i = 0; i < NC_AB_EARLY; i++) {
        q->e_used[i] = 0;
        q->e_inst[i] = q->e_src[i] = q->e_slot[i] = 0;
    }
}

/* The descriptor of instance inst, or -1. */
/*@ requires nc_ab_ok(q);
    assigns \nothing;
    ensures -1 <= \result < NC_AB_DESCS;
    ensures \result >= 0 ==> nc_ab_is(q, \result, inst);
    ensures \result < 0 ==> nc_ab_none(q, inst);
*/
static int32_t find(const nc_abq_t *q, uint32_t inst)
{
    /*@ loop invariant 0 <= i <= NC_AB_DESCS;
        loop invariant \forall integer k; 0 <= k < i ==> !nc_ab_is(q, k, inst);
        loop assigns i;
        loop variant NC_AB_DESCS - i;
    */
    for (uint32_t i = 0; i < NC_AB_DESCS; i++)
        if (q->used[i] && q->inst[i] == inst)
            return (int32_t)i;
    return -1;
}

int nc_ab_begin(nc_abq_t *q, uint32_t inst, uint32_t parent, const uint32_t *child, uint32_t n)
{
    uint32_t i = 0;

    if (n > NC_AB_CHILDREN || find(q, inst) >= 0)
        return -1;
    /*@ assert nc_ab_none(q, inst); */
    /*@ loop invariant 0 <= i <= NC_AB_DESCS;
        loop invariant \forall integer k; 0 <= k < i ==> q->used[k] != 0;
        loop assigns i;
        loop variant NC_AB_DESCS - i;
    */
    while (i < NC_AB_DESCS && q->used[i])
        i++;
    if (i == NC_AB_DESCS)
        return -1;
    /*@ loop invariant 0 <= c <= n;
        loop invariant \forall integer k; 0 <= k < c ==> q->child[i][k] == child[k] &&
                                                       q->owes[i][k] == 1;
        loop assigns c, q->child[i][0 .. NC_AB_CHILDREN - 1], q->owes[i][0 .. NC_AB_CHILDREN - 1];
        loop variant n - c;
    */
    for (uint32_t c = 0; c < n; c++) {
        q->child[i][c] = child[c];
        q->owes[i][c] = 1;
    }
    q->inst[i] = inst;
    q->parent[i] = parent;
    q->nchild[i] = n;
    q->used[i] = 1;
    /* the steps of nc_ab_ok's proof: the others are as they were, none
     * of them has this instance, and they differ among themselves */
    /*@ assert \forall integer k; 0 <= k < NC_AB_DESCS && k != i ==>
                 q->used[k] == \at(q->used[k], Pre) && q->inst[k] == \at(q->inst[k], Pre) &&
                 q->nchild[k] == \at(q->nchild[k], Pre); */
    /*@ assert \forall integer k; 0 <= k < NC_AB_DESCS && k != i && q->used[k] != 0 ==>
                 q->inst[k] != inst; */
    /*@ assert \forall integer a, b; 0 <= a < b < NC_AB_DESCS && a != i && b != i &&
                 q->used[a] != 0 && q->used[b] != 0 ==> q->inst[a] != q->inst[b]; */
    /*@ assert \forall integer k; 0 <= k < NC_AB_DESCS && q->used[k] != 0 ==>
                 q->nchild[k] <= NC_AB_CHILDREN; */
    return (int)i;
}

/* Does descriptor i still owe any contribution? */
/*@ requires \valid_read(q) && 0 <= i < NC_AB_DESCS && q->nchild[i] <= NC_AB_CHILDREN;
    assigns \nothing;
    ensures \result <==> !nc_ab_paid(q, i);
*/
static bool owing(const nc_abq_t *q, uint32_t i)
{
    /*@ loop invariant 0 <= c <= q->nchild[i];
        loop invariant \forall integer k; 0 <= k < c ==> q->owes[i][k] == 0;
        loop assigns c;
        loop variant q->nchild[i] - c;
    */
    for (uint32_t c = 0; c < q->nchild[i]; c++)
        if (q->owes[i][c])
            return true;
    return false;
}

nc_ab_verdict_t nc_ab_arrive(nc_abq_t *q, uint32_t inst, uint32_t src, int32_t *d, uint32_t *ci)
{
    int32_t i = find(q, inst);
    uint32_t n, c = 0;

    if (i < 0)
        return NC_AB_UNMATCHED;
    n = q->nchild[i];
    /*@ loop invariant 0 <= c <= n;
        loop invariant \forall integer k; 0 <= k < c ==> !nc_ab_owes(q, i, k, src);
        loop assigns c;
        loop variant n - c;
    */
    while (c < n && !(q->child[i][c] == src && q->owes[i][c]))
        c++;
    if (c == n)
        return NC_AB_REFUSED;
    /*@ assert nc_ab_is(q, i, inst) && nc_ab_owes(q, i, c, src); */
    q->owes[i][c] = 0;
    *d = i;
    *ci = c;
    return owing(q, (uint32_t)i) ? NC_AB_COUNTED : NC_AB_COMPLETE;
}

void nc_ab_end(nc_abq_t *q, uint32_t i)
{
    q->used[i] = 0;
}

uint32_t nc_ab_outstanding(const nc_abq_t *q)
{
    uint32_t n = 0;

    /*@ loop invariant 0 <= i <= NC_AB_DESCS;
        loop invariant 0 <= n <= i;
        loop invariant n == 0 <==> \forall integer k; 0 <= k < i ==> q->used[k] == 0;
        loop assigns i, n;
        loop variant NC_AB_DESCS - i;
    */
    for (uint32_t i = 0; i < NC_AB_DESCS; i++)
        n += q->used[i] != 0;
    return n;
}

/* The early queue's entry of (inst, src), or -1. */
/*@ requires nc_ab_ok(q);
    assigns \nothing;
    ensures -1 <= \result < NC_AB_EARLY;
    ensures \result >= 0 ==> q->e_used[\result] != 0 && q->e_inst[\result] == inst &&
              q->e_src[\result] == src;
    ensures \result == -1 <==> !\exists integer j; 0 <= j < NC_AB_EARLY && q->e_used[j] != 0 &&
              q->e_inst[j] == inst && q->e_src[j] == src;
*/
static int32_t find_early(const nc_abq_t *q, uint32_t inst, uint32_t src)
{
    /*@ loop invariant 0 <= j <= NC_AB_EARLY;
        loop invariant \forall integer k; 0 <= k < j ==>
                         !(q->e_used[k] != 0 && q->e_inst[k] == inst && q->e_src[k] == src);
        loop assigns j;
        loop variant NC_AB_EARLY - j;
    */
    for (uint32_t j = 0; j < NC_AB_EARLY; j++)
        if (q->e_used[j] && q->e_inst[j] == inst && q->e_src[j] == src)
            return (int32_t)j;
    return -1;
}

bool nc_ab_hold(nc_abq_t *q, uint32_t inst, uint32_t src, uint32_t slot)
{
    uint32_t j = 0;

    if (find_early(q, inst, src) >= 0)
        return false;
    /*@ loop invariant 0 <= j <= NC_AB_EARLY;
        loop invariant \forall integer k; 0 <= k < j ==> q->e_used[k] != 0;
        loop assigns j;
        loop variant NC_AB_EARLY - j;
    */
    while (j < NC_AB_EARLY && q->e_used[j])
        j++;
    if (j == NC_AB_EARLY)
        return false;
    q->e_inst[j] = inst;
    q->e_src[j] = src;
    q->e_slot[j] = slot;
    q->e_used[j] = 1;
    return true;
}

int64_t nc_ab_take_early(nc_abq_t *q, uint32_t inst, uint32_t src)
{
    int32_t j = find_early(q, inst, src);

    if (j < 0)
        return -1;
    q->e_used[j] = 0;
    return q->e_slot[j];
}
