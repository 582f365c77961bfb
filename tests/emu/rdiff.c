/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rdiff: random differential testing of qemu-system-lanai against the
 * reference interpreter (ref/iss, run in this process through its library
 * API).
 *
 * It generates programs of many random instruction streams. Each stream:
 *   1. loads random values into r3..r31 and sets random flags;
 *   2. runs a random body: RI, RR (predicated, sel, register shifts), RM,
 *      RRM (every address op, width, extension, pre/post modify), SPLS,
 *      SLS, SLI, SCC, popc/leadz/trailz, conditional branches with their
 *      delay slots, register jumps, loads into pc (two slots) and pc reads,
 *      with loads and stores confined to the stream's own 64-byte data area;
 *   3. stores r3..r31 and the four flags (via SCC) and prints them and the
 *      data area on the console, as raw bytes.
 * The same ELF runs on both; their console bytes, exit status and retired
 * instruction counts must be identical. On a difference the first stream
 * that differs is shown: which registers, flags or bytes, and its code.
 *
 * With --traps N it also runs N small programs that each end in a trap
 * (reserved encoding, misaligned access, jump in a delay slot, ...) and
 * checks that QEMU stops with status 125 at the same pc and count.
 *
 * Output is TAP. Every run prints its seed; the same seed gives the same
 * programs.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "iss.h"
#include "loadable.h"

/* ---- memory layout of a generated program ---------------------------- */
#define DUMP_ADDR   0x2000u     /* 33 words: r3..r31, N, Z, V, C */
#define DUMP_WORDS  33
#define AREA_BASE   0x10000u    /* stream i's data area: AREA_BASE + 64 i */
#define AREA_SIZE   64
#define CODE_BASE   0x100000u   /* code on pages of its own */
#define MAX_STREAMS 4096
#define RECORD      (DUMP_WORDS * 4 + AREA_SIZE)
#define CONSOLE     0xFFFF0000u
#define EXITREG     0xFFFF0004u

/* ---- random numbers (splitmix64) ------------------------------------- */
static uint64_t rng_state;

static uint64_t rnd64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint32_t rnd(uint32_t n) /* 0..n-1 */
{
    return (uint32_t)(rnd64() % n);
}

static uint32_t rnd32(void)
{
    return (uint32_t)rnd64();
}

/* An interesting 32-bit value: edge cases more often than uniform. */
static uint32_t rnd_value(void)
{
    static const uint32_t edge[] = {
        0, 1, 2, 31, 32, 33, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF,
        0xFFFFFFFE, 0xFFFFFFE1, 0xFFFFFFE0, 0x0000FFFF, 0xFFFF0000, 0x12345678,
    };
    switch (rnd(4)) {
    case 0: return edge[rnd(sizeof edge / sizeof edge[0])];
    case 1: return rnd(64) - 32;
    default: return rnd32();
    }
}

/* ---- encoders (docs/lanai-isa.md section 5) ------------------- */
enum { ADD, ADDC, SUB, SUBB, AND, OR, XOR, SH };

static uint32_t enc_ri(unsigned op, unsigned rd, unsigned rs1, unsigned f,
                       unsigned h, uint32_t k)
{
    return op << 28 | rd << 23 | rs1 << 18 | f << 17 | h << 16 | (k & 0xFFFF);
}

static uint32_t enc_rr(unsigned rd, unsigned rs1, unsigned f, unsigned cc,
                       unsigned rs2, unsigned bbb, unsigned j)
{
    return 0xCu << 28 | rd << 23 | rs1 << 18 | f << 17 | (cc & 1) << 16 |
           rs2 << 11 | bbb << 8 | j << 3 | (cc >> 1);
}

static uint32_t enc_rm(unsigned st, unsigned rd, unsigned rs1, unsigned p,
                       unsigned q, int32_t off)
{
    return (8u | st) << 28 | rd << 23 | rs1 << 18 | p << 17 | q << 16 |
           ((uint32_t)off & 0xFFFF);
}

static uint32_t enc_rrm(unsigned st, unsigned rd, unsigned rs1, unsigned p,
                        unsigned q, unsigned rs2, unsigned bbb, unsigned j,
                        unsigned yl, unsigned e)
{
    return (0xAu | st) << 28 | rd << 23 | rs1 << 18 | p << 17 | q << 16 |
           rs2 << 11 | bbb << 8 | j << 3 | yl << 1 | e;
}

static uint32_t enc_spls(unsigned rd, unsigned rs1, unsigned y, unsigned s,
                         unsigned e, unsigned p, unsigned q, int32_t k)
{
    return 0xFu << 28 | rd << 23 | rs1 << 18 | 3u << 16 | y << 14 | s << 13 |
           e << 12 | p << 11 | q << 10 | ((uint32_t)k & 0x3FF);
}

