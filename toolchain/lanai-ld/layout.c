/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Placing sections. Output sections, in address order:
 *
 *   .text  .rodata (+ merged strings)  .init_array  .fini_array
 *   .data  (own page)   regions (each on its own page)   .bss (own page)
 *
 * Writable data, bss and every --region start on their own 4 KB page because
 * QEMU invalidates translated code on pages that are written: keeping code
 * and written data apart keeps the emulator fast and the firmware honest.
 */
#include <stdlib.h>
#include <string.h>

#include "ld.h"

static struct osec *new_osec(struct ld *ld, const char *name, uint32_t type,
                             uint32_t flags, bool page)
{
    struct osec *o = ld_alloc(sizeof *o), **p;

    o->name = name;
    o->type = type;
    o->flags = flags;
    o->align = 4;
    o->merged_align = 1;
    o->page_align = page;
    for (p = &ld->osecs; *p; p = &(*p)->next)
        ;
    *p = o;
    return o;
}

static struct osec *find_osec(struct ld *ld, const char *name)
{
    for (struct osec *o = ld->osecs; o; o = o->next)
        if (!strcmp(o->name, name))
            return o;
    return NULL;
}

static void osec_add(struct osec *o, struct isec *s)
{
    if (o->nin == o->capin) {
        struct isec **n;
        o->capin = o->capin ? o->capin * 2 : 16;
        n = ld_alloc(sizeof *n * o->capin);
        if (o->nin)
            memcpy(n, o->in, sizeof *n * o->nin);
        o->in = n;
    }
    o->in[o->nin++] = s;
    s->out = o;
    if (s->align > o->align)
        o->align = s->align;
}

static bool name_in(const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    return !strncmp(name, prefix, n) && (name[n] == 0 || name[n] == '.');
}

/* Which output section does an allocated input section go to? */
static struct osec *classify(struct ld *ld, struct isec *s)
{
    const struct ld_options *opt = ld->opt;

    for (size_t i = 0; i < opt->nregions; i++)
        if (name_in(s->name, opt->regions[i]))
            return find_osec(ld, opt->regions[i]);
    if (s->flags & 0x400) /* SHF_TLS */
        ld_fatal(ld, "%s: section %s: thread-local storage is not supported",
                 s->obj->name, s->name);
    if (s->type == SHT_PREINIT_ARRAY)
        ld_fatal(ld, "%s: section %s: .preinit_array is not supported",
                 s->obj->name, s->name);
    if (s->type == SHT_INIT_ARRAY || name_in(s->name, ".init_array"))
        return find_osec(ld, ".init_array");
    if (s->type == SHT_FINI_ARRAY || name_in(s->name, ".fini_array"))
        return find_osec(ld, ".fini_array");
    if ((s->flags & SHF_EXECINSTR) || name_in(s->name, ".text"))
        return find_osec(ld, ".text");
    if (s->type == SHT_NOBITS)
        return find_osec(ld, ".bss");
    if (s->flags & SHF_WRITE)
        return find_osec(ld, ".data");
    return find_osec(ld, ".rodata");
}

/* ---- merged strings ---------------------------------------------------- */
struct mstr {
    const uint8_t *p;
    uint32_t len, out_off, hash;
    struct mstr *next;
};

static uint32_t hash_bytes(const uint8_t *p, uint32_t n)
{
    uint32_t h = 2166136261u;
    while (n--)
        h = (h ^ *p++) * 16777619u;
    return h;
}

/* Split every SHF_MERGE|SHF_STRINGS input of .rodata into NUL-terminated
 * pieces and keep one copy of each distinct string, each at the largest
 * input alignment (clang aligns every string literal to 4 on LANai and code
 * may rely on it). References are redirected piece by piece. */
