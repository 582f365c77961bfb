/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The myrinet machine's scheduler: every clock in step (docs/myrinet.md,
 * "Time").
 *
 * Every NIC has its own clock (myrinet-time.c); hosts have their own clocks
 * too (hostrt). Conservative synchronisation in windows [start, end) of the
 * profile's lookahead L: every interaction between two clocks (packet, PIO,
 * DMA burst, interrupt) takes at least L, so whatever one clock does inside
 * a window reaches another clock at or after the window's end. A window is
 * run as: every host up to its end (hostrt_run), then every NIC up to its
 * end; the next window starts when all NICs got there. Inside a window a
 * NIC's CPU stops exactly at the cycle of each event due to it (PIO from
 * its host, a packet, a DMA block or timer of its own NIC) and the event is
 * applied there, in (time, sequence) order (myrinet-node.c).
 *
 * Stopping a CPU at an exact cycle uses icount's per-CPU instruction
 * budget (the machine requires -icount shift=0,sleep=off). The machine
 * sets the LANai CPU's board hook (LanaiCPU.board_exec_hook), which the
 * CPU's cpu_exec_interrupt calls between translation blocks while
 * interrupt_request is non-zero (MR_HOOK_IRQ keeps it so): it processes
 * what is due and sets the budget to the next target, or halts the CPU when
 * it has to wait. The hooks get the CPU only; its node is CPUState.opaque.
 */
#include "qemu/osdep.h"
#include "qemu/timer.h"
#include "sysemu/runstate.h"
#include "exec/exec-all.h"
#include "target/lanai/cpu.h"
#include "myrinet-sched.h"

/*
 * The scheduler's books (myrinet-base.h): which CPUs QEMU's loop must give
 * a turn, which nodes wait at the window's end, which hosts still run, and
 * a heap of the held and idle nodes' next times. A window opening looks at
 * these, never at every node: a NIC that has nothing to do costs nothing
 * while others are busy.
 */
