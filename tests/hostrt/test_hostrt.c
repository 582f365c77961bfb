/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tests of the host runtime (lanai-emu/host): host programs as coroutines in
 * virtual time against a fake machine. Every cost and every timestamp is
 * checked against the numbers given: compute, PIO writes (posted, landing a
 * latency later), PIO reads (stalling), the interrupt line (waiting, timing
 * out, polling), copies, the library's post and receive costs, DMA memory,
 * windows (a host never interacts past the bound it was given),
 * determinism of two interleaved hosts, and the program's signal (a
 * handler pre-empting computation and waits at its cost, blocked while it
 * runs, rises meanwhile coalesced into one).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nicoll/hostif.h"
#include "hostrt.h"

#define NS 1000ull   /* ps */

static const struct hostrt_costs C = {
    .pio_read_ps = 900 * NS, .pio_write_ps = 100 * NS, .pio_write_latency_ps = 250 * NS,
    .copy_fixed_ps = 50 * NS, .copy_ps_per_byte = 3 * NS, .interrupt_ps = 2000 * NS,
    .poll_ps = 40 * NS, .compute_scale_micro = 1000000,
    .post_ps = 1300 * NS, .recv_ps = 700 * NS, .signal_ps = 3000 * NS,
};

/* The fake machine: a log of what reached it, and registers to read. */
struct event { unsigned node; uint64_t t; char what[64]; };
static struct event log_[256];
static unsigned nlog;
static uint64_t window_bound;     /* the until_ps of the current run */
static struct hostrt hosts[2];

static void add(unsigned node, uint64_t t, const char *what)
{
    assert_true(nlog < 256);
    log_[nlog].node = node;
    log_[nlog].t = t;
    snprintf(log_[nlog].what, sizeof log_[nlog].what, "%s", what);
    nlog++;
}

static void m_pio_write(void *o, unsigned node, uint64_t t, uint32_t off, uint32_t val)
{
    char b[64];
    (void)o;
    /* issued inside the window: t - latency < bound */
    assert_true(t - C.pio_write_latency_ps < window_bound);
    snprintf(b, sizeof b, "w %x=%x", off, val);
    add(node, t, b);
}

static void m_pio_read(void *o, unsigned node, uint64_t t, uint32_t off)
{
    char b[64];
    (void)o;
    snprintf(b, sizeof b, "r %x", off);
    add(node, t, b);
    hostrt_pio_reply(&hosts[node], 0xC0DE0000u | off);   /* the board answers */
}

static void m_console(void *o, unsigned node, uint64_t t, const char *text, size_t len)
{
    char b[64];
    (void)o;
    assert_true(t < window_bound);
    snprintf(b, sizeof b, "c %.*s", (int)len, text);
    add(node, t, b);
}

static const struct hostrt_machine M = {
    .pio_write = m_pio_write, .pio_read = m_pio_read, .console = m_console,
};

static void start(unsigned node, int (*main)(int, char **))
{
    assert_int_equal(hostrt_init(&hosts[node], node, 2, &M, &C, main, 0, NULL, 1 << 20, 0), 0);
}

static void run_to_end(unsigned node, uint64_t step)
{
    for (uint64_t t = step; hosts[node].state != HOSTRT_DONE && t < 1000000000000ull; t += step) {
        window_bound = t;
        hostrt_run(&hosts[node], t);
    }
}

/* ---- programs ---------------------------------------------------------- */

static int prog_basic(int argc, char **argv)
{
    (void)argc; (void)argv;
    nc_host_compute_ns(1000);
    nc_host_printf("node %u of %u", nc_host_node(), nc_host_nodes());
    nc_host_pio_write32(0x804058, 7);
    nc_host_compute_ns(500);
    nc_host_printf("t=%llu", (unsigned long long)nc_host_now_ns());
    return 42;
}

static void test_costs_and_posted_writes(void **st)
{
    (void)st;
    nlog = 0;
    start(0, prog_basic);
    run_to_end(0, 1000000 * NS);
    assert_int_equal(hosts[0].state, HOSTRT_DONE);
    assert_int_equal(hosts[0].exit_status, 42);
    assert_int_equal(nlog, 3);
    assert_string_equal(log_[0].what, "c node 0 of 2");
    assert_int_equal(log_[0].t, 1000 * NS);
    assert_string_equal(log_[1].what, "w 804058=7");
    assert_int_equal(log_[1].t, 1000 * NS + C.pio_write_latency_ps);   /* lands later */
    assert_string_equal(log_[2].what, "c t=1600");                      /* +100 write +500 */
    hostrt_destroy(&hosts[0]);
}

