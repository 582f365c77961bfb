/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lanai-ld command line. docs/lanai-ld.md is the manual. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ld.h"
#include "nc_version.h"

#define MAX_INPUTS 1024
#define MAX_LIBDIRS 16

static void usage(FILE *f)
{
    fputs(
"usage: lanai-ld [options] file.o... [lib.a...] -o out.elf\n"
"  -o FILE                 write the executable ELF to FILE (required)\n"
"  --image FILE            also write the flat image (docs/image-format.md)\n"
"  --map FILE, -Map FILE   also write a map file\n"
"  -e SYM, --entry SYM     entry symbol (default _start)\n"
"  --base ADDR             address of .text (default 0)\n"
"  --mem-size SIZE         memory the program must fit in (default 16M)\n"
"  --stack-top ADDR        value of __stack_top (default mem-size - 4096)\n"
"  --region NAME           put input sections NAME and NAME.* in their own\n"
"                          output section on its own 4 KB page\n"
"  --section-start NAME=ADDR  place output section NAME at ADDR\n"
"  --defsym SYM=VALUE      define an absolute symbol\n"
"  -L DIR, -lNAME          search DIR for libNAME.a\n"
"  -mcpu=CPU               v11 (default, load interlocks) or lanai9.0/lanai9.1:\n"
"                          insert nops against load-use hazards (docs/lanai-ld.md)\n"
"  --hazard-report         print the hazards found and the nops inserted\n"
"  --no-hazard-fix         with -mcpu=lanai9.x: count hazards, insert nothing\n"
"  -h, --help              this text\n"
"  --version               the version\n"
"Numbers take 0x, K and M. Exit status 0 on success, 1 on link errors, 2 on\n"
"usage errors (an unreadable input, a library not found).\n", f);
}

static int parse_num(const char *opt, const char *s, uint32_t *out)
{
    char *end;
    unsigned long long v;

    errno = 0;
    v = strtoull(s, &end, 0);
    if (end == s || errno)
        goto bad;
    if (*end == 'K' || *end == 'k') { v <<= 10; end++; }
    else if (*end == 'M' || *end == 'm') { v <<= 20; end++; }
    if (*end || v > 0xFFFFFFFFull)
        goto bad;
    *out = (uint32_t)v;
    return 0;
bad:
    fprintf(stderr, "lanai-ld: %s: '%s' is not a valid 32-bit number\n", opt, s);
    return -1;
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0, got;

    if (!f)
        return NULL;
    do {
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap = cap ? cap * 2 : 65536);
            if (!nb) { free(buf); fclose(f); errno = ENOMEM; return NULL; }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got);
    if (ferror(f)) { free(buf); fclose(f); return NULL; }
    fclose(f);
    *len = n;
    return buf;
}

