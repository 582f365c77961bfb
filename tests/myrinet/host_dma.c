/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host program of the host-DMA tests (tests/myrinet/dma), against the
 * firmware fw_dma.c. It builds descriptor chains in the NIC's SRAM by PIO,
 * starts them by writing PULSE through the board window, waits for the
 * interrupt (EIMR = WAKE0 | MEM_INT) and checks the data with the seeded
 * pattern (dma_pattern.h) on the far side. Each scenario prints a "kick"
 * line just before its PULSE write and an "irq" line when the interrupt
 * wakes it, so the suite can take the chain's completion time from the
 * two timestamps: PIO write latency + the blocks' PCI time + host.interrupt.
 *
 *   host_dma.so [SEED]
 *
 * Built with -DNEGATIVE it breaks every scenario in its own way (a byte
 * corrupted, a block 8 bytes longer, WAKE on the wrong block, no TERMINAL,
 * a valid address instead of a bad one, a wrong seed, a second PULSE only
 * after the first chain ended, a longer odd block); the suite asserts
 * that each of its checks rejects that run.
 */
#include <stdlib.h>
#include <string.h>

#include "dma_pattern.h"
#include "nicoll/hostif.h"
#include "nicoll/lanai9_regs.h"
#include "nicoll/shared_block.h"

#define DMA_E2L      1u  /* descriptor flags, in the low bits of 'next' */
#define DMA_TERMINAL 2u
#define DMA_WAKE     4u
#define SENTINEL     0xDEADBEEFu /* csum word before the engine writes it */

#ifdef NEGATIVE
#define NEG(bad, good) (bad)
#else
#define NEG(bad, good) (good)
#endif

static uint32_t sb, fbuf, fdesc, seq;
static uint8_t *hbuf;
static uint64_t bus;

static void put(uint32_t off, uint32_t v) { nc_host_pio_write32(off, v); }
static uint32_t get(uint32_t off) { return nc_host_pio_read32(off); }

/* One firmware command; returns RESULT (FIRST in *first). */
static uint32_t fw(uint32_t op, uint32_t off, uint32_t len, uint32_t seed, uint32_t arg,
                   uint32_t *first)
{
    unsigned tries;

    put(sb + 0x104, op);
    put(sb + 0x108, off);
    put(sb + 0x10C, len);
    put(sb + 0x110, seed);
    put(sb + 0x114, arg);
    put(sb + 0x100, ++seq);
    for (tries = 0; tries < 100000 && get(sb + 0x140) != seq; tries++)
        nc_host_compute_ns(1000);
    if (tries == 100000) {
        nc_host_printf("timeout: firmware command %u\n", op);
        nc_host_exit(1);
    }
    if (first)
        *first = get(sb + 0x148);
    return get(sb + 0x144);
}

/* Descriptor i (at fdesc + 32 i) of a chain: next is descriptor 'next'. */
static void desc(unsigned i, unsigned next, uint32_t flags, uint32_t len, uint32_t lar,
                 uint64_t addr)
{
    uint32_t d = fdesc + 32 * i;

    put(d + 0, (fdesc + 32 * next) | flags);
    put(d + 4, SENTINEL);
    put(d + 8, len);
    put(d + 12, lar);
    put(d + 16, (uint32_t)(addr >> 32));
    put(d + 20, (uint32_t)addr);
}

/* The 16-bit ones'-complement checksum the engine writes back (docs/nic.md):
 * the complement of the ones'-complement sum of big-endian 16-bit words. */
static uint32_t csum(uint32_t seed, uint32_t off, uint32_t len)
{
    uint32_t s = 0;

    for (uint32_t i = off; i < off + len; i += 2)
        s += (uint32_t)dma_pattern(seed, i) << 8 |
             (i + 1 < off + len ? dma_pattern(seed, i + 1) : 0);
    while (s >> 16)
        s = (s & 0xFFFF) + (s >> 16);
    return (~s & 0xFFFF) << 16; /* csum[0], then csum[1] = 0 */
}

