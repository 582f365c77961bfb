/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lanai-iss: run a linked LANai program on the reference interpreter with the
 * test-machine devices (docs/test-machine.md):
 *
 *   0xFFFF0000  write: print the low byte on stdout        (console)
 *   0xFFFF0004  write: end the run with this exit status    (exit)
 *   0xFFFF0008  read:  low 32 bits of the retired-instruction count
 *
 * Usage: lanai-iss [options] prog.elf|prog.img [args...]
 * Exit status: the program's own; 2 bad usage or program file; 124 the
 * instruction or time limit reached; 125 trap. lanai-qemu has the same
 * command line for what both do (--mem, --timeout, --stats).
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iss.h"
#include "loadable.h"
#include "nc_version.h"
#include "tm_args.h"
#include "nicoll/lanai-testmachine.h"

/* The test device's addresses, the argument block and lanai-iss's own exit
 * statuses (distinct from common program codes) are the contract's
 * (include/nicoll/lanai-testmachine.h), shared with lanai-qemu. */
#define TIMEOUT_MAX 1000000u   /* --timeout, seconds (as lanai-qemu) */

static const char *prog = "lanai-iss";

static void usage(FILE *f)
{
    fprintf(f,
        "usage: %s [options] prog.elf|prog.img [args...]\n"
        "  -t, --trace          print every retired instruction on stderr\n"
        "  --max-insns N        stop after N instructions (default 4000000000;\n"
        "                       0 = no limit); exit status %d when reached\n"
        "  --mem SIZE           RAM size in bytes, K/M suffix (default 16M;\n"
        "                       8K..0xFFFF0000, a multiple of 4)\n"
        "  --timeout SEC        stop after SEC seconds of host time (0..%u;\n"
        "                       0 = no limit); exit status %d when reached\n"
        "  --stats              print instruction count and speed on stderr\n"
        "  --strict[=CORE]      a core without load interlocks (CORE lanai9.0,\n"
        "                       the default, or lanai9.1): a register used or\n"
        "                       written in the 2 instructions after a load into\n"
        "                       it traps (docs/lanai-isa.md, Timing and hazards)\n"
        "  -h, --help           this text\n"
        "  --version            the version\n"
        "The program's console output goes to stdout and its exit status becomes\n"
        "ours. A trap (reserved encoding, misaligned or unmapped access) prints\n"
        "pc, instruction and reason on stderr and exits with status %d.\n",
        prog, LANAI_TM_STATUS_LIMIT, TIMEOUT_MAX, LANAI_TM_STATUS_LIMIT, LANAI_TM_STATUS_TRAP);
}

static bool testdev(struct iss *s, void *ctx, uint32_t addr, unsigned size,
                    bool write, uint32_t *val)
{
    (void)ctx;
    if (addr < LANAI_TM_CONSOLE || addr > LANAI_TM_COUNTER + 3)
        return false;
    if (size != 4) {
        iss_trap(s, "%u-byte access to test-machine register 0x%08x "
                    "(only 32-bit accesses are defined)", size, addr);
        return true;
    }
    if (write && addr == LANAI_TM_CONSOLE) {
        putchar((int)(*val & 0xFF));
        return true;
    }
    if (write && addr == LANAI_TM_EXIT) {
        iss_exit(s, (int)*val);
        return true;
    }
    if (!write && addr == LANAI_TM_COUNTER) {
        *val = (uint32_t)s->icount; /* instructions retired before this one */
        return true;
    }
    iss_trap(s, "%s of test-machine register 0x%08x is not defined",
             write ? "write" : "read", addr);
    return true;
}

static void trace(struct iss *s, void *ctx, uint32_t pc, uint32_t insn)
{
    char buf[80];
    (void)ctx;
    fprintf(stderr, "%10" PRIu64 " %08x: %08x  %s\n", s->icount - 1, pc, insn,
            iss_disas(insn, pc, buf, sizeof buf));
}

/* SIZE: a C number (decimal, 0x hex, 0 octal) starting with a digit, then
 * an optional K or M; lanai-qemu parses the same way. */