static void merge_strings(struct ld *ld, struct osec *o)
{
    enum { NB = 4096 };
    struct mstr **tab = ld_alloc(sizeof *tab * NB);
    uint32_t size = 0;

    for (uint32_t i = 0; i < o->nin; i++)
        if (o->in[i]->merged && o->in[i]->align > o->merged_align)
            o->merged_align = o->in[i]->align;
    for (uint32_t i = 0; i < o->nin; i++) {
        struct isec *s = o->in[i];
        uint32_t off = 0, np = 0;

        if (!s->merged)
            continue;
        for (uint32_t k = 0; k < s->size; k++)
            np += s->data[k] == 0;
        if (s->size && s->data[s->size - 1] != 0)
            ld_fatal(ld, "%s: section %s: mergeable string section does not end with "
                     "a NUL byte", s->obj->name, s->name);
        s->pieces = ld_alloc(sizeof *s->pieces * (np ? np : 1));
        while (off < s->size) {
            const uint8_t *st = s->data + off;
            uint32_t len = (uint32_t)((const uint8_t *)memchr(st, 0, s->size - off) - st) + 1;
            uint32_t h = hash_bytes(st, len);
            struct mstr *m;

            for (m = tab[h % NB]; m; m = m->next)
                if (m->hash == h && m->len == len && !memcmp(m->p, st, len))
                    break;
            if (!m) {
                m = ld_alloc(sizeof *m);
                m->p = st;
                m->len = len;
                m->hash = h;
                if ((uint64_t)size + o->merged_align + len > 0x7FFFFFFFu)
                    ld_fatal(ld, "%s: section %s: merged strings exceed 2 GiB",
                             s->obj->name, s->name);
                size = align_up(size, o->merged_align);
                m->out_off = size;
                size += len;
                m->next = tab[h % NB];
                tab[h % NB] = m;
            }
            s->pieces[s->npieces].in_off = off;
            s->pieces[s->npieces].len = len;
            s->pieces[s->npieces].out_off = m->out_off;
            s->npieces++;
            off += len;
        }
    }
    o->merged_size = size;
    o->merged = ld_alloc(size ? size : 1);
    /* Fill the blob from the hash table (order does not matter: offsets are
     * fixed already). */
    for (uint32_t b = 0; b < NB; b++)
        for (struct mstr *m = tab[b]; m; m = m->next)
            memcpy(o->merged + m->out_off, m->p, m->len);
    if (o->merged_align > o->align)
        o->align = o->merged_align;
}

bool isec_addr(const struct isec *s, uint32_t off, uint32_t *addr)
{
    if (!s->out)
        return false;
    if (!s->merged) {
        if (off > s->size)
            return false;
        *addr = s->out->addr + s->out_off + off;
        return true;
    }
    uint32_t lo = 0, hi = s->npieces;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const struct piece *p = &s->pieces[mid];
        if (off < p->in_off)
            hi = mid;
        else if (off >= p->in_off + p->len)
            lo = mid + 1;
        else {
            *addr = s->out->addr + s->out->merged_off + p->out_off + (off - p->in_off);
            return true;
        }
    }
    return false;
}

static void define_linker_symbol(struct ld *ld, const char *name, uint32_t addr)
{
    struct gsym *g = gsym_lookup(ld, name, true);

    if (g->kind != G_UNDEF)
        return; /* an input definition wins (PROVIDE semantics) */
    g->kind = G_LINKER;
    g->addr = addr;
    g->bind = STB_GLOBAL;
    g->type = STT_NOTYPE;
}

static const char *bare(const char *secname)
{
    char *n = ld_strdup(secname[0] == '.' ? secname + 1 : secname);
    for (char *p = n; *p; p++)
        if (*p == '.' || *p == '-')
            *p = '_';
    return n;
}

