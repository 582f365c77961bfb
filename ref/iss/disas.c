/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A LANai v11 disassembler for instruction traces. It prints LLVM's syntax
 * (sources first, destination last) including the aliases llvm-mc's
 * disassembler prints (nop, log_N, mov, bt %rX, b<cc> %rX), so a trace can be
 * compared with llvm-objdump output. tests/isa checks it against llvm-mc.
 */
#include "iss.h"

#include <stdio.h>

static const char *const reg_names[32] = {
    "r0", "r1", "pc", "r3", "sp", "fp", "r6", "r7", "rv", "r9", "rr1",
    "rr2", "r12", "r13", "r14", "rca", "r16", "r17", "r18", "r19", "r20",
    "r21", "r22", "r23", "r24", "r25", "r26", "r27", "r28", "r29", "r30",
    "r31",
};

static const char *const cond_names[16] = {
    "t", "f", "ugt", "ule", "ult", "uge", "ne", "eq",
    "vc", "vs", "pl", "mi", "ge", "lt", "gt", "le",
};

static const char *const alu_names[8] = {
    "add", "addc", "sub", "subb", "and", "or", "xor", "sh",
};

#define R(n) reg_names[(n) & 31]

static int sext(uint32_t x, unsigned bits)
{
    uint32_t m = 1u << (bits - 1);
    x &= (1u << bits) - 1;
    return (int)((x ^ m) - m);
}

/* Signed hex as llvm prints it: 0x10, -0x5. */
static void shex(char *buf, size_t len, int v)
{
    if (v < 0)
        snprintf(buf, len, "-0x%x", (unsigned)-(long long)v);
    else
        snprintf(buf, len, "0x%x", (unsigned)v);
}

/* RR/RRM operation name, or NULL for a reserved combination. */
static const char *rr_name(uint32_t w)
{
    unsigned bbb = (w >> 8) & 7, j = (w >> 3) & 31;

    if (bbb != 7)
        return j ? NULL : alu_names[bbb];
    if (j == 0x10)
        return "sh";
    if (j == 0x18)
        return "sha";
    return NULL;
}

/* The address part of an RM/RRM/SPLS operand following the P/Q rules. */
static void mem_operand(char *buf, size_t len, unsigned rs1, int off,
                        bool p, bool q, unsigned size)
{
    char o[16];

    shex(o, sizeof o, off);
    if (q && (off == (int)size || off == -(int)size)) {
        const char *d = off > 0 ? "++" : "--";
        if (p)
            snprintf(buf, len, "[%s%%%s]", d, R(rs1));
        else
            snprintf(buf, len, "[%%%s%s]", R(rs1), d);
    } else if (q) {
        snprintf(buf, len, p ? "%d[*%%%s]" : "%d[%%%s*]", off, R(rs1));
    } else if (p) {
        snprintf(buf, len, "%d[%%%s]", off, R(rs1));
    } else {
        snprintf(buf, len, "0[%%%s]", R(rs1));
    }
    (void)o;
}

