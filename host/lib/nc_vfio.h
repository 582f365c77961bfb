/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A LANai 9 board through Linux VFIO (docs/libnicoll.md, "VFIO"): found by
 * its PCI vendor/device id, its BAR 0 mapped from the VFIO device, host
 * memory mapped for the board's DMA with VFIO_IOMMU_MAP_DMA (the IOMMU
 * translates the bus addresses the NIC is given), and the board's
 * interrupt delivered to an eventfd. The system calls go through a table
 * so that the unit tests can stand in for the kernel (no board, no IOMMU
 * on the test machine).
 */
#ifndef NICOLL_NC_VFIO_H
#define NICOLL_NC_VFIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct nc_vfio_sys {
    int (*open)(const char *path, int flags);
    int (*close)(int fd);
    int (*ioctl)(int fd, unsigned long req, void *arg);
    void *(*mmap)(void *addr, size_t len, int prot, int flags, int fd, off_t off);
    ssize_t (*pread)(int fd, void *buf, size_t len, off_t off);
    ssize_t (*pwrite)(int fd, const void *buf, size_t len, off_t off);
};
extern const struct nc_vfio_sys nc_vfio_libc;

struct nc_vfio {
    const struct nc_vfio_sys *sys;
    int container, group, device, irq_fd;
    unsigned irq_index;             /* VFIO_PCI_MSI_IRQ_INDEX or _INTX_ */
    void *bar;
    size_t bar_size;
    char bdf[32];
};

/* The first LANai 9 board (vendor 0x14c1 or 0x10e8, device 0x8043) in
 * 'sysfs' (/sys/bus/pci/devices when NULL), by address order: its PCI
 * address ("0000:03:00.0") into bdf. 0, or -1 with a message. */
int nc_vfio_find(const char *sysfs, char *bdf, size_t len, char *err, size_t errlen);

/* Open board 'bdf' through VFIO: its IOMMU group (sysfs .../iommu_group),
 * the container ('devdir', /dev/vfio when NULL) with the type-1 IOMMU, the
 * device, BAR 0 (16 MB) mapped, and its interrupt (MSI if the device has
 * it, else INTx) wired to an eventfd. 0, or -1 with a message saying what
 * is missing and what to do. */
int nc_vfio_open(struct nc_vfio *v, const struct nc_vfio_sys *sys, const char *sysfs,
                 const char *devdir, const char *bdf, char *err, size_t errlen);

/* Let the board DMA to [vaddr, vaddr + size) at bus addresses iova.. (page
 * aligned). 0, or -1 with a message. */
int nc_vfio_map_dma(struct nc_vfio *v, void *vaddr, uint64_t size, uint64_t iova,
                    char *err, size_t errlen);

/* Wait at most timeout_ns for the board's interrupt; true if it came
 * (INTx is unmasked again for the next one). */
bool nc_vfio_wait_irq(struct nc_vfio *v, uint64_t timeout_ns);

void nc_vfio_close(struct nc_vfio *v);

#endif
