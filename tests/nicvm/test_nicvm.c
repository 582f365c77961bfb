/*
 * test_nicvm.c - ref/nicvm's compiler, verifier and VM (TAP on stdout).
 *
 *   test_nicvm MODULE_DIR        (tests/nicvm/modules)
 *
 * Seeded (NV_TEST_SEED, default 1, printed); NV_TEST_ROUNDS scales the
 * random parts (default 1).  What it checks:
 *  - the thesis's broadcast module (seed 004 Figure 4.3): accepted, its
 *    bound, and for every communicator size 1..32 and every rank and root
 *    the sends of a binary tree and the result;
 *  - every module of MODULE_DIR is accepted and runs within its bound;
 *  - random expressions: the VM computes what a C model of the language
 *    computes;
 *  - random programs (if/elsif/else, loops, state, packet access, sends):
 *    accepted, and over random packets the steps never exceed the verifier's
 *    bound nor the sends its send bound (the tightness is printed);
 *  - the VM's run-time checks, each with its own stop;
 *  - mutated bytecode: each kind of bounds violation planted at a reachable
 *    instruction of a random program is rejected with its reason; random
 *    bit flips are either rejected or run within their bound (the test is
 *    built with AddressSanitizer and UBSan, which watch every access).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nv_compile.h"
#include "nv_verify.h"
#include "nv_vm.h"

static int tap_n, tap_fail;

static void ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void ok(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s %d - ", cond ? "ok" : "not ok", ++tap_n);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (!cond) tap_fail++;
}

/* ---- a deterministic generator (xorshift64*) --------------------------- */
static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 2685821657736338717ull) >> 32);
}
static uint32_t below(uint32_t n) { return n ? rnd() % n : 0; }

/* ---- an environment ----------------------------------------------------- */
struct sendlog { uint32_t n, type[64], rank[64]; int refuse; };

static int rec_send(void *ctx, uint32_t type, uint32_t rank)
{
    struct sendlog *s = ctx;
    if (s->refuse) return 0;
    if (s->n < 64) { s->type[s->n] = type; s->rank[s->n] = rank; }
    s->n++;
    return 1;
}

struct world {
    uint32_t hdr[NV_HDR_WORDS], payload[64], state[NV_STATE_MAX];
    struct sendlog log;
    struct nv_env env;
};

static void world_init(struct world *w, uint32_t size, uint32_t rank, uint32_t root, uint32_t words)
{
    memset(w, 0, sizeof *w);
    w->env.size = size;
    w->env.rank = rank;
    w->env.root = root;
    w->env.hdr = w->hdr;
    w->env.hdr_writable = 0xE0u;
    w->env.payload = w->payload;
    w->env.payload_words = words;
    w->env.state = w->state;
    w->env.ctx = &w->log;
    w->env.send = rec_send;
}

static struct nv_compiler comp;

static uint32_t check_src(const char *src, uint32_t budget, struct nv_reject *r)
{
    return nv_check(&comp, src, (uint32_t)strlen(src), budget, r);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f) return 0;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); fclose(f); return 0; }
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void print_errors(void)
{
    uint32_t k;
    for (k = 0; k < comp.nerr && k < NV_ERR_MAX; k++)
        printf("# %u:%u: %s\n", comp.err[k].line, comp.err[k].col, comp.err[k].msg);
}

