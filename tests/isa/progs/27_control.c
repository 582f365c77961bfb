/* 27_control: control-flow forms: short-circuit && and || with side effects
 * (the right operand must not run), ternaries and min/max/abs/clamp patterns
 * that LLVM if-converts into `sel.<cc>` selects, goto (forward, backward, out
 * of nested loops), and volatile objects, whose every read and write must
 * happen exactly as written even at -O3. */
#include "tests/isa/progs/prog.h"

#define NI __attribute__((noinline))

static int calls;
static NI int t(int v) { calls++; return v; }     /* records that it ran */

static NI int32_t clamp(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : v > hi ? hi : v; }
static NI uint32_t umax3(uint32_t a, uint32_t b, uint32_t c) { uint32_t m = a > b ? a : b; return m > c ? m : c; }
static NI int32_t sabs(int32_t v) { return v < 0 ? -v : v; }
static NI int32_t select_sum(const int32_t *v, int n, int32_t th)
{
    int32_t s = 0;
    for (int i = 0; i < n; i++) s += v[i] > th ? v[i] : -1;    /* select in a loop */
    return s;
}
static NI uint64_t sel64(uint64_t a, uint64_t b, int c) { return c ? a : b; }

static volatile uint32_t vreg;          /* stands in for a device register */
static volatile int32_t vcount;

int main(void)
{
    /* Short-circuit evaluation order and skipping. */
    calls = 0;
    int r = t(0) && t(1);               /* right side skipped */
    r = r * 2 + (t(1) || t(1));         /* right side skipped */
    r = r * 2 + (t(1) && t(0));
    r = r * 2 + (t(0) || t(0));
    r = r * 2 + (t(1) && (t(0) || t(1)) && !t(0));
    outd("short-circuit value", r);
    outd("short-circuit calls", calls);
    int32_t arr[4] = { 1, 2, 3, 4 };
    int idx = (int)opq32(4);
    /* The bound check guards the access: must not read arr[4]. */
    outd("guarded", idx < 4 && arr[idx] == 4);
    uint32_t zero = opq32(0);
    outd("guarded div", zero != 0 && 100u / zero > 1u);

    /* Selects. */
    int32_t cs = 0;
    for (int32_t v = -20; v <= 20; v += 3) cs = cs * 3 + clamp((int32_t)opq32((uint32_t)v), -5, 7);
    outd("clamp", cs);
    out32("umax3", umax3(opq32(5), opq32(0xfffffff0u), opq32(7)) ^ umax3(1, 2, opq32(3)));
    outd("abs", sabs((int32_t)opq32((uint32_t)-77)) + sabs(77) * 1000);
    int32_t data[16];
    for (int i = 0; i < 16; i++) data[i] = (i * 37) % 23 - 11;
    outd("select sum", select_sum(data, 16, 0));
    out64("sel64", sel64(opq64(1), opq64(~0ULL), (int)opq32(0)) + sel64(5, 6, 1));
    uint32_t flags = 0;
    for (int i = 0; i < 32; i++) flags |= (i % 3 == 0 ? 1u : 0u) << i;
    out32("flags", flags);

    /* goto: backward loop, forward skip, and leaving nested loops. */
    int32_t n = 0, i = 0;
again:
    n += i * i;
    if (++i < 10) goto again;
    if (n > 1000) goto skip;
    n = -1;
skip:
    outd("goto loop", n);
    int fi = -1, fj = -1;
    for (int a = 0; a < 10; a++)
        for (int b = 0; b < 10; b++)
            if (a * b == 42) { fi = a; fj = b; goto found; }
found:
    outd("found", fi * 10 + fj);
    /* Error-handling style cleanup chain. */
    int stage = (int)opq32(2), cleaned = 0;
    if (stage < 1) goto out0;
    if (stage < 2) goto out1;
    if (stage < 3) goto out2;
    cleaned += 1000;
out2:
    cleaned += 100;
out1:
    cleaned += 10;
out0:
    cleaned += 1;
    outd("cleanup", cleaned);

    /* Volatile: each store and load happens; nothing is merged or hoisted. */
    vcount = 0;
    for (int k = 0; k < 10; k++) vcount = vcount + 1;
    vreg = 0x11u;
    vreg = 0x22u;                       /* both stores must be performed */
    uint32_t v1 = vreg, v2 = vreg;
    outd("volatile count", vcount);
    out32("volatile reads", v1 + v2);
    volatile uint8_t vb[4] = { 1, 2, 3, 4 };
    vb[1] = (uint8_t)(vb[1] + vb[3]);
    outd("volatile bytes", vb[0] * 1000 + vb[1] * 100 + vb[2] * 10 + vb[3]);
    volatile uint64_t vw = 0xffffffffULL;
    vw = vw + 1;
    out64("volatile 64", vw);
    return finish();
}
