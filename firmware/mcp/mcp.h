/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The MCP's core, one header per part:
 *   mcp_base.h   HAL, host ABI, capacities, wire format, helpers
 *   main.c       start-up, the event loop
 *   route.c      mcp_route.h: source routes to the other nodes
 *   dma.c        mcp_dma.h: the two host-DMA engines, request queues,
 *                completion by kind
 *   port.c       mcp_port.h: ports, host commands, registered memory,
 *                tokens, events
 *   tx.c         mcp_tx.h: the send side of every connection:
 *                packetisation, the go-back-N window (ref/proto nc_seq),
 *                retransmission timer, packet descriptors with completion
 *                callbacks
 *   rx.c         mcp_rx.h: the receive side: classification (nc_seq),
 *                delivery by DMA, ACK / NACK / REJECT, the closed-port rule
 *   ctrl.c       mcp_ctrl.h: small control packets (ACK, NACK, REJECT)
 *                waiting for the wire
 *   plugin.c     mcp_plugin.h: the host of the collectives (firmware/coll):
 *                dispatch by packet type, command, DMA and port event, and
 *                the pool of tokens for their packets
 *   mcp_prof.h   RTC probes for a profiling build
 * State is static and sized in nc_fw_config.h. A part includes the
 * headers of the parts it calls; this header includes them all. The core
 * names no collective: the image (firmware/mcp_image.c) registers them.
 */
#ifndef NC_MCP_H
#define NC_MCP_H

#include "mcp_base.h"
#include "mcp_route.h"
#include "mcp_dma.h"
#include "mcp_port.h"
#include "mcp_tx.h"
#include "mcp_rx.h"
#include "mcp_ctrl.h"
#include "mcp_plugin.h"
#include "mcp_prof.h"

#endif
