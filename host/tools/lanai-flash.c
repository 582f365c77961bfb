/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lanai-flash: load a firmware image onto a LANai 9 board through its
 * board window (reset, zero SRAM, CLOCK, copy, shared block, verify,
 * release, bounded handshake). docs/lanai-flash.md is the manual.
 *
 *   lanai-flash [options] --bar PATH image
 *   lanai-flash --list [--sysfs DIR]
 *   lanai-flash --info --bar PATH
 *   lanai-flash --make-fake-bar PATH [--sram SIZE]
 */
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "fwload.h"
#include "nc_version.h"
#include "nicoll/lanai9_regs.h"

#define NODES_MAX 4096u   /* --nodes (as lanai-run) */

static void usage(FILE *f)
{
    fputs(
"usage: lanai-flash [options] --bar PATH image.img|image.elf\n"
"       lanai-flash --list [--sysfs DIR]\n"
"       lanai-flash --info --bar PATH\n"
"       lanai-flash --make-fake-bar PATH [--sram SIZE]\n"
"  --bar PATH        the board window: a board's sysfs resource file, e.g.\n"
"                    /sys/bus/pci/devices/0000:03:00.0/resource0, or a fake BAR\n"
"  --node-id N       this NIC's node id, below --nodes (written to the shared\n"
"                    block; default 0)\n"
"  --nodes N         nodes in the cluster, 1..4096 (default 1)\n"
"  --tries N         handshake polls (default 25)\n"
"  --delay-us N      microseconds between polls (default 20)\n"
"  --list            list Myricom LANai 9 boards (PCI 14c1:8043), their BARs\n"
"                    and EEPROM data (see --info)\n"
"  --sysfs DIR       where --list looks for PCI devices (default\n"
"                    /sys/bus/pci/devices)\n"
"  --info            print the board's EEPROM data (board id, serial, part,\n"
"                    SRAM size, clock value, speed, label); changes nothing\n"
"  --make-fake-bar PATH  create a 16 MB file that stands in for a board window\n"
"                    (EEPROM: --sram SIZE, a power of two in 512K..8M, default\n"
"                    2M; clock value 0x50)\n"
"  -h, --help        this text\n"
"  --version         the version\n"
"Exit status: 0 loaded and running, 1 loading failed (message says why), 2 bad\n"
"usage or a file that cannot be read or made.\n", f);
}

static int num(const char *opt, const char *s, unsigned long max, unsigned long *out)
{
    char *end;
    errno = 0;
    *out = strtoul(s, &end, 0);
    if (*end == 'K' || *end == 'k') { *out <<= 10; end++; }
    else if (*end == 'M' || *end == 'm') { *out <<= 20; end++; }
    if (end == s || *end || errno || *out > max) {
        fprintf(stderr, "lanai-flash: %s: '%s' is not a valid number (max %lu)\n", opt, s, max);
        return -1;
    }
    return 0;
}

/* The board's EEPROM (docs/lanai9-nic.md "Board window": clockval,
 * cpu_version, board_id, sram_size, serial, board_label, max_lanai_speed)
 * as one line of key=value fields: also what lanai-flash-cluster reports. */
static void describe_board(struct nc_board *b, char *out, size_t len)
{
    uint8_t ee[0x70];
    char label[33];

    b->ops->read(b, L9_BAR_EEPROM, ee, sizeof ee);
#define BE32(o) ((uint32_t)ee[o] << 24 | (uint32_t)ee[(o) + 1] << 16 | \
                 (uint32_t)ee[(o) + 2] << 8 | ee[(o) + 3])
    memcpy(label, ee + L9_EE_BOARD_LABEL, 32);
    label[32] = 0;
    for (char *c = label; *c; c++)
        if (*c < 0x20 || *c > 0x7e)
            *c = '?';
    snprintf(out, len, "board=%02x:%02x:%02x:%02x:%02x:%02x serial=0x%08x "
             "part=LANai%u.%u sram=0x%x clockval=0x%08x speed=%uMHz label='%s'",
             ee[L9_EE_BOARD_ID], ee[L9_EE_BOARD_ID + 1], ee[L9_EE_BOARD_ID + 2],
             ee[L9_EE_BOARD_ID + 3], ee[L9_EE_BOARD_ID + 4], ee[L9_EE_BOARD_ID + 5],
             BE32(L9_EE_SERIAL), ee[L9_EE_CPU_VERSION], ee[L9_EE_CPU_VERSION + 1] >> 4,
             BE32(L9_EE_SRAM_SIZE), BE32(L9_EE_CLOCKVAL), BE32(L9_EE_MAX_LANAI_SPEED), label);
