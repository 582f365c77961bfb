/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The LANai v11 reference interpreter. Section numbers refer to
 * docs/lanai-isa.md. Choices where that document leaves the hardware
 * undefined are listed in docs/lanai-iss.md ("Undefined cases") and marked
 * "choice:" below; every one of them traps or is harmless for clang code.
 */
#include "iss.h"
#include "lanai_reguse.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Delay slots after a write to pc (section 7.1). */
enum { SLOTS_ALU = 1, SLOTS_LOAD = 2 };

static uint32_t sext(uint32_t x, unsigned bits)
{
    uint32_t m = 1u << (bits - 1);
    x &= (bits == 32) ? 0xFFFFFFFFu : ((1u << bits) - 1);
    return (x ^ m) - m;
}

void iss_trap(struct iss *s, const char *fmt, ...)
{
    va_list ap;

    if (s->status != ISS_RUNNING)
        return; /* keep the first reason */
    va_start(ap, fmt);
    vsnprintf(s->trap_reason, sizeof s->trap_reason, fmt, ap);
    va_end(ap);
    s->status = ISS_TRAPPED;
}

void iss_exit(struct iss *s, int code)
{
    if (s->status != ISS_RUNNING)
        return;
    s->exit_code = code;
    s->status = ISS_EXITED;
}

void iss_reset(struct iss *s, uint8_t *ram, uint32_t ram_size, uint32_t entry)
{
    iss_mmio_fn mmio = s->mmio;
    void *mmio_ctx = s->mmio_ctx;
    iss_trace_fn trace = s->trace;
    void *trace_ctx = s->trace_ctx;
    uint64_t limit = s->limit;
    bool strict = s->strict;

    memset(s, 0, sizeof *s);
    s->strict = strict;
    s->r[1] = 0xFFFFFFFFu;
    s->pc = entry;
    s->ram = ram;
    s->ram_size = ram_size;
    s->mmio = mmio;
    s->mmio_ctx = mmio_ctx;
    s->trace = trace;
    s->trace_ctx = trace_ctx;
    s->limit = limit;
}

uint32_t iss_get_reg(const struct iss *s, unsigned r)
{
    switch (r) {
    case 0: return 0;
    case 1: return 0xFFFFFFFFu;
    case 2: return s->pc; /* reading pc gives the executing instruction */
    default: return s->r[r & 31];
    }
}

/* Write a register. A write to pc becomes a pending jump after 'slots'
 * delay slots; writes to r0 and r1 are discarded. */
static void set_reg(struct iss *s, unsigned r, uint32_t v, unsigned slots)
{
    if (r == 0 || r == 1)
        return;
    if (r != 2) {
        s->r[r] = v;
        return;
    }
    /* choice: a second control transfer while one is pending (a jump in a
     * delay slot) is undefined on the hardware (section 7.1 rule 4); trap. */
    if (s->pend_slots) {
        iss_trap(s, "write to pc while a jump to 0x%08x is pending "
                    "(control transfer in a delay slot)", s->pend_target);
        return;
    }
    s->pend_slots = slots + 1; /* +1: the writing instruction itself */
    s->pend_target = v;
}

static bool cond_true(const struct iss *s, unsigned cc)
{
    bool r;

    switch (cc >> 1) {
    case 0: r = true; break;                          /* t / f     */
    case 1: r = s->c && !s->z; break;                 /* ugt / ule */
    case 2: r = !s->c; break;                         /* ult / uge */
    case 3: r = !s->z; break;                         /* ne / eq   */
    case 4: r = !s->v; break;                         /* vc / vs   */
    case 5: r = !s->n; break;                         /* pl / mi   */
    case 6: r = s->n == s->v; break;                  /* ge / lt   */
    default: r = !s->z && (s->n == s->v); break;      /* gt / le   */
    }
    return (cc & 1) ? !r : r;
}

