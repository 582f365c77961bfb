/* nc_pool.c - see nc_pool.h for the contracts. */
#include "nc_pool.h"

void nc_tokq_init(nc_tokq_t *q)
{
    q->head = 0u;
    q->count = 0u;
}

/*@ requires h < NC_TOKQ_CAP && k <= NC_TOKQ_CAP;
    assigns \nothing;
    ensures \result == nc_tokq_slot(h, k) && \result < NC_TOKQ_CAP + NC_TOKQ_CAP;
*/
static uint32_t slot(uint32_t h, uint32_t k)
{
    uint32_t s = h + k;
    return s < NC_TOKQ_CAP ? s : s - NC_TOKQ_CAP;
}

bool nc_tokq_push(nc_tokq_t *q, uint16_t v)
{
    if (q->count == NC_TOKQ_CAP)
        return false;
    q->item[slot(q->head, q->count)] = v;
    q->count++;
    return true;
}

bool nc_tokq_pop(nc_tokq_t *q, uint16_t *v)
{
    if (q->count == 0u)
        return false;
    *v = q->item[q->head];
    q->head = slot(q->head, 1u);
    q->count--;
    return true;
}

bool nc_tokq_peek(const nc_tokq_t *q, uint16_t *v)
{
    if (q->count == 0u)
        return false;
    *v = q->item[q->head];
    return true;
}

void nc_fl_init(nc_freelist_t *f, uint32_t size)
{
    uint32_t i;
    /*@ loop invariant 0 <= i <= size;
        loop invariant \forall integer k; 0 <= k < i ==> f->stack[k] == size - 1 - k;
        loop invariant \forall integer k; 0 <= k < i ==> f->in_use[k] == 0;
        loop assigns i, f->stack[0 .. NC_FREELIST_CAP - 1], f->in_use[0 .. NC_FREELIST_CAP - 1];
        loop variant size - i;
    */
    for (i = 0u; i < size; i++) {
        /* Highest index at the bottom, so 0 is handed out first. */
        f->stack[i] = (uint16_t)(size - 1u - i);
        f->in_use[i] = 0u;
    }
    f->top = size;
    f->size = size;
}

bool nc_fl_alloc(nc_freelist_t *f, uint16_t *idx)
{
    uint16_t i;
    if (f->top == 0u)
        return false;
    f->top--;
    i = f->stack[f->top];
    f->in_use[i] = 1u;
    *idx = i;
    return true;
}

bool nc_fl_free(nc_freelist_t *f, uint16_t idx)
{
    if (idx >= f->size || f->in_use[idx] != 1u)
        return false;
    /* Every free index is on the stack, and idx is not free, so the stack
     * has room; the check keeps that true even if a caller corrupted the
     * struct. */
    if (f->top >= f->size)
        return false;
    f->in_use[idx] = 0u;
    f->stack[f->top] = idx;
    f->top++;
    return true;
}
