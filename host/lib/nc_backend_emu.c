/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libnicoll's emu backend: a host program of the emulated cluster, over
 * the host interface (include/nicoll/hostif.h), every access timed. */
#include "nicoll/hostif.h"
#include "nc_backend.h"
#include "nicoll.h"

/* Every call is exported by the emulator (lanai-emu/qemu/hw/lanai/
 * myrinet-hostif.syms) and by refsim; none is weak, so an emulator without
 * one refuses the program when it loads it instead of running it with a
 * cost or a route missing. */

static uint32_t rd(struct nc_backend *be, uint32_t off) { (void)be; return nc_host_pio_read32(off); }
static void wr(struct nc_backend *be, uint32_t off, uint32_t v) { (void)be; nc_host_pio_write32(off, v); }
static void wrb(struct nc_backend *be, uint32_t off, const void *buf, uint32_t len)
{
    (void)be;
    nc_host_pio_write_block(off, buf, len);
}
static void *dalloc(struct nc_backend *be, size_t len, uint64_t *bus)
{
    (void)be;
    return nc_host_dma_alloc(len, bus);
}
static bool wirq(struct nc_backend *be, uint64_t ns) { (void)be; return nc_host_wait_irq(ns); }
/* one look at the event ring costs what the profile says a poll costs */
static void pcost(struct nc_backend *be) { (void)be; (void)nc_host_irq_pending(); }
static void postc(struct nc_backend *be) { (void)be; nc_host_charge_post(); }
static void recvc(struct nc_backend *be) { (void)be; nc_host_charge_recv(); }
static void delay(struct nc_backend *be, uint64_t ns) { (void)be; nc_host_compute_ns(ns); }
static uint64_t now(struct nc_backend *be) { (void)be; return nc_host_now_ns(); }
static int route(struct nc_backend *be, unsigned dst, uint8_t *r, size_t max)
{
    (void)be;
    return nc_host_route(dst, r, max);
}

static void sig(struct nc_backend *be, void (*fn)(void)) { (void)be; nc_host_signal(fn); }

static struct nc_backend emu = {
    .read32 = rd, .write32 = wr, .write_block = wrb, .dma_alloc = dalloc, .wait_irq = wirq,
    .poll_cost = pcost, .post_cost = postc, .recv_cost = recvc, .delay_ns = delay,
    .now_ns = now, .route = route, .signal = sig,
};

struct nc_backend *nc_backend_emu(void)
{
    return &emu;
}

const char *nc_backend_profile(void)
{
    return nc_host_profile();
}

/* nc_open: the emu backend is the default of a host program. */
int nc_open(nc_port **out, unsigned port)
{
    return nc_open_backend(out, nc_backend_emu(), port);
}
