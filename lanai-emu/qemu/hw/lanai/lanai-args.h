/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Program arguments for the LANai machines: a space-separated string with
 * %XX escapes (what lanai-qemu and lanai-run pass in -append or args=),
 * split into argv[0] = path followed by the arguments.
 */
#ifndef HW_LANAI_ARGS_H
#define HW_LANAI_ARGS_H

/* Returns a new array of g_malloc'ed strings; the caller frees it with
 * g_ptr_array_free(args, true). */
GPtrArray *lanai_split_args(const char *path, const char *cmdline);

#endif
