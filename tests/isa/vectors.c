/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ISA conformance, vector part: every encoding of lanai-isa.md section 12
 * (plus a few with other flag states) is decoded by the disassembler and
 * executed by the reference interpreter, and its effect is compared with the
 * one written out in vectors.tbl:
 *
 *   hex | llvm-mc's disassembly | setup | expected effect
 *
 * The machine starts in a known state: r[n] = 0x1000 + 0x100 * n (n >= 3),
 * flags clear, RAM byte a = (a & 0xFF) ^ 0xA5, the instruction at 0x8000 and
 * nops after it. 'setup' overrides registers (rN=v), flags (N=1 ...) or
 * memory (m32[a]=v). The effect lists every register, flag and memory byte
 * that changes ("jump=T/S": control reaches T after S delay slots;
 * "trap=text": the instruction traps with a reason containing text). Anything
 * not listed must stay as it was, and pc must step on by 4.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "iss.h"

#define RAM_SIZE 0x10000u
#define AT 0x8000u
#define NOP 0x00000001u
#define MAX_ROWS 160

struct row {
    unsigned line;
    uint32_t insn;
    char asm_text[64];
    char setup[128];
    char effect[160];
    char name[96];
};

static struct row rows[MAX_ROWS];
static unsigned nrows;

static void init_ram(uint8_t *ram)
{
    for (uint32_t a = 0; a < RAM_SIZE; a++)
        ram[a] = (uint8_t)((a & 0xFF) ^ 0xA5);
    for (uint32_t a = AT; a < AT + 16; a += 4)
        nc_put_be32(ram + a, NOP);
}

static void init_cpu(struct iss *s, uint8_t *ram)
{
    memset(s, 0, sizeof *s);
    iss_reset(s, ram, RAM_SIZE, AT);
    for (unsigned n = 3; n < 32; n++)
        s->r[n] = 0x1000u + 0x100u * n;
}

/* Apply "rN=v", "N=1", "m32[a]=v" ... items to a CPU and its RAM. Returns
 * false on a malformed item (a bug in the table). */
static bool apply_items(const char *items, struct iss *s, uint8_t *ram,
                        uint32_t *jump_target, unsigned *jump_slots,
                        const char **trap)
{
    char buf[160], *save = NULL, *tok;

    snprintf(buf, sizeof buf, "%s", items);
    for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        unsigned long v, a;
        unsigned r, w;
        char flag;

        if (sscanf(tok, "r%u=%li", &r, (long *)&v) == 2 && r < 32) {
            s->r[r] = (uint32_t)v;
        } else if (sscanf(tok, "m%u[%li]=%li", &w, (long *)&a, (long *)&v) == 3) {
            if (a + w / 8 > RAM_SIZE)
                return false;
            for (unsigned i = 0; i < w / 8; i++)
                ram[a + i] = (uint8_t)(v >> (w - 8 - 8 * i));
        } else if (sscanf(tok, "jump=%li/%u", (long *)&v, &r) == 2 && jump_target) {
            *jump_target = (uint32_t)v;
            *jump_slots = r;
        } else if (!strncmp(tok, "trap=", 5) && trap) {
            *trap = items + (tok - buf) + 5; /* rest of the string */
            break;
        } else if (sscanf(tok, "%c=%lu", &flag, &v) == 2 && strchr("NZVC", flag)) {
            bool b = v != 0;
            if (flag == 'N') s->n = b;
            if (flag == 'Z') s->z = b;
            if (flag == 'V') s->v = b;
            if (flag == 'C') s->c = b;
        } else {
            return false;
        }
    }
    return true;
}

/* Collapse runs of blanks to one space and trim, as the table is written. */
static void normalise(char *s)
{
    char *d = s, *start = s;

    for (; *s; s++) {
        if (*s == ' ' || *s == '\t') {
            if (d != start && d[-1] != ' ')
                *d++ = ' ';
        } else {
            *d++ = *s;
        }
    }
    if (d != start && d[-1] == ' ')
        d--;
    *d = 0;
}