static int parse_size(const char *what, const char *s, uint64_t max, uint64_t *out)
{
    char *end;
    unsigned long long v;
    unsigned shift = 0;

    errno = 0;
    v = strtoull(s, &end, 0);
    if (!isdigit((unsigned char)s[0]) || end == s) {
        fprintf(stderr, "%s: %s: '%s' is not a number\n", prog, what, s);
        return -1;
    }
    if (*end == 'K' || *end == 'k') { shift = 10; end++; }
    else if (*end == 'M' || *end == 'm') { shift = 20; end++; }
    if (*end || errno || v > (max >> shift)) {
        fprintf(stderr, "%s: %s: '%s' is not a valid value (max %llu)\n", prog,
                what, s, (unsigned long long)max);
        return -1;
    }
    *out = v << shift;
    return 0;
}

/* SEC: decimal seconds, 0..TIMEOUT_MAX (0 = no limit). */
static int parse_seconds(const char *what, const char *s, uint64_t *out)
{
    uint64_t v = 0;

    for (const char *c = s; *c; c++) {
        if (!isdigit((unsigned char)*c) || (v = v * 10 + (uint64_t)(*c - '0')) > TIMEOUT_MAX) {
            v = TIMEOUT_MAX + 1;
            break;
        }
    }
    if (!*s || v > TIMEOUT_MAX) {
        fprintf(stderr, "%s: %s: '%s' is not a number of seconds (0..%u)\n", prog,
                what, s, TIMEOUT_MAX);
        return -1;
    }
    *out = v;
    return 0;
}

static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0;

    if (!f)
        return NULL;
    for (;;) {
        if (n == cap) {
            uint8_t *nb;
            cap = cap ? cap * 2 : 65536;
            nb = realloc(buf, cap);
            if (!nb) { free(buf); fclose(f); errno = ENOMEM; return NULL; }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) { free(buf); fclose(f); return NULL; }
    fclose(f);
    *len = n;
    return buf;
}

