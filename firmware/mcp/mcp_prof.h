/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RTC probes on the receive path of a collective's packet (a test build
 * with -DNC_MCP_PROFILE; docs/barrier.md "Profiling"): mcp_prof[i] sums
 * RTC ticks from a packet's arrival in rx_packet to probe i; mcp_prof[0]
 * counts the packets; mcp_plog is a ring of (probe, RTC) pairs. Without
 * the flag every probe is empty.
 */
#ifndef NC_MCP_PROF_H
#define NC_MCP_PROF_H

#include <stdint.h>

#ifdef NC_MCP_PROFILE
extern volatile uint32_t mcp_prof[8], mcp_prof_t0, mcp_plog[256], mcp_plog_n;
#define MCP_RTC() (*(volatile uint32_t *)(0xFFFFFE00u + 0x68u))
#define PLOG(id) (mcp_plog[mcp_plog_n++ & 255] = (uint32_t)(id) << 24 | (MCP_RTC() & 0xFFFFFF))
#define PROF0() (mcp_prof_t0 = MCP_RTC())
#define PROF(i) (mcp_prof[i] += MCP_RTC() - mcp_prof_t0, mcp_prof[0] += (i) == 1)
#else
#define PROF0() ((void)0)
#define PROF(i) ((void)0)
#define PLOG(id) ((void)0)
#endif

#endif