/* add, addc, sub, subb, and, or, xor (op 0..6), with flags when f. */
static uint32_t alu(struct iss *s, unsigned op, uint32_t a, uint32_t b, bool f)
{
    uint32_t r, bb;
    uint64_t sum;
    unsigned cin;

    switch (op) {
    case 0: case 1: case 2: case 3:
        bb = (op >= 2) ? ~b : b;
        cin = (op == 0) ? 0 : (op == 2) ? 1 : s->c;
        sum = (uint64_t)a + bb + cin;
        r = (uint32_t)sum;
        if (f) {
            s->z = r == 0;
            s->n = r >> 31;
            s->c = (sum >> 32) & 1;            /* carry = NOT borrow */
            s->v = ((~(a ^ bb) & (a ^ r)) >> 31) & 1;
        }
        return r;
    case 4: r = a & b; break;
    case 5: r = a | b; break;
    default: r = a ^ b; break;
    }
    if (f) {
        /* choice: logical ops clear C and V (section 3.4 leaves C open). */
        s->z = r == 0;
        s->n = r >> 31;
        s->v = false;
        s->c = false;
    }
    return r;
}

/* sh / sha by a signed amount: positive left, negative right, taken
 * modulo 32 in its direction (section 5.9). */
static uint32_t shift(struct iss *s, uint32_t a, uint32_t amount, bool arith,
                      bool f)
{
    int64_t amt = (int32_t)amount;
    uint32_t r;
    bool carry = false;
    unsigned k;

    if (amt >= 0) {
        k = (unsigned)(amt % 32);
        r = a << k;
        carry = k ? (a >> (32 - k)) & 1 : 0; /* last bit shifted out */
    } else {
        k = (unsigned)((-amt) % 32);
        if (arith)
            r = k ? (uint32_t)(((int32_t)a) >> k) : a;
        else
            r = a >> k;
    }
    if (f) {
        s->z = r == 0;
        s->n = r >> 31;
        s->v = false;
        s->c = carry; /* right shifts clear C */
    }
    return r;
}

static bool in_ram(const struct iss *s, uint32_t addr, unsigned size)
{
    return addr < s->ram_size && size <= s->ram_size - addr;
}

static bool load(struct iss *s, uint32_t addr, unsigned size, uint32_t *val)
{
    const uint8_t *p;

    if (addr & (size - 1)) {
        iss_trap(s, "misaligned %u-byte load from 0x%08x", size, addr);
        return false;
    }
    if (!in_ram(s, addr, size)) {
        if (s->mmio && s->mmio(s, s->mmio_ctx, addr, size, false, val))
            return s->status == ISS_RUNNING;
        iss_trap(s, "%u-byte load from unmapped address 0x%08x", size, addr);
        return false;
    }
    p = s->ram + addr;
    *val = size == 4 ? nc_get_be32(p) : size == 2 ? nc_get_be16(p) : p[0];
    return true;
}

static bool store(struct iss *s, uint32_t addr, unsigned size, uint32_t val)
{
    uint8_t *p;

    if (addr & (size - 1)) {
        iss_trap(s, "misaligned %u-byte store to 0x%08x", size, addr);
        return false;
    }
    if (!in_ram(s, addr, size)) {
        if (size < 4)
            val &= (1u << (8 * size)) - 1;
        if (s->mmio && s->mmio(s, s->mmio_ctx, addr, size, true, &val))
            return s->status == ISS_RUNNING;
        iss_trap(s, "%u-byte store to unmapped address 0x%08x", size, addr);
        return false;
    }
    p = s->ram + addr;
    if (size == 4) {
        nc_put_be32(p, val);
    } else if (size == 2) {
        nc_put_be16(p, (uint16_t)val);
    } else {
        p[0] = (uint8_t)val;
    }
    return true;
}

/*
 * The memory access common to RM, RRM and SPLS: P/Q select the address and
 * write-back (section 5.3), 'opv' is Rs1 combined with the offset.
 */