/* Write atomically: a failed link never leaves a half-written output. */
static int write_out(const char *path, const void *data, size_t len)
{
    char *tmp = malloc(strlen(path) + 8);
    FILE *f;

    if (!tmp)
        return -1;
    sprintf(tmp, "%s.tmp~", path);
    f = fopen(tmp, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f)) {
        fprintf(stderr, "lanai-ld: cannot write %s: %s\n", path, strerror(errno));
        remove(tmp);
        free(tmp);
        return -1;
    }
    if (rename(tmp, path)) {
        fprintf(stderr, "lanai-ld: cannot write %s: %s\n", path, strerror(errno));
        remove(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

static int split_assign(const char *opt, char *arg, char **name, uint32_t *val)
{
    char *eq = strchr(arg, '=');

    if (!eq || eq == arg) {
        fprintf(stderr, "lanai-ld: %s: expected NAME=VALUE, got '%s'\n", opt, arg);
        return -1;
    }
    *eq = 0;
    *name = arg;
    return parse_num(opt, eq + 1, val);
}

int main(int argc, char **argv)
{
    static struct ld_input inputs[MAX_INPUTS];
    const char *libdirs[MAX_LIBDIRS];
    size_t nlibdirs = 0;
    struct ld_options opt = {0};
    const char *out = NULL, *image = NULL, *map = NULL;
    struct ld_result res;
    bool stack_given = false;
    int rc;

    opt.inputs = inputs;
    opt.entry = "_start";
    opt.mem_size = 16u << 20;
    opt.diag = stderr;

    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        char *val = NULL;
        bool has_arg = i + 1 < argc;

#define NEED_ARG() do { if (!has_arg) { fprintf(stderr, "lanai-ld: option %s needs an " \
        "argument\n", a); return 2; } val = argv[++i]; } while (0)
        if (!strcmp(a, "-o")) { NEED_ARG(); out = val; }
        else if (!strcmp(a, "--image")) { NEED_ARG(); image = val; }
        else if (!strcmp(a, "--map") || !strcmp(a, "-Map")) { NEED_ARG(); map = val; }
        else if (!strcmp(a, "-e") || !strcmp(a, "--entry")) { NEED_ARG(); opt.entry = val; }
        else if (!strcmp(a, "--base")) {
            NEED_ARG();
            if (parse_num(a, val, &opt.base)) return 2;
            if (opt.base & 3) {
                fprintf(stderr, "lanai-ld: --base 0x%x is not 4-byte aligned\n", opt.base);
                return 2;
            }
        } else if (!strcmp(a, "--mem-size")) {
            NEED_ARG();
            if (parse_num(a, val, &opt.mem_size)) return 2;
        } else if (!strcmp(a, "--stack-top")) {
            NEED_ARG();
            if (parse_num(a, val, &opt.stack_top)) return 2;
            stack_given = true;
        } else if (!strcmp(a, "--region")) {
            NEED_ARG();
            if (opt.nregions == LD_MAX_REGIONS) {
                fprintf(stderr, "lanai-ld: more than %d --region options\n", LD_MAX_REGIONS);
                return 2;
            }
            if (val[0] != '.' || !val[1]) {
                fprintf(stderr, "lanai-ld: --region '%s': a section name starting with "
                        "'.' is expected\n", val);
                return 2;
            }
            opt.regions[opt.nregions++] = val;
        } else if (!strcmp(a, "--section-start")) {
            char *name;
            NEED_ARG();
            if (opt.nstarts == LD_MAX_SECTION_STARTS) {
                fprintf(stderr, "lanai-ld: too many --section-start options\n");
                return 2;
            }
            if (split_assign(a, val, &name, &opt.starts[opt.nstarts].addr)) return 2;
            opt.starts[opt.nstarts++].name = name;
        } else if (!strcmp(a, "--defsym")) {
            char *name;
            NEED_ARG();
            if (opt.ndefsyms == LD_MAX_DEFSYMS) {
                fprintf(stderr, "lanai-ld: too many --defsym options\n");
                return 2;
            }
            if (split_assign(a, val, &name, &opt.defsyms[opt.ndefsyms].value)) return 2;
            opt.defsyms[opt.ndefsyms++].name = name;
        } else if (!strncmp(a, "-L", 2)) {
            const char *d = a[2] ? a + 2 : (has_arg ? argv[++i] : NULL);
            if (!d || nlibdirs == MAX_LIBDIRS) {
                fprintf(stderr, "lanai-ld: bad -L option\n");
                return 2;
            }
            libdirs[nlibdirs++] = d;
        } else if (!strncmp(a, "-mcpu=", 6)) {
            if (!strcmp(a + 6, "lanai9.0") || !strcmp(a + 6, "lanai9.1"))
                opt.cpu = a + 6;
            else if (!strcmp(a + 6, "v11"))
                opt.cpu = NULL;
            else {
                fprintf(stderr, "lanai-ld: -mcpu: unknown CPU '%s' (v11, lanai9.0 or "
                        "lanai9.1)\n", a + 6);
                return 2;
            }
        } else if (!strcmp(a, "--hazard-report")) {
            opt.hazard_report = true;
        } else if (!strcmp(a, "--no-hazard-fix")) {
            opt.no_hazard_fix = true;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--version")) {
            printf("lanai-ld (nicoll) %s\n", NC_VERSION);
            return 0;
        } else if (a[0] == '-' && !(a[1] == 'l' && a[2])) {
            fprintf(stderr, "lanai-ld: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        } else {
            const char *path = a;
            struct ld_input *in;

            if (opt.ninputs == MAX_INPUTS) {
                fprintf(stderr, "lanai-ld: more than %d input files\n", MAX_INPUTS);
                return 2;
            }
            if (a[0] == '-') { /* -lNAME */
                path = NULL;
                for (size_t d = 0; d < nlibdirs && !path; d++) {
                    char *p = malloc(strlen(libdirs[d]) + strlen(a) + 8);
                    FILE *f;
                    sprintf(p, "%s/lib%s.a", libdirs[d], a + 2);
                    if ((f = fopen(p, "rb"))) { fclose(f); path = p; }
                    else free(p);
                }
                if (!path) {
                    fprintf(stderr, "lanai-ld: cannot find lib%s.a (use -L)\n", a + 2);
                    return 2;
                }
            }
            in = &inputs[opt.ninputs++];
            in->name = path;
            in->data = slurp(path, &in->size);
            if (!in->data) {
                fprintf(stderr, "lanai-ld: cannot read %s: %s\n", path, strerror(errno));
                return 2;
            }
        }
#undef NEED_ARG
    }
    if (!out) {
        fprintf(stderr, "lanai-ld: no output file (-o)\n");
        usage(stderr);
        return 2;
    }
    if (!stack_given)
        opt.stack_top = 0;
    opt.want_image = image != NULL;
    opt.want_map = map != NULL;

    rc = ld_link(&opt, &res);
    if (rc) {
        fprintf(stderr, "lanai-ld: %d error%s; no output written\n", rc, rc == 1 ? "" : "s");
        ld_free();
        return 1;
    }
    rc = write_out(out, res.elf, res.elf_size);
    if (!rc && image)
        rc = write_out(image, res.image, res.image_size);
    if (!rc && map)
        rc = write_out(map, res.map, res.map_size);
    ld_free();
    for (size_t i = 0; i < opt.ninputs; i++)
        free((void *)inputs[i].data);
    return rc ? 1 : 0;
}
