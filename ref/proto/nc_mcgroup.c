/* nc_mcgroup.c - see nc_mcgroup.h for the rules and the contracts. */
#include "nc_mcgroup.h"

/* The sequence numbers just before and just after a, modulo 2^32. */
/*@ assigns \nothing;
    ensures \result == nc_seq_add(a, 4294967295);
*/
static uint32_t prev_seq(uint32_t a)
{
    return a == 0u ? 0xFFFFFFFFu : a - 1u;
}

/*@ assigns \nothing;
    ensures \result == nc_seq_add(a, 1);
*/
static uint32_t next_seq(uint32_t a)
{
    return a == 0xFFFFFFFFu ? 0u : a + 1u;
}

void nc_mg_init(nc_mg_t *g, uint32_t role, uint32_t nchildren, uint32_t first, uint32_t window)
{
    /* a leaf's tracker is never used; one child keeps it well-formed */
    nc_mc_init(&g->mc, role == NC_MG_LEAF ? 1u : nchildren, first, window);
    g->role = role;
    g->expect = first;
    g->up = prev_seq(first);     /* first - 1: nothing yet */
}

nc_mg_verdict_t nc_mg_classify(const nc_mg_t *g, uint32_t seq)
{
    if (seq == g->expect) {
        if (g->role == NC_MG_INNER && g->mc.count >= g->mc.window)
            return NC_MG_DROP;
        return NC_MG_TAKE;
    }
    if (nc_seq_lt(seq, g->expect))
        return NC_MG_DUP;
    return NC_MG_DROP;
}

void nc_mg_take(nc_mg_t *g, uint32_t seq)
{
    g->expect = next_seq(seq);
    if (g->role == NC_MG_INNER)
        (void)nc_mc_push(&g->mc);   /* returns seq: the window ends at expect */
}

uint32_t nc_mg_push(nc_mg_t *g)
{
    return nc_mc_push(&g->mc);
}

uint32_t nc_mg_child_ack(nc_mg_t *g, uint32_t child, uint32_t ack)
{
    return nc_mc_ack(&g->mc, child, ack);
}

uint32_t nc_mg_up_ack(const nc_mg_t *g)
{
    if (g->role == NC_MG_INNER)
        return g->up;
    return prev_seq(g->expect);  /* expect - 1 */
}

bool nc_mg_ack_due(nc_mg_t *g, uint32_t *ack)
{
    uint32_t held;

    if (g->role != NC_MG_INNER)
        return false;
    held = prev_seq(g->mc.base); /* base - 1 */
    if (held == g->up)
        return false;
    g->up = held;
    *ack = held;
    return true;
}

bool nc_mg_msg_done(const nc_mg_t *g, uint32_t first, uint32_t built, uint32_t npk)
{
    (void)first;
    /* The window holds only this message's packets, the last `count` of
     * those numbered: it is empty exactly when every child holds them all
     * (while it is not, the lagging child owes its oldest one). */
    /*@ assert built == npk && g->mc.count > 0 ==>
          nc_seq_add(first, npk - g->mc.count) == g->mc.base; */
    /*@ assert built == npk && g->mc.count > 0 ==>
          nc_mc_owing(&g->mc, g->mc.lag, g->mc.base); */
    return built == npk && g->mc.count == 0u;
}

uint32_t nc_mg_resend_mask(const nc_mg_t *g, uint32_t seq)
{
    uint32_t mask = nc_mc_owing_mask(&g->mc, seq);

    return mask;
}