static void mem_access(struct iss *s, bool is_store, unsigned rd, unsigned rs1,
                       uint32_t opv, bool p, bool q, unsigned size, bool zext)
{
    uint32_t base = iss_get_reg(s, rs1);
    uint32_t ea = p ? opv : base;
    uint32_t val;

    if (q && rs1 == 2) {
        iss_trap(s, "write-back to pc");
        return;
    }
    /* choice: a load with write-back into its own base register is
     * undefined (section 5.3); trap rather than pick a winner. */
    if (q && !is_store && rd == rs1 && rd > 1) {
        iss_trap(s, "load with write-back into its base register r%u", rd);
        return;
    }
    if (is_store) {
        /* A store with write-back stores the value Rd had before. */
        if (!store(s, ea, size, iss_get_reg(s, rd)))
            return;
        if (q)
            set_reg(s, rs1, opv, SLOTS_ALU);
        return;
    }
    if (!load(s, ea, size, &val))
        return;
    if (size == 2 && !zext)
        val = sext(val, 16);
    else if (size == 1 && !zext)
        val = sext(val, 8);
    if (q)
        set_reg(s, rs1, opv, SLOTS_ALU);
    set_reg(s, rd, val, SLOTS_LOAD);
}

static void exec_ri(struct iss *s, uint32_t w)
{
    unsigned aaa = (w >> 28) & 7, rd = (w >> 23) & 31, rs1 = (w >> 18) & 31;
    bool f = (w >> 17) & 1, h = (w >> 16) & 1;
    uint32_t k = w & 0xFFFF, a = iss_get_reg(s, rs1), imm, r;

    if (aaa == 7) {
        r = shift(s, a, sext(k, 16), h, f);
    } else {
        if (aaa == 4)
            imm = h ? (k << 16 | 0xFFFF) : (0xFFFF0000u | k);
        else
            imm = h ? k << 16 : k;
        r = alu(s, aaa, a, imm, f);
    }
    set_reg(s, rd, r, SLOTS_ALU);
}

/* The operation shared by RR and RRM: BBB/JJJJJ select an ALU op or a
 * shift. Returns false (after trapping) on a reserved combination. */
static bool rr_op(struct iss *s, uint32_t w, uint32_t a, uint32_t b, bool f,
                  uint32_t *out)
{
    unsigned bbb = (w >> 8) & 7, j = (w >> 3) & 31;

    if (bbb != 7) {
        if (j != 0) {
            iss_trap(s, "reserved encoding: ALU op %u with JJJJJ=%u", bbb, j);
            return false;
        }
        *out = alu(s, bbb, a, b, f);
        return true;
    }
    if (j == 0x10 || j == 0x18) {
        *out = shift(s, a, b, j == 0x18, f);
        return true;
    }
    iss_trap(s, "reserved encoding: BBB=111 with JJJJJ=0x%02x", j);
    return false;
}

static void exec_rr(struct iss *s, uint32_t w)
{
    unsigned rd = (w >> 23) & 31, rs1 = (w >> 18) & 31, rs2 = (w >> 11) & 31;
    bool f = (w >> 17) & 1;
    unsigned cc = (w & 7) << 1 | ((w >> 16) & 1);
    unsigned bbb = (w >> 8) & 7, j = (w >> 3) & 31;
    uint32_t a = iss_get_reg(s, rs1), b = iss_get_reg(s, rs2), r;

    if (bbb == 7 && j == 0) { /* sel.<cc> */
        if (f) {
            iss_trap(s, "reserved encoding: sel with F=1");
            return;
        }
        set_reg(s, rd, cond_true(s, cc) ? a : b, SLOTS_ALU);
        return;
    }
    /* choice: a predicated instruction whose condition is false does
     * nothing at all, flags included (section 14 question 3). Reserved
     * encodings trap whatever the condition. */
    if (bbb != 7 ? j != 0 : (j != 0x10 && j != 0x18)) {
        rr_op(s, w, a, b, f, &r); /* traps */
        return;
    }
    if (!cond_true(s, cc))
        return;
    if (rr_op(s, w, a, b, f, &r))
        set_reg(s, rd, r, SLOTS_ALU);
}

