/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A node's clock in the myrinet machine (docs/myrinet.md, "Time").
 *
 * Every NIC has its own clock: the cycles its CPU has retired (env->cycles,
 * exact at every device access, plus MrNode.cycle_base from before its last
 * reset) at its profile's frequency. QEMU's global virtual clock plays no
 * part. This file converts between that clock and picoseconds, and sets the
 * per-CPU instruction budget with which the scheduler stops a CPU at an
 * exact cycle (icount: one instruction is one cycle, as target/lanai's
 * lanai_insn_cycles() says).
 */
#include "qemu/osdep.h"
#include "exec/exec-all.h"
#include "sysemu/cpu-timers.h"
#include "target/lanai/cpu.h"
#include "myrinet-base.h"

/* Smallest absolute cycle count whose time is at or after t. */
uint64_t mr_cycles_for(MrNode *n, uint64_t t)
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
uint64_t mr_env_cycles_for(MrNode *n, uint64_t t)
{
    uint64_t k = mr_cycles_for(n, t);

    if (k == UINT64_MAX) {
        return UINT64_MAX;
    }
    return k > n->cycle_base ? k - n->cycle_base : 0;
}

/* The time of the CPU's current cycle. */
uint64_t mr_cpu_time(MrNode *n)
{
    return profile_nic_ps(n->pp, n->cycle_base + n->env->cycles);
}

/* The node's time as its NIC sees it: the CPU's cycle inside one of its
 * register accesses, else the time of what the machine applies. */
uint64_t mr_node_now(MrNode *n)
{
    if (n->in_mmio) {
        if (n->m->global_clock) {
            /* negative test only: QEMU's global instruction count */
            return profile_nic_ps(n->pp, n->cycle_base + icount_get_raw());
        }
        /* the NIC asks several times per access: convert once per cycle */
        uint64_t abs = n->cycle_base + n->env->cycles;
        if (n->mmio_cycles != abs || !n->mmio_now_ps) {
            n->mmio_cycles = abs;
            n->mmio_now_ps = mr_cpu_time(n);
        }
        return n->mmio_now_ps;
    }
    return n->now_ps;
}

/*
 * Let the CPU run 'want' more instructions from here. QEMU counts what ran
 * as icount_budget minus what is left (u16.low + icount_extra); changing
 * both by the same amount keeps that count right.
 */
void mr_set_budget(CPUState *cs, uint64_t want)
{
    int64_t left = cpu_neg(cs)->icount_decr.u16.low + cs->icount_extra;
    int64_t w = want > INT32_MAX ? INT32_MAX : (int64_t)want;
    int64_t low = MIN(0xffff, w);

    cs->icount_budget += w - left;
    cpu_neg(cs)->icount_decr.u16.low = low;
    cs->icount_extra = w - low;
}
