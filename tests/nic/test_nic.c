/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Register-level tests of the LANai 9 NIC device logic (lanai-emu/nic),
 * one group per register or bit group of docs/nic.md, driven by a fake
 * machine whose clock the test sets: ISR (write-1-to-clear, the two
 * signals), EIMR and the interrupt line, IT0-IT2, RTC, plain registers,
 * the send engine, the receive engine (HEAD, RECV, BUFF, ORUN, CRC,
 * queueing), two NICs through the fabric, both DMA chains with their
 * timing and data, DMA errors, link state and reset.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fabric.h"
#include "nicoll/lanai9_regs.h"
#include "nicoll/nc_endian.h"
#include "nic.h"

#define SRAM 0x20000u
#define HOSTMEM 0x10000u
#define HOST_BUS 0x100000000ull   /* bus address of host memory byte 0 */

/* A fake machine for one or two NICs. */
struct fake {
    uint64_t t;
    uint8_t sram[SRAM];
    uint8_t host[HOSTMEM];
    bool irq;
    unsigned irq_changes;
    uint64_t wake;
    uint8_t tx[FABRIC_MAX_PACKET];
    size_t tx_len;
    uint64_t tx_time;
    unsigned ntx;
    struct fabric *fab;            /* when set, transmissions go through it */
    struct nic *peer[2];           /* NICs by node id, for fabric delivery */
    unsigned self;
};

static struct fake fk[2];

static uint64_t f_now(void *o) { return ((struct fake *)o)->t; }
static void f_sram_read(void *o, uint32_t a, void *b, uint32_t l) { memcpy(b, ((struct fake *)o)->sram + a, l); }
static void f_sram_write(void *o, uint32_t a, const void *b, uint32_t l) { memcpy(((struct fake *)o)->sram + a, b, l); }

static bool f_host_read(void *o, uint64_t bus, void *b, uint32_t l)
{
    struct fake *f = o;
    if (bus < HOST_BUS || bus - HOST_BUS + l > HOSTMEM)
        return false;
    memcpy(b, f->host + (bus - HOST_BUS), l);
    return true;
}

static bool f_host_write(void *o, uint64_t bus, const void *b, uint32_t l)
{
    struct fake *f = o;
    if (bus < HOST_BUS || bus - HOST_BUS + l > HOSTMEM)
        return false;
    memcpy(f->host + (bus - HOST_BUS), b, l);
    return true;
}

static struct fabric_delivery delivery;

static void f_transmit(void *o, uint64_t t, const uint8_t *p, size_t l)
{
    struct fake *f = o;
    memcpy(f->tx, p, l);
    f->tx_len = l;
    f->tx_time = t;
    f->ntx++;
    if (f->fab) {
        assert_int_equal(fabric_send(f->fab, f->self, t, p, l, &delivery), 0);
        if (delivery.delivered)
            nic_receive(f->peer[delivery.dst], &delivery);
    }
}

static void f_irq(void *o, bool level) { ((struct fake *)o)->irq = level; ((struct fake *)o)->irq_changes++; }
static void f_wake(void *o, uint64_t t) { ((struct fake *)o)->wake = t; }

/* Myrinet-2000 link (4 ns/B); PCI 64/66-like: 650 ns per burst, 620 ns
 * extra on reads, 2 ns per byte, 256-byte bursts. */
static const struct nic_timing TM = {
    .byte_ps = 4000, .dma_fixed_ps = 650000, .dma_read_ps = 620000,
    .dma_ps_per_byte = 2000, .dma_burst = 256,
};

static struct nic nics[2];

static struct nic *setup(unsigned i)
{
    struct nic_env env = { &fk[i], f_now, f_sram_read, f_sram_write, f_host_read,
                           f_host_write, f_transmit, f_irq, f_wake, NULL, NULL };
    memset(&fk[i], 0, sizeof fk[i]);
    fk[i].self = i;
    assert_int_equal(nic_init(&nics[i], &env, &TM, SRAM), 0);
    return &nics[i];
}

static void teardown_nics(void)
{
    nic_destroy(&nics[0]);
    nic_destroy(&nics[1]);
}

static uint32_t rd(struct nic *n, uint32_t off) { return nic_reg_read(n, off, false); }
static void wr(struct nic *n, uint32_t off, uint32_t v) { nic_reg_write(n, off, v, false); }

