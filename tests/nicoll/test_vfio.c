/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of host/lib/nc_vfio.c without a board or an IOMMU: a fake
 * kernel stands behind the system-call table (nc_vfio_sys) and checks
 * every VFIO request against <linux/vfio.h> (argsz, index, flags, the
 * values passed), and a sysfs-shaped tree in a temporary directory holds
 * the PCI devices. What this cannot show is a real kernel's answer
 * (docs/libnicoll.md, "VFIO"). cmocka, TAP output.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/vfio.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "nc_vfio.h"
#include "nicoll/lanai9_regs.h"

enum { CONTAINER = 40, GROUP = 41, DEVICE = 42 };

/* The fake kernel's state and what it was asked. */
static struct {
    bool viable, msi, no_container, bad_api;
    int opened_group;
    bool set_container, set_iommu, got_device;
    int irq_index, irq_fd, unmasks;
    uint16_t command;
    struct vfio_iommu_type1_dma_map map;
    int maps;
    void *bar;
} k;
static char root[64], sysfs[128], devdir[128];

static int f_open(const char *path, int flags)
{
    char p[256];

    (void)flags;
    snprintf(p, sizeof p, "%s/vfio", devdir);
    if (!strcmp(path, p))
        return k.no_container ? (errno = ENOENT, -1) : CONTAINER;
    snprintf(p, sizeof p, "%s/%d", devdir, 12);
    if (!strcmp(path, p))
        return k.opened_group = 12, GROUP;
    errno = ENOENT;
    return -1;
}

static int f_close(int fd) { (void)fd; return 0; }

static int f_ioctl(int fd, unsigned long req, void *arg)
{
    switch (req) {
    case VFIO_GET_API_VERSION:
        assert_int_equal(fd, CONTAINER);
        return k.bad_api ? 1234 : VFIO_API_VERSION;
    case VFIO_CHECK_EXTENSION:
        assert_int_equal(fd, CONTAINER);
        return (uintptr_t)arg == VFIO_TYPE1_IOMMU;
    case VFIO_GROUP_GET_STATUS: {
        struct vfio_group_status *s = arg;
        assert_int_equal(fd, GROUP);
        assert_int_equal(s->argsz, sizeof *s);
        s->flags = k.viable ? VFIO_GROUP_FLAGS_VIABLE : 0;
        return 0;
    }
    case VFIO_GROUP_SET_CONTAINER:
        assert_int_equal(fd, GROUP);
        assert_int_equal(*(int *)arg, CONTAINER);
        k.set_container = true;
        return 0;
    case VFIO_SET_IOMMU:
        assert_int_equal(fd, CONTAINER);
        assert_true(k.set_container);       /* the group first, then the IOMMU */
        assert_int_equal((uintptr_t)arg, VFIO_TYPE1_IOMMU);
        k.set_iommu = true;
        return 0;
    case VFIO_GROUP_GET_DEVICE_FD:
        assert_int_equal(fd, GROUP);
        assert_true(k.set_iommu);
        assert_string_equal((const char *)arg, "0000:03:00.0");
        k.got_device = true;
        return DEVICE;
    case VFIO_DEVICE_GET_REGION_INFO: {
        struct vfio_region_info *r = arg;
        assert_int_equal(fd, DEVICE);
        assert_int_equal(r->argsz, sizeof *r);
        if (r->index == VFIO_PCI_BAR0_REGION_INDEX) {
            r->flags = VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE |
                       VFIO_REGION_INFO_FLAG_MMAP;
            r->size = L9_BAR_SIZE;
            r->offset = 0;
        } else {
            assert_int_equal(r->index, VFIO_PCI_CONFIG_REGION_INDEX);
            r->flags = VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE;
            r->size = 256;
            r->offset = 7ull << 40;         /* as vfio-pci: index << 40 */
        }
        return 0;
    }
    case VFIO_DEVICE_GET_IRQ_INFO: {
        struct vfio_irq_info *i = arg;
        assert_int_equal(i->argsz, sizeof *i);
        i->count = i->index == VFIO_PCI_MSI_IRQ_INDEX ? k.msi : i->index == VFIO_PCI_INTX_IRQ_INDEX;
        return 0;
    }
    case VFIO_DEVICE_SET_IRQS: {
        struct vfio_irq_set *s = arg;
        assert_int_equal(fd, DEVICE);
        assert_int_equal(s->start, 0);
        assert_int_equal(s->count, 1);
        if (s->flags & VFIO_IRQ_SET_ACTION_UNMASK) {
            assert_int_equal(s->flags, VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_UNMASK);
            assert_int_equal(s->argsz, sizeof *s);
            assert_int_equal(s->index, VFIO_PCI_INTX_IRQ_INDEX);
            k.unmasks++;
            return 0;
        }
        assert_int_equal(s->flags, VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER);
        assert_int_equal(s->argsz, sizeof *s + sizeof(int32_t));
        k.irq_index = (int)s->index;
        memcpy(&k.irq_fd, s->data, sizeof(int32_t));
        return 0;
    }
    case VFIO_IOMMU_MAP_DMA:
        assert_int_equal(fd, CONTAINER);
        k.map = *(struct vfio_iommu_type1_dma_map *)arg;
        k.maps++;
        return 0;
    }
    fail_msg("unexpected ioctl 0x%lx on fd %d", req, fd);
    return -1;
}

