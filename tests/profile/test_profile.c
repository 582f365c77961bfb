/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tests of lanai-emu/profile: every shipped profile parses and survives a
 * print/parse round trip; unit conversions; every error case with its
 * file:line message; node classes; the timing helpers. Run from the
 * repository root (tests/profile/suite does).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profile.h"
#include "subnet_mgr.h"         /* the management entity's defaults (SM_*) */

#define PROFILES_DIR "lanai-emu/profiles"

/* A complete, valid profile with full key names, one per line (line i+1). */
static const char *const good_lines[] = {
    "cluster.name = T",
    "cluster.nodes = 16",
    "nic.clock = 133 MHz",
    "nic.sram = 2 MB",
    "pci.width = 64 bit",
    "pci.clock = 66 MHz",
    "pci.transaction = 650 ns",
    "pci.dma_read = 620 ns",
    "pci.max_burst = 256 B",
    "pci.pio_read = 1 us",
    "pci.pio_write = 60 ns",
    "pci.pio_write_latency = 250 ns",
    "net.link_rate = 250 MB/s",
    "net.link_latency = 100 ns",
    "net.switch_latency = 300 ns",
    "net.switch_ports = 16",
    "host.clock = 700 MHz",
    "host.post = 500 ns",
    "host.recv = 500 ns",
    "host.poll = 50 ns",
    "host.copy_fixed = 100 ns",
    "host.copy_rate = 3 ns/B",
    "host.interrupt = 5 us",
    "host.signal = 8 us",
    NULL,
};

/* The good profile with the line of 'key' replaced by 'line' (NULL: the
 * key's line is dropped), then 'extra' appended. Caller frees. */
static char *variant(const char *key, const char *line, const char *extra)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    size_t kl = key ? strlen(key) : 0;
    bool found = false;

    for (const char *const *l = good_lines; *l; l++) {
        if (key && !strncmp(*l, key, kl) && (*l)[kl] == ' ') {
            found = true;
            if (line)
                fprintf(f, "%s\n", line);
        } else {
            fprintf(f, "%s\n", *l);
        }
    }
    if (key && !found && line)      /* an optional key the good profile omits */
        fprintf(f, "%s\n", line);
    if (extra)
        fputs(extra, f);
    fclose(f);
    return buf;
}

static int parse_text(struct profile *p, const char *text, char *err, size_t errlen)
{
    return profile_parse(p, "t.profile", text, strlen(text), err, errlen);
}

static char *print_profile(const struct profile *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    profile_write(p, f);
    fclose(f);
    return buf;
}

/* ---- shipped profiles ---------------------------------------------------- */

static int profile_files(char names[][320], int max)
{
    DIR *d = opendir(PROFILES_DIR);
    struct dirent *e;
    int n = 0;

    assert_non_null(d);
    while ((e = readdir(d)) != NULL && n < max) {
        size_t l = strlen(e->d_name);
        if (l > 8 && !strcmp(e->d_name + l - 8, ".profile"))
            snprintf(names[n++], 320, "%s/%s", PROFILES_DIR, e->d_name);
    }
    closedir(d);
    return n;
}

static void test_shipped_profiles_parse(void **state)
{
    static struct profile p;
    char names[32][320], err[512];
    int n = profile_files(names, 32);
    (void)state;

    assert_true(n >= 5);
    for (int i = 0; i < n; i++)
        if (profile_load(&p, names[i], err, sizeof err))
            fail_msg("%s", err);
}

/* print -> parse -> print gives the same text and the same numbers */
static void test_shipped_round_trip(void **state)
{
    static struct profile p, q;
    char names[32][320], err[512];
    int n = profile_files(names, 32);
    (void)state;

    for (int i = 0; i < n; i++) {
        char *a, *b;
        assert_int_equal(profile_load(&p, names[i], err, sizeof err), 0);
        a = print_profile(&p);
        if (parse_text(&q, a, err, sizeof err))
            fail_msg("%s: normalised form does not parse: %s", names[i], err);
        b = print_profile(&q);
        assert_string_equal(a, b);
        assert_memory_equal(&p.base, &q.base, sizeof p.base);
        assert_string_equal(p.name, q.name);
        assert_true(p.nodes == q.nodes && p.link_ps_per_byte == q.link_ps_per_byte &&
                    p.link_latency_ps == q.link_latency_ps &&
                    p.switch_latency_ps == q.switch_latency_ps &&
                    p.switch_ports == q.switch_ports);
        assert_true(p.mcast_entries == q.mcast_entries &&
                    p.switch_agent_ps == q.switch_agent_ps &&
                    p.mcast_buffer == q.mcast_buffer &&
                    p.sm_timeout_ps == q.sm_timeout_ps &&
                    p.sm_outstanding == q.sm_outstanding &&
                    p.sm_request_ps == q.sm_request_ps && p.sm_set_ps == q.sm_set_ps &&
                    p.sm_answer_ps == q.sm_answer_ps && p.sm_groups == q.sm_groups);
        assert_int_equal(p.nclasses, q.nclasses);
        for (unsigned c = 0; c < p.nclasses; c++) {
            assert_memory_equal(&p.cls[c].p, &q.cls[c].p, sizeof p.cls[c].p);
            assert_true(p.cls[c].set_mask == q.cls[c].set_mask);
        }
        free(a);
        free(b);
    }
}