/* ---- the thesis's module -------------------------------------------------- */
static void test_bcast(const char *dir)
{
    char path[512];
    char *src;
    struct nv_reject r;
    uint32_t size, rank, root, bad = 0, maxsteps = 0;
    snprintf(path, sizeof path, "%s/bcast.nvm", dir);
    src = read_file(path);
    ok(src != 0, "bcast.nvm readable");
    if (!src) return;
    ok(check_src(src, NV_BUDGET_DEFAULT, &r) == 0, "seed 004 Figure 4.3's module is accepted");
    print_errors();
    printf("# bcast.nvm: %u instructions, bound %u VM instructions, %u LANai cycles, %u sends\n",
           comp.prog.len, comp.prog.cost[0], (unsigned)comp.prog.ccost[0], (unsigned)comp.prog.scost[0]);
    ok((unsigned)comp.prog.scost[0] == 2, "its send bound is 2 (a binary tree)");
    for (size = 1; size <= 32; size++)
        for (root = 0; root < size; root += (size > 4 ? 3 : 1))
            for (rank = 0; rank < size; rank++) {
                struct world w;
                struct nv_result res;
                uint32_t c1 = 2 * rank + 1, want = (c1 < size) + (c1 + 1 < size);
                world_init(&w, size, rank, root, 4);
                nv_run(&comp.prog, &w.env, NV_BUDGET_DEFAULT, &res);
                if (res.steps > maxsteps) maxsteps = res.steps;
                if (res.stop != NV_STOP_RETURN || w.log.n != want || res.sends != want ||
                    (want >= 1 && w.log.rank[0] != c1) || (want == 2 && w.log.rank[1] != c1 + 1) ||
                    (want >= 1 && w.log.type[0] != NV_PT_NIC_DATA) ||
                    res.result != (rank == root && want > 0 ? NV_RESULT_PACKET_CONSUMED : NV_RESULT_SUCCESS) ||
                    res.steps > comp.prog.cost[0])
                    bad++;
            }
    ok(bad == 0, "bcast: every size 1..32, rank and root: sends to 2r+1, 2r+2 below size; "
       "the root with children consumes the packet; steps <= bound (%u failures)", bad);
    ok(maxsteps == comp.prog.cost[0], "bcast: the bound %u is tight (a rank with two children takes %u)",
       comp.prog.cost[0], maxsteps);
    free(src);
}

/* ---- every module of the directory -------------------------------------- */
static void test_modules(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char *names[256];
    int n = 0, i;
    ok(d != 0, "module directory %s", dir);
    if (!d) return;
    while ((e = readdir(d)) != 0 && n < 256) {
        size_t l = strlen(e->d_name);
        if (l > 4 && !strcmp(e->d_name + l - 4, ".nvm")) names[n++] = strdup(e->d_name);
    }
    closedir(d);
    for (i = 0; i < n; i++) {
        char path[512];
        char *src;
        struct nv_reject r;
        uint32_t rank, bad = 0, errs;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        src = read_file(path);
        errs = src ? check_src(src, NV_BUDGET_DEFAULT, &r) : 1;
        ok(errs == 0, "%s accepted (%u VM instructions, %u cycles, %u sends)", names[i],
           comp.prog.cost[0], (unsigned)comp.prog.ccost[0], (unsigned)comp.prog.scost[0]);
        if (errs) { print_errors(); free(src); free(names[i]); continue; }
        for (rank = 0; rank < 8; rank++) {
            struct world w;
            struct nv_result res;
            uint32_t k, act;
            world_init(&w, 8, rank, 0, 16);
            for (k = 0; k < 16; k++) w.payload[k] = k * 3 + rank;
            for (act = 0; act < 4; act++) {      /* state persists */
                nv_run(&comp.prog, &w.env, NV_BUDGET_DEFAULT, &res);
                if (res.steps > comp.prog.cost[0] || res.sends > (unsigned)comp.prog.scost[0] ||
                    res.stop != NV_STOP_RETURN)
                    bad++;
            }
        }
        ok(bad == 0, "%s runs to its return within its bounds on 8 ranks, 4 activations each", names[i]);
        free(src);
        free(names[i]);
    }
}

/* ---- random expressions against a C model ------------------------------- */
static char ebuf[8192];
static size_t epos;

static void eput(const char *s) { size_t l = strlen(s); if (epos + l < sizeof ebuf) { memcpy(ebuf + epos, s, l); epos += l; ebuf[epos] = 0; } }

static int32_t wrap(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }

