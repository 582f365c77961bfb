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
 *
 * The program's own definitions bind its own references: each copy is
 * marked DF_SYMBOLIC before it is loaded (bind_to_itself), because a
 * dlopened object otherwise looks every symbol up in the global scope first
 * (the emulator, the C library, libm), where a global named like a library
 * function (err, index, time, y0, j1) would resolve to the function.
 *
 * A signal in a host program's code (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
 * SIGABRT) ends the run with a report naming the node, the signal, the
 * address and the node's backtrace (rank_crashed), and exit status
 * 128 + the signal's number, as a shell reports a process the signal killed.
 */
#include "qemu/osdep.h"
#include "lanai-args.h"
#include "qemu/units.h"
#include "qemu/error-report.h"
#include "hw/boards.h"
#include "hw/qdev-core.h"
#include <dlfcn.h>
#include <elf.h>
#include <execinfo.h>
#include <signal.h>
#include <ucontext.h>
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

/* ---- a host program's crash ------------------------------------------------ */

/*
 * A fault in a host program's code is reported in the signal handler with
 * async-signal-safe calls only (write, dladdr, and backtrace, whose one
 * unsafe step, loading libgcc's unwinder, crash_init does beforehand),
 * on an alternate stack (a host's coroutine stack may be what overflowed).
 * The handler then leaves to crash_land, on its own stack outside the
 * handler, which prints the console lines so far and ends the run; every
 * other host is stopped where it was, since none runs again. A signal
 * while no host program runs is the emulator's own: the previous action
 * is put back and the fault taken again, as without this handler.
 */
static const int crash_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
static struct sigaction crash_old[NSIG];
static MyrinetState *crash_m;
static volatile sig_atomic_t crash_sig;
static int crash_node;
static ucontext_t crash_landing;
static char crash_landing_stack[128 * 1024];
static __thread bool crash_altstack_set;
/* the program's frames of the backtrace, as offsets in its file, for
 * crash_land's source lines */
static uintptr_t crash_off[64];
static int crash_noff;

static void put(const char *s)
{
    size_t len = strlen(s);

    while (len) {
        ssize_t k = write(STDERR_FILENO, s, len);
        if (k <= 0) {
            return;
        }
        s += k;
        len -= k;
    }
}

/* v in hex (0x...) or decimal into buf, which it returns */
static char *fmt_num(char *buf, uint64_t v, bool hex)
{
    char tmp[24];
    int k = 0, o = 0;

    do {
        unsigned d = hex ? v % 16 : v % 10;
        tmp[k++] = d < 10 ? '0' + d : 'a' + d - 10;
        v = hex ? v / 16 : v / 10;
    } while (v);
    if (hex) {
        buf[o++] = '0';
        buf[o++] = 'x';
    }
    while (k) {
        buf[o++] = tmp[--k];
    }
    buf[o] = 0;
    return buf;
}

static const char *sig_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV (segmentation fault)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGFPE: return "SIGFPE (arithmetic exception)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGABRT: return "SIGABRT (abort)";
    default: return "a signal";
    }
}

/* The file a frame is in, as the user knows it: the program's name for
 * the node's private copy (which lives in m->tmpdir). */
static const char *frame_file(const char *fname)
{
    size_t n = strlen(crash_m->tmpdir);

    if (fname && !strncmp(fname, crash_m->tmpdir, n)) {
        return crash_m->program;
    }
    return fname && *fname ? fname : "?";
}

/* One frame: "  #I ADDR FILE(SYMBOL+OFF) [FILE+OFFSET]" (the file offset is
 * what addr2line -e FILE takes). Returns whether it is the program's main,
 * the last frame worth showing. */
static bool put_frame(int i, void *pc)
{
    char num[24];
    Dl_info di;
    bool prog;

    put("  #");
    put(fmt_num(num, i, false));
    put(" ");
    put(fmt_num(num, (uintptr_t)pc, true));
    /* a return address may be past the end of a call that does not
     * return (abort): its call is the byte before */
    if (!dladdr((char *)pc - (i > 0), &di)) {
        put(" ?\n");
        return false;
    }
    put(" ");
    put(frame_file(di.dli_fname));
    prog = frame_file(di.dli_fname) == crash_m->program;
    if (prog && crash_noff < (int)ARRAY_SIZE(crash_off)) {
        /* a return address is the instruction after the call */
        crash_off[crash_noff++] = (uintptr_t)pc - (uintptr_t)di.dli_fbase - (i > 0);
    }
    if (di.dli_sname) {
        put("(");
        put(di.dli_sname);
        put("+");
        put(fmt_num(num, (uintptr_t)pc - (uintptr_t)di.dli_saddr, true));
        put(")");
    }
    put(" [+");
    put(fmt_num(num, (uintptr_t)pc - (uintptr_t)di.dli_fbase, true));
    put("]\n");
    return prog && di.dli_sname && !strcmp(di.dli_sname, "main");
}

