/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * LANai CPU: QOM type, reset state and the hooks QEMU's core needs.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/qemu-print.h"
#include "exec/exec-all.h"
#include "cpu.h"
#include "disas/dis-asm.h"

static void lanai_cpu_set_pc(CPUState *cs, vaddr value)
{
    LANAI_CPU(cs)->env.pc = value;
}

static vaddr lanai_cpu_get_pc(CPUState *cs)
{
    return LANAI_CPU(cs)->env.pc;
}

static bool lanai_cpu_has_work(CPUState *cs)
{
    /* No interrupts are modelled yet; the CPU never halts. */
    return cs->interrupt_request & CPU_INTERRUPT_HARD;
}

static void lanai_cpu_synchronize_from_tb(CPUState *cs,
                                          const TranslationBlock *tb)
{
    LANAI_CPU(cs)->env.pc = tb_pc(tb);
}

static void lanai_restore_state_to_opc(CPUState *cs,
                                       const TranslationBlock *tb,
                                       const uint64_t *data)
{
    CPULanaiState *env = &LANAI_CPU(cs)->env;
    uint32_t pend = data[1] & 3;

    env->pc = data[0];
    /* Bit 2: the pending jump belongs to a conditional branch. */
    if ((data[1] & 4) && !env->pend_taken) {
        pend = 0;
    }
    env->pend = pend;
}

/* Reset state of the test-machine ABI (docs/test-machine.md): registers
 * zero except r1, flags clear, no jump pending. The board sets pc. */
static void lanai_cpu_reset(DeviceState *ds)
{
    CPUState *cs = CPU(ds);
    LanaiCPU *cpu = LANAI_CPU(cs);
    LanaiCPUClass *lcc = LANAI_CPU_GET_CLASS(cpu);
    CPULanaiState *env = &cpu->env;

    lcc->parent_reset(ds);
    memset(env, 0, offsetof(CPULanaiState, cycles));
    env->r[1] = 0xFFFFFFFFu;
    lanai_set_flags(env, 0);
    env->cycles = 0;
}

static void lanai_cpu_disas_set_info(CPUState *cs, disassemble_info *info)
{
    info->mach = 0;
    info->print_insn = lanai_print_insn;
}

static void lanai_cpu_realizefn(DeviceState *dev, Error **errp)
{
    CPUState *cs = CPU(dev);
    LanaiCPUClass *lcc = LANAI_CPU_GET_CLASS(dev);
    Error *local_err = NULL;

    cpu_exec_realizefn(cs, &local_err);
    if (local_err != NULL) {
        error_propagate(errp, local_err);
        return;
    }
    qemu_init_vcpu(cs);
    cpu_reset(cs);

    lcc->parent_realize(dev, errp);
}

static void lanai_cpu_initfn(Object *obj)
{
    cpu_set_cpustate_pointers(LANAI_CPU(obj));
}

/* The LANai 9.0 and 9.1 parts: no load interlocks (docs/lanai-isa.md,
 * "Timing and hazards"); otherwise the v11 core. */
static void lanai_cpu_strict_initfn(Object *obj)
{
    LANAI_CPU(obj)->env.strict = 1;
}

static ObjectClass *lanai_cpu_class_by_name(const char *cpu_model)
{
    ObjectClass *oc = object_class_by_name(cpu_model);

    if (oc == NULL) {
        g_autofree char *typename = g_strdup_printf(LANAI_CPU_TYPE_NAME("%s"),
                                                    cpu_model);
        oc = object_class_by_name(typename);
    }
    if (oc && (object_class_dynamic_cast(oc, TYPE_LANAI_CPU) == NULL ||
               object_class_is_abstract(oc))) {
        oc = NULL;
    }
    return oc;
}

void lanai_cpu_dump_state(CPUState *cs, FILE *f, int flags)
{
    CPULanaiState *env = &LANAI_CPU(cs)->env;
    uint32_t fl = lanai_get_flags(env);
    int i;

    qemu_fprintf(f, "pc=%08x flags=%c%c%c%c pend=%u target=%08x cycles=%"
                 PRIu64 "\n", env->pc,
                 (fl & 2) ? 'N' : '-', (fl & 1) ? 'Z' : '-',
                 (fl & 4) ? 'V' : '-', (fl & 8) ? 'C' : '-',
                 env->pend, env->pend_target, env->cycles);
    for (i = 0; i < 32; i++) {
        qemu_fprintf(f, "r%-2d=%08x%c", i, lanai_get_reg(env, i),
                     (i % 8) == 7 ? '\n' : ' ');
    }
}

