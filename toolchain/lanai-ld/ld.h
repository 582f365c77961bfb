/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lanai-ld: a static linker for LANai (EM_LANAI, ELF32 big-endian) objects
 * as clang --target=lanai produces them. docs/lanai-ld.md describes the
 * layout, the options and the output formats.
 *
 * Structure: input.c reads objects and archives, symtab.c resolves symbols,
 * layout.c places sections, reloc.c patches them, output.c writes the ELF,
 * the flat image and the map. All memory comes from one arena that is freed
 * when the link ends, so the library can be driven by a fuzzer.
 */
#ifndef NICOLL_LANAI_LD_H
#define NICOLL_LANAI_LD_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nicoll/nc_endian.h"

/* ---- ELF constants used here ------------------------------------------ */
#define EM_LANAI 244
#define ET_REL 1
#define ET_EXEC 2
#define SHT_NULL 0
#define SHT_PROGBITS 1
#define SHT_SYMTAB 2
#define SHT_STRTAB 3
#define SHT_RELA 4
#define SHT_NOBITS 8
#define SHT_REL 9
#define SHT_INIT_ARRAY 14
#define SHT_FINI_ARRAY 15
#define SHT_PREINIT_ARRAY 16
#define SHT_GROUP 17
#define SHF_WRITE 0x1
#define SHF_ALLOC 0x2
#define SHF_EXECINSTR 0x4
#define SHF_MERGE 0x10
#define SHF_STRINGS 0x20
#define SHF_EXCLUDE 0x80000000u
#define SHN_UNDEF 0
#define SHN_LORESERVE 0xff00
#define SHN_ABS 0xfff1
#define SHN_COMMON 0xfff2
#define SHN_XINDEX 0xffff
#define STB_LOCAL 0
#define STB_GLOBAL 1
#define STB_WEAK 2
#define STT_NOTYPE 0
#define STT_OBJECT 1
#define STT_FUNC 2
#define STT_SECTION 3
#define STT_FILE 4
#define PT_LOAD 1
#define PF_X 1
#define PF_W 2
#define PF_R 4

#define R_LANAI_NONE 0
#define R_LANAI_21 1
#define R_LANAI_21_F 2
#define R_LANAI_25 3
#define R_LANAI_32 4
#define R_LANAI_HI16 5
#define R_LANAI_LO16 6

#define LD_PAGE 4096u
#define LD_MAX_ALIGN 0x100000u /* 1 MiB: larger alignments are refused */
#define LD_MAX_REGIONS 8
#define LD_MAX_DEFSYMS 32
#define LD_MAX_SECTION_STARTS 16

/* ---- options ----------------------------------------------------------- */
struct ld_input {
    const char *name;    /* path, for messages */
    const uint8_t *data; /* whole file */
    size_t size;
};

struct ld_section_start {
    const char *name;  /* output section name, e.g. ".data" */
    uint32_t addr;
};

struct ld_defsym {
    const char *name;
    uint32_t value;
};

struct ld_options {
    struct ld_input *inputs;
    size_t ninputs;
    uint32_t base;          /* address of the first output section */
    uint32_t mem_size;      /* memory the program must fit in */
    uint32_t stack_top;     /* __stack_top; 0 = mem_size - LD_ARGS_RESERVE */
    const char *entry;      /* entry symbol, default "_start" */
    const char *regions[LD_MAX_REGIONS]; /* ".name": own page-aligned section */
    size_t nregions;
    struct ld_section_start starts[LD_MAX_SECTION_STARTS];
    size_t nstarts;
    struct ld_defsym defsyms[LD_MAX_DEFSYMS];
    size_t ndefsyms;
    bool want_image, want_map;
    const char *cpu;        /* -mcpu: NULL (v11) or "lanai9.0"/"lanai9.1" */
    bool hazard_report;     /* --hazard-report: counts on diag */
    bool no_hazard_fix;     /* --no-hazard-fix: count only (tests, mutants) */
    FILE *diag;             /* where messages go (stderr) */
};

/* Bytes at the top of memory left for the loader's argument block. */
#define LD_ARGS_RESERVE 4096u

struct ld_result {
    uint8_t *elf;   size_t elf_size;
    uint8_t *image; size_t image_size;
    char *map;      size_t map_size;
};

