/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The timing model written once (profile.h): NIC instruction time, PCI DMA
 * bursts, link serialisation, host copies, and the synchronisation
 * lookahead a profile allows. Integer arithmetic with one rounding, so the
 * emulator, its tests and the docs agree to the picosecond.
 */
#include "profile.h"

__extension__ typedef unsigned __int128 u128;

/* a * b / c rounded to nearest; saturates instead of wrapping. */
static uint64_t muldiv(uint64_t a, uint64_t b, uint64_t c)
{
    u128 x = (u128)a * b, q = x / c, r = x % c;
    q += r >= c - r;
    return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

uint64_t profile_nic_ps(const struct profile_params *pp, uint64_t cycles)
{
    /* cycles * (cpi_micro / 1e6) * (1e12 / clock_hz) */
    return muldiv(cycles, pp->nic_cpi_micro * 1000000ull, pp->nic_clock_hz);
}

uint64_t profile_dma_ps(const struct profile_params *pp, bool read, uint64_t bytes)
{
    uint64_t word = pp->pci_width_bits / 8, burst = pp->pci_max_burst;
    uint64_t nbursts = bytes / burst + (bytes % burst != 0);
    uint64_t full = bytes / burst, rest = bytes % burst;
    uint64_t clocks = full * (burst / word) + rest / word + (rest % word != 0);
    uint64_t per = pp->pci_transaction_ps + (read ? pp->pci_dma_read_ps : 0);

    return nbursts * per + muldiv(clocks, 1000000000000ull, pp->pci_clock_hz);
}

uint64_t profile_wire_ps(const struct profile *p, uint64_t bytes)
{
    return bytes * p->link_ps_per_byte;
}

uint64_t profile_copy_ps(const struct profile_params *pp, uint64_t bytes)
{
    return pp->host_copy_fixed_ps + bytes * pp->host_copy_ps_per_byte;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

uint64_t profile_lookahead_ps(const struct profile *p)
{
    /* NIC to NIC: at least two links and one switch */
    uint64_t m = 2 * p->link_latency_ps + p->switch_latency_ps;

    for (int c = -1; c < (int)p->nclasses; c++) {
        const struct profile_params *pp = c < 0 ? &p->base : &p->cls[c].p;
        m = min64(m, pp->pci_pio_write_latency_ps);
        m = min64(m, pp->pci_transaction_ps);
        m = min64(m, pp->host_interrupt_ps);
        m = min64(m, pp->host_signal_ps);
    }
    return m;
}