/* Generate an expression, return its value; *div0 set when it divides by 0. */
static int32_t gen_expr(int depth, const int32_t *vars, int *div0)
{
    uint32_t k = depth <= 0 ? below(3) : below(12);
    char t[64];
    int32_t a, b;
    switch (k) {
    case 0: {
        uint32_t v = below(4) == 0 ? rnd() % 0x7FFFFFFFu : below(100);
        snprintf(t, sizeof t, "%u", v); eput(t); return (int32_t)v; }
    case 1: { uint32_t i = below(4); snprintf(t, sizeof t, "v%u", i); eput(t); return vars[i]; }
    case 2: eput("mpi_get_rank()"); return 3;
    case 3: eput("-("); a = gen_expr(depth - 1, vars, div0); eput(")"); return wrap(-(int64_t)a);
    case 4: eput("!("); a = gen_expr(depth - 1, vars, div0); eput(")"); return !a;
    default: {
        static const char *ops[] = { "+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||" };
        uint32_t o = below(13);
        eput("(");
        a = gen_expr(depth - 1, vars, div0);
        eput(" "); eput(ops[o]); eput(" ");
        b = gen_expr(depth - 1, vars, div0);
        eput(")");
        switch (o) {
        case 0: return wrap((int64_t)a + b);
        case 1: return wrap((int64_t)a - b);
        case 2: return wrap((int64_t)a * b);
        case 3: if (b == 0) { *div0 = 1; return 0; }
                if (a == INT32_MIN && b == -1) return INT32_MIN;
                return a / b;
        case 4: if (b == 0) { *div0 = 1; return 0; }
                if (b == -1) return 0;
                return a % b;
        case 5: return a == b;
        case 6: return a != b;
        case 7: return a < b;
        case 8: return a <= b;
        case 9: return a > b;
        case 10: return a >= b;
        case 11: return a && b;
        default: return a || b;
        }
    }
    }
}

static void test_expressions(uint32_t rounds)
{
    uint32_t i, bad = 0, divs = 0, n = 500 * rounds;
    for (i = 0; i < n; i++) {
        int32_t vars[4];
        int div0 = 0, k;
        int32_t want;
        struct nv_reject r;
        struct world w;
        struct nv_result res;
        char src[10000];
        for (k = 0; k < 4; k++) vars[k] = below(3) == 0 ? (int32_t)rnd() : (int32_t)below(21) - 10;
        epos = 0; ebuf[0] = 0;
        want = gen_expr(1 + (int)below(4), vars, &div0);
        snprintf(src, sizeof src,
                 "func main()\n var v0, v1, v2, v3;\n v0 = %d;\n v1 = %d;\n v2 = %d;\n v3 = %d;\n return %s;\nend func;\n",
                 vars[0], vars[1], vars[2], vars[3], ebuf);
        if (check_src(src, 1024, &r) != 0) {
            if (r.reason == NV_E_OVERFLOW) continue;    /* deeper than the operand stack */
            bad++;
            if (bad < 3) { printf("# %s", src); print_errors(); }
            continue;
        }
        world_init(&w, 8, 3, 0, 4);
        nv_run(&comp.prog, &w.env, 1024, &res);
        if (div0) { divs++; if (res.stop != NV_STOP_DIV) bad++; continue; }
        if (res.stop != NV_STOP_RETURN || (int32_t)res.result != want) {
            bad++;
            if (bad < 3) printf("# %s# got %d (stop %u), want %d\n", src, (int32_t)res.result, res.stop, want);
        }
    }
    ok(bad == 0, "%u random expressions: the VM agrees with the C model (%u divide by zero) (%u failures)",
       n, divs, bad);
}

/* ---- random programs ------------------------------------------------------ */
static char pbuf[60000];
static size_t ppos;
static void pput(const char *s) { size_t l = strlen(s); if (ppos + l < sizeof pbuf) { memcpy(pbuf + ppos, s, l); ppos += l; pbuf[ppos] = 0; } }

