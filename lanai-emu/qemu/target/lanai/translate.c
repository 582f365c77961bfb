/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * LANai v11 translation to TCG. Section numbers refer to
 * docs/lanai-isa.md; every choice for an undefined case is the one
 * ref/iss makes (docs/lanai-iss.md), because ref/iss is the golden model.
 *
 * Delay slots. A write to pc does not jump at once: like ref/iss, the
 * translator keeps a count of instructions left before the jump (dc->pend),
 * 1 after an ALU write or branch and 2 after a load or SLI. The count is
 * static inside a translation block and is carried between blocks in the TB
 * flags (env->pend), the target in env->pend_target. A conditional branch
 * stores its condition in env->pend_taken and is resolved when its delay
 * slot ends, with one direct exit for each outcome. A conditional pending
 * jump never crosses a TB boundary: it is turned into a plain count of 0 or
 * n at the end of the block, so every block starts in a state known when it
 * was translated.
 *
 * Cycles. env->cycles is brought up to date (to the instructions retired
 * before the current one) right before every memory access, so a device
 * sees the exact count, and at every exit of a block. Traps pass the part
 * not yet added to their helper.
 */
#include "qemu/osdep.h"
#include "cpu.h"
#include "exec/exec-all.h"
#include "tcg/tcg-op.h"
#include "exec/cpu_ldst.h"
#include "exec/helper-proto.h"
#include "exec/helper-gen.h"
#include "exec/log.h"
#include "exec/translator.h"
#include "exec/gen-icount.h"
#include "trap.h"
#include "nicoll/lanai_reguse.h"

/* The pending jump is resolved at the end of this block. */
#define DISAS_JUMP    DISAS_TARGET_0

typedef struct DisasContext {
    DisasContextBase base;
    CPULanaiState *env;
    uint32_t pc;        /* address of the instruction being translated */
    uint32_t insn;
    unsigned pend;      /* instructions left before the pending jump */
    bool pend_cond;     /* ... taken only if env->pend_taken != 0 */
    int64_t pend_imm;   /* its target when known here, else -1 */
    unsigned start_pend;/* env->pend when the block began (TB flags) */
    uint32_t cyc;       /* cycles of the instructions retired so far */
    uint32_t cyc_synced;/* part of cyc already added to env->cycles */
    bool io_end;        /* this instruction is a register access: end here */
} DisasContext;

static TCGv_i32 cpu_r[32];
static TCGv_i32 cpu_pc, cpu_NF, cpu_ZF, cpu_CF, cpu_VF;
static TCGv_i32 cpu_pend, cpu_pend_target, cpu_pend_taken;
static TCGv_i64 cpu_cycles;

static const char *const reg_names[32] = {
    "r0", "r1", "pc", "r3", "sp", "fp", "r6", "r7", "rv", "r9", "rr1",
    "rr2", "r12", "r13", "r14", "rca", "r16", "r17", "r18", "r19", "r20",
    "r21", "r22", "r23", "r24", "r25", "r26", "r27", "r28", "r29", "r30",
    "r31",
};

void lanai_cpu_tcg_init(void)
{
    int i;

#define ENV(f) offsetof(CPULanaiState, f)
    for (i = 3; i < 32; i++) {
        cpu_r[i] = tcg_global_mem_new_i32(cpu_env, ENV(r[i]), reg_names[i]);
    }
    cpu_pc = tcg_global_mem_new_i32(cpu_env, ENV(pc), "pc_");
    cpu_NF = tcg_global_mem_new_i32(cpu_env, ENV(NF), "NF");
    cpu_ZF = tcg_global_mem_new_i32(cpu_env, ENV(ZF), "ZF");
    cpu_CF = tcg_global_mem_new_i32(cpu_env, ENV(CF), "CF");
    cpu_VF = tcg_global_mem_new_i32(cpu_env, ENV(VF), "VF");
    cpu_pend = tcg_global_mem_new_i32(cpu_env, ENV(pend), "pend");
    cpu_pend_target = tcg_global_mem_new_i32(cpu_env, ENV(pend_target),
                                             "pend_target");
    cpu_pend_taken = tcg_global_mem_new_i32(cpu_env, ENV(pend_taken),
                                            "pend_taken");
    cpu_cycles = tcg_global_mem_new_i64(cpu_env, ENV(cycles), "cycles");
#undef ENV
}

static int times_4(DisasContext *dc, int x)
{
    return x * 4;
}

#include "decode-insns.c.inc"

/* ---- cycles and traps ---------------------------------------------- */

/* Add the cycles of the instructions retired before the current one. */
static void sync_cycles(DisasContext *dc, uint32_t upto)
{
    if (upto != dc->cyc_synced) {
        tcg_gen_addi_i64(cpu_cycles, cpu_cycles, upto - dc->cyc_synced);
        dc->cyc_synced = upto;
    }
}

/*
 * Trap at the current instruction. May be emitted on a conditional path,
 * so it changes no translation state: the cycles still owed go to the
 * helper as an argument.
 */