#undef BE32
}

static int board_info(const char *bar)
{
    struct nc_board b;
    char err[512], line[256];

    if (nc_board_open_mmap(&b, bar, err, sizeof err)) {
        fprintf(stderr, "lanai-flash: %s\n", err);
        return 1;
    }
    describe_board(&b, line, sizeof line);
    nc_board_close(&b);
    printf("%s: %s\n", bar, line);
    return 0;
}

static int list_boards(const char *sysfs)
{
    DIR *d = opendir(sysfs);
    struct dirent *e;
    int found = 0;

    if (!d) {
        fprintf(stderr, "lanai-flash: %s: %s\n", sysfs, strerror(errno));
        return 1;
    }
    while ((e = readdir(d))) {
        char path[512], buf[32];
        unsigned long vendor = 0, device = 0;
        FILE *f;
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s/vendor", sysfs, e->d_name);
        if ((f = fopen(path, "r"))) {
            if (fgets(buf, sizeof buf, f)) vendor = strtoul(buf, NULL, 0);
            fclose(f);
        }
        snprintf(path, sizeof path, "%s/%s/device", sysfs, e->d_name);
        if ((f = fopen(path, "r"))) {
            if (fgets(buf, sizeof buf, f)) device = strtoul(buf, NULL, 0);
            fclose(f);
        }
        if ((vendor == L9_PCI_VENDOR_MYRICOM || vendor == 0x10E8) &&
            device == L9_PCI_DEVICE_LANAI9) {
            struct nc_board b;
            char err[512], line[256];

            snprintf(path, sizeof path, "%s/%s/resource0", sysfs, e->d_name);
            if (nc_board_open_mmap(&b, path, err, sizeof err)) {
                printf("%s: EEPROM not readable: %s\n", path, err);
            } else {
                describe_board(&b, line, sizeof line);
                nc_board_close(&b);
                printf("%s: %s\n", path, line);
            }
            found++;
        }
    }
    closedir(d);
    if (!found)
        fprintf(stderr, "lanai-flash: no LANai 9 board (PCI 14c1:8043) in %s\n", sysfs);
    return found ? 0 : 1;
}