static void gen_simple_expr(int depth)
{
    static const char *ops[] = { "+", "-", "*", "/", "%", "==", "<", ">=", "&&", "||" };
    char t[32];
    switch (depth <= 0 ? below(6) : below(9)) {
    case 0: snprintf(t, sizeof t, "%u", below(20)); pput(t); break;
    case 1: snprintf(t, sizeof t, "a%u", below(4)); pput(t); break;
    case 2: pput("s"); break;
    case 3: snprintf(t, sizeof t, "h[%u]", below(4)); pput(t); break;
    case 4: pput(below(2) ? "mpi_get_rank()" : "mpi_get_size()"); break;
    case 5: snprintf(t, sizeof t, "pkt_word(%u)", below(20)); pput(t); break;
    default:
        pput("(");
        gen_simple_expr(depth - 1);
        pput(" "); pput(ops[below(10)]); pput(" ");
        gen_simple_expr(depth - 1);
        pput(")");
    }
}

static void gen_stmts(int depth, int loops, int n)
{
    int i;
    char t[96];
    for (i = 0; i < n; i++) {
        uint32_t k = depth <= 0 ? below(5) : below(9);
        switch (k) {
        case 0: case 1:
            snprintf(t, sizeof t, "a%u = ", below(4)); pput(t); gen_simple_expr(2); pput(";\n"); break;
        case 2: pput("s = s + 1;\n"); break;
        case 3: snprintf(t, sizeof t, "h[%u] = ", below(4)); pput(t); gen_simple_expr(1); pput(";\n"); break;
        case 4:
            snprintf(t, sizeof t, "x = a%u %% mpi_get_size();\n", below(4)); pput(t);
            pput("if (x >= 0) then mpi_send_message(GM_ST_RELIABLE_NICVM_NIC_DATA, x); end if;\n");
            break;
        case 5: case 6:
            pput("if "); gen_simple_expr(2); pput(" then\n");
            gen_stmts(depth - 1, loops, 1 + (int)below(3));
            if (below(2)) { pput("elsif "); gen_simple_expr(1); pput(" then\n"); gen_stmts(depth - 1, loops, 1); }
            if (below(2)) { pput("else\n"); gen_stmts(depth - 1, loops, 1 + (int)below(2)); }
            pput("end if;\n");
            break;
        case 7:
            if (loops < 2) {
                snprintf(t, sizeof t, "for i%d = 0 to a%u max %u do\n", loops, below(4), 1 + below(4)); pput(t);
                gen_stmts(depth - 1, loops + 1, 1 + (int)below(2));
                pput("end for;\n");
            }
            break;
        default:
            pput("if "); gen_simple_expr(1); pput(" then return "); gen_simple_expr(1); pput("; end if;\n");
        }
    }
}

static void gen_program(void)
{
    ppos = 0; pbuf[0] = 0;
    pput("state s;\nstate h[4];\nfunc main()\nvar a0, a1, a2, a3, x, i0, i1;\n");
    pput("a0 = pkt_word(0);\na1 = pkt_word(1) % 7;\na2 = mpi_get_rank();\na3 = pkt_words();\n");
    gen_stmts(3, 0, 2 + (int)below(5));
    pput("return a0;\nend func;\n");
}