static void *f_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    assert_int_equal(fd, DEVICE);
    assert_int_equal(off, 0);
    assert_int_equal(len, L9_BAR_SIZE);
    assert_true(flags & MAP_SHARED);
    k.bar = mmap(addr, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return k.bar;
}

static ssize_t f_pread(int fd, void *buf, size_t len, off_t off)
{
    assert_int_equal(fd, DEVICE);
    assert_int_equal(off, (7ll << 40) + 4);     /* the command register */
    assert_int_equal(len, 2);
    memcpy(buf, &k.command, 2);
    return 2;
}

static ssize_t f_pwrite(int fd, const void *buf, size_t len, off_t off)
{
    assert_int_equal(fd, DEVICE);
    assert_int_equal(off, (7ll << 40) + 4);
    assert_int_equal(len, 2);
    memcpy(&k.command, buf, 2);
    return 2;
}

static const struct nc_vfio_sys fake = { f_open, f_close, f_ioctl, f_mmap, f_pread, f_pwrite };

static void put(const char *dir, const char *name, const char *text)
{
    char p[256];
    FILE *f;

    snprintf(p, sizeof p, "%s/%s", dir, name);
    assert_non_null(f = fopen(p, "w"));
    fputs(text, f);
    fclose(f);
}

/* /sys/bus/pci/devices with a host bridge (8086:2918) and a LANai 9 in
 * IOMMU group 12; /dev/vfio as a directory name only (the fake opens). */
static int setup(void **state)
{
    char d[256];

    (void)state;
    memset(&k, 0, sizeof k);
    k.viable = true;
    k.msi = true;
    k.command = 0x0002;             /* memory space on, bus master off */
    snprintf(root, sizeof root, "/tmp/nc-vfio-XXXXXX");
    assert_non_null(mkdtemp(root));
    snprintf(sysfs, sizeof sysfs, "%s/devices", root);
    snprintf(devdir, sizeof devdir, "%s/dev-vfio", root);
    mkdir(sysfs, 0700);
    snprintf(d, sizeof d, "%s/0000:00:1f.0", sysfs);
    mkdir(d, 0700);
    put(d, "vendor", "0x8086\n");
    put(d, "device", "0x2918\n");
    snprintf(d, sizeof d, "%s/0000:03:00.0", sysfs);
    mkdir(d, 0700);
    put(d, "vendor", "0x14c1\n");
    put(d, "device", "0x8043\n");
    strcat(d, "/iommu_group");
    assert_int_equal(symlink("../../../kernel/iommu_groups/12", d), 0);
    return 0;
}

static int teardown(void **state)
{
    char cmd[128];

    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    return system(cmd);
}

static void find_by_vendor_device(void **state)
{
    char bdf[32], err[256];

    (void)state;
    assert_int_equal(nc_vfio_find(sysfs, bdf, sizeof bdf, err, sizeof err), 0);
    assert_string_equal(bdf, "0000:03:00.0");
    assert_int_equal(nc_vfio_find(devdir, bdf, sizeof bdf, err, sizeof err), -1);
    assert_non_null(strstr(err, "dev-vfio"));
}

static void open_sequence_msi(void **state)
{
    struct nc_vfio v;
    char err[256];

    (void)state;
    assert_int_equal(nc_vfio_open(&v, &fake, sysfs, devdir, "0000:03:00.0", err, sizeof err), 0);
    assert_int_equal(k.opened_group, 12);
    assert_true(k.set_container && k.set_iommu && k.got_device);
    assert_ptr_equal(v.bar, k.bar);
    assert_int_equal(k.command & 0x6, 0x6);    /* memory space and bus master on */
    assert_int_equal(k.irq_index, VFIO_PCI_MSI_IRQ_INDEX);
    assert_int_equal(k.irq_fd, v.irq_fd);
    nc_vfio_close(&v);
}