static void gen_trap_cond(DisasContext *dc, enum lanai_trap code)
{
    tcg_gen_movi_i32(cpu_pc, dc->pc);
    gen_helper_trap(cpu_env, tcg_constant_i32(code),
                    tcg_constant_i32(dc->cyc - dc->cyc_synced));
}

static bool gen_trap(DisasContext *dc, enum lanai_trap code)
{
    gen_trap_cond(dc, code);
    dc->base.is_jmp = DISAS_NORETURN;
    return true;
}

/* ---- registers ----------------------------------------------------- */

/* Read a register: r0 = 0, r1 = ~0, pc = this instruction's address. */
static TCGv_i32 reg(DisasContext *dc, int r)
{
    switch (r) {
    case 0:
        return tcg_constant_i32(0);
    case 1:
        return tcg_constant_i32(-1);
    case 2:
        return tcg_constant_i32(dc->pc);
    default:
        return cpu_r[r];
    }
}

/* A write to pc: a jump after 'slots' more instructions (section 7.1). */
static void gen_jump(DisasContext *dc, TCGv_i32 target, int64_t imm,
                     unsigned slots)
{
    /*
     * A second control transfer while one is pending is undefined on the
     * hardware; ref/iss traps. (A conditional pending jump never reaches
     * here: the block ends before any instruction that may write pc.)
     */
    if (dc->pend) {
        gen_trap_cond(dc, LANAI_TRAP_JUMP_PENDING);
        return;
    }
    if (imm >= 0) {
        tcg_gen_movi_i32(cpu_pend_target, imm);
    } else {
        tcg_gen_mov_i32(cpu_pend_target, target);
    }
    dc->pend = slots + 1; /* +1: counted down after this instruction too */
    dc->pend_cond = false;
    dc->pend_imm = imm;
}

static void set_reg(DisasContext *dc, int r, TCGv_i32 v, unsigned slots)
{
    if (r == 0 || r == 1) {
        return;
    }
    if (r == 2) {
        gen_jump(dc, v, -1, slots);
        return;
    }
    tcg_gen_mov_i32(cpu_r[r], v);
}

/* ---- conditions (section 3.1) -------------------------------------- */

/* dst = condition cc (DDDI) holds ? 1 : 0 */
static void gen_cond(TCGv_i32 dst, int cc)
{
    TCGv_i32 t;

    switch (cc >> 1) {
    case 0: /* t */
        tcg_gen_movi_i32(dst, 1);
        break;
    case 1: /* ugt: C && !Z */
        t = tcg_temp_new_i32();
        tcg_gen_setcondi_i32(TCG_COND_NE, t, cpu_ZF, 0);
        tcg_gen_and_i32(dst, t, cpu_CF);
        tcg_temp_free_i32(t);
        break;
    case 2: /* ult: !C */
        tcg_gen_setcondi_i32(TCG_COND_EQ, dst, cpu_CF, 0);
        break;
    case 3: /* ne: !Z */
        tcg_gen_setcondi_i32(TCG_COND_NE, dst, cpu_ZF, 0);
        break;
    case 4: /* vc: !V */
        tcg_gen_setcondi_i32(TCG_COND_GE, dst, cpu_VF, 0);
        break;
    case 5: /* pl: !N */
        tcg_gen_setcondi_i32(TCG_COND_GE, dst, cpu_NF, 0);
        break;
    case 6: /* ge: N == V */
        t = tcg_temp_new_i32();
        tcg_gen_xor_i32(t, cpu_NF, cpu_VF);
        tcg_gen_setcondi_i32(TCG_COND_GE, dst, t, 0);
        tcg_temp_free_i32(t);
        break;
    default: /* gt: !Z && N == V */
        t = tcg_temp_new_i32();
        tcg_gen_xor_i32(t, cpu_NF, cpu_VF);
        tcg_gen_setcondi_i32(TCG_COND_GE, t, t, 0);
        tcg_gen_setcondi_i32(TCG_COND_NE, dst, cpu_ZF, 0);
        tcg_gen_and_i32(dst, dst, t);
        tcg_temp_free_i32(t);
        break;
    }
    if (cc & 1) {
        tcg_gen_xori_i32(dst, dst, 1);
    }
}

/* ---- ALU (section 3.4) --------------------------------------------- */

enum { OP_ADD, OP_ADDC, OP_SUB, OP_SUBB, OP_AND, OP_OR, OP_XOR };