static uint32_t read_value;

static int prog_read(int argc, char **argv)
{
    (void)argc; (void)argv;
    read_value = nc_host_pio_read32(0x804050);
    nc_host_printf("after read");
    return 0;
}

static void test_pio_read_stalls(void **st)
{
    (void)st;
    nlog = 0;
    start(0, prog_read);
    run_to_end(0, 10 * NS);
    assert_int_equal(read_value, 0xC0DE0000u | 0x804050);
    assert_int_equal(log_[0].t, C.pio_write_latency_ps);                /* request lands */
    assert_int_equal(log_[1].t, C.pio_read_ps);                         /* host resumes */
    hostrt_destroy(&hosts[0]);
}

static bool waited;
static uint64_t woke_ns;

static int prog_wait(int argc, char **argv)
{
    (void)argc; (void)argv;
    waited = nc_host_wait_irq(0);
    woke_ns = nc_host_now_ns();
    return 0;
}

static void test_interrupt_wakes_a_waiting_host(void **st)
{
    (void)st;
    start(0, prog_wait);
    window_bound = 5000 * NS;
    assert_int_equal(hostrt_run(&hosts[0], 5000 * NS), HOSTRT_WAIT_IRQ);
    assert_int_equal(hostrt_next_ps(&hosts[0]), UINT64_MAX);            /* idle: no cost */
    hostrt_irq(&hosts[0], 3000 * NS, true);                              /* board raises it */
    assert_int_equal(hostrt_next_ps(&hosts[0]), 5000 * NS);              /* + interrupt time */
    assert_int_equal(hostrt_run(&hosts[0], 5000 * NS), HOSTRT_WAIT_IRQ); /* not in this window */
    window_bound = 10000 * NS;
    assert_int_equal(hostrt_run(&hosts[0], 10000 * NS), HOSTRT_DONE);
    assert_true(waited);
    assert_int_equal(woke_ns, 5000);
    hostrt_destroy(&hosts[0]);
}

static int prog_timeout(int argc, char **argv)
{
    (void)argc; (void)argv;
    waited = nc_host_wait_irq(7000);
    woke_ns = nc_host_now_ns();
    return nc_host_irq_pending();
}

static void test_wait_times_out_and_polls(void **st)
{
    (void)st;
    start(0, prog_timeout);
    run_to_end(0, 1000 * NS);
    assert_false(waited);
    assert_int_equal(woke_ns, 7000);
    assert_int_equal(hosts[0].exit_status, 0);
    assert_int_equal(hosts[0].now_ps, 7000 * NS + C.poll_ps);            /* a poll costs */
    hostrt_destroy(&hosts[0]);
}

static int prog_memory(int argc, char **argv)
{
    uint64_t bus1, bus2;
    char *a, *b;
    (void)argc; (void)argv;
    a = nc_host_dma_alloc(100, &bus1);
    b = nc_host_dma_alloc(10, &bus2);
    if (!a || !b || bus1 != HOSTRT_BUS_BASE || bus2 != HOSTRT_BUS_BASE + 128)
        return 1;
    nc_host_memcpy(a, "hello", 6);
    if (nc_host_dma_alloc(1 << 20, &bus1))
        return 2;                                   /* too big: NULL */
    return 0;
}

static void test_dma_memory_and_copies(void **st)
{
    char buf[8];
    (void)st;
    start(0, prog_memory);
    run_to_end(0, 1000000 * NS);
    assert_int_equal(hosts[0].exit_status, 0);
    assert_int_equal(hosts[0].now_ps, C.copy_fixed_ps + 6 * C.copy_ps_per_byte);
    assert_true(hostrt_mem_read(&hosts[0], HOSTRT_BUS_BASE, buf, 6));
    assert_string_equal(buf, "hello");                                   /* the NIC sees it */
    assert_true(hostrt_mem_write(&hosts[0], HOSTRT_BUS_BASE + 128, "x", 1));
    assert_false(hostrt_mem_read(&hosts[0], HOSTRT_BUS_BASE + (1 << 20) - 2, buf, 4));
    assert_false(hostrt_mem_read(&hosts[0], 0x1000, buf, 4));
    hostrt_destroy(&hosts[0]);
}

static int prog_chatty(int argc, char **argv)
{
    (void)argc; (void)argv;
    for (int i = 0; i < 20; i++) {
        nc_host_compute_ns(300 + 170 * nc_host_node());
        nc_host_pio_write32(0x100 + 4 * (uint32_t)i, (uint32_t)i);
    }
    return 0;
}

/* Two hosts in windows of 1 us, each run to the bound in turn, as the
 * machine's synchronisation would. */
