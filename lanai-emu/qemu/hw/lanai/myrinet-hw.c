/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The nodes' hardware in the myrinet machine, as QEMU sees it: each node's
 * LANai CPU in its own CPU cluster with a private address space (SRAM at 0,
 * the special registers at 0xFFFFFE00, which are the NIC device logic,
 * lanai-emu/nic/nic.c), its board window (lanai-emu/nic/board_window.c), and the
 * callbacks through which NIC and board reach the rest of the machine.
 * Every callback gets its node as the opaque pointer it was given here.
 */
#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/error-report.h"
#include "qapi/error.h"
#include "hw/qdev-core.h"
#include "hw/qdev-properties.h"
#include "hw/cpu/cluster.h"
#include "myrinet.h"
#include <sys/mman.h>

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
    MrNode *n = o;

    /* data or an event reaching a host: progress (myrinet-stall.c) */
    mr_progress(n->m, n->m->win_start);
    return hostrt_mem_write(&n->host, bus, buf, len);
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

/* A host-DMA block begins: a line of the event trace (docs/myrinet.md). */
static void env_dma_trace(void *o, int e, uint64_t start, uint64_t done, uint32_t len)
{
    mr_trace(o, start, "dma %s %u bytes, done at %" PRIu64, e ? "e2l" : "l2e", len, done);
}

static void env_rx_done(void *o, uint64_t id, uint64_t t, bool dropped)
{
    mr_rx_done(o, id, t, dropped);
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

/* ---- building a node ------------------------------------------------------------ */

static void build_node(MyrinetState *m, MachineState *ms, unsigned i)
{
    MrNode *n = &m->node[i];
    g_autofree char *name = g_strdup_printf("node%u", i);
    struct nic_env ne = {
        .opaque = n, .now_ps = env_now, .sram_read = env_sram_read,
        .sram_write = env_sram_write, .host_read = env_host_read,
        .host_write = env_host_write, .transmit = env_transmit,
        .irq = env_irq, .wake_at = env_wake_at, .dma_trace = env_dma_trace,
        .rx_done = env_rx_done,
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
    nic_set_backpressure(&n->nic, m->bp, m->bp_timeout_ps);
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

/*
 * softmmu/physmem.c asks this (lanai-emu/hooks.patch) for the one CPU that
 * can hold TLB entries for [host, host + length) when it protects a page
 * of translated code: a node's CPU maps only its own SRAM, so the other
 * 1023 TLBs need no look. NULL (any CPU may) outside one node's SRAM.
 */
extern CPUState *(*ram_owner_cpu_hook)(uintptr_t host, ram_addr_t length);

static CPUState *sram_owner(uintptr_t host, ram_addr_t length)
{
    MrNode *n0 = first_cpu ? first_cpu->opaque : NULL;
    MyrinetState *m;
    uintptr_t base;
    uint64_t off;
    unsigned lo, hi;

    if (!n0) {
        return NULL;
    }
    m = n0->m;
    base = (uintptr_t)m->sram_all;
    if (host < base || host - base + length > m->sram_off[m->nodes]) {
        return NULL;
    }
    off = host - base;
    lo = 0;
    hi = m->nodes;
    while (hi - lo > 1) {       /* sram_off[lo] <= off < sram_off[hi] */
        unsigned mid = (lo + hi) / 2;
        if (m->sram_off[mid] <= off) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    if (off + length > m->sram_off[lo] + m->node[lo].sram_size) {
        return NULL;
    }
    return m->node[lo].cs;
}

/* Every node, with all SRAM in one mapping. */
void mr_nodes_build(MyrinetState *m, MachineState *ms)
{
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
    mr_ext_map_sram(m);     /* board-dir: one node's SRAM is a file */
    memory_region_init_ram_ptr(&m->sram_mr, OBJECT(m), "myrinet.sram",
                               m->sram_off[m->nodes], m->sram_all);
    /* after QEMU's own advice, which a RAM block gets when it is added: a
     * huge page would make the first byte the loader writes into a board
     * cost 2 MB of zeroed host memory */
    madvise(m->sram_all, m->sram_off[m->nodes], MADV_NOHUGEPAGE);
    /* One memory transaction: otherwise every region added re-renders the
     * address spaces of all the nodes built so far (quadratic in nodes). */
    memory_region_transaction_begin();
    for (unsigned i = 0; i < m->nodes; i++) {
        build_node(m, ms, i);
    }
    memory_region_transaction_commit();
    ram_owner_cpu_hook = sram_owner;
}