/* dst = a op b for op 0..6, setting the flags when f. */
static void gen_alu(TCGv_i32 dst, int op, TCGv_i32 a, TCGv_i32 b, bool f)
{
    TCGv_i32 zero, t, nb;

    if (!f) {
        switch (op) {
        case OP_ADD:
            tcg_gen_add_i32(dst, a, b);
            return;
        case OP_ADDC:
            tcg_gen_add_i32(dst, a, b);
            tcg_gen_add_i32(dst, dst, cpu_CF);
            return;
        case OP_SUB:
            tcg_gen_sub_i32(dst, a, b);
            return;
        case OP_SUBB:
            /* a + ~b + C */
            t = tcg_temp_new_i32();
            tcg_gen_not_i32(t, b);
            tcg_gen_add_i32(t, t, cpu_CF);
            tcg_gen_add_i32(dst, a, t);
            tcg_temp_free_i32(t);
            return;
        case OP_AND:
            tcg_gen_and_i32(dst, a, b);
            return;
        case OP_OR:
            tcg_gen_or_i32(dst, a, b);
            return;
        default:
            tcg_gen_xor_i32(dst, a, b);
            return;
        }
    }

    zero = tcg_constant_i32(0);
    t = tcg_temp_new_i32();
    switch (op) {
    case OP_ADD:
    case OP_ADDC:
    case OP_SUB:
    case OP_SUBB:
        /* r = a + b' + cin with b' = ~b for sub/subb: C = carry out,
         * which for a subtraction is NOT borrow (section 3.2). */
        nb = tcg_temp_new_i32();
        if (op >= OP_SUB) {
            tcg_gen_not_i32(nb, b);
        } else {
            tcg_gen_mov_i32(nb, b);
        }
        if (op == OP_ADD) {
            tcg_gen_add2_i32(cpu_NF, cpu_CF, a, zero, nb, zero);
        } else {
            /* cin: 1 for sub, C for addc/subb */
            tcg_gen_add2_i32(t, cpu_CF, a, zero,
                             op == OP_SUB ? tcg_constant_i32(1) : cpu_CF,
                             zero);
            tcg_gen_add2_i32(cpu_NF, cpu_CF, t, cpu_CF, nb, zero);
        }
        /* V: a and b' have the same sign and r's differs */
        tcg_gen_xor_i32(cpu_VF, cpu_NF, a);
        tcg_gen_xor_i32(t, a, nb);
        tcg_gen_andc_i32(cpu_VF, cpu_VF, t);
        tcg_temp_free_i32(nb);
        break;
    case OP_AND:
        tcg_gen_and_i32(cpu_NF, a, b);
        goto logical;
    case OP_OR:
        tcg_gen_or_i32(cpu_NF, a, b);
        goto logical;
    default:
        tcg_gen_xor_i32(cpu_NF, a, b);
    logical:
        /* choice (ref/iss): logical .f clears C and V */
        tcg_gen_movi_i32(cpu_CF, 0);
        tcg_gen_movi_i32(cpu_VF, 0);
        break;
    }
    tcg_gen_mov_i32(cpu_ZF, cpu_NF);
    tcg_gen_mov_i32(dst, cpu_NF);
    tcg_temp_free_i32(t);
}

/*
 * sh / sha by a signed amount (section 5.9): positive left, negative
 * right, modulo 32 in its direction. Flags when f: Z, N from the result,
 * V clear, C the last bit shifted out to the left (0 for right shifts).
 */
static void gen_shift(TCGv_i32 dst, TCGv_i32 a, TCGv_i32 amount, bool arith,
                      bool f)
{
    TCGv_i32 kl = tcg_temp_new_i32();
    TCGv_i32 kr = tcg_temp_new_i32();
    TCGv_i32 l = tcg_temp_new_i32();
    TCGv_i32 r = tcg_temp_new_i32();
    TCGv_i32 zero = tcg_constant_i32(0);

    tcg_gen_andi_i32(kl, amount, 31);
    tcg_gen_neg_i32(kr, amount);
    tcg_gen_andi_i32(kr, kr, 31);
    tcg_gen_shl_i32(l, a, kl);
    if (arith) {
        tcg_gen_sar_i32(r, a, kr);
    } else {
        tcg_gen_shr_i32(r, a, kr);
    }
    if (f) {
        /* carry = (a >> (32 - kl)) & 1, 0 when kl == 0 */
        TCGv_i32 c = tcg_temp_new_i32();
        tcg_gen_shri_i32(c, a, 1);
        tcg_gen_xori_i32(kl, kl, 31);           /* 31 - kl */
        tcg_gen_shr_i32(c, c, kl);
        tcg_gen_andi_i32(c, c, 1);
        tcg_gen_movcond_i32(TCG_COND_LT, cpu_CF, amount, zero, zero, c);
        tcg_temp_free_i32(c);
        tcg_gen_movcond_i32(TCG_COND_LT, cpu_NF, amount, zero, r, l);
        tcg_gen_mov_i32(cpu_ZF, cpu_NF);
        tcg_gen_movi_i32(cpu_VF, 0);
        tcg_gen_mov_i32(dst, cpu_NF);
    } else {
        tcg_gen_movcond_i32(TCG_COND_LT, dst, amount, zero, r, l);
    }
    tcg_temp_free_i32(kl);
    tcg_temp_free_i32(kr);
    tcg_temp_free_i32(l);
    tcg_temp_free_i32(r);
}

