/*
 * lanai_cost.c - ref/nicvm on the LANai (lanai-cc -O2, run on lanai-iss):
 * the program tests/nicvm/lanai-cost runs to measure NICVM's costs.
 *
 *   lanai_cost.elf op NAME [A B]
 *       run a straight-line program that executes the instruction NAME four
 *       times (with the pushes and drops it needs; A and B: the operands of
 *       a binary operator), under lanai-iss --trace: the script cuts the
 *       trace at the VM's loop head and attributes each iteration to its
 *       instruction.  Prints "steps N cycles C" (C: nv_run's cycles).
 *   lanai_cost.elf module SOURCE SIZE RANK ROOT
 *       compile SOURCE (the module's text), verify it and run it once as
 *       RANK of SIZE: prints the cycles of each step, the instructions, the
 *       bound and the steps.
 */
#include <stdint.h>
#include <lanai-testmachine.h>

#include "nv_compile.h"
#include "nv_vm.h"

static void puts_(const char *s) { while (*s) lanai_tm_putc(*s++); }
static void putu(uint32_t v)
{
    char d[11];
    int k = 0;
    do { d[k++] = (char)('0' + v % 10u); v /= 10u; } while (v);
    while (k) lanai_tm_putc(d[--k]);
}
static int streq(const char *a, const char *b) { while (*a && *a == *b) { a++; b++; } return *a == *b; }
static uint32_t num(const char *s)
{
    uint32_t v = 0, neg = 0;
    if (*s == '-') { neg = 1; s++; }
    if (s[0] == '0' && s[1] == 'x') {
        for (s += 2; *s; s++) v = v * 16u + (uint32_t)(*s <= '9' ? *s - '0' : (*s | 32) - 'a' + 10);
    } else {
        for (; *s; s++) v = v * 10u + (uint32_t)(*s - '0');
    }
    return neg ? 0u - v : v;
}

static struct nv_compiler comp;
static uint32_t hdr[NV_HDR_WORDS], payload[16], state[NV_STATE_MAX];

static int send_ok(void *ctx, uint32_t type, uint32_t rank)
{
    (void)ctx; (void)type; (void)rank;
    return 1;
}

static void env_init(struct nv_env *e, uint32_t size, uint32_t rank, uint32_t root)
{
    e->size = size; e->rank = rank; e->root = root;
    e->hdr = hdr; e->hdr_writable = 0xE0u;
    e->payload = payload; e->payload_words = 16;
    e->state = state;
    e->ctx = 0;
    e->send = send_ok;
}

#define W(op, arg) ((op) + (uint32_t)(arg) * 256u)
#define LIT(v) W(NV_OP_LIT, ((uint32_t)(v)) % 0x1000000u)

