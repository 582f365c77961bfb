/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The project's version, written here once: every tool's --version
 * ("TOOL (nicoll) VERSION"), the installed shared library's version and
 * soname, and the pkg-config files take it from this line (mk/common.mk
 * reads it for the scripts and the install, docs/install.md).
 */
#ifndef NICOLL_NC_VERSION_H
#define NICOLL_NC_VERSION_H

#define NC_VERSION "0.1.0"

#endif