static void test_random_programs(uint32_t rounds)
{
    uint32_t i, made = 0, over = 0, bad = 0, runs = 0, n = 300 * rounds;
    double ratio_sum = 0, ratio_max = 0;
    uint32_t stops[NV_STOP_COUNT] = { 0 };
    for (i = 0; i < n; i++) {
        struct nv_reject r;
        uint32_t k, e, maxsteps = 0;
        gen_program();
        e = check_src(pbuf, 1024, &r);
        if (e != 0) {
            if (r.reason == NV_E_BUDGET || r.reason == NV_E_OVERFLOW || r.reason == NV_E_SENDS ||
                (comp.nerr && strstr(comp.err[0].msg, "unrolls") != 0) ||
                (comp.nerr && strstr(comp.err[0].msg, "longer than") != 0)) { over++; continue; }
            bad++;
            if (bad < 3) { printf("# rejected:\n%s", pbuf); print_errors(); }
            continue;
        }
        made++;
        for (k = 0; k < 20; k++) {
            struct world w;
            struct nv_result res;
            uint32_t j, act;
            world_init(&w, 1 + below(16), 0, 0, below(24));
            w.env.rank = below(w.env.size);
            for (j = 0; j < 64; j++) w.payload[j] = below(4) ? below(8) : rnd();
            for (act = 0; act < 3; act++) {
                w.log.n = 0;
                nv_run(&comp.prog, &w.env, 1024, &res);
                runs++;
                stops[res.stop < NV_STOP_COUNT ? res.stop : 0]++;
                if (res.steps > comp.prog.cost[0] || res.sends > (unsigned)comp.prog.scost[0] ||
                    res.sends != w.log.n || res.stop == NV_STOP_BUDGET || res.stop == NV_STOP_UNVERIFIED)
                    bad++;
                if (res.steps > maxsteps) maxsteps = res.steps;
            }
        }
        ratio_sum += (double)maxsteps / comp.prog.cost[0];
        if ((double)maxsteps / comp.prog.cost[0] > ratio_max) ratio_max = (double)maxsteps / comp.prog.cost[0];
    }
    ok(made > n / 2 && bad == 0,
       "%u random programs accepted (%u over a limit), %u activations: steps <= bound, sends <= send bound (%u failures)",
       made, over, runs, bad);
    printf("# tightness: longest observed run / bound: mean %.2f, max %.2f over the programs "
           "(20 random packets each; the bound takes every branch's worst side)\n",
           made ? ratio_sum / made : 0.0, ratio_max);
    printf("# stops: return %u, index %u, rank %u, div %u\n", stops[NV_STOP_RETURN], stops[NV_STOP_INDEX],
           stops[NV_STOP_RANK], stops[NV_STOP_DIV]);
}

/* ---- the VM's run-time checks ------------------------------------------- */
static void expect_stop(const char *src, uint32_t words, uint32_t want, const char *what)
{
    struct nv_reject r;
    struct world w;
    struct nv_result res;
    uint32_t e = check_src(src, NV_BUDGET_DEFAULT, &r);
    if (e) print_errors();
    world_init(&w, 4, 1, 0, words);
    nv_run(&comp.prog, &w.env, NV_BUDGET_DEFAULT, &res);
    ok(e == 0 && res.stop == want, "run time: %s stops the activation (stop %u, want %u)", what, res.stop, want);
}

