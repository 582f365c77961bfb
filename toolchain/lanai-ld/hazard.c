/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The load-hazard pass for LANai 9.0/9.1 cores without load interlocks
 * (-mcpu=lanai9.0 / lanai9.1; docs/lanai-ld.md, "Hazard pass", and
 * docs/lanai-isa.md, "Timing and hazards").
 *
 * Rule: the two instructions executed after a data load into rX (X > 2)
 * must neither read nor write rX. The pass runs on the input objects after
 * symbol resolution and before layout. For every load it follows the
 * program's control flow two instructions on (fall-through, delay slots,
 * branch targets known from R_LANAI_25 relocations, possibly into other
 * objects) and asks for nops before an instruction that would touch rX too
 * early. A jump whose target is unknown (through a register, a load into
 * pc) makes the loaded register suspect at every address-taken instruction
 * (return points of calls, `add %pc, K`; targets of R_LANAI_32, HI16/LO16
 * and 21-bit relocations): those get nops when they touch it.
 *
 * Nops go before the instruction that needs them; an address that named
 * that instruction names the first nop, so every path into it pays them.
 * An instruction in a delay slot cannot be separated from its jump: its
 * nops go before the jump. Then every code section is rewritten: words
 * moved, relocation offsets, symbol values and sizes, section-relative
 * addends of every relocation that points into the section (jump tables,
 * .Ltmp labels), and the constant of `add %pc, K, rd`, shifted. The analysis
 * is run again on the result and must find nothing.
 */
#include <string.h>

#include "ld.h"
#include "lanai_reguse.h"

#define NOP 0x00000001u /* or %r0, 0x0, %r0: what llvm-mc emits for nop */

/* One instruction of a code section. */
struct hinsn {
    uint32_t w;
    uint32_t touch;    /* registers read or written (r0, r1, pc left out) */
    uint8_t ld;        /* data load destination, 0 if none */
    uint8_t slots;     /* a jump: delay slots (1 or 2); 0 otherwise */
    bool cond;         /* a jump that may fall through */
    bool indirect;     /* the target of an unknown jump may be here */
    uint8_t in_slot;   /* 1 or 2: this is that delay slot of the jump before */
    uint8_t pad;       /* nops to insert before it */
    /* a known jump target (R_LANAI_25) */
    struct isec *tsec;
    uint32_t tidx;
    bool tknown;
};

struct hsec {
    struct isec *s;
    uint32_t n;
    struct hinsn *in;
    uint32_t *before;  /* nops inserted before instruction i (prefix sums) */
    struct hsec *next;
};

/* Registers instruction w reads or writes and the destination of a data
 * load (the one table, common/lanai_reguse.c, that lanai-iss's and the QEMU
 * target's strict mode use too), and what it does to the pc: *slots delay
 * slots before a new pc takes effect (0: it does not write the pc), *cond
 * if the write may not happen (a conditional branch, a predicated RR). */
static uint32_t touched(uint32_t w, uint8_t *ld, uint8_t *slots, bool *cond)
{
    struct lanai_reguse u = lanai_reguse(w);
    unsigned top = w >> 28;

    *slots = 0;
    *cond = false;
    if (top == 0xC) {
        /* predicated RR (DDDI != 0000) may not jump */
        *cond = ((w >> 16) & 1) || (w & 7);
    } else if (top == 0xE && !((w >> 1) & 1)) { /* BR */
        *slots = 1;
        *cond = (((w >> 25) & 7) << 1 | (w & 1)) != 0;
    } else if (top == 0xF && ((w >> 16) & 3) == 2 && u.rd == 2) {
        *slots = 2;                             /* SLI to the pc */
    }
    if (u.load && u.rd == 2)
        *slots = 2;
    else if (u.alu_write && u.rd == 2)
        *slots = 1;
    *ld = (uint8_t)u.load_rd;
    return u.touched;
}

static bool is_code(const struct isec *s)
{
    return (s->flags & SHF_EXECINSTR) && (s->flags & SHF_ALLOC) &&
           s->type == SHT_PROGBITS && s->data && s->size && !(s->size & 3);
}

/* `add %pc, K, rd` (RI add, low half): a reference to its own address + K. */
static bool is_pcrel(uint32_t w)
{
    return (w >> 28) == 0 && ((w >> 18) & 31) == 2 && !((w >> 16) & 1);
}

static struct hsec *find_hsec(struct hsec *list, const struct isec *s)
{
    for (; list; list = list->next)
        if (list->s == s)
            return list;
    return NULL;
}

/* The section and offset a relocation's symbol + addend names, if it is
 * defined in a section of a loaded object. */
static bool reloc_target(struct obj *o, uint32_t symi, int32_t a,
                         struct isec **ts, uint32_t *off)
{
    const struct isym *y;