static uint32_t enc_sls(unsigned st, unsigned rd, uint32_t a)
{
    return 0xFu << 28 | rd << 23 | ((a >> 16) & 31) << 18 | st << 16 |
           (a & 0xFFFF);
}

static uint32_t enc_sli(unsigned rd, uint32_t k)
{
    return 0xFu << 28 | rd << 23 | ((k >> 16) & 31) << 18 | 2u << 16 |
           (k & 0xFFFF);
}

static uint32_t enc_br(unsigned cc, uint32_t target)
{
    return 0xEu << 28 | (cc >> 1) << 25 | (target & 0x01FFFFFC) | (cc & 1);
}

static uint32_t enc_scc(unsigned cc, unsigned rd)
{
    return 0xEu << 28 | (cc >> 1) << 25 | rd << 18 | 2u | (cc & 1);
}

static uint32_t enc_special(unsigned rd, unsigned rs1, unsigned op)
{
    return 0xDu << 28 | rd << 23 | rs1 << 18 | op;
}

/* ---- program under construction -------------------------------------- */
static uint32_t *code;          /* words from CODE_BASE */
static size_t ncode, capcode;
static uint8_t areas[MAX_STREAMS * AREA_SIZE];

static uint32_t here(void)
{
    return CODE_BASE + 4 * (uint32_t)ncode;
}

static size_t emit(uint32_t w)
{
    if (ncode == capcode) {
        capcode = capcode ? 2 * capcode : 65536;
        code = realloc(code, capcode * sizeof *code);
        if (!code) {
            perror("rdiff");
            exit(2);
        }
    }
    code[ncode] = w;
    return ncode++;
}

static void mov32(unsigned rd, uint32_t v)
{
    emit(enc_ri(ADD, rd, 0, 0, 1, v >> 16));
    emit(enc_ri(OR, rd, rd, 0, 0, v & 0xFFFF));
}

/* Set rd to v in one or two instructions. */
static void setv(unsigned rd, uint32_t v)
{
    if (v < 0x200000 && rnd(2)) {
        emit(enc_sli(rd, v));
    } else {
        mov32(rd, v);
    }
}

/* --strict: both run a core without load interlocks (lanai-iss --strict,
 * lanai-qemu --strict); the streams then keep the 2 instructions after a
 * data load off its register (they are random instructions that avoid it),
 * and the trap programs are load-use hazards. */
static bool strict;
static unsigned avoid; /* a register gen_simple must not touch, 0 none */

static unsigned rnd_dst(void) /* never pc; r0/r1 now and then */
{
    unsigned r;
    do {
        r = rnd(32);
        if (r == 2 || (r < 2 && rnd(4)))
            r = 3 + rnd(29);
    } while (avoid && r == avoid);
    return r;
}

static unsigned rnd_src(void)
{
    unsigned r;
    do
        r = rnd(32);
    while (avoid && r == avoid);
    return r;
}

static unsigned rnd_gpr(void) /* r3..r31 */
{
    return 3 + rnd(29);
}

static unsigned rnd_cc(void)
{
    return rnd(3) ? rnd(16) : 0;
}

/* A random instruction that neither touches memory nor writes pc. */
static void gen_simple(void)
{
    unsigned k;

    switch (rnd(10)) {
    case 0: case 1: case 2: {
        unsigned op = rnd(8), h = rnd(2);
        uint32_t imm = rnd32() & 0xFFFF;
        if (op == SH && rnd(8))
            imm = (uint32_t)(int32_t)(rnd(63) - 31);
        emit(enc_ri(op, rnd_dst(), rnd_src(), rnd(2), h, imm));
        break;
    }
    case 3: case 4: case 5: {
        k = rnd(10);
        if (k < 7)
            emit(enc_rr(rnd_dst(), rnd_src(), rnd(2), rnd_cc(), rnd_src(), k, 0));
        else if (k == 7)
            emit(enc_rr(rnd_dst(), rnd_src(), 0, rnd(16), rnd_src(), 7, 0));
        else
            emit(enc_rr(rnd_dst(), rnd_src(), rnd(2), rnd_cc(), rnd_src(), 7,
                        k == 8 ? 0x10 : 0x18));
        break;
    }
    case 6:
        emit(enc_special(rnd_dst(), rnd_src(), 1 + rnd(3)));
        break;
    case 7:
        emit(enc_scc(rnd(16), rnd_dst()));
        break;
    case 8:
        emit(enc_sli(rnd_dst(), rnd32() & 0x1FFFFF));
        break;
    default: /* a pc read */
        if (rnd(2))
            emit(enc_ri(ADD, rnd_dst(), 2, rnd(2), 0, rnd32() & 0xFFFF));
        else
            emit(enc_rr(rnd_dst(), rnd_src(), 0, 0, 2, rnd(7), 0));
        break;
    }
}

