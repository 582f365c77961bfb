/*
 * nc_pool.h - fixed-capacity token queues and free lists.
 *
 * The firmware's resources are static (docs/architecture.md): send and receive
 * tokens, packet descriptors and send records live in arrays and are named
 * by a 16-bit index.  A token queue is a FIFO ring of such indices (a port's
 * send queue, a connection's queue, the sent list); a free list hands out
 * and takes back the indices 0 .. size-1 of one array and refuses double
 * frees.
 */
#ifndef NC_POOL_H
#define NC_POOL_H

#include <stdint.h>
#include <stdbool.h>
#include "nc_config.h"

/* ---------------------------------------------------------------------- */
/* Token queue (FIFO)                                                     */
/* ---------------------------------------------------------------------- */

typedef struct {
    uint16_t item[NC_TOKQ_CAP];
    uint32_t head;    /* slot of the oldest entry, < NC_TOKQ_CAP */
    uint32_t count;   /* entries, <= NC_TOKQ_CAP                 */
} nc_tokq_t;

/*@ predicate nc_tokq_ok(nc_tokq_t *q) =
      \valid(q) && q->head < NC_TOKQ_CAP && q->count <= NC_TOKQ_CAP;

    // Slot of the k-th oldest entry.
    logic integer nc_tokq_slot(integer head, integer k) =
      head + k < NC_TOKQ_CAP ? head + k : head + k - NC_TOKQ_CAP;

    // The k-th oldest entry (0 = the head) in state L.
    logic integer nc_tokq_at{L}(nc_tokq_t *q, integer k) =
      \at(q->item[nc_tokq_slot(q->head, k)], L);
*/

/*@ requires \valid(q);
    assigns q->head, q->count;
    ensures nc_tokq_ok(q) && q->count == 0;
*/
void nc_tokq_init(nc_tokq_t *q);

/* Append v; false (and no change) when full. */
/*@ requires nc_tokq_ok(q);
    assigns q->item[0 .. NC_TOKQ_CAP - 1], q->count;
    ensures nc_tokq_ok(q);
    behavior full:
      assumes q->count == NC_TOKQ_CAP;
      ensures !\result && q->count == \old(q->count);
      ensures \forall integer k; 0 <= k < q->count ==>
                nc_tokq_at{Here}(q, k) == nc_tokq_at{Pre}(q, k);
    behavior room:
      assumes q->count < NC_TOKQ_CAP;
      ensures \result && q->count == \old(q->count) + 1;
      ensures q->head == \old(q->head);
      ensures \forall integer k; 0 <= k < \old(q->count) ==>
                nc_tokq_at{Here}(q, k) == nc_tokq_at{Pre}(q, k);
      ensures nc_tokq_at{Here}(q, \old(q->count)) == v;
    complete behaviors;
    disjoint behaviors;
*/
bool nc_tokq_push(nc_tokq_t *q, uint16_t v);

/* Remove the oldest entry into *v; false (and no change) when empty. */
/*@ requires nc_tokq_ok(q) && \valid(v) && \separated(q, v);
    assigns q->head, q->count, *v;
    ensures nc_tokq_ok(q);
    behavior empty:
      assumes q->count == 0;
      ensures !\result && q->count == 0 && q->head == \old(q->head);
    behavior nonempty:
      assumes q->count > 0;
      ensures \result && *v == nc_tokq_at{Pre}(q, 0);
      ensures q->count == \old(q->count) - 1;
      ensures \forall integer k; 0 <= k < q->count ==>
                nc_tokq_at{Here}(q, k) == nc_tokq_at{Pre}(q, k + 1);
    complete behaviors;
    disjoint behaviors;
*/
bool nc_tokq_pop(nc_tokq_t *q, uint16_t *v);

/* Look at the oldest entry without removing it. */
/*@ requires nc_tokq_ok(q) && \valid(v) && \separated(q, v);
    assigns *v;
    ensures \result <==> q->count > 0;
    ensures \result ==> *v == nc_tokq_at{Here}(q, 0);
*/
bool nc_tokq_peek(const nc_tokq_t *q, uint16_t *v);

/* ---------------------------------------------------------------------- */
/* Free list of indices 0 .. size-1                                       */
/* ---------------------------------------------------------------------- */

typedef struct {
    uint16_t stack[NC_FREELIST_CAP];  /* free indices, stack[0 .. top-1] */
    uint8_t in_use[NC_FREELIST_CAP];  /* 1 while allocated               */
    uint32_t top;
    uint32_t size;
} nc_freelist_t;

/*@ predicate nc_fl_ok(nc_freelist_t *f) =
      \valid(f) && f->size <= NC_FREELIST_CAP && f->top <= f->size &&
      (\forall integer k; 0 <= k < f->top ==>
          f->stack[k] < f->size && f->in_use[f->stack[k]] == 0) &&
      (\forall integer a, b; 0 <= a < b < f->top ==> f->stack[a] != f->stack[b]) &&
      (\forall integer i; 0 <= i < f->size ==> f->in_use[i] <= 1);
*/

/* All of 0 .. size-1 free; they are handed out in increasing order. */
/*@ requires \valid(f) && size <= NC_FREELIST_CAP;
    assigns *f;
    ensures nc_fl_ok(f) && f->size == size && f->top == size;
    ensures \forall integer i; 0 <= i < size ==> f->in_use[i] == 0;
*/
void nc_fl_init(nc_freelist_t *f, uint32_t size);

/* Take a free index; false when none is free. */
/*@ requires nc_fl_ok(f) && \valid(idx) && \separated(f, idx);
    assigns f->top, f->in_use[0 .. NC_FREELIST_CAP - 1], *idx;
    ensures nc_fl_ok(f);
    behavior exhausted:
      assumes f->top == 0;
      ensures !\result && f->top == 0;
    behavior available:
      assumes f->top > 0;
      ensures \result && *idx < f->size;
      ensures \old(f->in_use)[*idx] == 0 && f->in_use[*idx] == 1;
      ensures f->top == \old(f->top) - 1;
      ensures \forall integer i; 0 <= i < f->size && i != *idx ==>
                f->in_use[i] == \old(f->in_use[i]);
    complete behaviors;
    disjoint behaviors;
*/
bool nc_fl_alloc(nc_freelist_t *f, uint16_t *idx);

/* Give idx back.  Refuses (false, no change) an index out of range or not
 * allocated: a double free cannot corrupt the list. */
/*@ requires nc_fl_ok(f);
    assigns f->top, f->stack[0 .. NC_FREELIST_CAP - 1], f->in_use[0 .. NC_FREELIST_CAP - 1];
    ensures nc_fl_ok(f);
    behavior bogus:
      assumes idx >= f->size || f->in_use[idx] != 1;
      ensures !\result && f->top == \old(f->top);
      ensures \forall integer i; 0 <= i < f->size ==> f->in_use[i] == \old(f->in_use[i]);
    behavior ok:
      assumes idx < f->size && f->in_use[idx] == 1;
      ensures \result ==> f->in_use[idx] == 0 && f->top == \old(f->top) + 1;
      ensures !\result ==> f->top == \old(f->top);
      ensures \forall integer i; 0 <= i < f->size && i != idx ==>
                f->in_use[i] == \old(f->in_use[i]);
    complete behaviors;
    disjoint behaviors;
*/
bool nc_fl_free(nc_freelist_t *f, uint16_t idx);

#endif
