/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libnicoll's pci backend: a real LANai 9 board through its 16 MB BAR
 * (the sysfs resource file, mapped by board_mmap.c), or a fake-BAR file
 * standing in for one in tests.
 *
 * What a real board needs that this file cannot give by itself (no board
 * exists here; docs/libnicoll.md lists it): DMA-able memory with bus
 * addresses. The caller passes an arena size and the bus address of its
 * first byte. If NICOLL_PCI_DMA names a file, the arena is that file mapped
 * shared (at most the arena size): a u-dma-buf device (/dev/udmabufN, bus
 * address in its sysfs phys_addr) on a real machine, or the dma file of an
 * emulated board (lanai-run --board-dir, docs/myrinet.md). Otherwise it is
 * anonymous memory, which a real board cannot reach: there the arena must
 * be memory the IOMMU maps at that bus address (VFIO VFIO_IOMMU_MAP_DMA
 * with iova = bus_base), which is not done.
 * Interrupts: the sysfs resource file has none, so waits poll the event
 * ring with a short sleep; routes are the crossbar's (0x80 | node) unless
 * NICOLL_ROUTES names a file of "node byte..." lines (hex bytes).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "board.h"
#include "nc_backend.h"
#include "nc_vfio.h"
#include "nicoll.h"

struct pci {
    struct nc_backend be;
    struct nc_board board;
    uint8_t *arena;
    size_t size, used;
    uint64_t bus_base;
    struct nc_vfio *vfio;           /* opened through VFIO (nc_open_vfio), or NULL */
};

static struct pci *P(struct nc_backend *be) { return (struct pci *)be->ctx; }

static uint32_t rd(struct nc_backend *be, uint32_t off) { return nc_board_read32(&P(be)->board, off); }
static void wr(struct nc_backend *be, uint32_t off, uint32_t v) { nc_board_write32(&P(be)->board, off, v); }
static void wrb(struct nc_backend *be, uint32_t off, const void *buf, uint32_t len)
{
    P(be)->board.ops->write(&P(be)->board, off, buf, len);
}

static void *dalloc(struct nc_backend *be, size_t len, uint64_t *bus)
{
    struct pci *p = P(be);
    size_t at = (p->used + 63) & ~(size_t)63;      /* 64-byte aligned, as the emulator's */

    if (at > p->size || len > p->size - at)
        return NULL;
    p->used = at + len;
    *bus = p->bus_base + at;
    return p->arena + at;
}

static uint64_t now(struct nc_backend *be)
{
    struct timespec ts;

    (void)be;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void delay(struct nc_backend *be, uint64_t ns)
{
    struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };

    (void)be;
    nanosleep(&ts, NULL);
}

/* No interrupt through a resource file: sleep a little, let the caller poll.
 * Through VFIO: the board's interrupt on its eventfd. */
static bool wirq(struct nc_backend *be, uint64_t ns)
{
    if (P(be)->vfio)
        return nc_vfio_wait_irq(P(be)->vfio, ns);
    delay(be, ns < 10000 ? ns : 10000);
    return false;
}

/* A real CPU pays for its polls, posts and event handling itself. */
static void pcost(struct nc_backend *be) { (void)be; }

static int route(struct nc_backend *be, unsigned dst, uint8_t *r, size_t max)
{
    const char *f = getenv("NICOLL_ROUTES");
    char line[256];
    FILE *fp;

    (void)be;
    if (!f) {
        if (max < 1 || dst > 63)
            return -1;
        r[0] = (uint8_t)(0x80u | dst);
        return 1;
    }
    if (!(fp = fopen(f, "r")))
        return -1;
    while (fgets(line, sizeof line, fp)) {
        char *s = line, *e;
        unsigned long node = strtoul(s, &e, 10);
        int n = 0;

        if (e == s || node != dst)
            continue;
        for (s = e;; s = e) {
            unsigned long v = strtoul(s, &e, 16);
            if (e == s)
                break;
            if ((size_t)n == max || v > 0xFF)
                return fclose(fp), -1;
            r[n++] = (uint8_t)v;
        }
        fclose(fp);
        return n ? n : -1;
    }
    fclose(fp);
    return -1;
}

static void pclose_(struct nc_backend *be)
{
    struct pci *p = P(be);

    nc_board_close(&p->board);
    if (p->vfio) {
        nc_vfio_close(p->vfio);     /* the container goes, and its DMA mappings */
        free(p->vfio);
    }
    munmap(p->arena, p->size);
    free(p);
}

static void fill_ops(struct pci *p)
{
    p->be = (struct nc_backend){
        .ctx = p, .read32 = rd, .write32 = wr, .write_block = wrb, .dma_alloc = dalloc,
        .wait_irq = wirq, .poll_cost = pcost, .post_cost = pcost, .recv_cost = pcost,
        .delay_ns = delay, .now_ns = now, .route = route, .close = pclose_,
    };
}

