/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A node whose host is an outside process (board-dir=DIR, docs/myrinet.md
 * "A board for outside programs"). The node's board window and its host's
 * DMA memory are files that an ordinary Linux process maps, as it would map
 * a board's sysfs resource0 file and DMA-able memory:
 *
 *   DIR/resource0     16 MB, the board window (lanai9_regs.h L9_BAR_*)
 *   DIR/dma           the host's DMA memory (host-mem bytes)
 *   DIR/dma_bus_addr  the bus address of dma's byte 0, one line of hex (as
 *                     u-dma-buf's phys_addr); written last: the files are
 *                     ready when it exists
 *
 * SRAM is the window file itself: the node's SRAM pages are mapped from
 * resource0's first sram_size bytes, so the outside process and the LANai
 * share the bytes with nothing in between. Registers cannot trap on a plain
 * file, so the machine samples them: for the control register and every
 * special register it keeps the value it published in the file; a word
 * that differs is a write by the outside host, applied as a PIO write at
 * the start of the next window; then the current value is published again
 * with a compare-and-swap, so a write that races with publishing is seen
 * at the next sample, never lost. Special registers are sampled once per
 * window. The control register is also watched by a thread of its own
 * every EXT_WATCH_US of real time, which queues each value it sees: the
 * emulator's own thread may not run for milliseconds on a loaded machine,
 * and a loader writes RESET_ON, then (milliseconds later) RESET_OFF; had
 * both fallen between two samples, the reset would be lost and the old
 * firmware would run on while SRAM is rewritten. What this cannot see: a
 * write of the value already published (a no-op for CLOCK, EIMR and the
 * control register, whose published value is its state; for ISR a
 * write-1-to-clear of exactly the bits that are set), and all but the last
 * of several writes to one register between two looks (a loader's
 * INT_DISABLE right before its RESET_ON: interrupts go nowhere in this
 * mode). One such loss is repaired: a RESET_OFF that finds the LANai
 * running means its RESET_ON was overwritten before anyone looked (on a
 * machine so loaded that neither the watcher nor the emulator ran for the
 * milliseconds of a load; nothing but a loader writes RESET_OFF), so the
 * machine applies the pair, reset then release, and counts it. The
 * emulator's thread did not run in that time either, so the old firmware
 * ran at most to the end of the window in which the RESET_ON came.
 * The EEPROM is read-only: it is written back if the outside changes it.
 */
#include "qemu/osdep.h"
#include "qemu/atomic.h"
#include "qemu/bswap.h"
#include "qemu/error-report.h"
#include "qemu/thread.h"
#include "myrinet-node.h"
#include <sys/mman.h>

/* The words sampled: the control register, then the 128 special words. */
#define EXT_SPECIAL_WORDS (MR_SPECIAL_SIZE / 4)
#define EXT_WORDS (1 + EXT_SPECIAL_WORDS)
#define EXT_WATCH_US 20             /* the control register's watcher */
#define EXT_CTL_QUEUE 64

typedef struct MrExt {
    unsigned node;
    uint8_t *win;                  /* resource0, 16 MB */
    uint8_t *dma;
    uint64_t dma_size;
    uint32_t pub[EXT_WORDS];       /* what the machine last published (file order) */
    int64_t t0_ns;                 /* real time of virtual time 0 */
    uint64_t samples, writes;
    /* the control register: values seen (by the watcher or a sample) and
     * not yet applied, under lock; ctl_last: the word as last seen */
    QemuMutex lock;
    QemuThread watcher;
    uint32_t ctl_q[EXT_CTL_QUEUE], ctl_qn, ctl_last;
    uint64_t watcher_looks, watcher_seen, implied_resets;
} MrExt;

/* Look at the control register; a new value that is not the published
 * one is the host's write: queue it. Called with x->lock held. */
static void ctl_look(MrExt *x)
{
    uint32_t raw = qatomic_read((uint32_t *)(x->win + L9_BAR_CONTROL));

    if (raw == x->ctl_last) {
        return;
    }
    x->ctl_last = raw;
    if (raw == x->pub[0]) {
        return;
    }
    if (x->ctl_qn == EXT_CTL_QUEUE) {
        x->ctl_qn--;                /* full: the newest value wins */
    }
    x->ctl_q[x->ctl_qn++] = raw;
}

static void *ctl_watch(void *opaque)
{
    MrExt *x = opaque;

    for (;;) {
        unsigned before;

        qemu_mutex_lock(&x->lock);
        before = x->ctl_qn;
        ctl_look(x);
        x->watcher_looks++;
        x->watcher_seen += x->ctl_qn != before;
        qemu_mutex_unlock(&x->lock);
        g_usleep(EXT_WATCH_US);
    }
    return NULL;
}

