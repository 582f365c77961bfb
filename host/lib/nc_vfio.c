/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A LANai 9 board through Linux VFIO (nc_vfio.h; the kernel's
 * Documentation/driver-api/vfio.rst gives the sequence followed here). */
#define _GNU_SOURCE
#include "nc_vfio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/vfio.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "nicoll/lanai9_regs.h"

static int sys_ioctl(int fd, unsigned long req, void *arg) { return ioctl(fd, req, arg); }
static ssize_t sys_pread(int fd, void *b, size_t n, off_t o) { return pread(fd, b, n, o); }
static ssize_t sys_pwrite(int fd, const void *b, size_t n, off_t o) { return pwrite(fd, b, n, o); }
static int sys_open(const char *p, int f) { return open(p, f | O_CLOEXEC); }

const struct nc_vfio_sys nc_vfio_libc = {
    sys_open, close, sys_ioctl, mmap, sys_pread, sys_pwrite,
};

#define FAIL(...) (snprintf(err, errlen, __VA_ARGS__), -1)

static unsigned long read_hex(const char *path)
{
    char buf[32] = "";
    FILE *f = fopen(path, "r");

    if (f) {
        if (!fgets(buf, sizeof buf, f))
            buf[0] = 0;
        fclose(f);
    }
    return strtoul(buf, NULL, 0);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

int nc_vfio_find(const char *sysfs, char *bdf, size_t len, char *err, size_t errlen)
{
    struct dirent **e;
    int n, found = -1;

    if (!sysfs)
        sysfs = "/sys/bus/pci/devices";
    if ((n = scandir(sysfs, &e, NULL, by_name)) < 0)
        return FAIL("%s: %s", sysfs, strerror(errno));
    for (int i = 0; i < n; i++) {
        char p[512];
        unsigned long vendor, device;

        snprintf(p, sizeof p, "%s/%s/vendor", sysfs, e[i]->d_name);
        vendor = read_hex(p);
        snprintf(p, sizeof p, "%s/%s/device", sysfs, e[i]->d_name);
        device = read_hex(p);
        if (found < 0 && (vendor == L9_PCI_VENDOR_MYRICOM || vendor == 0x10E8) &&
            device == L9_PCI_DEVICE_LANAI9) {
            snprintf(bdf, len, "%s", e[i]->d_name);
            found = i;
        }
        free(e[i]);
    }
    free(e);
    if (found < 0)
        return FAIL("no LANai 9 board (PCI 14c1:8043) in %s", sysfs);
    return 0;
}

/* The board's IOMMU group number, from the sysfs link iommu_group. */
static int iommu_group(const char *sysfs, const char *bdf, char *err, size_t errlen)
{
    char p[512], link[512];
    ssize_t n;
    const char *slash;

    snprintf(p, sizeof p, "%s/%s/iommu_group", sysfs, bdf);
    n = readlink(p, link, sizeof link - 1);
    if (n < 0)
        return FAIL("%s: %s: the board has no IOMMU group (no IOMMU, or it is off: "
                    "intel_iommu=on / amd_iommu=on; without one, use a DMA buffer "
                    "device, NICOLL_PCI_DMA, docs/libnicoll.md)", p, strerror(errno));
    link[n] = 0;
    slash = strrchr(link, '/');
    return atoi(slash ? slash + 1 : link);
}

/* PCI command register: memory space and bus mastering on (the board
 * reads and writes host memory); vfio-pci leaves bus mastering to us. */
static int enable_master(struct nc_vfio *v, char *err, size_t errlen)
{
    struct vfio_region_info cfg = { .argsz = sizeof cfg, .index = VFIO_PCI_CONFIG_REGION_INDEX };
    uint16_t cmd;

    if (v->sys->ioctl(v->device, VFIO_DEVICE_GET_REGION_INFO, &cfg))
        return FAIL("%s: config space region: %s", v->bdf, strerror(errno));
    if (v->sys->pread(v->device, &cmd, 2, (off_t)cfg.offset + 4) != 2)
        return FAIL("%s: cannot read the PCI command register", v->bdf);
    cmd |= 0x6;                     /* PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER */
    if (v->sys->pwrite(v->device, &cmd, 2, (off_t)cfg.offset + 4) != 2)
        return FAIL("%s: cannot write the PCI command register", v->bdf);
    return 0;
}

/* The board's interrupt to an eventfd: MSI if it has one, else INTx. */
static int wire_irq(struct nc_vfio *v, char *err, size_t errlen)
{
    struct vfio_irq_info info = { .argsz = sizeof info, .index = VFIO_PCI_MSI_IRQ_INDEX };
    char buf[sizeof(struct vfio_irq_set) + sizeof(int32_t)];
    struct vfio_irq_set *set = (struct vfio_irq_set *)buf;

    if (v->sys->ioctl(v->device, VFIO_DEVICE_GET_IRQ_INFO, &info) || info.count == 0) {
        info = (struct vfio_irq_info){ .argsz = sizeof info, .index = VFIO_PCI_INTX_IRQ_INDEX };
        if (v->sys->ioctl(v->device, VFIO_DEVICE_GET_IRQ_INFO, &info) || info.count == 0)
            return FAIL("%s: the board offers neither MSI nor INTx through VFIO", v->bdf);
    }
    v->irq_index = info.index;
    if ((v->irq_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0)
        return FAIL("eventfd: %s", strerror(errno));
    *set = (struct vfio_irq_set){
        .argsz = sizeof buf, .index = info.index, .start = 0, .count = 1,
        .flags = VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER,
    };
    memcpy(set->data, &v->irq_fd, sizeof(int32_t));
    if (v->sys->ioctl(v->device, VFIO_DEVICE_SET_IRQS, set))
        return FAIL("%s: VFIO_DEVICE_SET_IRQS (%s): %s", v->bdf,
                    info.index == VFIO_PCI_MSI_IRQ_INDEX ? "MSI" : "INTx", strerror(errno));
    return 0;
}

int nc_vfio_open(struct nc_vfio *v, const struct nc_vfio_sys *sys, const char *sysfs,
                 const char *devdir, const char *bdf, char *err, size_t errlen)
{
    struct vfio_group_status st = { .argsz = sizeof st };
    struct vfio_region_info bar = { .argsz = sizeof bar, .index = VFIO_PCI_BAR0_REGION_INDEX };
    char p[512];
    int group;

    memset(v, 0, sizeof *v);
    v->sys = sys ? sys : &nc_vfio_libc;
    v->container = v->group = v->device = v->irq_fd = -1;
    snprintf(v->bdf, sizeof v->bdf, "%s", bdf);
    if (!sysfs)
        sysfs = "/sys/bus/pci/devices";
    if (!devdir)
        devdir = "/dev/vfio";
    if ((group = iommu_group(sysfs, bdf, err, errlen)) < 0)
        return -1;
    snprintf(p, sizeof p, "%s/vfio", devdir);
    if ((v->container = v->sys->open(p, O_RDWR)) < 0) {
        snprintf(err, errlen, "%s: %s (load vfio-pci: modprobe vfio-pci)", p, strerror(errno));
        goto fail;
    }
    if (v->sys->ioctl(v->container, VFIO_GET_API_VERSION, NULL) != VFIO_API_VERSION) {
        snprintf(err, errlen, "%s: unknown VFIO API version", p);
        goto fail;
    }
    if (v->sys->ioctl(v->container, VFIO_CHECK_EXTENSION,
                      (void *)(uintptr_t)VFIO_TYPE1_IOMMU) <= 0) {
        snprintf(err, errlen, "%s: no type-1 IOMMU (VFIO's no-IOMMU mode cannot map DMA memory: use "
             "NICOLL_PCI_DMA, docs/libnicoll.md)", p);
        goto fail;
    }
    snprintf(p, sizeof p, "%s/%d", devdir, group);
    if ((v->group = v->sys->open(p, O_RDWR)) < 0) {
        snprintf(err, errlen, "%s: %s (bind %s to vfio-pci: driverctl set-override %s vfio-pci)", p,
             strerror(errno), bdf, bdf);
        goto fail;
    }
    if (v->sys->ioctl(v->group, VFIO_GROUP_GET_STATUS, &st) ||
        !(st.flags & VFIO_GROUP_FLAGS_VIABLE)) {
        snprintf(err, errlen, "IOMMU group %d is not viable: every device in it must be bound to vfio-pci "
             "(or to no driver)", group);
        goto fail;
    }
    if (v->sys->ioctl(v->group, VFIO_GROUP_SET_CONTAINER, &v->container) ||
        v->sys->ioctl(v->container, VFIO_SET_IOMMU, (void *)(uintptr_t)VFIO_TYPE1_IOMMU)) {
        snprintf(err, errlen, "IOMMU group %d: cannot attach it to a type-1 container: %s", group,
             strerror(errno));
        goto fail;
    }
    if ((v->device = v->sys->ioctl(v->group, VFIO_GROUP_GET_DEVICE_FD, (void *)bdf)) < 0) {
        snprintf(err, errlen, "%s: VFIO_GROUP_GET_DEVICE_FD: %s", bdf, strerror(errno));
        goto fail;
    }
    if (v->sys->ioctl(v->device, VFIO_DEVICE_GET_REGION_INFO, &bar) ||
        !(bar.flags & VFIO_REGION_INFO_FLAG_MMAP) || bar.size < L9_BAR_SIZE) {
        snprintf(err, errlen, "%s: BAR 0 is not a mappable region of at least %u bytes (size %llu)", bdf,
             L9_BAR_SIZE, (unsigned long long)bar.size);
        goto fail;
    }
    v->bar = v->sys->mmap(NULL, L9_BAR_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, v->device,
                          (off_t)bar.offset);
    if (v->bar == MAP_FAILED) {
        v->bar = NULL;
        snprintf(err, errlen, "%s: mmap of BAR 0: %s", bdf, strerror(errno));
        goto fail;
    }
    v->bar_size = L9_BAR_SIZE;
    if (enable_master(v, err, errlen) || wire_irq(v, err, errlen))
        goto fail;
    return 0;
fail:
    nc_vfio_close(v);
    return -1;
}

int nc_vfio_map_dma(struct nc_vfio *v, void *vaddr, uint64_t size, uint64_t iova,
                    char *err, size_t errlen)
{
    struct vfio_iommu_type1_dma_map map = {
        .argsz = sizeof map,
        .flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE,
        .vaddr = (uint64_t)(uintptr_t)vaddr, .iova = iova, .size = size,
    };
    long page = sysconf(_SC_PAGESIZE);

    if (((uintptr_t)vaddr | iova | size) & (uint64_t)(page - 1))
        return FAIL("DMA mapping of %llu bytes at bus address 0x%llx: not page aligned",
                    (unsigned long long)size, (unsigned long long)iova);
    if (v->sys->ioctl(v->container, VFIO_IOMMU_MAP_DMA, &map))
        return FAIL("VFIO_IOMMU_MAP_DMA of %llu bytes at bus address 0x%llx: %s",
                    (unsigned long long)size, (unsigned long long)iova, strerror(errno));
    return 0;
}

bool nc_vfio_wait_irq(struct nc_vfio *v, uint64_t timeout_ns)
{
    struct pollfd pfd = { .fd = v->irq_fd, .events = POLLIN };
    uint64_t count;
    int ms = (int)((timeout_ns + 999999) / 1000000);

    if (v->irq_fd < 0 || poll(&pfd, 1, ms) <= 0 || read(v->irq_fd, &count, sizeof count) != 8)
        return false;
    if (v->irq_index == VFIO_PCI_INTX_IRQ_INDEX) {
        /* vfio-pci masks INTx when it fires: let the next one through */
        struct vfio_irq_set set = {
            .argsz = sizeof set, .index = VFIO_PCI_INTX_IRQ_INDEX, .start = 0, .count = 1,
            .flags = VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_UNMASK,
        };
        v->sys->ioctl(v->device, VFIO_DEVICE_SET_IRQS, &set);
    }
    return true;
}

void nc_vfio_close(struct nc_vfio *v)
{
    if (v->bar)
        munmap(v->bar, v->bar_size);
    if (v->irq_fd >= 0)
        close(v->irq_fd);
    if (v->device >= 0)
        v->sys->close(v->device);
    if (v->group >= 0)
        v->sys->close(v->group);
    if (v->container >= 0)
        v->sys->close(v->container);
    v->bar = NULL;
    v->irq_fd = v->device = v->group = v->container = -1;
}
