/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The reference cluster simulator (refsim.h). One loop: take the earliest
 * of (the next pending event, the earliest running CPU, the earliest host)
 * - ties in that order, then by node id - and advance it: apply the event,
 * execute one instruction, or run the host until just past the others.
 * Events (PIO arriving on a board, packets entering the fabric, NIC wake-ups)
 * sit in a heap ordered by (time, insertion), so the fabric sees packets in
 * time order and everything is reproducible.
 */
#include "refsim.h"

#include <stdlib.h>
#include <string.h>

#include "nicoll/lanai9_regs.h"
#include "profile.h"

#define TM_CONSOLE 0xFFFF0000u   /* LANai debug console, as the test machine's */
#define TM_EXIT    0xFFFF0004u

enum ev_kind { EV_PIO_WRITE, EV_PIO_READ, EV_NIC_WAKE, EV_INJECT, EV_DELIVER, EV_TX_FLOW };

struct refsim_event {
    uint64_t t, seq;
    enum ev_kind kind;
    unsigned node;
    uint32_t a, b;
    uint8_t *pkt;
    size_t len;
    struct fabric_delivery *d;      /* EV_DELIVER */
};

static struct refsim *cur_sim;   /* callbacks get the node as opaque */

/* ---- the event heap ------------------------------------------------------ */

static bool before(const struct refsim_event *x, const struct refsim_event *y)
{
    return x->t < y->t || (x->t == y->t && x->seq < y->seq);
}

static void push(struct refsim *s, struct refsim_event e)
{
    size_t i;

    if (s->nheap == s->capheap) {
        size_t cap = s->capheap ? s->capheap * 2 : 1024;
        struct refsim_event *h = realloc(s->heap, cap * sizeof *h);
        if (!h) {
            fprintf(stderr, "refsim: out of memory\n");
            exit(1);
        }
        s->heap = h;
        s->capheap = cap;
    }
    e.seq = s->seq++;
    i = s->nheap++;
    while (i && before(&e, &s->heap[(i - 1) / 2])) {
        s->heap[i] = s->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->heap[i] = e;
}

static struct refsim_event pop(struct refsim *s)
{
    struct refsim_event top = s->heap[0], last = s->heap[--s->nheap];
    size_t i = 0;

    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= s->nheap)
            break;
        if (c + 1 < s->nheap && before(&s->heap[c + 1], &s->heap[c]))
            c++;
        if (!before(&s->heap[c], &last))
            break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (s->nheap)
        s->heap[i] = last;
    return top;
}

/* ---- time ---------------------------------------------------------------- */

uint64_t refsim_nic_time(const struct refsim *s, unsigned i)
{
    const struct refsim_node *n = &s->node[i];

    if (!n->started || n->held || n->halted)
        return s->now_ps;     /* a stopped CPU's clock follows the cluster */
    return n->base_ps + (uint64_t)((unsigned __int128)n->cpu.icount * 1000000000000ull /
                                   s->cfg.nic_clock_hz);
}

/* ---- NIC environment -------------------------------------------------------- */

static struct refsim_node *N(void *o) { return o; }

static uint64_t e_now(void *o) { return refsim_nic_time(cur_sim, N(o)->id); }

static void e_sram_read(void *o, uint32_t a, void *b, uint32_t l)
{
    memcpy(b, N(o)->sram + a, l);
}

static void e_sram_write(void *o, uint32_t a, const void *b, uint32_t l)
{
    memcpy(N(o)->sram + a, b, l);
}

static bool e_host_read(void *o, uint64_t bus, void *b, uint32_t l)
{
    return hostrt_mem_read(&N(o)->host, bus, b, l);
}

static bool e_host_write(void *o, uint64_t bus, const void *b, uint32_t l)
{
    return hostrt_mem_write(&N(o)->host, bus, b, l);
}

static void e_transmit(void *o, uint64_t t, const uint8_t *pkt, size_t len)
{
    struct refsim_event e = { .t = t, .kind = EV_INJECT, .node = N(o)->id };

    e.pkt = malloc(len ? len : 1);
    if (!e.pkt)
        return;
    memcpy(e.pkt, pkt, len);
    e.len = len;
    push(cur_sim, e);
}

/* Back-pressure: the NIC took or dropped a packet held in the network.
 * The fabric hands on what moves on as events (bp_deliver, bp_flow), so
 * it never calls back into a NIC from here. */
static void e_rx_done(void *o, uint64_t id, uint64_t t, bool dropped)
{
    fabric_rx_done(cur_sim->fabric, N(o)->id, id, t, dropped);
}

