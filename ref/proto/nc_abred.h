/*
 * nc_abred.h - the two queues of application-bypass reduction at one
 * process (seed 004 sections 3.3-3.4): the descriptor queue and the
 * reduction's own unexpected queue, and how an arriving contribution is
 * matched to one of several reductions in flight.
 *
 * A process in MPI_Reduce (instance inst: the reduction's number on its
 * communicator, the same at every rank) whose children have not all sent
 * leaves a descriptor behind (nc_ab_begin): the instance, the parent the
 * result goes to, the children and which of them are still owed. The rest
 * of the reduction runs when the contributions arrive, maybe long after
 * MPI_Reduce returned (late messages, by a host signal). A contribution
 * names its instance and its sender, and nc_ab_arrive matches it exactly:
 * to the descriptor of that instance, only if the sender is one of its
 * children still owed, so that back-to-back reductions skewed across the
 * tree never take each other's messages. One that finds no descriptor of
 * its instance came early (before its MPI_Reduce): it is held
 * (nc_ab_hold), and MPI_Reduce takes it from the queue when it gets there
 * (nc_ab_take_early). Anything else (the sender is no child of that
 * instance, or was already counted) is refused: it never changes a result.
 *
 * The library keeps the data (running results, held payloads) beside the
 * queues, indexed by descriptor and by the slot given to nc_ab_hold; this
 * core keeps only what decides. Signals are wanted exactly while a
 * descriptor is outstanding (nc_ab_outstanding).
 */
#ifndef NC_ABRED_H
#define NC_ABRED_H

#include <stdint.h>
#include <stdbool.h>

#define NC_AB_DESCS    16u  /* reductions in flight at one process */
#define NC_AB_CHILDREN 16u  /* children of one process: a binomial tree of 65,536 ranks */
#define NC_AB_EARLY    64u  /* contributions held before their MPI_Reduce */

/* Struct of arrays: each field its own array, so that what one update
 * writes is visibly apart from everything else (the proofs' frames). */
typedef struct {
    uint32_t used[NC_AB_DESCS];
    uint32_t inst[NC_AB_DESCS], parent[NC_AB_DESCS], nchild[NC_AB_DESCS];
    uint32_t child[NC_AB_DESCS][NC_AB_CHILDREN];
    uint8_t owes[NC_AB_DESCS][NC_AB_CHILDREN];  /* != 0: child's contribution not yet counted */
    uint32_t e_used[NC_AB_EARLY], e_inst[NC_AB_EARLY], e_src[NC_AB_EARLY], e_slot[NC_AB_EARLY];
} nc_abq_t;

typedef enum {
    NC_AB_COUNTED  = 0, /* matched: a child of the descriptor counted, more owed */
    NC_AB_COMPLETE = 1, /* matched: its last child counted (send to the parent) */
    NC_AB_UNMATCHED = 2, /* no descriptor of that instance: early, hold it */
    NC_AB_REFUSED  = 3  /* the instance's descriptor does not owe it: drop it */
} nc_ab_verdict_t;

/*@ predicate nc_ab_ok(nc_abq_t *q) =
      \valid(q) &&
      (\forall integer i; 0 <= i < NC_AB_DESCS && q->used[i] != 0 ==>
         q->nchild[i] <= NC_AB_CHILDREN) &&
      (\forall integer i, j; 0 <= i < j < NC_AB_DESCS &&
         q->used[i] != 0 && q->used[j] != 0 ==> q->inst[i] != q->inst[j]);

    // i is the descriptor of instance inst
    predicate nc_ab_is(nc_abq_t *q, integer i, integer inst) =
      0 <= i < NC_AB_DESCS && q->used[i] != 0 && q->inst[i] == inst;

    predicate nc_ab_none(nc_abq_t *q, integer inst) =
      \forall integer i; 0 <= i < NC_AB_DESCS ==> !nc_ab_is(q, i, inst);

    // descriptor i owes src's contribution: as child c
    predicate nc_ab_owes(nc_abq_t *q, integer i, integer c, integer src) =
      0 <= c < q->nchild[i] && q->child[i][c] == src && q->owes[i][c] != 0;

    predicate nc_ab_paid(nc_abq_t *q, integer i) =
      \forall integer c; 0 <= c < q->nchild[i] ==> q->owes[i][c] == 0;

    predicate nc_ab_same_desc{L1, L2}(nc_abq_t *q, integer i) =
      \at(q->used[i], L1) == \at(q->used[i], L2) &&
      \at(q->inst[i], L1) == \at(q->inst[i], L2) &&
      \at(q->parent[i], L1) == \at(q->parent[i], L2) &&
      \at(q->nchild[i], L1) == \at(q->nchild[i], L2) &&
      (\forall integer c; 0 <= c < NC_AB_CHILDREN ==>
         \at(q->child[i][c], L1) == \at(q->child[i][c], L2) &&
         \at(q->owes[i][c], L1) == \at(q->owes[i][c], L2));
*/