/* ------------------------------------------------------------------------- */

static void test_reset_state(void **st)
{
    struct nic *n = setup(0);
    (void)st;
    fk[0].t = 1000;
    assert_int_equal(rd(n, L9_ISR), L9_ISR_SEND);   /* only "send engine ready" */
    assert_int_equal(rd(n, L9_EIMR), 0);
    assert_int_equal(rd(n, L9_IT0), 0);
    assert_int_equal(rd(n, L9_RMP), 0);
    assert_false(fk[0].irq);
    teardown_nics();
}

static void test_isr_write_one_to_clear_and_signals(void **st)
{
    struct nic *n = setup(0);
    (void)st;
    wr(n, L9_IT0, 1);
    fk[0].t = NIC_RTC_TICK_PS;
    assert_true(rd(n, L9_ISR) & L9_ISR_TIME0);
    wr(n, L9_ISR, L9_ISR_TIME1);                    /* other bit: no effect */
    assert_true(rd(n, L9_ISR) & L9_ISR_TIME0);
    wr(n, L9_ISR, L9_ISR_TIME0);
    assert_false(rd(n, L9_ISR) & L9_ISR_TIME0);
    wr(n, L9_ISR, L9_ISR_SEND);                     /* status bit: stays */
    assert_true(rd(n, L9_ISR) & L9_ISR_SEND);
    /* the LANai raises HOST_SIG, the host acknowledges it */
    wr(n, L9_ISR, L9_ISR_HOST_SIG);
    assert_true(nic_reg_read(n, L9_ISR, true) & L9_ISR_HOST_SIG);
    nic_reg_write(n, L9_ISR, L9_ISR_HOST_SIG, true);
    assert_false(rd(n, L9_ISR) & L9_ISR_HOST_SIG);
    /* the host raises LANAI_SIG, the LANai acknowledges it */
    nic_reg_write(n, L9_ISR, L9_ISR_LANAI_SIG, true);
    assert_true(rd(n, L9_ISR) & L9_ISR_LANAI_SIG);
    wr(n, L9_ISR, L9_ISR_LANAI_SIG);
    assert_false(rd(n, L9_ISR) & L9_ISR_LANAI_SIG);
    teardown_nics();
}

static void test_eimr_drives_interrupt_line(void **st)
{
    struct nic *n = setup(0);
    (void)st;
    wr(n, L9_EIMR, L9_ISR_TIME0);
    wr(n, L9_IT0, 10);                               /* 5 us */
    assert_false(fk[0].irq);
    assert_int_equal(fk[0].wake, 10 * NIC_RTC_TICK_PS);  /* asks to be woken then */
    fk[0].t = fk[0].wake;
    nic_advance(n);
    assert_true(fk[0].irq);
    wr(n, L9_ISR, L9_ISR_TIME0);
    assert_false(fk[0].irq);
    /* HOST_SIG is the firmware's way to interrupt the host */
    wr(n, L9_EIMR, L9_ISR_HOST_SIG);
    wr(n, L9_ISR, L9_ISR_HOST_SIG);
    assert_true(fk[0].irq);
    teardown_nics();
}

static void test_interval_timers(void **st)
{
    struct nic *n = setup(0);
    static const uint32_t regs[3] = { L9_IT0, L9_IT1, L9_IT2 };
    static const uint32_t bits[3] = { L9_ISR_TIME0, L9_ISR_TIME1, L9_ISR_TIME2 };
    (void)st;
    for (int i = 0; i < 3; i++) {
        fk[0].t = 0;
        wr(n, L9_ISR, 0xFFFFFFFF);
        wr(n, regs[i], 100);                         /* 50 us */
        fk[0].t = 20 * NIC_RTC_TICK_PS;
        assert_int_equal(rd(n, regs[i]), 80);        /* counts down */
        fk[0].t = 100 * NIC_RTC_TICK_PS - 1;
        assert_false(rd(n, L9_ISR) & bits[i]);
        fk[0].t = 100 * NIC_RTC_TICK_PS;
        assert_true(rd(n, L9_ISR) & bits[i]);        /* exactly at expiry */
        assert_int_equal(rd(n, regs[i]), 0);
        wr(n, regs[i], 5);
        wr(n, regs[i], 0);                           /* 0 disables */
        fk[0].t += 10 * NIC_RTC_TICK_PS;
        wr(n, L9_ISR, bits[i]);
        assert_false(rd(n, L9_ISR) & bits[i]);
    }
    teardown_nics();
}

