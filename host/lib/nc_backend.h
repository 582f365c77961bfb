/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What libnicoll needs from a platform: PIO to the board window, DMA-able
 * memory with bus addresses, the interrupt line, time, routes. nicoll.c is
 * written against this only; nc_backend_emu.c and nc_backend_pci.c
 * implement it.
 */
#ifndef NC_BACKEND_H
#define NC_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nc_backend {
    void *ctx;
    uint32_t (*read32)(struct nc_backend *be, uint32_t off);
    void (*write32)(struct nc_backend *be, uint32_t off, uint32_t v);
    void (*write_block)(struct nc_backend *be, uint32_t off, const void *buf, uint32_t len);
    void *(*dma_alloc)(struct nc_backend *be, size_t len, uint64_t *bus);
    /* wait for the interrupt line, at most ns; true if it is up */
    bool (*wait_irq)(struct nc_backend *be, uint64_t ns);
    /* charge one look at host memory (a poll) */
    void (*poll_cost)(struct nc_backend *be);
    /* charge the library's own CPU cost of posting one command, and of
     * consuming one event (the emulated host's host.post, host.recv; a
     * real CPU pays its own) */
    void (*post_cost)(struct nc_backend *be);
    void (*recv_cost)(struct nc_backend *be);
    void (*delay_ns)(struct nc_backend *be, uint64_t ns);
    uint64_t (*now_ns)(struct nc_backend *be);
    /* the source route to node dst (route bytes), or -1 */
    int (*route)(struct nc_backend *be, unsigned dst, uint8_t *route, size_t max);
    void (*close)(struct nc_backend *be);
    /* Optional (NULL: no host signals, nc_signal_* say NC_ENOTSUP): run fn
     * on each rise of the interrupt line, as a signal handler */
    void (*signal)(struct nc_backend *be, void (*fn)(void));
};

/* The platform profile file of this host (the emulator's --profile; on a
 * real cluster the environment's NICOLL_PROFILE), or NULL: where measured
 * tables such as the postal one are found (nc_postal.c). One per build of
 * libnicoll: nc_backend_emu.c and nc_backend_pci.c each define it. */
const char *nc_backend_profile(void);

struct nc_backend *nc_backend_emu(void);
struct nc_backend *nc_backend_pci(const char *bar, size_t arena, uint64_t bus_base,
                                  char *err, size_t errlen);
/* The same board through VFIO (nc_vfio.h): bdf its PCI address or NULL (the
 * first LANai 9 by vendor/device id); arena mapped by the IOMMU at iova. */
struct nc_backend *nc_backend_vfio(const char *bdf, size_t arena, uint64_t iova,
                                   char *err, size_t errlen);

#endif
