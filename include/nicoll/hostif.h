/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host interface: what a host program (and libnicoll under it) may use
 * to talk to its NIC. In the emulated cluster every call is charged in the
 * host's own virtual time with the costs of the platform profile; a real
 * machine implements the same calls on a PCI board (libnicoll's pci backend).
 * docs/host-runtime.md describes the emulated semantics.
 */
#ifndef NICOLL_HOSTIF_H
#define NICOLL_HOSTIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* This host's node id and the cluster size. */
unsigned nc_host_node(void);
unsigned nc_host_nodes(void);

/* The source route from this node to node 'dst': route bytes (0x80 | port,
 * one per switch, docs/fabric.md) into route[0..max). Returns the length,
 * or -1 when dst is not a node or the route is longer than max. On the
 * emulated cluster the routes are the topology's up*-down* routes; a real
 * cluster gets them from its mapper. Free of charge (configuration). */
int nc_host_route(unsigned dst, uint8_t *route, size_t max);

/* The platform profile file this host's costs come from (lanai-run
 * --profile; docs/profiles.md), or NULL when it has none. libnicoll finds
 * the profile's measured tables beside it (the postal table,
 * docs/multicast.md). Free of charge (configuration). */
const char *nc_host_profile(void);

/* The host's clock, in nanoseconds of virtual time. */
uint64_t nc_host_now_ns(void);

/* Spend 'ns' of CPU time computing (scaled by the profile's compute factor). */
void nc_host_compute_ns(uint64_t ns);

/* The communication library's own CPU cost (the profile's host.post and
 * host.recv), charged in the host's clock like nc_host_compute_ns but not
 * scaled: the profile gives them as times on this host. libnicoll calls
 * nc_host_charge_post() once per command it writes into its NIC's command
 * ring (a send, a receive buffer, a registration, a barrier start, open,
 * close), before the command's PIO writes, and nc_host_charge_recv() once
 * per event it takes out of its event ring (docs/libnicoll.md). A host
 * program that is its own library (without libnicoll) may call them too. */
void nc_host_charge_post(void);
void nc_host_charge_recv(void);

/* 32-bit PIO to the board window (offsets as include/nicoll/lanai9_regs.h).
 * A write is posted: it costs the profile's PIO-write time and lands on the
 * board its write latency later. A read stalls until the value is back. */
void nc_host_pio_write32(uint32_t off, uint32_t val);
uint32_t nc_host_pio_read32(uint32_t off);

/* Bursts of PIO over 'len' bytes of the board window at 'off' (a multiple
 * of 4 bytes is sensible), timed exactly as that many word PIOs back to
 * back; a machine may carry a burst as one request. */
void nc_host_pio_write_block(uint32_t off, const void *buf, uint32_t len);
void nc_host_pio_read_block(uint32_t off, void *buf, uint32_t len);

/* Memory the NIC can DMA to and from; *bus receives its bus address.
 * Memory lives until the program ends. NULL when the host memory is full. */
void *nc_host_dma_alloc(size_t len, uint64_t *bus);

/* The NIC's interrupt line: wait until it is raised (true) or until
 * 'timeout_ns' passed (false; 0 = no timeout), or just look. */
bool nc_host_wait_irq(uint64_t timeout_ns);
bool nc_host_irq_pending(void);

/* The host's signal (docs/host-runtime.md, "Signals"): from now on each
 * rise of the interrupt line runs handler on the host's clock, at the
 * profile's host.signal cost, pre-empting nc_host_compute_ns and any call
 * of this interface, as a Unix signal interrupts a process. The signal is
 * blocked while its handler runs; rises meanwhile make it pending once.
 * NULL: no handler (a pending signal is dropped). */
void nc_host_signal(void (*handler)(void));

/* memcpy charged at the profile's copy cost. */
void nc_host_memcpy(void *dst, const void *src, size_t n);

/* End this host's program with 'status', as returning it from main would;
 * other hosts run on. (exit() would end the whole emulated cluster.) */
void nc_host_exit(int status) __attribute__((noreturn));
/* Console output, prefixed per node by the machine. */
void nc_host_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