static void exec_rm(struct iss *s, uint32_t w)
{
    unsigned rd = (w >> 23) & 31, rs1 = (w >> 18) & 31;
    bool st = (w >> 28) & 1, p = (w >> 17) & 1, q = (w >> 16) & 1;
    uint32_t opv = iss_get_reg(s, rs1) + sext(w & 0xFFFF, 16);

    mem_access(s, st, rd, rs1, opv, p, q, 4, false);
}

static void exec_rrm(struct iss *s, uint32_t w)
{
    unsigned rd = (w >> 23) & 31, rs1 = (w >> 18) & 31, rs2 = (w >> 11) & 31;
    bool st = (w >> 28) & 1, p = (w >> 17) & 1, q = (w >> 16) & 1;
    unsigned yl = (w >> 1) & 3, bbb = (w >> 8) & 7, size;
    bool e = w & 1;
    uint32_t opv;

    if (yl == 3) {
        iss_trap(s, "reserved encoding: RRM width YL=11");
        return;
    }
    if (st && e) {
        iss_trap(s, "reserved encoding: RRM store with E=1");
        return;
    }
    if (!rr_op(s, w, iss_get_reg(s, rs1), iss_get_reg(s, rs2), false, &opv))
        return;
    /* A shift as address op forces a word access (section 5.4). */
    size = (bbb == 7 || yl == 1) ? 4 : (yl == 0) ? 2 : 1;
    mem_access(s, st, rd, rs1, opv, p, q, size, e);
}

static void exec_special(struct iss *s, uint32_t w)
{
    unsigned rd = (w >> 23) & 31, rs1 = (w >> 18) & 31, op = w & 7;
    uint32_t a = iss_get_reg(s, rs1), r = 0;
    unsigned i;

    if (((w >> 17) & 1) || ((w >> 3) & 0x3FFF) || op < 1 || op > 3) {
        iss_trap(s, "reserved encoding: special op %u", op);
        return;
    }
    for (i = 0; i < 32; i++) {
        if (op == 1) {
            r += (a >> i) & 1;                      /* popc */
        } else if (op == 2) {
            if ((a >> (31 - i)) & 1)                /* leadz */
                break;
            r++;
        } else {
            if ((a >> i) & 1)                       /* trailz */
                break;
            r++;
        }
    }
    set_reg(s, rd, r, SLOTS_ALU);
}

static void exec_branch(struct iss *s, uint32_t w)
{
    unsigned cc = ((w >> 25) & 7) << 1 | (w & 1);

    if (((w >> 1) & 1) == 0) { /* BR: absolute, zero-extended target */
        if (cond_true(s, cc))
            set_reg(s, 2, w & 0x01FFFFFCu, SLOTS_ALU);
        return;
    }
    if ((w >> 24) & 1) {
        /* choice: BRR's base address is unresolved (section 5.10) and clang
         * never emits it; trap instead of guessing. */
        iss_trap(s, "unsupported instruction: BRR (relative branch)");
        return;
    }
    if (((w >> 23) & 1) || ((w >> 2) & 0xFFFF)) {
        iss_trap(s, "reserved encoding: SCC with non-zero reserved bits");
        return;
    }
    set_reg(s, (w >> 18) & 31, cond_true(s, cc), SLOTS_ALU);
}

