/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Applying relocations (docs/lanai-isa.md section 10.3). No type is
 * pc-relative; V = S + A. Fields are cleared and inserted with a mask, never
 * ORed, and range checks name the file, section, offset and symbol.
 */
#include <string.h>

#include "ld.h"

static const char *type_name(uint32_t t)
{
    static const char *const n[] = {
        "R_LANAI_NONE", "R_LANAI_21", "R_LANAI_21_F", "R_LANAI_25",
        "R_LANAI_32", "R_LANAI_HI16", "R_LANAI_LO16",
    };
    return t < sizeof n / sizeof n[0] ? n[t] : "unknown";
}

/* Resolve the value S + A of relocation target symi (with addend a) in
 * object o. Returns false after reporting an error. */
static bool target_value(struct ld *ld, struct obj *o, const struct isec *s,
                         uint32_t r_off, uint32_t symi, int32_t a, uint32_t *v)
{
    const struct isym *y = &o->syms[symi];

    if (y->bind != STB_LOCAL) {
        struct gsym *g = y->g;

        switch (g->kind) {
        case G_UNDEF:
            if (y->bind == STB_WEAK || !g->referenced) {
                *v = (uint32_t)a; /* undefined weak: address 0 */
                return true;
            }
            ld_err(ld, "%s: section %s offset 0x%x: undefined symbol '%s'", o->name,
                   s->name, r_off, y->name);
            return false;
        default:
            *v = g->addr + (uint32_t)a;
            return true;
        }
    }
    if (y->shndx == SHN_ABS) {
        *v = y->value + (uint32_t)a;
        return true;
    }
    if (y->shndx == SHN_UNDEF || y->shndx == SHN_COMMON) {
        ld_err(ld, "%s: section %s offset 0x%x: local symbol %s has no section",
               o->name, s->name, r_off, isym_describe(o, symi));
        return false;
    }
    {
        const struct isec *ts = &o->secs[y->shndx];
        uint32_t addr;
        /* A section symbol into merged strings: the addend selects the
         * string, so map value + addend as a whole. */
        if (ts->merged && y->type == STT_SECTION) {
            if (!isec_addr(ts, y->value + (uint32_t)a, &addr)) {
                ld_err(ld, "%s: section %s offset 0x%x: %s + 0x%x points outside "
                       "the section", o->name, s->name, r_off, isym_describe(o, symi),
                       (uint32_t)a);
                return false;
            }
            *v = addr;
            return true;
        }
        if (!isec_addr(ts, y->value, &addr)) {
            ld_err(ld, "%s: section %s offset 0x%x: symbol %s is in section %s, which "
                   "is not part of the program", o->name, s->name, r_off,
                   isym_describe(o, symi), ts->name);
            return false;
        }
        *v = addr + (uint32_t)a;
        return true;
    }
}

