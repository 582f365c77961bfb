/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What nicoll.c lends the library's other files (not exported: libnicoll.map
 * exports the nc_ names only). nc_signal.c posts its commands, takes send
 * tokens, sets the board's interrupt mask, and defers a host signal that
 * comes while the library is in the middle of a command or a poll.
 */
#ifndef NC_INTERNAL_H
#define NC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "nicoll.h"
#include "nicoll/nc_abi.h"

int ncp_post(nc_port *p, const union nc_cmd *c);
struct nc_backend *ncp_backend(nc_port *p);
/* The board's interrupt mask outside nc_wait's sleep (written now). */
void ncp_eimr(nc_port *p, uint32_t idle);
/* A send token for a message (its SENT event gives it back), or -1. */
int ncp_send_token(nc_port *p, void *ctx, const void *buf, size_t len, unsigned node,
                   unsigned port);
void ncp_send_token_drop(nc_port *p, unsigned k);

/* nc_signal.c: the library's critical sections (a command being written,
 * a poll); a host signal inside one runs when the outermost ends. */
void ncp_enter(void);
void ncp_leave(void);
/* p closes: its signals go (the NIC forgets them itself when it closes). */
void ncp_signal_forget(nc_port *p);

/* nc_reduce.c: an NC_EV_REDUCE event of cookie, as the caller gets it. */
void ncp_reduce_event(nc_port *p, uint32_t cookie, nc_event *ev);

#endif