void ld_layout(struct ld *ld)
{
    const struct ld_options *opt = ld->opt;
    struct osec *bss;
    uint64_t cur = opt->base;

    new_osec(ld, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, false);
    new_osec(ld, ".rodata", SHT_PROGBITS, SHF_ALLOC, false);
    new_osec(ld, ".init_array", SHT_INIT_ARRAY, SHF_ALLOC | SHF_WRITE, false);
    new_osec(ld, ".fini_array", SHT_FINI_ARRAY, SHF_ALLOC | SHF_WRITE, false);
    new_osec(ld, ".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, true);
    for (size_t i = 0; i < opt->nregions; i++) {
        if (find_osec(ld, opt->regions[i]))
            ld_fatal(ld, "--region %s: name already used by another output section",
                     opt->regions[i]);
        new_osec(ld, opt->regions[i], SHT_NOBITS, SHF_ALLOC | SHF_WRITE, true);
    }
    bss = new_osec(ld, ".bss", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, true);

    for (struct obj *o = ld->objs; o; o = o->next) {
        if (!o->loaded)
            continue;
        for (uint32_t i = 1; i < o->nsecs; i++) {
            struct isec *s = &o->secs[i];
            struct osec *out;

            if (!(s->flags & SHF_ALLOC) || (s->flags & SHF_EXCLUDE))
                continue;
            if (s->type != SHT_PROGBITS && s->type != SHT_NOBITS &&
                s->type != SHT_INIT_ARRAY && s->type != SHT_FINI_ARRAY &&
                s->type != SHT_PREINIT_ARRAY)
                continue; /* notes and other metadata are not loaded */
            out = classify(ld, s);
            if ((s->flags & SHF_MERGE) && (s->flags & SHF_STRINGS) && s->entsize == 1 &&
                out == find_osec(ld, ".rodata"))
                s->merged = true;
            if (s->type != SHT_NOBITS)
                out->type = out->type == SHT_NOBITS ? SHT_PROGBITS : out->type;
            osec_add(out, s);
        }
    }
    merge_strings(ld, find_osec(ld, ".rodata"));

    /* A region holding only NOBITS inputs stays NOBITS (zeroed at load). */
    for (struct osec *o = ld->osecs; o; o = o->next) {
        bool progbits = false;
        for (uint32_t i = 0; i < o->nin; i++)
            progbits |= o->in[i]->type != SHT_NOBITS;
        if (o != bss && o->type == SHT_NOBITS && progbits)
            o->type = SHT_PROGBITS;
        if (o == bss && progbits)
            o->type = SHT_NOBITS; /* cannot happen: classify puts PROGBITS elsewhere */
    }

    /* Assign addresses. */
    for (struct osec *o = ld->osecs; o; o = o->next) {
        uint64_t off = 0;

        for (size_t i = 0; i < opt->nstarts; i++)
            if (!strcmp(opt->starts[i].name, o->name)) {
                cur = opt->starts[i].addr;
                o->fixed = true;
            }
        if (o->page_align && !o->fixed)
            cur = (cur + LD_PAGE - 1) & ~(uint64_t)(LD_PAGE - 1);
        if (!o->fixed)
            cur = (cur + o->align - 1) & ~(uint64_t)(o->align - 1);
        else if (cur & (o->align - 1))
            ld_fatal(ld, "--section-start %s=0x%llx: address not aligned to %u",
                     o->name, (unsigned long long)cur, o->align);
        for (uint32_t i = 0; i < o->nin; i++) {
            struct isec *s = o->in[i];
            if (s->merged)
                continue;
            off = (off + s->align - 1) & ~(uint64_t)(s->align - 1);
            s->out_off = (uint32_t)off;
            off += s->size;
        }
        if (o->merged_size) {
            off = (off + o->merged_align - 1) & ~(uint64_t)(o->merged_align - 1);
            o->merged_off = (uint32_t)off;
            off += o->merged_size;
        }
        if (o == bss) {
            for (struct gsym *g = ld->gsyms; g; g = g->next) {
                if (g->kind != G_COMMON)
                    continue;
                if (g->align > o->align)
                    o->align = g->align;
                off = (off + g->align - 1) & ~(uint64_t)(g->align - 1);
                g->value = (uint32_t)off; /* offset in .bss for now */
                off += g->size;
            }
            if (cur & (o->align - 1))
                cur = (cur + o->align - 1) & ~(uint64_t)(o->align - 1);
            off = (off + 3) & ~(uint64_t)3; /* crt0 clears .bss by words */
        }
        if (cur + off > 0xFFFFFFFFull)
            ld_fatal(ld, "section %s at 0x%llx with size 0x%llx runs past the end of "
                     "the 32-bit address space", o->name, (unsigned long long)cur,
                     (unsigned long long)off);
        o->addr = (uint32_t)cur;
        o->size = (uint32_t)off;
        cur += off;
    }

    /* Overlaps (only possible with --section-start) and memory fit. */
    ld->image_end = opt->base;
    for (struct osec *a = ld->osecs; a; a = a->next) {
        uint64_t aend = (uint64_t)a->addr + a->size;
        if (!a->size)
            continue;
        if (aend > ld->image_end)
            ld->image_end = (uint32_t)aend;
        for (struct osec *b = a->next; b; b = b->next)
            if (b->size && a->addr < (uint64_t)b->addr + b->size && b->addr < aend)
                ld_err(ld, "sections %s [0x%08x, 0x%08llx) and %s [0x%08x, 0x%08llx) "
                       "overlap", a->name, a->addr, (unsigned long long)aend, b->name,
                       b->addr, (unsigned long long)b->addr + b->size);
    }
    if (ld->image_end > opt->mem_size)
        ld_err(ld, "program is too large: it ends at 0x%08x but memory is 0x%x bytes "
               "(--mem-size)", ld->image_end, opt->mem_size);
    ld->stack_top = opt->stack_top ? opt->stack_top
                  : (opt->mem_size > LD_ARGS_RESERVE ? opt->mem_size - LD_ARGS_RESERVE : 0);
    if (ld->stack_top & 7)
        ld_err(ld, "--stack-top 0x%08x is not 8-byte aligned", ld->stack_top);
    if (ld->stack_top > opt->mem_size)
        ld_err(ld, "--stack-top 0x%08x is above the end of memory 0x%x", ld->stack_top,
               opt->mem_size);
    else if (ld->stack_top < ld->image_end && ld->image_end <= opt->mem_size)
        ld_err(ld, "no room for the stack: stack top 0x%08x is below the end of the "
               "program 0x%08x", ld->stack_top, ld->image_end);

    /* Final addresses of COMMON symbols. */
    for (struct gsym *g = ld->gsyms; g; g = g->next)
        if (g->kind == G_COMMON)
            g->addr = bss->addr + g->value;

    /* Linker-defined symbols. */
    for (struct osec *o = ld->osecs; o; o = o->next) {
        const char *b = bare(o->name);
        define_linker_symbol(ld, ld_printf("__%s_start", b), o->addr);
        define_linker_symbol(ld, ld_printf("__%s_end", b), o->addr + o->size);
    }
    define_linker_symbol(ld, "__bss_start", bss->addr);
    define_linker_symbol(ld, "__bss_end", bss->addr + bss->size);
    define_linker_symbol(ld, "__stack_top", ld->stack_top);
    define_linker_symbol(ld, "__image_end", ld->image_end);
    define_linker_symbol(ld, "_end", ld->image_end);
    define_linker_symbol(ld, "__mem_size", opt->mem_size);
    for (size_t i = 0; i < opt->ndefsyms; i++) {
        struct gsym *g = gsym_lookup(ld, opt->defsyms[i].name, true);
        if (g->kind == G_DEFINED || g->kind == G_ABS || g->kind == G_COMMON) {
            ld_err(ld, "--defsym %s: symbol is also defined in %s", g->name,
                   g->obj->name);
            continue;
        }
        g->kind = G_LINKER;
        g->addr = opt->defsyms[i].value;
        g->bind = STB_GLOBAL;
    }

    /* Addresses of defined globals. */
    for (struct gsym *g = ld->gsyms; g; g = g->next) {
        if (g->kind == G_ABS) {
            g->addr = g->value;
        } else if (g->kind == G_DEFINED) {
            if (!isec_addr(g->sec, g->value, &g->addr))
                ld_err(ld, "%s: symbol '%s' is defined in section %s, which is not "
                       "part of the program, or outside it (offset 0x%x)",
                       g->obj->name, g->name, g->sec->name, g->value);
        }
    }
    {
        struct gsym *e = gsym_lookup(ld, opt->entry, false);
        ld->entry = e ? e->addr : 0;
    }
}
