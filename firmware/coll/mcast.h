/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NIC multicast (mcast.c): group tables and multisend from the root.
 */
#ifndef NC_MCAST_H
#define NC_MCAST_H

#include "mcp_plugin.h"

extern const struct mcp_coll nc_mcast;

#endif