static unsigned run_pair(char *out, size_t outlen)
{
    size_t pos = 0;
    nlog = 0;
    start(0, prog_chatty);
    start(1, prog_chatty);
    for (uint64_t t = 1000 * NS; hosts[0].state != HOSTRT_DONE || hosts[1].state != HOSTRT_DONE;
         t += 1000 * NS) {
        window_bound = t;
        hostrt_run(&hosts[1], t);
        hostrt_run(&hosts[0], t);
    }
    for (unsigned i = 0; i < nlog; i++)
        pos += (size_t)snprintf(out + pos, outlen - pos, "%u@%llu:%s;", log_[i].node,
                                (unsigned long long)log_[i].t, log_[i].what);
    hostrt_destroy(&hosts[0]);
    hostrt_destroy(&hosts[1]);
    return nlog;
}

static void test_windows_and_determinism(void **st)
{
    static char a[16384], b[16384];
    (void)st;
    assert_int_equal(run_pair(a, sizeof a), 40);
    assert_int_equal(run_pair(b, sizeof b), 40);
    assert_string_equal(a, b);
    /* node 1's 20th write: 20 x (470 compute) + 19 x 100 write costs, + latency */
    assert_non_null(strstr(a, "1@11550000:w 14c=13;"));
}

/* Bursts: with block callbacks (one request each) and without (words). */
static uint8_t board[64];            /* the fake board window, big-endian */
static uint64_t block_t;

static void m_write_block(void *o, unsigned node, uint64_t t, uint32_t off, const void *buf,
                          uint32_t len)
{
    (void)o; (void)node;
    block_t = t;
    memcpy(board + off, buf, len);
}

static void m_read_block(void *o, unsigned node, uint64_t t, uint32_t off, void *buf,
                         uint32_t len)
{
    (void)o;
    block_t = t;
    memcpy(buf, board + off, len);
    hostrt_pio_reply(&hosts[node], 0);
}

static void m_word_write(void *o, unsigned node, uint64_t t, uint32_t off, uint32_t val)
{
    (void)o; (void)node; (void)t;
    board[off] = (uint8_t)(val >> 24); board[off + 1] = (uint8_t)(val >> 16);
    board[off + 2] = (uint8_t)(val >> 8); board[off + 3] = (uint8_t)val;
}

static void m_word_read(void *o, unsigned node, uint64_t t, uint32_t off)
{
    (void)o; (void)t;
    hostrt_pio_reply(&hosts[node], (uint32_t)board[off] << 24 | (uint32_t)board[off + 1] << 16 |
                                   (uint32_t)board[off + 2] << 8 | board[off + 3]);
}

static uint64_t after_write, after_read;
static uint8_t readback[10];

static int prog_blocks(int argc, char **argv)
{
    (void)argc; (void)argv;
    nc_host_pio_write_block(8, "ABCDEFGHIJ", 10);     /* 3 words, the last partial */
    after_write = nc_host_now_ns();
    nc_host_pio_read_block(8, readback, 10);
    after_read = nc_host_now_ns();
    return 0;
}

static void test_pio_bursts(void **st)
{
    static const struct hostrt_machine blocks = {
        .pio_write = m_word_write, .pio_read = m_word_read, .console = m_console,
        .pio_write_block = m_write_block, .pio_read_block = m_read_block,
    };
    static const struct hostrt_machine words = {
        .pio_write = m_word_write, .pio_read = m_word_read, .console = m_console,
    };
    (void)st;
    /* one request per burst, timed as its words back to back */
    memset(board, '.', sizeof board);
    assert_int_equal(hostrt_init(&hosts[0], 0, 1, &blocks, &C, prog_blocks, 0, NULL, 4096, 0), 0);
    run_to_end(0, 1000000 * NS);
    assert_int_equal(hosts[0].state, HOSTRT_DONE);
    assert_int_equal(after_write, 3 * 100);                         /* 3 posted words */
    assert_int_equal(block_t, 300 * NS + C.pio_write_latency_ps);   /* read request lands */
    assert_int_equal(after_read, 300 + 900 + 2 * 900);              /* 3 reads' stall */
    assert_memory_equal(readback, "ABCDEFGHIJ", 10);
    assert_memory_equal(board + 18, "..", 2);       /* bytes after the burst kept */
    hostrt_destroy(&hosts[0]);
    /* without block callbacks: the same data, word by word */
    memset(board, '.', sizeof board);
    assert_int_equal(hostrt_init(&hosts[0], 0, 1, &words, &C, prog_blocks, 0, NULL, 4096, 0), 0);
    run_to_end(0, 1000000 * NS);
    assert_int_equal(hosts[0].state, HOSTRT_DONE);
    assert_memory_equal(readback, "ABCDEFGHIJ", 10);
    assert_memory_equal(board + 18, "..", 2);       /* read-modify-write of the last word */
    hostrt_destroy(&hosts[0]);
}

