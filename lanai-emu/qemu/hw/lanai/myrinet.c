/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -M myrinet: a Myrinet cluster of LANai 9 NICs in one QEMU process
 * (docs/myrinet.md). Each node has
 *   - a LANai CPU in its own CPU cluster with a private address space:
 *     SRAM at 0 (size from the profile) and the special registers at
 *     0xFFFFFE00, which are the NIC device logic (lanai-emu/nic/nic.c),
 *     all built in myrinet-hw.c;
 *   - a board window (lanai-emu/nic/board_window.c): the host's view, through
 *     which the firmware gets in (the LANai powers up held in reset);
 *   - a host running the host program in virtual time (myrinet-host.c).
 * The NICs are linked by the fabric (lanai-emu/fabric): crossbar switches,
 * source routes, cut-through timing, CRC-8, fault rules, pcap trace.
 * The scheduler (myrinet-sched.c) keeps all the clocks in step; myrinet.h
 * draws how the machine's files are layered.
 *
 * This file is the QOM machine: its properties, and at init what they
 * build (profile, topology, fabric, nodes, hosts). Properties: nodes,
 * topology, profile, firmware (the machine's own property: the image every
 * host loads), program, faults, seed, pcap, trace, time-limit,
 * deadlock-after, host-mem,
 * args (the host program's arguments). The machine needs
 * -icount shift=0,sleep=off; lanai-run (the front end) passes everything.
 */
#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/cutils.h"
#include "qemu/error-report.h"
#include "hw/boards.h"
#include "sysemu/cpu-timers.h"
#include "sysemu/reset.h"
#include "target/lanai/cpu.h"
#include "myrinet.h"
#include "nicoll/profile_units.h"

#define EXIT_USAGE 2
#define HOST_MEM_MAX (1ull << 30)   /* DMA-able memory per host */

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

/* The fabric with its fault rules, and the machine's two traces (events,
 * packets): every file is opened before the cluster boots. */
static void build_fabric(MyrinetState *m)
{
    struct fabric_timing ft = {
        .byte_ps = m->prof.link_ps_per_byte,
        .cable_ps = m->prof.link_latency_ps,
        .switch_ps = m->prof.switch_latency_ps,
    };
    char err[512];

    struct fabric_switch_mgmt sw = {
        .entries = (unsigned)m->prof.mcast_entries,
        .agent_ps = m->prof.switch_agent_ps,
        .mc_buffer = (unsigned)m->prof.mcast_buffer,
    };

    m->fabric = fabric_new(m->topo, &ft, m->seed);
    if (!m->fabric || fabric_set_switch_mgmt(m->fabric, &sw)) {
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
    if (m->trace && *m->trace && mr_trace_open(m, m->trace)) {
        usage_error("trace '%s': %s", m->trace, strerror(errno));
    }
    if (m->pcap && *m->pcap &&
        fabric_open_pcap(m->fabric, m->pcap, err, sizeof err)) {
        usage_error("pcap %s", err);
    }
    mr_sm_init(m);
}

static void myrinet_reset(void *opaque)
{
    MyrinetState *m = opaque;

    /* Every CPU passes our hook once; held ones halt there. */
    for (unsigned i = 0; i < m->nodes; i++) {
        CPUState *cs = m->node[i].cs;
        cpu_reset(cs);
        mr_sched_install_hooks(&m->node[i]);
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
    /* Back-pressure (docs/fabric.md): on, as on Myrinet, unless
     * MYRINET_BACKPRESSURE=0 (comparisons, negative controls); the
     * blocking time-out, MYRINET_BP_TIMEOUT=TIME (0: none) */
    m->bp = true;
    if (getenv("MYRINET_BACKPRESSURE")) {
        const char *v = getenv("MYRINET_BACKPRESSURE");
        if (strcmp(v, "0") && strcmp(v, "1")) {
            usage_error("MYRINET_BACKPRESSURE=%s: expected 0 (off) or 1 (on)", v);
        }
        m->bp = !strcmp(v, "1");
    }
    m->bp_timeout_ps = FABRIC_BP_TIMEOUT_PS;
    if (getenv("MYRINET_BP_TIMEOUT")) {
        const char *v = getenv("MYRINET_BP_TIMEOUT");
        if (!strcmp(v, "0")) {
            m->bp_timeout_ps = 0;
        } else if (punit_parse(PDIM_TIME, v, strlen(v), &m->bp_timeout_ps, msg,
                               sizeof msg)) {
            usage_error("MYRINET_BP_TIMEOUT=%s: %s", v, msg);
        }
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

    if (m->deadlock_after && *m->deadlock_after) {
        if (punit_parse(PDIM_TIME, m->deadlock_after, strlen(m->deadlock_after),
                        &m->stall_ps, msg, sizeof msg)) {
            usage_error("deadlock-after '%s': %s", m->deadlock_after, msg);
        }
        if (m->stall_ps == 0) {
            usage_error("deadlock-after '%s': must be longer than 0",
                        m->deadlock_after);
        }
        if (m->board_dir && *m->board_dir) {
            usage_error("deadlock-after: not with board-dir (an outside "
                        "host may act at any time)");
        }
    }

    build_topology(m);
    build_fabric(m);
    mr_sched_init(m);
    mr_nodes_build(m, ms);
    mr_bp_init(m);
    mr_hosts_init(m);
    qemu_register_reset(myrinet_reset, m);
    printf("myrinet: %u nodes, profile %s, topology %s, seed %" PRIu64
           ", lookahead %" PRIu64 " ps\n", m->nodes, m->prof.name,
           m->topology ? m->topology : "crossbar", m->seed, m->lookahead_ps);
    mr_ext_attach(m);       /* board-dir: after the first line, as it says */
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
STR_PROP(deadlock_after, "deadlock-after")
STR_PROP(host_mem, "host-mem")
STR_PROP(args, "args")
STR_PROP(board_dir, "board-dir")
STR_PROP(sm_node, "sm-node")

static char *get_board_node(Object *o, Error **errp)
{
    return g_strdup_printf("%u", MYRINET_MACHINE(o)->board_node);
}

static void set_board_node(Object *o, const char *v, Error **errp)
{
    MYRINET_MACHINE(o)->board_node = parse_u64("board-node", v, 0);
}

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
        { "deadlock-after", "end the run (status 3) when no host made "
          "progress for this long (e.g. 5ms; docs/emu.md)",
          get_deadlock_after, set_deadlock_after },
        { "host-mem", "DMA-able memory per host (default 4MB)",
          get_host_mem, set_host_mem },
        { "args", "the host program's arguments, space-separated, %XX "
          "escapes", get_args, set_args },
        { "board-dir", "expose node board-node's board window and DMA memory "
          "as files here, for an outside host (docs/myrinet.md)",
          get_board_dir, set_board_dir },
        { "board-node", "the node of board-dir (default 0)", get_board_node,
          set_board_node },
        { "sm-node", "the node whose process is the management entity "
          "(docs/fabric.md; default none)", get_sm_node, set_sm_node },
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
