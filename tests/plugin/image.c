/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The test image of tests/plugin/suite: the MCP image exactly as
 * firmware/mcp_image.c builds it, plus the relay collective (relay.c).
 *
 * The image's list of collectives is renamed on the way in, so that the
 * core's start-up calls the list below, which registers the image's own
 * and then the relay: with the function-like macro, the core's call
 * `mcp_plugins()` becomes `mcp_plugins_()` (this file's), and the image's
 * declaration and definition `mcp_plugins(void)` become
 * `mcp_plugins_void(void)`.
 *
 * The image's collectives on the receive path's hook (host signals,
 * NICVM) are left out: with the relay's buffers their data would not fit
 * below the 1 MiB the small code model's data must lie in
 * (firmware/mcp/nc_fw_config.h), and the relay is the hook's only user
 * this test needs.
 */
#define NC_FW_SIGNAL 0
#define NC_FW_NICVM 0
#define NC_FW_REDUCE 0
void mcp_plugins_(void);
#define mcp_plugins(arg) mcp_plugins_##arg(arg)
#include "mcp_image.c"
#undef mcp_plugins
#include "relay.c"

void mcp_plugins_(void)
{
    mcp_plugins_void();
    (void)mcp_register(&nc_relay);
}
