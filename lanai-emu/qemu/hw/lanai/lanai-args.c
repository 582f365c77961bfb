/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Program arguments for the LANai machines (lanai-args.h). */
#include "qemu/osdep.h"
#include "lanai-args.h"

static int unhex(int c)
{
    return g_ascii_isxdigit(c) ? g_ascii_xdigit_value(c) : -1;
}

GPtrArray *lanai_split_args(const char *path, const char *cmdline)
{
    GPtrArray *args = g_ptr_array_new_with_free_func(g_free);
    const char *p = cmdline ? cmdline : "";

    g_ptr_array_add(args, g_strdup(path));
    while (*p) {
        GString *a;

        if (*p == ' ') {
            p++;
            continue;
        }
        a = g_string_new(NULL);
        while (*p && *p != ' ') {
            if (p[0] == '%' && unhex(p[1]) >= 0 && unhex(p[2]) >= 0) {
                g_string_append_c(a, (char)(unhex(p[1]) << 4 | unhex(p[2])));
                p += 3;
            } else {
                g_string_append_c(a, *p++);
            }
        }
        g_ptr_array_add(args, g_string_free(a, false));
    }
    return args;
}
