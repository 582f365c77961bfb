/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How things stop in the myrinet machine: one node's LANai CPU at a trap,
 * and the whole run at its end. The exit status says what happened
 * (docs/myrinet.md, "lanai-run"): the first failing host program's status,
 * 125 when a LANai trapped, 3 for a deadlock, 124 for the time limit.
 */
#include "qemu/osdep.h"
#include "target/lanai/cpu.h"
#include "myrinet-sched.h"

/*
 * LanaiCPU.board_trap_hook: the node's LANai trapped (target/lanai printed
 * the instruction and the reason). Only that node stops: its CPU is treated
 * as held in reset from the trap's time on, so its NIC hardware goes on
 * (packets are received while RECV is armed, DMA chains finish), the other
 * nodes and every host run on, and the host can restart it through the
 * board window (RESET_ON, RESET_OFF) as after any reset. The run ends with
 * status 125 (lanai-iss's trap status) unless something worse happened.
 */
void mr_trap_hook(CPUState *cs)
{
    MrNode *n = cs->opaque;
    uint64_t t = mr_cpu_time(n);

    mr_idle_cancel(n);
    n->in_mmio = false;
    n->now_ps = t;
    n->traps++;
    n->m->traps++;
    fprintf(stderr, "myrinet: node %u: LANai trap at %" PRIu64 ".%06" PRIu64
            " us: CPU stopped until reset through the board window\n",
            n->id, t / 1000000, t % 1000000);
    mr_trace(n, t, "cpu trap: stopped");
    n->disturb++;
    mr_node_set_state(n, MR_HELD);
}

/* MYRINET_STATS=1 (lanai-run --stats). */
static void print_stats(MyrinetState *m)
{
    uint64_t cycles = 0;

    fprintf(stderr, "myrinet: %" PRIu64 " windows, %" PRIu64 " events\n",
            m->windows, m->events);
    fprintf(stderr, "myrinet: %" PRIu64 " CPU turns in QEMU's loop\n",
            m->turns);
    for (unsigned i = 0; i < m->nodes; i++) {
        MrNode *n = &m->node[i];
        uint64_t c = n->cycles_before_reset + n->env->cycles;
        cycles += c;
        fprintf(stderr, "myrinet: node %u: %" PRIu64 " packets sent, %"
                PRIu64 " received, %" PRIu64 " dropped (receive queue "
                "full), %" PRIu64 " DMA blocks, %" PRIu64 " instructions, %"
                PRIu64 " cycles skipped idle, %" PRIu64 " dropped blocked "
                "(time-out), send link stopped %" PRIu64 " times for %"
                PRIu64 " ns\n", i, n->nic.counters_tx,
                n->nic.counters_rx, n->nic.counters_rx_dropped,
                n->nic.counters_dma_blocks, c - n->skipped_cycles,
                n->skipped_cycles, n->nic.counters_rx_timeout,
                n->nic.counters_tx_stops, n->nic.counters_tx_stopped_ps / 1000);
    }
    fprintf(stderr, "myrinet: idle: %" PRIu64 " loop checks, %" PRIu64
            " idle stretches, %" PRIu64 " cycles skipped\n",
            m->probes, m->idles, m->skipped_cycles);
    fprintf(stderr, "myrinet: %" PRIu64 " LANai instructions executed\n",
            cycles - m->skipped_cycles);
}

/* End the run: print what is left, say why, exit with the run's status. */
G_NORETURN void mr_finish(MyrinetState *m, int status, const char *why)
{
    mr_console_end(m);
    if (why) {
        fprintf(stderr, "myrinet: %s at %" PRIu64 ".%06" PRIu64 " us\n", why,
                m->win_start / 1000000, m->win_start % 1000000);
    }
    if (m->traps && !status) {
        status = 125;
        fprintf(stderr, "myrinet: %u LANai trap(s) stopped NIC CPUs during the run\n",
                m->traps);
    }
    for (unsigned i = 0; i < m->nodes; i++) {
        struct hostrt *h = &m->node[i].host;
        if (h->state == HOSTRT_DONE && h->exit_status && !status) {
            status = h->exit_status & 0xFF ? h->exit_status & 0xFF : 1;
        }
        if (h->state == HOSTRT_DONE && h->exit_status) {
            fprintf(stderr, "myrinet: node %u: host program exit status %d\n",
                    i, h->exit_status);
        }
    }
    if (getenv("MYRINET_STATS")) {
        print_stats(m);
        mr_ext_stats(m);
    }
    fflush(stdout);
    fflush(stderr);
    fabric_free(m->fabric);     /* closes the pcap trace */
    mr_trace_close(m);
    mr_hosts_cleanup(m);
    exit(status);
}