/* The numbers the papers give, as the emulator will see them. */
static void test_shipped_values(void **state)
{
    static struct profile p;
    char err[512];
    (void)state;

    assert_int_equal(profile_load(&p, PROFILES_DIR "/p-gm2.profile", err, sizeof err), 0);
    assert_int_equal(p.nodes, 16);
    assert_int_equal(p.base.nic_clock_hz, 133000000);
    assert_int_equal(p.base.pci_width_bits, 64);
    assert_int_equal(p.base.pci_clock_hz, 66000000);
    assert_int_equal(p.link_ps_per_byte, 4000);          /* 250 MB/s */
    assert_int_equal(p.base.host_clock_hz, 700000000);

    assert_int_equal(profile_load(&p, PROFILES_DIR "/p-gm1-l43.profile", err, sizeof err), 0);
    assert_int_equal(p.base.nic_clock_hz, 33000000);
    assert_int_equal(p.base.pci_width_bits, 32);
    assert_int_equal(p.link_ps_per_byte, 6250);          /* 1.28 Gb/s */
    assert_int_equal(p.switch_ports, 16);

    assert_int_equal(profile_load(&p, PROFILES_DIR "/p-gm1-l72.profile", err, sizeof err), 0);
    assert_int_equal(p.base.nic_clock_hz, 66000000);
    assert_int_equal(p.nodes, 8);
    assert_int_equal(p.switch_ports, 8);

    assert_int_equal(profile_load(&p, PROFILES_DIR "/p-vm.profile", err, sizeof err), 0);
    assert_int_equal(p.base.nic_sram_bytes, 2 * 1024 * 1024);
    assert_int_equal(p.base.host_clock_hz, 1000000000);
    assert_int_equal(p.switch_ports, 32);

    /* P-IB: seed 003's testbed (docs/profiles.md, "P-IB") */
    assert_int_equal(profile_load(&p, PROFILES_DIR "/p-ib.profile", err, sizeof err), 0);
    assert_string_equal(p.name, "P-IB");
    assert_int_equal(p.nodes, 32);
    assert_int_equal(p.base.host_clock_hz, 2660000000ull);
    assert_int_equal(p.base.host_cpus, 2);
    assert_int_equal(p.base.pci_width_bits, 64);
    assert_int_equal(p.base.pci_clock_hz, 133000000);      /* PCI-X 133 */
    assert_int_equal(p.base.nic_clock_hz, 133000000);      /* the LANai 9, not the HCA */
    assert_int_equal(p.link_ps_per_byte, 1000);            /* 4X: 8 Gb/s of data */
    assert_int_equal(p.switch_ports, 32);                  /* one switch holds all 32 */
    assert_int_equal(p.sm_timeout_ps, 10000000000ull);      /* OpenSM's 10 ms time-out */
    assert_true(p.sm_groups <= p.mcast_entries);
    /* a 256-byte burst: 83 ns + 32 clocks at 133 MHz (240.602 ns), +450 ns read */
    assert_int_equal(profile_dma_ps(&p.base, false, 256), 83000 + 240602);
    assert_int_equal(profile_dma_ps(&p.base, true, 256), 83000 + 450000 + 240602);
    assert_int_equal(profile_lookahead_ps(&p), 83000);     /* the PCI transaction */
}

/* P-GM164 (the GM 1.6.4 anchor, docs/profiles.md): the two boards differ
 * only in the LANai clock; the DMA ceilings the benchmark prints follow from
 * the PCI keys: a 256-byte read burst is 167 + 450 ns + 32 clocks at 66 MHz
 * (484.848 ns), a write burst 167 ns + the same 32 clocks. */
