/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * deadlock-after T (lanai-run --deadlock-after; docs/emu.md, "Deadlock
 * detection"): end the run with the deadlock status 3 when no host program
 * has made progress for T of virtual time while some host program still
 * runs.
 *
 * Why not "nothing is due" (myrinet-sched.c's own deadlock check): a
 * firmware that retransmits keeps a timer due for ever, so NICs holding
 * each other's buffers look busy to the scheduler although no host will
 * ever get anything. Progress is therefore judged at the hosts' boundary,
 * where the NICs' own traffic cannot fake it. Progress is any of:
 *   - a host writes its NIC's memory or a doorbell (a command, a receive
 *     buffer, an event slot given back, the firmware): a host that only
 *     clears or masks its interrupt (libnicoll's nc_wait, every slice) or
 *     reads does not progress;
 *   - a NIC writes host memory (DMA: data or an event for the host), at the
 *     start of the window it happened in;
 *   - a host computes (nc_host_compute_ns): until the computation's end;
 *   - a host program returns;
 *   - a host is still loading its firmware (the loader reads the whole
 *     image back through PIO: busy, not waiting).
 * Retransmissions, duplicates, ACKs and NACKs between NICs are not
 * progress by themselves: a packet that matters ends in host memory. A
 * slow but live run (loss, a long message crossing a deep tree) makes
 * progress whenever any packet of it reaches any host, so T only needs to
 * exceed the longest quiet stretch of a live run (a few retransmission
 * time-outs).
 *
 * MYRINET_STALL_PACKETS=1 (negative tests only) counts every packet a NIC
 * sends as progress too, the naive rule: tests/mcast shows that it never
 * sees the deadlock of two crossed multicast trees, whose NICs retransmit
 * to each other for ever.
 */
#include "qemu/osdep.h"
#include "myrinet-sched.h"

#define NAMED_MAX 32    /* waiting nodes named in the message */

/* The hosts still running, as " 0 1 5 ..." (at most NAMED_MAX named). */
static void waiting_nodes(MyrinetState *m, GString *s)
{
    unsigned named = 0, more = 0;

    for (unsigned i = 0; i < m->nodes; i++) {
        if (m->node[i].host.state == HOSTRT_DONE) {
            continue;
        }
        if (named < NAMED_MAX) {
            g_string_append_printf(s, " %u", i);
            named++;
        } else {
            more++;
        }
    }
    if (more) {
        g_string_append_printf(s, " and %u more", more);
    }
}

/*
 * Called when the scheduler opens the window at 'start': a host that
 * returned since the last call counts as progress now; when the last
 * progress is T or more behind, the run ends, stamped at the moment the
 * stretch reached T.
 */
void mr_stall_check(MyrinetState *m, uint64_t start)
{
    unsigned done = 0;
    uint64_t quiet_from;
    GString *why;

    if (!m->stall_ps) {
        return;
    }
    done = m->hosts_returned;
    if (m->hosts_loading) {
        mr_progress(m, start);  /* a loader blocked in a long PIO read too */
    }
    if (done != m->hosts_done) {
        m->hosts_done = done;
        mr_progress(m, m->win_start);
    }
    quiet_from = m->progress_ps;
    if (done == m->nodes || start < quiet_from + m->stall_ps) {
        return;
    }
    why = g_string_new(NULL);
    g_string_append_printf(why, "no host made progress since %" PRIu64 ".%06"
                           PRIu64 " us (deadlock-after %" PRIu64 " ns); "
                           "waiting: node", quiet_from / 1000000,
                           quiet_from % 1000000, m->stall_ps / 1000);
    if (m->nodes - done > 1) {
        g_string_append_c(why, 's');
    }
    waiting_nodes(m, why);
    g_string_append(why, " (deadlock)");
    m->win_start = quiet_from + m->stall_ps;
    mr_finish(m, 3, why->str);
}