/* Place argv at the top of RAM (common/tm_args.c, as lanai-qemu does). */
static int place_args(struct iss *s, int argc, char **argv)
{
    uint32_t ptrs;

    switch (tm_args_place(s->ram, s->ram_size, (unsigned)argc,
                          (const char *const *)argv, &ptrs)) {
    case TM_ARGS_OK:
        break;
    case TM_ARGS_TOO_MANY:
        fprintf(stderr, "%s: too many program arguments (%d > %u)\n", prog,
                argc, LANAI_TM_ARGC_MAX);
        return -1;
    case TM_ARGS_TOO_BIG:
        fprintf(stderr, "%s: program arguments exceed %u bytes\n", prog,
                LANAI_TM_ARGS_MAX);
        return -1;
    }
    s->r[6] = (uint32_t)argc;
    s->r[7] = ptrs;
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t max_insns = 4000000000ull, mem = 16u << 20, timeout = 0;
    bool timed_out = false;
    bool do_trace = false, stats = false, strict = false;
    struct iss s;
    struct loadable l;
    char err[256];
    uint8_t *file, *ram;
    size_t len;
    int i;

    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-t") || !strcmp(a, "--trace")) {
            do_trace = true;
        } else if (!strcmp(a, "--stats")) {
            stats = true;
        } else if (!strcmp(a, "--strict") || !strcmp(a, "--strict=lanai9.0") ||
                   !strcmp(a, "--strict=lanai9.1")) {
            strict = true;
        } else if (!strncmp(a, "--strict=", 9)) {
            fprintf(stderr, "%s: --strict: unknown core '%s' (lanai9.0 or "
                    "lanai9.1)\n", prog, a + 9);
            return LANAI_TM_STATUS_USAGE;
        } else if (!strcmp(a, "--max-insns") && i + 1 < argc) {
            if (parse_size("--max-insns", argv[++i], UINT64_MAX >> 11, &max_insns))
                return LANAI_TM_STATUS_USAGE;
        } else if (!strcmp(a, "--timeout") && i + 1 < argc) {
            if (parse_seconds("--timeout", argv[++i], &timeout))
                return LANAI_TM_STATUS_USAGE;
        } else if (!strcmp(a, "--mem") && i + 1 < argc) {
            if (parse_size("--mem", argv[++i], 0xFFFF0000u, &mem))
                return LANAI_TM_STATUS_USAGE;
            if (mem < 2 * LANAI_TM_ARGS_MAX || (mem & 3)) {
                fprintf(stderr, "%s: --mem: '%s' is too small or not a multiple of 4 "
                        "(%u..4294901760)\n", prog, argv[i], 2 * LANAI_TM_ARGS_MAX);
                return LANAI_TM_STATUS_USAGE;
            }
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--version")) {
            printf("%s (nicoll) %s\n", prog, NC_VERSION);
            return 0;
        } else if (!strcmp(a, "--")) {
            i++;
            break;
        } else {
            fprintf(stderr, "%s: unknown or incomplete option '%s'\n", prog, a);
            usage(stderr);
            return LANAI_TM_STATUS_USAGE;
        }
    }
    if (i >= argc) {
        usage(stderr);
        return LANAI_TM_STATUS_USAGE;
    }

    file = read_file(argv[i], &len);
    if (!file) {
        fprintf(stderr, "%s: %s: %s\n", prog, argv[i], strerror(errno));
        return LANAI_TM_STATUS_USAGE;
    }
    if (loadable_parse(argv[i], file, len, (uint32_t)mem - LANAI_TM_ARGS_MAX, &l,
                       err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", prog, err);
        return LANAI_TM_STATUS_USAGE;
    }
    ram = calloc(1, mem);
    if (!ram) {
        fprintf(stderr, "%s: cannot allocate %llu bytes of RAM\n", prog,
                (unsigned long long)mem);
        return LANAI_TM_STATUS_USAGE;
    }
    loadable_copy(&l, ram);
    free(file);

    memset(&s, 0, sizeof s);
    s.mmio = testdev;
    s.trace = do_trace ? trace : NULL;
    s.limit = max_insns;
    s.strict = strict;
    iss_reset(&s, ram, (uint32_t)mem, l.entry);
    if (place_args(&s, argc - i, argv + i))
        return LANAI_TM_STATUS_USAGE;

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (!timeout) {
        iss_run(&s);
    } else {
        /* slices of 2^22 instructions, the clock read in between */
        for (;;) {
            uint64_t stop = s.icount + (1u << 22);
            s.limit = max_insns && max_insns < stop ? max_insns : stop;
            if (iss_run(&s) != ISS_LIMIT || s.limit == max_insns)
                break;
            clock_gettime(CLOCK_MONOTONIC, &t1);
            if ((uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u +
                (uint64_t)(t1.tv_nsec - t0.tv_nsec) >= timeout * 1000000000u) {
                timed_out = true;
                break;
            }
            s.status = ISS_RUNNING;
        }
        s.limit = max_insns;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    fflush(stdout);

    if (stats) {
        double sec = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
        fprintf(stderr, "%s: %" PRIu64 " instructions in %.3f s (%.1f M instructions/s)\n",
                prog, s.icount, sec, sec > 0 ? s.icount / sec / 1e6 : 0.0);
    }
    switch (s.status) {
    case ISS_EXITED:
        return s.exit_code & 0xFF;
    case ISS_LIMIT:
        if (timed_out) {
            fprintf(stderr, "%s: time limit of %" PRIu64 " s reached at pc 0x%08x\n",
                    prog, timeout, s.pc);
            return LANAI_TM_STATUS_LIMIT;
        }
        fprintf(stderr, "%s: instruction limit of %" PRIu64 " reached at pc 0x%08x\n",
                prog, s.limit, s.pc);
        return LANAI_TM_STATUS_LIMIT;
    default: {
        char buf[80];
        fprintf(stderr, "%s: trap at pc 0x%08x (insn 0x%08x: %s) after %" PRIu64
                " instructions: %s\n", prog, s.trap_pc, s.trap_insn,
                iss_disas(s.trap_insn, s.trap_pc, buf, sizeof buf), s.icount,
                s.trap_reason);
        return LANAI_TM_STATUS_TRAP;
    }
    }
}