static void exec_f(struct iss *s, uint32_t w)
{
    unsigned rd = (w >> 23) & 31, sub = (w >> 16) & 3;
    uint32_t a21 = ((w >> 18) & 31) << 16 | (w & 0xFFFF);
    uint32_t val;

    if (sub == 0 || sub == 1) {
        /* SLS: the 21-bit address is SIGN-extended and A[1:0] ignored.
         * LLVM's format description says zero-extended, but clang 14
         * selects SLS for a constant address only when it fits in 21
         * signed bits (*(int *)0xFFF00000 -> ld [0x100000]; 0x00100000 is
         * built in a register), so the code it emits is only correct with
         * sign extension. (The special registers at 0xFFFFFE00 are reached
         * with RM off r0, ld -432[%r0], not SLS.) docs/lanai-iss.md. */
        uint32_t ea = sext(a21, 21) & ~3u;
        if (sub == 1) {
            store(s, ea, 4, iss_get_reg(s, rd));
        } else if (load(s, ea, 4, &val)) {
            set_reg(s, rd, val, SLOTS_LOAD);
        }
        return;
    }
    if (sub == 2) {                      /* SLI: timing as a load */
        set_reg(s, rd, a21, SLOTS_LOAD);
        return;
    }
    /* SPLS */
    if ((w >> 15) & 1) {
        iss_trap(s, "reserved encoding: SPLS with insn[15]=1");
        return;
    }
    {
        unsigned rs1 = (w >> 18) & 31;
        bool y = (w >> 14) & 1, st = (w >> 13) & 1, e = (w >> 12) & 1;
        bool p = (w >> 11) & 1, q = (w >> 10) & 1;
        uint32_t opv = iss_get_reg(s, rs1) + sext(w & 0x3FF, 10);

        if (st && e) {
            iss_trap(s, "reserved encoding: SPLS store with E=1");
            return;
        }
        mem_access(s, st, rd, rs1, opv, p, q, y ? 1 : 2, e);
    }
}

/* Strict mode: does an instruction that touches the registers m use one
 * a load of the last two instructions has not written yet? Traps (before
 * it executes) if so. */
static bool hazard(struct iss *s, uint32_t m)
{
    unsigned k;

    for (k = 0; k < 2; k++) {
        unsigned r = s->hz_reg[k];
        if (r && (m >> r) & 1) {
            iss_trap(s, "load-use hazard: r%u loaded by the instruction at 0x%08x, "
                    "%u before (strict: LANai 9.0/9.1 have no load interlock)",
                     r, s->hz_pc[k], k + 1);
            return true;
        }
    }
    return false;
}

enum iss_status iss_step(struct iss *s)
{
    uint32_t cur = s->pc, w, nxt;
    unsigned pend_before;
    struct lanai_reguse use = { 0 };

    if (s->status != ISS_RUNNING)
        return s->status;
    if (s->limit && s->icount >= s->limit) {
        s->status = ISS_LIMIT;
        return s->status;
    }
    if ((cur & 3) || !in_ram(s, cur, 4)) {
        s->trap_pc = cur;
        s->trap_insn = 0;
        iss_trap(s, (cur & 3) ? "misaligned pc" : "instruction fetch outside RAM");
        return s->status;
    }
    w = nc_get_be32(s->ram + cur);
    pend_before = s->pend_slots;
    if (s->strict)
        use = lanai_reguse(w);

    if (s->strict && hazard(s, use.touched)) {
        s->trap_pc = cur;
        s->trap_insn = w;
        return s->status;
    }

    switch (w >> 28) {
    case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7:
        exec_ri(s, w); break;
    case 8: case 9:   exec_rm(s, w); break;
    case 10: case 11: exec_rrm(s, w); break;
    case 12:          exec_rr(s, w); break;
    case 13:          exec_special(s, w); break;
    case 14:          exec_branch(s, w); break;
    default:          exec_f(s, w); break;
    }

    if (s->status == ISS_TRAPPED) {
        s->trap_pc = cur;
        s->trap_insn = w;
        return s->status;
    }
    s->icount++;
    if (s->strict) {
        s->hz_reg[1] = s->hz_reg[0];
        s->hz_pc[1] = s->hz_pc[0];
        s->hz_reg[0] = use.load_rd;
        s->hz_pc[0] = cur;
    }
    if (s->trace)
        s->trace(s, s->trace_ctx, cur, w);

    nxt = cur + 4;
    (void)pend_before;
    if (s->pend_slots && --s->pend_slots == 0)
        nxt = s->pend_target;
    s->pc = nxt;
    return s->status;
}

enum iss_status iss_run(struct iss *s)
{
    while (iss_step(s) == ISS_RUNNING)
        ;
    return s->status;
}
