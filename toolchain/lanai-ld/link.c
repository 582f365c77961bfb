/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The link as a whole: read, resolve, place, relocate, write. */
#include <string.h>

#include "ld.h"

int ld_link(const struct ld_options *opt, struct ld_result *res)
{
    static struct ld ld; /* large (hash table); one link at a time */

    memset(&ld, 0, sizeof ld);
    memset(res, 0, sizeof *res);
    ld.opt = opt;
    ld.diag = opt->diag ? opt->diag : stderr;
    ld.objs_tail = &ld.objs;
    ld.gsyms_tail = &ld.gsyms;

    if (setjmp(ld.fatal_jmp))
        return ld.errors ? ld.errors : 1;
    if (opt->ninputs == 0)
        ld_fatal(&ld, "no input files");
    ld_read_inputs(&ld);
    /* The entry symbol counts as a strong reference, so an archive member
     * that defines it is pulled in. */
    gsym_lookup(&ld, opt->entry, true)->referenced = true;
    ld_resolve(&ld);
    ld_check_undefined(&ld);
    if (ld.errors)
        return ld.errors;
    if (opt->cpu) {
        ld_hazard_pass(&ld);
        if (ld.errors)
            return ld.errors;
    }
    ld_layout(&ld);
    if (ld.errors)
        return ld.errors;
    ld_relocate(&ld);
    if (ld.errors)
        return ld.errors;
    ld_write_outputs(&ld, res);
    return ld.errors;
}
