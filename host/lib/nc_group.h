/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside libnicoll: how nc_group.c (the trees) writes a member's entry
 * through nicoll.c (the commands).
 */
#ifndef NC_GROUP_H
#define NC_GROUP_H

#include "nicoll.h"

/* This port's entry of group: its parent (NULL at the root) and its
 * children in the order the NIC sends to them (nch <= NC_GROUP_MAX_CHILDREN;
 * 0 for a leaf, at least 1 at the root), and the group's packets of
 * 1 << pkt_shift bytes (0: the MTU; nc_abi.h NC_MC_SET_SHAPE), strict FPFS
 * or not (NC_MC_SET_FPFS). NC_OK or a command's error. */
int nc_group_write(nc_port *p, uint32_t group, const nc_member *parent,
                   const nc_member *children, unsigned nch, unsigned pkt_shift, bool fpfs);

#endif
