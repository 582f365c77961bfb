/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading inputs: ELF32 big-endian EM_LANAI relocatable objects and ar
 * archives of them. Every offset, size and index is checked against the file
 * before it is used; a malformed input stops the link with a message naming
 * the file and the field.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ld.h"

static const char *str_at(struct ld *ld, struct obj *o, uint32_t strndx,
                          uint32_t off, const char *what)
{
    struct isec *s = &o->secs[strndx];

    if (s->type != SHT_STRTAB)
        ld_fatal(ld, "%s: %s: section %u is not a string table", o->name, what, strndx);
    if (off >= s->size)
        ld_fatal(ld, "%s: %s: string offset %u outside string table (size %u)",
                 o->name, what, off, s->size);
    if (!memchr(s->data + off, 0, s->size - off))
        ld_fatal(ld, "%s: %s: unterminated string at offset %u", o->name, what, off);
    return (const char *)s->data + off;
}

static bool is_pow2(uint32_t v)
{
    return v && !(v & (v - 1));
}

/* Parse one relocatable object. */
static struct obj *parse_object(struct ld *ld, const char *name,
                                const uint8_t *b, size_t len)
{
    struct obj *o = ld_alloc(sizeof *o);
    uint32_t shoff, shentsize, shnum, shstrndx;

    o->name = name;
    o->data = b;
    o->size = len;
    if (len < 52 || memcmp(b, "\177ELF", 4) != 0)
        ld_fatal(ld, "%s: not an ELF file or truncated header (%zu bytes)", name, len);
    if (b[4] != 1)
        ld_fatal(ld, "%s: EI_CLASS %u: not a 32-bit ELF (ELFCLASS32 expected)", name, b[4]);
    if (b[5] != 2)
        ld_fatal(ld, "%s: EI_DATA %u: not big-endian (ELFDATA2MSB expected)", name, b[5]);
    if (b[6] != 1)
        ld_fatal(ld, "%s: EI_VERSION %u unsupported", name, b[6]);
    if (nc_get_be16(b + 18) != EM_LANAI)
        ld_fatal(ld, "%s: e_machine %u: not a LANai object (EM_LANAI = 244)", name,
                 nc_get_be16(b + 18));
    if (nc_get_be16(b + 16) != ET_REL)
        ld_fatal(ld, "%s: e_type %u: not a relocatable object (ET_REL)", name,
                 nc_get_be16(b + 16));
    shoff = nc_get_be32(b + 32);
    shentsize = nc_get_be16(b + 46);
    shnum = nc_get_be16(b + 48);
    shstrndx = nc_get_be16(b + 50);
    if (shnum == 0 || shentsize != 40)
        ld_fatal(ld, "%s: e_shnum %u / e_shentsize %u: unsupported section header table",
                 name, shnum, shentsize);
    if (shoff > len || (uint64_t)shnum * 40 > len - shoff)
        ld_fatal(ld, "%s: section headers (e_shoff 0x%x, %u entries) run past the end "
                 "of the file", name, shoff, shnum);
    if (shstrndx >= shnum)
        ld_fatal(ld, "%s: e_shstrndx %u out of range (%u sections)", name, shstrndx, shnum);

    o->nsecs = shnum;
    o->secs = ld_alloc(sizeof(struct isec) * shnum);
    for (uint32_t i = 0; i < shnum; i++) {
        const uint8_t *h = b + shoff + 40 * i;
        struct isec *s = &o->secs[i];
        uint32_t off = nc_get_be32(h + 16);

        s->obj = o;
        s->index = i;
        s->type = nc_get_be32(h + 4);
        s->flags = nc_get_be32(h + 8);
        s->size = nc_get_be32(h + 20);
        s->link = nc_get_be32(h + 24);
        s->info = nc_get_be32(h + 28);
        s->align = nc_get_be32(h + 32);
        s->entsize = nc_get_be32(h + 36);
        if (s->align == 0)
            s->align = 1;
        if (!is_pow2(s->align))
            ld_fatal(ld, "%s: section %u: sh_addralign %u is not a power of two",
                     name, i, s->align);
        if (s->align > LD_MAX_ALIGN)
            ld_fatal(ld, "%s: section %u: sh_addralign 0x%x exceeds the supported "
                     "maximum 0x%x", name, i, s->align, LD_MAX_ALIGN);
        if (s->type != SHT_NOBITS && s->type != SHT_NULL) {
            if (off > len || s->size > len - off)
                ld_fatal(ld, "%s: section %u: sh_offset 0x%x + sh_size 0x%x runs past "
                         "the end of the file", name, i, off, s->size);
            s->data = b + off;
        }
        /* name offset is resolved below, once the string table is known */
        s->name = (const char *)(uintptr_t)nc_get_be32(h);
    }
    for (uint32_t i = 0; i < shnum; i++)
        o->secs[i].name = str_at(ld, o, shstrndx,
                                 (uint32_t)(uintptr_t)o->secs[i].name,
                                 ld_printf("section %u name", i));

    for (uint32_t i = 0; i < shnum; i++) {
        struct isec *s = &o->secs[i];

        if (s->type == SHT_SYMTAB) {
            if (o->symtab_index)
                ld_fatal(ld, "%s: more than one symbol table", name);
            if (s->entsize != 16 || s->size % 16)
                ld_fatal(ld, "%s: section %s: bad symbol table entry size %u / size %u",
                         name, s->name, s->entsize, s->size);
            if (s->link >= shnum)
                ld_fatal(ld, "%s: section %s: sh_link %u out of range", name, s->name,
                         s->link);
            o->symtab_index = i;
        } else if (s->type == SHT_REL) {
            ld_fatal(ld, "%s: section %s: SHT_REL relocations are not supported "
                     "(LANai objects use SHT_RELA)", name, s->name);
        }
    }

    if (o->symtab_index) {
        struct isec *st = &o->secs[o->symtab_index];
        o->nsyms = st->size / 16;
        o->syms = ld_alloc(sizeof(struct isym) * (o->nsyms ? o->nsyms : 1));
        for (uint32_t i = 0; i < o->nsyms; i++) {
            const uint8_t *e = st->data + 16 * i;
            struct isym *y = &o->syms[i];
            uint8_t info = e[12];

            y->value = nc_get_be32(e + 4);
            y->size = nc_get_be32(e + 8);
            y->bind = info >> 4;
            y->type = info & 15;
            y->shndx = nc_get_be16(e + 14);
            y->name = i ? str_at(ld, o, st->link, nc_get_be32(e), ld_printf("symbol %u name", i))
                        : "";
            if (y->shndx == SHN_XINDEX)
                ld_fatal(ld, "%s: symbol '%s': extended section index unsupported",
                         name, y->name);
            if (y->shndx != SHN_UNDEF && y->shndx < SHN_LORESERVE && y->shndx >= shnum)
                ld_fatal(ld, "%s: symbol '%s': section index %u out of range", name,
                         y->name, y->shndx);
            if (y->shndx >= SHN_LORESERVE && y->shndx != SHN_ABS && y->shndx != SHN_COMMON)
                ld_fatal(ld, "%s: symbol '%s': unsupported special section index 0x%x",
                         name, y->name, y->shndx);
            if (y->bind != STB_LOCAL && y->bind != STB_GLOBAL && y->bind != STB_WEAK)
                ld_fatal(ld, "%s: symbol '%s': unsupported binding %u", name, y->name,
                         y->bind);
            if (y->type == STT_SECTION && y->shndx == SHN_UNDEF)
                ld_fatal(ld, "%s: section symbol %u has no section", name, i);
            if (y->shndx == SHN_COMMON && (!is_pow2(y->value ? y->value : 1) ||
                                           y->value > LD_MAX_ALIGN))
                ld_fatal(ld, "%s: common symbol '%s': alignment %u is not a power of two "
                         "up to 0x%x", name, y->name, y->value, LD_MAX_ALIGN);
        }
    }

    for (uint32_t i = 0; i < shnum; i++) {
        struct isec *r = &o->secs[i];
        struct isec *t;

        if (r->type != SHT_RELA)
            continue;
        if (r->info == 0 || r->info >= shnum)
            ld_fatal(ld, "%s: section %s: sh_info %u is not a valid target section",
                     name, r->name, r->info);
        if (r->link != o->symtab_index || !o->symtab_index)
            ld_fatal(ld, "%s: section %s: sh_link %u is not the symbol table", name,
                     r->name, r->link);
        if (r->entsize != 12 || r->size % 12)
            ld_fatal(ld, "%s: section %s: bad relocation entry size %u / size %u",
                     name, r->name, r->entsize, r->size);
        t = &o->secs[r->info];
        if (t->rela)
            ld_fatal(ld, "%s: section %s has two relocation sections", name, t->name);
        t->rela = r;
    }
    return o;
}