static void apply(struct ld *ld, struct isec *s, uint32_t r_off, uint32_t type,
                  uint32_t symi, uint32_t v)
{
    struct obj *o = s->obj;
    uint8_t *p = s->out_data + r_off;
    uint32_t w = nc_get_be32(p);

#define RELOC_ERR(...) \
    ld_err(ld, "%s: section %s offset 0x%x: %s against %s: " __VA_ARGS__)

    switch (type) {
    case R_LANAI_21:
    case R_LANAI_21_F:
        /* Only SLS and SLI have a 21-bit field. clang 14 also emits
         * R_LANAI_21 on RI add/or when it folds goto *table[constant] into
         * a label address; patching that would corrupt the instruction. */
        if ((w >> 28) != 0xF || ((w >> 16) & 3) == 3) {
            RELOC_ERR("instruction 0x%08x is not SLS or SLI (clang 14 emits this for "
                      "'goto *table[constant]'; make the index non-constant, see "
                      "docs/lanai-cc.md)", o->name, s->name, r_off, type_name(type),
                      isym_describe(o, symi), w);
            return;
        }
        /* SLI (insn[17:16] = 10) zero-extends its 21 bits; SLS sign-extends
         * them (docs/lanai-iss.md), so an SLS address must lie in the low
         * 1 MiB or the top 1 MiB of the address space. */
        if (((w >> 28) == 0xF && ((w >> 16) & 3) == 2) ? v >= (1u << 21)
                                                       : (v >= (1u << 20) && v < 0xFFF00000u)) {
            RELOC_ERR("value 0x%08x does not fit in 21 bits (%s; with -mcmodel=small "
                      "data must lie below 1 MiB and code below 2 MiB)", o->name,
                      s->name, r_off, type_name(type), isym_describe(o, symi), v,
                      ((w >> 16) & 3) == 2 ? "SLI: 0..0x1fffff"
                                           : "SLS: sign-extended, below 0x100000");
            return;
        }
        if (type == R_LANAI_21)
            w = (w & ~0x007CFFFFu) | ((v >> 16) & 31) << 18 | (v & 0xFFFF);
        else
            w = (w & ~0x007CFFFCu) | ((v >> 16) & 31) << 18 | (v & 0xFFFC);
        break;
    case R_LANAI_25:
        if (v >= (1u << 25)) {
            RELOC_ERR("branch target 0x%08x is not below 32 MiB", o->name, s->name,
                      r_off, type_name(type), isym_describe(o, symi), v);
            return;
        }
        if (v & 3) {
            RELOC_ERR("branch target 0x%08x is not 4-byte aligned", o->name, s->name,
                      r_off, type_name(type), isym_describe(o, symi), v);
            return;
        }
        w = (w & ~0x01FFFFFCu) | (v & 0x01FFFFFCu);
        break;
    case R_LANAI_32:
        w = v;
        break;
    case R_LANAI_HI16:
        w = (w & ~0xFFFFu) | (v >> 16);
        break;
    case R_LANAI_LO16:
        w = (w & ~0xFFFFu) | (v & 0xFFFF);
        break;
    default:
        return;
    }
#undef RELOC_ERR
    nc_put_be32(p, w);
}

void ld_relocate(struct ld *ld)
{
    for (struct obj *o = ld->objs; o; o = o->next) {
        if (!o->loaded)
            continue;
        for (uint32_t i = 1; i < o->nsecs; i++) {
            struct isec *s = &o->secs[i];
            const struct isec *r = s->rela;

            if (!s->out || s->type == SHT_NOBITS)
                continue;
            s->out_data = ld_alloc(s->size ? s->size : 1);
            if (s->size)
                memcpy(s->out_data, s->data, s->size);
            if (!r)
                continue;
            if (s->merged)
                ld_fatal(ld, "%s: section %s: relocations in a mergeable string section "
                         "are not supported", o->name, s->name);
            for (uint32_t k = 0; k < r->size / 12; k++) {
                const uint8_t *e = r->data + 12 * k;
                uint32_t r_off = nc_get_be32(e), info = nc_get_be32(e + 4);
                int32_t a = (int32_t)nc_get_be32(e + 8);
                uint32_t type = info & 0xFF, symi = info >> 8, v;

                if (type == R_LANAI_NONE)
                    continue;
                if (type > R_LANAI_LO16) {
                    ld_err(ld, "%s: section %s offset 0x%x: unknown relocation type %u",
                           o->name, s->name, r_off, type);
                    continue;
                }
                if (symi == 0 || symi >= o->nsyms) {
                    ld_err(ld, "%s: section %s offset 0x%x: %s: symbol index %u out of "
                           "range (%u symbols)", o->name, s->name, r_off, type_name(type),
                           symi, o->nsyms);
                    continue;
                }
                if (r_off > s->size || s->size - r_off < 4 ||
                    ((r_off & 3) && type != R_LANAI_32)) {
                    ld_err(ld, "%s: section %s offset 0x%x: %s against %s: offset is "
                           "outside the section (size 0x%x) or not 4-byte aligned",
                           o->name, s->name, r_off, type_name(type),
                           isym_describe(o, symi), s->size);
                    continue;
                }
                if (!target_value(ld, o, s, r_off, symi, a, &v))
                    continue;
                apply(ld, s, r_off, type, symi, v);
            }
        }
    }
}