static void gen_simple(void);

/* Strict mode: the load shadow, two random instructions that leave rd
 * alone. */
static void shadow(unsigned rd)
{
    if (!strict || rd <= 2)
        return;
    avoid = rd;
    gen_simple();
    gen_simple();
    avoid = 0;
}

/* A random address in [area, area + 64) aligned to size. */
static uint32_t rnd_ea(uint32_t area, unsigned size)
{
    return area + (rnd(AREA_SIZE / size) * size);
}

static unsigned load_dst(unsigned base, bool q)
{
    unsigned rd;
    do
        rd = rnd_dst();
    while (q && rd == base);
    return rd;
}

/* RM: word with a 16-bit displacement. */
static void gen_rm(uint32_t area)
{
    unsigned base = rnd_gpr(), st = rnd(2), p = rnd(2), q = rnd(2);
    uint32_t ea = rnd_ea(area, 4);
    int32_t off = (int32_t)rnd(1024) - 512;

    setv(base, p ? ea - (uint32_t)off : ea);
    {
        unsigned rd = st ? rnd_src() : load_dst(base, q);
        emit(enc_rm(st, rd, base, p, q, off));
        if (!st)
            shadow(rd);
    }
}

/* SPLS: half/byte with a 10-bit displacement. */
static void gen_spls(uint32_t area)
{
    unsigned base = rnd_gpr(), st = rnd(2), p = rnd(2), q = rnd(2), y = rnd(2);
    unsigned size = y ? 1 : 2;
    uint32_t ea = rnd_ea(area, size);
    int32_t off = (int32_t)rnd(1024) - 512;

    setv(base, p ? ea - (uint32_t)off : ea);
    {
        unsigned rd = st ? rnd_src() : load_dst(base, q);
        emit(enc_spls(rd, base, y, st, st ? 0 : rnd(2), p, q, off));
        if (!st)
            shadow(rd);
    }
}

/* RRM: address = Rs1 op Rs2, each op with operands chosen to hit ea. */
static void gen_rrm(uint32_t area)
{
    unsigned rs1 = rnd_gpr(), rs2, st = rnd(2), p = rnd(2), q = rnd(2);
    unsigned op = rnd(9), yl = rnd(3), size, bbb, j = 0;
    uint32_t ea, a, b, x;

    do
        rs2 = rnd_gpr();
    while (rs2 == rs1);
    size = (op >= 7 || yl == 1) ? 4 : yl == 0 ? 2 : 1;
    ea = rnd_ea(area, size);
    bbb = op < 7 ? op : 7;
    if (op >= 7)
        j = op == 7 ? 0x10 : 0x18;
    b = rnd(0x400);
    switch (op) {
    case ADD:  a = ea - b; break;
    case SUB:  a = ea + b; break;
    case ADDC: a = ea - b; break;      /* C is cleared first, below */
    case SUBB: a = ea + b + 1; break;  /* a + ~b + 0 = a - b - 1 */
    case AND:  x = rnd32(); a = ea | x; b = ea | (rnd32() & ~x); break;
    case OR:   x = rnd32(); a = ea & x; b = ea & ~x; break;
    case XOR:  b = rnd32(); a = ea ^ b; break;
    default: { /* sh / sha: left by 0..2 (ea is word aligned) or right */
        unsigned k = rnd(10);
        if (k <= 2) { a = ea >> k; b = k; }
        else { k -= 2; a = ea << k; b = (uint32_t)-(int32_t)k; }
        break;
    }
    }
    if (!p)
        a = ea;                        /* P=0: the address is Rs1 */
    setv(rs1, a);
    setv(rs2, b);
    if (op == ADDC || op == SUBB)
        emit(enc_ri(ADD, 0, 0, 1, 0, 0)); /* add.f r0,0,r0: C = 0 */
    {
        unsigned rd = st ? rnd_src() : load_dst(rs1, q);
        emit(enc_rrm(st, rd, rs1, p, q, rs2, bbb, j, yl, st ? 0 : rnd(2)));
        if (!st)
            shadow(rd);
    }
}

static void gen_sls(uint32_t area)
{
    uint32_t ea = rnd_ea(area, 4) | rnd(4); /* bits 1:0 are ignored */
    if (rnd(2)) {
        emit(enc_sls(1, rnd_src(), ea));
    } else {
        unsigned rd = rnd_dst();
        emit(enc_sls(0, rd, ea));
        shadow(rd);
    }
}

/* ---- streams --------------------------------------------------------- */