/* Shift by a constant amount (RI). */
static void gen_shifti(TCGv_i32 dst, TCGv_i32 a, int32_t amt, bool arith,
                       bool f)
{
    unsigned k = (amt >= 0 ? amt : -(int64_t)amt) % 32;
    TCGv_i32 res = f ? cpu_NF : dst;

    if (amt >= 0) {
        tcg_gen_shli_i32(res, a, k);
    } else if (arith) {
        tcg_gen_sari_i32(res, a, k);
    } else {
        tcg_gen_shri_i32(res, a, k);
    }
    if (f) {
        /* a has not been overwritten: res is NF, and a is never NF */
        if (amt >= 0 && k) {
            tcg_gen_extract_i32(cpu_CF, a, 32 - k, 1);
        } else {
            tcg_gen_movi_i32(cpu_CF, 0);
        }
        tcg_gen_mov_i32(cpu_ZF, cpu_NF);
        tcg_gen_movi_i32(cpu_VF, 0);
        tcg_gen_mov_i32(dst, cpu_NF);
    }
}

/* ---- RI (section 5.1) ---------------------------------------------- */

static bool do_ri(DisasContext *dc, arg_ri *a, int op)
{
    uint32_t imm;
    TCGv_i32 dst = tcg_temp_new_i32();

    if (op == OP_AND) {
        imm = a->h ? (uint32_t)a->k << 16 | 0xFFFF : 0xFFFF0000u | a->k;
    } else {
        imm = a->h ? (uint32_t)a->k << 16 : a->k;
    }
    gen_alu(dst, op, reg(dc, a->rs1), tcg_constant_i32(imm), a->f);
    set_reg(dc, a->rd, dst, LANAI_SLOTS_ALU);
    tcg_temp_free_i32(dst);
    return true;
}

static bool trans_ADD_ri(DisasContext *dc, arg_ri *a)
{
    return do_ri(dc, a, OP_ADD);
}

static bool trans_ADDC_ri(DisasContext *dc, arg_ri *a)
{
    return do_ri(dc, a, OP_ADDC);
}

static bool trans_SUB_ri(DisasContext *dc, arg_ri *a)
{
    return do_ri(dc, a, OP_SUB);
}

static bool trans_SUBB_ri(DisasContext *dc, arg_ri *a)
{
    return do_ri(dc, a, OP_SUBB);
}

static bool trans_AND_ri(DisasContext *dc, arg_ri *a)
{
    return do_ri(dc, a, OP_AND);
}

static bool trans_OR_ri(DisasContext *dc, arg_ri *a)
{
    return do_ri(dc, a, OP_OR);
}

static bool trans_XOR_ri(DisasContext *dc, arg_ri *a)
{
    return do_ri(dc, a, OP_XOR);
}

/* H selects sha (arithmetic); the amount is sext(K, 16). */
static bool trans_SH_ri(DisasContext *dc, arg_ri *a)
{
    TCGv_i32 dst = tcg_temp_new_i32();

    gen_shifti(dst, reg(dc, a->rs1), (int16_t)a->k, a->h, a->f);
    set_reg(dc, a->rd, dst, LANAI_SLOTS_ALU);
    tcg_temp_free_i32(dst);
    return true;
}

/* ---- RR (section 5.2) ---------------------------------------------- */

/* op: 0..6 ALU, 7 sh, 8 sha */
static void gen_rr_op(TCGv_i32 dst, int op, TCGv_i32 a, TCGv_i32 b, bool f)
{
    if (op < 7) {
        gen_alu(dst, op, a, b, f);
    } else {
        gen_shift(dst, a, b, op == 8, f);
    }
}

/*
 * A predicated RR op. choice (ref/iss): when the condition is false the
 * instruction does nothing at all, flags included.
 */
static bool do_rr(DisasContext *dc, arg_rr *a, int op)
{
    TCGv_i32 dst, c;
    TCGLabel *skip;

    if (a->cc == 1) {          /* "f": never */
        return true;
    }
    if (a->cc == 0) {          /* "t": always */
        dst = tcg_temp_new_i32();
        gen_rr_op(dst, op, reg(dc, a->rs1), reg(dc, a->rs2), a->f);
        set_reg(dc, a->rd, dst, LANAI_SLOTS_ALU);
        tcg_temp_free_i32(dst);
        return true;
    }

    skip = gen_new_label();
    c = tcg_temp_new_i32();
    gen_cond(c, a->cc);
    if (a->rd == 2 && !dc->pend) {
        /* A conditional jump (b<cc> %rX): resolved after its slot. */
        tcg_gen_mov_i32(cpu_pend_taken, c);
        tcg_gen_brcondi_i32(TCG_COND_EQ, c, 0, skip);
        tcg_temp_free_i32(c);
        dst = tcg_temp_new_i32();
        gen_rr_op(dst, op, reg(dc, a->rs1), reg(dc, a->rs2), a->f);
        tcg_gen_mov_i32(cpu_pend_target, dst);
        tcg_temp_free_i32(dst);
        gen_set_label(skip);
        dc->pend = LANAI_SLOTS_ALU + 1;
        dc->pend_cond = true;
        dc->pend_imm = -1;
        return true;
    }
    tcg_gen_brcondi_i32(TCG_COND_EQ, c, 0, skip);
    tcg_temp_free_i32(c);
    dst = tcg_temp_new_i32();
    gen_rr_op(dst, op, reg(dc, a->rs1), reg(dc, a->rs2), a->f);
    /* rd == pc here only with a jump pending: set_reg emits the trap */
    set_reg(dc, a->rd, dst, LANAI_SLOTS_ALU);
    tcg_temp_free_i32(dst);
    gen_set_label(skip);
    return true;
}

