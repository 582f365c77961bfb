/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nicvm-check: compile and verify NICVM modules exactly as the NIC does
 * (ref/nicvm's nv_check, the same C), print the verdict, every error as
 * file:line:column: message, and the worst case per activation.
 * docs/nicvm.md is the manual.
 *
 *   nicvm-check [--budget N] [--disasm] [--run SIZE:RANK:ROOT] MODULE...
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc_version.h"
#include "nv_compile.h"
#include "nv_vm.h"

static void usage(FILE *f)
{
    fprintf(f,
"usage: nicvm-check [options] MODULE...\n"
"Compile and verify each NICVM module as the NIC does; print the verdict,\n"
"every error as FILE:LINE:COLUMN: MESSAGE and the worst case per activation\n"
"(VM instructions, LANai cycles, sends).\n"
"  --budget N        VM instructions one activation may take, 1..65535\n"
"                    (default %u)\n"
"  --disasm          print each accepted module's bytecode, with the stack\n"
"                    depth and the worst cost from each instruction\n"
"  --run SIZE:RANK:ROOT  run each accepted module once in the VM on a packet\n"
"                    of 16 zero words, as RANK of SIZE with root ROOT, and\n"
"                    print its sends and its result\n"
"  -h, --help        this text\n"
"  --version         the version\n"
"Exit status: 0 every module accepted, 1 a module rejected, 2 bad usage or a\n"
"module that cannot be read.\n", NV_BUDGET_DEFAULT);
}

static int num(const char *opt, const char *s, unsigned long lo, unsigned long hi,
               unsigned long *out)
{
    char *end;
    errno = 0;
    *out = strtoul(s, &end, 10);
    if (*s < '0' || *s > '9' || *end != '\0' || errno != 0 || *out < lo || *out > hi) {
        fprintf(stderr, "nicvm-check: %s: '%s' is not a number in %lu..%lu\n", opt, s, lo, hi);
        return 0;
    }
    return 1;
}

static int send_print(void *ctx, uint32_t type, uint32_t rank)
{
    (void)ctx;
    printf("  send type %u to rank %u\n", type, rank);
    return 1;
}

static const char *stop_text(uint32_t stop)
{
    static const char *const t[NV_STOP_COUNT] = {
        "returned", "stopped by the step budget", "index out of range",
        "write to a read-only header word", "send to a rank outside the communicator",
        "division by zero", "send refused", "not verified"
    };
    return stop < NV_STOP_COUNT ? t[stop] : "?";
}

static void disasm(const struct nv_compiler *c)
{
    const struct nv_prog *p = &c->prog;
    uint32_t pc;
    printf("  pc    line:col  depth  cost cycles sends  instruction\n");
    for (pc = 0; pc < p->len; pc++) {
        uint32_t w = p->code[pc], op = w % 256u, arg = w / 256u;
        printf("  %-5u %5u:%-4u %4u %5u %6u %5u  %s", pc, c->line[pc], c->col[pc], p->depth[pc],
               p->cost[pc], (unsigned)p->ccost[pc], (unsigned)p->scost[pc], nv_op_name(op));
        if (op == NV_OP_LIT)
            printf(" %d", arg < 0x800000u ? (int)arg : (int)arg - 0x1000000);
        else if (op != NV_OP_RET && op != NV_OP_DROP && (op < NV_OP_NOT || op > NV_OP_NEG) &&
                 (op < NV_OP_PKHSET || op > NV_OP_OR))
            printf(" %u", arg);
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    static struct nv_compiler comp;
    static char src[NV_SRC_MAX + 2u];
    unsigned long budget = NV_BUDGET_DEFAULT, run[3] = { 0, 0, 0 };
    int do_disasm = 0, do_run = 0, i, first = 0, rejected = 0;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
        if (!strcmp(a, "--version")) { printf("nicvm-check (nicoll) %s\n", NC_VERSION); return 0; }
        if (!strcmp(a, "--disasm")) { do_disasm = 1; continue; }
        if (!strcmp(a, "--budget") || !strcmp(a, "--run")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "nicvm-check: %s needs a value\n", a);
                usage(stderr);
                return 2;
            }
            if (!strcmp(a, "--budget")) {
                if (!num("--budget", argv[++i], 1, 65535, &budget)) return 2;
            } else {
                char buf[64], *f[3], *save = 0;
                int k;
                snprintf(buf, sizeof buf, "%s", argv[++i]);
                f[0] = strtok_r(buf, ":", &save);
                f[1] = strtok_r(0, ":", &save);
                f[2] = strtok_r(0, ":", &save);
                if (!f[0] || !f[1] || !f[2] || strtok_r(0, ":", &save) || strlen(argv[i]) >= sizeof buf) {
                    fprintf(stderr, "nicvm-check: --run: '%s' is not SIZE:RANK:ROOT\n", argv[i]);
                    return 2;
                }
                if (!num("--run SIZE", f[0], 1, 65536, &run[0])) return 2;
                for (k = 1; k < 3; k++)
                    if (!num(k == 1 ? "--run RANK" : "--run ROOT", f[k], 0, run[0] - 1, &run[k])) return 2;
                do_run = 1;
            }
            continue;
        }
        if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "nicvm-check: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
        if (!first) first = i;
    }
    if (!first) {
        fprintf(stderr, "nicvm-check: no module given\n");
        usage(stderr);
        return 2;
    }
    /* Every file must be readable before any is judged. */
    for (i = first; i < argc; i++) {
        FILE *fp;
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            if (!strcmp(argv[i], "--budget") || !strcmp(argv[i], "--run")) i++;
            continue;
        }
        fp = fopen(argv[i], "rb");
        if (!fp) { fprintf(stderr, "nicvm-check: %s: %s\n", argv[i], strerror(errno)); return 2; }
        fclose(fp);
    }
    for (i = first; i < argc; i++) {
        struct nv_reject r;
        FILE *fp;
        size_t n;
        uint32_t nerr, k;
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            if (!strcmp(argv[i], "--budget") || !strcmp(argv[i], "--run")) i++;
            continue;
        }
        fp = fopen(argv[i], "rb");
        if (!fp) { fprintf(stderr, "nicvm-check: %s: %s\n", argv[i], strerror(errno)); return 2; }
        n = fread(src, 1, sizeof src - 1u, fp);
        if (ferror(fp)) {
            fprintf(stderr, "nicvm-check: %s: %s\n", argv[i], strerror(errno));
            fclose(fp);
            return 2;
        }
        fclose(fp);
        nerr = nv_check(&comp, src, (uint32_t)n, (uint32_t)budget, &r);
        if (nerr != 0u) {
            for (k = 0; k < nerr && k < NV_ERR_MAX; k++)
                fprintf(stderr, "%s:%u:%u: %s\n", argv[i], comp.err[k].line, comp.err[k].col,
                        comp.err[k].msg);
            if (nerr > NV_ERR_MAX)
                fprintf(stderr, "%s: %u more errors not shown\n", argv[i], nerr - NV_ERR_MAX);
            printf("%s: rejected (%u error%s)\n", argv[i], nerr, nerr == 1u ? "" : "s");
            rejected = 1;
            continue;
        }
        printf("%s: accepted: %u instructions (%u bytes), worst case per activation: "
               "%u VM instructions, %u LANai cycles, %u sends (budget %lu)\n",
               argv[i], comp.prog.len, comp.prog.len * 4u, comp.prog.cost[0], (unsigned)comp.prog.ccost[0],
               (unsigned)comp.prog.scost[0], budget);
        if (do_disasm) disasm(&comp);
        if (do_run) {
            uint32_t hdr[NV_HDR_WORDS] = { 0 }, payload[16] = { 0 }, state[NV_STATE_MAX] = { 0 };
            struct nv_env env;
            struct nv_result res;
            memset(&env, 0, sizeof env);
            env.size = (uint32_t)run[0];
            env.rank = (uint32_t)run[1];
            env.root = (uint32_t)run[2];
            env.hdr = hdr;
            env.hdr_writable = 0xE0u;            /* the user words */
            env.payload = payload;
            env.payload_words = 16;
            env.state = state;
            env.send = send_print;
            printf("  run as rank %lu of %lu, root %lu:\n", run[1], run[0], run[2]);
            nv_run(&comp.prog, &env, (uint32_t)budget, &res);
            printf("  %s %d after %u VM instructions, %u sends\n", stop_text(res.stop),
                   (int)res.result, res.steps, res.sends);
        }
    }
    return rejected ? 1 : 0;
}