/* Clear WAKE0 and MEM_INT and wait until this host sees the line low: a
 * line change reaches the host host.interrupt after the board (5 us on
 * P-GM2), so without this the next wait would return at once. */
static void quiet(void)
{
    unsigned tries;

    put(L9_BAR_SPECIAL + L9_ISR, L9_ISR_WAKE0 | L9_ISR_MEM_INT);
    for (tries = 0; tries < 1000 && nc_host_irq_pending(); tries++)
        nc_host_compute_ns(1000);
    if (tries == 1000) {
        nc_host_printf("interrupt line stays high\n");
        nc_host_exit(1);
    }
}

/* Start chain 'first' on an engine from the host, wait for the interrupt. */
static uint32_t kick(const char *name, unsigned first, uint32_t engine)
{
    uint32_t isr;
    bool irq;

    nc_host_printf("kick %s\n", name);
    put(L9_BAR_SPECIAL + L9_PULSE, (fdesc + 32 * first) | engine);
    irq = nc_host_wait_irq(2000000);
    nc_host_printf("irq %s %s\n", name, irq ? "raised" : "timeout");
    isr = get(L9_BAR_SPECIAL + L9_ISR);
    quiet();
    return isr & (L9_ISR_WAKE0 | L9_ISR_MEM_INT);
}

static void fill_host(uint32_t off, uint32_t seed, uint32_t len)
{
    for (uint32_t i = 0; i < len; i++)
        hbuf[off + i] = dma_pattern(seed, i);
}

static uint32_t check_host(uint32_t off, uint32_t seed, uint32_t len)
{
    uint32_t bad = 0;

    for (uint32_t i = 0; i < len; i++)
        bad += hbuf[off + i] != dma_pattern(seed, i);
    return bad;
}