int main(int argc, char **argv)
{
    struct nc_fw_options o = { .nnodes = 1 };
    const char *bar = NULL, *image = NULL, *fake = NULL, *sysfs = "/sys/bus/pci/devices";
    bool list = false, info = false;
    char line[256];
    unsigned long v, sram = 2u << 20;
    struct nc_board b;
    struct nc_fw_info fi;
    char err[512];
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, got;
    FILE *f;
    int rc;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        static const char *const with_value[] = {
            "--bar", "--make-fake-bar", "--sram", "--node-id", "--nodes", "--tries",
            "--delay-us", "--sysfs",
        };
        bool known = false;

        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
        if (!strcmp(a, "--version")) { printf("lanai-flash (nicoll) %s\n", NC_VERSION); return 0; }
        if (!strcmp(a, "--list")) { list = true; continue; }
        if (!strcmp(a, "--info")) { info = true; continue; }
        if (a[0] != '-') {
            if (image) {
                fprintf(stderr, "lanai-flash: more than one image given ('%s', '%s')\n",
                        image, a);
                return 2;
            }
            image = a;
            continue;
        }
        for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++)
            known |= !strcmp(a, with_value[k]);
        if (!known) {
            fprintf(stderr, "lanai-flash: unknown option '%s' (see --help)\n", a);
            return 2;
        }
        if (!val) {
            fprintf(stderr, "lanai-flash: option %s needs a value (see --help)\n", a);
            return 2;
        }
        i++;
        if (!strcmp(a, "--bar")) bar = val;
        else if (!strcmp(a, "--make-fake-bar")) fake = val;
        else if (!strcmp(a, "--sysfs")) sysfs = val;
        else if (!strcmp(a, "--sram")) {
            /* what the loader accepts from an EEPROM (docs/lanai-flash.md) */
            if (num(a, val, 1ul << 30, &sram))
                return 2;
            if (sram < (512ul << 10) || sram > (8ul << 20) || (sram & (sram - 1))) {
                fprintf(stderr, "lanai-flash: --sram: '%s' is not a power of two in "
                        "512K..8M\n", val);
                return 2;
            }
        }
        else if (!strcmp(a, "--node-id")) { if (num(a, val, NODES_MAX - 1, &v)) return 2; o.node_id = (uint32_t)v; }
        else if (!strcmp(a, "--nodes")) {
            if (num(a, val, NODES_MAX, &v))
                return 2;
            if (!v) {
                fprintf(stderr, "lanai-flash: --nodes: '%s' is not a node count (1..%u)\n",
                        val, NODES_MAX);
                return 2;
            }
            o.nnodes = (uint32_t)v;
        }
        else if (!strcmp(a, "--tries")) {
            if (num(a, val, 1000000, &v))
                return 2;
            if (!v) {
                fprintf(stderr, "lanai-flash: --tries: '%s' is not a count of polls "
                        "(1..1000000)\n", val);
                return 2;
            }
            o.tries = (unsigned)v;
        }
        else if (!strcmp(a, "--delay-us")) { if (num(a, val, 10000000, &v)) return 2; o.delay_us = (unsigned)v; }
    }
    if (o.node_id >= o.nnodes) {
        fprintf(stderr, "lanai-flash: --node-id %u is not below --nodes %u\n", o.node_id,
                o.nnodes);
        return 2;
    }
    if (list)
        return list_boards(sysfs);
    if (info) {
        if (!bar) {
            fprintf(stderr, "lanai-flash: --info needs --bar PATH\n");
            return 2;
        }
        return board_info(bar);
    }
    if (fake) {
        if (nc_board_make_fake(fake, (uint32_t)sram, 0x50, 1, err, sizeof err)) {
            fprintf(stderr, "lanai-flash: %s\n", err);
            return 2;
        }
        return 0;
    }
    if (!bar || !image) {
        fprintf(stderr, "lanai-flash: need --bar PATH and an image\n");
        usage(stderr);
        return 2;
    }
    if (!(f = fopen(image, "rb"))) {
        fprintf(stderr, "lanai-flash: %s: %s\n", image, strerror(errno));
        return 2;
    }
    do {
        if (len == cap) {
            uint8_t *nb = realloc(buf, cap = cap ? cap * 2 : 65536);
            if (!nb) { fprintf(stderr, "lanai-flash: out of memory\n"); return 1; }
            buf = nb;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got);
    fclose(f);
    if (nc_board_open_mmap(&b, bar, err, sizeof err)) {
        fprintf(stderr, "lanai-flash: %s\n", err);
        free(buf);
        return 1;
    }
    describe_board(&b, line, sizeof line);
    printf("lanai-flash: %s: %s\n", bar, line);
    fflush(stdout);
    rc = nc_fw_load(&b, image, buf, len, &o, &fi, err, sizeof err);
    nc_board_close(&b);
    free(buf);
    if (rc) {
        fprintf(stderr, "lanai-flash: %s: %s\n", nc_fw_strerror(rc), err);
        return 1;
    }
    printf("lanai-flash: %s loaded on %s: SRAM 0x%x bytes, entry 0x%08x, CRC-32 0x%08x, "
           "build id %02x%02x%02x%02x%02x%02x%02x%02x, ready after %u poll%s\n", image, bar,
           fi.sram_size, fi.entry, fi.crc32, fi.build_id[0], fi.build_id[1],
           fi.build_id[2], fi.build_id[3], fi.build_id[4], fi.build_id[5],
           fi.build_id[6], fi.build_id[7], fi.polls, fi.polls == 1 ? "" : "s");
    return 0;
}