/* Branch fixups: code index -> unit index it targets (resolved later). */
struct fix { size_t at; unsigned unit; int kind; };
enum { FIX_BR, FIX_MOV };

static struct fix fixes[256];
static unsigned nfix;
static size_t unit_start[64];

static void gen_stream(unsigned s, unsigned nunits)
{
    uint32_t area = AREA_BASE + s * AREA_SIZE;
    unsigned u, r, slot;

    for (r = 0; r < AREA_SIZE; r++)
        areas[s * AREA_SIZE + r] = (uint8_t)rnd32();
    for (r = 3; r < 32; r++)
        mov32(r, rnd_value());
    emit(enc_ri(SUB, 0, rnd_gpr(), 1, rnd(2), rnd32() & 0xFFFF)); /* flags */

    nfix = 0;
    for (u = 0; u < nunits; u++) {
        unsigned kind = rnd(20);

        unit_start[u] = ncode;
        if (kind < 7) {
            gen_simple();
        } else if (kind < 9) {
            gen_rm(area);
        } else if (kind < 11) {
            gen_rrm(area);
        } else if (kind < 12) {
            gen_spls(area);
        } else if (kind < 13) {
            gen_sls(area);
        } else if (kind < 16) {
            /* b<cc> to a later unit, one delay slot */
            fixes[nfix++] = (struct fix){ emit(enc_br(rnd(16), 0)),
                                          u + 1 + rnd(nunits - u), FIX_BR };
            gen_simple();
        } else if (kind < 18) {
            /* jump through a register (RR to pc), maybe predicated */
            unsigned t = rnd_gpr();
            fixes[nfix++] = (struct fix){ ncode, u + 1 + rnd(nunits - u), FIX_MOV };
            mov32(t, 0);
            if (rnd(2))
                emit(enc_rr(2, 0, 0, rnd_cc(), t, 5, 0));  /* b<cc> %rt */
            else
                emit(enc_rr(2, t, 0, 0, 0, 0, 0));          /* mov %rt, %pc */
            gen_simple();
        } else if (kind < 19) {
            /* load into pc: two delay slots */
            unsigned t = rnd_gpr();
            uint32_t slot_addr = rnd_ea(area, 4);
            fixes[nfix++] = (struct fix){ ncode, u + 1 + rnd(nunits - u), FIX_MOV };
            mov32(t, 0);
            emit(enc_sls(1, t, slot_addr));
            if (rnd(2)) {
                emit(enc_sls(0, 2, slot_addr));
            } else {
                unsigned b;
                do
                    b = rnd_gpr();
                while (b == t);
                setv(b, slot_addr);
                emit(enc_rm(0, 2, b, 0, 0, 0));
            }
            for (slot = 0; slot < 2; slot++)
                gen_simple();
        } else {
            /* a flag-setting compare, as clang emits them */
            emit(enc_ri(SUB, 0, rnd_src(), 1, 0, rnd(64)));
        }
    }
    unit_start[nunits] = ncode;     /* the epilogue */
    for (u = 0; u < nfix; u++) {
        uint32_t target = CODE_BASE + 4 * (uint32_t)unit_start[fixes[u].unit];
        if (fixes[u].kind == FIX_BR) {
            code[fixes[u].at] |= target;
        } else {
            code[fixes[u].at] |= target >> 16;
            code[fixes[u].at + 1] |= target & 0xFFFF;
        }
    }

    /* Epilogue: save registers and flags, print them and the area. */
    for (r = 3; r < 32; r++)
        emit(enc_sls(1, r, DUMP_ADDR + 4 * (r - 3)));
    {
        static const unsigned flag_cc[4] = { 11, 7, 9, 5 }; /* mi eq vs uge */
        for (r = 0; r < 4; r++) {
            emit(enc_scc(flag_cc[r], 3));
            emit(enc_sls(1, 3, DUMP_ADDR + 4 * (29 + r)));
        }
    }
    emit(enc_sli(6, area));
    mov32(15, here() + 16);                   /* return address */
    emit(enc_br(0, CODE_BASE));               /* bt print (at CODE_BASE) */
    emit(0x00000001);                         /* nop */
}

/* The print routine at CODE_BASE: DUMP area, then the area at r6. */
static void gen_print(void)
{
    int pass;
    for (pass = 0; pass < 2; pass++) {
        uint32_t loop;
        if (pass == 0)
            emit(enc_sli(7, DUMP_ADDR));
        else
            emit(enc_ri(OR, 7, 6, 0, 0, 0));
        emit(enc_sli(8, pass == 0 ? DUMP_WORDS * 4 : AREA_SIZE));
        loop = here();
        emit(enc_spls(9, 7, 1, 0, 1, 0, 1, 1));         /* uld.b [%r7++], %r9 */
        if (strict) {
            emit(0x00000001);
            emit(0x00000001);
        }
        emit(enc_sls(1, 9, CONSOLE & 0x1FFFFF));         /* st %r9, [console] */
        emit(enc_ri(SUB, 8, 8, 1, 0, 1));                /* sub.f %r8, 1, %r8 */
        emit(enc_br(6, loop));                           /* bne loop */
        emit(0x00000001);
    }
    emit(enc_rr(2, 0, 0, 0, 15, 5, 0));                  /* bt %r15 */
    emit(0x00000001);
}

