/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writing the results: an executable ELF (one PT_LOAD per output section,
 * section headers and a symbol table so llvm-objdump shows names), the flat
 * image of include/nicoll/lanai-image.h, and a map file.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "nicoll/lanai-image.h"
#include "ld.h"

/* Growable byte buffer in the arena. */
struct buf {
    uint8_t *p;
    size_t len, cap;
};

static void buf_reserve(struct buf *b, size_t n)
{
    if (b->len + n <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n)
        cap *= 2;
    uint8_t *np = ld_alloc(cap);
    if (b->len)
        memcpy(np, b->p, b->len);
    b->p = np;
    b->cap = cap;
}

static size_t buf_add(struct buf *b, const void *data, size_t n)
{
    size_t at = b->len;
    buf_reserve(b, n);
    if (data)
        memcpy(b->p + b->len, data, n);
    else
        memset(b->p + b->len, 0, n);
    b->len += n;
    return at;
}

static void buf_pad(struct buf *b, size_t align)
{
    while (b->len % align)
        buf_add(b, NULL, 1);
}

static size_t buf_str(struct buf *b, const char *s)
{
    return buf_add(b, s, strlen(s) + 1);
}

static void buf_printf(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void buf_printf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    buf_reserve(b, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf((char *)b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* Output sections that occupy memory, sorted by address. */
static struct osec **sorted_osecs(struct ld *ld, uint32_t *count)
{
    uint32_t n = 0;
    struct osec **v;

    for (struct osec *o = ld->osecs; o; o = o->next)
        n += o->size != 0;
    v = ld_alloc(sizeof *v * (n ? n : 1));
    n = 0;
    for (struct osec *o = ld->osecs; o; o = o->next)
        if (o->size)
            v[n++] = o;
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0 && v[j - 1]->addr > v[j]->addr; j--) {
            struct osec *t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    *count = n;
    return v;
}

/* The bytes of one PROGBITS output section. */
static uint8_t *osec_bytes(struct osec *o)
{
    uint8_t *p = ld_alloc(o->size);

    for (uint32_t i = 0; i < o->nin; i++) {
        struct isec *s = o->in[i];
        if (!s->merged && s->type != SHT_NOBITS && s->size)
            memcpy(p + s->out_off, s->out_data, s->size);
    }
    if (o->merged_size)
        memcpy(p + o->merged_off, o->merged, o->merged_size);
    return p;
}

struct osym {
    const char *name;
    uint32_t value, size;
    uint8_t info;
    uint16_t shndx;
};

static uint16_t shndx_of(struct osec **v, uint32_t n, const struct osec *o)
{
    for (uint32_t i = 0; i < n; i++)
        if (v[i] == o)
            return (uint16_t)(i + 1);
    return SHN_ABS;
}

static void write_elf(struct ld *ld, struct ld_result *res, struct osec **v, uint32_t n,
                      uint8_t **bytes)
{
    struct buf f = {0}, strtab = {0}, shstr = {0}, syms = {0};
    uint32_t *offs = ld_alloc(sizeof *offs * (n ? n : 1));
    uint32_t *names = ld_alloc(sizeof *names * (n ? n : 1));
    uint32_t nlocal = 1, nsyms = 1, phoff = 52, shoff;
    uint32_t symtab_name, strtab_name, shstr_name, symoff, stroff, shstroff;

    buf_add(&f, NULL, 52 + 32 * n);
    for (uint32_t i = 0; i < n; i++) {
        /* keep file offset congruent to the address modulo the page size */
        if (v[i]->type != SHT_NOBITS) {
            while ((f.len & (LD_PAGE - 1)) != (v[i]->addr & (LD_PAGE - 1)))
                buf_add(&f, NULL, 1);
            offs[i] = (uint32_t)buf_add(&f, bytes[i], v[i]->size);
        } else {
            offs[i] = (uint32_t)f.len;
        }
    }

    /* Symbols: useful locals (functions, objects, named labels), then globals. */
    buf_str(&strtab, "");
    buf_add(&syms, NULL, 16);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 0) {
            for (struct obj *o = ld->objs; o; o = o->next) {
                if (!o->loaded)
                    continue;
                for (uint32_t i = 1; i < o->nsyms; i++) {
                    const struct isym *y = &o->syms[i];
                    uint8_t e[16];
                    uint32_t addr;
                    const struct isec *s;

                    if (y->bind != STB_LOCAL || y->type == STT_SECTION ||
                        y->type == STT_FILE || !y->name[0] || !strncmp(y->name, ".L", 2) ||
                        y->shndx == SHN_UNDEF || y->shndx >= SHN_LORESERVE)
                        continue;
                    s = &o->secs[y->shndx];
                    if (!s->out || !isec_addr(s, y->value, &addr))
                        continue;
                    nc_put_be32(e, (uint32_t)buf_str(&strtab, y->name));
                    nc_put_be32(e + 4, addr);
                    nc_put_be32(e + 8, y->size);
                    e[12] = (uint8_t)(STB_LOCAL << 4 | y->type);
                    e[13] = 0;
                    nc_put_be16(e + 14, shndx_of(v, n, s->out));
                    buf_add(&syms, e, 16);
                    nlocal++;
                    nsyms++;
                }
            }
        } else {
            for (struct gsym *g = ld->gsyms; g; g = g->next) {
                uint8_t e[16];
                uint16_t shndx;

                if (g->kind == G_UNDEF)
                    continue;
                shndx = SHN_ABS;
                if (g->kind == G_DEFINED)
                    shndx = shndx_of(v, n, g->sec->out);
                for (uint32_t i = 0; g->kind == G_COMMON && i < n; i++)
                    if (!strcmp(v[i]->name, ".bss"))
                        shndx = (uint16_t)(i + 1);
                nc_put_be32(e, (uint32_t)buf_str(&strtab, g->name));
                nc_put_be32(e + 4, g->addr);
                nc_put_be32(e + 8, g->size);
                e[12] = (uint8_t)((g->bind == STB_WEAK ? STB_WEAK : STB_GLOBAL) << 4 |
                                  g->type);
                e[13] = 0;
                nc_put_be16(e + 14, shndx);
                buf_add(&syms, e, 16);
                nsyms++;
            }
        }
    }

    buf_str(&shstr, "");
    for (uint32_t i = 0; i < n; i++)
        names[i] = (uint32_t)buf_str(&shstr, v[i]->name);
    symtab_name = (uint32_t)buf_str(&shstr, ".symtab");
    strtab_name = (uint32_t)buf_str(&shstr, ".strtab");
    shstr_name = (uint32_t)buf_str(&shstr, ".shstrtab");

    buf_pad(&f, 4);
    symoff = (uint32_t)buf_add(&f, syms.p, syms.len);
    stroff = (uint32_t)buf_add(&f, strtab.p, strtab.len);
    shstroff = (uint32_t)buf_add(&f, shstr.p, shstr.len);
    buf_pad(&f, 4);
    shoff = (uint32_t)f.len;
    buf_add(&f, NULL, 40 * (n + 4));

    /* ELF header */
    {
        uint8_t *h = f.p;
        memcpy(h, "\177ELF", 4);
        h[4] = 1; h[5] = 2; h[6] = 1;
        nc_put_be16(h + 16, ET_EXEC);
        nc_put_be16(h + 18, EM_LANAI);
        nc_put_be32(h + 20, 1);
        nc_put_be32(h + 24, ld->entry);
        nc_put_be32(h + 28, n ? phoff : 0);
        nc_put_be32(h + 32, shoff);
        nc_put_be32(h + 36, 0);
        nc_put_be16(h + 40, 52);
        nc_put_be16(h + 42, 32);
        nc_put_be16(h + 44, (uint16_t)n);
        nc_put_be16(h + 46, 40);
        nc_put_be16(h + 48, (uint16_t)(n + 4));
        nc_put_be16(h + 50, (uint16_t)(n + 3));
    }
    for (uint32_t i = 0; i < n; i++) {
        uint8_t *p = f.p + phoff + 32 * i;
        struct osec *o = v[i];
        uint32_t flags = PF_R;
        if (o->flags & SHF_WRITE) flags |= PF_W;
        if (o->flags & SHF_EXECINSTR) flags |= PF_X;
        nc_put_be32(p, PT_LOAD);
        nc_put_be32(p + 4, offs[i]);
        nc_put_be32(p + 8, o->addr);
        nc_put_be32(p + 12, o->addr);
        nc_put_be32(p + 16, o->type == SHT_NOBITS ? 0 : o->size);
        nc_put_be32(p + 20, o->size);
        nc_put_be32(p + 24, flags);
        nc_put_be32(p + 28, o->page_align ? LD_PAGE : o->align);
    }
    for (uint32_t i = 0; i < n; i++) {
        uint8_t *s = f.p + shoff + 40 * (i + 1);
        nc_put_be32(s, names[i]);
        nc_put_be32(s + 4, v[i]->type);
        nc_put_be32(s + 8, v[i]->flags);
        nc_put_be32(s + 12, v[i]->addr);
        nc_put_be32(s + 16, offs[i]);
        nc_put_be32(s + 20, v[i]->size);
        nc_put_be32(s + 32, v[i]->align);
    }
    {
        uint8_t *s = f.p + shoff + 40 * (n + 1);
        nc_put_be32(s, symtab_name); nc_put_be32(s + 4, SHT_SYMTAB); nc_put_be32(s + 16, symoff);
        nc_put_be32(s + 20, (uint32_t)syms.len); nc_put_be32(s + 24, n + 2); nc_put_be32(s + 28, nlocal);
        nc_put_be32(s + 32, 4); nc_put_be32(s + 36, 16);
        s += 40;
        nc_put_be32(s, strtab_name); nc_put_be32(s + 4, SHT_STRTAB); nc_put_be32(s + 16, stroff);
        nc_put_be32(s + 20, (uint32_t)strtab.len); nc_put_be32(s + 32, 1);
        s += 40;
        nc_put_be32(s, shstr_name); nc_put_be32(s + 4, SHT_STRTAB); nc_put_be32(s + 16, shstroff);
        nc_put_be32(s + 20, (uint32_t)shstr.len); nc_put_be32(s + 32, 1);
    }
    (void)nsyms;
    res->elf = f.p;
    res->elf_size = f.len;
}

static void write_image(struct ld *ld, struct ld_result *res, struct osec **v, uint32_t n,
                        uint8_t **bytes)
{
    struct buf f = {0};
    uint64_t h = 14695981039346656037ull;
    uint8_t w[4];
    struct osec *bss = NULL;

    if (n > LANAI_IMG_MAX_SEGS) {
        ld_err(ld, "image: %u segments exceed the image format's limit of %u", n,
               LANAI_IMG_MAX_SEGS);
        return;
    }
    buf_add(&f, NULL, LANAI_IMG_HDR_SIZE + LANAI_IMG_SEG_SIZE * n);
#define FNV(x) do { nc_put_be32(w, (x)); for (int k_ = 0; k_ < 4; k_++) \
        h = (h ^ w[k_]) * 1099511628211ull; } while (0)
    FNV(ld->entry);
    for (uint32_t i = 0; i < n; i++) {
        uint8_t *e = f.p + LANAI_IMG_HDR_SIZE + LANAI_IMG_SEG_SIZE * i;
        uint32_t fsize = v[i]->type == SHT_NOBITS ? 0 : v[i]->size;
        uint32_t off;

        buf_pad(&f, 4);
        off = (uint32_t)f.len;
        if (fsize)
            buf_add(&f, bytes[i], fsize);
        e = f.p + LANAI_IMG_HDR_SIZE + LANAI_IMG_SEG_SIZE * i; /* f may have moved */
        nc_put_be32(e + LANAI_IMG_SEG_ADDR, v[i]->addr);
        nc_put_be32(e + LANAI_IMG_SEG_MEM_SIZE, v[i]->size);
        nc_put_be32(e + LANAI_IMG_SEG_FILE_SIZE, fsize);
        nc_put_be32(e + LANAI_IMG_SEG_FILE_OFF, fsize ? off : 0);
        FNV(v[i]->addr);
        FNV(v[i]->size);
        FNV(fsize);
        for (uint32_t k = 0; k < fsize; k++)
            h = (h ^ bytes[i][k]) * 1099511628211ull;
        if (!strcmp(v[i]->name, ".bss"))
            bss = v[i];
    }
#undef FNV
    nc_put_be32(f.p + LANAI_IMG_OFF_MAGIC, LANAI_IMG_MAGIC);
    nc_put_be32(f.p + LANAI_IMG_OFF_VERSION, LANAI_IMG_VERSION);
    nc_put_be32(f.p + LANAI_IMG_OFF_TOTAL, (uint32_t)f.len);
    nc_put_be32(f.p + LANAI_IMG_OFF_ENTRY, ld->entry);
    nc_put_be32(f.p + LANAI_IMG_OFF_NSEGS, n);
    nc_put_be32(f.p + LANAI_IMG_OFF_BSS_START, bss ? bss->addr : 0);
    nc_put_be32(f.p + LANAI_IMG_OFF_BSS_SIZE, bss ? bss->size : 0);
    nc_put_be32(f.p + LANAI_IMG_OFF_STACK_TOP, ld->stack_top);
    nc_put_be32(f.p + LANAI_IMG_OFF_MEM_SIZE, ld->opt->mem_size);
    nc_put_be32(f.p + LANAI_IMG_OFF_BUILD_ID, (uint32_t)(h >> 32));
    nc_put_be32(f.p + LANAI_IMG_OFF_BUILD_ID + 4, (uint32_t)h);
    nc_put_be32(f.p + LANAI_IMG_OFF_CRC32,
         crc32_update(0, f.p + LANAI_IMG_OFF_CRC32 + 4, f.len - LANAI_IMG_OFF_CRC32 - 4));
    res->image = f.p;
    res->image_size = f.len;
}

