/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A node's run state in the myrinet machine, and what is applied to it.
 *
 * A node's CPU is held in reset (MR_HELD), runs towards its next target
 * (MR_RUN), waits at the window's end for the others (MR_WAIT) or is idle
 * (MR_IDLE, myrinet-idle.c). The board holds and releases it; a release
 * resets the CPU the next time it passes the scheduler's hook. The events
 * due to the node (PIO from its host, packets, link changes) and its NIC's
 * own wake-ups are applied here, at their time, in (time, sequence) order.
 * The machine counts the running nodes (MyrinetState.nrun) for the
 * scheduler, which opens the next window when none is left.
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "exec/exec-all.h"
#include "target/lanai/cpu.h"
#include "myrinet-node.h"

void mr_node_set_state(MrNode *n, enum mr_state s)
{
    MyrinetState *m = n->m;

    if (n->state == MR_RUN) {
        m->nrun--;
    }
    if (n->state == MR_WAIT) {
        m->nwait--;
        mr_map_clear(m->wait_map, n->id);
    }
    if (s == MR_RUN) {
        m->nrun++;
    }
    if (s == MR_WAIT) {
        m->nwait++;
        mr_map_set(m->wait_map, n->id);
    }
    n->state = s;
    mr_node_watch(n);           /* held or idle: the scheduler's heap */
}

/* The board's RESET line (board_env.cpu_hold). */
void mr_cpu_hold(MrNode *n, bool hold)
{
    n->disturb++;
    mr_trace(n, n->now_ps, hold ? "cpu held in reset" : "cpu released");
    if (hold) {
        if (n->state != MR_HELD) {
            mr_node_set_state(n, MR_HELD);
        }
        n->reset_pending = false;
        return;
    }
    if (n->state != MR_HELD) {
        return;
    }
    /* The LANai starts at address 0 at the release time. */
    n->cycle_base = mr_cycles_for(n, n->now_ps);
    n->reset_pending = true;
    mr_node_set_state(n, MR_RUN);
}

/* Reset the CPU (registers, pc 0, cycle counter 0). cpu_reset() clears
 * QEMU's icount fields and interrupt_request, which we keep. */
void mr_node_cpu_reset(MrNode *n)
{
    CPUState *cs = n->cs;
    uint16_t low = cpu_neg(cs)->icount_decr.u16.low;
    int64_t extra = cs->icount_extra;

    n->cycles_before_reset += n->env->cycles;
    if (n->ext) {
        /* an outside host wrote the code into SRAM behind QEMU's back:
         * drop what was translated from this node's SRAM, now */
        ram_addr_t a = memory_region_get_ram_addr(&n->m->sram_mr) +
                       n->m->sram_off[n->id];
        tb_invalidate_phys_range(a, a + n->sram_size);
    }
    cpu_reset(cs);
    cpu_neg(cs)->icount_decr.u16.low = low;
    cs->icount_extra = extra;
    cs->interrupt_request |= MR_HOOK_IRQ;
    n->reset_pending = false;
}

/* The NIC wants nic_advance() at t_ps (nic_env.wake_at). */
void mr_wake_at(MrNode *n, uint64_t t_ps)
{
    if (t_ps < n->wake_ps) {
        bool earlier = t_ps < mr_node_next(n);
        n->wake_ps = t_ps;
        if (earlier) {
            mr_node_watch(n);
        }
    }
    if (n->in_mmio && n->state == MR_RUN && !n->m->unsynced) {
        /* Inside an access: this instruction ends its block; stop the CPU
         * at the new time if that is before its current target. */
        CPUState *cs = n->cs;
        uint64_t c = n->env->cycles + 1;
        uint64_t k = mr_env_cycles_for(n, t_ps);
        int64_t left = cpu_neg(cs)->icount_decr.u16.low + cs->icount_extra;

        if (k < n->target) {
            uint64_t want = k > c ? k - c : 0;
            n->target = k;
            if ((int64_t)want < left) {
                mr_set_budget(cs, want);
            }
        }
    }
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

/* Apply one event at its time. */
static void ev_apply(MrNode *n, MrEvent *e)
{
    n->now_ps = e->t_ps;
    mr_trace_event(n, e);
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
        n->rx_inflight--;
        nic_receive(&n->nic, e->pkt);
        break;
    case MR_EV_LINK:
        nic_set_link(&n->nic, e->val);
        break;
    case MR_EV_TX_FLOW:
        if (e->val) {
            nic_link_go(&n->nic);
        } else {
            nic_link_stop(&n->nic);
        }
        break;
    }
    mr_ev_free(e);
}

/*
 * Apply what is due at this node up to 'upto' (inclusive), wake-ups before
 * events of the same time. A held node that gets released stops there: its
 * CPU has to run to the next ones. A running one ('running') applies what
 * is due up to its CPU's time.
 */
void mr_node_apply_due(MrNode *n, uint64_t upto, bool running)
{
    for (;;) {
        uint64_t t = mr_node_next(n);

        if (running) {
            if (n->state != MR_RUN) {
                running = false;        /* held meanwhile: catch up at once */
            } else {
                upto = mr_cpu_time(n);
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
            ev_apply(n, mr_ev_pop(n));
        }
    }
}
