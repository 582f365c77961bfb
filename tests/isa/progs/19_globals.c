/* 19_globals: initialised data containing addresses (R_LANAI_32 with addends,
 * lanai-isa.md §10.4): pointers to other globals and into the middle of
 * arrays, pointers to functions, a linked list and a tree built entirely by
 * static initialisers, self-referential structs, pointers to string literals,
 * .bss and .data objects of several sizes, and globals written at run time and
 * read back. Addresses themselves are never printed, only what they reach and
 * differences between them. */
#include "tests/isa/progs/prog.h"

int32_t counter = 5;                                  /* .data */
int32_t zeroed[100];                                  /* .bss */
static int64_t wide = -0x123456789LL;                  /* 8-aligned .data */
static const int32_t primes[] = { 2, 3, 5, 7, 11, 13, 17, 19, 23, 29 };
static const int32_t *const prime_ptrs[] = { &primes[0], &primes[3], primes + 9, &primes[5] };
static int32_t *const counter_ptr = &counter;
static int32_t **const counter_pp = (int32_t **)&counter_ptr;   /* pointer to a pointer */
static unsigned char bytes[7] = { 1, 2, 3 };            /* partly initialised */
static const unsigned char *byte_ptr = bytes + 5;        /* odd addend */

struct node { int32_t val; const struct node *next; };
static const struct node n3 = { 30, 0 };
static const struct node n2 = { 20, &n3 };
static const struct node n1 = { 10, &n2 };
static const struct node list_head = { 0, &n1 };

/* A ring: each element points at the next, the last back at the first. */
struct ring { const char *name; struct ring *next; int32_t weight; };
extern struct ring ring[4];
struct ring ring[4] = {
    { "north", &ring[1], 1 }, { "east", &ring[2], 2 },
    { "south", &ring[3], 3 }, { "west", &ring[0], 4 },
};

static int32_t twice(int32_t x) { return 2 * x; }
static int32_t square(int32_t x) { return x * x; }
int32_t negate(int32_t x) { return -x; }
struct op { const char *name; int32_t (*fn)(int32_t); const int32_t *arg; };
static const struct op ops[] = {
    { "twice", twice, &primes[4] },
    { "square", square, &primes[2] },
    { "negate", negate, &counter },
};

/* A binary tree in static data. */
struct tree { int32_t key; const struct tree *l, *r; };
static const struct tree t1 = { 1, 0, 0 }, t3 = { 3, 0, 0 }, t5 = { 5, 0, 0 }, t7 = { 7, 0, 0 };
static const struct tree t2 = { 2, &t1, &t3 }, t6 = { 6, &t5, &t7 };
static const struct tree root = { 4, &t2, &t6 };

static int32_t tree_walk(const struct tree *t, int32_t depth)
{
    if (!t) return 0;
    return t->key * depth + tree_walk(t->l, depth + 1) + tree_walk(t->r, depth + 1);
}

/* Pointer arithmetic across a global array (differences are fine to print). */
static int32_t grid[5][6];
static int32_t *const grid_mid = &grid[2][3];

static struct { char tag; int64_t big; short s; } mixed = { 'm', 0x7edcba9876543210LL, -2 };

int main(void)
{
    int32_t s = 0;
    for (const struct node *n = &list_head; n; n = n->next) s = s * 100 + n->val;
    outd("list", s);
    for (int i = 0; i < COUNT_OF(prime_ptrs); i++) s += *prime_ptrs[i] * (i + 1);
    outd("prime ptrs", s);
    outd("prime index", (int32_t)(prime_ptrs[2] - primes));
    **counter_pp += 10;
    outd("counter", counter);
    outd("bytes", byte_ptr[-5] * 100 + byte_ptr[-3] * 10 + byte_ptr[0] + byte_ptr[1]);
    out64("wide", (uint64_t)wide);
    wide *= -3;
    out64("wide*-3", (uint64_t)wide);
    const struct ring *r = &ring[1];
    uint32_t h = 0;
    for (int i = 0; i < 9; i++) {
        ck_str(r->name);
        h = h * 7u + (uint32_t)r->weight;
        r = r->next;
    }
    outs("ring stop", r->name);
    out32("ring", h);
    ring[2].next = &ring[0];          /* rewrite a pointer at run time */
    int32_t w = 0;
    r = &ring[0];
    for (int i = 0; i < 6; i++) { w = w * 10 + r->weight; r = r->next; }
    outd("ring rewired", w);
    for (int i = 0; i < COUNT_OF(ops); i++) {
        put_str(ops[i].name);
        put_char(' ');
        int32_t v = ops[i].fn(*ops[i].arg);
        put_dec(v);
        put_nl();
        ck32((uint32_t)v);
    }
    outd("tree", tree_walk(&root, 1));
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 6; j++) grid[i][j] = i * 10 + j;
    outd("grid mid", *grid_mid);
    outd("grid offset", (int32_t)(grid_mid - &grid[0][0]));
    outd("grid neighbour", grid_mid[6] - grid_mid[-1]);
    int32_t z = 0;
    for (int i = 0; i < 100; i++) z |= zeroed[i];
    outd("bss zero", z);
    zeroed[99] = 7;
    outd("bss write", zeroed[99]);
    outd("mixed.tag", mixed.tag);
    out64("mixed.big", (uint64_t)mixed.big);
    outd("mixed.s", mixed.s);
    return finish();
}