static void test_rtc(void **st)
{
    struct nic *n = setup(0);
    (void)st;
    fk[0].t = 7 * NIC_RTC_TICK_PS + 1;
    assert_int_equal(rd(n, L9_RTC), 7);               /* 0.5 us ticks */
    wr(n, L9_RTC, 1000);
    fk[0].t += 3 * NIC_RTC_TICK_PS;
    assert_int_equal(rd(n, L9_RTC), 1003);
    teardown_nics();
}

static void test_plain_registers(void **st)
{
    struct nic *n = setup(0);
    static const uint32_t regs[] = { L9_LAR, L9_CPUC, L9_MYRINET, L9_DEBUG, L9_LED,
                                     L9_GM_MP, L9_CLOCK, L9_RMW, L9_RMC, L9_SMH, L9_SMC };
    (void)st;
    for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++) {
        wr(n, regs[i], 0xA5000000u | (uint32_t)i);
        assert_int_equal(rd(n, regs[i]), 0xA5000000u | (uint32_t)i);
    }
    wr(n, L9_SMP, 0x1237);
    assert_int_equal(rd(n, L9_SMP), 0x1230);          /* 8-byte aligned */
    wr(n, L9_SA, 0xFF);
    assert_int_equal(rd(n, L9_SA), 7);
    wr(n, 0x1F0, 0x55);                               /* unassigned */
    assert_int_equal(rd(n, 0x1F0), 0);
    teardown_nics();
}

static void test_send_engine(void **st)
{
    struct nic *n = setup(0);
    (void)st;
    for (int i = 0; i < 64; i++)
        fk[0].sram[0x1000 + i] = (uint8_t)i;
    fk[0].t = 5000000;
    /* route byte at 0x1003 (right-aligned: SA = 3), then the header */
    wr(n, L9_SMP, 0x1000);
    wr(n, L9_SA, 3);
    wr(n, L9_SML, 0x1010);                            /* first piece: 13 bytes */
    assert_int_equal(fk[0].ntx, 0);
    assert_false(rd(n, L9_ISR) & L9_ISR_SEND);
    fk[0].t += 13 * TM.byte_ps;
    assert_true(rd(n, L9_ISR) & L9_ISR_SEND);         /* ready for the next piece */
    wr(n, L9_SMP, 0x1020);
    wr(n, L9_SA, 0);
    wr(n, L9_SMLT, 0x1028);                           /* last piece: 8 bytes */
    assert_int_equal(fk[0].ntx, 1);
    assert_int_equal(fk[0].tx_len, 21);
    assert_memory_equal(fk[0].tx, fk[0].sram + 0x1003, 13);
    assert_memory_equal(fk[0].tx + 13, fk[0].sram + 0x1020, 8);
    assert_int_equal(fk[0].tx_time, fk[0].t);         /* leaves when complete */
    /* busy until the whole packet and its CRC byte are serialised */
    fk[0].t += 22 * TM.byte_ps - 1;
    assert_false(rd(n, L9_ISR) & L9_ISR_SEND);
    fk[0].t += 1;
    assert_true(rd(n, L9_ISR) & L9_ISR_SEND);
    /* a piece outside SRAM */
    wr(n, L9_SMP, SRAM - 8);
    wr(n, L9_SMLT, SRAM + 8);
    assert_true(rd(n, L9_ISR) & L9_ISR_TX_TOO_LONG);
    assert_int_equal(fk[0].ntx, 1);
    teardown_nics();
}

static struct fabric_delivery arriving(uint64_t head, uint32_t len, bool crc_ok)
{
    struct fabric_delivery d;
    memset(&d, 0, sizeof d);
    d.delivered = true;
    d.head_ps = head;
    d.tail_ps = head + (uint64_t)(len + 1) * TM.byte_ps;
    d.crc_ok = crc_ok;
    d.len = len;
    for (uint32_t i = 0; i < len; i++)
        d.data[i] = (uint8_t)(0x40 + i);
    return d;
}