static int prog_scaled(int argc, char **argv)
{
    (void)argc; (void)argv;
    nc_host_compute_ns(1000);
    return 0;
}

/* The page below a host's stack faults when touched: a child process
 * writes to it and must die of SIGSEGV (an overflow never reaches the
 * memory beyond). */
static int prog_nothing(int argc, char **argv)
{
    (void)argc; (void)argv;
    return 0;
}

static void test_stack_guard(void **st)
{
    int status;
    pid_t pid;
    (void)st;
    assert_int_equal(hostrt_init(&hosts[0], 0, 1, &M, &C, prog_nothing, 0, NULL, 4096, 0), 0);
    assert_ptr_equal((char *)hosts[0].guard + hosts[0].guard_size, hosts[0].stack);
    pid = fork();
    if (pid == 0) {
        signal(SIGSEGV, SIG_DFL);   /* not cmocka's handler: die of it */
        ((volatile char *)hosts[0].stack)[0] = 1;                       /* the stack's lowest byte */
        ((volatile char *)hosts[0].stack)[-1] = 1;                      /* one byte beyond it */
        _exit(0);
    }
    assert_true(pid > 0);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
    hostrt_destroy(&hosts[0]);
}

static void test_compute_scale(void **st)
{
    struct hostrt_costs c = C;
    (void)st;
    c.compute_scale_micro = 1500000;    /* a slower host: 1.5x */
    assert_int_equal(hostrt_init(&hosts[0], 0, 1, &M, &c, prog_scaled, 0, NULL, 4096, 0), 0);
    run_to_end(0, 1000000 * NS);
    assert_int_equal(hosts[0].now_ps, 1500 * NS);
    hostrt_destroy(&hosts[0]);
}

/* Three commands posted, two events consumed, then a PIO write: the
 * library's costs come before the write, which lands that much later. */
static int prog_library_costs(int argc, char **argv)
{
    (void)argc; (void)argv;
    for (int i = 0; i < 3; i++)
        nc_host_charge_post();
    nc_host_charge_recv();
    nc_host_charge_recv();
    nc_host_pio_write32(0x10, 1);
    return 0;
}

static void test_library_costs(void **st)
{
    struct hostrt_costs c = C;
    (void)st;
    c.compute_scale_micro = 1500000;    /* scales compute only: post and recv are host times */
    nlog = 0;
    assert_int_equal(hostrt_init(&hosts[0], 0, 1, &M, &c, prog_library_costs, 0, NULL, 4096, 0), 0);
    run_to_end(0, 1000000 * NS);
    assert_int_equal(nlog, 1);
    assert_int_equal(log_[0].t, 3 * C.post_ps + 2 * C.recv_ps + C.pio_write_latency_ps);
    assert_int_equal(hosts[0].now_ps, 3 * C.post_ps + 2 * C.recv_ps + C.pio_write_ps);
    hostrt_destroy(&hosts[0]);
}

/* ---- the program's signal (nc_host_signal) ----------------------------- */

static unsigned sig_runs, sig_depth, sig_max_depth;
static uint64_t sig_entered[8], main_done_ns;
static uint64_t sig_first_work_ns;      /* the first run's own computation */

static void handler(void)
{
    if (++sig_depth > sig_max_depth)
        sig_max_depth = sig_depth;
    if (sig_runs < 8)
        sig_entered[sig_runs] = nc_host_now_ns();
    nc_host_compute_ns(sig_runs == 0 ? sig_first_work_ns : 1000);
    (void)nc_host_irq_pending();    /* an interaction: a sync point inside the handler */
    sig_runs++;
    sig_depth--;
}

static int prog_signalled(int argc, char **argv)
{
    (void)argc; (void)argv;
    nc_host_signal(handler);
    nc_host_compute_ns(100000);
    main_done_ns = nc_host_now_ns();
    return 0;
}

static int prog_unsignalled(int argc, char **argv)
{
    (void)argc; (void)argv;
    nc_host_compute_ns(100000);
    main_done_ns = nc_host_now_ns();
    return 0;
}

static void sig_reset(uint64_t first_work_ns)
{
    sig_runs = sig_depth = sig_max_depth = 0;
    memset(sig_entered, 0, sizeof sig_entered);
    sig_first_work_ns = first_work_ns;
}