static void test_vector(void **state)
{
    const struct row *row = *state;
    static uint8_t ram[RAM_SIZE], want_ram[RAM_SIZE];
    struct iss s, want;
    uint32_t jump_target = 0;
    unsigned jump_slots = 0;
    const char *trap = NULL;
    char dis[80];

    /* decode: the disassembler agrees with llvm-mc */
    iss_disas(row->insn, AT, dis, sizeof dis);
    normalise(dis);
    assert_string_equal(dis, row->asm_text);

    init_ram(ram);
    init_cpu(&s, ram);
    assert_true(apply_items(row->setup, &s, ram, NULL, NULL, NULL));
    nc_put_be32(ram + AT, row->insn);

    memcpy(want_ram, ram, RAM_SIZE);
    want = s;
    assert_true(apply_items(row->effect, &want, want_ram, &jump_target, &jump_slots,
                            &trap));

    iss_step(&s);
    if (trap) {
        assert_int_equal(s.status, ISS_TRAPPED);
        if (!strstr(s.trap_reason, trap))
            fail_msg("trap reason '%s' does not contain '%s'", s.trap_reason, trap);
        assert_int_equal(s.trap_pc, AT);
        assert_int_equal(s.trap_insn, row->insn);
        return;
    }
    assert_int_equal(s.status, ISS_RUNNING);
    for (unsigned r = 3; r < 32; r++)
        if (s.r[r] != want.r[r])
            fail_msg("r%u = 0x%08x, expected 0x%08x", r, s.r[r], want.r[r]);
    assert_int_equal(s.n, want.n);
    assert_int_equal(s.z, want.z);
    assert_int_equal(s.v, want.v);
    assert_int_equal(s.c, want.c);
    for (uint32_t a = 0; a < RAM_SIZE; a++)
        if (ram[a] != want_ram[a])
            fail_msg("memory byte 0x%04x = 0x%02x, expected 0x%02x", a, ram[a],
                     want_ram[a]);
    assert_int_equal(s.icount, 1);

    /* control flow: sequential, or the jump after exactly its delay slots */
    if (!jump_slots) {
        assert_int_equal(s.pc, AT + 4);
        iss_step(&s);
        assert_int_equal(s.pc, AT + 8);
        return;
    }
    for (unsigned k = 0; k < jump_slots; k++) {
        assert_int_equal(s.pc, AT + 4 + 4 * k);
        iss_step(&s);
        assert_int_equal(s.status, ISS_RUNNING);
    }
    assert_int_equal(s.pc, jump_target);
}

static int load_table(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    unsigned lineno = 0;

    if (!f) {
        fprintf(stderr, "vectors: cannot open %s\n", path);
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        struct row *r;
        char *fields[4], *p = line;

        lineno++;
        line[strcspn(line, "\n")] = 0;
        if (!line[0] || line[0] == '#')
            continue;
        for (int i = 0; i < 4; i++) {
            fields[i] = p;
            p = strchr(p, '|');
            if (!p && i < 3) {
                fprintf(stderr, "%s:%u: expected 4 '|'-separated fields\n", path, lineno);
                fclose(f);
                return -1;
            }
            if (p)
                *p++ = 0;
        }
        if (nrows == MAX_ROWS) {
            fprintf(stderr, "%s: more than %d rows\n", path, MAX_ROWS);
            fclose(f);
            return -1;
        }
        r = &rows[nrows++];
        r->line = lineno;
        r->insn = (uint32_t)strtoul(fields[0], NULL, 16);
        snprintf(r->asm_text, sizeof r->asm_text, "%s", fields[1]);
        snprintf(r->setup, sizeof r->setup, "%s", fields[2]);
        snprintf(r->effect, sizeof r->effect, "%s", fields[3]);
        snprintf(r->name, sizeof r->name, "vector %u: %08x %s%s%s", lineno, r->insn,
                 fields[1], fields[2][0] ? " with " : "", fields[2]);
    }
    fclose(f);
    return 0;
}

int main(int argc, char **argv)
{
    static struct CMUnitTest tests[MAX_ROWS];

    if (argc != 2) {
        fprintf(stderr, "usage: %s vectors.tbl\n", argv[0]);
        return 2;
    }
    if (load_table(argv[1]))
        return 2;
    for (unsigned i = 0; i < nrows; i++) {
        tests[i].name = rows[i].name;
        tests[i].test_func = test_vector;
        tests[i].initial_state = &rows[i];
    }
    return _cmocka_run_group_tests("isa-vectors", tests, nrows, NULL, NULL);
}
