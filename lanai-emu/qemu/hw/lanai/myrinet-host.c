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
 * does: common/fwload.c through a board backend whose every access is a
 * PIO of this host (no back door into SRAM). Whole-buffer accesses of the
 * loader (zeroing SRAM, copying segments, verifying) are PIO bursts: one
 * request per 4 KiB, costing the host what the words would cost one by
 * one; a burst write lands as a whole when its last word would, a burst
 * read samples the board when its first word would.
 *
 * What a host asks of the machine (hostrt_machine, whose opaque pointer is
 * the machine) becomes an event at its node or a console line.
 */
#include "qemu/osdep.h"
#include "lanai-args.h"
#include "qemu/units.h"
#include "qemu/error-report.h"
#include "hw/boards.h"
#include "hw/qdev-core.h"
#include <dlfcn.h>
#include "myrinet-node.h"
#include "nicoll/hostif.h"
#include "nicoll/fwload.h"
#include "nicoll/loadable.h"

/* ---- requests from the hosts (hostrt_machine) ---------------------------- */

static void post_pio(MyrinetState *m, unsigned node, uint64_t t,
                     enum mr_ev_kind kind, uint32_t off, uint32_t val,
                     uint8_t *data, uint32_t len)
{
    MrEvent *e = g_new0(MrEvent, 1);

    e->t_ps = t;
    e->kind = kind;
    e->off = off;
    e->val = val;
    e->data = data;
    e->len = len;
    mr_post(&m->node[node], e);
}

/* A host writing its NIC's memory (a command, a buffer, an event slot given
 * back, the firmware) or a doorbell made progress; its register writes
 * (interrupt clear and mask, reset, configuration) do not: a waiting
 * libnicoll clears the interrupt every slice (myrinet-stall.c). */
static void pio_progress(MyrinetState *m, uint64_t t, uint32_t off)
{
    if (off < L9_BAR_CONFIG ||
        (off >= L9_BAR_DOORBELL && off < L9_BAR_EEPROM)) {
        mr_progress(m, t);
    }
}

static void host_pio_write(void *opaque, unsigned node, uint64_t t,
                           uint32_t off, uint32_t v)
{
    pio_progress(opaque, t, off);
    post_pio(opaque, node, t, MR_EV_PIO_WRITE, off, v, NULL, 0);
}

static void host_pio_read(void *opaque, unsigned node, uint64_t t, uint32_t off)
{
    post_pio(opaque, node, t, MR_EV_PIO_READ, off, 0, NULL, 0);
}

static void host_pio_write_block(void *opaque, unsigned node, uint64_t t,
                                 uint32_t off, const void *buf, uint32_t len)
{
    pio_progress(opaque, t, off);
    post_pio(opaque, node, t, MR_EV_PIO_WRITE_BLOCK, off, 0,
             g_memdup2(buf, len), len);
}

static void host_pio_read_block(void *opaque, unsigned node, uint64_t t,
                                uint32_t off, void *buf, uint32_t len)
{
    /* buf is filled when the board answers */
    post_pio(opaque, node, t, MR_EV_PIO_READ_BLOCK, off, 0, buf, len);
}

static void host_console(void *opaque, unsigned node, uint64_t t,
                         const char *s, size_t len)
{
    MyrinetState *m = opaque;

    mr_console(&m->node[node], t, s, len);
}

/* A host computes (nc_host_compute_ns): a line of the event trace. */
static void host_compute(void *opaque, unsigned node, uint64_t t, uint64_t dur)
{
    MyrinetState *m = opaque;

    mr_progress(m, t + dur);    /* busy, not waiting */
    mr_trace(&m->node[node], t, "host compute %" PRIu64 " ps", dur);
}

/* The topology's routes (up*-down*), as route bytes 0x80 | port. */
static int host_route(void *opaque, unsigned node, unsigned dst,
                      uint8_t *route, size_t max)
{
    MyrinetState *m = opaque;
    uint8_t ports[TOPO_MAX_HOPS];
    int len = topo_route(m->topo, node, dst, ports);

    if (len < 0 || (size_t)len > max) {
        return -1;
    }
    for (int i = 0; i < len; i++) {
        route[i] = 0x80 | ports[i];
    }
    return len;
}

/*
 * Every host's first job: load the firmware through its board window.
 * hostrt starts a host with main's arguments only, no context pointer:
 * this is the one place the machine finds itself without being passed, as
 * QEMU's current machine (qdev_get_machine()), and the node as the host
 * hostrt is running.
 */