static int cmp_addr(const void *a, const void *b)
{
    const struct gsym *x = *(struct gsym *const *)a, *y = *(struct gsym *const *)b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return strcmp(x->name, y->name);
}

static void write_map(struct ld *ld, struct ld_result *res, struct osec **v, uint32_t n)
{
    struct buf m = {0};
    uint32_t ng = 0, k = 0;
    struct gsym **gs;

    buf_printf(&m, "lanai-ld map\n\nentry %s = 0x%08x\nmemory 0x%08x bytes, program "
               "ends at 0x%08x, stack top 0x%08x\n\n",
               ld->opt->entry, ld->entry, ld->opt->mem_size, ld->image_end,
               ld->stack_top);
    buf_printf(&m, "%-16s %-10s %-10s %s\n", "section", "address", "size", "input");
    for (uint32_t i = 0; i < n; i++) {
        struct osec *o = v[i];
        buf_printf(&m, "%-16s 0x%08x 0x%08x\n", o->name, o->addr, o->size);
        for (uint32_t j = 0; j < o->nin; j++) {
            struct isec *s = o->in[j];
            if (s->merged || !s->size)
                continue;
            buf_printf(&m, " %-15s 0x%08x 0x%08x %s\n", s->name, o->addr + s->out_off,
                       s->size, s->obj->name);
        }
        if (o->merged_size)
            buf_printf(&m, " %-15s 0x%08x 0x%08x (merged strings)\n", "*strings*",
                       o->addr + o->merged_off, o->merged_size);
        if (!strcmp(o->name, ".bss"))
            for (struct gsym *g = ld->gsyms; g; g = g->next)
                if (g->kind == G_COMMON)
                    buf_printf(&m, " %-15s 0x%08x 0x%08x %s (COMMON %s)\n", "COMMON",
                               g->addr, g->size, g->obj->name, g->name);
    }
    for (struct gsym *g = ld->gsyms; g; g = g->next)
        ng += g->kind != G_UNDEF;
    gs = ld_alloc(sizeof *gs * (ng ? ng : 1));
    for (struct gsym *g = ld->gsyms; g; g = g->next)
        if (g->kind != G_UNDEF)
            gs[k++] = g;
    qsort(gs, ng, sizeof *gs, cmp_addr);
    buf_printf(&m, "\nsymbols\n");
    for (uint32_t i = 0; i < ng; i++)
        buf_printf(&m, "0x%08x %-8s %s%s\n", gs[i]->addr,
                   gs[i]->kind == G_LINKER ? "linker" :
                   gs[i]->kind == G_COMMON ? "common" :
                   gs[i]->kind == G_ABS ? "abs" : "",
                   gs[i]->name, gs[i]->bind == STB_WEAK ? " (weak)" : "");
    buf_add(&m, "", 1);
    res->map = (char *)m.p;
    res->map_size = m.len - 1;
}

void ld_write_outputs(struct ld *ld, struct ld_result *res)
{
    uint32_t n;
    struct osec **v = sorted_osecs(ld, &n);
    uint8_t **bytes = ld_alloc(sizeof *bytes * (n ? n : 1));

    for (uint32_t i = 0; i < n; i++)
        bytes[i] = v[i]->type == SHT_NOBITS ? NULL : osec_bytes(v[i]);
    write_elf(ld, res, v, n, bytes);
    if (ld->opt->want_image)
        write_image(ld, res, v, n, bytes);
    if (ld->opt->want_map)
        write_map(ld, res, v, n);
}