/* The program's frames as source lines (addr2line, from binutils), when
 * the program has the debugging information. Outside the signal handler:
 * it may allocate and start a process. */
static void put_source_lines(void)
{
    g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *out = NULL;
    g_auto(GStrv) lines = NULL;
    int status;

    if (!crash_noff) {
        return;
    }
    g_ptr_array_add(argv, g_strdup("addr2line"));
    g_ptr_array_add(argv, g_strdup("-f"));
    g_ptr_array_add(argv, g_strdup("-i"));
    g_ptr_array_add(argv, g_strdup("-p"));
    g_ptr_array_add(argv, g_strdup("-e"));
    g_ptr_array_add(argv, g_strdup(crash_m->program));
    for (int i = 0; i < crash_noff; i++) {
        g_ptr_array_add(argv, g_strdup_printf("0x%" PRIxPTR, crash_off[i]));
    }
    g_ptr_array_add(argv, NULL);
    if (!g_spawn_sync(NULL, (char **)argv->pdata, NULL,
                      G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                      NULL, &out, NULL, &status, NULL) ||
        !WIFEXITED(status) || WEXITSTATUS(status) || !out ||
        !strchr(out, ':') || g_str_has_prefix(out, "?? ??:0")) {
        return;         /* no addr2line, or no line information */
    }
    fprintf(stderr, "%s: node %d: in the program's source:\n", g_get_prgname(),
            crash_node);
    lines = g_strsplit(g_strchomp(out), "\n", -1);
    for (int i = 0; lines[i]; i++) {
        fprintf(stderr, "  %s\n", lines[i]);
    }
}

static void crash_land(void)
{
    put_source_lines();
    mr_console_end(crash_m);    /* the lines every host printed so far */
    fflush(stdout);
    exit(128 + crash_sig);
}

static void rank_crashed(int sig, siginfo_t *si, void *ucv)
{
    int node = hostrt_current_node();
    ucontext_t *uc = ucv;
    void *pcs[64], *fault_pc;
    char num[24];
    int n, first = 0;
    struct hostrt *h;

    if (node < 0 || crash_sig) {
        /* not a host program's (or a fault while reporting one) */
        sigaction(sig, &crash_old[sig], NULL);
        if (si->si_code <= 0) {
            raise(sig);         /* sent (abort, kill): send it again */
        }
        return;                 /* a fault: taken again, as before */
    }
    crash_sig = sig;
    crash_node = node;
    h = &crash_m->node[node].host;
    put(g_get_prgname());
    put(": node ");
    put(fmt_num(num, node, false));
    put(": the host program was killed by ");
    put(sig_name(sig));
    if (sig != SIGABRT) {
        put(" at address ");
        put(fmt_num(num, (uintptr_t)si->si_addr, true));
    }
    if (sig == SIGSEGV && h->guard && (char *)si->si_addr >= (char *)h->guard &&
        (char *)si->si_addr < (char *)h->guard + h->guard_size) {
        put(" (stack overflow: the guard page below its ");
        put(fmt_num(num, h->stack_size / 1024, false));
        put(" KiB stack)");
    }
    put("; the run ends (exit status ");
    put(fmt_num(num, 128 + sig, false));
    put(")\n");
#ifdef __x86_64__
    fault_pc = (void *)uc->uc_mcontext.gregs[REG_RIP];
#else
    fault_pc = NULL;
    (void)uc;
#endif
    n = backtrace(pcs, ARRAY_SIZE(pcs));
    /* from the faulting instruction on: not this handler's own frames */
    for (int i = 0; i < n; i++) {
        if (pcs[i] == fault_pc) {
            first = i;
            break;
        }
    }
    put(g_get_prgname());
    put(": node ");
    put(fmt_num(num, node, false));
    put(": backtrace:\n");
    for (int i = first; i < n && !put_frame(i - first, pcs[i]); i++) {
    }
    setcontext(&crash_landing);
}

/* In the thread that runs the hosts, before a host program's code: an
 * alternate stack for the handler, and the faults unblocked (a thread
 * QEMU creates starts with every signal blocked, and a blocked fault
 * would kill the process unreported). */
