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
    uint64_t x64;

    if (!__builtin_mul_overflow(a, b, &x64)) {
        /* the same result in 64 bits, when the product fits */
        uint64_t q = x64 / c, r = x64 % c;
        return q + (r >= c - r);
    }
    u128 x = (u128)a * b, q = x / c, r = x % c;
    q += r >= c - r;
    return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

uint64_t profile_nic_ps(const struct profile_params *pp, uint64_t cycles)
{
    /* cycles * (cpi_micro / 1e6) * (1e12 / clock_hz), with the fraction
     * in lowest terms so that the product stays in 64 bits (the emulator
     * converts at every device access; the last fraction is kept) */
    static uint64_t num, den, rnum, rden;

    if (num != pp->nic_cpi_micro * 1000000ull || den != pp->nic_clock_hz) {
        uint64_t g;
        num = pp->nic_cpi_micro * 1000000ull;
        den = pp->nic_clock_hz;
        g = gcd(num, den);
        rnum = num / g;
        rden = den / g;
    }
    return muldiv(cycles, rnum, rden);
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
        /* Hosts run before NICs in a window, so a PIO request reaches
         * its NIC in time even inside the window it was made in. What
         * bounds the window is the host resuming from a PIO read: the
         * answer is due pio_read after the request, and the host's next
         * request lands pio_write_latency after that, which must not be
         * before the window the NIC already finished (docs/myrinet.md). */
        m = min64(m, pp->pci_pio_read_ps + pp->pci_pio_write_latency_ps);
        m = min64(m, pp->pci_transaction_ps);
        m = min64(m, pp->host_interrupt_ps);
        m = min64(m, pp->host_signal_ps);
    }
    return m;
}