static void test_receive_engine(void **st)
{
    struct nic *n = setup(0);
    struct fabric_delivery d = arriving(1000000, 21, true);
    (void)st;
    wr(n, L9_RMP, 0x2000);
    wr(n, L9_RML, 0x2100);
    nic_receive(n, &d);
    assert_int_equal(fk[0].wake, d.head_ps);          /* asks to be woken at arrival */
    fk[0].t = d.head_ps;
    nic_advance(n);
    assert_memory_equal(fk[0].sram + 0x2000, d.data, 21);
    fk[0].t = d.head_ps + 8 * TM.byte_ps - 1;
    assert_false(rd(n, L9_ISR) & L9_ISR_HEAD);
    fk[0].t += 1;
    assert_true(rd(n, L9_ISR) & L9_ISR_HEAD);         /* header (8 bytes) is in */
    assert_false(rd(n, L9_ISR) & L9_ISR_RECV);
    fk[0].t = d.tail_ps;
    assert_true(rd(n, L9_ISR) & L9_ISR_RECV);
    assert_int_equal(rd(n, L9_RMP), 0x2000 + 21);     /* where the packet ended */
    /* 21 = 8*2 + 5: residue 5 -> ORUN4 | ORUN1 */
    assert_int_equal(rd(n, L9_ISR) & (L9_ISR_ORUN1 | L9_ISR_ORUN2 | L9_ISR_ORUN4),
                     L9_ISR_ORUN1 | L9_ISR_ORUN4);
    assert_false(rd(n, L9_ISR) & (L9_ISR_BUFF | L9_ISR_ILLEGAL_RX));
    teardown_nics();
}

static void test_receive_buffer_limit_and_crc(void **st)
{
    struct nic *n = setup(0);
    struct fabric_delivery d = arriving(0, 40, false);
    (void)st;
    memset(fk[0].sram + 0x3000, 0xEE, 64);
    wr(n, L9_RMP, 0x3000);
    wr(n, L9_RML, 0x3010);                            /* room for 16 bytes */
    nic_receive(n, &d);
    assert_memory_equal(fk[0].sram + 0x3000, d.data, 16);
    assert_int_equal(fk[0].sram[0x3010], 0xEE);       /* nothing past the limit */
    fk[0].t = 16 * TM.byte_ps;
    assert_true(rd(n, L9_ISR) & L9_ISR_BUFF);
    fk[0].t = d.tail_ps;
    assert_true(rd(n, L9_ISR) & L9_ISR_RECV);
    assert_true(rd(n, L9_ISR) & L9_ISR_ILLEGAL_RX);   /* CRC-8 failed */
    teardown_nics();
}

static void test_receive_queue_waits_for_a_buffer(void **st)
{
    struct nic *n = setup(0);
    struct fabric_delivery a = arriving(1000, 8, true), b = arriving(2000, 12, true);
    (void)st;
    nic_receive(n, &a);
    nic_receive(n, &b);
    fk[0].t = 10000000;
    assert_false(rd(n, L9_ISR) & (L9_ISR_HEAD | L9_ISR_RECV));
    wr(n, L9_RMP, 0x4000);
    wr(n, L9_RML, 0x4100);                            /* arm at 10 us */
    assert_memory_equal(fk[0].sram + 0x4000, a.data, 8);
    fk[0].t += 9 * TM.byte_ps;                        /* 8 bytes + CRC after arming */
    assert_true(rd(n, L9_ISR) & L9_ISR_RECV);
    wr(n, L9_ISR, L9_ISR_RECV | L9_ISR_HEAD);
    fk[0].t += 100 * TM.byte_ps;
    assert_false(rd(n, L9_ISR) & L9_ISR_RECV);        /* one packet per buffer */
    wr(n, L9_RMP, 0x4100);
    wr(n, L9_RML, 0x4200);
    assert_memory_equal(fk[0].sram + 0x4100, b.data, 12);
    teardown_nics();
}