static void dma_map_arguments(void **state)
{
    struct nc_vfio v;
    char err[256];
    void *mem = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    (void)state;
    assert_int_equal(nc_vfio_open(&v, &fake, sysfs, devdir, "0000:03:00.0", err, sizeof err), 0);
    assert_int_equal(nc_vfio_map_dma(&v, mem, 1 << 20, 0x100000000ull, err, sizeof err), 0);
    assert_int_equal(k.maps, 1);
    assert_int_equal(k.map.argsz, sizeof k.map);
    assert_int_equal(k.map.flags, VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE);
    assert_int_equal(k.map.vaddr, (uintptr_t)mem);
    assert_int_equal(k.map.iova, 0x100000000ull);
    assert_int_equal(k.map.size, 1 << 20);
    /* not page aligned: refused before the kernel sees it */
    assert_int_equal(nc_vfio_map_dma(&v, (char *)mem + 8, 4096, 0x100000000ull, err,
                                     sizeof err), -1);
    assert_non_null(strstr(err, "not page aligned"));
    assert_int_equal(k.maps, 1);
    nc_vfio_close(&v);
    munmap(mem, 1 << 20);
}

static void interrupt_through_eventfd_intx(void **state)
{
    struct nc_vfio v;
    char err[256];
    uint64_t one = 1;

    (void)state;
    k.msi = false;                  /* INTx only: unmasked after each interrupt */
    assert_int_equal(nc_vfio_open(&v, &fake, sysfs, devdir, "0000:03:00.0", err, sizeof err), 0);
    assert_int_equal(k.irq_index, VFIO_PCI_INTX_IRQ_INDEX);
    assert_false(nc_vfio_wait_irq(&v, 1000000));       /* nothing: 1 ms timeout */
    assert_int_equal(write(k.irq_fd, &one, sizeof one), 8);   /* the kernel signals */
    assert_true(nc_vfio_wait_irq(&v, 1000000));
    assert_int_equal(k.unmasks, 1);
    assert_false(nc_vfio_wait_irq(&v, 1000000));       /* consumed */
    nc_vfio_close(&v);
}

static void clear_errors(void **state)
{
    struct nc_vfio v;
    char err[256], link[256];

    (void)state;
    k.no_container = true;
    assert_int_equal(nc_vfio_open(&v, &fake, sysfs, devdir, "0000:03:00.0", err, sizeof err), -1);
    assert_non_null(strstr(err, "dev-vfio/vfio"));
    assert_non_null(strstr(err, "modprobe vfio-pci"));
    k.no_container = false;
    k.viable = false;
    assert_int_equal(nc_vfio_open(&v, &fake, sysfs, devdir, "0000:03:00.0", err, sizeof err), -1);
    assert_non_null(strstr(err, "IOMMU group 12 is not viable"));
    k.viable = true;
    k.bad_api = true;
    assert_int_equal(nc_vfio_open(&v, &fake, sysfs, devdir, "0000:03:00.0", err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown VFIO API version"));
    k.bad_api = false;
    /* no IOMMU group: the machine has no IOMMU (this one, for instance) */
    snprintf(link, sizeof link, "%s/0000:03:00.0/iommu_group", sysfs);
    unlink(link);
    assert_int_equal(nc_vfio_open(&v, &fake, sysfs, devdir, "0000:03:00.0", err, sizeof err), -1);
    assert_non_null(strstr(err, "no IOMMU group"));
    assert_non_null(strstr(err, "NICOLL_PCI_DMA"));
    /* the real system calls on this machine: no /dev/vfio either */
    assert_int_equal(nc_vfio_open(&v, NULL, sysfs, "/nonexistent/vfio", "0000:00:1f.0", err,
                                  sizeof err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(find_by_vendor_device, setup, teardown),
        cmocka_unit_test_setup_teardown(open_sequence_msi, setup, teardown),
        cmocka_unit_test_setup_teardown(dma_map_arguments, setup, teardown),
        cmocka_unit_test_setup_teardown(interrupt_through_eventfd_intx, setup, teardown),
        cmocka_unit_test_setup_teardown(clear_errors, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