/*
 * A board through VFIO (nc_vfio.c): 'bdf' its PCI address, or NULL for the
 * first LANai 9 found by vendor/device id; the arena is anonymous memory
 * that the IOMMU maps at bus addresses iova.. (VFIO_IOMMU_MAP_DMA), so the
 * NIC is given bus addresses that are true by construction. NICOLL_SYSFS
 * and NICOLL_VFIO_DEV move /sys/bus/pci/devices and /dev/vfio (tests).
 */
struct nc_backend *nc_backend_vfio(const char *bdf, size_t arena, uint64_t iova,
                                   char *err, size_t errlen)
{
    const char *sysfs = getenv("NICOLL_SYSFS"), *dev = getenv("NICOLL_VFIO_DEV");
    struct pci *p = calloc(1, sizeof *p);
    char found[32];
    long page = sysconf(_SC_PAGESIZE);

    if (!p || !(p->vfio = calloc(1, sizeof *p->vfio))) {
        free(p);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    arena = (arena + (size_t)page - 1) & ~((size_t)page - 1);
    if ((!bdf && nc_vfio_find(sysfs, found, sizeof found, err, errlen)) ||
        nc_vfio_open(p->vfio, NULL, sysfs, dev, bdf ? bdf : found, err, errlen)) {
        free(p->vfio);
        free(p);
        return NULL;
    }
    p->arena = mmap(NULL, arena, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p->arena == MAP_FAILED || nc_board_wrap(&p->board, p->vfio->bar, p->vfio->bdf) ||
        nc_vfio_map_dma(p->vfio, p->arena, arena, iova, err, errlen)) {
        if (p->arena == MAP_FAILED)
            snprintf(err, errlen, "DMA arena of %zu bytes: cannot map", arena);
        else
            munmap(p->arena, arena);
        nc_vfio_close(p->vfio);
        free(p->vfio);
        free(p);
        return NULL;
    }
    p->size = arena;
    p->bus_base = iova;
    fill_ops(p);
    return &p->be;
}

int nc_open_vfio(nc_port **out, const char *bdf, unsigned port, size_t dma_arena,
                 uint64_t iova)
{
    char err[512];
    struct nc_backend *be = nc_backend_vfio(bdf, dma_arena, iova, err, sizeof err);
    int rc;

    *out = NULL;
    if (!be)
        return NC_ENODEV;
    rc = nc_open_backend(out, be, port);
    if (rc && be->close)
        be->close(be);
    return rc;
}

/* The DMA arena: NICOLL_PCI_DMA's file (shared; *arena shrinks to the
 * file's size) or anonymous memory. NULL with a message on failure. */
static uint8_t *map_arena(size_t *arena, char *err, size_t errlen)
{
    const char *f = getenv("NICOLL_PCI_DMA");
    struct stat st;
    void *m;
    int fd;

    if (!f || !*f) {
        m = mmap(NULL, *arena, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) {
            snprintf(err, errlen, "DMA arena of %zu bytes: cannot map", *arena);
            return NULL;
        }
        return m;
    }
    if ((fd = open(f, O_RDWR)) < 0 || fstat(fd, &st)) {
        snprintf(err, errlen, "NICOLL_PCI_DMA=%s: %s", f, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    if ((uint64_t)st.st_size < *arena)
        *arena = (size_t)st.st_size;
    m = *arena ? mmap(NULL, *arena, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    close(fd);
    if (m == MAP_FAILED) {
        snprintf(err, errlen, "NICOLL_PCI_DMA=%s: cannot map %zu bytes", f, *arena);
        return NULL;
    }
    return m;
}

struct nc_backend *nc_backend_pci(const char *bar, size_t arena, uint64_t bus_base,
                                  char *err, size_t errlen)
{
    struct pci *p = calloc(1, sizeof *p);

    if (!p) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (nc_board_open_mmap(&p->board, bar, err, errlen)) {
        free(p);
        return NULL;
    }
    p->arena = map_arena(&arena, err, errlen);
    if (!p->arena) {
        nc_board_close(&p->board);
        free(p);
        return NULL;
    }
    p->size = arena;
    p->bus_base = bus_base;
    fill_ops(p);
    return &p->be;
}

/* A real board has no emulator to say which profile it was measured as:
 * the user names it. */
const char *nc_backend_profile(void)
{
    const char *p = getenv("NICOLL_PROFILE");

    return p && *p ? p : NULL;
}

int nc_open_pci(nc_port **out, const char *bar, unsigned port, size_t dma_arena,
                uint64_t bus_base)
{
    char err[256];
    struct nc_backend *be = nc_backend_pci(bar, dma_arena, bus_base, err, sizeof err);
    int rc;

    *out = NULL;
    if (!be)
        return NC_ENODEV;
    rc = nc_open_backend(out, be, port);
    if (rc && be->close)
        be->close(be);
    return rc;
}

