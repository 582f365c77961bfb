/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Idle NICs in the myrinet machine (docs/myrinet.md, "Idle NICs").
 *
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
#include "qemu/osdep.h"
#include "target/lanai/cpu.h"
#include "myrinet-node.h"

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

/* A check is running: the scheduler single-steps the CPU. */
bool mr_idle_checking(const MrNode *n)
{
    return n->probe && n->probe->on;
}

static void probe_anchor(MrNode *n)
{
    MrProbe *p = n->probe;

    p->anchor = *n->env;
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
    n->env->store_watch = 1;
    n->m->probes++;
}

static void probe_stop(MrNode *n, bool found)
{
    n->probe->on = false;
    n->env->store_watch = 0;
    if (found) {
        n->probe_backoff = 1;
        mr_trace(n, mr_cpu_time(n), "idle: loop of %" PRIu64 " cycles at pc 0x%08x",
                 n->env->cycles - n->probe->anchor.cycles, n->env->pc);
    } else {
        n->probe_backoff = MIN(MAX(n->probe_backoff * 2, 1),
                               MR_PROBE_BACKOFF_MAX);
    }
    n->probe_wait = n->probe_backoff;
}

/* The CPU stopped otherwise (a trap): a running check has failed. */
void mr_idle_cancel(MrNode *n)
{
    if (mr_idle_checking(n)) {
        probe_stop(n, false);
    }
}

/* LanaiCPU.board_store_hook, called while env.store_watch is set: a store
 * of 'size' bytes at 'addr' is about to happen. */
void mr_idle_store_hook(CPUState *cs, uint32_t addr, uint32_t size)
{
    MrNode *n = cs->opaque;
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
bool mr_idle_step(MrNode *n)
{
    MrProbe *p = n->probe;
    CPULanaiState *env = n->env;

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
        mr_node_set_state(n, MR_IDLE);
        n->m->idles++;
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
void mr_idle_consider(MrNode *n)
{
    bool quiet = n->disturb == n->disturb_win;

    n->disturb_win = n->disturb;
    /* an outside host's writes into SRAM are no events: never skip its
     * node's loops (myrinet-ext.c) */
    if (!n->m->idle_skip || n->ext || mr_idle_checking(n) || !quiet) {
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
void mr_idle_wake(MrNode *n, uint64_t t)
{
    CPULanaiState *env = n->env;
    uint64_t k = mr_env_cycles_for(n, t);

    if (k > n->idle_cycles) {
        uint64_t loops = (k - n->idle_cycles) / n->idle_period;
        env->cycles = n->idle_cycles + loops * n->idle_period;
        n->skipped_cycles += loops * n->idle_period;
        n->m->skipped_cycles += loops * n->idle_period;
    }
    mr_node_set_state(n, MR_RUN);
    n->disturb_win = n->disturb;
}