/* A rise at board time 10 us reaches the host at 12 us, inside a 100 us
 * computation: the handler is entered at 12 + 3 (the signal's cost), runs
 * 1 us of its own and a poll, and the computation finishes the rest. */
static void test_signal_preempts_compute(void **st)
{
    (void)st;
    sig_reset(1000);
    start(0, prog_signalled);
    hostrt_irq(&hosts[0], 10000 * NS, true);
    run_to_end(0, 1000 * NS);
    assert_int_equal(sig_runs, 1);
    assert_int_equal(sig_entered[0], 12000 + 3000);
    assert_int_equal(main_done_ns, 100000 + 3000 + 1000 + C.poll_ps / NS);
    hostrt_destroy(&hosts[0]);
}

/* Without a handler the same rise changes nothing: the computation is
 * 100 us exactly. */
static void test_no_handler_no_signal(void **st)
{
    (void)st;
    sig_reset(1000);
    start(0, prog_unsignalled);
    hostrt_irq(&hosts[0], 10000 * NS, true);
    run_to_end(0, 1000 * NS);
    assert_int_equal(sig_runs, 0);
    assert_int_equal(main_done_ns, 100000);
    hostrt_destroy(&hosts[0]);
}

/* Three rises while the first handler runs (15 .. 35 us of host time) make
 * one pending signal, delivered when it returns; never two handlers at
 * once. A second 'high' with no fall between (70 us) is no rise. */
static void test_signals_block_and_coalesce(void **st)
{
    (void)st;
    sig_reset(20000);
    start(0, prog_signalled);
    hostrt_irq(&hosts[0], 10000 * NS, true);    /* host sees it at 12 us */
    hostrt_irq(&hosts[0], 13000 * NS, false);
    hostrt_irq(&hosts[0], 16000 * NS, true);    /* 18 us: inside the handler */
    hostrt_irq(&hosts[0], 17000 * NS, false);
    hostrt_irq(&hosts[0], 19000 * NS, true);    /* 21 us */
    hostrt_irq(&hosts[0], 20000 * NS, false);
    hostrt_irq(&hosts[0], 22000 * NS, true);    /* 24 us */
    hostrt_irq(&hosts[0], 68000 * NS, true);    /* still high: no rise */
    run_to_end(0, 1000 * NS);
    assert_int_equal(sig_max_depth, 1);
    assert_int_equal(sig_runs, 2);
    assert_int_equal(sig_entered[0], 15000);
    /* the first leaves at 15 + 20 + poll; the second is entered 3 us later */
    assert_int_equal(sig_entered[1], 35000 + C.poll_ps / NS + 3000);
    assert_int_equal(main_done_ns, 100000 + 2 * 3000 + 20000 + 1000 + 2 * C.poll_ps / NS);
    hostrt_destroy(&hosts[0]);
}

static bool sig_wait_result;

static int prog_wait_signalled(int argc, char **argv)
{
    (void)argc; (void)argv;
    nc_host_signal(handler);
    sig_wait_result = nc_host_wait_irq(0);
    main_done_ns = nc_host_now_ns();
    return 0;
}

/* A host asleep in nc_host_wait_irq: the rise wakes it, the handler runs
 * first (as a signal interrupts a sleep), then the wait returns. */
static void test_signal_interrupts_wait(void **st)
{
    (void)st;
    sig_reset(1000);
    start(0, prog_wait_signalled);
    hostrt_irq(&hosts[0], 10000 * NS, true);
    run_to_end(0, 1000 * NS);
    assert_int_equal(sig_runs, 1);
    assert_int_equal(sig_entered[0], 15000);
    assert_true(sig_wait_result);
    assert_int_equal(main_done_ns, 15000 + 1000 + C.poll_ps / NS);
    hostrt_destroy(&hosts[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_costs_and_posted_writes),
        cmocka_unit_test(test_pio_read_stalls),
        cmocka_unit_test(test_interrupt_wakes_a_waiting_host),
        cmocka_unit_test(test_wait_times_out_and_polls),
        cmocka_unit_test(test_dma_memory_and_copies),
        cmocka_unit_test(test_windows_and_determinism),
        cmocka_unit_test(test_compute_scale),
        cmocka_unit_test(test_stack_guard),
        cmocka_unit_test(test_pio_bursts),
        cmocka_unit_test(test_library_costs),
        cmocka_unit_test(test_signal_preempts_compute),
        cmocka_unit_test(test_no_handler_no_signal),
        cmocka_unit_test(test_signals_block_and_coalesce),
        cmocka_unit_test(test_signal_interrupts_wait),
    };
    return cmocka_run_group_tests_name("hostrt", tests, NULL, NULL);
}
