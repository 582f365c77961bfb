/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -M lanai-test: the test machine of docs/test-machine.md, identical to the
 * one lanai-iss provides. One LANai CPU, RAM at 0 (default 16 MiB), and
 * three 32-bit registers above it:
 *
 *   0xFFFF0000  write: print the low byte on stdout        (console)
 *   0xFFFF0004  write: end the run with this exit status    (exit)
 *   0xFFFF0008  read:  low 32 bits of the CPU's cycle counter, i.e. the
 *               instructions retired before the reading one (counter)
 *
 * Any other access to them, or to an address that is neither RAM nor one of
 * them, traps (QEMU exits with status 125). The program (-kernel) is an ELF
 * or a nicoll flat image, read by the same loader as lanai-iss
 * (common/loadable.c, copied into nicoll/ by the build).
 * RAM is -m bytes, or exactly mem= bytes (-m rounds up to 8 KiB; lanai-qemu
 * passes both, so that --mem means what it means to lanai-iss).
 * Its arguments come from -append, space-separated, with '%XX' escapes for
 * bytes such as spaces (lanai-emu/lanai-qemu writes it): argv[0] is the
 * program path, and the block of strings and pointers sits in the top 4 KiB
 * of RAM as lanai-iss puts it, with r6 = argc and r7 = argv.
 */
#include "qemu/osdep.h"
#include "lanai-args.h"
#include "qemu/units.h"
#include "qemu/error-report.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/boards.h"
#include "hw/core/cpu.h"
#include "exec/address-spaces.h"
#include "exec/memory.h"
#include "sysemu/reset.h"
#include "target/lanai/cpu.h"
#include "nicoll/loadable.h"
#include "nicoll/tm_args.h"
#include "nicoll/lanai-testmachine.h"

#define TM_BASE     LANAI_TM_CONSOLE
#define TM_CONSOLE  (LANAI_TM_CONSOLE - TM_BASE)
#define TM_EXIT     (LANAI_TM_EXIT - TM_BASE)
#define TM_COUNTER  (LANAI_TM_COUNTER - TM_BASE)
#define ARGS_BLOCK  LANAI_TM_ARGS_MAX
#define EXIT_USAGE  LANAI_TM_STATUS_USAGE

struct LanaiTestMachineState {
    MachineState parent_obj;

    MemoryRegion testdev;
    LanaiCPU *cpu;
    MemoryRegion ram;       /* the first 'mem' bytes of the machine's RAM */
    uint32_t entry, argc, argv;
    uint64_t mem;           /* RAM size in bytes; 0 = the -m size */
    bool stats;
};

#define TYPE_LANAI_TEST_MACHINE MACHINE_TYPE_NAME("lanai-test")
OBJECT_DECLARE_SIMPLE_TYPE(LanaiTestMachineState, LANAI_TEST_MACHINE)

/* A bad access: the same traps as lanai-iss's test device. */
static G_NORETURN void tm_bad(hwaddr addr, unsigned size, bool write)
{
    CPUState *cs = current_cpu;

    if (size != 4) {
        lanai_cpu_trap(cs, cs->mem_io_pc, "%u-byte access to test-machine "
                       "register 0x%08x (only 32-bit accesses are defined)",
                       size, (uint32_t)(TM_BASE + addr));
    }
    lanai_cpu_trap(cs, cs->mem_io_pc, "%s of test-machine register 0x%08x "
                   "is not defined", write ? "write" : "read",
                   (uint32_t)(TM_BASE + addr));
}

static uint64_t tm_read(void *opaque, hwaddr addr, unsigned size)
{
    LanaiTestMachineState *s = opaque;

    if (size != 4 || addr != TM_COUNTER) {
        tm_bad(addr, size, false);
    }
    /* exact: the translator brings cycles up to date before accesses */
    return (uint32_t)s->cpu->env.cycles;
}

static void tm_write(void *opaque, hwaddr addr, uint64_t val, unsigned size)
{
    LanaiTestMachineState *s = opaque;

    if (size == 4 && addr == TM_CONSOLE) {
        putchar((int)(val & 0xFF));
        return;
    }
    if (size == 4 && addr == TM_EXIT) {
        fflush(stdout);
        if (s->stats) {
            /* the exit store itself retires too, as in lanai-iss */
            fprintf(stderr, "lanai-qemu: %" PRIu64 " instructions\n",
                    s->cpu->env.cycles + 1);
        }
        exit((int)(val & 0xFF));
    }
    tm_bad(addr, size, true);
}

static const MemoryRegionOps tm_ops = {
    .read = tm_read,
    .write = tm_write,
    .endianness = DEVICE_BIG_ENDIAN,
    /* Every width reaches the callbacks, so that sub-word accesses trap. */
    .valid = { .min_access_size = 1, .max_access_size = 4 },
    .impl = { .min_access_size = 1, .max_access_size = 4 },
};

/* The argument block of docs/test-machine.md, laid out by the code
 * lanai-iss uses (common/tm_args.c). */
