/* 09_struct_ret: aggregate returns. On LANai every struct or union return,
 * even 2 bytes, goes through a hidden sret pointer passed in the first stack
 * slot (lanai-isa.md §9.2); the callee returns it in rv. Covers small and
 * large (memcpy-sized) results, results fed straight into other calls,
 * returning a union, and nested/chained calls. 64-bit scalar returns (rv:r9)
 * are checked too. */
#include "tests/isa/progs/prog.h"

#define NI __attribute__((noinline))

struct two { unsigned char a, b; };
struct pt { int32_t x, y; };
struct rect { struct pt lo, hi; };
struct big { uint32_t v[20]; };
union u { uint32_t w; unsigned char b[4]; };

NI struct two mk_two(int a, int b) { struct two t = { (unsigned char)a, (unsigned char)b }; return t; }
NI struct pt mk_pt(int32_t x, int32_t y) { struct pt p = { x, y }; return p; }
NI struct pt add_pt(struct pt a, struct pt b) { return mk_pt(a.x + b.x, a.y + b.y); }
NI struct rect mk_rect(struct pt a, struct pt b)
{
    struct rect r;
    r.lo = mk_pt(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y);
    r.hi = mk_pt(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y);
    return r;
}
NI struct big mk_big(uint32_t seed)
{
    struct big b;
    for (int i = 0; i < 20; i++) {
        seed = seed * 1103515245u + 12345u;
        b.v[i] = seed;
    }
    return b;
}
NI struct big twist(struct big b)   /* big in and big out */
{
    struct big r;
    for (int i = 0; i < 20; i++) r.v[i] = b.v[19 - i] ^ (b.v[i] >> 3);
    return r;
}
NI union u mk_union(uint32_t w) { union u x; x.w = w; return x; }
NI uint64_t ret64(uint32_t hi, uint32_t lo) { return (uint64_t)hi << 32 | lo; }
NI int64_t ret_neg64(int32_t v) { return -(int64_t)v * 0x100000000LL; }

/* Conditional returns of different locals (sret copy from either). */
NI struct pt pick(int c)
{
    struct pt a = { 1, 2 }, b = { -3, -4 };
    if (c) return a;
    return b;
}

static uint32_t hash_big(const struct big *b)
{
    uint32_t h = 0;
    for (int i = 0; i < 20; i++) h = h * 65599u + b->v[i];
    return h;
}

int main(void)
{
    struct two t = mk_two(200, 7);
    outd("two", t.a * 1000 + t.b);
    struct pt p = add_pt(mk_pt(3, -4), mk_pt(-10, 20));
    outd("pt.x", p.x);
    outd("pt.y", p.y);
    struct rect r = mk_rect(mk_pt(5, -5), mk_pt(-7, 9));
    outd("rect", r.lo.x * 1000000 + r.lo.y * 10000 + r.hi.x * 100 + r.hi.y);
    struct big b = mk_big(42);
    out32("big", hash_big(&b));
    struct big c = twist(twist(mk_big(7)));
    out32("twist twist", hash_big(&c));
    /* Assign through the result of a call in an expression. */
    out32("member of call", mk_big(99).v[13]);
    union u x = mk_union(opq32(0xa1b2c3d4u));
    out32("union", x.w);
    out64("ret64", ret64(opq32(0x89abcdefu), opq32(0x01234567u)));
    out64("ret neg64", (uint64_t)ret_neg64((int32_t)opq32(12345)));
    int32_t sum = 0;
    for (int i = 0; i < 10; i++) {
        struct pt q = pick(i & 1);
        sum += q.x * 10 + q.y;
    }
    outd("pick sum", sum);
    /* Arrays of returned structs. */
    struct pt arr[8];
    for (int i = 0; i < 8; i++) arr[i] = mk_pt(i, -i * i);
    uint32_t h = 0;
    for (int i = 0; i < 8; i++) h = h * 31u + (uint32_t)arr[i].x * 7u + (uint32_t)arr[i].y;
    out32("array of pts", h);
    return finish();
}
