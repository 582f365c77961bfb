/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hosts in virtual time: each host program runs as a coroutine with its
 * own clock; every call of the host interface (hostif.h) is charged in that
 * clock with the profile's costs, and every interaction with the NIC (PIO
 * write, PIO read, interrupt) becomes a timestamped request to the machine.
 * The machine decides when each host runs: hostrt_run() lets a host run
 * until its clock reaches a bound (the synchronisation window) or it has to
 * wait. Plain C (ucontext), no QEMU dependency; docs/host-runtime.md.
 */
#ifndef NICOLL_HOSTRT_H
#define NICOLL_HOSTRT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ucontext.h>

#define HOSTRT_BUS_BASE   0x100000000ull  /* bus address of host memory byte 0 */
#define HOSTRT_MAX_IRQ_Q  64

struct hostrt;

/* What the machine provides. */
struct hostrt_machine {
    void *opaque;
    /* a posted PIO write reaches the board window at t_ps */
    void (*pio_write)(void *opaque, unsigned node, uint64_t t_ps, uint32_t off, uint32_t val);
    /* a PIO read reaches the board at t_ps; answer with hostrt_pio_reply() */
    void (*pio_read)(void *opaque, unsigned node, uint64_t t_ps, uint32_t off);
    /* console output of a node at its time t_ps */
    void (*console)(void *opaque, unsigned node, uint64_t t_ps, const char *text, size_t len);
    /* Optional (NULL: bursts go word by word through the calls above).
     * A write burst whose last word reaches the board at t_ps; a read burst
     * reaching the board at t_ps, to fill buf and answer with
     * hostrt_pio_reply(). */
    void (*pio_write_block)(void *opaque, unsigned node, uint64_t t_ps, uint32_t off,
                            const void *buf, uint32_t len);
    void (*pio_read_block)(void *opaque, unsigned node, uint64_t t_ps, uint32_t off,
                           void *buf, uint32_t len);
    /* Optional (NULL: one crossbar, node j on port j). The route bytes from
     * node to dst, as nc_host_route(). */
    int (*route)(void *opaque, unsigned node, unsigned dst, uint8_t *route, size_t max);
    /* Optional (NULL: none), for traces: the host computes (the program's
     * nc_host_compute_ns) from t_ps for dur_ps. */
    void (*compute)(void *opaque, unsigned node, uint64_t t_ps, uint64_t dur_ps);
    /* Optional (NULL: none): the profile file the costs come from, for
     * nc_host_profile. */
    const char *profile_path;
};

/* Host costs, from the platform profile (picoseconds). */
struct hostrt_costs {
    uint64_t pio_read_ps;          /* host stall for one PIO read */
    uint64_t pio_write_ps;         /* host cost of one posted PIO write */
    uint64_t pio_write_latency_ps; /* until a PIO write (or read request) reaches the board */
    uint64_t copy_fixed_ps, copy_ps_per_byte;
    uint64_t interrupt_ps;         /* interrupt raised on the board -> host notices */
    uint64_t poll_ps;              /* one look at the interrupt line */
    uint64_t compute_scale_micro;  /* compute(ns) x this / 1e6 */
    uint64_t post_ps;              /* library cost of posting one command (host.post) */
    uint64_t recv_ps;              /* library cost of consuming one event (host.recv) */
    uint64_t signal_ps;            /* a signal's delivery: handler entered and left (host.signal) */
};

enum hostrt_state {
    HOSTRT_RUNNABLE,   /* can run now */
    HOSTRT_WAIT_IRQ,   /* blocked until the interrupt line rises (or a timeout) */
    HOSTRT_WAIT_PIO,   /* blocked until a PIO read is answered */
    HOSTRT_DONE,       /* main returned */
};

struct hostrt {
    unsigned node, nodes;
    struct hostrt_machine m;
    struct hostrt_costs c;
    uint64_t now_ps;
    enum hostrt_state state;
    uint64_t wake_ps;              /* WAIT_IRQ: timeout (UINT64_MAX: none) */
    /* interrupt line: changes not yet reached by this host's clock */
    struct { uint64_t t_ps; bool level; } irq_q[HOSTRT_MAX_IRQ_Q];
    unsigned irq_qn;
    bool irq_level;
    /* PIO read in flight */
    uint32_t pio_value;
    uint64_t pio_req_ps;           /* when the read was issued */
    uint64_t pio_ready_ps;         /* when its value is back (UINT64_MAX: not answered) */
    uint32_t pio_words;            /* words in the read in flight (a burst: more than 1) */
    /* the coroutine: its stack, and below it (stacks grow down) a guard of
     * one inaccessible page, so that an overflow faults at once (the
     * machine reports it) instead of writing over other memory */
    ucontext_t ctx, caller;
    void *stack;
    size_t stack_size;
    void *guard;
    size_t guard_size;
    uint64_t run_until_ps;
    int (*main)(int argc, char **argv);
    int argc;
    char **argv;
    int exit_status;
    /* DMA-able host memory */
    uint8_t *mem;
    uint64_t mem_size, mem_used;
    /* the program's signal (nc_host_signal): its handler, a rise of the
     * line not yet delivered (one: signals coalesce), the handler running
     * (the signal is blocked meanwhile) */
    void (*sig_handler)(void);
    bool sig_pending, sig_running;
};

/* Create host 'node' running main(argc, argv); 'mem_size' bytes of host
 * memory, 'stack_size' bytes of coroutine stack. Returns 0 or -1. */
int hostrt_init(struct hostrt *h, unsigned node, unsigned nodes,
                const struct hostrt_machine *m, const struct hostrt_costs *c,
                int (*main)(int, char **), int argc, char **argv,
                uint64_t mem_size, size_t stack_size);
void hostrt_destroy(struct hostrt *h);

/* The node whose host program is running now (we are inside its
 * coroutine), or -1. */
int hostrt_current_node(void);

/* Run the host while it is runnable and its clock is below until_ps.
 * Returns its state afterwards. */
enum hostrt_state hostrt_run(struct hostrt *h, uint64_t until_ps);

/* When the host can next make progress by itself: its clock if runnable,
 * its timeout if waiting for the interrupt, UINT64_MAX otherwise. */
uint64_t hostrt_next_ps(const struct hostrt *h);

/* The machine answers a PIO read; the host resumes when the answer is back
 * (its read cost after the request). */
void hostrt_pio_reply(struct hostrt *h, uint32_t val);

/* The board's interrupt line changed at board time t_ps; the host sees it
 * the profile's interrupt time later. */
void hostrt_irq(struct hostrt *h, uint64_t t_ps, bool level);

/* The NIC's DMA into and out of host memory (by bus address). */
bool hostrt_mem_read(struct hostrt *h, uint64_t bus, void *buf, uint32_t len);
bool hostrt_mem_write(struct hostrt *h, uint64_t bus, const void *buf, uint32_t len);

#endif