static bool trans_ADD_rr(DisasContext *dc, arg_rr *a)
{
    return do_rr(dc, a, OP_ADD);
}

static bool trans_ADDC_rr(DisasContext *dc, arg_rr *a)
{
    return do_rr(dc, a, OP_ADDC);
}

static bool trans_SUB_rr(DisasContext *dc, arg_rr *a)
{
    return do_rr(dc, a, OP_SUB);
}

static bool trans_SUBB_rr(DisasContext *dc, arg_rr *a)
{
    return do_rr(dc, a, OP_SUBB);
}

static bool trans_AND_rr(DisasContext *dc, arg_rr *a)
{
    return do_rr(dc, a, OP_AND);
}

static bool trans_OR_rr(DisasContext *dc, arg_rr *a)
{
    return do_rr(dc, a, OP_OR);
}

static bool trans_XOR_rr(DisasContext *dc, arg_rr *a)
{
    return do_rr(dc, a, OP_XOR);
}

static bool trans_SH_rr(DisasContext *dc, arg_rr *a)
{
    return do_rr(dc, a, 7);
}

static bool trans_SHA_rr(DisasContext *dc, arg_rr *a)
{
    return do_rr(dc, a, 8);
}

/* sel.<cc> Rs1, Rs2, Rd: always writes Rd. */
static bool trans_SEL(DisasContext *dc, arg_rr *a)
{
    TCGv_i32 c = tcg_temp_new_i32();
    TCGv_i32 dst = tcg_temp_new_i32();

    gen_cond(c, a->cc);
    tcg_gen_movcond_i32(TCG_COND_NE, dst, c, tcg_constant_i32(0),
                        reg(dc, a->rs1), reg(dc, a->rs2));
    set_reg(dc, a->rd, dst, LANAI_SLOTS_ALU);
    tcg_temp_free_i32(c);
    tcg_temp_free_i32(dst);
    return true;
}

/* ---- memory (sections 5.3-5.6) ------------------------------------- */

/* In blocks translated for a watching board, a store reports itself first. */
static void gen_store_watch(DisasContext *dc, TCGv_i32 ea, unsigned bytes)
{
    if (dc->base.tb->flags & TB_FLAGS_STORE_WATCH) {
        gen_helper_store_watch(cpu_env, ea, tcg_constant_i32(bytes));
    }
}

/*
 * The access common to RM, RRM and SPLS. opv is Rs1 combined with the
 * offset; P selects it as the address, Q writes it back to Rs1.
 */
/*
 * An access at an address known here that lies in the special registers
 * (the last 512 bytes of the space, lanai9-nic.md) is I/O: with icount it
 * must be the last instruction of its block, or QEMU retranslates the
 * block around it at every execution. Say so up front.
 */
static void gen_special_io(DisasContext *dc, int64_t const_ea)
{
    if (const_ea >= LANAI_SPECIAL_BASE &&
        (tb_cflags(dc->base.tb) & CF_USE_ICOUNT)) {
        gen_io_start();
        dc->io_end = true;
    }
}

/* The address of an access through r0 (which reads 0), else -1. */
static int64_t r0_ea(int rs1, bool p, int32_t k)
{
    return rs1 == 0 ? (p ? (uint32_t)k : 0) : -1;
}

static bool gen_mem(DisasContext *dc, bool store, int rd, int rs1,
                    TCGv_i32 opv, bool p, bool q, MemOp size, bool zext,
                    int64_t const_ea)
{
    TCGv_i32 ea = p ? opv : reg(dc, rs1);
    MemOp mop = MO_BE | size | MO_ALIGN;
    TCGv_i32 val;

    if (q && rs1 == 2) {
        return gen_trap(dc, LANAI_TRAP_WB_PC);
    }
    /* choice (ref/iss): a load writing back into its own base traps */
    if (q && !store && rd == rs1 && rd > 1) {
        return gen_trap(dc, LANAI_TRAP_WB_BASE);
    }
    /* A device must see the exact cycle count (and pc for its traps). */
    sync_cycles(dc, dc->cyc);
    gen_special_io(dc, const_ea);
    if (store) {
        gen_store_watch(dc, ea, memop_size(size));
        /* With write-back the old value of Rd is stored (section 5.3). */
        tcg_gen_qemu_st_i32(reg(dc, rd), ea, 0, mop);
        if (q) {
            set_reg(dc, rs1, opv, LANAI_SLOTS_ALU);
        }
        return true;
    }
    if (size != MO_32 && !zext) {
        mop |= MO_SIGN;
    }
    val = tcg_temp_new_i32();
    tcg_gen_qemu_ld_i32(val, ea, 0, mop);
    if (q) {
        set_reg(dc, rs1, opv, LANAI_SLOTS_ALU);
    }
    set_reg(dc, rd, val, LANAI_SLOTS_LOAD);
    tcg_temp_free_i32(val);
    return true;
}