/* ---- ELF ------------------------------------------------------------- */

static uint8_t *make_elf(uint32_t entry, unsigned nstreams, size_t *len)
{
    size_t data_len = AREA_SIZE * (size_t)nstreams;
    size_t code_off = 0x1000, data_off = code_off + 4 * ncode;
    uint8_t *f;
    size_t i;

    data_off = (data_off + 0xFFF) & ~(size_t)0xFFF;
    *len = data_off + data_len;
    f = calloc(1, *len);
    memcpy(f, "\177ELF\1\2\1", 7);
    nc_put_be16(f + 16, 2);                 /* ET_EXEC */
    nc_put_be16(f + 18, 244);               /* EM_LANAI */
    nc_put_be32(f + 20, 1);
    nc_put_be32(f + 24, entry);
    nc_put_be32(f + 28, 52);         /* e_phoff */
    nc_put_be16(f + 40, 52);
    nc_put_be16(f + 42, 32);
    nc_put_be16(f + 44, 2);
    nc_put_be16(f + 46, 40);
    for (i = 0; i < 2; i++) {
        uint8_t *ph = f + 52 + 32 * i;
        uint32_t off = i ? (uint32_t)data_off : (uint32_t)code_off;
        uint32_t addr = i ? AREA_BASE : CODE_BASE;
        uint32_t sz = i ? (uint32_t)data_len : 4 * (uint32_t)ncode;
        nc_put_be32(ph, 1);          /* PT_LOAD */
        nc_put_be32(ph + 4, off);
        nc_put_be32(ph + 8, addr);
        nc_put_be32(ph + 12, addr);
        nc_put_be32(ph + 16, sz);
        nc_put_be32(ph + 20, sz);
        nc_put_be32(ph + 24, i ? 6 : 5);
        nc_put_be32(ph + 28, 4);
    }
    for (i = 0; i < ncode; i++)
        nc_put_be32(f + code_off + 4 * i, code[i]);
    memcpy(f + data_off, areas, data_len);
    return f;
}

/* ---- running --------------------------------------------------------- */
struct outbuf { uint8_t *p; size_t n, cap; };

static void out_put(struct outbuf *o, uint8_t c)
{
    if (o->n == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 1 << 20;
        o->p = realloc(o->p, o->cap);
    }
    o->p[o->n++] = c;
}

static bool iss_dev(struct iss *s, void *ctx, uint32_t addr, unsigned size,
                    bool write, uint32_t *val)
{
    if (size != 4)
        return false;
    if (write && addr == CONSOLE) {
        out_put(ctx, (uint8_t)*val);
        return true;
    }
    if (write && addr == EXITREG) {
        iss_exit(s, (int)*val);
        return true;
    }
    if (!write && addr == 0xFFFF0008u) {
        *val = (uint32_t)s->icount;
        return true;
    }
    return false;
}

struct result {
    struct outbuf out;
    int status;             /* exit status as the CLI tools give it */
    uint64_t count;
    uint32_t trap_pc;
};

static void run_iss(const uint8_t *elf, size_t len, struct result *r)
{
    static uint8_t ram[16 << 20];
    struct loadable l;
    struct iss s;
    char err[256];

    memset(r, 0, sizeof *r);
    if (loadable_parse("rdiff.elf", elf, len, sizeof ram - 4096, &l, err,
                       sizeof err)) {
        fprintf(stderr, "rdiff: generated ELF rejected: %s\n", err);
        exit(2);
    }
    memset(ram, 0, sizeof ram);
    loadable_copy(&l, ram);
    memset(&s, 0, sizeof s);
    s.mmio = iss_dev;
    s.mmio_ctx = &r->out;
    s.limit = 1000000000;
    s.strict = strict;
    iss_reset(&s, ram, sizeof ram, l.entry);
    iss_run(&s);
    r->count = s.icount;
    r->status = s.status == ISS_EXITED ? (s.exit_code & 0xFF)
              : s.status == ISS_LIMIT ? 124 : 125;
    r->trap_pc = s.status == ISS_TRAPPED ? s.trap_pc : 0;
}

static const char *qemu_cmd = "build/bin/lanai-qemu";
static const char *workdir = "build/tests/emu";