static uint32_t ext_off(unsigned k)
{
    return k == 0 ? L9_BAR_CONTROL : L9_BAR_SPECIAL + 4 * (k - 1);
}

/* The registers whose value the machine shows in the file; the others read
 * as the last value the host wrote (0 at first). */
static bool ext_published(uint32_t off)
{
    return off == L9_BAR_CONTROL || off == L9_BAR_SPECIAL + L9_ISR ||
           off == L9_BAR_SPECIAL + L9_EIMR || off == L9_BAR_SPECIAL + L9_CLOCK;
}

static void ext_fail(const char *path, const char *what)
{
    error_report("board-dir: %s: %s: %s", path, what, strerror(errno));
    exit(2);
}

/* A file of 'size' bytes in the board directory, mapped shared. */
static uint8_t *ext_file(const char *dir, const char *name, uint64_t size,
                         void *at)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    void *p;

    if (fd < 0) {
        ext_fail(path, "cannot create");
    }
    if (ftruncate(fd, size)) {
        ext_fail(path, "cannot size");
    }
    p = mmap(at, size, PROT_READ | PROT_WRITE, MAP_SHARED | (at ? MAP_FIXED : 0),
             fd, 0);
    if (p == MAP_FAILED) {
        ext_fail(path, "cannot map");
    }
    close(fd);
    return p;
}

void mr_ext_map_sram(MyrinetState *m)
{
    MrExt *x;
    int fd;
    g_autofree char *path = NULL;

    if (!m->board_dir || !*m->board_dir) {
        return;
    }
    if (m->board_node >= m->nodes) {
        error_report("board-node=%u: not a node (nodes=%u)", m->board_node,
                     m->nodes);
        exit(2);
    }
    if (g_mkdir_with_parents(m->board_dir, 0700)) {
        ext_fail(m->board_dir, "cannot make the directory");
    }
    x = m->ext = g_new0(MrExt, 1);
    x->node = m->board_node;
    x->win = ext_file(m->board_dir, "resource0", L9_BAR_SIZE, NULL);
    /* the node's SRAM: the window file's first sram_size bytes, mapped again
     * over the node's slice of all SRAM (the same page-cache pages) */
    path = g_build_filename(m->board_dir, "resource0", NULL);
    fd = open(path, O_RDWR);
    if (fd < 0 || mmap(m->sram_all + m->sram_off[x->node],
                       profile_node(&m->prof, x->node)->nic_sram_bytes,
                       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) ==
                  MAP_FAILED) {
        ext_fail(path, "cannot map as SRAM");
    }
    close(fd);
}

void mr_ext_attach(MyrinetState *m)
{
    MrExt *x = m->ext;
    MrNode *n;
    g_autofree char *bus = NULL, *tmp = NULL, *path = NULL;

    if (!x) {
        return;
    }
    n = &m->node[x->node];
    n->ext = true;
    /* the outside process is this node's host: its memory is the DMA file,
     * and the machine runs no program and no loader for it */
    x->dma_size = n->host.mem_size;
    x->dma = ext_file(m->board_dir, "dma", x->dma_size, NULL);
    free(n->host.mem);
    n->host.mem = x->dma;
    n->host.state = HOSTRT_DONE;
    n->host.exit_status = 0;
    memcpy(x->win + L9_BAR_EEPROM, n->board.eeprom, BOARD_EEPROM_SIZE);
    for (unsigned k = 0; k < EXT_WORDS; k++) {
        uint32_t off = ext_off(k);
        x->pub[k] = ext_published(off) ? cpu_to_be32(board_read32(&n->board, off)) : 0;
        qatomic_set((uint32_t *)(x->win + off), x->pub[k]);
    }
    /* dma_bus_addr last, through a rename: whoever waits for it finds the
     * other files complete */
    bus = g_strdup_printf("0x%" PRIx64 "\n", (uint64_t)HOSTRT_BUS_BASE);
    tmp = g_build_filename(m->board_dir, "dma_bus_addr.tmp", NULL);
    path = g_build_filename(m->board_dir, "dma_bus_addr", NULL);
    if (!g_file_set_contents(tmp, bus, -1, NULL) || rename(tmp, path)) {
        ext_fail(path, "cannot write");
    }
    x->ctl_last = x->pub[0];
    qemu_mutex_init(&x->lock);
    qemu_thread_create(&x->watcher, "board-dir-ctl", ctl_watch, x,
                       QEMU_THREAD_DETACHED);
    x->t0_ns = get_clock();
    printf("myrinet: node %u's board window is %s/resource0, its host's DMA "
           "memory %s/dma (%" PRIu64 " bytes at bus address 0x%" PRIx64
           "); NICs in real time\n", x->node, m->board_dir, m->board_dir,
           x->dma_size, (uint64_t)HOSTRT_BUS_BASE);
    fflush(stdout);
}