/* Empty queues. */
/*@ requires \valid(q);
    assigns *q;
    ensures nc_ab_ok(q);
    ensures \forall integer i; 0 <= i < NC_AB_DESCS ==> q->used[i] == 0;
    ensures \forall integer i; 0 <= i < NC_AB_EARLY ==> q->e_used[i] == 0;
*/
void nc_ab_init(nc_abq_t *q);

/* MPI_Reduce of instance inst, with children child[0 .. n-1] (distinct
 * ranks) and the result for parent: its descriptor, every child owed. The
 * descriptor's index, or -1 (nothing changed) when the queue is full, the
 * instance has one already, or n is too large. */
/*@ requires nc_ab_ok(q);
    requires n <= NC_AB_CHILDREN;
    requires \valid_read(child + (0 .. n - 1));
    requires \separated(q, child + (0 .. n - 1));
    assigns q->used[0 .. NC_AB_DESCS - 1], q->inst[0 .. NC_AB_DESCS - 1],
            q->parent[0 .. NC_AB_DESCS - 1], q->nchild[0 .. NC_AB_DESCS - 1],
            q->child[0 .. NC_AB_DESCS - 1][0 .. NC_AB_CHILDREN - 1],
            q->owes[0 .. NC_AB_DESCS - 1][0 .. NC_AB_CHILDREN - 1];
    ensures nc_ab_ok(q);
    ensures \result == -1 || (0 <= \result < NC_AB_DESCS);
    ensures \result == -1 ==> \forall integer i; 0 <= i < NC_AB_DESCS ==> nc_ab_same_desc{Pre, Post}(q, i);
    ensures \result >= 0 ==> nc_ab_none{Pre}(q, inst) && \old(q->used[\result]) == 0;
    ensures \result >= 0 ==> nc_ab_is(q, \result, inst) && q->parent[\result] == parent &&
              q->nchild[\result] == n &&
              (\forall integer c; 0 <= c < n ==> q->child[\result][c] == child[c] &&
                                                 q->owes[\result][c] == 1);
    ensures \result >= 0 ==> \forall integer i; 0 <= i < NC_AB_DESCS && i != \result ==>
              nc_ab_same_desc{Pre, Post}(q, i);
*/
int nc_ab_begin(nc_abq_t *q, uint32_t inst, uint32_t parent, const uint32_t *child, uint32_t n);

/* The contribution of src to instance inst arrived (or MPI_Reduce took it
 * from the early queue). Matched: *d is its descriptor and *c the child
 * src is of it (the library combines in child order), whose owed flag is
 * now clear, and nothing else changed. */
/*@ requires nc_ab_ok(q) && \valid(d) && \valid(c) && \separated(q, d, c);
    assigns q->owes[0 .. NC_AB_DESCS - 1][0 .. NC_AB_CHILDREN - 1], *d, *c;
    ensures nc_ab_ok(q);
    behavior matched:
      assumes \exists integer i, k; nc_ab_is(q, i, inst) && nc_ab_owes(q, i, k, src);
      ensures \result == NC_AB_COUNTED || \result == NC_AB_COMPLETE;
      ensures nc_ab_is(q, *d, inst);
      ensures nc_ab_owes{Pre}(q, *d, *c, src) && q->owes[*d][*c] == 0;
      ensures \let i = *d; \let cc = *c; \forall integer k; 0 <= k < NC_AB_CHILDREN && k != cc ==>
                q->owes[i][k] == \at(q->owes[i][k], Pre);
      ensures \result == NC_AB_COMPLETE <==> nc_ab_paid(q, *d);
      ensures \forall integer i; 0 <= i < NC_AB_DESCS && i != *d ==> nc_ab_same_desc{Pre, Post}(q, i);
    behavior early:
      assumes nc_ab_none(q, inst);
      ensures \result == NC_AB_UNMATCHED;
      ensures \forall integer i; 0 <= i < NC_AB_DESCS ==> nc_ab_same_desc{Pre, Post}(q, i);
    behavior refused:
      assumes !nc_ab_none(q, inst);
      assumes !\exists integer i, k; nc_ab_is(q, i, inst) && nc_ab_owes(q, i, k, src);
      ensures \result == NC_AB_REFUSED;
      ensures \forall integer i; 0 <= i < NC_AB_DESCS ==> nc_ab_same_desc{Pre, Post}(q, i);
    complete behaviors;
    disjoint behaviors;
*/
nc_ab_verdict_t nc_ab_arrive(nc_abq_t *q, uint32_t inst, uint32_t src, int32_t *d, uint32_t *c);