static bool do_rm(DisasContext *dc, arg_rm *a, bool store)
{
    TCGv_i32 opv = tcg_temp_new_i32();

    tcg_gen_addi_i32(opv, reg(dc, a->rs1), a->k);
    gen_mem(dc, store, a->rd, a->rs1, opv, a->p, a->q, MO_32, false,
            r0_ea(a->rs1, a->p, a->k));
    tcg_temp_free_i32(opv);
    return true;
}

static bool trans_LD_rm(DisasContext *dc, arg_rm *a)
{
    return do_rm(dc, a, false);
}

static bool trans_ST_rm(DisasContext *dc, arg_rm *a)
{
    return do_rm(dc, a, true);
}

static bool do_rrm(DisasContext *dc, arg_rrm *a, bool store)
{
    TCGv_i32 opv;
    MemOp size;
    int op;

    if (a->yl == 3) {
        return gen_trap(dc, LANAI_TRAP_RRM_YL);
    }
    if (store && a->e) {
        return gen_trap(dc, LANAI_TRAP_STORE_E);
    }
    if (a->bbb != 7) {
        if (a->j != 0) {
            return gen_trap(dc, LANAI_TRAP_RRM_OP);
        }
        op = a->bbb;
    } else if (a->j == 0x10 || a->j == 0x18) {
        op = a->j == 0x18 ? 8 : 7;
    } else {
        return gen_trap(dc, LANAI_TRAP_RRM_OP);
    }
    /* The address computation never sets flags. A shift as address op
     * forces a word access (section 5.4). */
    opv = tcg_temp_new_i32();
    gen_rr_op(opv, op, reg(dc, a->rs1), reg(dc, a->rs2), false);
    size = (op >= 7 || a->yl == 1) ? MO_32 : a->yl == 0 ? MO_16 : MO_8;
    gen_mem(dc, store, a->rd, a->rs1, opv, a->p, a->q, size, a->e, -1);
    tcg_temp_free_i32(opv);
    return true;
}

static bool trans_LD_rrm(DisasContext *dc, arg_rrm *a)
{
    return do_rrm(dc, a, false);
}

static bool trans_ST_rrm(DisasContext *dc, arg_rrm *a)
{
    return do_rrm(dc, a, true);
}

static bool do_spls(DisasContext *dc, arg_spls *a, bool store)
{
    TCGv_i32 opv = tcg_temp_new_i32();

    tcg_gen_addi_i32(opv, reg(dc, a->rs1), a->k);
    gen_mem(dc, store, a->rd, a->rs1, opv, a->p, a->q, a->y ? MO_8 : MO_16,
            a->e, r0_ea(a->rs1, a->p, a->k));
    tcg_temp_free_i32(opv);
    return true;
}

static bool trans_LD_spls(DisasContext *dc, arg_spls *a)
{
    return do_spls(dc, a, false);
}

static bool trans_ST_spls(DisasContext *dc, arg_spls *a)
{
    return do_spls(dc, a, true);
}

/*
 * SLS: choice (ref/iss): the 21-bit address is SIGN-extended (clang 14
 * relies on it; docs/lanai-iss.md) and its bits 1:0 are ignored.
 */
static uint32_t sls_addr(arg_sls *a)
{
    return (uint32_t)sextract32(a->a, 0, 21) & ~3u;
}

static bool trans_LD_sls(DisasContext *dc, arg_sls *a)
{
    TCGv_i32 val = tcg_temp_new_i32();

    sync_cycles(dc, dc->cyc);
    gen_special_io(dc, sls_addr(a));
    tcg_gen_qemu_ld_i32(val, tcg_constant_i32(sls_addr(a)), 0,
                        MO_BEUL | MO_ALIGN);
    set_reg(dc, a->rd, val, LANAI_SLOTS_LOAD);
    tcg_temp_free_i32(val);
    return true;
}

static bool trans_ST_sls(DisasContext *dc, arg_sls *a)
{
    sync_cycles(dc, dc->cyc);
    gen_special_io(dc, sls_addr(a));
    gen_store_watch(dc, tcg_constant_i32(sls_addr(a)), 4);
    tcg_gen_qemu_st_i32(reg(dc, a->rd), tcg_constant_i32(sls_addr(a)), 0,
                        MO_BEUL | MO_ALIGN);
    return true;
}

/* SLI: Rd <- zext(K, 21), with a load's timing for pc (section 5.7). */
static bool trans_SLI(DisasContext *dc, arg_sls *a)
{
    set_reg(dc, a->rd, tcg_constant_i32(a->a), LANAI_SLOTS_LOAD);
    return true;
}

/* ---- special ops (section 5.12): leadz 0 = trailz 0 = 32 ------------ */

static bool trans_POPC(DisasContext *dc, arg_spec *a)
{
    TCGv_i32 dst = tcg_temp_new_i32();

    tcg_gen_ctpop_i32(dst, reg(dc, a->rs1));
    set_reg(dc, a->rd, dst, LANAI_SLOTS_ALU);
    tcg_temp_free_i32(dst);
    return true;
}

