/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Global symbol resolution. Strong definitions must be unique; a strong
 * definition beats a weak one and a COMMON one; COMMONs of one name merge to
 * the largest size and alignment. Archive members are pulled in while they
 * define a symbol that is still undefined and strongly referenced, until
 * nothing changes (so member order inside an archive does not matter).
 */
#include <string.h>

#include "ld.h"

static uint32_t hash_name(const char *s)
{
    uint32_t h = 2166136261u;
    while (*s)
        h = (h ^ (uint8_t)*s++) * 16777619u;
    return h;
}

struct gsym *gsym_lookup(struct ld *ld, const char *name, bool create)
{
    uint32_t h = hash_name(name) % (sizeof ld->hash / sizeof ld->hash[0]);
    struct gsym *g;

    for (g = ld->hash[h]; g; g = g->hnext)
        if (!strcmp(g->name, name))
            return g;
    if (!create)
        return NULL;
    g = ld_alloc(sizeof *g);
    g->name = name;
    g->kind = G_UNDEF;
    g->hnext = ld->hash[h];
    ld->hash[h] = g;
    *ld->gsyms_tail = g;
    ld->gsyms_tail = &g->next;
    return g;
}

static const char *where(const struct obj *o, const struct isym *y)
{
    if (y->shndx == SHN_ABS)
        return ld_printf("%s (absolute)", o->name);
    return ld_printf("%s (section %s)", o->name, o->secs[y->shndx].name);
}

static const char *gwhere(const struct gsym *g)
{
    if (g->kind == G_ABS)
        return ld_printf("%s (absolute)", g->obj->name);
    return ld_printf("%s (section %s)", g->obj->name, g->sec->name);
}

void ld_add_object_symbols(struct ld *ld, struct obj *o)
{
    for (uint32_t i = 1; i < o->nsyms; i++) {
        struct isym *y = &o->syms[i];
        struct gsym *g;

        if (y->bind == STB_LOCAL)
            continue;
        if (!y->name[0]) {
            ld_err(ld, "%s: global symbol %u has an empty name", o->name, i);
            continue;
        }
        g = gsym_lookup(ld, y->name, true);
        y->g = g;

        if (y->shndx == SHN_UNDEF) {
            if (!g->ref_obj)
                g->ref_obj = o;
            if (y->bind == STB_GLOBAL)
                g->referenced = true;
            continue;
        }
        if (y->shndx == SHN_COMMON) {
            uint32_t align = y->value ? y->value : 1;
            if (g->kind == G_UNDEF) {
                g->kind = G_COMMON;
                g->obj = o;
                g->size = y->size;
                g->align = align;
                g->bind = y->bind;
                g->type = STT_OBJECT;
            } else if (g->kind == G_COMMON) {
                if (y->size > g->size)
                    g->size = y->size;
                if (align > g->align)
                    g->align = align;
            }
            continue;
        }
        /* a real definition */
        if (g->kind == G_DEFINED || g->kind == G_ABS) {
            if (g->bind == STB_WEAK && y->bind == STB_GLOBAL) {
                /* strong replaces weak */
            } else if (y->bind == STB_GLOBAL && g->bind == STB_GLOBAL) {
                ld_err(ld, "duplicate definition of symbol '%s': in %s and in %s",
                       y->name, gwhere(g), where(o, y));
                continue;
            } else {
                continue; /* keep the first of two weak ones, or strong over weak */
            }
        }
        g->kind = y->shndx == SHN_ABS ? G_ABS : G_DEFINED;
        g->obj = o;
        g->sec = y->shndx == SHN_ABS ? NULL : &o->secs[y->shndx];
        g->value = y->value;
        g->size = y->size;
        g->bind = y->bind;
        g->type = y->type;
    }
}

/* Does this (not yet loaded) object define a symbol we still need? */
static bool member_wanted(struct ld *ld, const struct obj *o)
{
    for (uint32_t i = 1; i < o->nsyms; i++) {
        const struct isym *y = &o->syms[i];
        struct gsym *g;

        if (y->bind == STB_LOCAL || y->shndx == SHN_UNDEF)
            continue;
        g = gsym_lookup(ld, y->name, false);
        if (g && g->kind == G_UNDEF && g->referenced)
            return true;
    }
    return false;
}

void ld_resolve(struct ld *ld)
{
    bool changed;

    for (struct obj *o = ld->objs; o; o = o->next)
        if (o->loaded)
            ld_add_object_symbols(ld, o);
    do {
        changed = false;
        for (struct obj *o = ld->objs; o; o = o->next) {
            if (o->loaded || !member_wanted(ld, o))
                continue;
            o->loaded = true;
            ld_add_object_symbols(ld, o);
            changed = true;
        }
    } while (changed);
}

void ld_check_undefined(struct ld *ld)
{
    struct gsym *g = gsym_lookup(ld, ld->opt->entry, false);

    if (!g || g->kind == G_UNDEF)
        ld_err(ld, "entry symbol '%s' is not defined", ld->opt->entry);
}