static void returned_push(MyrinetState *m, uint64_t t)
{
    unsigned i;

    if (m->ndone_t == m->done_cap) {
        m->done_cap = m->done_cap ? m->done_cap * 2 : 64;
        m->done_t = g_renew(uint64_t, m->done_t, m->done_cap);
    }
    i = m->ndone_t++;
    while (i > 0 && t < m->done_t[(i - 1) / 2]) {
        m->done_t[i] = m->done_t[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    m->done_t[i] = t;
    m->hosts_returned++;
    m->done_max = MAX(m->done_max, t);
}

static void returned_pop(MyrinetState *m)
{
    uint64_t last = m->done_t[--m->ndone_t];
    unsigned i = 0;

    for (;;) {
        unsigned c = 2 * i + 1;
        if (c >= m->ndone_t) {
            break;
        }
        if (c + 1 < m->ndone_t && m->done_t[c + 1] < m->done_t[c]) {
            c++;
        }
        if (m->done_t[c] >= last) {
            break;
        }
        m->done_t[i] = m->done_t[c];
        i = c;
    }
    if (m->ndone_t) {
        m->done_t[i] = last;
    }
}

/* At the first window: the hosts that run (board-dir's outside host has
 * none, myrinet-ext.c). */
static void maps_ready(MyrinetState *m)
{
    if (m->maps_ready) {
        return;
    }
    m->maps_ready = true;
    for (unsigned i = 0; i < m->nodes; i++) {
        if (m->node[i].host.state == HOSTRT_DONE) {
            returned_push(m, m->node[i].host.now_ps);
        } else {
            mr_map_set(m->host_map, i);
        }
    }
}

/* Every host program has returned, and the NICs' time has caught up with
 * the hosts' clocks (a program ending with a computation ends then). */
bool mr_all_hosts_done(MyrinetState *m)
{
    return m->maps_ready && m->hosts_returned == m->nodes &&
           m->done_max <= m->win_end;
}

/* A CPU may run: QEMU's loop gives it a turn. */
static void cpu_unhalt(MrNode *n)
{
    n->cs->halted = 0;
    mr_map_set(n->m->cpu_map, n->id);
}

/* The held and idle nodes' next time, exactly: stale entries (a node that
 * runs again, or whose next time moved later) are dropped or renewed. */
static uint64_t due_next(MyrinetState *m)
{
    while (m->ndue) {
        MrDue top = m->due[0];
        MrNode *n = &m->node[top.node];
        uint64_t t;

        if (n->state != MR_HELD && n->state != MR_IDLE) {
            mr_due_pop(m);
            continue;
        }
        t = mr_node_next(n);
        if (t == top.t_ps) {
            return t;
        }
        mr_due_pop(m);
        if (t != UINT64_MAX) {
            mr_due_push(m, t, top.node);
        }
    }
    return UINT64_MAX;
}

/* The earliest time anything can happen when no CPU is running. */
static uint64_t next_anything(MyrinetState *m)
{
    uint64_t t = due_next(m);

    for (unsigned i = 0; (i = mr_map_next(m->host_map, i, m->nodes)) < m->nodes; i++) {
        t = MIN(t, hostrt_next_ps(&m->node[i].host));
    }
    /* a returned host's clock ahead of the window: the run ends when time
     * gets there */
    while (m->ndone_t && m->done_t[0] <= m->win_end) {
        returned_pop(m);
    }
    if (m->ndone_t) {
        t = MIN(t, m->done_t[0]);
    }
    t = MIN(t, fabric_next_event(m->fabric));   /* a switch's agent acts */
    t = MIN(t, mr_sm_next(m));                  /* the entity works */
    return MIN(t, fabric_link_change_any_after(m->fabric, m->win_end - 1));
}

/* Every live host runs to the window's end, in node order. */
static void run_hosts(MyrinetState *m)
{
    for (unsigned i = 0; (i = mr_map_next(m->host_map, i, m->nodes)) < m->nodes; i++) {
        struct hostrt *h = &m->node[i].host;
        if (hostrt_run(h, m->win_end) == HOSTRT_DONE) {
            mr_map_clear(m->host_map, i);
            returned_push(m, h->now_ps);
        }
    }
}

/*
 * The window opens at the nodes: those that waited at its start run on,
 * held nodes take what is due to them, idle ones whose next event falls in
 * it wake (in node order). The others are not looked at.
 */
static void open_nodes(MyrinetState *m)
{
    uint64_t *attn = m->attn_map;

    memcpy(attn, m->wait_map, m->map_words * sizeof *attn);
    if (m->unsynced) {
        memset(attn, 0xff, m->map_words * sizeof *attn);
    }
    while (m->ndue && m->due[0].t_ps < m->win_end) {
        mr_map_set(attn, m->due[0].node);
        mr_due_pop(m);
    }
    for (unsigned i = 0; (i = mr_map_next(attn, i, m->nodes)) < m->nodes; i++) {
        MrNode *n = &m->node[i];
        if (n->state == MR_HELD) {
            mr_node_apply_due(n, m->win_end - 1, false);
        }
        if (n->state == MR_IDLE && mr_node_next(n) < m->win_end) {
            mr_idle_wake(n, mr_node_next(n));
        }
        if (n->state == MR_WAIT) {
            mr_node_set_state(n, MR_RUN);
        }
        if (n->state == MR_RUN) {
            cpu_unhalt(n);
        }
        mr_node_watch(n);
    }
}

/*
 * board-dir (myrinet-ext.c): where the window after 'start' begins. An
 * outside host acts in real time, so virtual time is held back to real
 * time (never ahead of it; behind it when the emulation is slower), its
 * registers are sampled at every window's start, and with no CPU running
 * the machine waits in real time for the next thing due or for the
 * outside host. There is no deadlock: the outside host may act at any
 * time; the run ends on a signal (SIGTERM, SIGINT) or at the time limit.
 */
static uint64_t ext_next_window(MyrinetState *m, uint64_t start, bool running)
{
    for (;;) {
        uint64_t now, x;

        /* a signal: the main loop may have taken the request already and
         * be waiting for this CPU to stop */
        if (qemu_shutdown_requested_get() || (current_cpu && current_cpu->stop)) {
            mr_finish(m, 0, "stopped by a signal");
        }
        now = mr_ext_wall_ps(m);
        if (running) {
            if (start > now) {
                g_usleep(MIN((start - now) / 1000000 + 1, 1000));
                continue;
            }
            mr_ext_sample(m, start);
            return start;
        }
        x = next_anything(m);
        if (x <= now) {
            /* behind real time with work to do: the outside host's writes
             * land now in virtual time (jumping to real time would make
             * every polling host catch up on the whole gap) */
            return mr_ext_sample(m, start) ? start : MAX(start, x);
        }
        /* nothing due before real time: virtual time may move up to it */
        if (mr_ext_sample(m, MAX(start, now))) {
            return MAX(start, now);
        }
        g_usleep(MIN((x - now) / 1000000 + 1, 200));
    }
}

/*
 * Every NIC has reached the end of the window (or is held): close it and
 * open the next one, until some CPU can run. Idle stretches (every CPU held,
 * hosts blocked or computing) are skipped: the next window starts at the
 * next time anything can happen.
 */
static void advance(MyrinetState *m)
{
    maps_ready(m);
    for (;;) {
        bool any_wait;
        uint64_t start;

        mr_console_flush(m);
        if (!m->ext && mr_all_hosts_done(m)) {
            /* the trace ends with the run: with the last host's clock, not
             * with the window (whose length is the lookahead's business) */
            uint64_t end = 0;
            for (unsigned i = 0; i < m->nodes; i++) {
                end = MAX(end, m->node[i].host.now_ps);
            }
            mr_tx_flush(m, end + 1);
            mr_finish(m, 0, NULL);
        }
        mr_tx_flush(m, m->win_end);
        start = m->win_end;
        any_wait = m->nrun || m->nwait;
        if (m->ext) {
            start = ext_next_window(m, start, any_wait);
        } else if (!any_wait) {
            uint64_t x = next_anything(m);
            if (x == UINT64_MAX) {
                mr_finish(m, 3, "every host waits and nothing is due (deadlock)");
            }
            start = MAX(start, x);
        }
        mr_stall_check(m, start);
        if (m->limit_ps && start >= m->limit_ps) {
            m->win_start = m->limit_ps;
            mr_finish(m, 124, "time limit reached");
        }
        m->win_start = start;
        m->win_end = MIN(start + m->lookahead_ps, mr_agents_run(m, start));
        mr_sm_run(m, m->win_end);
        m->windows++;
        mr_link_changes(m);

        run_hosts(m);
        open_nodes(m);
        if (m->nrun) {
            return;
        }
    }
}

/* Where the CPU stops next: the window's end or the node's next event. */
static void compute_target(MrNode *n)
{
    uint64_t k_end = mr_env_cycles_for(n, n->m->win_end);
    uint64_t k_next = mr_env_cycles_for(n, mr_node_next(n));

    n->target = MIN(k_end, k_next);
}

static uint64_t unsynced_chunk(void)
{
    /* how far a CPU gets before the host switches to another one: host
     * timing decides, as with free-running threads */
    return 200 + (uint64_t)(get_clock_realtime() / 100) % 5000;
}

/*
 * LanaiCPU.board_exec_hook, called by QEMU between translation blocks of
 * this node's CPU: apply what is due, then let the CPU run exactly to its
 * next target, or halt it. Returns true if the CPU was reset (QEMU must not
 * chain blocks across).
 */
static bool mr_cpu_exec_interrupt(CPUState *cs, int request)
{
    MrNode *n = cs->opaque;
    MyrinetState *m = n->m;
    bool reset = false;

    if (m->unsynced && n->unsync_slice) {
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
            mr_node_cpu_reset(n);
            reset = true;
        }
        if (n->state == MR_RUN) {
            mr_node_apply_due(n, 0, true);
            if (n->state != MR_RUN || mr_idle_step(n)) {
                continue;
            }
            compute_target(n);
            if (n->target > n->env->cycles) {
                break;                  /* run to it */
            }
            mr_idle_consider(n);
            mr_node_set_state(n, MR_WAIT);  /* at the window's end */
        }
        /*
         * Not running. The last CPU to reach the window's end opens the
         * next one; without synchronisation (negative tests) whoever gets
         * there first does, whatever the others are doing.
         */
        if (m->nrun == 0 || (m->unsynced && n->state == MR_WAIT)) {
            unsigned others = m->nrun;
            m->nrun = 0;
            advance(m);
            m->nrun += others;
            continue;
        }
        break;
    }
    if (n->state == MR_RUN) {
        uint64_t want = n->target - n->env->cycles;
        if (mr_idle_checking(n)) {
            want = 1;                   /* single steps while checking */
        }
        mr_set_budget(cs, m->unsynced ? unsynced_chunk() : want);
        n->unsync_slice = m->unsynced;
        cpu_unhalt(n);
    } else {
        mr_set_budget(cs, 0);
        cs->halted = 1;
    }
    return reset;
}

/*
 * QEMU's round-robin loop (rr_next_cpu_hook, lanai-emu/hooks.patch): the
 * next CPU after cpu that may run, in node order; halted ones are skipped
 * (their bits cleared as they are found halted). While QEMU stops the
 * CPUs (first_cpu->stop: a signal, the end) every CPU gets its turn.
 */
static CPUState *mr_rr_next(CPUState *cpu)
{
    MrNode *n = cpu->opaque;
    MyrinetState *m;

    if (!n || first_cpu->stop) {
        CPUState *c = CPU_NEXT(cpu);
        if (n && c) {
            n->m->turns++;
        }
        return c;
    }
    m = n->m;
    for (unsigned i = n->id + 1; (i = mr_map_next(m->cpu_map, i, m->nodes)) < m->nodes; i++) {
        CPUState *c = m->node[i].cs;
        if (!c->halted) {
            m->turns++;
            return c;
        }
        mr_map_clear(m->cpu_map, i);
    }
    return NULL;
}

/*
 * At every reset of the machine: the LANai CPU calls the exec hook between
 * blocks while MR_HOOK_IRQ is set. The hooks find their node in
 * CPUState.opaque (user data, which cpu_reset() leaves alone).
 */
void mr_sched_install_hooks(MrNode *n)
{
    CPUState *cs = n->cs;

    cs->opaque = n;
    n->env = &LANAI_CPU(cs)->env;
    n->memo_t[0] = n->memo_t[1] = UINT64_MAX;
    LANAI_CPU(cs)->board_exec_hook = mr_cpu_exec_interrupt;
    LANAI_CPU(cs)->board_store_hook = mr_idle_store_hook;
    LANAI_CPU(cs)->board_trap_hook = mr_trap_hook;
    cs->interrupt_request |= MR_HOOK_IRQ;
    mr_map_set(n->m->cpu_map, n->id);
    rr_next_cpu_hook = mr_rr_next;
}

void mr_sched_init(MyrinetState *m)
{
    mr_tx_init(m);
    mr_console_init(m);
    m->win_start = 0;
    m->win_end = 0;     /* the first advance() opens [0, L) */
    m->map_words = (m->nodes + 63) / 64;
    m->cpu_map = g_new0(uint64_t, m->map_words);
    m->wait_map = g_new0(uint64_t, m->map_words);
    m->host_map = g_new0(uint64_t, m->map_words);
    m->attn_map = g_new0(uint64_t, m->map_words);
    m->nrun = 0;
    m->unsynced = getenv("MYRINET_UNSYNC") && atoi(getenv("MYRINET_UNSYNC"));
    m->stall_packets = getenv("MYRINET_STALL_PACKETS") &&
                       atoi(getenv("MYRINET_STALL_PACKETS"));
    m->global_clock = getenv("MYRINET_GLOBAL_CLOCK") &&
                      atoi(getenv("MYRINET_GLOBAL_CLOCK"));
    m->idle_skip = !m->unsynced && !m->global_clock &&
                   !(getenv("MYRINET_NO_IDLE") && atoi(getenv("MYRINET_NO_IDLE")));
}