static void test_gm164_values(void **state)
{
    static struct profile b, c;
    char err[512];
    (void)state;

    assert_int_equal(profile_load(&b, PROFILES_DIR "/p-gm164-pci64b.profile", err, sizeof err), 0);
    assert_int_equal(profile_load(&c, PROFILES_DIR "/p-gm164-pci64c.profile", err, sizeof err), 0);
    assert_int_equal(b.nodes, 2);
    assert_int_equal(b.base.nic_clock_hz, 133000000);
    assert_int_equal(c.base.nic_clock_hz, 200000000);
    assert_int_equal(b.base.host_clock_hz, 2000000000);
    assert_int_equal(b.base.pci_clock_hz, 66000000);
    assert_int_equal(b.base.pci_max_burst, 256);
    assert_int_equal(profile_dma_ps(&b.base, true, 256), 167000 + 450000 + 484848);
    assert_int_equal(profile_dma_ps(&b.base, false, 256), 167000 + 484848);
    assert_int_equal(profile_dma_ps(&b.base, true, 4096), 16 * (167000 + 450000) + 7757576);
    /* everything but the NIC clock and the name is the same */
    c.base.nic_clock_hz = b.base.nic_clock_hz;
    assert_memory_equal(&b.base, &c.base, sizeof b.base);
}

/* P-AB: interlaced 700 MHz / 1 GHz nodes, four LANai 9.2 cards */
static void test_node_classes(void **state)
{
    static struct profile p;
    char err[512];
    (void)state;

    assert_int_equal(profile_load(&p, PROFILES_DIR "/p-ab.profile", err, sizeof err), 0);
    assert_int_equal(p.nodes, 32);
    assert_int_equal(p.nclasses, 2);
    for (unsigned n = 0; n < 32; n += 2) {
        assert_int_equal(profile_node(&p, n)->host_clock_hz, 700000000);
        assert_int_equal(profile_node(&p, n)->pci_width_bits, 64);
    }
    for (unsigned n = 1; n < 32; n += 2) {
        const struct profile_params *pp = profile_node(&p, n);
        assert_int_equal(pp->host_clock_hz, 1000000000);
        assert_int_equal(pp->pci_width_bits, 32);
        assert_int_equal(pp->nic_clock_hz, n >= 25 ? 200000000 : 133000000);
        /* keys the class does not set come from the base */
        assert_int_equal(pp->pci_max_burst, 256);
        assert_int_equal(pp->nic_sram_bytes, 2 * 1024 * 1024);
    }
    assert_ptr_equal(profile_node(&p, 1000), &p.base);
}

/* node sets print in a normal form that parses back to the same set */
static void test_nodeset_normal_form(void **state)
{
    static struct profile p, q;
    char err[512];
    char *t = variant("cluster.nodes", "cluster.nodes = 64",
                      "[nodes 3-3/5, 10-19/4, 40-41, 50]\nhost.clock = 1 GHz\n");
    char *a, *b;
    (void)state;

    assert_int_equal(parse_text(&p, t, err, sizeof err), 0);
    a = print_profile(&p);
    assert_non_null(strstr(a, "[nodes 3, 10-18/4, 40-41, 50]\n"));
    assert_int_equal(parse_text(&q, a, err, sizeof err), 0);
    b = print_profile(&q);
    assert_string_equal(a, b);
    for (unsigned n = 0; n < 64; n++) {
        bool in = n == 3 || n == 10 || n == 14 || n == 18 || n == 40 || n == 41 || n == 50;
        assert_int_equal(profile_node(&p, n)->host_clock_hz, in ? 1000000000 : 700000000);
    }
    free(a);
    free(b);
    free(t);
}

/* ---- format --------------------------------------------------------------- */