static unsigned bp_room(void *o, unsigned dst)
{
    struct refsim_node *n = &((struct refsim *)o)->node[dst];

    return n->rx_inflight ? 0 : nic_rx_room(&n->nic);
}

/* A delivery reaches its NIC at its head time (a held packet that queued
 * behind another for its receiver's link: now, in line). */
static void bp_deliver(void *o, const struct fabric_delivery *d)
{
    struct refsim *s = o;
    struct refsim_event e = { .t = d->head_ps > s->now_ps ? d->head_ps : s->now_ps,
                              .kind = EV_DELIVER, .node = d->dst };

    e.d = malloc(sizeof *d);
    if (!e.d) {
        fprintf(stderr, "refsim: out of memory\n");
        exit(1);
    }
    memcpy(e.d, d, offsetof(struct fabric_delivery, data) + d->len);
    s->node[d->dst].rx_inflight++;
    push(s, e);
}

static void bp_tx_stop(void *o, unsigned src, uint64_t t)
{
    push(o, (struct refsim_event){ .t = t, .kind = EV_TX_FLOW, .node = src, .a = 0 });
}

static void bp_tx_go(void *o, unsigned src, uint64_t t)
{
    push(o, (struct refsim_event){ .t = t, .kind = EV_TX_FLOW, .node = src, .a = 1 });
}

static void e_irq(void *o, bool level)
{
    board_nic_irq(&N(o)->board, level);
}

static void e_wake(void *o, uint64_t t)
{
    struct refsim_node *n = N(o);

    /* one queued wake-up per NIC: only an earlier one replaces it */
    if (n->wake_pending && n->wake_pending <= t)
        return;
    n->wake_pending = t;
    push(cur_sim, (struct refsim_event){ .t = t, .kind = EV_NIC_WAKE, .node = n->id });
}

static void b_hold(void *o, bool hold)
{
    struct refsim_node *n = N(o);

    if (hold) {
        n->held = true;
        return;
    }
    /* released: the CPU starts at 0 now, its cycle 0 is this instant */
    n->held = false;
    n->halted = false;
    n->started = true;
    n->base_ps = cur_sim->now_ps;
    iss_reset(&n->cpu, n->sram, cur_sim->cfg.sram_size, 0);
}

static void b_host_irq(void *o, bool level)
{
    hostrt_irq(&N(o)->host, cur_sim->now_ps, level);
}

/* The LANai's accesses above SRAM: special registers and a debug console. */
static bool cpu_mmio(struct iss *cpu, void *ctx, uint32_t addr, unsigned size, bool write,
                     uint32_t *val)
{
    struct refsim_node *n = ctx;

    (void)cpu;
    if (size != 4)
        return false;
    if (addr >= L9_SPECIAL_BASE) {
        if (write)
            nic_reg_write(&n->nic, addr - L9_SPECIAL_BASE, *val, false);
        else
            *val = nic_reg_read(&n->nic, addr - L9_SPECIAL_BASE, false);
        return true;
    }
    if (addr == TM_CONSOLE && write) {
        char c = (char)(*val & 0xFF);
        if (c == '\n' || n->linelen == sizeof n->line - 1) {
            fprintf(cur_sim->cfg.out, "[lanai %u %12.3f us] %.*s\n", n->id,
                    (double)refsim_nic_time(cur_sim, n->id) / 1e6, (int)n->linelen, n->line);
            n->linelen = 0;
        }
        if (c != '\n')
            n->line[n->linelen++] = c;
        return true;
    }
    if (addr == TM_EXIT && write) {
        n->halted = true;     /* the firmware stopped itself */
        return true;
    }
    return false;
}

/* ---- host machine ------------------------------------------------------------ */

static void h_pio_write(void *o, unsigned node, uint64_t t, uint32_t off, uint32_t val)
{
    (void)o;
    push(cur_sim, (struct refsim_event){ .t = t, .kind = EV_PIO_WRITE, .node = node,
                                         .a = off, .b = val });
}

static void h_pio_read(void *o, unsigned node, uint64_t t, uint32_t off)
{
    (void)o;
    push(cur_sim, (struct refsim_event){ .t = t, .kind = EV_PIO_READ, .node = node, .a = off });
}

static void h_console(void *o, unsigned node, uint64_t t, const char *text, size_t len)
{
    (void)o;
    fprintf(cur_sim->cfg.out, "[host %u %12.3f us] %.*s\n", node, (double)t / 1e6,
            (int)len, text);
}

/* DMA blocks take the profile's time (docs/profiles.md, "DMA"). */
static uint64_t refsim_dma_ps(const void *pp, bool read, uint32_t len)
{
    return profile_dma_ps(pp, read, len);
}

