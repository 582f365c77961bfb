/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Time in the myrinet machine (docs/myrinet.md, "Time").
 *
 * Every NIC has its own clock: the cycles its CPU has retired (env->cycles,
 * exact at every device access) at its profile's frequency. QEMU's global
 * virtual clock plays no part. Hosts have their own clocks too (hostrt).
 *
 * Conservative synchronisation in windows [start, end) of the profile's
 * lookahead L: every interaction between two clocks (packet, PIO, DMA
 * burst, interrupt) takes at least L, so whatever one clock does inside a
 * window reaches another clock at or after the window's end. A window is
 * run as: every host up to its end (hostrt_run), then every NIC up to its
 * end; the next window starts when all NICs got there. Inside a window a
 * NIC's CPU stops exactly at the cycle of each event due to it (PIO from
 * its host, a packet, a DMA block or timer of its own NIC) and the event is
 * applied there, in (time, sequence) order. Sequence numbers come from the
 * order in which the simulation creates events, which does not depend on
 * how QEMU interleaves CPUs, so neither does anything else.
 *
 * Stopping a CPU at an exact cycle uses icount's per-CPU instruction
 * budget (the machine requires -icount shift=0,sleep=off; one instruction
 * is one cycle, as target/lanai's lanai_insn_cycles() says). The machine
 * sets the LANai CPU's board hook (LanaiCPU.board_exec_hook), which the CPU's
 * cpu_exec_interrupt calls between translation blocks while
 * interrupt_request is non-zero (a private bit keeps it so): it processes
 * what is due and sets the budget to the next target, or halts the CPU when
 * it has to wait. See docs/myrinet.md.
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/cutils.h"
#include "qemu/main-loop.h"
#include "exec/exec-all.h"
#include "sysemu/cpu-timers.h"
#include "hw/boards.h"
#include "target/lanai/cpu.h"
#include "myrinet.h"

/* The private interrupt bit that keeps QEMU calling our hook. */
#define MR_HOOK_IRQ CPU_INTERRUPT_TGT_EXT_0

static MyrinetState *M;

/* ---- time conversions ------------------------------------------------------ */

static CPULanaiState *node_env(MrNode *n)
{
    return n->env;
}

/* Smallest absolute cycle count whose time is at or after t. */
static uint64_t cycles_for(MrNode *n, uint64_t t)
{
    unsigned __int128 c;
    uint64_t k;

    if (t == UINT64_MAX) {
        return UINT64_MAX;
    }
    /* asked for the same few times (window end, next event) again and
     * again: remember the last two answers */
    for (int i = 0; i < 2; i++) {
        if (n->memo_t[i] == t) {
            return n->memo_k[i];
        }
    }
    c = (unsigned __int128)t * n->pp->nic_clock_hz /
        ((unsigned __int128)n->pp->nic_cpi_micro * 1000000u);
    k = c > UINT64_MAX / 2 ? UINT64_MAX / 2 : (uint64_t)c;
    while (profile_nic_ps(n->pp, k) < t) {
        k++;
    }
    while (k > 0 && profile_nic_ps(n->pp, k - 1) >= t) {
        k--;
    }
    n->memo_t[n->memo_next] = t;
    n->memo_k[n->memo_next] = k;
    n->memo_next ^= 1;
    return k;
}

/* The same, relative to this CPU's own counter (0 if already behind). */
static uint64_t env_cycles_for(MrNode *n, uint64_t t)
{
    uint64_t k = cycles_for(n, t);

    if (k == UINT64_MAX) {
        return UINT64_MAX;
    }
    return k > n->cycle_base ? k - n->cycle_base : 0;
}

static uint64_t cpu_time(MrNode *n)
{
    return profile_nic_ps(n->pp, n->cycle_base + node_env(n)->cycles);
}

uint64_t mr_node_now(MrNode *n)
{
    if (n->in_mmio) {
        if (M->global_clock) {
            /* negative test only: QEMU's global instruction count */
            return profile_nic_ps(n->pp, n->cycle_base + icount_get_raw());
        }
        /* the NIC asks several times per access: convert once per cycle */
        uint64_t abs = n->cycle_base + node_env(n)->cycles;
        if (n->mmio_cycles != abs || !n->mmio_now_ps) {
            n->mmio_cycles = abs;
            n->mmio_now_ps = cpu_time(n);
        }
        return n->mmio_now_ps;
    }
    return n->now_ps;
}

/* ---- the per-CPU budget ------------------------------------------------------ */

/*
 * Let the CPU run 'want' more instructions from here. QEMU counts what ran
 * as icount_budget minus what is left (u16.low + icount_extra); changing
 * both by the same amount keeps that count right.
 */
static void set_remaining(CPUState *cs, uint64_t want)
{
    int64_t left = cpu_neg(cs)->icount_decr.u16.low + cs->icount_extra;
    int64_t w = want > INT32_MAX ? INT32_MAX : (int64_t)want;
    int64_t low = MIN(0xffff, w);

    cs->icount_budget += w - left;
    cpu_neg(cs)->icount_decr.u16.low = low;
    cs->icount_extra = w - low;
}

/* ---- event queues ------------------------------------------------------------ */

static bool ev_before(const MrEvent *a, const MrEvent *b)
{
    return a->t_ps < b->t_ps || (a->t_ps == b->t_ps && a->seq < b->seq);
}

void mr_post(MrNode *n, MrEvent *e)
{
    unsigned i;

    e->seq = ++M->seq;
    if (n->qn == n->qcap) {
        n->qcap = n->qcap ? n->qcap * 2 : 16;
        n->q = g_renew(MrEvent *, n->q, n->qcap);
    }
    i = n->qn++;
    while (i > 0 && ev_before(e, n->q[(i - 1) / 2])) {
        n->q[i] = n->q[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    n->q[i] = e;
    M->events++;
    if (n->in_mmio && n->state == MR_RUN) {
        /* cannot happen: nothing a NIC does lands on itself within L */
        error_report("myrinet: node %u: event posted inside its own window",
                     n->id);
        abort();
    }
}

static MrEvent *ev_pop(MrNode *n)
{
    MrEvent *top = n->q[0], *last = n->q[--n->qn];
    unsigned i = 0;

    for (;;) {
        unsigned c = 2 * i + 1;
        if (c >= n->qn) {
            break;
        }
        if (c + 1 < n->qn && ev_before(n->q[c + 1], n->q[c])) {
            c++;
        }
        if (!ev_before(n->q[c], last)) {
            break;
        }
        n->q[i] = n->q[c];
        i = c;
    }
    if (n->qn) {
        n->q[i] = last;
    }
    return top;
}

/* When something is next due at this node (event or NIC wake-up). */
static uint64_t node_next(MrNode *n)
{
    uint64_t t = n->wake_ps;

    if (n->qn && n->q[0]->t_ps < t) {
        t = n->q[0]->t_ps;
    }
    return t;
}

static void ev_free(MrEvent *e)
{
    if (e->kind == MR_EV_PIO_WRITE_BLOCK) {
        g_free(e->data);
    }
    g_free(e->pkt);
    g_free(e);
}

/* ---- event trace (trace=FILE) ----------------------------------------------- */

/* One line per thing that happens to a node, in the order the machine
 * applies them: "<time ps> node <n> <what>". Deterministic like the rest. */
void mr_trace(MrNode *n, uint64_t t_ps, const char *fmt, ...)
{
    va_list ap;

    if (!M->trace_f) {
        return;
    }
    fprintf(M->trace_f, "%" PRIu64 " node %u ", t_ps, n->id);
    va_start(ap, fmt);
    vfprintf(M->trace_f, fmt, ap);
    va_end(ap);
    fputc('\n', M->trace_f);
}

static void trace_event(MrNode *n, const MrEvent *e)
{
    switch (e->kind) {
    case MR_EV_PIO_WRITE:
        mr_trace(n, e->t_ps, "pio-write 0x%06x = 0x%08x", e->off, e->val);
        break;
    case MR_EV_PIO_WRITE_BLOCK:
        mr_trace(n, e->t_ps, "pio-write-block 0x%06x %u bytes", e->off, e->len);
        break;
    case MR_EV_PIO_READ:
        mr_trace(n, e->t_ps, "pio-read 0x%06x", e->off);
        break;
    case MR_EV_PIO_READ_BLOCK:
        mr_trace(n, e->t_ps, "pio-read-block 0x%06x %u bytes", e->off, e->len);
        break;
    case MR_EV_PACKET:
        mr_trace(n, e->t_ps, "packet %zu bytes, tail at %" PRIu64 ", crc %s",
                 e->pkt->len, e->pkt->tail_ps, e->pkt->crc_ok ? "ok" : "bad");
        break;
    case MR_EV_LINK:
        mr_trace(n, e->t_ps, "link %s", e->val ? "up" : "down");
        break;
    }
}

/* Apply one event at its time. */
static void ev_apply(MrNode *n, MrEvent *e)
{
    n->now_ps = e->t_ps;
    trace_event(n, e);
    switch (e->kind) {
    case MR_EV_PIO_WRITE:
        board_write32(&n->board, e->off, e->val);
        break;
    case MR_EV_PIO_WRITE_BLOCK:
        if ((uint64_t)e->off + e->len <= n->sram_size) {
            mr_sram_write(n, e->off, e->data, e->len);
        } else {
            for (uint32_t i = 0; i + 4 <= e->len; i += 4) {
                board_write32(&n->board, e->off + i, ldl_be_p(e->data + i));
            }
        }
        break;
    case MR_EV_PIO_READ:
        hostrt_pio_reply(&n->host, board_read32(&n->board, e->off));
        break;
    case MR_EV_PIO_READ_BLOCK:
        for (uint32_t i = 0; i < e->len; i += 4) {
            uint8_t w[4];
            stl_be_p(w, board_read32(&n->board, e->off + i));
            memcpy(e->data + i, w, MIN(4u, e->len - i));
        }
        /* hostrt charges the burst as its words one by one */
        hostrt_pio_reply(&n->host, 0);
        break;
    case MR_EV_PACKET:
        nic_receive(&n->nic, e->pkt);
        break;
    case MR_EV_LINK:
        nic_set_link(&n->nic, e->val);
        break;
    }
    ev_free(e);
}

/*
 * Apply what is due at this node up to 'upto' (inclusive), wake-ups before
 * events of the same time. A held node that gets released stops there: its
 * CPU has to run to the next ones.
 */
static void node_apply_due(MrNode *n, uint64_t upto, bool running)
{
    for (;;) {
        uint64_t t = node_next(n);

        if (running) {
            if (n->state != MR_RUN) {
                running = false;        /* held meanwhile: catch up at once */
            } else {
                upto = cpu_time(n);
            }
        } else if (n->state == MR_RUN) {
            return;
        }
        if (t == UINT64_MAX || t > upto) {
            return;
        }
        n->disturb++;
        if (n->wake_ps == t) {
            n->wake_ps = UINT64_MAX;
            n->now_ps = t;
            nic_advance(&n->nic);
        } else {
            ev_apply(n, ev_pop(n));
        }
    }
}

/* ---- node states ------------------------------------------------------------- */

static void set_state(MrNode *n, enum mr_state s)
{
    if (n->state == MR_RUN) {
        M->nrun--;
    }
    if (s == MR_RUN) {
        M->nrun++;
    }
    n->state = s;
}

void mr_cpu_hold(MrNode *n, bool hold)
{
    n->disturb++;
    mr_trace(n, n->now_ps, hold ? "cpu held in reset" : "cpu released");
    if (hold) {
        if (n->state != MR_HELD) {
            set_state(n, MR_HELD);
        }
        n->reset_pending = false;
        return;
    }
    if (n->state != MR_HELD) {
        return;
    }
    /* The LANai starts at address 0 at the release time. */
    n->cycle_base = cycles_for(n, n->now_ps);
    n->reset_pending = true;
    set_state(n, MR_RUN);
}

/* Reset the CPU (registers, pc 0, cycle counter 0). cpu_reset() clears
 * QEMU's icount fields and interrupt_request, which we keep. */
static void node_cpu_reset(MrNode *n)
{
    CPUState *cs = n->cs;
    uint16_t low = cpu_neg(cs)->icount_decr.u16.low;
    int64_t extra = cs->icount_extra;

    n->cycles_before_reset += node_env(n)->cycles;
    cpu_reset(cs);
    cpu_neg(cs)->icount_decr.u16.low = low;
    cs->icount_extra = extra;
    cs->interrupt_request |= MR_HOOK_IRQ;
    n->reset_pending = false;
}

void mr_wake_at(MrNode *n, uint64_t t_ps)
{
    if (t_ps < n->wake_ps) {
        n->wake_ps = t_ps;
    }
    if (n->in_mmio && n->state == MR_RUN && !M->unsynced) {
        /* Inside an access: this instruction ends its block; stop the CPU
         * at the new time if that is before its current target. */
        CPUState *cs = n->cs;
        uint64_t c = node_env(n)->cycles + 1;
        uint64_t k = env_cycles_for(n, t_ps);
        int64_t left = cpu_neg(cs)->icount_decr.u16.low + cs->icount_extra;

        if (k < n->target) {
            uint64_t want = k > c ? k - c : 0;
            n->target = k;
            if ((int64_t)want < left) {
                set_remaining(cs, want);
            }
        }
    }
}

/* ---- transmit, console -------------------------------------------------------- */

void mr_transmit(MrNode *n, uint64_t t_ps, const uint8_t *pkt, size_t len)
{
    MrTx tx = {
        .at = { .t_ps = t_ps, .seq = ++M->seq, .node = n->id }, .len = len,
        .pkt = g_memdup2(pkt, len),
    };
    g_array_append_val(M->tx, tx);
}

static void emit_line(MrNode *n, uint64_t t_ps, const char *text, size_t len)
{
    MrLine l = {
        .at = { .t_ps = t_ps, .seq = ++M->seq, .node = n->id },
        .text = g_strndup(text, len),
    };
    g_array_append_val(M->lines, l);
}

void mr_console(MrNode *n, uint64_t t_ps, const char *text, size_t len)
{
    while (len) {
        const char *nl = memchr(text, '\n', len);
        size_t k = nl ? (size_t)(nl - text) : len;

        if (!n->line->len) {
            n->line_ps = t_ps;
        }
        g_string_append_len(n->line, text, k);
        if (!nl) {
            return;
        }
        emit_line(n, n->line_ps, n->line->str, n->line->len);
        g_string_truncate(n->line, 0);
        text += k + 1;
        len -= k + 1;
    }
}

/* For arrays of structs that start with an MrOrder (MrTx, MrLine). */
static int order_cmp(gconstpointer a, gconstpointer b)
{
    const MrOrder *x = a, *y = b;

    if (x->t_ps != y->t_ps) {
        return x->t_ps < y->t_ps ? -1 : 1;
    }
    if (x->node != y->node) {
        return x->node < y->node ? -1 : 1;
    }
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void flush_lines(void)
{
    if (!M->lines->len) {
        return;
    }
    g_array_sort(M->lines, order_cmp);
    for (guint i = 0; i < M->lines->len; i++) {
        MrLine *l = &g_array_index(M->lines, MrLine, i);
        printf("[node %u @ %" PRIu64 ".%06" PRIu64 " us] %s\n", l->at.node,
               l->at.t_ps / 1000000, l->at.t_ps % 1000000, l->text);
        g_free(l->text);
    }
    g_array_set_size(M->lines, 0);
    fflush(stdout);
}

/* Give the fabric every packet that left before 'upto', in (time, node)
 * order; their arrivals become events at the receivers. */
void mr_console_flush(void)
{
    flush_lines();
}

static void flush_tx(uint64_t upto)
{
    static uint64_t last_t;
    guint i, done = 0;

    if (!M->tx->len) {
        return;
    }
    g_array_sort(M->tx, order_cmp);
    for (i = 0; i < M->tx->len; i++) {
        MrTx *tx = &g_array_index(M->tx, MrTx, i);
        struct fabric_delivery *d;

        if (tx->at.t_ps >= upto && !M->unsynced) {
            break;
        }
        if (tx->at.t_ps < last_t) {
            tx->at.t_ps = last_t;   /* only without synchronisation */
        }
        last_t = tx->at.t_ps;
        d = g_new(struct fabric_delivery, 1);
        if (fabric_send(M->fabric, tx->at.node, tx->at.t_ps, tx->pkt, tx->len, d)) {
            error_report("myrinet: fabric: %s", d->why ? d->why : "error");
            exit(1);
        }
        if (d->delivered) {
            MrEvent *e = g_new0(MrEvent, 1);
            if (d->head_ps < upto && !M->unsynced) {
                error_report("myrinet: packet %u -> %u arrives at %" PRIu64
                             " ps, inside the window it was sent in "
                             "(lookahead %" PRIu64 " ps too large)",
                             tx->at.node, d->dst, d->head_ps, M->lookahead_ps);
                exit(1);
            }
            e->t_ps = d->head_ps;
            e->kind = MR_EV_PACKET;
            e->pkt = d;
            mr_post(&M->node[d->dst], e);
        } else {
            g_free(d);
        }
        g_free(tx->pkt);
        done = i + 1;
    }
    g_array_remove_range(M->tx, 0, done);
}

/* ---- idle NICs --------------------------------------------------------------- */

/*
 * A NIC with nothing to do polls: its CPU goes round a loop reading ISR or
 * SRAM words. Executing that loop would cost host time for every simulated
 * cycle, so the machine detects it and skips it, exactly:
 *
 * After a window in which nothing happened at a node (no event, no NIC
 * register write, no read of a register that changes with time alone), the
 * machine takes the CPU's state as an anchor and single-steps it (budget 1),
 * with every store reported first (env.store_watch): the old contents of
 * each SRAM byte stored to are logged. When the CPU is back in the anchor's
 * exact state (registers, pc, flags, pending jump), the logged bytes hold
 * their old values again and still nothing happened, the whole machine
 * state is what it was at the anchor: execution is a function of that
 * state, so from here the CPU repeats the same P cycles until something
 * from outside changes (an event or wake-up of its NIC, which the machine
 * knows in advance). The node goes MR_IDLE: its CPU halts, and when its
 * next event is due at cycle k the machine sets its cycle counter to the
 * last loop head at or before k (the state there is the anchor's) and lets
 * it run the rest of the way, so the event lands at the same cycle, on the
 * same state, as without skipping. MYRINET_NO_IDLE=1 turns this off; the
 * suite runs both ways and compares the bytes.
 *
 * A check that fails (no return to the anchor within MR_PROBE_STEPS, a
 * store log overflow, a disturbance) costs a few hundred single steps; the
 * next one waits twice as many quiet windows, up to MR_PROBE_BACKOFF_MAX.
 */
#define MR_PROBE_STEPS 512          /* re-anchored half way */
#define MR_PROBE_LOG 256            /* SRAM bytes stored to during a check */
#define MR_PROBE_BACKOFF_MAX 1024

typedef struct MrProbe {
    bool on;
    unsigned steps;
    uint64_t disturb;               /* node's disturb at the anchor */
    CPULanaiState anchor;
    unsigned nlog;
    bool overflow;
    uint32_t log_addr[MR_PROBE_LOG];
    uint8_t log_old[MR_PROBE_LOG];
} MrProbe;

static void probe_anchor(MrNode *n)
{
    MrProbe *p = n->probe;

    p->anchor = *node_env(n);
    p->disturb = n->disturb;
    p->nlog = 0;
    p->overflow = false;
}

static void probe_start(MrNode *n)
{
    if (!n->probe) {
        n->probe = g_new0(MrProbe, 1);
    }
    probe_anchor(n);
    n->probe->on = true;
    n->probe->steps = 0;
    node_env(n)->store_watch = 1;
    M->probes++;
}

static void probe_stop(MrNode *n, bool found)
{
    n->probe->on = false;
    node_env(n)->store_watch = 0;
    if (found) {
        n->probe_backoff = 1;
        mr_trace(n, cpu_time(n), "idle: loop of %" PRIu64 " cycles at pc 0x%08x",
                 node_env(n)->cycles - n->probe->anchor.cycles, node_env(n)->pc);
    } else {
        n->probe_backoff = MIN(MAX(n->probe_backoff * 2, 1),
                               MR_PROBE_BACKOFF_MAX);
    }
    n->probe_wait = n->probe_backoff;
}

/* env.store_watch is set: a store of 'size' bytes at 'addr' is about to
 * happen. */
static void mr_store_hook(CPUState *cs, uint32_t addr, uint32_t size)
{
    MrNode *n = &M->node[cs->cpu_index];
    MrProbe *p = n->probe;

    if (!p || !p->on) {
        return;
    }
    if ((uint64_t)addr + size > n->sram_size) {
        n->disturb++;               /* a register (its handler counts too) */
        return;
    }
    for (uint32_t a = addr; a < addr + size; a++) {
        unsigned i;
        for (i = 0; i < p->nlog && p->log_addr[i] != a; i++) {
        }
        if (i < p->nlog) {
            continue;               /* the first old value is the one kept */
        }
        if (p->nlog == MR_PROBE_LOG) {
            p->overflow = true;
            return;
        }
        p->log_addr[p->nlog] = a;
        p->log_old[p->nlog++] = n->sram_ptr[a];
    }
}

/* The architectural state that decides what the CPU does next. */
static bool same_cpu_state(const CPULanaiState *a, const CPULanaiState *b)
{
    return !memcmp(a->r, b->r, sizeof a->r) && a->pc == b->pc &&
           a->NF == b->NF && a->ZF == b->ZF && a->CF == b->CF &&
           a->VF == b->VF && a->pend == b->pend &&
           a->pend_target == b->pend_target && a->pend_taken == b->pend_taken;
}

static bool memory_as_at_anchor(MrNode *n)
{
    const MrProbe *p = n->probe;

    for (unsigned i = 0; i < p->nlog; i++) {
        if (n->sram_ptr[p->log_addr[i]] != p->log_old[i]) {
            return false;
        }
    }
    return true;
}

/*
 * One step of a running check (the CPU stopped between instructions).
 * Returns true when the loop was found and the node is now idle.
 */
static bool probe_step(MrNode *n)
{
    MrProbe *p = n->probe;
    CPULanaiState *env = node_env(n);

    if (!p || !p->on) {
        return false;
    }
    if (n->disturb != p->disturb || p->overflow) {
        probe_stop(n, false);
        return false;
    }
    if (env->cycles > p->anchor.cycles && same_cpu_state(env, &p->anchor) &&
        memory_as_at_anchor(n)) {
        probe_stop(n, true);
        n->idle_cycles = env->cycles;
        n->idle_period = env->cycles - p->anchor.cycles;
        set_state(n, MR_IDLE);
        M->idles++;
        return true;
    }
    if (++p->steps == MR_PROBE_STEPS / 2) {
        probe_anchor(n);            /* the first anchor was not on the loop */
    } else if (p->steps >= MR_PROBE_STEPS) {
        probe_stop(n, false);
    }
    return false;
}

/* The CPU reached the end of a window: start a check if it was quiet. */
static void probe_consider(MrNode *n)
{
    bool quiet = n->disturb == n->disturb_win;

    n->disturb_win = n->disturb;
    if (!M->idle_skip || (n->probe && n->probe->on) || !quiet) {
        return;
    }
    if (n->probe_wait) {
        n->probe_wait--;
        return;
    }
    probe_start(n);
}

/* An idle node's next event is due at t: bring its CPU to the last loop
 * head at or before that time and let it run the rest. */
static void idle_wake(MrNode *n, uint64_t t)
{
    CPULanaiState *env = node_env(n);
    uint64_t k = env_cycles_for(n, t);

    if (k > n->idle_cycles) {
        uint64_t loops = (k - n->idle_cycles) / n->idle_period;
        env->cycles = n->idle_cycles + loops * n->idle_period;
        n->skipped_cycles += loops * n->idle_period;
        M->skipped_cycles += loops * n->idle_period;
    }
    set_state(n, MR_RUN);
    n->disturb_win = n->disturb;
}

/* ---- traps ------------------------------------------------------------------ */

/*
 * The node's LANai trapped (target/lanai printed the instruction and the
 * reason). Only that node stops: its CPU is treated as held in reset from
 * the trap's time on, so its NIC hardware goes on (packets are received
 * while RECV is armed, DMA chains finish), the other nodes and every host
 * run on, and the host can restart it through the board window
 * (RESET_ON, RESET_OFF) as after any reset. The run ends with status 125
 * (lanai-iss's trap status) unless something worse happened.
 */
static void mr_trap_hook(CPUState *cs)
{
    MrNode *n = &M->node[cs->cpu_index];
    uint64_t t = cpu_time(n);

    if (n->probe && n->probe->on) {
        probe_stop(n, false);
    }
    n->in_mmio = false;
    n->now_ps = t;
    n->traps++;
    M->traps++;
    fprintf(stderr, "myrinet: node %u: LANai trap at %" PRIu64 ".%06" PRIu64
            " us: CPU stopped until reset through the board window\n",
            n->id, t / 1000000, t % 1000000);
    mr_trace(n, t, "cpu trap: stopped");
    n->disturb++;
    set_state(n, MR_HELD);
}

/* ---- the end --------------------------------------------------------------- */

static G_NORETURN void finish(int status, const char *why)
{
    unsigned i;

    for (i = 0; i < M->nodes; i++) {
        MrNode *n = &M->node[i];
        if (n->line->len) {
            emit_line(n, n->line_ps, n->line->str, n->line->len);
            g_string_truncate(n->line, 0);
        }
    }
    flush_lines();
    if (why) {
        fprintf(stderr, "myrinet: %s at %" PRIu64 ".%06" PRIu64 " us\n", why,
                M->win_start / 1000000, M->win_start % 1000000);
    }
    if (M->traps && !status) {
        status = 125;
        fprintf(stderr, "myrinet: %u LANai trap(s) stopped NIC CPUs during the run\n",
                M->traps);
    }
    for (i = 0; i < M->nodes; i++) {
        struct hostrt *h = &M->node[i].host;
        if (h->state == HOSTRT_DONE && h->exit_status && !status) {
            status = h->exit_status & 0xFF ? h->exit_status & 0xFF : 1;
        }
        if (h->state == HOSTRT_DONE && h->exit_status) {
            fprintf(stderr, "myrinet: node %u: host program exit status %d\n",
                    i, h->exit_status);
        }
    }
    if (getenv("MYRINET_STATS")) {
        fprintf(stderr, "myrinet: %" PRIu64 " windows, %" PRIu64 " events\n",
                M->windows, M->events);
        uint64_t cycles = 0;
        for (i = 0; i < M->nodes; i++) {
            MrNode *n = &M->node[i];
            uint64_t c = n->cycles_before_reset + node_env(n)->cycles;
            cycles += c;
            fprintf(stderr, "myrinet: node %u: %" PRIu64 " packets sent, %"
                    PRIu64 " received, %" PRIu64 " dropped (receive queue "
                    "full), %" PRIu64 " DMA blocks, %" PRIu64 " instructions, %"
                    PRIu64 " cycles skipped idle\n", i, n->nic.counters_tx,
                    n->nic.counters_rx, n->nic.counters_rx_dropped,
                    n->nic.counters_dma_blocks, c - n->skipped_cycles,
                    n->skipped_cycles);
        }
        fprintf(stderr, "myrinet: idle: %" PRIu64 " loop checks, %" PRIu64
                " idle stretches, %" PRIu64 " cycles skipped\n",
                M->probes, M->idles, M->skipped_cycles);
        fprintf(stderr, "myrinet: %" PRIu64 " LANai instructions executed\n",
                cycles - M->skipped_cycles);
    }
    fflush(stdout);
    fflush(stderr);
    fabric_free(M->fabric);     /* closes the pcap trace */
    if (M->trace_f) {
        fclose(M->trace_f);
    }
    mr_hosts_cleanup(M);
    exit(status);
}

/* Every host program has returned, and the NICs' time has caught up with
 * the hosts' clocks (a program ending with a computation ends then). */
static bool all_hosts_done(void)
{
    for (unsigned i = 0; i < M->nodes; i++) {
        const struct hostrt *h = &M->node[i].host;
        if (h->state != HOSTRT_DONE || h->now_ps > M->win_end) {
            return false;
        }
    }
    return true;
}

/* The earliest time anything can happen when no CPU is running. */
static uint64_t next_anything(void)
{
    uint64_t t = UINT64_MAX;

    for (unsigned i = 0; i < M->nodes; i++) {
        MrNode *n = &M->node[i];
        uint64_t h = hostrt_next_ps(&n->host);
        uint64_t e = node_next(n);
        if (n->host.state == HOSTRT_DONE && n->host.now_ps > M->win_end) {
            h = n->host.now_ps;     /* the run ends when time gets there */
        }
        uint64_t l = fabric_link_change_after(M->fabric, i, M->win_end - 1);
        t = MIN(t, MIN(h, MIN(e, l)));
    }
    return t;
}

/*
 * Every NIC has reached the end of the window (or is held): close it and
 * open the next one, until some CPU can run. Idle stretches (every CPU held,
 * hosts blocked or computing) are skipped: the next window starts at the
 * next time anything can happen.
 */
static void advance(void)
{
    for (;;) {
        bool any_wait = false;
        uint64_t start;

        flush_lines();
        if (all_hosts_done()) {
            /* the trace ends with the run: with the last host's clock, not
             * with the window (whose length is the lookahead's business) */
            uint64_t end = 0;
            for (unsigned i = 0; i < M->nodes; i++) {
                end = MAX(end, M->node[i].host.now_ps);
            }
            flush_tx(end + 1);
            finish(0, NULL);
        }
        flush_tx(M->win_end);
        start = M->win_end;
        for (unsigned i = 0; i < M->nodes && !any_wait; i++) {
            any_wait = M->node[i].state == MR_RUN ||
                       M->node[i].state == MR_WAIT;
        }
        if (!any_wait) {
            uint64_t x = next_anything();
            if (x == UINT64_MAX) {
                finish(3, "every host waits and nothing is due (deadlock)");
            }
            start = MAX(start, x);
        }
        if (M->limit_ps && start >= M->limit_ps) {
            M->win_start = M->limit_ps;
            finish(124, "time limit reached");
        }
        M->win_start = start;
        M->win_end = start + M->lookahead_ps;
        M->windows++;

        /* 'down' fault rules: the NIC shows its link state in ISR.LINK_DOWN,
         * from the start of the first window at or after the change */
        for (unsigned i = 0; i < M->nodes; i++) {
            MrNode *n = &M->node[i];
            bool down = !fabric_node_link_up(M->fabric, i, M->win_start);
            if (down != n->link_down) {
                MrEvent *e = g_new0(MrEvent, 1);
                n->link_down = down;
                e->t_ps = M->win_start;
                e->kind = MR_EV_LINK;
                e->val = !down;
                mr_post(n, e);
            }
        }

        for (unsigned i = 0; i < M->nodes; i++) {
            hostrt_run(&M->node[i].host, M->win_end);
        }
        for (unsigned i = 0; i < M->nodes; i++) {
            MrNode *n = &M->node[i];
            if (n->state == MR_HELD) {
                node_apply_due(n, M->win_end - 1, false);
            }
            if (n->state == MR_IDLE && node_next(n) < M->win_end) {
                idle_wake(n, node_next(n));
            }
            if (n->state == MR_WAIT) {
                set_state(n, MR_RUN);
            }
            if (n->state == MR_RUN) {
                n->cs->halted = 0;
            }
        }
        if (M->nrun) {
            return;
        }
    }
}

/* ---- the CPU hook ---------------------------------------------------------------- */

static void compute_target(MrNode *n)
{
    uint64_t k_end = env_cycles_for(n, M->win_end);
    uint64_t k_next = env_cycles_for(n, node_next(n));

    n->target = MIN(k_end, k_next);
}

static uint64_t unsynced_chunk(void)
{
    /* how far a CPU gets before the host switches to another one: host
     * timing decides, as with free-running threads */
    return 200 + (uint64_t)(get_clock_realtime() / 100) % 5000;
}

/*
 * Called by QEMU between translation blocks of this node's CPU: apply what
 * is due, then let the CPU run exactly to its next target, or halt it.
 * Returns true if the CPU was reset (QEMU must not chain blocks across).
 */
static bool mr_cpu_exec_interrupt(CPUState *cs, int request)
{
    MrNode *n = &M->node[cs->cpu_index];
    bool reset = false;

    if (M->unsynced && n->unsync_slice) {
        /* Negative tests: a slice of host-dependent length, then the next
         * CPU, as free-running threads would interleave. */
        if (cpu_neg(cs)->icount_decr.u16.low + cs->icount_extra > 0) {
            return false;
        }
        n->unsync_slice = false;
        cs->exit_request = 1;
        return false;
    }
    for (;;) {
        if (n->reset_pending) {
            node_cpu_reset(n);
            reset = true;
        }
        if (n->state == MR_RUN) {
            node_apply_due(n, 0, true);
            if (n->state != MR_RUN || probe_step(n)) {
                continue;
            }
            compute_target(n);
            if (n->target > node_env(n)->cycles) {
                break;                  /* run to it */
            }
            probe_consider(n);
            set_state(n, MR_WAIT);      /* at the window's end */
        }
        /*
         * Not running. The last CPU to reach the window's end opens the
         * next one; without synchronisation (negative tests) whoever gets
         * there first does, whatever the others are doing.
         */
        if (M->nrun == 0 || (M->unsynced && n->state == MR_WAIT)) {
            unsigned others = M->nrun;
            M->nrun = 0;
            advance();
            M->nrun += others;
            continue;
        }
        break;
    }
    if (n->state == MR_RUN) {
        uint64_t want = n->target - node_env(n)->cycles;
        if (n->probe && n->probe->on) {
            want = 1;                   /* single steps while checking */
        }
        set_remaining(cs, M->unsynced ? unsynced_chunk() : want);
        n->unsync_slice = M->unsynced;
        cs->halted = 0;
    } else {
        set_remaining(cs, 0);
        cs->halted = 1;
    }
    return reset;
}

void mr_sync_install_hooks(CPUState *cs)
{
    /* the LANai CPU calls this between blocks while MR_HOOK_IRQ is set */
    MrNode *n = &M->node[cs->cpu_index];

    n->env = &LANAI_CPU(cs)->env;
    n->memo_t[0] = n->memo_t[1] = UINT64_MAX;
    LANAI_CPU(cs)->board_exec_hook = mr_cpu_exec_interrupt;
    LANAI_CPU(cs)->board_store_hook = mr_store_hook;
    LANAI_CPU(cs)->board_trap_hook = mr_trap_hook;
    cs->interrupt_request |= MR_HOOK_IRQ;
}

void mr_sync_init(MyrinetState *m)
{
    M = m;
    m->tx = g_array_new(false, false, sizeof(MrTx));
    m->lines = g_array_new(false, false, sizeof(MrLine));
    m->win_start = 0;
    m->win_end = 0;     /* the first advance() opens [0, L) */
    m->nrun = 0;
    m->unsynced = getenv("MYRINET_UNSYNC") && atoi(getenv("MYRINET_UNSYNC"));
    m->global_clock = getenv("MYRINET_GLOBAL_CLOCK") &&
                      atoi(getenv("MYRINET_GLOBAL_CLOCK"));
    m->idle_skip = !m->unsynced && !m->global_clock &&
                   !(getenv("MYRINET_NO_IDLE") && atoi(getenv("MYRINET_NO_IDLE")));
}