static void place_args(LanaiTestMachineState *s, uint8_t *ram,
                       uint32_t top, GPtrArray *args)
{
    uint32_t ptrs;

    switch (tm_args_place(ram, top, args->len,
                          (const char *const *)args->pdata, &ptrs)) {
    case TM_ARGS_OK:
        break;
    case TM_ARGS_TOO_MANY:
        error_report("lanai-test: too many program arguments (%u > %u)",
                     args->len, LANAI_TM_ARGC_MAX);
        exit(EXIT_USAGE);
    case TM_ARGS_TOO_BIG:
        error_report("lanai-test: program arguments exceed %u bytes",
                     ARGS_BLOCK);
        exit(EXIT_USAGE);
    }
    s->argc = args->len;
    s->argv = ptrs;
}

static void lanai_test_reset(void *opaque)
{
    LanaiTestMachineState *s = opaque;
    CPULanaiState *env = &s->cpu->env;

    cpu_reset(CPU(s->cpu));
    env->pc = s->entry;
    env->r[6] = s->argc;
    env->r[7] = s->argv;
}

static void lanai_test_init(MachineState *machine)
{
    LanaiTestMachineState *s = LANAI_TEST_MACHINE(machine);
    MemoryRegion *sysmem = get_system_memory();
    g_autofree uint8_t *file = NULL;
    g_autoptr(GError) gerr = NULL;
    GPtrArray *args;
    struct loadable l;
    char err[256];
    uint8_t *ram;
    gsize len;

    uint64_t mem = s->mem ? s->mem : machine->ram_size;

    /* -m rounds sizes up to 8 KiB; mem= gives lanai-iss's exact size. */
    if (mem < 2 * ARGS_BLOCK || mem > 0xFFFF0000u || (mem & 3)
        || mem > machine->ram_size) {
        error_report("lanai-test: RAM size %" PRIu64 " must be a multiple of 4 "
                     "between 8 KiB and 0xFFFF0000 bytes (and mem= at most "
                     "the -m size)", mem);
        exit(EXIT_USAGE);
    }
    memory_region_init_alias(&s->ram, OBJECT(machine), "lanai-test.ram",
                             machine->ram, 0, mem);
    memory_region_add_subregion(sysmem, 0, &s->ram);
    memory_region_init_io(&s->testdev, OBJECT(machine), &tm_ops, s,
                          "lanai-test.regs", 12);
    memory_region_add_subregion(sysmem, TM_BASE, &s->testdev);

    s->cpu = LANAI_CPU(cpu_create(machine->cpu_type));

    if (!machine->kernel_filename) {
        error_report("lanai-test: no program: give one with -kernel");
        exit(EXIT_USAGE);
    }
    if (!g_file_get_contents(machine->kernel_filename, (gchar **)&file, &len,
                             &gerr)) {
        error_report("lanai-test: %s", gerr->message);
        exit(EXIT_USAGE);
    }
    if (loadable_parse(machine->kernel_filename, file, len,
                       (uint32_t)mem - ARGS_BLOCK, &l,
                       err, sizeof err)) {
        error_report("lanai-test: %s", err);
        exit(EXIT_USAGE);
    }
    ram = memory_region_get_ram_ptr(machine->ram);
    loadable_copy(&l, ram);
    s->entry = l.entry;

    args = lanai_split_args(machine->kernel_filename, machine->kernel_cmdline);
    place_args(s, ram, (uint32_t)mem, args);
    g_ptr_array_free(args, true);

    qemu_register_reset(lanai_test_reset, s);
}

static bool get_stats(Object *obj, Error **errp)
{
    return LANAI_TEST_MACHINE(obj)->stats;
}

static void set_stats(Object *obj, bool value, Error **errp)
{
    LANAI_TEST_MACHINE(obj)->stats = value;
}

static void get_mem(Object *obj, Visitor *v, const char *name, void *opaque,
                    Error **errp)
{
    uint64_t mem = LANAI_TEST_MACHINE(obj)->mem;

    visit_type_uint64(v, name, &mem, errp);
}

static void set_mem(Object *obj, Visitor *v, const char *name, void *opaque,
                    Error **errp)
{
    uint64_t mem;

    if (visit_type_uint64(v, name, &mem, errp)) {
        LANAI_TEST_MACHINE(obj)->mem = mem;
    }
}

static void lanai_test_class_init(ObjectClass *oc, void *data)
{
    MachineClass *mc = MACHINE_CLASS(oc);

    mc->desc = "LANai test machine (console, exit and cycle counter; "
               "docs/test-machine.md)";
    mc->init = lanai_test_init;
    mc->default_cpu_type = LANAI_CPU_TYPE_NAME("v11");
    mc->default_ram_size = 16 * MiB;
    mc->default_ram_id = "lanai.ram";
    mc->max_cpus = 1;
    mc->is_default = true;
    object_class_property_add_bool(oc, "stats", get_stats, set_stats);
    object_class_property_set_description(oc, "stats",
        "print the retired instruction count on stderr at exit");
    object_class_property_add(oc, "mem", "uint64", get_mem, set_mem,
                              NULL, NULL);
    object_class_property_set_description(oc, "mem",
        "RAM size in bytes, exact (-m rounds up to 8 KiB; default: the -m "
        "size)");
}

static const TypeInfo lanai_test_type = {
    .name = TYPE_LANAI_TEST_MACHINE,
    .parent = TYPE_MACHINE,
    .instance_size = sizeof(LanaiTestMachineState),
    .class_init = lanai_test_class_init,
};

static void lanai_test_register_types(void)
{
    type_register_static(&lanai_test_type);
}

type_init(lanai_test_register_types)