char *iss_disas(uint32_t w, uint32_t pc, char *buf, size_t len)
{
    unsigned op = w >> 28, rd = (w >> 23) & 31, rs1 = (w >> 18) & 31;
    unsigned rs2 = (w >> 11) & 31;
    bool f = (w >> 17) & 1, h = (w >> 16) & 1;
    uint32_t k = w & 0xFFFF;
    char t[24], m[48];

    (void)pc;
    if (op < 8) {
        unsigned aaa = op;
        const char *fs = f ? ".f" : "";
        uint32_t imm;

        if (w >= 1 && w <= 6) {
            if (w == 1)
                snprintf(buf, len, "nop");
            else
                snprintf(buf, len, "log_%u", w - 2);
            return buf;
        }
        if (aaa == 7) {
            shex(t, sizeof t, sext(k, 16));
            snprintf(buf, len, "%s%s %%%s, %s, %%%s", h ? "sha" : "sh", fs,
                     R(rs1), t, R(rd));
            return buf;
        }
        if (aaa == 4)
            imm = h ? (k << 16 | 0xFFFF) : (0xFFFF0000u | k);
        else
            imm = h ? k << 16 : k;
        if (!f && rs1 == 0 && aaa == 0) {
            snprintf(buf, len, "mov 0x%x, %%%s", imm, R(rd));
            return buf;
        }
        if (!f && rs1 == 1 && aaa == 4) {
            snprintf(buf, len, "mov 0x%x, %%%s", imm, R(rd));
            return buf;
        }
        snprintf(buf, len, "%s%s %%%s, 0x%x, %%%s", alu_names[aaa], fs,
                 R(rs1), imm, R(rd));
        return buf;
    }

    switch (op) {
    case 8: case 9: case 10: case 11: {
        bool st = op & 1, p = (w >> 17) & 1, q = (w >> 16) & 1;
        const char *mn;
        if (op < 10) {
            mem_operand(m, sizeof m, rs1, sext(k, 16), p, q, 4);
            mn = st ? "st" : "ld";
        } else {
            unsigned yl = (w >> 1) & 3;
            bool e = w & 1;
            const char *o = rr_name(w);
            static const char *const ld_names[2][3] = {
                { "ld.h", "ld", "ld.b" }, { "uld.h", "uld", "uld.b" } };
            static const char *const st_names[3] = { "st.h", "st", "st.b" };
            if (!o || yl == 3 || (st && e))
                break;
            if (!p && !q)
                snprintf(m, sizeof m, "[%%%s %s %%%s]", R(rs1), o, R(rs2));
            else
                snprintf(m, sizeof m, p ? "[%s%%%s %s %%%s]" : "[%%%s%s %s %%%s]",
                         p && q ? "*" : "", R(rs1), o, R(rs2));
            if (!p && q)
                snprintf(m, sizeof m, "[%%%s* %s %%%s]", R(rs1), o, R(rs2));
            mn = st ? st_names[yl] : ld_names[e][yl];
        }
        if (st)
            snprintf(buf, len, "%s %%%s, %s", mn, R(rd), m);
        else
            snprintf(buf, len, "%s %s, %%%s", mn, m, R(rd));
        return buf;
    }
    case 12: {
        unsigned cc = (w & 7) << 1 | h, bbb = (w >> 8) & 7, j = (w >> 3) & 31;
        const char *o;
        char c[8] = "";
        if (bbb == 7 && j == 0) {
            if (f)
                break;
            snprintf(buf, len, "sel.%s %%%s, %%%s, %%%s", cond_names[cc],
                     R(rs1), R(rs2), R(rd));
            return buf;
        }
        o = rr_name(w);
        if (!o)
            break;
        if (rd == 2 && bbb == 5 && !f && rs1 == 0 && cc == 0) {
            snprintf(buf, len, "bt %%%s", R(rs2));
            return buf;
        }
        if (rd == 2 && bbb == 5 && !f && rs2 == 0 && cc > 1) {
            snprintf(buf, len, "b%s %%%s", cond_names[cc], R(rs1));
            return buf;
        }
        if (bbb == 0 && !f && rs2 == 0 && cc == 0) {
            snprintf(buf, len, "mov %%%s, %%%s", R(rs1), R(rd));
            return buf;
        }
        if (cc)
            snprintf(c, sizeof c, ".%s", cond_names[cc]);
        snprintf(buf, len, "%s%s%s %%%s, %%%s, %%%s", o, f ? ".f" : "", c,
                 R(rs1), R(rs2), R(rd));
        return buf;
    }
    case 13: {
        static const char *const sp[4] = { NULL, "popc", "leadz", "trailz" };
        unsigned o = w & 7;
        if (f || ((w >> 3) & 0x3FFF) || o < 1 || o > 3)
            break;
        snprintf(buf, len, "%s %%%s, %%%s", sp[o], R(rs1), R(rd));
        return buf;
    }
    case 14: {
        unsigned cc = ((w >> 25) & 7) << 1 | (w & 1);
        if (!((w >> 1) & 1)) {
            snprintf(buf, len, "b%s 0x%x", cond_names[cc], w & 0x01FFFFFCu);
            return buf;
        }
        if ((w >> 24) & 1) {
            if (((w >> 16) & 0xFF) != 0) /* Rs1 != 0 or reserved bits */
                break;
            snprintf(buf, len, "b%s.r 0x%x", cond_names[cc], w & 0xFFFC);
            return buf;
        }
        if (((w >> 23) & 1) || ((w >> 2) & 0xFFFF))
            break;
        snprintf(buf, len, "s%s %%%s", cond_names[cc], R(rs1));
        return buf;
    }
    default: {
        unsigned sub = (w >> 16) & 3;
        uint32_t a21 = ((w >> 18) & 31) << 16 | k;
        if (sub == 0) {
            snprintf(buf, len, "ld [0x%x], %%%s", a21, R(rd));
            return buf;
        }
        if (sub == 1) {
            snprintf(buf, len, "st %%%s, [0x%x]", R(rd), a21);
            return buf;
        }
        if (sub == 2) {
            snprintf(buf, len, "mov 0x%x, %%%s", a21, R(rd));
            return buf;
        }
        if (!((w >> 15) & 1)) {
            bool y = (w >> 14) & 1, st = (w >> 13) & 1, e = (w >> 12) & 1;
            bool p = (w >> 11) & 1, q = (w >> 10) & 1;
            const char *mn;
            if (st && e)
                break;
            mem_operand(m, sizeof m, rs1, sext(w & 0x3FF, 10), p, q, y ? 1 : 2);
            mn = st ? (y ? "st.b" : "st.h")
                    : y ? (e ? "uld.b" : "ld.b") : (e ? "uld.h" : "ld.h");
            if (st)
                snprintf(buf, len, "%s %%%s, %s", mn, R(rd), m);
            else
                snprintf(buf, len, "%s %s, %%%s", mn, m, R(rd));
            return buf;
        }
        break;
    }
    }
    snprintf(buf, len, ".word 0x%08x", w);
    return buf;
}
