/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -M myrinet: a Myrinet cluster of LANai 9 NICs in one QEMU process
 * (docs/myrinet.md). Each node has
 *   - a LANai CPU in its own CPU cluster with a private address space:
 *     SRAM at 0 (size from the profile) and the special registers at
 *     0xFFFFFE00, which are the NIC device logic (lanai-emu/nic/nic.c);
 *   - a board window (lanai-emu/nic/board.c): the host's view, through
 *     which the firmware gets in (the LANai powers up held in reset);
 *   - a host running the host program in virtual time (myrinet-host.c).
 * The NICs are linked by the fabric (lanai-emu/fabric): crossbar switches,
 * source routes, cut-through timing, CRC-8, fault rules, pcap trace.
 * myrinet-sync.c keeps all the clocks in step.
 *
 * Properties: nodes, topology, profile, firmware (the machine's own
 * property: the image every host loads), program, faults, seed, pcap,
 * time-limit, host-mem, args (the host program's arguments). The machine needs -icount shift=0,sleep=off; lanai-run (the
 * front end) passes everything.
 */
#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/cutils.h"
#include "qemu/error-report.h"
#include "qapi/error.h"
#include "hw/boards.h"
#include "hw/qdev-core.h"
#include "hw/qdev-properties.h"
#include "hw/cpu/cluster.h"
#include "sysemu/cpu-timers.h"
#include "sysemu/reset.h"
#include "exec/address-spaces.h"
#include "target/lanai/cpu.h"
#include "myrinet.h"
#include "nicoll/profile_units.h"
#include <sys/mman.h>

#define EXIT_USAGE 2
#define HOST_MEM_MAX (1ull << 30)   /* DMA-able memory per host */

/* ---- the special registers, as the LANai sees them ------------------------ */

/*
 * The region covers the whole last 4 KB page, of which only the top 0x200
 * bytes are registers: a region smaller than a page would make QEMU
 * dispatch every access twice (through a subpage), and register accesses
 * are the machine's hottest path. The rest of the page answers with a
 * decode error, so the CPU traps there as at any unmapped address.
 */
#define MR_SPECIAL_PAGE  0xFFFFF000u
#define MR_SPECIAL_SKIP  (MR_SPECIAL_BASE - MR_SPECIAL_PAGE)

static MemTxResult specials_read(void *opaque, hwaddr addr, uint64_t *data,
                                 unsigned size, MemTxAttrs attrs)
{
    MrNode *n = opaque;

    if (addr < MR_SPECIAL_SKIP) {
        return MEMTX_DECODE_ERROR;
    }
    addr -= MR_SPECIAL_SKIP;
    if (nic_reg_varies_with_time(addr)) {
        n->disturb++;           /* the CPU saw time pass: not idle */
    }
    n->in_mmio = true;
    *data = nic_reg_read(&n->nic, addr, false);
    n->in_mmio = false;
    return MEMTX_OK;
}

static MemTxResult specials_write(void *opaque, hwaddr addr, uint64_t val,
                                  unsigned size, MemTxAttrs attrs)
{
    MrNode *n = opaque;

    if (addr < MR_SPECIAL_SKIP) {
        return MEMTX_DECODE_ERROR;
    }
    n->disturb++;               /* the CPU changed its NIC: not idle */
    n->in_mmio = true;
    nic_reg_write(&n->nic, addr - MR_SPECIAL_SKIP, val, false);
    n->in_mmio = false;
    return MEMTX_OK;
}

static const MemoryRegionOps specials_ops = {
    .read_with_attrs = specials_read,
    .write_with_attrs = specials_write,
    .endianness = DEVICE_BIG_ENDIAN,
    /* 32-bit registers: other widths fail and the CPU traps */
    .valid = { .min_access_size = 4, .max_access_size = 4 },
    .impl = { .min_access_size = 4, .max_access_size = 4 },
};

/* ---- the NIC's environment ---------------------------------------------------- */

static uint64_t env_now(void *o)
{
    return mr_node_now(o);
}

static void env_sram_read(void *o, uint32_t addr, void *buf, uint32_t len)
{
    MrNode *n = o;

    memcpy(buf, n->sram_ptr + addr, len);
}

/* Writes from outside the CPU (engines, board window) go through the CPU's
 * address space so that translated code on those pages is invalidated.
 * Zeros over zeros are skipped: the loader clears all of SRAM, and pages
 * never written stay unallocated (1024 nodes x 2 MB). */