static void crash_thread_init(void)
{
    sigset_t set;

    if (!crash_altstack_set) {
        stack_t ss = { .ss_size = 64 * 1024 };

        ss.ss_sp = g_malloc(ss.ss_size);
        sigaltstack(&ss, NULL);
        crash_altstack_set = true;
    }
    sigemptyset(&set);
    for (size_t i = 0; i < ARRAY_SIZE(crash_sigs); i++) {
        sigaddset(&set, crash_sigs[i]);
    }
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

static void crash_init(MyrinetState *m)
{
    struct sigaction sa = { .sa_sigaction = rank_crashed,
                            .sa_flags = SA_SIGINFO | SA_ONSTACK };
    void *pc;

    crash_m = m;
    backtrace(&pc, 1);          /* loads the unwinder now, not in the handler */
    getcontext(&crash_landing);
    crash_landing.uc_stack.ss_sp = crash_landing_stack;
    crash_landing.uc_stack.ss_size = sizeof crash_landing_stack;
    crash_landing.uc_link = NULL;
    makecontext(&crash_landing, crash_land, 0);
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < ARRAY_SIZE(crash_sigs); i++) {
        sigaction(crash_sigs[i], &sa, &crash_old[crash_sigs[i]]);
    }
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

    crash_thread_init();
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

/*
 * Make the program's image resolve its own references to its own
 * definitions first (DF_SYMBOLIC in DT_FLAGS, honoured by the dynamic
 * loader: the object's own symbol table comes before the global scope).
 * Without it, a reference is looked up in the global scope first: the
 * emulator and the libraries it links (libc, libm, glib), so a program's
 * global 'err' or 'index' would be the C library's function of that name,
 * 'y0' libm's. Undefined references (the C library's functions, the host
 * interface) still resolve as before. A DT_FLAGS entry is or-ed; otherwise
 * one of the spare DT_NULL slots the GNU linker leaves at the end of the
 * dynamic section becomes DT_FLAGS. Returns NULL or what is wrong; a file
 * that is not a 64-bit ELF shared object is left to dlopen, which says
 * what it is not.
 */
static const char *bind_to_itself(char *image, gsize len)
{
    Elf64_Ehdr eh;
    Elf64_Dyn *dyn = NULL;
    size_t ndyn = 0, k, null_at = SIZE_MAX;

    if (len < sizeof eh) {
        return NULL;
    }
    memcpy(&eh, image, sizeof eh);
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_type != ET_DYN || eh.e_phentsize != sizeof(Elf64_Phdr) ||
        eh.e_phoff > len || eh.e_phnum > (len - eh.e_phoff) / sizeof(Elf64_Phdr)) {
        return NULL;
    }
    for (k = 0; k < eh.e_phnum; k++) {
        Elf64_Phdr ph;

        memcpy(&ph, image + eh.e_phoff + k * sizeof ph, sizeof ph);
        if (ph.p_type == PT_DYNAMIC) {
            if (ph.p_offset > len || ph.p_filesz > len - ph.p_offset ||
                ph.p_offset % 8) {
                return NULL;
            }
            dyn = (Elf64_Dyn *)(image + ph.p_offset);
            ndyn = ph.p_filesz / sizeof(Elf64_Dyn);
        }
    }
    if (!dyn) {
        return NULL;
    }
    for (k = 0; k < ndyn; k++) {
        if (dyn[k].d_tag == DT_SYMBOLIC) {
            return NULL;
        }
        if (dyn[k].d_tag == DT_FLAGS) {
            dyn[k].d_un.d_val |= DF_SYMBOLIC;
            return NULL;
        }
        if (dyn[k].d_tag == DT_NULL) {
            null_at = k;
            break;
        }
    }
    if (null_at == SIZE_MAX || null_at + 1 >= ndyn) {
        return "no room in its dynamic section to bind its symbols to itself "
               "(link it with -Wl,-Bsymbolic)";
    }
    dyn[null_at].d_tag = DT_FLAGS;
    dyn[null_at].d_un.d_val = DF_SYMBOLIC;
    return NULL;
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

    if (node < 0 || crash_sig) {
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
        const char *why;

        if (!g_file_get_contents(m->program, &image, &len, &gerr)) {
            error_report("program: %s", gerr->message);
            exit(2);
        }
        why = bind_to_itself(image, len);
        if (why) {
            error_report("program %s: %s", m->program, why);
            exit(2);
        }
        m->tmpdir = g_dir_make_tmp("myrinet-XXXXXX", &gerr);
        if (!m->tmpdir) {
            error_report("program: %s", gerr->message);
            exit(2);
        }
    }
    on_exit(program_called_exit, m);
    if (m->program) {
        crash_init(m);
    }
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
            .signal_ps = pp->host_signal_ps,
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
