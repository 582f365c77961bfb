/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * LANai v11 CPU (docs/lanai-isa.md), held to the reference
 * interpreter ref/iss (docs/lanai-iss.md lists the choices for the cases
 * the hardware leaves undefined; this target makes the same ones).
 */
#ifndef LANAI_CPU_H
#define LANAI_CPU_H

#include "cpu-qom.h"
#include "exec/cpu-defs.h"
#include "nicoll/lanai9_regs.h"

#define LANAI_CPU_TYPE_SUFFIX "-" TYPE_LANAI_CPU
#define LANAI_CPU_TYPE_NAME(name) (name LANAI_CPU_TYPE_SUFFIX)
#define CPU_RESOLVING_TYPE TYPE_LANAI_CPU

#define TCG_GUEST_DEFAULT_MO 0

/* insn_start carries the pending-jump state as an extra word. */
#define TARGET_INSN_START_EXTRA_WORDS 1

/* The special registers: the last 512 bytes of the address space (the
 * contract's one definition, include/nicoll/lanai9_regs.h). */
#define LANAI_SPECIAL_BASE L9_SPECIAL_BASE

/* Delay slots after a write to pc (lanai-isa.md section 7.1). */
enum { LANAI_SLOTS_ALU = 1, LANAI_SLOTS_LOAD = 2 };

/*
 * The cost model: cycles charged for one retired instruction. One cycle per
 * instruction for now (docs/test-machine.md: the counter register reads
 * retired instructions). This is the only place that knows; the translator
 * sums it per instruction, so a later profile can refine it here, e.g. by
 * instruction class, without touching anything else.
 */
static inline unsigned lanai_insn_cycles(uint32_t insn)
{
    return 1;
}

typedef struct CPUArchState {
    /*
     * r[0], r[1] and r[2] are not used: r0 reads 0, r1 reads all ones and
     * a read of r2 is the address of the executing instruction, all known
     * when translating; writes to r0/r1 are dropped, writes to r2 jump.
     */
    uint32_t r[32];
    uint32_t pc;

    /*
     * Flags, kept the way TCG computes them cheaply (as target/arm does):
     * N is bit 31 of NF, Z is set when ZF == 0, C is CF (0 or 1) and V is
     * bit 31 of VF. lanai_get_flags() gives the architectural view.
     */
    uint32_t NF, ZF, CF, VF;

    /*
     * A pending write to pc, exactly as in ref/iss: after pend more
     * instructions retire, control goes to pend_target. pend is 0..2 at
     * translation-block boundaries and is part of the TB flags.
     * pend_taken holds the condition of a conditional branch between the
     * branch and the end of its delay slot (only inside one TB).
     */
    uint32_t pend;
    uint32_t pend_target;
    uint32_t pend_taken;

    /*
     * Strict mode (-cpu lanai9.0 / lanai9.1, no load interlocks; ref/iss's
     * --strict): hz_reg[k] is the destination of the data load that ran
     * k+1 instructions ago (0: none), hz_pc[k] its address. An instruction
     * that reads or writes one of them traps (helper_hazard).
     */
    uint32_t hz_reg[2];
    uint32_t hz_pc[2];

    /*
     * This CPU's own clock: cycles retired so far (lanai_insn_cycles()
     * each). It is not QEMU's global virtual clock. It is exact whenever a
     * memory or device access or a trap happens; between those it may lag
     * within a translation block.
     */
    uint64_t cycles;

    /*
     * Non-zero: every store first calls the board's store hook (a TB flag,
     * so blocks translated either way coexist). The myrinet machine sets it
     * while it checks whether a NIC's loop changes anything (idle
     * detection). Kept across reset: the board owns it.
     */
    uint32_t store_watch;

    /* Non-zero for the lanai9.0/lanai9.1 models (set when the CPU object
     * is created, kept across reset): every instruction is checked for
     * load-use hazards. */
    uint32_t strict;
} CPULanaiState;

struct ArchCPU {
    /*< private >*/
    CPUState parent_obj;
    /*< public >*/

    CPUNegativeOffsetState neg;
    CPULanaiState env;