static int emit_case(struct nv_prog *p, const char *name, uint32_t a, uint32_t b)
{
    static const char *const bin[] = { "ADD", "SUB", "MUL", "DIV", "MOD", "EQ", "NE", "LT", "LE",
                                       "GT", "GE", "AND", "OR" };
    static const char *const bis[] = { "SIZE", "RANK", "ROOT", "PKWORDS" };
    uint32_t k, i, *c = p->code, n = 0;
    p->nconst = 1; p->konst[0] = a;
    p->nlocals = NV_LOCALS_MAX;
    p->nstate = 4;
    for (k = 0; k < 4; k++) {
        if (streq(name, "JMP")) { c[n] = W(NV_OP_JMP, n + 1); n++; continue; }
        if (streq(name, "JZ")) { c[n++] = LIT(a); c[n] = W(NV_OP_JZ, n + 1); n++; continue; }
        if (streq(name, "LIT")) { c[n++] = LIT(a); c[n++] = W(NV_OP_DROP, 0); continue; }
        if (streq(name, "CONST")) { c[n++] = W(NV_OP_CONST, 0); c[n++] = W(NV_OP_DROP, 0); continue; }
        if (streq(name, "LDL")) { c[n++] = W(NV_OP_LDL, 31); c[n++] = W(NV_OP_STL, 30); continue; }
        if (streq(name, "LDS")) { c[n++] = W(NV_OP_LDS, 3); c[n++] = W(NV_OP_STS, 2); continue; }
        if (streq(name, "LDSX")) { c[n++] = LIT(a); c[n++] = W(NV_OP_LDSX, 0 + 4096 * 4); c[n++] = W(NV_OP_DROP, 0); continue; }
        if (streq(name, "PKH")) { c[n++] = LIT(a); c[n++] = W(NV_OP_PKH, 0); c[n++] = W(NV_OP_DROP, 0); continue; }
        if (streq(name, "PKW")) { c[n++] = LIT(a); c[n++] = W(NV_OP_PKW, 0); c[n++] = W(NV_OP_DROP, 0); continue; }
        if (streq(name, "NOT")) { c[n++] = LIT(a); c[n++] = W(NV_OP_NOT, 0); c[n++] = W(NV_OP_DROP, 0); continue; }
        if (streq(name, "NEG")) { c[n++] = LIT(a); c[n++] = W(NV_OP_NEG, 0); c[n++] = W(NV_OP_DROP, 0); continue; }
        if (streq(name, "STSX")) { c[n++] = LIT(a); c[n++] = LIT(b); c[n++] = W(NV_OP_STSX, 0 + 4096 * 4); continue; }
        if (streq(name, "PKHSET")) { c[n++] = LIT(a); c[n++] = LIT(b); c[n++] = W(NV_OP_PKHSET, 0); continue; }
        if (streq(name, "PKWSET")) { c[n++] = LIT(a); c[n++] = LIT(b); c[n++] = W(NV_OP_PKWSET, 0); continue; }
        if (streq(name, "SEND")) { c[n++] = LIT(a); c[n++] = LIT(b); c[n++] = W(NV_OP_CALL, NV_BI_SEND); continue; }
        for (i = 0; i < 4; i++)
            if (streq(name, bis[i])) { c[n++] = W(NV_OP_CALL, i); c[n++] = W(NV_OP_DROP, 0); break; }
        if (i < 4) continue;
        for (i = 0; i < 13; i++)
            if (streq(name, bin[i])) {
                c[n++] = W(NV_OP_CONST, 0); c[n++] = LIT(b); c[n++] = W(NV_OP_ADD + i, 0);
                c[n++] = W(NV_OP_DROP, 0);
                break;
            }
        if (i == 13) return 0;
    }
    c[n++] = LIT(0);
    c[n++] = W(NV_OP_RET, 0);
    p->len = n;
    return 1;
}

int main(int argc, char **argv)
{
    struct nv_env env;
    struct nv_result res;
    struct nv_reject rj;
    uint32_t t0, t1, t2, t3;

    if (argc >= 3 && streq(argv[1], "op")) {
        uint32_t a = argc > 3 ? num(argv[3]) : 1u, b = argc > 4 ? num(argv[4]) : 2u;
        if (!emit_case(&comp.prog, argv[2], a, b)) { puts_("unknown case\n"); return 2; }
        if (nv_verify(&comp.prog, 1024u, &rj) != NV_OK) { puts_("rejected\n"); return 1; }
        env_init(&env, 8, 1, 0);
        t0 = lanai_tm_cycles();
        nv_run(&comp.prog, &env, 1024u, &res);
        t1 = lanai_tm_cycles();
        puts_("steps "); putu(res.steps); puts_(" stop "); putu(res.stop);
        puts_(" cycles "); putu(t1 - t0); puts_("\n");
        return res.stop == NV_STOP_RETURN ? 0 : 1;
    }
    if (argc == 6 && streq(argv[1], "module")) {
        const char *src = argv[2];
        uint32_t len = 0, e;
        while (src[len]) len++;
        t0 = lanai_tm_cycles();
        e = nv_compile(&comp, src, len);
        t1 = lanai_tm_cycles();
        if (e) { puts_("compile error\n"); return 1; }
        e = nv_verify(&comp.prog, NV_BUDGET_DEFAULT, &rj);
        t2 = lanai_tm_cycles();
        if (e) { puts_("rejected\n"); return 1; }
        puts_("verify "); putu(t2 - t1); puts_(" ");
        env_init(&env, num(argv[3]), num(argv[4]), num(argv[5]));
        t2 = lanai_tm_cycles();
        nv_run(&comp.prog, &env, NV_BUDGET_DEFAULT, &res);
        t3 = lanai_tm_cycles();
        puts_("compile "); putu(t1 - t0);
        puts_(" run "); putu(t3 - t2);
        puts_(" instructions "); putu(comp.prog.len);
        puts_(" bound_steps "); putu(comp.prog.cost[0]);
        puts_(" bound_cycles "); putu((uint32_t)comp.prog.ccost[0]);
        puts_(" steps "); putu(res.steps);
        puts_(" sends "); putu(res.sends);
        puts_(" stop "); putu(res.stop);
        puts_("\n");
        return 0;
    }
    puts_("usage: lanai_cost.elf op NAME [A B] | module SOURCE SIZE RANK ROOT\n");
    return 2;
}