static void run_qemu(const char *elfpath, struct result *r)
{
    char errpath[512], cmd[1400], line[512];
    FILE *p, *e;
    int c, st;

    memset(r, 0, sizeof *r);
    snprintf(errpath, sizeof errpath, "%s.qemu-stderr", elfpath);
    snprintf(cmd, sizeof cmd, "%s --stats --timeout 300%s %s 2> %s", qemu_cmd,
             strict ? " --strict" : "", elfpath, errpath);
    p = popen(cmd, "r");
    if (!p) {
        perror("rdiff: popen");
        exit(2);
    }
    while ((c = getc(p)) != EOF)
        out_put(&r->out, (uint8_t)c);
    st = pclose(p);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    e = fopen(errpath, "r");
    while (e && fgets(line, sizeof line, e)) {
        char *t;
        uint64_t n;
        if (sscanf(line, "lanai-qemu: %" SCNu64 " instructions", &n) == 1)
            r->count = n;
        if ((t = strstr(line, "trap at pc 0x")))
            r->trap_pc = (uint32_t)strtoul(t + 13, NULL, 16);
        if ((t = strstr(line, " after ")) && strstr(line, "trap at pc"))
            r->count = strtoull(t + 7, NULL, 10);
    }
    if (e)
        fclose(e);
}

static const char *const rec_names[DUMP_WORDS] = {
    "r3", "sp", "fp", "r6", "r7", "rv", "r9", "rr1", "rr2", "r12", "r13",
    "r14", "rca", "r16", "r17", "r18", "r19", "r20", "r21", "r22", "r23",
    "r24", "r25", "r26", "r27", "r28", "r29", "r30", "r31", "N", "Z", "V", "C",
};

/* Show stream s's differences and code (first difference only). */
static void explain(unsigned s, const uint8_t *a, const uint8_t *b,
                    size_t code_from, size_t code_to)
{
    char text[96];
    unsigned i, shown = 0;

    printf("# stream %u differs (iss vs qemu):\n", s);
    for (i = 0; i < DUMP_WORDS && shown < 12; i++) {
        uint32_t x = nc_get_be32(a + 4 * i), y = nc_get_be32(b + 4 * i);
        if (x != y) {
            printf("#   %-4s iss 0x%08x qemu 0x%08x\n", rec_names[i], x, y);
            shown++;
        }
    }
    for (i = 4 * DUMP_WORDS; i < RECORD && shown < 12; i++) {
        if (a[i] != b[i]) {
            printf("#   area[%u] iss 0x%02x qemu 0x%02x\n",
                   i - 4 * DUMP_WORDS, a[i], b[i]);
            shown++;
        }
    }
    printf("# stream %u code (body after the register set-up):\n", s);
    for (size_t k = code_from; k < code_to; k++) {
        uint32_t pc = CODE_BASE + 4 * (uint32_t)k;
        printf("#   %08x: %08x  %s\n", pc, code[k],
               iss_disas(code[k], pc, text, sizeof text));
    }
}

static int tapn;