    /*
     * A board that needs control between translation blocks (the myrinet
     * machine stops each NIC at its synchronisation targets) sets this;
     * QEMU calls it through cpu_exec_interrupt while a CPU_INTERRUPT_TGT_EXT
     * bit is pending. Returns true if it changed the CPU's state (reset), so
     * that blocks are not chained across. The target itself knows nothing
     * of the machine.
     */
    bool (*board_exec_hook)(CPUState *cs, int interrupt_request);

    /*
     * Called before each store while env.store_watch is set, with the
     * store's address and size in bytes (the store has not happened yet).
     */
    void (*board_store_hook)(CPUState *cs, uint32_t addr, uint32_t size);

    /*
     * Called after a trap was reported, with env.pc at the trapping
     * instruction. Without it a trap ends the process (status 125, as
     * lanai-iss); with it the board decides (the myrinet machine stops that
     * NIC's CPU and the rest of the cluster runs on) and the CPU leaves its
     * translation block without executing the instruction.
     */
    void (*board_trap_hook)(CPUState *cs);
};

/* Flags in the LANai3 bit layout (Z=0, N=1, V=2, C=3) for gdb and dumps. */
static inline uint32_t lanai_get_flags(const CPULanaiState *env)
{
    return (env->ZF == 0) << 0 | (env->NF >> 31) << 1 |
           (env->VF >> 31) << 2 | (env->CF & 1) << 3;
}

static inline void lanai_set_flags(CPULanaiState *env, uint32_t f)
{
    env->ZF = !(f & 1);
    env->NF = (f & 2) ? 0x80000000u : 0;
    env->VF = (f & 4) ? 0x80000000u : 0;
    env->CF = (f >> 3) & 1;
}

static inline uint32_t lanai_get_reg(const CPULanaiState *env, unsigned r)
{
    switch (r) {
    case 0: return 0;
    case 1: return 0xFFFFFFFFu;
    case 2: return env->pc;
    default: return env->r[r & 31];
    }
}

extern const struct VMStateDescription vms_lanai_cpu;

void lanai_cpu_tcg_init(void);
void lanai_cpu_dump_state(CPUState *cs, FILE *f, int flags);
hwaddr lanai_cpu_get_phys_page_debug(CPUState *cs, vaddr addr);
int lanai_cpu_gdb_read_register(CPUState *cs, GByteArray *buf, int reg);
int lanai_cpu_gdb_write_register(CPUState *cs, uint8_t *buf, int reg);
int lanai_print_insn(bfd_vma addr, disassemble_info *info);
bool lanai_cpu_tlb_fill(CPUState *cs, vaddr address, int size,
                        MMUAccessType access_type, int mmu_idx,
                        bool probe, uintptr_t retaddr);
G_NORETURN void lanai_cpu_do_unaligned_access(CPUState *cs, vaddr addr,
                                              MMUAccessType access_type,
                                              int mmu_idx, uintptr_t retaddr);
void lanai_cpu_do_transaction_failed(CPUState *cs, hwaddr physaddr,
                                     vaddr addr, unsigned size,
                                     MMUAccessType access_type,
                                     int mmu_idx, MemTxAttrs attrs,
                                     MemTxResult response, uintptr_t retaddr);

/*
 * Stop at a trap: reserved encoding, misaligned or unmapped access, a jump
 * in a delay slot, ... If retaddr is non-zero the CPU state is first
 * restored to the trapping instruction. The message gives pc, instruction,
 * its disassembly, the retired count and the reason, as lanai-iss does, and
 * QEMU exits with status 125 (lanai-iss's trap status).
 */
G_NORETURN void lanai_cpu_trap(CPUState *cs, uintptr_t retaddr,
                               const char *fmt, ...) G_GNUC_PRINTF(3, 4);

#define cpu_list lanai_cpu_list
void lanai_cpu_list(void);

static inline int cpu_mmu_index(CPULanaiState *env, bool ifetch)
{
    return 0;
}

/* TB flags: the pending-jump slot count (0..2); stores call the board. */
#define TB_FLAGS_PEND_MASK 3
#define TB_FLAGS_STORE_WATCH 4

static inline void cpu_get_tb_cpu_state(CPULanaiState *env, target_ulong *pc,
                                        target_ulong *cs_base, uint32_t *flags)
{
    *pc = env->pc;
    *cs_base = 0;
    *flags = (env->pend & TB_FLAGS_PEND_MASK) |
             (env->store_watch ? TB_FLAGS_STORE_WATCH : 0);
}

#include "exec/cpu-all.h"

#endif
