/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * End-to-end tests on the reference cluster simulator: hosts load firmware
 * through their board windows with the host library's loader, the firmware
 * pings over the fabric, the hosts wait for the firmware's interrupt and
 * read the results; timed with the P-GM2 profile. Also: the same run twice
 * gives byte-identical output, a wrong image fails the load, and a LANai
 * trap stops the run with a message.
 * usage: test_refsim fw_pingpong.img p-gm2.profile
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../lib/slurp.h"

#include "refsim.h"     /* before host/lib: "board.h" here is the NIC's */
#include "profile.h"
#include "fwload.h"
#include "nicoll/hostif.h"
#include "nicoll/lanai9_regs.h"
#include "nicoll/shared_block.h"

static uint8_t *image;
static size_t image_len;
static struct profile prof;
static uint8_t routes[2];        /* node -> route byte to the other node */
static uint32_t got[2], rtt, send_ticks;
static uint32_t arm_late_us, ping_pad;   /* fw_pingpong's 0x50 and 0x54 */
static bool backpressure = true;
static int load_rc[2];

static int host_main(int argc, char **argv)
{
    struct nc_board b;
    struct nc_fw_options o = { .node_id = nc_host_node(), .nnodes = nc_host_nodes(), .tries = 1000, .delay_us = 20 };
    struct nc_fw_info info;
    char err[300];
    unsigned me = nc_host_node();
    uint32_t sb;

    (void)argc;
    (void)argv;
    nc_board_open_hostif(&b);
    load_rc[me] = nc_fw_load(&b, "fw_pingpong.img", image, image_len, &o, &info, err, sizeof err);
    if (load_rc[me]) {
        nc_host_printf("load failed: %s", err);
        return 1;
    }
    nc_host_printf("firmware up after %u polls", info.polls);
    sb = NC_SB_ADDR(info.sram_size);
    nc_host_pio_write32(sb + 0x44, routes[me]);
    nc_host_pio_write32(sb + 0x50, arm_late_us);
    nc_host_pio_write32(sb + 0x54, ping_pad);
    nc_host_pio_write32(L9_BAR_SPECIAL + L9_EIMR, L9_ISR_HOST_SIG);
    nc_host_pio_write32(sb + 0x40, 1);
    if (!nc_host_wait_irq(10000000))        /* 10 ms */
        return 2;
    got[me] = nc_host_pio_read32(sb + 0x4C);
    if (me == 0) {
        rtt = nc_host_pio_read32(sb + 0x48);
        send_ticks = nc_host_pio_read32(sb + 0x58);
    }
    nc_host_pio_write32(L9_BAR_SPECIAL + L9_ISR, L9_ISR_HOST_SIG);
    nc_host_printf("received %08x", got[me]);
    /* the firmware's interval timer fires while it idles; first let the
     * acknowledged HOST_SIG drop the line (the ack takes time to land) */
    nc_host_pio_write32(L9_BAR_SPECIAL + L9_EIMR, L9_ISR_TIME0);
    for (int i = 0; nc_host_irq_pending(); i++)
        if (i == 1000)
            return 4;
        else
            nc_host_compute_ns(100);
    if (!nc_host_wait_irq(1000000))
        return 3;
    nc_host_printf("timer interrupt");
    return 0;
}

/* Run two nodes on a crossbar; the consoles go to *out. */
static int run(char **out, size_t *len, uint8_t *img, size_t img_len)
{
    char err[200];
    struct topo *t = topo_new();
    struct refsim s;
    struct refsim_config cfg = { .nodes = 2, .host_mem = 1 << 20, .seed = 1,
                                 .limit_ps = 100000000000ull };
    uint8_t r[TOPO_MAX_HOPS];
    FILE *f = open_memstream(out, len);
    int rc;

    assert_int_equal(topo_gen_crossbar(t, 2, err, sizeof err), 0);
    topo_route(t, 0, 1, r);
    routes[0] = 0x80 | r[0];
    topo_route(t, 1, 0, r);
    routes[1] = 0x80 | r[0];
    refsim_config_from_profile(&cfg, &prof);
    cfg.backpressure = backpressure;
    cfg.out = f;
    image = img;
    image_len = img_len;
    memset(got, 0, sizeof got);
    assert_int_equal(refsim_init(&s, &cfg, t, host_main, 0, NULL), 0);
    rc = refsim_run(&s);
    fprintf(f, "instructions %llu events %llu\n", (unsigned long long)s.instructions,
            (unsigned long long)s.events);
    refsim_destroy(&s);
    topo_free(t);
    fclose(f);
    return rc;
}