static bool trans_LEADZ(DisasContext *dc, arg_spec *a)
{
    TCGv_i32 dst = tcg_temp_new_i32();

    tcg_gen_clzi_i32(dst, reg(dc, a->rs1), 32);
    set_reg(dc, a->rd, dst, LANAI_SLOTS_ALU);
    tcg_temp_free_i32(dst);
    return true;
}

static bool trans_TRAILZ(DisasContext *dc, arg_spec *a)
{
    TCGv_i32 dst = tcg_temp_new_i32();

    tcg_gen_ctzi_i32(dst, reg(dc, a->rs1), 32);
    set_reg(dc, a->rd, dst, LANAI_SLOTS_ALU);
    tcg_temp_free_i32(dst);
    return true;
}

/* ---- branches (sections 5.8, 5.10, 5.11) ---------------------------- */

static bool trans_BR(DisasContext *dc, arg_br *a)
{
    if (a->cc == 1) {           /* bf: never taken, a plain instruction */
        return true;
    }
    if (a->cc == 0 || dc->pend) {
        if (a->cc == 0) {
            gen_jump(dc, NULL, a->target, LANAI_SLOTS_ALU);
        } else {
            /* with a jump pending, a taken branch traps */
            TCGv_i32 c = tcg_temp_new_i32();
            TCGLabel *skip = gen_new_label();

            gen_cond(c, a->cc);
            tcg_gen_brcondi_i32(TCG_COND_EQ, c, 0, skip);
            gen_trap_cond(dc, LANAI_TRAP_JUMP_PENDING);
            gen_set_label(skip);
            tcg_temp_free_i32(c);
        }
        return true;
    }
    gen_cond(cpu_pend_taken, a->cc);
    tcg_gen_movi_i32(cpu_pend_target, a->target);
    dc->pend = LANAI_SLOTS_ALU + 1;
    dc->pend_cond = true;
    dc->pend_imm = a->target;
    return true;
}

/* choice (ref/iss): BRR's base address is unresolved; trap. */
static bool trans_BRR(DisasContext *dc, arg_BRR *a)
{
    return gen_trap(dc, LANAI_TRAP_BRR);
}

static bool trans_SCC(DisasContext *dc, arg_scc *a)
{
    TCGv_i32 dst = tcg_temp_new_i32();

    gen_cond(dst, a->cc);
    set_reg(dc, a->rd, dst, LANAI_SLOTS_ALU);
    tcg_temp_free_i32(dst);
    return true;
}

/* ---- the translation loop ------------------------------------------ */

/*
 * Whether insn may write pc (conservative). Used to end a block before
 * such an instruction while a conditional jump is pending, so that the
 * instruction is translated knowing whether a jump really is pending.
 */
static bool may_write_pc(uint32_t w)
{
    unsigned op = w >> 28, rd = (w >> 23) & 31;

    switch (op) {
    case 0xE:
        return !((w >> 1) & 1) || (!((w >> 24) & 1) && ((w >> 18) & 31) == 2);
    case 0x9: case 0xB:                     /* stores: only write-back */
        return false;
    case 0xF:
        return rd == 2 && ((w >> 16) & 3) != 1 && !((w >> 13) & 1 &&
                                                    ((w >> 16) & 3) == 3);
    default:
        return rd == 2;
    }
}

static void lanai_tr_init_disas_context(DisasContextBase *dcb, CPUState *cs)
{
    DisasContext *dc = container_of(dcb, DisasContext, base);
    int bound;

    dc->env = cs->env_ptr;
    dc->start_pend = dc->base.tb->flags & TB_FLAGS_PEND_MASK;
    dc->pend = dc->start_pend;
    dc->pend_cond = false;
    dc->pend_imm = -1;
    dc->cyc = 0;
    dc->cyc_synced = 0;
    dc->io_end = false;

    /* Stay on one page: the next one may not be RAM. */
    bound = -(dc->base.pc_first | TARGET_PAGE_MASK) / 4;
    if (bound > 0) {
        dc->base.max_insns = MIN(dc->base.max_insns, bound);
    }
}

static void lanai_tr_tb_start(DisasContextBase *db, CPUState *cs)
{
}

static void lanai_tr_insn_start(DisasContextBase *dcbase, CPUState *cs)
{
    DisasContext *dc = container_of(dcbase, DisasContext, base);

    tcg_gen_insn_start(dc->base.pc_next, dc->pend | (dc->pend_cond ? 4 : 0));
}

