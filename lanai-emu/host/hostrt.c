/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host runtime: coroutines in virtual time (hostrt.h) and the host interface
 * they call (hostif.h). A host interacts with its NIC only while its clock
 * is below the bound the machine gave to hostrt_run(); when the clock passes
 * it, the host yields before its next interaction. So every request it
 * makes carries a time inside the current window, which is what lets the
 * machine's conservative synchronisation deliver it in order.
 */
#include "hostrt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "nicoll/hostif.h"

static struct hostrt *cur;   /* the host whose coroutine is running */

static void entry(void)
{
    struct hostrt *h = cur;

    h->exit_status = h->main(h->argc, h->argv);
    h->state = HOSTRT_DONE;
    /* returning resumes uc_link: the machine's context */
}

int hostrt_init(struct hostrt *h, unsigned node, unsigned nodes,
                const struct hostrt_machine *m, const struct hostrt_costs *c,
                int (*main)(int, char **), int argc, char **argv,
                uint64_t mem_size, size_t stack_size)
{
    memset(h, 0, sizeof *h);
    h->node = node;
    h->nodes = nodes;
    h->m = *m;
    h->c = *c;
    if (!h->c.compute_scale_micro)
        h->c.compute_scale_micro = 1000000;
    h->main = main;
    h->argc = argc;
    h->argv = argv;
    h->state = HOSTRT_RUNNABLE;
    h->wake_ps = UINT64_MAX;
    h->pio_ready_ps = UINT64_MAX;
    long page = sysconf(_SC_PAGESIZE);
    h->guard_size = page > 0 ? (size_t)page : 4096;
    h->stack_size = stack_size ? stack_size : 256u << 10;
    h->stack_size = (h->stack_size + h->guard_size - 1) / h->guard_size * h->guard_size;
    h->guard = mmap(NULL, h->guard_size + h->stack_size, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (h->guard == MAP_FAILED) {
        h->guard = NULL;
    } else if (mprotect(h->guard, h->guard_size, PROT_NONE)) {
        munmap(h->guard, h->guard_size + h->stack_size);
        h->guard = NULL;
    }
    h->stack = h->guard ? (char *)h->guard + h->guard_size : NULL;
    h->mem_size = mem_size;
    h->mem = calloc(1, mem_size ? mem_size : 1);
    if (!h->stack || !h->mem || getcontext(&h->ctx)) {
        hostrt_destroy(h);
        return -1;
    }
    h->ctx.uc_stack.ss_sp = h->stack;
    h->ctx.uc_stack.ss_size = h->stack_size;
    h->ctx.uc_link = &h->caller;
    makecontext(&h->ctx, entry, 0);
    return 0;
}

void hostrt_destroy(struct hostrt *h)
{
    if (h->guard)
        munmap(h->guard, h->guard_size + h->stack_size);
    h->guard = NULL;
    free(h->mem);
    h->stack = NULL;
    h->mem = NULL;
}

/* ---- the interrupt line as this host sees it ------------------------------ */

/* Apply queued line changes that the host's clock has reached; a rise
 * while the program has a signal handler makes the signal pending. */
static void irq_catch_up(struct hostrt *h)
{
    unsigned k = 0;

    while (k < h->irq_qn && h->irq_q[k].t_ps <= h->now_ps) {
        if (!h->irq_level && h->irq_q[k].level && h->sig_handler)
            h->sig_pending = true;
        h->irq_level = h->irq_q[k++].level;
    }
    memmove(h->irq_q, h->irq_q + k, sizeof h->irq_q[0] * (h->irq_qn - k));
    h->irq_qn -= k;
}

/* The first queued time at which the line is high, or UINT64_MAX. */
static uint64_t next_rise(const struct hostrt *h)
{
    for (unsigned k = 0; k < h->irq_qn; k++)
        if (h->irq_q[k].level)
            return h->irq_q[k].t_ps;
    return UINT64_MAX;
}

/* The first queued time at which the line rises (goes from low to high),
 * or UINT64_MAX. */
static uint64_t next_edge(const struct hostrt *h)
{
    bool level = h->irq_level;

    for (unsigned k = 0; k < h->irq_qn; k++) {
        if (!level && h->irq_q[k].level)
            return h->irq_q[k].t_ps;
        level = h->irq_q[k].level;
    }
    return UINT64_MAX;
}

void hostrt_irq(struct hostrt *h, uint64_t t_ps, bool level)
{
    uint64_t t = t_ps + h->c.interrupt_ps;

    if (h->irq_qn == HOSTRT_MAX_IRQ_Q)
        h->irq_qn--;    /* keep the newest state: the line's level is what matters */
    h->irq_q[h->irq_qn].t_ps = t;
    h->irq_q[h->irq_qn].level = level;
    h->irq_qn++;
}

/* ---- scheduling ---------------------------------------------------------- */

uint64_t hostrt_next_ps(const struct hostrt *h)
{
    switch (h->state) {
    case HOSTRT_RUNNABLE: return h->now_ps;
    case HOSTRT_WAIT_IRQ: {
        uint64_t r = h->irq_level ? h->now_ps : next_rise(h);
        return r < h->wake_ps ? r : h->wake_ps;
    }
    case HOSTRT_WAIT_PIO: return h->pio_ready_ps;
    default: return UINT64_MAX;
    }
}

enum hostrt_state hostrt_run(struct hostrt *h, uint64_t until_ps)
{
    uint64_t t;

    if (h->state == HOSTRT_DONE)
        return h->state;
    t = hostrt_next_ps(h);
    if (t >= until_ps)
        return h->state;      /* nothing to do in this window */
    if (t > h->now_ps)
        h->now_ps = t;        /* an idle host's clock skips ahead */
    irq_catch_up(h);
    h->state = HOSTRT_RUNNABLE;
    h->run_until_ps = until_ps;
    cur = h;
    swapcontext(&h->caller, &h->ctx);
    cur = NULL;
    return h->state;
}

int hostrt_current_node(void)
{
    return cur ? (int)cur->node : -1;
}

/* The host program ends here with 'status', as if main had returned it:
 * back to the machine's context for good (this coroutine's stack is
 * abandoned). */
void nc_host_exit(int status)
{
    struct hostrt *h = cur;

    h->exit_status = status;
    h->state = HOSTRT_DONE;
    setcontext(&h->caller);
    abort();    /* setcontext returns only on failure */
}

/* Inside the coroutine: give control back to the machine. */
static void yield(struct hostrt *h)
{
    swapcontext(&h->ctx, &h->caller);
}

static void charge(struct hostrt *h, uint64_t ps)
{
    h->now_ps += ps;
}

/* The pending signal, now: its handler runs on the host's clock after the
 * delivery's cost, with the signal blocked (a rise meanwhile makes it
 * pending again, once however many rises there were: POSIX's rule for a
 * signal that is not a real-time one), and again at once if one is. */
static bool deliver(struct hostrt *h)
{
    bool ran = false;

    while (h->sig_pending && !h->sig_running && h->sig_handler) {
        h->sig_pending = false;
        h->sig_running = true;
        charge(h, h->c.signal_ps);
        h->sig_handler();
        h->sig_running = false;
        ran = true;
    }
    return ran;
}

/* Before interacting at the current time: if the clock has passed the
 * window, wait for the machine to let this host run further; a pending
 * signal's handler runs first (and may take the clock past the window
 * again). */
static void sync_point(struct hostrt *h)
{
    do {
        while (h->now_ps >= h->run_until_ps)
            yield(h);
        irq_catch_up(h);
    } while (deliver(h));
}

void hostrt_pio_reply(struct hostrt *h, uint32_t val)
{
    uint64_t cost = h->c.pio_read_ps > h->c.pio_write_latency_ps ?
                    h->c.pio_read_ps : h->c.pio_write_latency_ps;

    h->pio_value = val;
    /* the value is back then; a burst costs what its words would one by one */
    h->pio_ready_ps = h->pio_req_ps + cost + (uint64_t)(h->pio_words - 1) * h->c.pio_read_ps;
}

bool hostrt_mem_read(struct hostrt *h, uint64_t bus, void *buf, uint32_t len)
{
    if (bus < HOSTRT_BUS_BASE || bus - HOSTRT_BUS_BASE > h->mem_size ||
        h->mem_size - (bus - HOSTRT_BUS_BASE) < len)
        return false;
    memcpy(buf, h->mem + (bus - HOSTRT_BUS_BASE), len);
    return true;
}

bool hostrt_mem_write(struct hostrt *h, uint64_t bus, const void *buf, uint32_t len)
{
    if (bus < HOSTRT_BUS_BASE || bus - HOSTRT_BUS_BASE > h->mem_size ||
        h->mem_size - (bus - HOSTRT_BUS_BASE) < len)
        return false;
    memcpy(h->mem + (bus - HOSTRT_BUS_BASE), buf, len);
    return true;
}

/* ---- the host interface ---------------------------------------------------- */

unsigned nc_host_node(void) { return cur->node; }
unsigned nc_host_nodes(void) { return cur->nodes; }
uint64_t nc_host_now_ns(void) { return cur->now_ps / 1000; }
const char *nc_host_profile(void) { return cur->m.profile_path; }

int nc_host_route(unsigned dst, uint8_t *route, size_t max)
{
    if (dst >= cur->nodes)
        return -1;
    if (cur->m.route)
        return cur->m.route(cur->m.opaque, cur->node, dst, route, max);
    if (max < 1)
        return -1;
    route[0] = (uint8_t)(0x80 | dst);
    return 1;
}

static void compute_for(struct hostrt *h, uint64_t ps)
{
    if (h->m.compute && ps)
        h->m.compute(h->m.opaque, h->node, h->now_ps, ps);
    charge(h, ps);
}

/* Without a signal handler (or inside it) computing is one charge: no
 * interaction, so no sync point. With one, a rise of the line inside the
 * computation pre-empts it: the clock goes to the rise, the handler runs,
 * then the rest of the computation. Rises are known only up to the
 * window (the machine queues them as its NICs run), so the computation
 * goes window by window. */
void nc_host_compute_ns(uint64_t ns)
{
    struct hostrt *h = cur;
    uint64_t ps = ns * 1000 * h->c.compute_scale_micro / 1000000;

    if (!h->sig_handler || h->sig_running) {
        compute_for(h, ps);
        return;
    }
    for (;;) {
        uint64_t r = next_edge(h), seg;

        if (r < h->now_ps + ps) {
            seg = r > h->now_ps ? r - h->now_ps : 0;
            compute_for(h, seg);
            ps -= seg;
            sync_point(h);
            continue;
        }
        if (h->now_ps + ps <= h->run_until_ps) {
            compute_for(h, ps);
            return;
        }
        seg = h->run_until_ps > h->now_ps ? h->run_until_ps - h->now_ps : 0;
        compute_for(h, seg);
        ps -= seg;
        while (h->run_until_ps <= h->now_ps)    /* the rises of the next window */
            yield(h);
        sync_point(h);
    }
}

void nc_host_signal(void (*handler)(void))
{
    cur->sig_handler = handler;
    if (!handler)
        cur->sig_pending = false;
}

/* Pure CPU time, like compute: no interaction, so no sync point; the next
 * PIO carries the later time. */
void nc_host_charge_post(void)
{
    charge(cur, cur->c.post_ps);
}

void nc_host_charge_recv(void)
{
    charge(cur, cur->c.recv_ps);
}

void nc_host_pio_write32(uint32_t off, uint32_t val)
{
    struct hostrt *h = cur;

    sync_point(h);
    h->m.pio_write(h->m.opaque, h->node, h->now_ps + h->c.pio_write_latency_ps, off, val);
    charge(h, h->c.pio_write_ps);
}

uint32_t nc_host_pio_read32(uint32_t off)
{
    struct hostrt *h = cur;

    sync_point(h);
    h->state = HOSTRT_WAIT_PIO;
    h->pio_req_ps = h->now_ps;
    h->pio_ready_ps = UINT64_MAX;          /* until the machine answers */
    h->pio_words = 1;
    h->m.pio_read(h->m.opaque, h->node, h->now_ps + h->c.pio_write_latency_ps, off);
    while (h->state == HOSTRT_WAIT_PIO)
        yield(h);
    return h->pio_value;
}

void nc_host_pio_write_block(uint32_t off, const void *buf, uint32_t len)
{
    struct hostrt *h = cur;
    const uint8_t *p = buf;
    uint32_t words = (len + 3) / 4;

    if (!len)
        return;
    if (!h->m.pio_write_block) {
        for (uint32_t i = 0; i < len; i += 4) {
            /* a partial last word keeps the bytes after the block */
            uint32_t w = len - i < 4 ? nc_host_pio_read32(off + i) : 0;
            for (uint32_t k = 0; k < 4 && i + k < len; k++)
                w = (w & ~(0xFFu << (24 - 8 * k))) | (uint32_t)p[i + k] << (24 - 8 * k);
            nc_host_pio_write32(off + i, w);
        }
        return;
    }
    sync_point(h);
    h->m.pio_write_block(h->m.opaque, h->node, h->now_ps + h->c.pio_write_latency_ps +
                         (uint64_t)(words - 1) * h->c.pio_write_ps, off, buf, len);
    charge(h, (uint64_t)words * h->c.pio_write_ps);
}

void nc_host_pio_read_block(uint32_t off, void *buf, uint32_t len)
{
    struct hostrt *h = cur;
    uint8_t *p = buf;

    if (!len)
        return;
    if (!h->m.pio_read_block) {
        for (uint32_t i = 0; i < len; i += 4) {
            uint32_t w = nc_host_pio_read32(off + i);
            for (uint32_t k = 0; k < 4 && i + k < len; k++)
                p[i + k] = (uint8_t)(w >> (24 - 8 * k));
        }
        return;
    }
    sync_point(h);
    h->state = HOSTRT_WAIT_PIO;
    h->pio_req_ps = h->now_ps;
    h->pio_ready_ps = UINT64_MAX;
    h->pio_words = (len + 3) / 4;
    h->m.pio_read_block(h->m.opaque, h->node, h->now_ps + h->c.pio_write_latency_ps, off,
                        buf, len);
    while (h->state == HOSTRT_WAIT_PIO)
        yield(h);
}

void *nc_host_dma_alloc(size_t len, uint64_t *bus)
{
    struct hostrt *h = cur;
    uint64_t at = (h->mem_used + 63) & ~63ull;

    if (at > h->mem_size || h->mem_size - at < len)
        return NULL;
    h->mem_used = at + len;
    *bus = HOSTRT_BUS_BASE + at;
    return h->mem + at;
}

bool nc_host_irq_pending(void)
{
    struct hostrt *h = cur;
    bool level;

    sync_point(h);
    level = h->irq_level;
    charge(h, h->c.poll_ps);
    return level;
}

bool nc_host_wait_irq(uint64_t timeout_ns)
{
    struct hostrt *h = cur;

    sync_point(h);
    if (h->irq_level)
        return true;
    h->state = HOSTRT_WAIT_IRQ;
    h->wake_ps = timeout_ns ? h->now_ps + timeout_ns * 1000 : UINT64_MAX;
    while (h->state == HOSTRT_WAIT_IRQ)
        yield(h);
    h->wake_ps = UINT64_MAX;
    /* a signal interrupts the wait, as it would a sleep in the kernel */
    sync_point(h);
    return h->irq_level;
}

void nc_host_memcpy(void *dst, const void *src, size_t n)
{
    memcpy(dst, src, n);
    charge(cur, cur->c.copy_fixed_ps + (uint64_t)n * cur->c.copy_ps_per_byte);
}

void nc_host_printf(const char *fmt, ...)
{
    struct hostrt *h = cur;
    char buf[1024];
    va_list ap;
    int n;

    sync_point(h);
    va_start(ap, fmt);
    n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof buf - 1)
        n = (int)sizeof buf - 1;
    if (n > 0)
        h->m.console(h->m.opaque, h->node, h->now_ps, buf, (size_t)n);
}