/* ---- set-up -------------------------------------------------------------------- */

void refsim_config_from_profile(struct refsim_config *cfg, const struct profile *p)
{
    const struct profile_params *pp = &p->base;

    cfg->nic_clock_hz = pp->nic_clock_hz;
    cfg->sram_size = (uint32_t)pp->nic_sram_bytes;
    cfg->nic.byte_ps = p->link_ps_per_byte;
    cfg->nic.dma_fixed_ps = pp->pci_transaction_ps;
    cfg->nic.dma_read_ps = pp->pci_dma_read_ps;
    cfg->nic.dma_ps_per_byte = 1000000000000ull / (pp->pci_clock_hz * (pp->pci_width_bits / 8));
    cfg->nic.dma_burst = (uint32_t)pp->pci_max_burst;
    cfg->nic.dma_ps = refsim_dma_ps;
    cfg->nic.dma_ctx = pp;
    cfg->fabric.byte_ps = p->link_ps_per_byte;
    cfg->fabric.cable_ps = p->link_latency_ps;
    cfg->fabric.switch_ps = p->switch_latency_ps;
    cfg->sw.entries = (unsigned)p->mcast_entries;
    cfg->sw.agent_ps = p->switch_agent_ps;
    cfg->sw.mc_buffer = (unsigned)p->mcast_buffer;
    cfg->host.pio_read_ps = pp->pci_pio_read_ps;
    cfg->host.pio_write_ps = pp->pci_pio_write_ps;
    cfg->host.pio_write_latency_ps = pp->pci_pio_write_latency_ps;
    cfg->host.copy_fixed_ps = pp->host_copy_fixed_ps;
    cfg->host.copy_ps_per_byte = pp->host_copy_ps_per_byte;
    cfg->host.interrupt_ps = pp->host_interrupt_ps;
    cfg->host.poll_ps = pp->host_poll_ps;
    cfg->host.compute_scale_micro = pp->host_compute_scale_micro;
    cfg->host.post_ps = pp->host_post_ps;
    cfg->host.recv_ps = pp->host_recv_ps;
    cfg->host.signal_ps = pp->host_signal_ps;
    cfg->backpressure = true;
    cfg->bp_timeout_ps = FABRIC_BP_TIMEOUT_PS;
}

int refsim_init(struct refsim *s, const struct refsim_config *cfg, const struct topo *t,
                int (*main)(int, char **), int argc, char **argv)
{
    static const struct hostrt_machine hm = {
        .pio_write = h_pio_write, .pio_read = h_pio_read, .console = h_console,
    };

    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    if (!s->cfg.out)
        s->cfg.out = stdout;
    s->topo = t;
    if (cfg->nodes != t->nnodes || !cfg->nic_clock_hz)
        return -1;
    s->fabric = fabric_new(t, &cfg->fabric, cfg->seed);
    s->node = calloc(cfg->nodes, sizeof *s->node);
    if (!s->fabric || !s->node ||
        (cfg->sw.entries && fabric_set_switch_mgmt(s->fabric, &cfg->sw)))
        return -1;
    cur_sim = s;
    if (cfg->backpressure) {
        struct fabric_bp bp = { .opaque = s, .room = bp_room, .deliver = bp_deliver,
                                .tx_stop = bp_tx_stop, .tx_go = bp_tx_go };
        fabric_set_backpressure(s->fabric, &bp);
    }
    for (unsigned i = 0; i < cfg->nodes; i++) {
        struct refsim_node *n = &s->node[i];
        struct nic_env env = { n, e_now, e_sram_read, e_sram_write, e_host_read, e_host_write,
                               e_transmit, e_irq, e_wake, NULL,
                               cfg->backpressure ? e_rx_done : NULL };
        struct board_env benv = { n, b_hold, b_host_irq };
        struct board_eeprom_info ee = { 0x50, cfg->sram_size, 1000 + i,
                                        (uint32_t)(cfg->nic_clock_hz / 1000000), 0x0901,
                                        { 0x00, 0x60, 0xDD, 0, (uint8_t)(i >> 8), (uint8_t)i },
                                        "nicoll refsim board" };
        n->id = i;
        n->sram = calloc(1, cfg->sram_size);
        if (!n->sram || nic_init(&n->nic, &env, &cfg->nic, cfg->sram_size))
            return -1;
        nic_set_backpressure(&n->nic, cfg->backpressure, cfg->bp_timeout_ps);
        n->cpu.mmio = cpu_mmio;
        n->cpu.mmio_ctx = n;
        board_init(&n->board, &benv, &n->nic, &ee);
        if (hostrt_init(&n->host, i, cfg->nodes, &hm, &cfg->host, main, argc, argv,
                        cfg->host_mem, 0))
            return -1;
    }
    return 0;
}