/* Link. Returns 0 on success (outputs in *res, valid until ld_free), or the
 * number of errors (all printed on opt->diag). */
int ld_link(const struct ld_options *opt, struct ld_result *res);
void ld_free(void);

/* ---- internal ----------------------------------------------------------- */
struct osec;
struct obj;
struct gsym;

/* One piece of a merged string section: input offset range -> output. */
struct piece {
    uint32_t in_off, len; /* len includes the terminating NUL */
    uint32_t out_off;     /* offset in the merged blob */
};

struct isec {
    struct obj *obj;
    uint32_t index;
    const char *name;
    uint32_t type, flags, size, align, entsize, link, info;
    const uint8_t *data;  /* NULL for NOBITS */
    uint8_t *out_data;    /* patched copy, for PROGBITS that are output */
    struct osec *out;     /* NULL: not part of the program */
    uint32_t out_off;     /* offset inside out */
    uint32_t addr;
    /* merged strings: pieces sorted by in_off */
    struct piece *pieces;
    uint32_t npieces;
    bool merged;
    struct isec *rela;    /* its relocation section, if any */
};

struct isym {
    const char *name;
    uint32_t value, size;
    uint8_t bind, type;
    uint16_t shndx;
    struct gsym *g;       /* for non-local symbols */
};

struct obj {
    const char *name;     /* "a.o" or "lib.a(m.o)" */
    const uint8_t *data;
    size_t size;
    uint32_t nsecs;
    struct isec *secs;
    uint32_t nsyms;
    struct isym *syms;
    uint32_t symtab_index;
    bool loaded;          /* part of the link (archive members may not be) */
    struct obj *next;
};

enum gkind { G_UNDEF, G_DEFINED, G_COMMON, G_ABS, G_LINKER };

struct gsym {
    const char *name;
    enum gkind kind;
    uint8_t bind, type;
    struct obj *obj;      /* defining object */
    struct isec *sec;     /* defining section (G_DEFINED) */
    uint32_t value, size, align;
    uint32_t addr;        /* final address */
    struct obj *ref_obj;  /* first object that referenced it */
    struct gsym *hnext;
    struct gsym *next;    /* in definition order */
    bool referenced;
};

struct osec {
    const char *name;
    uint32_t type, flags, align;
    uint32_t addr, size;
    bool page_align;      /* starts on its own LD_PAGE */
    bool fixed;           /* address from --section-start */
    struct isec **in;
    uint32_t nin, capin;
    uint8_t *merged;      /* merged-string blob appended at the end */
    uint32_t merged_off, merged_size, merged_align;
    struct osec *next;
};

struct ld {
    const struct ld_options *opt;
    FILE *diag;
    int errors;
    jmp_buf fatal_jmp;
    struct obj *objs, **objs_tail;
    struct gsym *gsyms, **gsyms_tail;
    struct gsym *hash[4096];
    struct osec *osecs;
    uint32_t image_end;
    uint32_t entry;
    uint32_t stack_top;
};

/* util.c */
void *ld_alloc(size_t n);
char *ld_strdup(const char *s);
char *ld_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ld_err(struct ld *ld, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
_Noreturn void ld_fatal(struct ld *ld, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
uint32_t align_up(uint32_t v, uint32_t a);

/* input.c */
void ld_read_inputs(struct ld *ld);
const char *isym_describe(const struct obj *o, uint32_t symi);

/* symtab.c */
struct gsym *gsym_lookup(struct ld *ld, const char *name, bool create);
void ld_add_object_symbols(struct ld *ld, struct obj *o);
void ld_resolve(struct ld *ld);
void ld_check_undefined(struct ld *ld);

/* layout.c */
void ld_layout(struct ld *ld);
/* Address of byte 'off' of an input section that is part of the output;
 * false if off is outside it (or outside every merged string). */
bool isec_addr(const struct isec *s, uint32_t off, uint32_t *addr);

/* hazard.c: nops against load-use hazards (-mcpu=lanai9.x), before layout */
void ld_hazard_pass(struct ld *ld);

/* reloc.c */
void ld_relocate(struct ld *ld);

/* output.c */
void ld_write_outputs(struct ld *ld, struct ld_result *res);

#endif
