/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hosts of the myrinet machine: one instance of the host program per node,
 * run by hostrt as a coroutine on the host's own clock. Each instance is a
 * private copy of the program's shared object (dlopen of a per-node copy),
 * so its globals are its own. The program calls the host interface
 * (hostif.h); the QEMU binary exports those symbols to it
 * (myrinet-hostif.syms).
 *
 * Before the program's main, the host loads the firmware the way a driver
 * does: host/lib/fwload.c through a board backend whose every access is a
 * PIO of this host (no back door into SRAM). Whole-buffer accesses of the
 * loader (zeroing SRAM, copying segments, verifying) are PIO bursts: one
 * request per 4 KiB, costing the host what the words would cost one by
 * one; a burst write lands as a whole when its last word would, a burst
 * read samples the board when its first word would.
 */
#include "qemu/osdep.h"
#include "lanai-args.h"
#include "qemu/units.h"
#include "qemu/error-report.h"
#include "hw/boards.h"
#include <dlfcn.h>
#include "myrinet.h"
#include "nicoll/hostif.h"
#include "nicoll/hostlib/fwload.h"

#define MR_BURST 4096u

static MyrinetState *HM;

/* ---- requests from the hosts (hostrt_machine) ---------------------------- */

void mr_host_pio_write(void *opaque, unsigned node, uint64_t t, uint32_t off,
                       uint32_t v)
{
    MrEvent *e = g_new0(MrEvent, 1);

    e->t_ps = t;
    e->kind = MR_EV_PIO_WRITE;
    e->off = off;
    e->val = v;
    mr_post(&HM->node[node], e);
}

void mr_host_pio_read(void *opaque, unsigned node, uint64_t t, uint32_t off)
{
    MrEvent *e = g_new0(MrEvent, 1);

    e->t_ps = t;
    e->kind = MR_EV_PIO_READ;
    e->off = off;
    mr_post(&HM->node[node], e);
}

void mr_host_console(void *opaque, unsigned node, uint64_t t, const char *s,
                     size_t len)
{
    mr_console(&HM->node[node], t, s, len);
}

/* ---- the loader's board backend (runs inside the host coroutine) ------------ */

/* What hostrt does before any interaction: yield while the host's clock is
 * past the window it was given. */
static void host_sync(struct hostrt *h)
{
    while (h->now_ps >= h->run_until_ps) {
        swapcontext(&h->ctx, &h->caller);
    }
}

static uint32_t hb_read32(struct nc_board *b, uint32_t off)
{
    return nc_host_pio_read32(off);
}

static void hb_write32(struct nc_board *b, uint32_t off, uint32_t val)
{
    nc_host_pio_write32(off, val);
}

static void hb_write(struct nc_board *b, uint32_t off, const void *buf,
                     size_t len)
{
    MrNode *n = b->ctx;
    struct hostrt *h = &n->host;
    const uint8_t *p = buf;

    while (len) {
        uint32_t k = MIN(len, MR_BURST), words = (k + 3) / 4;
        MrEvent *e = g_new0(MrEvent, 1);

        host_sync(h);
        e->t_ps = h->now_ps + h->c.pio_write_latency_ps +
                  (uint64_t)(words - 1) * h->c.pio_write_ps;
        e->kind = MR_EV_PIO_WRITE_BLOCK;
        e->off = off;
        e->len = k;
        e->data = g_memdup2(p, k);
        mr_post(n, e);
        h->now_ps += (uint64_t)words * h->c.pio_write_ps;
        off += k;
        p += k;
        len -= k;
    }
}

static void hb_read(struct nc_board *b, uint32_t off, void *buf, size_t len)
{
    MrNode *n = b->ctx;
    struct hostrt *h = &n->host;
    uint8_t *p = buf;

    while (len) {
        uint32_t k = MIN(len, MR_BURST);
        MrEvent *e = g_new0(MrEvent, 1);

        host_sync(h);
        h->state = HOSTRT_WAIT_PIO;
        h->pio_req_ps = h->now_ps;
        h->pio_ready_ps = UINT64_MAX;
        e->t_ps = h->now_ps + h->c.pio_write_latency_ps;
        e->kind = MR_EV_PIO_READ_BLOCK;
        e->off = off;
        e->len = k;
        e->data = p;            /* filled when the board answers */
        mr_post(n, e);
        while (h->state == HOSTRT_WAIT_PIO) {
            swapcontext(&h->ctx, &h->caller);
        }
        off += k;
        p += k;
        len -= k;
    }
}

static void hb_delay_us(struct nc_board *b, unsigned us)
{
    nc_host_compute_ns((uint64_t)us * 1000);
}

static void hb_close(struct nc_board *b)
{
}

static const struct nc_board_ops hb_ops = {
    .read32 = hb_read32,
    .write32 = hb_write32,
    .read = hb_read,
    .write = hb_write,
    .delay_us = hb_delay_us,
    .close = hb_close,
};