void refsim_destroy(struct refsim *s)
{
    for (unsigned i = 0; s->node && i < s->cfg.nodes; i++) {
        nic_destroy(&s->node[i].nic);
        hostrt_destroy(&s->node[i].host);
        free(s->node[i].sram);
    }
    while (s->nheap) {
        struct refsim_event e = pop(s);
        free(e.pkt);
        free(e.d);
    }
    free(s->heap);
    free(s->node);
    fabric_free(s->fabric);
    memset(s, 0, sizeof *s);
}

/* ---- the loop --------------------------------------------------------------------- */

static void apply(struct refsim *s, struct refsim_event *e)
{
    struct refsim_node *n = &s->node[e->node];
    struct fabric_delivery *d;

    switch (e->kind) {
    case EV_PIO_WRITE:
        board_write32(&n->board, e->a, e->b);
        break;
    case EV_PIO_READ:
        hostrt_pio_reply(&n->host, board_read32(&n->board, e->a));
        break;
    case EV_NIC_WAKE:
        if (e->t != n->wake_pending)
            break;            /* superseded by an earlier one */
        n->wake_pending = 0;
        nic_advance(&n->nic);
        break;
    case EV_INJECT:
        d = malloc(sizeof *d);
        /* with back-pressure every delivery comes as an EV_DELIVER */
        if (d && fabric_send(s->fabric, e->node, e->t, e->pkt, e->len, d) == 0 &&
            d->delivered && !s->cfg.backpressure)
            nic_receive(&s->node[d->dst].nic, d);
        free(d);
        free(e->pkt);
        break;
    case EV_DELIVER:
        n->rx_inflight--;
        nic_receive(&n->nic, e->d);
        free(e->d);
        break;
    case EV_TX_FLOW:
        if (e->a)
            nic_link_go(&n->nic);
        else
            nic_link_stop(&n->nic);
        break;
    }
    s->events++;
}

int refsim_run(struct refsim *s)
{
    cur_sim = s;
    for (;;) {
        uint64_t t_ev = s->nheap ? s->heap[0].t : UINT64_MAX;
        uint64_t t_cpu = UINT64_MAX, t_host = UINT64_MAX, t_host2 = UINT64_MAX;
        int cpu = -1, host = -1;
        bool all_done = true;

        for (unsigned i = 0; i < s->cfg.nodes; i++) {
            struct refsim_node *n = &s->node[i];
            uint64_t h = hostrt_next_ps(&n->host);
            if (n->host.state != HOSTRT_DONE)
                all_done = false;
            if (n->started && !n->held && !n->halted) {
                uint64_t c = refsim_nic_time(s, i);
                if (c < t_cpu) { t_cpu = c; cpu = (int)i; }
            }
            if (h < t_host) { t_host2 = t_host; t_host = h; host = (int)i; }
            else if (h < t_host2) t_host2 = h;
        }
        if (all_done)
            return 0;
        {
            uint64_t t = t_ev < t_cpu ? t_ev : t_cpu;
            t = t < t_host ? t : t_host;
            if (t == UINT64_MAX) {
                fprintf(s->cfg.out, "refsim: deadlock: every host waits and nothing is due\n");
                return -1;
            }
            if (s->cfg.limit_ps && t >= s->cfg.limit_ps)
                return 1;
            if (t > s->now_ps)
                s->now_ps = t;
        }
        if (t_ev <= t_cpu && t_ev <= t_host) {
            struct refsim_event e = pop(s);
            apply(s, &e);
        } else if (t_cpu <= t_host) {
            struct refsim_node *n = &s->node[cpu];
            iss_step(&n->cpu);
            s->instructions++;
            if (n->cpu.status == ISS_TRAPPED) {
                char dis[80];
                fprintf(s->cfg.out, "refsim: node %d: trap at pc 0x%08x (%s): %s\n", cpu,
                        n->cpu.trap_pc, iss_disas(n->cpu.trap_insn, n->cpu.trap_pc, dis,
                                                  sizeof dis), n->cpu.trap_reason);
                s->error = 1;
                return -1;
            }
        } else {
            /* the host may run until just past everyone else */
            uint64_t bound = t_ev < t_cpu ? t_ev : t_cpu;
            bound = bound < t_host2 ? bound : t_host2;
            hostrt_run(&s->node[host].host, bound == UINT64_MAX ? UINT64_MAX : bound + 1);
        }
    }
}