static void test_runtime(void)
{
    struct nv_reject r;
    struct world w;
    struct nv_result res;
    uint32_t e;
    expect_stop("func main() return pkt_word(4); end func;", 4, NV_STOP_INDEX, "a payload read past the packet");
    expect_stop("func main() pkt_set_word(9, 1); return 0; end func;", 4, NV_STOP_INDEX, "a payload write past the packet");
    expect_stop("func main() return pkt_header(8); end func;", 4, NV_STOP_INDEX, "a header index past the header");
    expect_stop("func main() pkt_set_header(PKT_SRC, 1); return 0; end func;", 4, NV_STOP_READONLY,
                "a write to a read-only header word");
    expect_stop("state h[3]; func main() return h[3]; end func;", 4, NV_STOP_INDEX, "a state array read past its end");
    expect_stop("state h[3]; func main() h[0 - 1] = 2; return 0; end func;", 4, NV_STOP_INDEX,
                "a state array write at -1");
    expect_stop("func main() mpi_send_message(GM_ST_RELIABLE_NICVM_NIC_DATA, mpi_get_size()); return 0; end func;", 4,
                NV_STOP_RANK, "a send to rank size");
    expect_stop("func main() mpi_send_message(GM_ST_RELIABLE_NICVM_NIC_DATA, 0 - 1); return 0; end func;", 4,
                NV_STOP_RANK, "a send to rank -1");
    expect_stop("func main() var z; return 5 / z; end func;", 4, NV_STOP_DIV, "division by zero");
    expect_stop("func main() var z; return 5 % z; end func;", 4, NV_STOP_DIV, "remainder by zero");
    expect_stop("func main() pkt_set_header(PKT_USER0, 7); return pkt_header(PKT_USER0); end func;", 4,
                NV_STOP_RETURN, "a write to a writable header word");
    /* A refused send. */
    e = check_src("func main() mpi_send_message(GM_ST_RELIABLE_NICVM_NIC_DATA, 0); return 0; end func;",
                  NV_BUDGET_DEFAULT, &r);
    world_init(&w, 4, 1, 0, 4);
    w.log.refuse = 1;
    nv_run(&comp.prog, &w.env, NV_BUDGET_DEFAULT, &res);
    ok(e == 0 && res.stop == NV_STOP_SEND && res.sends == 0, "run time: a send the firmware refuses stops with NV_STOP_SEND");
    /* The step budget, as a second line of defence: a module verified
     * against a larger budget, run with a smaller one, is stopped mid-run. */
    e = check_src("func main() var i, t; for i = 1 to 10 max 10 do t = t + i; end for; return t; end func;",
                  NV_BUDGET_DEFAULT, &r);
    world_init(&w, 4, 1, 0, 4);
    nv_run(&comp.prog, &w.env, 20, &res);
    ok(e == 0 && res.stop == NV_STOP_BUDGET && res.steps == 20,
       "run time: a run-time step budget below the bound stops the module after exactly that many steps (%u)", res.steps);
    nv_run(&comp.prog, &w.env, NV_BUDGET_DEFAULT, &res);
    ok(res.stop == NV_STOP_RETURN && res.result == 55, "the same loop sums 1..10 = 55 within its budget (%u)", res.result);
    comp.prog.verified = 0;
    nv_run(&comp.prog, &w.env, NV_BUDGET_DEFAULT, &res);
    ok(res.stop == NV_STOP_UNVERIFIED && res.steps == 0, "the VM refuses a module that did not pass the verifier");
    /* State persists between activations. */
    e = check_src("state n; func main() n = n + 1; return n; end func;", NV_BUDGET_DEFAULT, &r);
    world_init(&w, 4, 1, 0, 4);
    nv_run(&comp.prog, &w.env, NV_BUDGET_DEFAULT, &res);
    nv_run(&comp.prog, &w.env, NV_BUDGET_DEFAULT, &res);
    nv_run(&comp.prog, &w.env, NV_BUDGET_DEFAULT, &res);
    ok(e == 0 && res.result == 3 && w.state[0] == 3, "state persists between activations (3rd returns %u)", res.result);
    /* The loop's cap: 1 to 100 with max 5 runs 5 times. */
    e = check_src("func main() var i, t; for i = 1 to 100 max 5 do t = t + 1; end for; return t; end func;",
                  NV_BUDGET_DEFAULT, &r);
    nv_run(&comp.prog, &w.env, NV_BUDGET_DEFAULT, &res);
    ok(e == 0 && res.result == 5, "a loop stops after its maximum trip count (5 of 100)");
    /* The operand stack's limit, at the boundary: 1 + (2 + (... + n)) needs
     * n slots. */
    {
        char src[1024], *q;
        uint32_t depth;
        for (depth = 15; depth <= 17; depth++) {
            uint32_t k;
            q = src + sprintf(src, "func main() return ");
            for (k = 1; k < depth; k++) q += sprintf(q, "%u + (", k);
            q += sprintf(q, "%u", depth);
            for (k = 1; k < depth; k++) *q++ = ')';
            sprintf(q, "; end func;");
            e = check_src(src, NV_BUDGET_DEFAULT, &r);
            if (depth <= NV_STACK_MAX) {
                world_init(&w, 4, 1, 0, 4);
                nv_run(&comp.prog, &w.env, NV_BUDGET_DEFAULT, &res);
                ok(e == 0 && res.result == depth * (depth + 1) / 2,
                   "an expression needing %u stack slots is accepted and computes %u", depth, res.result);
            } else {
                ok(e == 1 && r.reason == NV_E_OVERFLOW && r.value == depth,
                   "an expression needing %u stack slots is rejected: operand stack overflow (%u)", depth, r.value);
            }
        }
    }
    /* The budget check itself. */
    e = check_src("func main() var i, t; for i = 1 to 100 max 30 do t = t + 1; end for; return t; end func;",
                  NV_BUDGET_DEFAULT, &r);
    ok(e == 1 && r.reason == NV_E_BUDGET && r.value > NV_BUDGET_DEFAULT,
       "a module whose worst case exceeds the budget is rejected (%u > %u)", r.value, NV_BUDGET_DEFAULT);
}