/* Descriptor i's result went to its parent: it is free again. */
/*@ requires nc_ab_ok(q) && 0 <= i < NC_AB_DESCS;
    assigns q->used[i];
    ensures nc_ab_ok(q);
    ensures q->used[i] == 0;
*/
void nc_ab_end(nc_abq_t *q, uint32_t i);

/* Reductions in flight: while there are any, the host wants signals. */
/*@ requires nc_ab_ok(q);
    assigns \nothing;
    ensures \result <= NC_AB_DESCS;
    ensures \result == 0 <==> \forall integer i; 0 <= i < NC_AB_DESCS ==> q->used[i] == 0;
*/
uint32_t nc_ab_outstanding(const nc_abq_t *q);

/* Hold an early contribution of src to inst, whose payload the library
 * keeps in its slot. false (nothing held) when the queue is full or one
 * of src for inst is held already (a sender contributes once). */
/*@ requires nc_ab_ok(q);
    assigns q->e_used[0 .. NC_AB_EARLY - 1], q->e_inst[0 .. NC_AB_EARLY - 1],
            q->e_src[0 .. NC_AB_EARLY - 1], q->e_slot[0 .. NC_AB_EARLY - 1];
    ensures nc_ab_ok(q);
    behavior dup:
      assumes \exists integer j; 0 <= j < NC_AB_EARLY && q->e_used[j] != 0 &&
              q->e_inst[j] == inst && q->e_src[j] == src;
      ensures !\result;
    behavior other:
      assumes !\exists integer j; 0 <= j < NC_AB_EARLY && q->e_used[j] != 0 &&
              q->e_inst[j] == inst && q->e_src[j] == src;
      ensures \result ==> \exists integer j; 0 <= j < NC_AB_EARLY && q->e_used[j] != 0 &&
              q->e_inst[j] == inst && q->e_src[j] == src && q->e_slot[j] == slot;
      ensures !\result ==> \forall integer j; 0 <= j < NC_AB_EARLY ==> \old(q->e_used[j]) != 0;
    complete behaviors;
    disjoint behaviors;
*/
bool nc_ab_hold(nc_abq_t *q, uint32_t inst, uint32_t src, uint32_t slot);

/* MPI_Reduce of inst looks for src's contribution: the slot of the one
 * held, which leaves the queue; -1 when none is. */
/*@ requires nc_ab_ok(q);
    assigns q->e_used[0 .. NC_AB_EARLY - 1];
    ensures nc_ab_ok(q);
    behavior held:
      assumes \exists integer j; 0 <= j < NC_AB_EARLY && q->e_used[j] != 0 &&
              q->e_inst[j] == inst && q->e_src[j] == src;
      ensures \exists integer j; 0 <= j < NC_AB_EARLY && \old(q->e_used[j]) != 0 &&
              q->e_inst[j] == inst && q->e_src[j] == src && \result == q->e_slot[j] &&
              q->e_used[j] == 0;
    behavior none:
      assumes !\exists integer j; 0 <= j < NC_AB_EARLY && q->e_used[j] != 0 &&
              q->e_inst[j] == inst && q->e_src[j] == src;
      ensures \result == -1;
      ensures \forall integer j; 0 <= j < NC_AB_EARLY ==> q->e_used[j] == \old(q->e_used[j]);
    complete behaviors;
    disjoint behaviors;
*/
int64_t nc_ab_take_early(nc_abq_t *q, uint32_t inst, uint32_t src);

#endif