static void tap(bool ok, const char *fmt, ...)
{
    va_list ap;
    printf("%s %d - ", ok ? "ok" : "not ok", ++tapn);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

/* Programs before this one are generated (the random sequence must be
 * the same) but not run: to re-run part of a long run. */
static unsigned first_prog;

/* One program of n streams; returns true if QEMU and the ISS agree. */
static bool run_program(unsigned prog, unsigned n, unsigned body)
{
    static size_t body_from[MAX_STREAMS], body_to[MAX_STREAMS];
    struct result ri, rq;
    char path[512];
    uint8_t *elf;
    size_t len;
    unsigned s;
    FILE *f;
    bool ok;

    ncode = 0;
    gen_print();
    {
        uint32_t entry = here();
        for (s = 0; s < n; s++) {
            body_from[s] = ncode + 29 * 2 + 1;
            gen_stream(s, 4 + rnd(body));
            body_to[s] = ncode;
        }
        emit(enc_sli(3, 0));
        emit(enc_sls(1, 3, EXITREG & 0x1FFFFF));   /* exit(0) */
        emit(0x00000001);
        if (prog < first_prog)
            return true;
        elf = make_elf(entry, n, &len);
    }
    snprintf(path, sizeof path, "%s/rdiff-%u.elf", workdir, prog);
    f = fopen(path, "wb");
    if (!f || fwrite(elf, 1, len, f) != len || fclose(f)) {
        fprintf(stderr, "rdiff: cannot write %s\n", path);
        exit(2);
    }
    run_iss(elf, len, &ri);
    run_qemu(path, &rq);
    ok = ri.status == rq.status && ri.count == rq.count &&
         ri.out.n == rq.out.n && !memcmp(ri.out.p, rq.out.p, ri.out.n);
    tap(ok, "program %u: %u streams, %" PRIu64 " instructions, %zu console "
        "bytes%s", prog, n, ri.count, ri.out.n,
        ok ? " identical" : ": QEMU differs from the ISS");
    if (!ok) {
        printf("#   iss: status %d, %" PRIu64 " instructions, %zu bytes; "
               "qemu: status %d, %" PRIu64 " instructions, %zu bytes\n",
               ri.status, ri.count, ri.out.n, rq.status, rq.count, rq.out.n);
        for (s = 0; s < n; s++) {
            size_t at = (size_t)s * RECORD;
            if (at + RECORD > ri.out.n || at + RECORD > rq.out.n ||
                memcmp(ri.out.p + at, rq.out.p + at, RECORD)) {
                if (at + RECORD <= ri.out.n && at + RECORD <= rq.out.n)
                    explain(s, ri.out.p + at, rq.out.p + at, body_from[s],
                            body_to[s]);
                else
                    explain(s, ri.out.p + at, ri.out.p + at, body_from[s],
                            body_to[s]);
                break;
            }
        }
        printf("#   program kept in %s\n", path);
    }
    free(elf);
    free(ri.out.p);
    free(rq.out.p);
    return ok;
}

/* Programs that end in a trap: the same pc and count, status 125. */
static bool run_trap(unsigned i)
{
    static const char *const what[] = {
        "reserved RR encoding", "reserved special op", "BRR", "misaligned word load",
        "misaligned half store", "jump in a delay slot", "load write-back into its base",
        "write-back to pc", "unmapped load", "sub-word access to the console",
        "read of the console register", "misaligned jump target",
        "reserved RRM width", "SPLS with insn[15]=1",
    };
    static const char *const hz[] = {
        "RM load used by the next instruction", "SLS load used 2 later",
        "load then an ALU write of its register", "SPLS load stored next",
        "RRM load used as an address 2 later",
        "load in a taken branch's delay slot, used at the target",
        "load used by a jump through its register",
        "load in a not-taken branch's slot, used after it",
    };
    unsigned kind = strict ? i % (sizeof hz / sizeof hz[0])
                           : i % (sizeof what / sizeof what[0]), r;
    struct result ri, rq;
    char path[512];
    uint8_t *elf;
    size_t len;
    FILE *f;
    bool ok;

    ncode = 0;
    for (r = 3; r < 32; r++)
        mov32(r, rnd_value());
    for (r = rnd(8); r > 0; r--)
        gen_simple();
    if (strict) {
        uint32_t ea = AREA_BASE;
        setv(4, ea);
        setv(5, 0);
        switch (kind) {
        case 0: emit(enc_rm(0, 3, 4, 0, 0, 0)); emit(enc_ri(ADD, 6, 3, 0, 0, 1)); break;
        case 1: emit(enc_sls(0, 3, ea)); emit(1); emit(enc_rr(6, 7, 0, 0, 3, 0, 0)); break;
        case 2: emit(enc_rm(0, 3, 4, 0, 0, 0)); emit(1); emit(enc_ri(OR, 3, 0, 0, 0, 5)); break;
        case 3: emit(enc_spls(3, 4, 1, 0, 1, 0, 0, 0)); emit(enc_rm(1, 3, 4, 0, 0, 4)); break;
        case 4: emit(enc_rm(0, 3, 4, 0, 0, 0)); emit(1);
                emit(enc_rrm(0, 6, 4, 1, 0, 3, 4, 0, 1, 0)); break;
        case 5: emit(enc_br(0, here() + 12)); emit(enc_rm(0, 3, 4, 0, 0, 0)); emit(1);
                emit(enc_ri(SUB, 0, 3, 1, 0, 0)); break;
        case 6: emit(enc_rm(0, 3, 4, 0, 0, 0)); emit(enc_rr(2, 3, 0, 0, 0, 0, 0)); break;
        default: emit(enc_ri(SUB, 0, 0, 1, 0, 0)); /* Z = 1: bne not taken */
                 emit(enc_br(6, here() + 40)); emit(enc_sls(0, 3, ea));
                 emit(enc_ri(ADD, 6, 3, 0, 0, 1)); break;
        }
        goto tail;
    }
    switch (kind) {
    case 0: emit(enc_rr(3, 4, 0, 0, 5, 1, 1)); break;
    case 1: emit(enc_special(3, 4, 5)); break;
    case 2: emit(0xE100000Au); break;
    case 3: setv(4, AREA_BASE + 2); emit(enc_rm(0, 3, 4, 0, 0, 0)); break;
    case 4: setv(4, AREA_BASE + 1); emit(enc_spls(3, 4, 0, 1, 0, 0, 0, 0)); break;
    case 5: emit(enc_br(0, here() + 64)); emit(enc_br(0, here() + 64)); break;
    case 6: setv(4, AREA_BASE); emit(enc_rm(0, 4, 4, 0, 1, 4)); break;
    case 7: emit(enc_rm(1, 3, 2, 1, 1, 4)); break;
    case 8: setv(4, 0x01000000); emit(enc_rm(0, 3, 4, 0, 0, 0)); break;
    case 9: emit(enc_spls(3, 0, 1, 1, 0, 1, 0, 0)); /* st.b to 0 is RAM */
            setv(4, CONSOLE); emit(enc_spls(3, 4, 1, 1, 0, 0, 0, 0)); break;
    case 10: emit(enc_sls(0, 3, CONSOLE & 0x1FFFFF)); break;
    case 11: setv(4, here() + 18); emit(enc_rr(2, 4, 0, 0, 0, 0, 0)); emit(1);
             break;
    case 12: emit(enc_rrm(0, 3, 4, 0, 0, 5, 0, 0, 3, 0)); break;
    default: emit(0xF20F8000u); break;
    }
tail:
    for (r = 0; r < 20; r++)
        emit(0x00000001);
    emit(enc_sli(3, 0));
    emit(enc_sls(1, 3, EXITREG & 0x1FFFFF));
    elf = make_elf(CODE_BASE, 1, &len);
    snprintf(path, sizeof path, "%s/rdiff-trap-%u.elf", workdir, i);
    f = fopen(path, "wb");
    if (!f || fwrite(elf, 1, len, f) != len || fclose(f)) {
        fprintf(stderr, "rdiff: cannot write %s\n", path);
        exit(2);
    }
    run_iss(elf, len, &ri);
    run_qemu(path, &rq);
    ok = ri.status == 125 && rq.status == 125 && ri.trap_pc == rq.trap_pc &&
         ri.count == rq.count;
    tap(ok, "trap %u (%s%s): iss and qemu stop at pc 0x%08x after %" PRIu64
        " instructions", i, strict ? "strict, " : "", strict ? hz[kind] : what[kind],
        ri.trap_pc, ri.count);
    if (!ok)
        printf("#   iss: status %d pc 0x%08x count %" PRIu64 "; qemu: status %d"
               " pc 0x%08x count %" PRIu64 " (%s.qemu-stderr)\n", ri.status,
               ri.trap_pc, ri.count, rq.status, rq.trap_pc, rq.count, path);
    free(elf);
    free(ri.out.p);
    free(rq.out.p);
    return ok;
}

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    unsigned streams = 10000, per = 2000, body = 24, traps = 14, i, fails = 0;

    for (i = 1; i < (unsigned)argc; i++) {
        const char *a = argv[i], *v = i + 1 < (unsigned)argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--seed") && v) { seed = strtoull(v, NULL, 0); i++; }
        else if (!strcmp(a, "--streams") && v) { streams = (unsigned)strtoul(v, NULL, 0); i++; }
        else if (!strcmp(a, "--per-program") && v) { per = (unsigned)strtoul(v, NULL, 0); i++; }
        else if (!strcmp(a, "--body") && v) { body = (unsigned)strtoul(v, NULL, 0); i++; }
        else if (!strcmp(a, "--traps") && v) { traps = (unsigned)strtoul(v, NULL, 0); i++; }
        else if (!strcmp(a, "--qemu") && v) { qemu_cmd = v; i++; }
        else if (!strcmp(a, "--strict")) strict = true;
        else if (!strcmp(a, "--from") && v) { first_prog = (unsigned)strtoul(v, NULL, 0); i++; }
        else if (!strcmp(a, "--dir") && v) { workdir = v; i++; }
        else {
            fprintf(stderr, "usage: rdiff [--seed N] [--streams N] [--per-program N] "
                    "[--body N] [--traps N] [--strict] [--qemu CMD] [--dir DIR] [--from PROGRAM]\n");
            return 2;
        }
    }
    if (per == 0 || per > MAX_STREAMS || body == 0 || body > 60) {
        fprintf(stderr, "rdiff: --per-program must be 1..%d, --body 1..60\n",
                MAX_STREAMS);
        return 2;
    }
    rng_state = seed;
    printf("# rdiff: seed %" PRIu64 ", %u streams (%u per program, up to %u "
           "units each), %u trap programs\n", seed, streams, per, body + 3, traps);
    for (i = 0; streams > 0; i++) {
        unsigned n = streams < per ? streams : per;
        fails += !run_program(i, n, body);
        streams -= n;
    }
    for (i = 0; i < traps; i++)
        fails += !run_trap(i);
    printf("1..%d\n", tapn);
    return fails ? 1 : 0;
}