void mr_sram_write(MrNode *n, uint32_t addr, const void *buf, uint32_t len)
{
    if (buffer_is_zero(buf, len) && buffer_is_zero(n->sram_ptr + addr, len)) {
        return;
    }
    address_space_write(n->cs->as, addr, MEMTXATTRS_UNSPECIFIED, buf, len);
}

static void env_sram_write(void *o, uint32_t addr, const void *buf,
                           uint32_t len)
{
    mr_sram_write(o, addr, buf, len);
}

static bool env_host_read(void *o, uint64_t bus, void *buf, uint32_t len)
{
    return hostrt_mem_read(&((MrNode *)o)->host, bus, buf, len);
}

static bool env_host_write(void *o, uint64_t bus, const void *buf,
                           uint32_t len)
{
    return hostrt_mem_write(&((MrNode *)o)->host, bus, buf, len);
}

static void env_transmit(void *o, uint64_t t, const uint8_t *pkt, size_t len)
{
    mr_transmit(o, t, pkt, len);
}

/* DMA blocks take the profile's time (docs/profiles.md, "DMA"). */
static uint64_t node_dma_ps(const void *pp, bool read, uint32_t len)
{
    return profile_dma_ps(pp, read, len);
}

static void env_irq(void *o, bool level)
{
    board_nic_irq(&((MrNode *)o)->board, level);
}

static void env_wake_at(void *o, uint64_t t)
{
    mr_wake_at(o, t);
}

static void board_cpu_hold(void *o, bool hold)
{
    mr_cpu_hold(o, hold);
}

static void board_host_irq(void *o, bool level)
{
    MrNode *n = o;

    hostrt_irq(&n->host, mr_node_now(n), level);
}

/* ---- set-up -------------------------------------------------------------------- */

