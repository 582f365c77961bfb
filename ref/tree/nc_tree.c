/* nc_tree.c - see nc_tree.h for the contracts. */
#include "nc_tree.h"

bool nc_tree_check(nc_tree_t *t, uint32_t n, uint32_t k, uint32_t lambda, uint32_t T)
{
    uint32_t i, p;

    t->n = n;
    if (t->parent[0] != NC_NONE || t->rank[0] != 0u || t->time[0] != 0u)
        return false;
    /*@ loop invariant 0 <= i <= NC_MAX_NODES;
        loop invariant \forall integer j; 0 <= j < i ==> t->deg[j] == 0;
        loop assigns i, t->deg[0 .. NC_MAX_NODES - 1];
        loop variant NC_MAX_NODES - i;
    */
    for (i = 0u; i < NC_MAX_NODES; i++)
        t->deg[i] = 0u;
    /*@ loop invariant 1 <= i <= n;
        loop invariant \forall integer j; 0 < j < i ==> t->parent[j] < j;
        loop invariant \forall integer j; 0 < j < i ==> 1 <= t->rank[j] <= k;
        loop invariant \forall integer j; 0 < j < i ==>
          t->time[j] == t->time[t->parent[j]] + lambda + t->rank[j] - 1;
        loop invariant \forall integer j; 0 <= j < i ==> t->time[j] <= T;
        loop invariant \forall integer q; 0 <= q < NC_MAX_NODES ==>
          t->deg[q] == nc_cnt(t, q, i) && t->deg[q] <= k;
        loop assigns i, p, t->deg[0 .. NC_MAX_NODES - 1];
        loop variant n - i;
    */
    for (i = 1u; i < n; i++) {
        p = t->parent[i];
        if (p >= i)
            return false;
        if (t->rank[i] < 1u || t->rank[i] > k)
            return false;
        if (t->time[p] > T || t->time[i] != t->time[p] + lambda + t->rank[i] - 1u)
            return false;
        if (t->time[i] > T || t->deg[p] >= k)
            return false;
        t->deg[p]++;
    }
    return true;
}

int nc_tree_build(nc_tree_t *t, uint32_t n, uint32_t k, uint32_t lambda,
                  uint32_t T, const uint32_t *cover)
{
    uint32_t i, p, j, cur, b, sz, c;

    /*@ loop invariant 0 <= i <= NC_MAX_NODES;
        loop invariant \forall integer q; 0 <= q < i ==>
          t->parent[q] == NC_NONE && t->time[q] == 0 && t->end[q] == 0 && t->rank[q] == 0;
        loop assigns i, t->parent[0 .. NC_MAX_NODES - 1], t->time[0 .. NC_MAX_NODES - 1],
                     t->end[0 .. NC_MAX_NODES - 1], t->rank[0 .. NC_MAX_NODES - 1];
        loop variant NC_MAX_NODES - i;
    */
    for (i = 0u; i < NC_MAX_NODES; i++) {
        t->parent[i] = NC_NONE;
        t->rank[i] = 0u;
        t->time[i] = 0u;
        t->end[i] = 0u;
    }
    t->end[0] = (uint16_t)n;

    /* Positions in increasing order: a node's parent is always to its left,
     * so when p is reached its own time and range are final. */
    /*@ loop invariant 0 <= p <= n;
        loop invariant \forall integer q; 0 <= q < NC_MAX_NODES ==>
          t->end[q] <= n && t->time[q] <= T;
        loop assigns p, j, cur, b, sz, c, t->parent[0 .. NC_MAX_NODES - 1],
                     t->rank[0 .. NC_MAX_NODES - 1], t->time[0 .. NC_MAX_NODES - 1],
                     t->end[0 .. NC_MAX_NODES - 1];
        loop variant n - p;
    */
    for (p = 0u; p < n; p++) {
        if (p > 0u && t->parent[p] == NC_NONE)
            return NC_TREE_ERR;             /* nobody covered p */
        cur = t->end[p];
        if (cur <= p)
            return NC_TREE_ERR;             /* cannot happen: c < end[c] */
        j = 1u;
        /*@ loop invariant p < cur + 1 && cur <= n;
            loop invariant 1 <= j <= k + 1;
            loop invariant \forall integer q; 0 <= q < NC_MAX_NODES ==>
              t->end[q] <= n && t->time[q] <= T;
            loop assigns j, cur, b, sz, c, t->parent[0 .. NC_MAX_NODES - 1],
                         t->rank[0 .. NC_MAX_NODES - 1], t->time[0 .. NC_MAX_NODES - 1],
                         t->end[0 .. NC_MAX_NODES - 1];
            loop variant cur;
        */
        while (cur > p + 1u) {
            if (j > k)
                return NC_TREE_ERR;         /* out of children */
            /* Child j hears at time[p] + lambda + j - 1, leaving it
             * b = T - that much time to cover its own subtree. */
            if (T - t->time[p] + 1u < lambda + j)
                return NC_TREE_ERR;         /* out of time */
            b = T - t->time[p] + 1u - lambda - j;
            sz = cover[b];
            if (sz == 0u)
                return NC_TREE_ERR;
            if (sz > cur - p - 1u)
                sz = cur - p - 1u;
            c = cur - sz;                   /* rightmost uncovered block */
            t->parent[c] = (uint16_t)p;
            t->rank[c] = (uint16_t)j;
            t->time[c] = t->time[p] + lambda + j - 1u;
            t->end[c] = (uint16_t)cur;
            cur = c;
            j++;
        }
    }
    if (!nc_tree_check(t, n, k, lambda, T))
        return NC_TREE_ERR;
    return NC_TREE_OK;
}