uint64_t mr_ext_wall_ps(MyrinetState *m)
{
    return (uint64_t)(get_clock() - m->ext->t0_ns) * 1000;
}

static void ctl_post(MrNode *n, uint64_t t_ps, uint32_t v)
{
    MrEvent *e = g_new0(MrEvent, 1);

    e->t_ps = t_ps;
    e->kind = MR_EV_PIO_WRITE;
    e->off = L9_BAR_CONTROL;
    e->val = v;
    mr_post(n, e);
}

/* Writes of the outside host since the last sample become PIO writes at
 * t_ps: specials first, then the control register (a loader writes EIMR,
 * then releases the reset). Returns whether there were any. */
bool mr_ext_sample(MyrinetState *m, uint64_t t_ps)
{
    MrExt *x = m->ext;
    MrNode *n = &m->node[x->node];
    bool any = false;

    x->samples++;
    if (memcmp(x->win + L9_BAR_EEPROM, n->board.eeprom, BOARD_EEPROM_SIZE)) {
        memcpy(x->win + L9_BAR_EEPROM, n->board.eeprom, BOARD_EEPROM_SIZE);
    }
    for (unsigned k = 1; k < EXT_WORDS; k++) {
        uint32_t off = ext_off(k);
        uint32_t *w = (uint32_t *)(x->win + off);
        uint32_t raw = qatomic_read(w);

        if (raw != x->pub[k]) {
            MrEvent *e = g_new0(MrEvent, 1);

            e->t_ps = t_ps;
            e->kind = MR_EV_PIO_WRITE;
            e->off = off;
            e->val = be32_to_cpu(raw);
            mr_post(n, e);
            x->pub[k] = raw;        /* published again after it applied */
            x->writes++;
            any = true;
        } else if (ext_published(off)) {
            uint32_t cur = cpu_to_be32(board_read32(&n->board, off));
            if (cur != raw && qatomic_cmpxchg(w, raw, cur) == raw) {
                x->pub[k] = cur;
            }
        }
    }
    /* the control register last (a loader writes EIMR, then releases the
     * reset): what was queued, in order; else publish its state */
    qemu_mutex_lock(&x->lock);
    ctl_look(x);
    for (unsigned i = 0, held = n->board.held; i < x->ctl_qn; i++) {
        uint32_t v = be32_to_cpu(x->ctl_q[i]);
        bool on = v & L9_CTL_RESET_ON, off = v & L9_CTL_RESET_OFF;

        if (off && !on && !held) {
            ctl_post(n, t_ps, L9_CTL_RESET_ON);     /* the RESET_ON lost */
            x->implied_resets++;
        }
        if (on != off) {
            held = on;
        }
        ctl_post(n, t_ps, v);
        x->writes++;
        any = true;
    }
    if (x->ctl_qn) {
        x->ctl_qn = 0;
    } else {
        uint32_t *w = (uint32_t *)(x->win + L9_BAR_CONTROL);
        uint32_t cur = cpu_to_be32(board_read32(&n->board, L9_BAR_CONTROL));

        if (cur != x->pub[0] && x->ctl_last == qatomic_read(w)) {
            /* the host's write, if one comes between, fails the swap and
             * is seen at the next look (it differs from ctl_last) */
            x->pub[0] = cur;
            if (qatomic_cmpxchg(w, x->ctl_last, cur) == x->ctl_last) {
                x->ctl_last = cur;
            }
        }
    }
    qemu_mutex_unlock(&x->lock);
    return any;
}

void mr_ext_stats(MyrinetState *m)
{
    if (m->ext) {
        fprintf(stderr, "myrinet: board-dir: %" PRIu64 " samples of node %u's "
                "registers, %" PRIu64 " writes from the outside host; the "
                "control register's watcher looked %" PRIu64 " times and saw "
                "%" PRIu64 " writes first; %" PRIu64 " lost RESET_ON "
                "restored\n", m->ext->samples, m->ext->node, m->ext->writes,
                m->ext->watcher_looks, m->ext->watcher_seen,
                m->ext->implied_resets);
    }
}