    if (symi == 0 || symi >= o->nsyms)
        return false;
    y = &o->syms[symi];
    if (y->bind != STB_LOCAL) {
        struct gsym *g = y->g;
        if (!g || g->kind != G_DEFINED || !g->sec)
            return false;
        *ts = g->sec;
        *off = g->value + (uint32_t)a;
        return true;
    }
    if (y->shndx == SHN_UNDEF || y->shndx >= SHN_LORESERVE || y->shndx >= o->nsecs)
        return false;
    *ts = &o->secs[y->shndx];
    *off = y->value + (uint32_t)a;
    return true;
}

static struct hsec *collect(struct ld *ld)
{
    struct hsec *list = NULL, **tail = &list;

    for (struct obj *o = ld->objs; o; o = o->next) {
        if (!o->loaded)
            continue;
        for (uint32_t i = 1; i < o->nsecs; i++) {
            struct isec *s = &o->secs[i];
            struct hsec *h;

            if (!is_code(s))
                continue;
            h = ld_alloc(sizeof *h);
            h->s = s;
            h->n = s->size / 4;
            h->in = ld_alloc(h->n * sizeof *h->in);
            h->before = ld_alloc((h->n + 1) * sizeof *h->before);
            *tail = h;
            tail = &h->next;
        }
    }
    return list;
}

/* Decode every code section, mark delay slots, known targets and
 * address-taken instructions. */
static void decode_all(struct ld *ld, struct hsec *list)
{
    for (struct hsec *h = list; h; h = h->next) {
        for (uint32_t i = 0; i < h->n; i++) {
            struct hinsn *x = &h->in[i];
            memset(x, 0, sizeof *x);
            x->w = nc_get_be32(h->s->data + 4 * i);
            x->touch = touched(x->w, &x->ld, &x->slots, &x->cond);
        }
        for (uint32_t i = 0; i < h->n; i++) {
            struct hinsn *x = &h->in[i];
            if (x->in_slot) /* a jump in a delay slot: not ours to model */
                continue;
            for (uint32_t k = 1; k <= x->slots && i + k < h->n; k++)
                h->in[i + k].in_slot = (uint8_t)k;
            if (is_pcrel(x->w)) {
                uint32_t t = 4 * i + (x->w & 0xFFFF);
                if (t < h->s->size && !(t & 3))
                    h->in[t / 4].indirect = true;
            }
        }
    }
    /* relocations: branch targets and address-taken code */
    for (struct obj *o = ld->objs; o; o = o->next) {
        if (!o->loaded)
            continue;
        for (uint32_t i = 1; i < o->nsecs; i++) {
            struct isec *s = &o->secs[i];
            const struct isec *r = s->rela;
            struct hsec *hs = is_code(s) ? find_hsec(list, s) : NULL;

            if (!r || !(s->flags & SHF_ALLOC))
                continue;
            for (uint32_t k = 0; k < r->size / 12; k++) {
                const uint8_t *e = r->data + 12 * k;
                uint32_t r_off = nc_get_be32(e), info = nc_get_be32(e + 4);
                int32_t a = (int32_t)nc_get_be32(e + 8);
                uint32_t type = info & 0xFF, off;
                struct isec *ts;
                struct hsec *ht;

                if (type == R_LANAI_NONE || !reloc_target(o, info >> 8, a, &ts, &off))
                    continue;
                ht = find_hsec(list, ts);
                if (!ht || off >= ts->size || (off & 3))
                    continue;
                if (type == R_LANAI_25 && hs && r_off < s->size && !(r_off & 3) &&
                    ((hs->in[r_off / 4].w >> 28) == 0xE)) {
                    struct hinsn *j = &hs->in[r_off / 4];
                    j->tsec = ts;
                    j->tidx = off / 4;
                    j->tknown = true;
                } else {
                    ht->in[off / 4].indirect = true;
                }
            }
        }
    }
}

/* Executed successors of instruction i: up to two (section, index) pairs;
 * *unknown when one of them is not known. */
struct succ { struct hsec *h; uint32_t i; };

static unsigned successors(struct hsec *list, struct hsec *h, uint32_t i,
                           struct succ out[2], bool *unknown)
{
    unsigned n = 0;
    struct hinsn *x = &h->in[i];

    *unknown = false;
    if (x->in_slot) {
        uint32_t ji = i - x->in_slot;
        struct hinsn *j = &h->in[ji];
        if (x->in_slot == j->slots) { /* the last slot: the jump happens */
            if (j->tknown) {
                struct hsec *t = find_hsec(list, j->tsec);
                if (t && j->tidx < t->n)
                    out[n++] = (struct succ){ t, j->tidx };
                else
                    *unknown = true;
            } else {
                *unknown = true;
            }
            if (!j->cond)
                return n;
        }
    }
    if (i + 1 < h->n)
        out[n++] = (struct succ){ h, i + 1 };
    return n;
}

