/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * LANai helpers: traps, and the softmmu glue of a CPU without an MMU.
 */
#include "qemu/osdep.h"
#include "cpu.h"
#include "exec/exec-all.h"
#include "exec/cpu_ldst.h"
#include "exec/helper-proto.h"
#include "nicoll/iss.h"
#include "trap.h"

/* Reasons a translated instruction traps; indexed by enum lanai_trap. */
static const char *const trap_reasons[] = {
    [LANAI_TRAP_RESERVED] = "reserved encoding",
    [LANAI_TRAP_RRM_YL] = "reserved encoding: RRM width YL=11",
    [LANAI_TRAP_STORE_E] = "reserved encoding: store with E=1",
    [LANAI_TRAP_RRM_OP] = "reserved encoding: RRM address op",
    [LANAI_TRAP_BRR] = "unsupported instruction: BRR (relative branch)",
    [LANAI_TRAP_JUMP_PENDING] = "write to pc while a jump is pending "
                                "(control transfer in a delay slot)",
    [LANAI_TRAP_WB_PC] = "write-back to pc",
    [LANAI_TRAP_WB_BASE] = "load with write-back into its base register",
    [LANAI_TRAP_PC_ALIGN] = "misaligned pc",
    [LANAI_TRAP_FETCH] = "instruction fetch outside RAM",
};

void lanai_cpu_trap(CPUState *cs, uintptr_t retaddr, const char *fmt, ...)
{
    CPULanaiState *env = &LANAI_CPU(cs)->env;
    char reason[160], text[96];
    uint32_t insn = 0;
    va_list ap;

    if (retaddr) {
        cpu_restore_state(cs, retaddr);
    }
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    /* Only read the word back when the pc is fetchable: a misaligned pc or
     * one outside RAM is itself the trap. */
    if (!(env->pc & 3) && get_page_addr_code(env, env->pc) != -1) {
        insn = cpu_ldl_code(env, env->pc);
    }
    fflush(stdout);
    /* the name the user ran (lanai-qemu, lanai-run: both exec QEMU under it) */
    fprintf(stderr, "%s: trap at pc 0x%08x (insn 0x%08x: %s) after %"
            PRIu64 " instructions: %s\n", g_get_prgname() ? g_get_prgname() : "lanai-qemu",
            env->pc, insn,
            iss_disas(insn, env->pc, text, sizeof text), env->cycles, reason);
    if (LANAI_CPU(cs)->board_trap_hook) {
        LANAI_CPU(cs)->board_trap_hook(cs);
        cpu_loop_exit(cs);
    }
    exit(125); /* lanai-iss's trap status */
}

/*
 * Strict mode (lanai9.0/9.1 models): trap if this instruction reads or
 * writes a register that a load of the last two instructions has not
 * written yet, then shift the window. The same rule as ref/iss --strict.
 */
void HELPER(hazard)(CPULanaiState *env, uint32_t pc, uint32_t regs,
                    uint32_t ld, uint32_t cycles)
{
    int k;

    for (k = 0; k < 2; k++) {
        uint32_t r = env->hz_reg[k];
        if (r && ((regs >> r) & 1)) {
            env->pc = pc;
            env->cycles += cycles;
            lanai_cpu_trap(env_cpu(env), 0, "load-use hazard: r%u loaded by "
                           "the instruction at 0x%08x, %d before (strict: "
                           "LANai 9.0/9.1 have no load interlock)", r, env->hz_pc[k],
                           k + 1);
        }
    }
    env->hz_reg[1] = env->hz_reg[0];
    env->hz_pc[1] = env->hz_pc[0];
    env->hz_reg[0] = ld;
    env->hz_pc[0] = pc;
}

void HELPER(trap)(CPULanaiState *env, uint32_t code, uint32_t cycles)
{
    env->cycles += cycles;
    lanai_cpu_trap(env_cpu(env), 0, "%s",
                   code < ARRAY_SIZE(trap_reasons) && trap_reasons[code]
                   ? trap_reasons[code] : "trap");
}

void HELPER(store_watch)(CPULanaiState *env, uint32_t addr, uint32_t size)
{
    LanaiCPU *cpu = env_archcpu(env);

    if (cpu->board_store_hook) {
        cpu->board_store_hook(env_cpu(env), addr, size);
    }
}

/* No MMU: every address maps to itself with every permission. */
bool lanai_cpu_tlb_fill(CPUState *cs, vaddr address, int size,
                        MMUAccessType access_type, int mmu_idx,
                        bool probe, uintptr_t retaddr)
{
    vaddr page = address & TARGET_PAGE_MASK;

    tlb_set_page(cs, page, page, PAGE_READ | PAGE_WRITE | PAGE_EXEC,
                 mmu_idx, TARGET_PAGE_SIZE);
    return true;
}

hwaddr lanai_cpu_get_phys_page_debug(CPUState *cs, vaddr addr)
{
    return addr & TARGET_PAGE_MASK;
}

void lanai_cpu_do_unaligned_access(CPUState *cs, vaddr addr,
                                   MMUAccessType access_type, int mmu_idx,
                                   uintptr_t retaddr)
{
    /* The access size is not passed here; the word at pc tells it. */
    lanai_cpu_trap(cs, retaddr, "misaligned %s %s 0x%08x",
                   access_type == MMU_DATA_STORE ? "store" : "load",
                   access_type == MMU_DATA_STORE ? "to" : "from",
                   (uint32_t)addr);
}

void lanai_cpu_do_transaction_failed(CPUState *cs, hwaddr physaddr,
                                     vaddr addr, unsigned size,
                                     MMUAccessType access_type,
                                     int mmu_idx, MemTxAttrs attrs,
                                     MemTxResult response, uintptr_t retaddr)
{
    lanai_cpu_trap(cs, retaddr, "%u-byte %s unmapped address 0x%08x", size,
                   access_type == MMU_DATA_STORE ? "store to" :
                   access_type == MMU_INST_FETCH ? "fetch from" : "load from",
                   (uint32_t)addr);
}