int main(int argc, char **argv)
{
    uint32_t seed = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 1, isr, bad, first;

    sb = NC_SB_ADDR(get(L9_BAR_EEPROM + L9_EE_SRAM_SIZE));
    fbuf = get(sb + 0x180);
    fdesc = get(sb + 0x184);
    seq = get(sb + 0x140);
    hbuf = nc_host_dma_alloc(65536, &bus);
    if (!hbuf) {
        nc_host_printf("no host memory\n");
        return 1;
    }
    nc_host_printf("seed %u bus 0x%llx\n", seed, (unsigned long long)bus);
    put(L9_BAR_SPECIAL + L9_EIMR, L9_ISR_WAKE0 | L9_ISR_MEM_INT);
    put(L9_BAR_CONTROL, L9_CTL_INT_ENABLE);

    /* 1. host -> LANai, one block of 4096 B (16 bursts of 256 B) */
    fill_host(0, seed, 4096);
    (void)NEG(hbuf[100] ^= 1, 0);
    desc(0, 0, DMA_E2L | DMA_TERMINAL | DMA_WAKE, NEG(4104, 4096), fbuf, bus);
    isr = kick("e2l", 0, 4);
    bad = fw(2, 0, 4096, seed, 0, &first);
    nc_host_printf("e2l isr=0x%x bad=%u csum=%s\n", isr, bad,
                   get(fdesc + 4) == csum(seed, 0, 4096) ? "ok" : "wrong");

    /* 2. LANai -> host, one block of 4096 B */
    fw(1, 8192, 4096, NEG(seed, seed + 1), 0, NULL);
    memset(hbuf + 8192, 0, 4096);
    desc(0, 0, DMA_TERMINAL | DMA_WAKE, NEG(4104, 4096), fbuf + 8192, bus + 8192);
    isr = kick("l2e", 0, 2);
    bad = check_host(8192, seed + 1, 4096);
    nc_host_printf("l2e isr=0x%x bad=%u csum=%s\n", isr, bad,
                   get(fdesc + 4) == csum(seed + 1, 0, 4096) ? "ok" : "wrong");

    /* 3. host -> LANai, a chain of three blocks (256, 1024, 2048 B: 1, 4
     * and 8 bursts) of one contiguous pattern; WAKE and TERMINAL on the
     * last only */
    fill_host(16384, seed + 2, 3328);
    (void)NEG(hbuf[16384 + 3000] ^= 0x80, 0);
    desc(1, 2, DMA_E2L | NEG(DMA_WAKE, 0), 256, fbuf + 16384, bus + 16384);
    desc(2, 3, DMA_E2L, 1024, fbuf + 16384 + 256, bus + 16384 + 256);
    desc(3, 0, DMA_E2L | DMA_TERMINAL | DMA_WAKE, 2048, fbuf + 16384 + 1280,
         bus + 16384 + 1280);
    isr = kick("chain", 1, 4);
    nc_host_compute_ns(50000); /* let a chain that did not stop finish */
    bad = fw(2, 16384, 3328, seed + 2, 0, &first);
    nc_host_printf("chain isr=0x%x bad=%u csums=%s\n", isr, bad,
                   get(fdesc + 32 + 4) == csum(seed + 2, 0, 256) &&
                   get(fdesc + 64 + 4) == csum(seed + 2, 256, 1024) &&
                   get(fdesc + 96 + 4) == csum(seed + 2, 1280, 2048) ? "ok" : "wrong");

    /* 4. WAKE on the first block of a three-block LANai -> host chain: the
     * interrupt comes when that block completes, the chain goes on */
    fw(1, 24576, 3072, NEG(seed + 30, seed + 3), 0, NULL);
    memset(hbuf + 24576, 0, 3072);
    desc(4, 5, NEG(0, DMA_WAKE), 1024, fbuf + 24576, bus + 24576);
    desc(5, 6, 0, 1024, fbuf + 24576 + 1024, bus + 24576 + 1024);
    desc(6, 0, DMA_TERMINAL | NEG(DMA_WAKE, 0), 1024, fbuf + 24576 + 2048, bus + 24576 + 2048);
    isr = kick("wakefirst", 4, 2);
    nc_host_compute_ns(50000);
    bad = check_host(24576, seed + 3, 3072);
    nc_host_printf("wakefirst isr=0x%x bad=%u csums=%s\n", isr, bad,
                   get(fdesc + 128 + 4) == csum(seed + 3, 0, 1024) &&
                   get(fdesc + 160 + 4) == csum(seed + 3, 1024, 1024) &&
                   get(fdesc + 192 + 4) == csum(seed + 3, 2048, 1024) ? "ok" : "wrong");

    /* 5. TERMINAL in the middle: blocks 7 and 8 run, block 9 (valid, linked
     * from 8) must not: its SRAM target keeps its old pattern, its csum its
     * sentinel */
    fill_host(32768, seed + 4, 1536);
    (void)NEG(hbuf[32768 + 7] ^= 4, 0);
    fw(1, 40960, 512, seed + 5, 0, NULL);            /* block 9's target, "old" */
    desc(7, 8, DMA_E2L, NEG(520, 512), fbuf + 32768, bus + 32768);
    desc(8, 9, DMA_E2L | NEG(0, DMA_TERMINAL) | DMA_WAKE, 512, fbuf + 32768 + 512,
         bus + 32768 + 512);
    desc(9, 0, DMA_E2L | DMA_TERMINAL, 512, fbuf + 40960, bus + 32768 + 1024);
    isr = kick("terminal", 7, 4);
    nc_host_compute_ns(50000);
    bad = fw(2, 32768, 1024, seed + 4, 0, &first);
    nc_host_printf("terminal isr=0x%x bad=%u after_untouched=%s csum_after=%s\n", isr, bad,
                   fw(2, 40960, 512, seed + 5, 0, &first) == 0 ? "yes" : "no",
                   get(fdesc + 288 + 4) == SENTINEL ? "unwritten" : "written");

    /* 6. a block whose host address is not host memory (bus addresses start
     * at 0x1_0000_0000; 0x1000 is below), linked to a valid WAKE block:
     * MEM_INT, the data does not move, the chain stops */
    fw(1, 49152, 512, seed + 6, 0, NULL);
    memset(hbuf + 49152, 0, 1024);
    desc(10, 11, DMA_WAKE, 512, fbuf + 49152, NEG(bus + 49152, 0x1000));
    desc(11, 0, DMA_TERMINAL | DMA_WAKE, 512, fbuf + 49152, bus + 49152 + 512);
    isr = kick("badaddr", 10, 2);
    nc_host_compute_ns(50000);
    nc_host_printf("badaddr isr=0x%x host_untouched=%s csums=%s\n", isr,
                   check_host(49152, 0, 0) == 0 && hbuf[49152] == 0 && hbuf[49152 + 511] == 0 &&
                   hbuf[49152 + 512] == 0 ? "yes" : "no",
                   get(fdesc + 320 + 4) == SENTINEL && get(fdesc + 352 + 4) == SENTINEL
                   ? "unwritten" : "written");

    /* 7. the firmware starts a chain itself (PULSE from the LANai) */
    fill_host(53248, seed + 7, 2048);
    desc(12, 0, DMA_E2L | DMA_TERMINAL | DMA_WAKE, 2048, fbuf + 53248, bus + 53248);
    isr = fw(3, 0, 0, 0, (fdesc + 32 * 12) | NEG(2, 4), NULL); /* NEG: wrong engine */
    quiet();
    bad = fw(2, 53248, 2048, NEG(seed + 8, seed + 7), 0, &first);
    nc_host_printf("lanai-kick isr=0x%x bad=%u\n", isr & (L9_ISR_WAKE0 | L9_ISR_MEM_INT), bad);

    /* 8. a PULSE while the engine is busy is ignored: block 14 (valid,
     * would overwrite an "old" pattern) is named while block 13 runs */
    fill_host(57344, seed + 9, 4096);
    fill_host(61440, seed + 11, 512);
    fw(1, 61440, 512, seed + 10, 0, NULL);
    desc(13, 0, DMA_E2L | DMA_TERMINAL | DMA_WAKE, 4096, fbuf + 57344, bus + 57344);
    desc(14, 0, DMA_E2L | DMA_TERMINAL, 512, fbuf + 61440, bus + 61440);
    nc_host_printf("kick busy\n");
    put(L9_BAR_SPECIAL + L9_PULSE, (fdesc + 32 * 13) | 4);
#ifdef NEGATIVE
    nc_host_wait_irq(2000000);  /* wrongly: the engine is idle again */
#endif
    put(L9_BAR_SPECIAL + L9_PULSE, (fdesc + 32 * 14) | 4);
    nc_host_printf("irq busy %s\n", nc_host_wait_irq(2000000) ? "raised" : "timeout");
    quiet();
    nc_host_compute_ns(50000);
    bad = fw(2, 57344, 4096, seed + 9, 0, &first);
    nc_host_printf("busy bad=%u second_ignored=%s\n", bad,
                   fw(2, 61440, 512, seed + 10, 0, &first) == 0 &&
                   get(fdesc + 32 * 14 + 4) == SENTINEL ? "yes" : "no");

    /* 9. a length that is not a multiple of the bus word: 1001 B LANai ->
     * host (4 bursts, the last of 233 B) */
    memset(hbuf + 62464, 0, 1024);
    desc(15, 0, DMA_TERMINAL | DMA_WAKE, NEG(1009, 1001), fbuf + 8192, bus + 62464);
    isr = kick("odd", 15, 2);
    bad = check_host(62464, NEG(seed, seed + 1), 1001);
    nc_host_printf("odd isr=0x%x bad=%u tail_untouched=%s\n", isr, bad,
                   hbuf[62464 + 1001] == 0 ? "yes" : "no");
    return 0;
}
