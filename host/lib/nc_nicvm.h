/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside libnicoll: how nc_nicvm.c (NICVM's calls) posts its operations
 * and waits for their answers through nicoll.c (the event ring). An
 * operation's NC_EV_NICVM answer carries a cookie the library gives out
 * here; take_event turns it back into the caller's ctx.
 */
#ifndef NC_NICVM_H
#define NC_NICVM_H

#include "nicoll.h"

#define NC_NV_COOKIES 64u   /* NICVM operations in flight per port */

/* A cookie for an operation whose answer's ctx is ctx; NC_EAGAIN if all
 * are in flight. */
int nc_nv_cookie(nc_port *p, void *ctx);
/* Give a cookie back whose command was not posted. */
void nc_nv_cookie_drop(nc_port *p, unsigned cookie);
/* Wait (polling) for the NC_EVENT_NICVM answer whose ctx is ctx; other
 * events wait in the stash for nc_poll. NC_OK, NC_ETIMEDOUT, NC_EAGAIN
 * (the stash is full). */
int nc_nv_wait(nc_port *p, const void *ctx, nc_event *ev, uint64_t timeout_ns);

#endif