/* GNU/SysV ar archive: "!<arch>\n", 60-byte member headers, "//" holds long
 * names, "/" and "/SYM64/" hold the symbol index (not needed: members are
 * scanned directly, which gives the same answer). */
static void parse_archive(struct ld *ld, const char *name, const uint8_t *b,
                          size_t len)
{
    size_t off = 8;
    const uint8_t *longnames = NULL;
    size_t longlen = 0;

    while (off < len) {
        const uint8_t *h = b + off;
        char field[17], sz[11], *end;
        unsigned long msize;
        const char *mname;

        if (len - off < 60)
            ld_fatal(ld, "%s: truncated archive member header at offset %zu", name, off);
        if (h[58] != 0x60 || h[59] != '\n')
            ld_fatal(ld, "%s: bad archive member header at offset %zu", name, off);
        memcpy(sz, h + 48, 10);
        sz[10] = 0;
        msize = strtoul(sz, &end, 10);
        if (end == sz || (*end && *end != ' '))
            ld_fatal(ld, "%s: bad member size '%.10s' at offset %zu", name, sz, off);
        if (msize > len - off - 60)
            ld_fatal(ld, "%s: member at offset %zu (size %lu) runs past the end", name,
                     off, msize);
        memcpy(field, h, 16);
        field[16] = 0;
        for (int i = 15; i >= 0 && field[i] == ' '; i--)
            field[i] = 0;

        if (!strcmp(field, "//")) {
            longnames = h + 60;
            longlen = msize;
        } else if (!strcmp(field, "/") || !strcmp(field, "/SYM64/") ||
                   !strcmp(field, "__.SYMDEF") || !strcmp(field, "__.SYMDEF SORTED")) {
            /* symbol index: not needed */
        } else {
            if (field[0] == '/' && field[1] >= '0' && field[1] <= '9') {
                unsigned long lo = strtoul(field + 1, &end, 10);
                size_t n = 0;
                if (!longnames || lo >= longlen)
                    ld_fatal(ld, "%s: member name offset %lu outside the long-name "
                             "table", name, lo);
                while (lo + n < longlen && longnames[lo + n] != '/' &&
                       longnames[lo + n] != '\n')
                    n++;
                mname = ld_printf("%.*s", (int)n, (const char *)longnames + lo);
            } else {
                char *slash = strchr(field, '/');
                if (slash)
                    *slash = 0;
                mname = ld_strdup(field);
            }
            if (msize >= 4 && !memcmp(h + 60, "\177ELF", 4)) {
                struct obj *o = parse_object(ld, ld_printf("%s(%s)", name, mname),
                                             h + 60, msize);
                o->loaded = false;
                *ld->objs_tail = o;
                ld->objs_tail = &o->next;
            } else {
                ld_fatal(ld, "%s(%s): archive member is not an ELF object", name, mname);
            }
        }
        off += 60 + msize;
        off += off & 1; /* members are 2-byte aligned */
    }
}

void ld_read_inputs(struct ld *ld)
{
    for (size_t i = 0; i < ld->opt->ninputs; i++) {
        const struct ld_input *in = &ld->opt->inputs[i];

        if (in->size >= 8 && !memcmp(in->data, "!<arch>\n", 8)) {
            parse_archive(ld, in->name, in->data, in->size);
        } else if (in->size >= 8 && !memcmp(in->data, "!<thin>\n", 8)) {
            ld_fatal(ld, "%s: thin archives are not supported", in->name);
        } else {
            struct obj *o = parse_object(ld, in->name, in->data, in->size);
            o->loaded = true;
            *ld->objs_tail = o;
            ld->objs_tail = &o->next;
        }
    }
}

const char *isym_describe(const struct obj *o, uint32_t symi)
{
    const struct isym *y = &o->syms[symi];

    if (y->type == STT_SECTION)
        return ld_printf("section symbol of %s", o->secs[y->shndx].name);
    return ld_printf("'%s'", y->name);
}