static void lanai_tr_translate_insn(DisasContextBase *dcbase, CPUState *cs)
{
    DisasContext *dc = container_of(dcbase, DisasContext, base);
    uint32_t next;

    dc->pc = dc->base.pc_next;
    /* Both traps come before the fetch; the block still needs a size. */
    if (dc->pc & 3) {
        gen_trap(dc, LANAI_TRAP_PC_ALIGN);
        dc->base.pc_next += 4;
        return;
    }
    if (dc->base.num_insns == 1 &&
        get_page_addr_code(dc->env, dc->pc) == -1) {
        gen_trap(dc, LANAI_TRAP_FETCH);
        dc->base.pc_next += 4;
        return;
    }
    dc->insn = translator_ldl(dc->env, &dc->base, dc->pc);
    if (dc->env->strict) {
        /* the one register-use table (common/lanai_reguse.c) */
        struct lanai_reguse u = lanai_reguse(dc->insn);

        gen_helper_hazard(cpu_env, tcg_constant_i32(dc->pc),
                          tcg_constant_i32(u.touched), tcg_constant_i32(u.load_rd),
                          tcg_constant_i32(dc->cyc - dc->cyc_synced));
    }
    if (!decode(dc, dc->insn)) {
        gen_trap(dc, LANAI_TRAP_RESERVED);
    }
    dc->base.pc_next += 4;
    if (dc->base.is_jmp == DISAS_NORETURN) {
        return;
    }
    dc->cyc += lanai_insn_cycles(dc->insn);
    if (dc->pend && --dc->pend == 0) {
        dc->base.is_jmp = DISAS_JUMP;
        return;
    }
    /* A conditional jump is pending: stop before a possible pc writer. */
    next = dc->base.pc_next;
    if (dc->pend && dc->pend_cond &&
        (next & TARGET_PAGE_MASK) == (dc->pc & TARGET_PAGE_MASK) &&
        may_write_pc(translator_ldl(dc->env, &dc->base, next))) {
        dc->base.is_jmp = DISAS_TOO_MANY;
    }
    if (dc->io_end) {
        dc->io_end = false;
        dc->base.is_jmp = DISAS_TOO_MANY;
    }
}

/* Leave the block for 'dest' through exit slot n when possible. */
static void gen_goto(DisasContext *dc, int n, uint32_t dest)
{
    if (translator_use_goto_tb(&dc->base, dest)) {
        tcg_gen_goto_tb(n);
        tcg_gen_movi_i32(cpu_pc, dest);
        tcg_gen_exit_tb(dc->base.tb, n);
    } else {
        tcg_gen_movi_i32(cpu_pc, dest);
        tcg_gen_lookup_and_goto_ptr();
    }
}

static void lanai_tr_tb_stop(DisasContextBase *dcbase, CPUState *cs)
{
    DisasContext *dc = container_of(dcbase, DisasContext, base);
    TCGLabel *not_taken;

    if (dc->base.is_jmp == DISAS_NORETURN) {
        return;
    }
    sync_cycles(dc, dc->cyc);

    if (dc->base.is_jmp == DISAS_JUMP) {
        /* The pending jump happens now; the next block has none. */
        if (dc->start_pend) {
            tcg_gen_movi_i32(cpu_pend, 0);
        }
        not_taken = NULL;
        if (dc->pend_cond) {
            not_taken = gen_new_label();
            tcg_gen_brcondi_i32(TCG_COND_EQ, cpu_pend_taken, 0, not_taken);
        }
        if (dc->pend_imm >= 0) {
            gen_goto(dc, 0, dc->pend_imm);
        } else {
            tcg_gen_mov_i32(cpu_pc, cpu_pend_target);
            tcg_gen_lookup_and_goto_ptr();
        }
        if (not_taken) {
            gen_set_label(not_taken);
            gen_goto(dc, 1, dc->base.pc_next);
        }
        return;
    }

    /* Out of room (page end, instruction limit): go on in a new block. */
    if (dc->pend_cond) {
        /* Whether the jump is pending is only known now: the next
         * block's flags differ by path, so look it up dynamically. */
        tcg_gen_movcond_i32(TCG_COND_NE, cpu_pend, cpu_pend_taken,
                            tcg_constant_i32(0), tcg_constant_i32(dc->pend),
                            tcg_constant_i32(0));
        tcg_gen_movi_i32(cpu_pc, dc->base.pc_next);
        tcg_gen_lookup_and_goto_ptr();
        return;
    }
    if (dc->pend != dc->start_pend) {
        tcg_gen_movi_i32(cpu_pend, dc->pend);
    }
    gen_goto(dc, 0, dc->base.pc_next);
}

static void lanai_tr_disas_log(const DisasContextBase *dcbase,
                               CPUState *cs, FILE *logfile)
{
    fprintf(logfile, "IN: %s\n", lookup_symbol(dcbase->pc_first));
    target_disas(logfile, cs, dcbase->pc_first, dcbase->tb->size);
}

static const TranslatorOps lanai_tr_ops = {
    .init_disas_context = lanai_tr_init_disas_context,
    .tb_start           = lanai_tr_tb_start,
    .insn_start         = lanai_tr_insn_start,
    .translate_insn     = lanai_tr_translate_insn,
    .tb_stop            = lanai_tr_tb_stop,
    .disas_log          = lanai_tr_disas_log,
};

void gen_intermediate_code(CPUState *cs, TranslationBlock *tb, int max_insns,
                           target_ulong pc, void *host_pc)
{
    DisasContext dc;

    translator_loop(cs, tb, max_insns, pc, host_pc, &lanai_tr_ops, &dc.base);
}