static void want_pad(struct hinsn *x, unsigned p)
{
    if (x->pad < p)
        x->pad = (uint8_t)p;
}

/* Find every hazard; with 'fix', record the nops that remove it. Returns
 * the number of (load, instruction) pairs in hazard. unk[r] collects the
 * registers suspect at address-taken code (1: first instruction, 2: the
 * first two). */
static unsigned analyse(struct ld *ld, struct hsec *list, bool fix)
{
    uint8_t unk[32];
    unsigned count = 0;

    memset(unk, 0, sizeof unk);
    for (struct hsec *h = list; h; h = h->next) {
        for (uint32_t i = 0; i < h->n; i++) {
            struct succ s1[2], s2[2];
            unsigned n1, n2;
            bool u1, u2;
            unsigned r = h->in[i].ld;

            if (!r)
                continue;
            n1 = successors(list, h, i, s1, &u1);
            if (u1 && unk[r] < 2)
                unk[r] = 2;
            for (unsigned a = 0; a < n1; a++) {
                struct hinsn *x1 = &s1[a].h->in[s1[a].i];
                if ((x1->touch >> r) & 1) {
                    count++;
                    if (fix)
                        want_pad(x1, 2);
                    continue; /* its nops cover the second step too */
                }
                n2 = successors(list, s1[a].h, s1[a].i, s2, &u2);
                if (u2 && unk[r] < 1)
                    unk[r] = 1;
                for (unsigned b = 0; b < n2; b++) {
                    struct hinsn *x2 = &s2[b].h->in[s2[b].i];
                    if ((x2->touch >> r) & 1) {
                        count++;
                        if (!fix)
                            continue;
                        /* a load in slot 1 used in slot 2 of the same jump
                         * cannot be separated */
                        if (s2[b].h == h && s2[b].i == i + 1 && x2->in_slot == 2 &&
                            h->in[i].in_slot == 1)
                            ld_err(ld, "%s: section %s offset 0x%x: a load in the first "
                                   "delay slot whose register the second slot uses "
                                   "cannot be fixed (-mcpu=lanai9.x)", h->s->obj->name,
                                   h->s->name, 4 * i);
                        want_pad(x2, 1);
                    }
                }
            }
        }
    }
    /* address-taken code after jumps with unknown targets */
    for (struct hsec *h = list; h; h = h->next) {
        for (uint32_t i = 0; i < h->n; i++) {
            struct hinsn *x = &h->in[i];
            if (!x->indirect)
                continue;
            for (unsigned r = 3; r < 32; r++) {
                if (!unk[r])
                    continue;
                if ((x->touch >> r) & 1) {
                    count++;
                    if (fix)
                        want_pad(x, 2);
                } else if (unk[r] == 2 && i + 1 < h->n &&
                           ((h->in[i + 1].touch >> r) & 1)) {
                    count++;
                    if (fix)
                        want_pad(&h->in[i + 1], 1);
                }
            }
        }
    }
    if (!fix)
        return count;
    /* nops for a delay slot go before its jump */
    for (struct hsec *h = list; h; h = h->next) {
        for (uint32_t i = h->n; i-- > 0;) {
            struct hinsn *x = &h->in[i];
            if (x->in_slot && x->pad) {
                struct hinsn *j = &h->in[i - x->in_slot];
                if (x->indirect)
                    ld_err(ld, "%s: section %s offset 0x%x: a delay slot that is also "
                           "a jump target needs nops (-mcpu=lanai9.x)", h->s->obj->name,
                           h->s->name, 4 * i);
                want_pad(j, x->pad);
                x->pad = 0;
            }
        }
    }
    return count;
}

/* New offset of a reference to old offset off (the first nop before the
 * instruction there); inside an instruction, that instruction's bytes. */
static uint32_t map_ref(const struct hsec *h, uint32_t off)
{
    uint32_t i = off / 4;

    if (i >= h->n)
        return off + 4 * h->before[h->n];
    if (off & 3)
        return off + 4 * (h->before[i] + h->in[i].pad);
    return off + 4 * h->before[i];
}

/* New offset of instruction (or a byte inside instruction) at off. */
static uint32_t map_insn(const struct hsec *h, uint32_t off)
{
    uint32_t i = off / 4;

    if (i >= h->n)
        return off + 4 * h->before[h->n];
    return off + 4 * (h->before[i] + h->in[i].pad);
}