static int host_entry(int argc, char **argv)
{
    MyrinetState *m = MYRINET_MACHINE(qdev_get_machine());
    MrNode *n = &m->node[nc_host_node()];
    struct nc_board b;
    struct nc_fw_options o = { .node_id = n->id, .nnodes = m->nodes };
    struct nc_fw_info info;
    char err[512];
    int rc;

    nc_board_open_hostif(&b);   /* PIO bursts through this host's clock */
    snprintf(b.name, sizeof b.name, "node %u", n->id);
    rc = nc_fw_load(&b, m->firmware, m->fw_image, m->fw_len, &o, &info,
                    err, sizeof err);
    m->hosts_loading--;         /* busy until now (myrinet-stall.c) */
    mr_progress(m, nc_host_now_ns() * 1000);
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

/* A message of dlerror() names our private copy of the program: name the
 * user's file instead. */
static char *user_dlerror(MyrinetState *m, const char *copy)
{
    const char *e = dlerror();
    g_auto(GStrv) parts = g_strsplit(e ? e : "unknown error", copy, -1);

    return g_strjoinv(m->program, parts);
}

/* A private instance of the program for one node. */
static void load_program(MyrinetState *m, MrNode *n, const char *image,
                         gsize len)
{
    g_autofree char *path = g_strdup_printf("%s/node%u.so", m->tmpdir, n->id);
    g_autoptr(GError) gerr = NULL;

    if (!g_file_set_contents(path, image, len, &gerr)) {
        error_report("program %s: cannot make a private copy for node %u: %s",
                     m->program, n->id, gerr->message);
        exit(2);
    }
    n->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!n->dl) {
        g_autofree char *msg = user_dlerror(m, path);
        unlink(path);
        rmdir(m->tmpdir);
        error_report("program %s: %s", m->program, msg);
        exit(2);
    }
    unlink(path);
    n->prog_main = (int (*)(int, char **))dlsym(n->dl, "main");
    if (!n->prog_main) {
        rmdir(m->tmpdir);
        error_report("program %s has no 'main' (build it with "
                     "-shared -fPIC; docs/myrinet.md)", m->program);
        exit(2);
    }
}

/* A host program that calls exit() ends the whole process: say which node
 * did and print what the hosts printed so far. */
static void program_called_exit(int status, void *opaque)
{
    MyrinetState *m = opaque;
    int node = hostrt_current_node();

    if (node < 0) {
        return;
    }
    mr_console_flush(m);
    fflush(stdout);
    fprintf(stderr, "%s: node %d: the host program called exit(%d), which "
            "ends the whole cluster (end a host program by returning from "
            "main, or with nc_host_exit())\n", g_get_prgname(), node, status);
}

void mr_hosts_init(MyrinetState *m)
{
    MachineState *ms = MACHINE(m);
    g_autofree char *image = NULL;
    g_autoptr(GError) gerr = NULL;
    GPtrArray *args;
    gsize len = 0;
    unsigned i;

    m->firmware = ms->firmware;
    if (!m->firmware) {
        error_report("no firmware image (firmware=FILE)");
        exit(2);
    }
    if (!g_file_get_contents(m->firmware, (gchar **)&m->fw_image, &m->fw_len,
                             &gerr)) {
        error_report("firmware: %s", gerr->message);
        exit(2);
    }
    {
        /* A file that is no image fails alike on every node: say it once
         * (status 3, a firmware that cannot be loaded). What depends on a
         * board (its SRAM size) is checked by each host's loader. */
        struct loadable l;
        char err[256];

        if (loadable_parse(m->firmware, m->fw_image, m->fw_len, 0, &l, err,
                           sizeof err)) {
            error_report("firmware load failed: %s", err);
            exit(3);
        }
    }
    if (m->program) {
        if (!g_file_get_contents(m->program, &image, &len, &gerr)) {
            error_report("program: %s", gerr->message);
            exit(2);
        }
        m->tmpdir = g_dir_make_tmp("myrinet-XXXXXX", &gerr);
        if (!m->tmpdir) {
            error_report("program: %s", gerr->message);
            exit(2);
        }
    }
    on_exit(program_called_exit, m);
    args = lanai_split_args(m->program ? m->program : "host", m->args);
    for (i = 0; i < m->nodes; i++) {
        MrNode *n = &m->node[i];
        const struct profile_params *pp = n->pp;
        struct hostrt_machine hm = {
            .opaque = m,
            .pio_write = host_pio_write,
            .pio_read = host_pio_read,
            .console = host_console,
            .pio_write_block = host_pio_write_block,
            .pio_read_block = host_pio_read_block,
            .route = host_route,
            .compute = host_compute,
            .profile_path = m->profile_path,
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
            .post_ps = pp->host_post_ps,
            .recv_ps = pp->host_recv_ps,
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
            error_report("node %u: cannot allocate its host's memory "
                         "(host-mem %" PRIu64 " bytes, stack 256 KiB)", i,
                         m->host_mem_bytes);
            exit(1);
        }
        m->hosts_loading++;
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