/* ---- mutated bytecode ------------------------------------------------------ */

/* Reachable instructions of c->prog (forward: from 0 along successors). */
static int reachable(const struct nv_prog *p, uint32_t pc)
{
    static uint8_t seen[NV_CODE_MAX];
    uint32_t q;
    memset(seen, 0, sizeof seen);
    seen[0] = 1;
    for (q = 0; q < p->len; q++) {
        uint32_t op = p->code[q] % 256u, arg = p->code[q] / 256u;
        if (!seen[q]) continue;
        if (op != NV_OP_RET && op != NV_OP_JMP && q + 1 < p->len) seen[q + 1] = 1;
        if ((op == NV_OP_JMP || op == NV_OP_JZ) && arg < p->len) seen[arg] = 1;
    }
    return seen[pc];
}

static void test_mutants(uint32_t rounds)
{
    static struct nv_prog orig;
    static const char *kind_name[] = {
        "local index >= locals", "state index >= state words", "constant index >= constants",
        "state array past the state", "backward jump", "jump outside the code", "unknown built-in",
        "unknown opcode", "operand on an opcode without one", "stack underflow", "return with values left",
        "code truncated (falls off its end)", "more locals than the limit"
    };
    static const uint32_t kind_reason[] = {
        NV_E_OPERAND, NV_E_OPERAND, NV_E_OPERAND, NV_E_OPERAND, NV_E_JUMP, NV_E_JUMP, NV_E_BUILTIN,
        NV_E_OPCODE, NV_E_OPERAND, NV_E_UNDERFLOW, NV_E_RETDEPTH, NV_E_FALLOFF, NV_E_TABLES
    };
    enum { NKIND = 13 };
    uint32_t caught[NKIND] = { 0 }, tried[NKIND] = { 0 }, i, kind, flips = 0, flip_acc = 0, flip_bad = 0;
    uint32_t n = 200 * rounds;
    for (i = 0; i < n; i++) {
        struct nv_reject r;
        uint32_t pc, tries;
        gen_program();
        if (check_src(pbuf, 1024, &r) != 0) continue;
        orig = comp.prog;
        for (kind = 0; kind < NKIND; kind++) {
            struct nv_prog *p = &comp.prog;
            *p = orig;
            /* a reachable pc holding an instruction of the right kind */
            for (tries = 0; tries < 200; tries++) {
                uint32_t op;
                pc = below(p->len);
                op = p->code[pc] % 256u;
                if (!reachable(p, pc)) continue;
                if (kind == 0 && (op == NV_OP_LDL || op == NV_OP_STL)) { p->code[pc] = op + (p->nlocals + below(100)) * 256u; break; }
                if (kind == 1 && (op == NV_OP_LDS || op == NV_OP_STS)) { p->code[pc] = op + (p->nstate + below(100)) * 256u; break; }
                if (kind == 2 && op == NV_OP_LIT) { p->code[pc] = NV_OP_CONST + (p->nconst + below(5)) * 256u; break; }
                if (kind == 3 && (op == NV_OP_LDSX || op == NV_OP_STSX)) {
                    uint32_t len = 1 + below(8), base = p->nstate - len + 1 + below(4);
                    p->code[pc] = op + (base + 4096u * len) * 256u; break; }
                if (kind == 4 && (op == NV_OP_JMP || op == NV_OP_JZ)) { p->code[pc] = op + below(pc + 1) * 256u; break; }
                if (kind == 5 && (op == NV_OP_JMP || op == NV_OP_JZ)) { p->code[pc] = op + (p->len + below(1000)) * 256u; break; }
                if (kind == 6 && op == NV_OP_CALL) { p->code[pc] = op + (NV_BI_COUNT + below(50)) * 256u; break; }
                if (kind == 7) { p->code[pc] = NV_OP_COUNT + below(256 - NV_OP_COUNT) + (rnd() % 0x1000000u) * 256u; break; }
                if (kind == 8 && (op == NV_OP_ADD || op == NV_OP_RET || op == NV_OP_DROP)) { p->code[pc] = op + (1 + below(1000)) * 256u; break; }
                if (kind == 9 && (op == NV_OP_LIT || op == NV_OP_LDL) && p->depth[pc] == 0) { p->code[pc] = NV_OP_DROP; break; }
                if (kind == 10 && op == NV_OP_RET) {
                    /* STL; LDL; RET -> LIT; LDL; RET: two values left */
                    if (pc >= 2 && p->code[pc - 1] % 256u == NV_OP_LDL && p->depth[pc - 1] == 0 &&
                        p->code[pc - 2] % 256u == NV_OP_STL) {
                        p->code[pc - 2] = NV_OP_LIT; break; }
                    continue;
                }
                if (kind == 11) { p->len = pc + 1; while (p->len > 1 && p->code[p->len - 1] % 256u == NV_OP_RET) p->len--; break; }
                if (kind == 12) { p->nlocals = NV_LOCALS_MAX + 1 + below(100); break; }
            }
            if (tries == 200) continue;
            tried[kind]++;
            if (nv_verify(p, 1024, &r) == kind_reason[kind] ||
                (kind == 10 && r.reason == NV_E_MISMATCH) || (kind == 11 && r.reason != NV_OK) ||
                (kind == 9 && r.reason != NV_OK))
                caught[kind]++;
            else if (tried[kind] - caught[kind] < 3)
                printf("# %s at pc %u: verifier said %u (%s)\n", kind_name[kind], pc, r.reason, nv_reject_text(r.reason));
        }
        /* random bit flips: rejected, or safe and within the bound */
        for (kind = 0; kind < 10; kind++) {
            struct nv_prog *p = &comp.prog;
            uint32_t f, nf = 1 + below(3);
            *p = orig;
            for (f = 0; f < nf; f++) p->code[below(p->len)] ^= 1u << below(32);
            flips++;
            if (nv_verify(p, 1024, &r) == NV_OK) {
                uint32_t k;
                flip_acc++;
                for (k = 0; k < 5; k++) {
                    struct world w;
                    struct nv_result res;
                    world_init(&w, 1 + below(16), 0, 0, below(24));
                    nv_run(p, &w.env, 1024, &res);
                    if (res.steps > p->cost[0] || res.sends > (unsigned)p->scost[0] || res.stop == NV_STOP_BUDGET) flip_bad++;
                }
            }
        }
    }
    for (kind = 0; kind < NKIND; kind++)
        ok(tried[kind] > 0 && caught[kind] == tried[kind], "mutated bytecode, %s: %u of %u rejected",
           kind_name[kind], caught[kind], tried[kind]);
    ok(flip_bad == 0, "random bit flips: %u mutants, %u accepted, each accepted one ran within its bounds (%u failures)",
       flips, flip_acc, flip_bad);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/nicvm/modules";
    const char *s = getenv("NV_TEST_SEED"), *rs = getenv("NV_TEST_ROUNDS");
    uint64_t seed = s ? strtoull(s, 0, 0) : 1;
    uint32_t rounds = rs ? (uint32_t)strtoul(rs, 0, 0) : 1;
    if (rounds == 0) rounds = 1;
    rng_state = seed * 0x9E3779B97F4A7C15ull + 1;
    printf("# NV_TEST_SEED=%llu NV_TEST_ROUNDS=%u\n", (unsigned long long)seed, rounds);
    test_bcast(dir);
    test_modules(dir);
    test_runtime();
    test_expressions(rounds);
    test_random_programs(rounds);
    test_mutants(rounds);
    printf("1..%d\n", tap_n);
    return tap_fail ? 1 : 0;
}