static void rewrite(struct ld *ld, struct hsec *list)
{
    /* prefix sums */
    for (struct hsec *h = list; h; h = h->next) {
        h->before[0] = 0;
        for (uint32_t i = 0; i < h->n; i++)
            h->before[i + 1] = h->before[i] + h->in[i].pad;
    }
    /* relocations: offsets in padded sections, addends into them */
    for (struct obj *o = ld->objs; o; o = o->next) {
        if (!o->loaded)
            continue;
        for (uint32_t i = 1; i < o->nsecs; i++) {
            struct isec *s = &o->secs[i];
            struct isec *r = s->rela;
            struct hsec *hs = find_hsec(list, s);
            uint8_t *nd;

            if (!r || !(s->flags & SHF_ALLOC))
                continue;
            nd = ld_alloc(r->size ? r->size : 1);
            memcpy(nd, r->data, r->size);
            for (uint32_t k = 0; k < r->size / 12; k++) {
                uint8_t *e = nd + 12 * k;
                uint32_t r_off = nc_get_be32(e), info = nc_get_be32(e + 4);
                int32_t a = (int32_t)nc_get_be32(e + 8);
                uint32_t off, base;
                struct isec *ts;
                struct hsec *ht;

                if (hs && hs->before[hs->n] && r_off < s->size)
                    nc_put_be32(e, map_insn(hs, r_off));
                if ((info & 0xFF) == R_LANAI_NONE ||
                    !reloc_target(o, info >> 8, a, &ts, &off))
                    continue;
                ht = find_hsec(list, ts);
                if (!ht || !ht->before[ht->n])
                    continue;
                base = off - (uint32_t)a; /* the symbol's own offset */
                nc_put_be32(e + 8, map_ref(ht, off) - map_ref(ht, base));
            }
            r->data = nd;
        }
    }
    /* symbols */
    for (struct obj *o = ld->objs; o; o = o->next) {
        if (!o->loaded)
            continue;
        for (uint32_t k = 1; k < o->nsyms; k++) {
            struct isym *y = &o->syms[k];
            struct hsec *h;
            if (y->shndx == SHN_UNDEF || y->shndx >= SHN_LORESERVE || y->shndx >= o->nsecs)
                continue;
            h = find_hsec(list, &o->secs[y->shndx]);
            if (!h || !h->before[h->n])
                continue;
            {
                uint32_t v = map_ref(h, y->value);
                uint32_t e = map_ref(h, y->value + y->size);
                y->size = y->size ? e - v : 0;
                y->value = v;
            }
        }
    }
    for (struct gsym *g = ld->gsyms; g; g = g->next) {
        struct hsec *h;
        if (g->kind != G_DEFINED || !g->sec)
            continue;
        h = find_hsec(list, g->sec);
        if (!h || !h->before[h->n])
            continue;
        {
            uint32_t v = map_ref(h, g->value), e = map_ref(h, g->value + g->size);
            g->size = g->size ? e - v : 0;
            g->value = v;
        }
    }
    /* section contents */
    for (struct hsec *h = list; h; h = h->next) {
        uint32_t total = h->before[h->n], at = 0;
        uint8_t *nd;
        if (!total)
            continue;
        nd = ld_alloc(4 * (h->n + total));
        for (uint32_t i = 0; i < h->n; i++) {
            uint32_t w = h->in[i].w;
            for (unsigned p = 0; p < h->in[i].pad; p++, at += 4)
                nc_put_be32(nd + at, NOP);
            if (is_pcrel(w)) {
                uint32_t t = 4 * i + (w & 0xFFFF);
                uint32_t k = map_ref(h, t) - map_insn(h, 4 * i);
                if (k > 0xFFFF)
                    ld_err(ld, "%s: section %s offset 0x%x: add %%pc, K no longer "
                           "fits after the hazard nops", h->s->obj->name, h->s->name,
                           4 * i);
                w = (w & ~0xFFFFu) | (k & 0xFFFF);
            }
            nc_put_be32(nd + at, w);
            at += 4;
        }
        h->s->data = nd;
        h->s->size = at;
    }
}

void ld_hazard_pass(struct ld *ld)
{
    struct hsec *list = collect(ld);
    unsigned found, nops = 0, left;

    decode_all(ld, list);
    found = analyse(ld, list, !ld->opt->no_hazard_fix);
    if (ld->errors)
        return;
    if (!ld->opt->no_hazard_fix) {
        for (struct hsec *h = list; h; h = h->next)
            for (uint32_t i = 0; i < h->n; i++)
                nops += h->in[i].pad;
        rewrite(ld, list);
        if (ld->errors)
            return;
        /* the result must be clean */
        list = collect(ld);
        decode_all(ld, list);
        left = analyse(ld, list, false);
    } else {
        left = found;
    }
    if (ld->opt->hazard_report)
        fprintf(ld->diag, "lanai-ld: %s: %u load hazards found, %u nops inserted, "
                "%u left\n", ld->opt->cpu, found, nops, left);
    if (left && !ld->opt->no_hazard_fix)
        ld_err(ld, "internal error: %u load hazards left after the hazard pass", left);
}