static void test_two_nics_through_the_fabric(void **st)
{
    char err[200];
    struct topo *t = topo_new();
    struct fabric_timing ft = { TM.byte_ps, 5000, 150000 };
    struct nic *a = setup(0), *b = setup(1);
    struct fabric *f;
    uint8_t route[TOPO_MAX_HOPS];
    (void)st;
    assert_int_equal(topo_gen_crossbar(t, 2, err, sizeof err), 0);
    f = fabric_new(t, &ft, 1);
    fk[0].fab = f;
    fk[0].peer[0] = a;
    fk[0].peer[1] = b;
    assert_int_equal(topo_route(t, 0, 1, route), 1);
    fk[0].sram[0x107] = 0x80 | route[0];
    for (int i = 0; i < 16; i++)
        fk[0].sram[0x108 + i] = (uint8_t)(0x0A + i);   /* type first: MSB clear */
    wr(b, L9_RMP, 0x800);
    wr(b, L9_RML, 0x900);
    fk[0].t = fk[1].t = 2000000;
    wr(a, L9_SMP, 0x100);
    wr(a, L9_SA, 7);
    wr(a, L9_SMLT, 0x118);                            /* 1 route byte + 16 */
    /* head: one hop + cable; tail: 16 bytes + CRC after it */
    uint64_t head = 2000000 + (5000 + TM.byte_ps + 150000) + 5000;
    uint64_t tail = head + 17 * TM.byte_ps;
    fk[1].t = tail - 1;
    assert_false(nic_reg_read(b, L9_ISR, false) & L9_ISR_RECV);
    fk[1].t = tail;
    assert_true(nic_reg_read(b, L9_ISR, false) & L9_ISR_RECV);
    assert_memory_equal(fk[1].sram + 0x800, fk[0].sram + 0x108, 16);
    assert_int_equal(nic_reg_read(b, L9_RMP, false), 0x810);
    fabric_free(f);
    topo_free(t);
    teardown_nics();
}

/* A descriptor at 'at' in SRAM. */
static void desc(uint8_t *sram, uint32_t at, uint32_t next_flags, uint32_t len, uint32_t lar,
                 uint64_t bus)
{
    nc_put_be32(sram + at, next_flags);
    nc_put_be32(sram + at + 4, 0);
    nc_put_be32(sram + at + 8, len);
    nc_put_be32(sram + at + 12, lar);
    nc_put_be32(sram + at + 16, (uint32_t)(bus >> 32));
    nc_put_be32(sram + at + 20, (uint32_t)bus);
}

static void test_dma_lanai_to_host(void **st)
{
    struct nic *n = setup(0);
    uint64_t t0 = 3000000, b1, b2;
    (void)st;
    for (int i = 0; i < 600; i++)
        fk[0].sram[0x5000 + i] = (uint8_t)(i * 13);
    /* block 1: 300 bytes to host 0x100; block 2 (terminal, wake): 100 bytes */
    desc(fk[0].sram, 0x6000, 0x6018, 300, 0x5000, HOST_BUS + 0x100);
    desc(fk[0].sram, 0x6018, NIC_DMA_TERMINAL | NIC_DMA_WAKE, 100, 0x5200, HOST_BUS + 0x400);
    wr(n, L9_EIMR, L9_ISR_WAKE0);
    fk[0].t = t0;
    wr(n, L9_PULSE, 0x6000 | NIC_PULSE_L2E);
    b1 = 2 * TM.dma_fixed_ps + 300 * TM.dma_ps_per_byte;   /* two bursts */
    b2 = 1 * TM.dma_fixed_ps + 100 * TM.dma_ps_per_byte;
    assert_int_equal(fk[0].wake, t0 + b1);
    fk[0].t = t0 + b1 - 1;
    nic_advance(n);
    assert_int_equal(fk[0].host[0x100], 0);           /* not there yet */
    fk[0].t = t0 + b1;
    nic_advance(n);
    assert_memory_equal(fk[0].host + 0x100, fk[0].sram + 0x5000, 300);
    assert_false(fk[0].irq);
    fk[0].t = t0 + b1 + b2;
    nic_advance(n);
    assert_memory_equal(fk[0].host + 0x400, fk[0].sram + 0x5200, 100);
    assert_true(rd(n, L9_ISR) & L9_ISR_WAKE0);
    assert_true(fk[0].irq);
    /* status write-back: checksum of the block's data */
    assert_int_not_equal(nc_get_be32(fk[0].sram + 0x6004), 0);
    teardown_nics();
}

