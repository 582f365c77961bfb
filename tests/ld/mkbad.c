/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mkbad: make a deliberately broken copy of a good LANai object, for the
 * lanai-ld error tests. usage: mkbad KIND in.o out.o
 *
 *   class32 -> ELFCLASS64        endian -> little-endian      machine -> EM_SPARC
 *   exec -> e_type ET_EXEC       truncate -> first 40 bytes   shoff -> e_shoff past EOF
 *   secoff -> .text data past EOF          reloc-type -> first relocation type 0x55
 *   reloc-sym -> first relocation symbol index 0xFFFF
 *   reloc-off -> first relocation offset past its section
 *   strtab -> first symbol name offset past its string table
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/nc_endian.h"


/* Section header i, or the first section of type 'type' (i < 0). */
static uint8_t *shdr(uint8_t *b, int i, uint32_t type)
{
    uint32_t shoff = nc_get_be32(b + 32), n = nc_get_be16(b + 48);
    for (uint32_t k = 0; k < n; k++) {
        uint8_t *h = b + shoff + 40 * k;
        if ((i >= 0 && (uint32_t)i == k) || (i < 0 && nc_get_be32(h + 4) == type))
            return h;
    }
    fprintf(stderr, "mkbad: section not found\n");
    exit(2);
}

int main(int argc, char **argv)
{
    FILE *f;
    uint8_t *b;
    long n;

    if (argc != 4) {
        fprintf(stderr, "usage: mkbad KIND in.o out.o\n");
        return 2;
    }
    f = fopen(argv[2], "rb");
    if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 52) {
        fprintf(stderr, "mkbad: cannot read %s\n", argv[2]);
        return 2;
    }
    rewind(f);
    b = malloc((size_t)n);
    if (!b || fread(b, 1, (size_t)n, f) != (size_t)n)
        return 2;
    fclose(f);

    const char *k = argv[1];
    if (!strcmp(k, "class32")) b[4] = 2;
    else if (!strcmp(k, "endian")) b[5] = 1;
    else if (!strcmp(k, "machine")) nc_put_be16(b + 18, 2);
    else if (!strcmp(k, "exec")) nc_put_be16(b + 16, 2);
    else if (!strcmp(k, "truncate")) n = 40;
    else if (!strcmp(k, "shoff")) nc_put_be32(b + 32, (uint32_t)n + 100);
    else if (!strcmp(k, "secoff")) {
        /* the first PROGBITS section (.text) */
        nc_put_be32(shdr(b, -1, 1) + 16, (uint32_t)n);
    } else if (!strcmp(k, "reloc-type") || !strcmp(k, "reloc-sym") ||
               !strcmp(k, "reloc-off")) {
        uint8_t *r = shdr(b, -1, 4);
        uint8_t *e = b + nc_get_be32(r + 16);
        uint32_t info = nc_get_be32(e + 4);
        if (!strcmp(k, "reloc-type")) nc_put_be32(e + 4, (info & ~0xFFu) | 0x55);
        else if (!strcmp(k, "reloc-sym")) nc_put_be32(e + 4, (info & 0xFF) | 0xFFFF00u);
        else nc_put_be32(e, 0x100000);
    } else if (!strcmp(k, "strtab")) {
        uint8_t *s = shdr(b, -1, 2);
        nc_put_be32(b + nc_get_be32(s + 16) + 16, 0x7FFFFFF0); /* symbol 1's st_name */
    } else {
        fprintf(stderr, "mkbad: unknown kind %s\n", k);
        return 2;
    }
    f = fopen(argv[3], "wb");
    if (!f || fwrite(b, 1, (size_t)n, f) != (size_t)n || fclose(f))
        return 2;
    free(b);
    return 0;
}