static void lanai_cpu_list_entry(gpointer data, gpointer user_data)
{
    const char *typename = object_class_get_name(OBJECT_CLASS(data));

    qemu_printf("%s\n", typename);
}

void lanai_cpu_list(void)
{
    GSList *list = object_class_get_list_sorted(TYPE_LANAI_CPU, false);

    g_slist_foreach(list, lanai_cpu_list_entry, NULL);
    g_slist_free(list);
}

#include "hw/core/sysemu-cpu-ops.h"

static const struct SysemuCPUOps lanai_sysemu_ops = {
    .get_phys_page_debug = lanai_cpu_get_phys_page_debug,
};

#include "hw/core/tcg-cpu-ops.h"

/* The LANai has no interrupts of its own; a board may hook in here. */
static bool lanai_cpu_exec_interrupt(CPUState *cs, int interrupt_request)
{
    LanaiCPU *cpu = LANAI_CPU(cs);

    return cpu->board_exec_hook ? cpu->board_exec_hook(cs, interrupt_request) : false;
}

static const struct TCGCPUOps lanai_tcg_ops = {
    .initialize = lanai_cpu_tcg_init,
    .cpu_exec_interrupt = lanai_cpu_exec_interrupt,
    .synchronize_from_tb = lanai_cpu_synchronize_from_tb,
    .restore_state_to_opc = lanai_restore_state_to_opc,
    .tlb_fill = lanai_cpu_tlb_fill,
    .do_unaligned_access = lanai_cpu_do_unaligned_access,
    .do_transaction_failed = lanai_cpu_do_transaction_failed,
};

static void lanai_cpu_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    CPUClass *cc = CPU_CLASS(oc);
    LanaiCPUClass *lcc = LANAI_CPU_CLASS(oc);

    device_class_set_parent_realize(dc, lanai_cpu_realizefn,
                                    &lcc->parent_realize);
    device_class_set_parent_reset(dc, lanai_cpu_reset, &lcc->parent_reset);

    cc->class_by_name = lanai_cpu_class_by_name;
    cc->has_work = lanai_cpu_has_work;
    cc->dump_state = lanai_cpu_dump_state;
    cc->set_pc = lanai_cpu_set_pc;
    cc->get_pc = lanai_cpu_get_pc;
    dc->vmsd = &vms_lanai_cpu;
    cc->sysemu_ops = &lanai_sysemu_ops;
    cc->disas_set_info = lanai_cpu_disas_set_info;
    cc->gdb_read_register = lanai_cpu_gdb_read_register;
    cc->gdb_write_register = lanai_cpu_gdb_write_register;
    /* r0..r31, pc, flags (see gdb-xml/lanai-cpu.xml) */
    cc->gdb_num_core_regs = 34;
    cc->gdb_core_xml_file = "lanai-cpu.xml";
    cc->tcg_ops = &lanai_tcg_ops;
}

static const TypeInfo lanai_cpu_type_info[] = {
    {
        .name = TYPE_LANAI_CPU,
        .parent = TYPE_CPU,
        .instance_size = sizeof(LanaiCPU),
        .instance_init = lanai_cpu_initfn,
        .class_size = sizeof(LanaiCPUClass),
        .class_init = lanai_cpu_class_init,
        .abstract = true,
    },
    {
        /* LLVM's CPU "v11", which LANai 9 code is built for (the default). */
        .name = LANAI_CPU_TYPE_NAME("v11"),
        .parent = TYPE_LANAI_CPU,
    },
    {
        .name = LANAI_CPU_TYPE_NAME("lanai9.0"),
        .parent = TYPE_LANAI_CPU,
        .instance_init = lanai_cpu_strict_initfn,
    },
    {
        .name = LANAI_CPU_TYPE_NAME("lanai9.1"),
        .parent = TYPE_LANAI_CPU,
        .instance_init = lanai_cpu_strict_initfn,
    },
};

DEFINE_TYPES(lanai_cpu_type_info)