static void test_sections_optional(void **state)
{
    static struct profile a, b;
    char err[512];
    char *flat = variant(NULL, NULL, NULL);
    const char *sect =
        "# the same profile, with sections\n"
        "[cluster]\nname = T\nnodes = 16\n"
        "[nic]\r\nclock = 133MHz   # no blank before the unit, CRLF line end\r\n"
        "sram = 2048 KB\n"
        "[pci]\nwidth = 64\nclock = 0.066 GHz\ntransaction = 0.65 us\ndma_read = 620 ns\n"
        "max_burst = 256 B\npio_read = 1000 ns\npio_write = 60 ns\n"
        "pio_write_latency = 250 ns\n"
        "[net]\nlink_rate = 2 Gb/s\nlink_latency = 100 ns\nswitch_latency = 300 ns\n"
        "switch_ports = 16\n"
        "[host]\nclock = 700 MHz\npost = 500 ns\nrecv = 500 ns\npoll = 50 ns\n"
        "copy_fixed = 100 ns\ncopy_rate = 3000 ps/B\ninterrupt = 5 us\n"
        "net.link_latency_is_not_here = 1\n";
    (void)state;

    assert_int_equal(parse_text(&a, flat, err, sizeof err), 0);
    /* the last line above is deliberately wrong: an unknown key, line 30 */
    assert_int_equal(parse_text(&b, sect, err, sizeof err), -1);
    assert_string_equal(err, "t.profile:30: unknown key 'net.link_latency_is_not_here'");
    {
        char *fixed = strdup(sect);
        char *bad = strstr(fixed, "net.link_latency_is_not_here = 1\n");
        strcpy(bad, "signal = 8 us\n");
        if (parse_text(&b, fixed, err, sizeof err))
            fail_msg("%s", err);
        free(fixed);
    }
    assert_memory_equal(&a.base, &b.base, sizeof a.base);
    assert_int_equal(a.link_ps_per_byte, b.link_ps_per_byte);
    free(flat);
}

static void test_optional_defaults(void **state)
{
    static struct profile p;
    char err[512];
    char *t = variant(NULL, NULL, NULL);
    (void)state;

    assert_int_equal(parse_text(&p, t, err, sizeof err), 0);
    assert_int_equal(p.base.nic_cpi_micro, 1000000);
    assert_int_equal(p.base.host_cpus, 1);
    assert_int_equal(p.base.host_compute_scale_micro, 1000000);
    free(t);
}

/* The management entity's keys default to what the entity itself uses
 * (subnet_mgr.h), so a profile that leaves them out runs the entity as
 * sm_default_params() sets it up. */