static void test_dma_host_to_lanai(void **st)
{
    struct nic *n = setup(0);
    uint64_t t0 = 1000, dur;
    (void)st;
    for (int i = 0; i < 64; i++)
        fk[0].host[0x2000 + i] = (uint8_t)(0xF0 ^ i);
    desc(fk[0].sram, 0x7000, NIC_DMA_E2L | NIC_DMA_TERMINAL | NIC_DMA_WAKE, 64, 0x7100,
         HOST_BUS + 0x2000);
    fk[0].t = t0;
    wr(n, L9_PULSE, 0x7000 | NIC_PULSE_E2L);
    dur = TM.dma_fixed_ps + TM.dma_read_ps + 64 * TM.dma_ps_per_byte;   /* reads wait */
    fk[0].t = t0 + dur - 1;
    assert_false(rd(n, L9_ISR) & L9_ISR_WAKE0);
    fk[0].t = t0 + dur;
    assert_true(rd(n, L9_ISR) & L9_ISR_WAKE0);
    assert_memory_equal(fk[0].sram + 0x7100, fk[0].host + 0x2000, 64);
    teardown_nics();
}

static void test_dma_errors(void **st)
{
    struct nic *n = setup(0);
    (void)st;
    /* host address outside host memory */
    desc(fk[0].sram, 0x7000, NIC_DMA_TERMINAL, 16, 0x100, 0x42);
    wr(n, L9_PULSE, 0x7000 | NIC_PULSE_L2E);
    fk[0].t = 100000000;
    assert_true(rd(n, L9_ISR) & L9_ISR_MEM_INT);
    wr(n, L9_ISR, L9_ISR_MEM_INT);
    /* an E2L block given to the L2E engine */
    desc(fk[0].sram, 0x7100, NIC_DMA_E2L | NIC_DMA_TERMINAL, 16, 0x100, HOST_BUS);
    wr(n, L9_PULSE, 0x7100 | NIC_PULSE_L2E);
    assert_true(rd(n, L9_ISR) & L9_ISR_MEM_INT);
    teardown_nics();
}

static void test_link_state(void **st)
{
    struct nic *n = setup(0);
    (void)st;
    nic_set_link(n, false);
    assert_true(rd(n, L9_ISR) & L9_ISR_LINK_DOWN);
    wr(n, L9_ISR, L9_ISR_LINK_DOWN);                  /* a status: stays while down */
    assert_true(rd(n, L9_ISR) & L9_ISR_LINK_DOWN);
    nic_set_link(n, true);
    assert_false(rd(n, L9_ISR) & L9_ISR_LINK_DOWN);
    teardown_nics();
}

static void test_reset_clears_everything(void **st)
{
    struct nic *n = setup(0);
    struct fabric_delivery d = arriving(0, 8, true);
    (void)st;
    wr(n, L9_EIMR, 0xFFFFFFFF);
    wr(n, L9_IT1, 3);
    wr(n, L9_LED, 1);
    nic_receive(n, &d);
    wr(n, L9_ISR, L9_ISR_HOST_SIG);
    assert_true(fk[0].irq);
    fk[0].t = 9000000;
    nic_reset(n);
    assert_false(fk[0].irq);
    assert_int_equal(rd(n, L9_ISR), L9_ISR_SEND);
    assert_int_equal(rd(n, L9_LED), 0);
    assert_int_equal(rd(n, L9_RTC), 0);
    wr(n, L9_RMP, 0x100);
    wr(n, L9_RML, 0x200);
    fk[0].t += 1000000;
    assert_false(rd(n, L9_ISR) & L9_ISR_RECV);        /* the queue was emptied */
    teardown_nics();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reset_state),
        cmocka_unit_test(test_isr_write_one_to_clear_and_signals),
        cmocka_unit_test(test_eimr_drives_interrupt_line),
        cmocka_unit_test(test_interval_timers),
        cmocka_unit_test(test_rtc),
        cmocka_unit_test(test_plain_registers),
        cmocka_unit_test(test_send_engine),
        cmocka_unit_test(test_receive_engine),
        cmocka_unit_test(test_receive_buffer_limit_and_crc),
        cmocka_unit_test(test_receive_queue_waits_for_a_buffer),
        cmocka_unit_test(test_two_nics_through_the_fabric),
        cmocka_unit_test(test_dma_lanai_to_host),
        cmocka_unit_test(test_dma_host_to_lanai),
        cmocka_unit_test(test_dma_errors),
        cmocka_unit_test(test_link_state),
        cmocka_unit_test(test_reset_clears_everything),
    };
    return cmocka_run_group_tests_name("nic", tests, NULL, NULL);
}