/* Every host's first job: load the firmware through its board window. */
static int host_entry(int argc, char **argv)
{
    MrNode *n = &HM->node[nc_host_node()];
    struct nc_board b = { .ops = &hb_ops, .ctx = n };
    struct nc_fw_options o = { .node_id = n->id, .nnodes = HM->nodes };
    struct nc_fw_info info;
    char err[512];
    int rc;

    snprintf(b.name, sizeof b.name, "node %u", n->id);
    rc = nc_fw_load(&b, HM->firmware, HM->fw_image, HM->fw_len, &o, &info,
                    err, sizeof err);
    if (rc) {
        nc_host_printf("firmware load failed: %s\n", err);
        return 3;
    }
    if (!n->prog_main) {
        return 0;
    }
    return n->prog_main(argc, argv);
}

/* ---- set-up ----------------------------------------------------------------------- */

/* A private instance of the program for one node. */
static void load_program(MyrinetState *m, MrNode *n, const char *image,
                         gsize len)
{
    g_autofree char *path = g_strdup_printf("%s/node%u.so", m->tmpdir, n->id);
    g_autoptr(GError) gerr = NULL;

    if (!g_file_set_contents(path, image, len, &gerr)) {
        error_report("myrinet: program: %s", gerr->message);
        exit(2);
    }
    n->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    unlink(path);
    if (!n->dl) {
        error_report("myrinet: program %s: %s", m->program, dlerror());
        exit(2);
    }
    n->prog_main = (int (*)(int, char **))dlsym(n->dl, "main");
    if (!n->prog_main) {
        error_report("myrinet: program %s has no 'main' (build it with "
                     "-shared -fPIC; docs/myrinet.md)", m->program);
        exit(2);
    }
}

void mr_hosts_init(MyrinetState *m)
{
    MachineState *ms = MACHINE(m);
    g_autofree char *image = NULL;
    g_autoptr(GError) gerr = NULL;
    GPtrArray *args;
    gsize len = 0;
    unsigned i;

    HM = m;
    m->firmware = ms->firmware;
    if (!m->firmware) {
        error_report("myrinet: no firmware image (firmware=FILE)");
        exit(2);
    }
    if (!g_file_get_contents(m->firmware, (gchar **)&m->fw_image, &m->fw_len,
                             &gerr)) {
        error_report("myrinet: firmware: %s", gerr->message);
        exit(2);
    }
    if (m->program) {
        if (!g_file_get_contents(m->program, &image, &len, &gerr)) {
            error_report("myrinet: program: %s", gerr->message);
            exit(2);
        }
        m->tmpdir = g_dir_make_tmp("myrinet-XXXXXX", &gerr);
        if (!m->tmpdir) {
            error_report("myrinet: %s", gerr->message);
            exit(2);
        }
    }
    args = lanai_split_args(m->program ? m->program : "host", m->args);
    for (i = 0; i < m->nodes; i++) {
        MrNode *n = &m->node[i];
        const struct profile_params *pp = n->pp;
        struct hostrt_machine hm = {
            .opaque = m,
            .pio_write = mr_host_pio_write,
            .pio_read = mr_host_pio_read,
            .console = mr_host_console,
        };
        struct hostrt_costs c = {
            .pio_read_ps = pp->pci_pio_read_ps,
            .pio_write_ps = pp->pci_pio_write_ps,
            .pio_write_latency_ps = pp->pci_pio_write_latency_ps,
            .copy_fixed_ps = pp->host_copy_fixed_ps,
            .copy_ps_per_byte = pp->host_copy_ps_per_byte,
            .interrupt_ps = pp->host_interrupt_ps,
            .poll_ps = pp->host_poll_ps,
            .compute_scale_micro = pp->host_compute_scale_micro,
        };

        if (m->program) {
            load_program(m, n, image, len);
        }
        n->argc = args->len;
        n->argv = g_new0(char *, args->len + 1);
        for (guint k = 0; k < args->len; k++) {
            n->argv[k] = g_strdup(g_ptr_array_index(args, k));
        }
        if (hostrt_init(&n->host, i, m->nodes, &hm, &c, host_entry, n->argc,
                        n->argv, m->host_mem_bytes, 256 * KiB)) {
            error_report("myrinet: node %u: out of memory for its host", i);
            exit(1);
        }
    }
    g_ptr_array_free(args, true);
    if (m->tmpdir) {
        rmdir(m->tmpdir);
    }
}

void mr_hosts_cleanup(MyrinetState *m)
{
    /* The process ends: leave the libraries mapped, their code may still
     * be on a coroutine's stack. Nothing on disk is left behind. */
    if (m->tmpdir) {
        rmdir(m->tmpdir);
    }
}