static int count_lines(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

static uint8_t *fw;
static size_t fw_len;

static void test_load_and_ping(void **st)
{
    char *out;
    size_t len;
    (void)st;
    assert_int_equal(run(&out, &len, fw, fw_len), 0);
    printf("%s", out);
    assert_int_equal(load_rc[0], 0);
    assert_int_equal(load_rc[1], 0);
    assert_int_equal(got[1], 0xC0FFEE00);          /* the ping arrived */
    assert_int_equal(got[0], 0xC0FFEE01);          /* and the answer came back */
    /* the round trip crosses the switch twice: at least 2 x (2 cables + switch) */
    assert_true((uint64_t)rtt * 500000 >= 2 * (2 * prof.link_latency_ps + prof.switch_latency_ps) -
                                           500000);
    assert_true(rtt < 200);                        /* and is not absurd (100 us) */
    assert_non_null(strstr(out, "[host 0"));
    assert_non_null(strstr(out, "received c0ffee01"));
    assert_non_null(strstr(out, "[host 0 "));
    assert_int_equal(count_lines(out, "timer interrupt"), 2);   /* both hosts */
    free(out);
}

static void test_deterministic(void **st)
{
    char *a, *b;
    size_t la, lb;
    (void)st;
    assert_int_equal(run(&a, &la, fw, fw_len), 0);
    assert_int_equal(run(&b, &lb, fw, fw_len), 0);
    assert_int_equal(la, lb);
    assert_memory_equal(a, b, la);
    free(a);
    free(b);
}

static void test_bad_image_fails_the_load(void **st)
{
    uint8_t *bad = malloc(fw_len);
    char *out;
    size_t len;
    (void)st;
    memcpy(bad, fw, fw_len);
    bad[fw_len / 2] ^= 1;
    assert_int_equal(run(&out, &len, bad, fw_len), 0);   /* the hosts end, with errors */
    assert_int_equal(load_rc[0], NC_LOAD_EIMAGE);
    assert_non_null(strstr(out, "load failed: fw_pingpong.img: image crc32 mismatch"));
    free(out);
    free(bad);
}

/*
 * Back-pressure (docs/fabric.md): node 1 arms its receive buffer 200 us
 * late, node 0 pings with 1000 bytes. The ping is held at node 1's link
 * with most of it still in node 0's NIC, so node 0's link is stopped and
 * its send engine does not finish (ISR.SEND clear) until node 1 takes the
 * ping: about 200 us, against 4 us for the 1000 bytes on the wire. Nothing
 * is lost: the ping arrives and is answered. Without back-pressure (the
 * negative control) node 1's NIC queues the ping and node 0's engine is
 * done after the bytes.
 */
static void test_backpressure_stalls_the_sender(void **st)
{
    char *out;
    size_t len;
    (void)st;
    arm_late_us = 200;
    ping_pad = 1000;
    assert_int_equal(run(&out, &len, fw, fw_len), 0);
    free(out);
    assert_int_equal(got[1], 0xC0FFEE00);
    assert_int_equal(got[0], 0xC0FFEE01);
    printf("# send engine busy %u ticks of 0.5 us, back-pressure on\n", send_ticks);
    assert_true(send_ticks >= 2 * 190 && send_ticks <= 2 * 230);
    backpressure = false;
    assert_int_equal(run(&out, &len, fw, fw_len), 0);
    free(out);
    backpressure = true;
    assert_int_equal(got[0], 0xC0FFEE01);
    printf("# send engine busy %u ticks of 0.5 us, back-pressure off\n", send_ticks);
    assert_true(send_ticks <= 2 * 10);
    arm_late_us = ping_pad = 0;
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_and_ping),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_bad_image_fails_the_load),
        cmocka_unit_test(test_backpressure_stalls_the_sender),
    };
    char err[300];

    if (argc != 3 || !(fw = slurp(argv[1], &fw_len))) {
        fprintf(stderr, "usage: test_refsim fw_pingpong.img p-gm2.profile\n");
        return 2;
    }
    if (profile_load(&prof, argv[2], err, sizeof err)) {
        fprintf(stderr, "test_refsim: %s\n", err);
        return 2;
    }
    return cmocka_run_group_tests_name("refsim", tests, NULL, NULL);
}