static G_NORETURN void usage_error(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
static void usage_error(const char *fmt, ...)
{
    va_list ap;
    g_autofree char *msg = NULL;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    error_report("%s", msg);   /* prefixed with the program name (lanai-run) */
    exit(EXIT_USAGE);
}

static void build_topology(MyrinetState *m)
{
    const char *spec = m->topology ? m->topology : "crossbar";
    char err[512];
    int rc;

    m->topo = topo_new();
    if (!strcmp(spec, "crossbar")) {
        rc = topo_gen_crossbar(m->topo, m->nodes, err, sizeof err);
    } else if (!strcmp(spec, "fattree")) {
        rc = topo_gen_fattree(m->topo, m->nodes, m->prof.switch_ports, err,
                              sizeof err);
    } else if (g_str_has_prefix(spec, "random:")) {
        unsigned sw, ports;
        uint64_t seed;
        char tail;

        if (sscanf(spec, "random:%u:%u:%" SCNu64 "%c", &sw, &ports, &seed,
                   &tail) != 3) {
            usage_error("topology '%s': expected random:SWITCHES:PORTS:SEED",
                        spec);
        }
        rc = topo_gen_random(m->topo, m->nodes, sw, ports, ports / 2, seed,
                             err, sizeof err);
    } else {
        rc = topo_load(m->topo, spec, err, sizeof err);
        if (!rc && m->topo->nnodes != m->nodes) {
            usage_error("topology file %s has %u nodes, the machine %u", spec,
                        m->topo->nnodes, m->nodes);
        }
    }
    if (rc || topo_finish(m->topo, err, sizeof err)) {
        usage_error("topology '%s': %s", spec, err);
    }
}

static void build_fabric(MyrinetState *m)
{
    struct fabric_timing ft = {
        .byte_ps = m->prof.link_ps_per_byte,
        .cable_ps = m->prof.link_latency_ps,
        .switch_ps = m->prof.switch_latency_ps,
    };
    char err[512];

    m->fabric = fabric_new(m->topo, &ft, m->seed);
    if (!m->fabric) {
        usage_error("cannot create the fabric");
    }
    fabric_set_fault_log(m->fabric, stdout);
    if (m->faults && *m->faults) {
        g_auto(GStrv) rules = g_strsplit(m->faults, ";", -1);
        for (char **r = rules; *r; r++) {
            if (!**r) {
                usage_error("fault rule '': empty (drop|corrupt|delay|down:"
                            "FIELD=VALUE,...; docs/fabric.md)");
            }
            if (fabric_add_fault(m->fabric, *r, err, sizeof err)) {
                usage_error("%s", err);
            }
        }
    }
    if (m->trace && *m->trace && !(m->trace_f = fopen(m->trace, "w"))) {
        usage_error("trace '%s': %s", m->trace, strerror(errno));
    }
    if (m->pcap && *m->pcap &&
        fabric_open_pcap(m->fabric, m->pcap, err, sizeof err)) {
        usage_error("pcap %s", err);
    }
}

static void build_node(MyrinetState *m, MachineState *ms, unsigned i)
{
    MrNode *n = &m->node[i];
    g_autofree char *name = g_strdup_printf("node%u", i);
    struct nic_env ne = {
        .opaque = n, .now_ps = env_now, .sram_read = env_sram_read,
        .sram_write = env_sram_write, .host_read = env_host_read,
        .host_write = env_host_write, .transmit = env_transmit,
        .irq = env_irq, .wake_at = env_wake_at,
    };
    struct board_env be = {
        .opaque = n, .cpu_hold = board_cpu_hold, .host_irq = board_host_irq,
    };
    struct board_eeprom_info ee = { 0 };
    struct nic_timing nt;
    const struct profile_params *pp;
    Object *cpu;

    n->id = i;
    n->m = m;
    n->pp = pp = profile_node(&m->prof, i);
    n->sram_size = pp->nic_sram_bytes;
    n->state = MR_HELD;
    n->wake_ps = UINT64_MAX;
    n->line = g_string_new(NULL);

    /* SRAM: a slice of the one RAM block of all nodes (QEMU looks RAM
     * blocks up by host address linearly, on every translation-block
     * lookup that misses its cache) */
    n->sram_ptr = m->sram_all + m->sram_off[i];

    memory_region_init(&n->container, OBJECT(m), name, 0x100000000ull);
    memory_region_init_alias(&n->sram, OBJECT(m), "sram", &m->sram_mr,
                             m->sram_off[i], n->sram_size);
    memory_region_add_subregion(&n->container, 0, &n->sram);
    memory_region_init_io(&n->specials, OBJECT(m), &specials_ops, n,
                          "specials", 0x1000);
    memory_region_add_subregion(&n->container, MR_SPECIAL_PAGE, &n->specials);

    /* One cluster per node: the CPUs do not share a view of memory. TCG
     * has 8 bits for the cluster; past 255 nodes ids repeat, which is
     * harmless here because translated code is keyed by the SRAM's own
     * RAM address, different for every node. */
    n->cluster = object_new(TYPE_CPU_CLUSTER);
    object_property_add_child(OBJECT(m), name, n->cluster);
    qdev_prop_set_uint32(DEVICE(n->cluster), "cluster-id", i % MAX_CLUSTERS);
    cpu = object_new(ms->cpu_type);
    object_property_add_child(n->cluster, "cpu", cpu);
    object_property_set_link(cpu, "memory", OBJECT(&n->container),
                             &error_fatal);
    qdev_realize(DEVICE(cpu), NULL, &error_fatal);
    object_unref(cpu);
    qdev_realize(DEVICE(n->cluster), NULL, &error_fatal);
    object_unref(n->cluster);
    n->cs = CPU(cpu);
    if (n->cs->cpu_index != (int)i) {
        error_report("myrinet: node %u got CPU index %d", i, n->cs->cpu_index);
        exit(1);
    }

    nt.byte_ps = m->prof.link_ps_per_byte;
    nt.dma_fixed_ps = pp->pci_transaction_ps;
    nt.dma_read_ps = pp->pci_dma_read_ps;
    nt.dma_ps_per_byte = (1000000000000ull + pp->pci_clock_hz *
                          (pp->pci_width_bits / 8) / 2) /
                         (pp->pci_clock_hz * (pp->pci_width_bits / 8));
    nt.dma_burst = pp->pci_max_burst;
    nt.dma_ps = node_dma_ps;
    nt.dma_ctx = pp;
    if (nic_init(&n->nic, &ne, &nt, n->sram_size)) {
        error_report("myrinet: node %u: out of memory", i);
        exit(1);
    }
    ee.clockval = pp->nic_clock_hz / 1000000;
    ee.sram_size = n->sram_size;
    ee.serial = 0x10000 + i;
    ee.max_speed_mhz = pp->nic_clock_hz / 1000000;
    ee.cpu_version = 0x0900;
    ee.board_id[0] = 0x00;
    ee.board_id[1] = 0x60;
    ee.board_id[2] = 0xDD;
    ee.board_id[4] = i >> 8;
    ee.board_id[5] = i;
    snprintf(ee.label, sizeof ee.label, "nicoll emulated LANai 9");
    board_init(&n->board, &be, &n->nic, &ee);
}

static void myrinet_reset(void *opaque)
{
    MyrinetState *m = opaque;

    /* Every CPU passes our hook once; held ones halt there. */
    for (unsigned i = 0; i < m->nodes; i++) {
        CPUState *cs = m->node[i].cs;
        cpu_reset(cs);
        mr_sync_install_hooks(cs);
        cs->halted = 0;
    }
}

static uint64_t parse_u64(const char *what, const char *s, uint64_t def)
{
    uint64_t v;

    if (!s || !*s) {
        return def;
    }
    if (qemu_strtou64(s, NULL, 0, &v)) {
        usage_error("%s '%s' is not a number", what, s);
    }
    return v;
}

static void myrinet_init(MachineState *ms)
{
    MyrinetState *m = MYRINET_MACHINE(ms);
    char err[512], msg[256];

    if (!icount_enabled()) {
        usage_error("the machine keeps one clock per NIC with icount: run "
                    "with -icount shift=0,sleep=off (lanai-run does)");
    }
    if (m->nodes < 1 || m->nodes > PROFILE_MAX_NODES) {
        usage_error("nodes=%u: must be 1..%u", m->nodes, PROFILE_MAX_NODES);
    }
    if (!m->profile_path) {
        usage_error("no profile (profile=FILE)");
    }
    if (profile_load(&m->prof, m->profile_path, err, sizeof err)) {
        usage_error("profile: %s", err);
    }
    m->lookahead_ps = profile_lookahead_ps(&m->prof);
    if (getenv("MYRINET_LOOKAHEAD_PS")) {
        /* tests: shorter windows must give the same results */
        uint64_t l = strtoull(getenv("MYRINET_LOOKAHEAD_PS"), NULL, 0);
        if (l == 0 || l > m->lookahead_ps) {
            usage_error("MYRINET_LOOKAHEAD_PS=%s: must be 1..%" PRIu64,
                        getenv("MYRINET_LOOKAHEAD_PS"), m->lookahead_ps);
        }
        m->lookahead_ps = l;
    }
    m->host_mem_bytes = 4 * MiB;
    if (m->host_mem && *m->host_mem &&
        punit_parse(PDIM_SIZE, m->host_mem, strlen(m->host_mem),
                    &m->host_mem_bytes, msg, sizeof msg)) {
        usage_error("host-mem '%s': %s", m->host_mem, msg);
    }
    if (m->host_mem_bytes > HOST_MEM_MAX) {
        usage_error("host-mem '%s': more than %u MiB per host", m->host_mem,
                    (unsigned)(HOST_MEM_MAX >> 20));
    }
    if (m->time_limit && *m->time_limit &&
        punit_parse(PDIM_TIME, m->time_limit, strlen(m->time_limit),
                    &m->limit_ps, msg, sizeof msg)) {
        usage_error("time-limit '%s': %s", m->time_limit, msg);
    }

    build_topology(m);
    build_fabric(m);
    mr_sync_init(m);
    m->node = g_new0(MrNode, m->nodes);
    /* All SRAM in one mapping of our own, without QEMU's huge-page advice,
     * so that 1024 nodes cost only the pages their firmware touches. */
    m->sram_off = g_new0(uint64_t, m->nodes + 1);
    for (unsigned i = 0; i < m->nodes; i++) {
        uint64_t sz = profile_node(&m->prof, i)->nic_sram_bytes;
        m->sram_off[i + 1] = m->sram_off[i] + ROUND_UP(sz, 64 * KiB);
    }
    m->sram_all = mmap(NULL, m->sram_off[m->nodes], PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m->sram_all == MAP_FAILED) {
        error_report("myrinet: cannot map %" PRIu64 " bytes of SRAM",
                     m->sram_off[m->nodes]);
        exit(1);
    }
    madvise(m->sram_all, m->sram_off[m->nodes], MADV_NOHUGEPAGE);
    memory_region_init_ram_ptr(&m->sram_mr, OBJECT(m), "myrinet.sram",
                               m->sram_off[m->nodes], m->sram_all);
    /* One memory transaction: otherwise every region added re-renders the
     * address spaces of all the nodes built so far (quadratic in nodes). */
    memory_region_transaction_begin();
    for (unsigned i = 0; i < m->nodes; i++) {
        build_node(m, ms, i);
    }
    memory_region_transaction_commit();
    mr_hosts_init(m);
    qemu_register_reset(myrinet_reset, m);
    printf("myrinet: %u nodes, profile %s, topology %s, seed %" PRIu64
           ", lookahead %" PRIu64 " ps\n", m->nodes, m->prof.name,
           m->topology ? m->topology : "crossbar", m->seed, m->lookahead_ps);
}

/* ---- properties ------------------------------------------------------------------- */

#define STR_PROP(field, pname)                                              \
    static char *get_##field(Object *o, Error **errp)                       \
    {                                                                       \
        return g_strdup(MYRINET_MACHINE(o)->field);                         \
    }                                                                       \
    static void set_##field(Object *o, const char *v, Error **errp)         \
    {                                                                       \
        MyrinetState *m = MYRINET_MACHINE(o);                               \
        g_free(m->field);                                                   \
        m->field = g_strdup(v);                                             \
    }

STR_PROP(topology, "topology")
STR_PROP(profile_path, "profile")
STR_PROP(program, "program")
STR_PROP(faults, "faults")
STR_PROP(pcap, "pcap")
STR_PROP(trace, "trace")
STR_PROP(time_limit, "time-limit")
STR_PROP(host_mem, "host-mem")
STR_PROP(args, "args")

static char *get_nodes(Object *o, Error **errp)
{
    return g_strdup_printf("%u", MYRINET_MACHINE(o)->nodes);
}

static void set_nodes(Object *o, const char *v, Error **errp)
{
    MYRINET_MACHINE(o)->nodes = parse_u64("nodes", v, 0);
}

static char *get_seed(Object *o, Error **errp)
{
    return g_strdup_printf("%" PRIu64, MYRINET_MACHINE(o)->seed);
}

static void set_seed(Object *o, const char *v, Error **errp)
{
    MYRINET_MACHINE(o)->seed = parse_u64("seed", v, 1);
}

static void myrinet_instance_init(Object *o)
{
    MyrinetState *m = MYRINET_MACHINE(o);

    m->nodes = 2;
    m->seed = 1;
}

static void myrinet_class_init(ObjectClass *oc, void *data)
{
    MachineClass *mc = MACHINE_CLASS(oc);
    static const struct {
        const char *name, *desc;
        char *(*get)(Object *, Error **);
        void (*set)(Object *, const char *, Error **);
    } props[] = {
        { "nodes", "number of nodes, 1..4096 (default 2)", get_nodes, set_nodes },
        { "topology", "crossbar | fattree | random:SW:PORTS:SEED | FILE",
          get_topology, set_topology },
        { "profile", "platform profile file (lanai-emu/profiles)",
          get_profile_path, set_profile_path },
        { "program", "host program, a shared object with main()",
          get_program, set_program },
        { "faults", "fault rules separated by ';' (docs/fabric.md)",
          get_faults, set_faults },
        { "seed", "seed of every random choice (default 1)", get_seed, set_seed },
        { "pcap", "write the packet trace here", get_pcap, set_pcap },
        { "trace", "write the event trace here (docs/myrinet.md)",
          get_trace, set_trace },
        { "time-limit", "stop at this virtual time (e.g. 10ms)",
          get_time_limit, set_time_limit },
        { "host-mem", "DMA-able memory per host (default 4MB)",
          get_host_mem, set_host_mem },
        { "args", "the host program's arguments, space-separated, %XX "
          "escapes", get_args, set_args },
    };

    mc->desc = "Myrinet cluster of LANai 9 NICs with hosts, in virtual time "
               "(docs/myrinet.md)";
    mc->init = myrinet_init;
    mc->default_cpu_type = LANAI_CPU_TYPE_NAME("v11");
    mc->max_cpus = PROFILE_MAX_NODES;
    for (size_t i = 0; i < ARRAY_SIZE(props); i++) {
        object_class_property_add_str(oc, props[i].name, props[i].get,
                                      props[i].set);
        object_class_property_set_description(oc, props[i].name,
                                              props[i].desc);
    }
}

static const TypeInfo myrinet_type = {
    .name = TYPE_MYRINET_MACHINE,
    .parent = TYPE_MACHINE,
    .instance_size = sizeof(MyrinetState),
    .instance_init = myrinet_instance_init,
    .class_init = myrinet_class_init,
};

static void myrinet_register_types(void)
{
    type_register_static(&myrinet_type);
}

type_init(myrinet_register_types)