static void test_sm_defaults(void **state)
{
    static struct profile p;
    char err[512];
    char *t = variant(NULL, NULL, NULL);
    (void)state;

    assert_int_equal(parse_text(&p, t, err, sizeof err), 0);
    assert_int_equal(p.sm_timeout_ps, SM_TIMEOUT_PS);
    assert_int_equal(p.sm_outstanding, SM_MAX_OUTSTANDING);
    assert_int_equal(p.sm_request_ps, SM_REQUEST_PS);
    assert_int_equal(p.sm_set_ps, SM_SET_PS);
    assert_int_equal(p.sm_answer_ps, SM_ANSWER_PS);
    assert_int_equal(p.sm_groups, SM_GROUPS);
    assert_int_equal(p.sm_timeout_ps, 10000000000ull);          /* 10 ms */
    assert_int_equal(p.sm_groups, p.mcast_entries);
    free(t);
    /* every id a switch's table holds: accepted */
    t = variant("net.sm_groups", "net.sm_groups = 16382", "net.mcast_entries = 16382\n");
    if (parse_text(&p, t, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(p.sm_groups, 16382);
    free(t);
}

/* ---- units ---------------------------------------------------------------- */

struct conv { const char *line; size_t off; bool cluster; uint64_t want; };

#define PP(f) offsetof(struct profile_params, f), false
#define PC(f) offsetof(struct profile, f), true

static const struct conv convs[] = {
    { "nic.clock = 133 MHz",      PP(nic_clock_hz), 133000000 },
    { "nic.clock = 0.133 GHz",    PP(nic_clock_hz), 133000000 },
    { "nic.clock = 133000 kHz",   PP(nic_clock_hz), 133000000 },
    { "nic.clock = 33333333 Hz",  PP(nic_clock_hz), 33333333 },
    { "nic.clock = 33.333333MHz", PP(nic_clock_hz), 33333333 },
    { "nic.sram = 2 MB",          PP(nic_sram_bytes), 2097152 },
    { "nic.sram = 2 MiB",         PP(nic_sram_bytes), 2097152 },
    { "nic.sram = 2048 KB",       PP(nic_sram_bytes), 2097152 },
    { "nic.sram = 64 KiB",        PP(nic_sram_bytes), 65536 },
    { "nic.sram = 1048576 B",     PP(nic_sram_bytes), 1048576 },
    { "nic.cpi = 1.5",            PP(nic_cpi_micro), 1500000 },
    { "nic.cpi = .25",            PP(nic_cpi_micro), 250000 },
    { "pci.width = 32",           PP(pci_width_bits), 32 },
    { "pci.width = 64 bits",      PP(pci_width_bits), 64 },
    { "pci.transaction = 1.5 us", PP(pci_transaction_ps), 1500000 },
    { "pci.transaction = 1.5 \xc2\xb5s", PP(pci_transaction_ps), 1500000 },
    { "pci.transaction = 0.001 ms", PP(pci_transaction_ps), 1000000 },
    { "pci.transaction = 2500 ps", PP(pci_transaction_ps), 2500 },
    { "pci.transaction = 0.0000005 s", PP(pci_transaction_ps), 500000 },
    { "pci.transaction = 1.0004 ns", PP(pci_transaction_ps), 1000 },   /* rounds to ps */
    { "pci.transaction = 1.0005 ns", PP(pci_transaction_ps), 1001 },   /* halves up */
    { "pci.dma_read = 0 ns",      PP(pci_dma_read_ps), 0 },
    { "net.link_rate = 250 MB/s", PC(link_ps_per_byte), 4000 },
    { "net.link_rate = 2 Gb/s",   PC(link_ps_per_byte), 4000 },
    { "net.link_rate = 2000 Mb/s", PC(link_ps_per_byte), 4000 },
    { "net.link_rate = 2 Gbit/s", PC(link_ps_per_byte), 4000 },
    { "net.link_rate = 1.28 Gb/s", PC(link_ps_per_byte), 6250 },
    { "net.link_rate = 160 MB/s", PC(link_ps_per_byte), 6250 },
    { "net.link_rate = 132 MB/s", PC(link_ps_per_byte), 7576 },        /* 7575.76 */
    { "net.link_rate = 4 ns/B",   PC(link_ps_per_byte), 4000 },
    { "net.link_rate = 6250 ps/B", PC(link_ps_per_byte), 6250 },
    { "net.link_rate = 0.25 GB/s", PC(link_ps_per_byte), 4000 },
    { "host.copy_rate = 2.5 ns/B", PP(host_copy_ps_per_byte), 2500 },
    { "host.copy_rate = 400 MB/s", PP(host_copy_ps_per_byte), 2500 },
    { "host.clock = 1 GHz",       PP(host_clock_hz), 1000000000 },
    { "host.interrupt = 10 ms",   PP(host_interrupt_ps), 10000000000ull },
    { "host.compute_scale = 0.5", PP(host_compute_scale_micro), 500000 },
    { "cluster.nodes = 4096",     PC(nodes), 4096 },
    { "net.sm_timeout = 10 ms",   PC(sm_timeout_ps), 10000000000ull },
    { "net.sm_timeout = 0.2 s",   PC(sm_timeout_ps), 200000000000ull },
    { "net.sm_outstanding = 64",  PC(sm_outstanding), 64 },
    { "net.sm_request = 20 us",   PC(sm_request_ps), 20000000 },
    { "net.sm_set = 0 ns",        PC(sm_set_ps), 0 },
    { "net.sm_answer = 1.5 us",   PC(sm_answer_ps), 1500000 },
    { "net.sm_groups = 8",        PC(sm_groups), 8 },
};

static void test_unit_conversions(void **state)
{
    static struct profile p;
    char err[512];
    (void)state;

    for (size_t i = 0; i < sizeof convs / sizeof convs[0]; i++) {
        char key[64];
        char *t;
        uint64_t got;
        sscanf(convs[i].line, "%63s", key);
        t = variant(key, convs[i].line, NULL);
        if (parse_text(&p, t, err, sizeof err))
            fail_msg("'%s': %s", convs[i].line, err);
        got = *(const uint64_t *)((const char *)(convs[i].cluster ? (void *)&p : (void *)&p.base)
                                  + convs[i].off);
        if (got != convs[i].want)
            fail_msg("'%s' gave %llu, want %llu", convs[i].line, (unsigned long long)got,
                     (unsigned long long)convs[i].want);
        free(t);
    }
}

/* ---- errors --------------------------------------------------------------- */

struct bad {
    const char *what;
    const char *key;      /* line replaced (NULL: none) */
    const char *line;     /* replacement (NULL: drop the key) */
    const char *extra;    /* appended text */
    const char *want;     /* exact error message */
};

/* good_lines has 24 lines: a replaced key keeps its line number, appended
 * text starts on line 25. */
static const struct bad bads[] = {
    { "unknown key", NULL, NULL, "nic.clok = 1 MHz\n",
      "t.profile:25: unknown key 'nic.clok'" },
    { "duplicate key", NULL, NULL, "nic.clock = 66 MHz\n",
      "t.profile:25: duplicate key 'nic.clock' (first set on line 3)" },
    { "bad unit", "nic.clock", "nic.clock = 133 Mhz", NULL,
      "t.profile:3: key 'nic.clock': bad unit 'Mhz', expected a frequency (Hz, kHz, MHz, GHz)" },
    { "unit of another dimension", "pci.transaction", "pci.transaction = 650 MHz", NULL,
      "t.profile:7: key 'pci.transaction': bad unit 'MHz', expected a time (ps, ns, us, ms, s)" },
    { "missing unit", "host.post", "host.post = 500", NULL,
      "t.profile:18: key 'host.post': '500' needs a unit: a time (ps, ns, us, ms, s)" },
    { "bytes are not bits", "net.link_rate", "net.link_rate = 250 Mb", NULL,
      "t.profile:13: key 'net.link_rate': bad unit 'Mb', expected a time per byte (ps/B, ns/B, "
      "us/B) or a rate (B/s, KB/s, MB/s, GB/s, b/s, Mb/s, Gb/s)" },
    { "out of range, high", "nic.clock", "nic.clock = 5 GHz", NULL,
      "t.profile:3: key 'nic.clock': '5 GHz' is out of range (1 MHz .. 1 GHz)" },
    { "out of range, low", "nic.clock", "nic.clock = 133 kHz", NULL,
      "t.profile:3: key 'nic.clock': '133 kHz' is out of range (1 MHz .. 1 GHz)" },
    { "out of range, rate", "net.link_rate", "net.link_rate = 100 GB/s", NULL,
      "t.profile:13: key 'net.link_rate': '100 GB/s' is out of range "
      "(0.1 ns/B .. 1000 ns/B)" },
    { "zero rate", "net.link_rate", "net.link_rate = 0 MB/s", NULL,
      "t.profile:13: key 'net.link_rate': a rate of zero never sends a byte" },
    { "zero where time must pass", "host.poll", "host.poll = 0 ns", NULL,
      "t.profile:20: key 'host.poll': '0 ns' is out of range (1 ns .. 1 ms)" },
    { "negative", "host.recv", "host.recv = -5 ns", NULL,
      "t.profile:19: key 'host.recv': '-5 ns': values carry no sign" },
    { "not a number", "host.recv", "host.recv = fast", NULL,
      "t.profile:19: key 'host.recv': 'fast' is not a number, expected a time (ps, ns, us, ms, s)" },
    { "trailing dot", "host.recv", "host.recv = 5. ns", NULL,
      "t.profile:19: key 'host.recv': '5. ns' is not a number, expected a time (ps, ns, us, ms, s)" },
    { "too many digits", "host.recv", "host.recv = 1234567890123456789 ps", NULL,
      "t.profile:19: key 'host.recv': number '1234567890123456789 ps' has too many digits" },
    { "too large", "host.recv", "host.recv = 999999999 s", NULL,
      "t.profile:19: key 'host.recv': '999999999 s' is too large" },
    { "unit on a count", "cluster.nodes", "cluster.nodes = 16 nodes", NULL,
      "t.profile:2: key 'cluster.nodes': unexpected unit 'nodes', expected a whole number "
      "without a unit" },
    { "fraction in a count", "cluster.nodes", "cluster.nodes = 16.5", NULL,
      "t.profile:2: key 'cluster.nodes': '16.5' is not a whole number" },
    { "too many nodes", "cluster.nodes", "cluster.nodes = 5000", NULL,
      "t.profile:2: key 'cluster.nodes': '5000' is out of range (1 .. 4096)" },
    { "PCI width", "pci.width", "pci.width = 48 bit", NULL,
      "t.profile:5: key 'pci.width': '48 bit': PCI is 32 or 64 bits wide" },
    { "switch ports", "net.switch_ports", "net.switch_ports = 12", NULL,
      "t.profile:16: key 'net.switch_ports': '12': Myrinet crossbars have 8, 16 or 32 ports" },
    { "SRAM granularity", "nic.sram", "nic.sram = 1001 KB", NULL,
      "t.profile:4: key 'nic.sram': '1001 KB': not a multiple of 4 KB" },
    { "burst not whole words", "pci.max_burst", "pci.max_burst = 260 B", NULL,
      "t.profile:9: key 'pci.max_burst': 260 B is not a multiple of the 64-bit bus word" },
    { "ratio with a unit", NULL, NULL, "nic.cpi = 2 x\n",
      "t.profile:25: key 'nic.cpi': unexpected unit 'x', expected a number without a unit" },
    { "missing key", "pci.clock", NULL, NULL,
      "t.profile: missing key 'pci.clock' (PCI bus clock: a frequency (Hz, kHz, MHz, GHz))" },
    { "no '='", NULL, NULL, "nic.clock 133 MHz\n",
      "t.profile:25: expected 'key = value', got 'nic.clock 133 MHz'" },
    { "no value", "nic.clock", "nic.clock =   # comment", NULL,
      "t.profile:3: key 'nic.clock' has no value" },
    { "no key", NULL, NULL, " = 5 ns\n",
      "t.profile:25: missing key name before '='" },
    { "bad key name", NULL, NULL, "nic clock = 5 MHz\n",
      "t.profile:25: bad key name 'nic clock'" },
    { "bare key outside a section", NULL, NULL, "clock = 5 MHz\n",
      "t.profile:25: key 'clock' outside a section: write section.clock or put it under a "
      "[section]" },
    { "unknown section", NULL, NULL, "[switch]\n",
      "t.profile:25: unknown section '[switch]' (cluster, nic, pci, net, host or nodes SET "
      "expected)" },
    { "unclosed section", NULL, NULL, "[nic\n",
      "t.profile:25: section header without a closing ']'" },
    { "bad name", "cluster.name", "cluster.name = P GM2", NULL,
      "t.profile:1: key 'cluster.name': 'P GM2' is not a name (letters, digits, '.', '-', '_')" },
    { "name too long", "cluster.name", "cluster.name = ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456", NULL,
      "t.profile:1: key 'cluster.name': name longer than 31 characters" },
    { "cluster key in [nodes]", NULL, NULL, "[nodes 1]\nnet.link_rate = 2 Gb/s\n",
      "t.profile:26: key 'net.link_rate' is shared by all nodes and cannot be set in a "
      "[nodes] section" },
    { "bare key in [nodes]", NULL, NULL, "[nodes 1]\nclock = 1 GHz\n",
      "t.profile:26: key 'clock': in a [nodes] section write full key names (e.g. host.clock)" },
    { "duplicate key in [nodes]", NULL, NULL, "[nodes 1]\nhost.clock = 1 GHz\nhost.clock = 2 GHz\n",
      "t.profile:27: duplicate key 'host.clock' (first set on line 26)" },
    { "node beyond the cluster", NULL, NULL, "[nodes 10-20]\nhost.clock = 1 GHz\n",
      "t.profile:25: node 20 is beyond cluster.nodes (16)" },
    { "overlapping node sets", NULL, NULL,
      "[nodes 1-15/2]\nhost.clock = 1 GHz\n[nodes 3, 4]\nhost.clock = 2 GHz\n",
      "t.profile:27: node 3 is also in the [nodes] section of line 25" },
    { "empty [nodes]", NULL, NULL, "[nodes 1]\n",
      "t.profile:25: [nodes] section sets no key" },
    { "reversed range", NULL, NULL, "[nodes 5-3]\nhost.clock = 1 GHz\n",
      "t.profile:25: node set '5-3': empty range" },
    { "zero stride", NULL, NULL, "[nodes 1-5/0]\nhost.clock = 1 GHz\n",
      "t.profile:25: node set '1-5/0': empty range" },
    { "garbage node set", NULL, NULL, "[nodes odd]\nhost.clock = 1 GHz\n",
      "t.profile:25: node set 'odd': expected N, N-M or N-M/STEP items separated by commas" },
    { "class burst vs width", NULL, NULL, "[nodes 1]\npci.max_burst = 12 B\n",
      "t.profile:26: key 'pci.max_burst': 12 B is not a multiple of the 64-bit bus word" },
    { "more group ids than table entries", NULL, NULL,
      "net.mcast_entries = 512\nnet.sm_groups = 513\n",
      "t.profile:26: key 'net.sm_groups': 513 is more than net.mcast_entries (512): the "
      "management entity hands out no more group ids than a switch's table holds" },
    { "default group ids, smaller table", NULL, NULL, "net.mcast_entries = 100\n",
      "t.profile:25: key 'net.sm_groups': 1024 (the default) is more than "
      "net.mcast_entries (100): the management entity hands out no more group ids than a "
      "switch's table holds" },
    { "group ids, default table", NULL, NULL, "net.sm_groups = 2000\n",
      "t.profile:25: key 'net.sm_groups': 2000 is more than net.mcast_entries (1024, the "
      "default): the management entity hands out no more group ids than a switch's table "
      "holds" },
    { "time-out of zero", NULL, NULL, "net.sm_timeout = 0 ms\n",
      "t.profile:25: key 'net.sm_timeout': '0 ms' is out of range (1 us .. 1 s)" },
    { "no table writes on the wire", NULL, NULL, "net.sm_outstanding = 0\n",
      "t.profile:25: key 'net.sm_outstanding': '0' is out of range (1 .. 4096)" },
    { "group ids beyond the multicast space", NULL, NULL, "net.sm_groups = 16383\n",
      "t.profile:25: key 'net.sm_groups': '16383' is out of range (1 .. 16382)" },
    { "entity key in [nodes]", NULL, NULL, "[nodes 1]\nnet.sm_set = 5 us\n",
      "t.profile:26: key 'net.sm_set' is shared by all nodes and cannot be set in a "
      "[nodes] section" },
    { "NUL byte", NULL, NULL, "# a",
      "t.profile:25: NUL byte: not a text file" },
};

static void test_error_case(void **state)
{
    const struct bad *b = *state;
    static struct profile p;
    char err[512] = "";
    char *t = variant(b->key, b->line, b->extra);
    size_t len = strlen(t);

    if (!strcmp(b->what, "NUL byte")) {     /* the line goes on past a NUL */
        t = realloc(t, len + 4);
        memcpy(t + len, "\0b\n", 4);
        len += 3;
    }
    assert_int_equal(profile_parse(&p, "t.profile", t, len, err, sizeof err), -1);
    assert_string_equal(err, b->want);
    free(t);
}

static void test_load_errors(void **state)
{
    static struct profile p;
    char err[512];
    (void)state;

    assert_int_equal(profile_load(&p, "no/such.profile", err, sizeof err), -1);
    assert_string_equal(err, "no/such.profile: No such file or directory");
    /* a file that is not a profile */
    assert_int_equal(profile_load(&p, "tests/profile/suite", err, sizeof err), -1);
    assert_non_null(strstr(err, "tests/profile/suite:"));
}

/* ---- timing helpers ------------------------------------------------------- */

static void test_timing_helpers(void **state)
{
    static struct profile p;
    char err[512];
    const struct profile_params *pp;
    (void)state;

    assert_int_equal(profile_load(&p, PROFILES_DIR "/p-gm2.profile", err, sizeof err), 0);
    pp = profile_node(&p, 0);
    /* 133 cycles at 133 MHz, one cycle each: 1 us */
    assert_int_equal(profile_nic_ps(pp, 133), 1000000);
    assert_int_equal(profile_nic_ps(pp, 0), 0);
    /* DMA: 512 B = two 256-B bursts of 32 clocks each at 66 MHz */
    assert_int_equal(profile_dma_ps(pp, false, 512), 2 * 650000 + 969697);
    assert_int_equal(profile_dma_ps(pp, true, 512), 2 * (650000 + 620000) + 969697);
    assert_int_equal(profile_dma_ps(pp, false, 1), 650000 + 15152);
    assert_int_equal(profile_dma_ps(pp, false, 257), 2 * 650000 + 500000);   /* 33 clocks */
    assert_int_equal(profile_dma_ps(pp, false, 0), 0);
    assert_int_equal(profile_wire_ps(&p, 100), 400000);
    assert_int_equal(profile_copy_ps(pp, 1000), 100000 + 3000000);
    /* two links and a switch (500 ns) bound it; a PIO read's round trip
     * plus the next request's latency (1.25 us) does not */
    assert_int_equal(profile_lookahead_ps(&p), 500000);
    /* fractional CPI */
    {
        struct profile_params q = *pp;
        q.nic_cpi_micro = 1500000;
        assert_int_equal(profile_nic_ps(&q, 133), 1500000);
    }
}

int main(void)
{
    static const struct CMUnitTest fixed[] = {
        cmocka_unit_test(test_shipped_profiles_parse),
        cmocka_unit_test(test_shipped_round_trip),
        cmocka_unit_test(test_shipped_values),
        cmocka_unit_test(test_gm164_values),
        cmocka_unit_test(test_node_classes),
        cmocka_unit_test(test_nodeset_normal_form),
        cmocka_unit_test(test_sections_optional),
        cmocka_unit_test(test_optional_defaults),
        cmocka_unit_test(test_sm_defaults),
        cmocka_unit_test(test_unit_conversions),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_timing_helpers),
    };
    enum { NF = sizeof fixed / sizeof fixed[0], NB = sizeof bads / sizeof bads[0] };
    static struct CMUnitTest tests[NF + NB];
    static char names[NB][80];

    memcpy(tests, fixed, sizeof fixed);
    for (size_t i = 0; i < NB; i++) {
        snprintf(names[i], sizeof names[i], "error: %s", bads[i].what);
        tests[NF + i] = (struct CMUnitTest){
            .name = names[i], .test_func = test_error_case,
            .initial_state = (void *)&bads[i],
        };
    }
    return cmocka_run_group_tests_name("profile", tests, NULL, NULL);
}