int nc_kbin_tree(nc_tree_t *t, uint32_t n, uint32_t k, uint32_t *steps)
{
    uint32_t tab[NC_MAX_STEPS + 1u];
    uint32_t s = nc_kbin_steps(n, k);

    *steps = s;
    if (s == NC_STEPS_NONE)
        return NC_TREE_ERR;
    nc_kbin_table(k, s, tab);
    return nc_tree_build(t, n, k, 1u, s, tab);
}

int nc_binomial_tree(nc_tree_t *t, uint32_t n, uint32_t *steps)
{
    uint32_t k = nc_ceil_log2(n);
    if (k < 1u)
        k = 1u;
    return nc_kbin_tree(t, n, k, steps);
}

uint32_t nc_postal_ratio(uint32_t deliver_time, uint32_t send_time)
{
    uint32_t q = deliver_time / send_time;
    if (deliver_time % send_time != 0u)
        q++;
    if (q < 1u)
        return 1u;
    if (q > NC_MAX_LAMBDA)
        return NC_MAX_LAMBDA;
    return q;
}

int nc_postal_tree(nc_tree_t *t, uint32_t n, uint32_t lambda, uint32_t *steps)
{
    uint32_t tab[NC_MAX_STEPS + 1u];
    uint32_t s;

    nc_postal_table(lambda, NC_MAX_STEPS, tab);
    /*@ loop invariant 0 <= s <= NC_MAX_STEPS + 1;
        loop invariant \forall integer u; 0 <= u < s ==> nc_P(u, lambda) < n;
        loop assigns s;
        loop variant NC_MAX_STEPS + 1 - s;
    */
    for (s = 0u; s <= NC_MAX_STEPS; s++)
        if (tab[s] >= n)
            break;
    *steps = s;
    if (s > NC_MAX_STEPS)
        return NC_TREE_ERR;
    return nc_tree_build(t, n, NC_MAX_NODES, lambda, s, tab);
}

int nc_gb_tree(nc_tree_t *t, uint32_t n, uint32_t d)
{
    uint32_t i, p;

    /*@ loop invariant 0 <= i <= NC_MAX_NODES;
        loop invariant \forall integer q; 0 <= q < i ==> t->end[q] == 0;
        loop assigns i, t->end[0 .. NC_MAX_NODES - 1];
        loop variant NC_MAX_NODES - i;
    */
    for (i = 0u; i < NC_MAX_NODES; i++)
        t->end[i] = 0u;     /* heap-ordered subtrees are not ranges */
    t->parent[0] = NC_NONE;
    t->rank[0] = 0u;
    t->time[0] = 0u;
    /*@ loop invariant 1 <= i <= n;
        loop invariant \forall integer q; 0 < q < i ==> t->parent[q] == (q - 1) / d;
        loop invariant \forall integer q; 0 <= q < i ==> t->time[q] <= NC_MAX_STEPS;
        loop invariant t->parent[0] == NC_NONE && t->rank[0] == 0 && t->time[0] == 0;
        loop assigns i, p, t->parent[1 .. NC_MAX_NODES - 1], t->rank[1 .. NC_MAX_NODES - 1],
                     t->time[1 .. NC_MAX_NODES - 1];
        loop variant n - i;
    */
    for (i = 1u; i < n; i++) {
        p = (i - 1u) / d;
        t->parent[i] = (uint16_t)p;
        t->rank[i] = (uint16_t)((i - 1u) % d + 1u);
        /* Broadcast phase: the parent sends to its children in order. */
        if (t->time[p] + t->rank[i] > NC_MAX_STEPS)
            return NC_TREE_ERR;
        t->time[i] = t->time[p] + t->rank[i];
    }
    if (!nc_tree_check(t, n, d, 1u, NC_MAX_STEPS))
        return NC_TREE_ERR;
    return NC_TREE_OK;
}

void nc_id_order(const uint16_t *ids, uint32_t n, uint16_t root, uint16_t *order)
{
    uint32_t r = 0u, a;

    /*@ loop invariant 0 <= r < n;
        loop invariant \forall integer j; 0 <= j < r ==> ids[j] != root;
        loop assigns r;
        loop variant n - r;
    */
    while (r + 1u < n && ids[r] != root)
        r++;
    /*@ assert ids[r] == root; */
    order[0] = root;
    /* The members below the root keep their place shifted by one; those
     * above it keep their place. */
    /*@ loop invariant 1 <= a <= n;
        loop invariant order[0] == root;
        loop invariant \forall integer b; 1 <= b < a && b <= r ==> order[b] == ids[b - 1];
        loop invariant \forall integer b; 1 <= b < a && b > r ==> order[b] == ids[b];
        loop assigns a, order[1 .. n - 1];
        loop variant n - a;
    */
    for (a = 1u; a < n; a++) {
        if (a <= r)
            order[a] = ids[a - 1u];
        else
            order[a] = ids[a];
    }
    /*@ assert lo: \forall integer b1, b2; 1 <= b1 < b2 <= r ==> order[b1] < order[b2]; */
    /*@ assert mid: \forall integer b1, b2; 1 <= b1 <= r < b2 < n ==> order[b1] < order[b2]; */
    /*@ assert hi: \forall integer b1, b2; r < b1 < b2 < n ==> order[b1] < order[b2]; */
}
