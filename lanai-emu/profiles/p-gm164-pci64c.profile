# P-GM164-C: the platform of Myricom's "GM 1.6.4 API performance with PCI64B
# and PCI64C Myrinet/PCI NICs" page (April 2003), PCI64C variant: two 2 GHz
# Pentium-4 Xeon Supermicro P4DL6 hosts (ServerWorks GC-LE), 64-bit/66 MHz
# PCI, M3F-PCI64C NICs (LANai 9.2 at 200 MHz) through one switch. A
# validation platform: host/bench/gm_anchor compares our figures with that
# page's table (docs/bench-gm.md). docs/profiles.md explains every key and
# the derivations ("P-GM164").
#
# Sources (short tags used below; docs/profiles.md, "Sources"):
#   [V-gm164]  Myricom, GM 1.6.4 API performance, April 2003,
#              www.myricom.com/scs/performance/Myrinet-2000/GM/gm-1.6.4-perf.html:
#              M3F-PCI64B / M3F-PCI64C in 2-GHz Pentium-IV Xeon Supermicro
#              P4DL6 hosts with 64-bit, 66 MHz PCI slots; PCI64B "133MHz
#              RISC & Memory", PCI64C "200MHz RISC & Memory"
#   [V-pci64]  Myricom PCI64B/C specifications (m2l-pci64b.html,
#              m3m-pmc64b.html, the PCI64 user manual p. 21): LANai 9 RISC at
#              up to 133 MHz (PCI64B) or 200 MHz (PCI64C); 64/32-bit,
#              66/33 MHz PCI 2.2, all burst modes
#   [004 s4]   seed 004 section 4.4: PCI64B boards with 2 MB SRAM
#   [V-news]   Myricom product news, 1 May 2003, www.myri.com/news/03501/:
#              "M3F-PCI64C-2", "M3F-PCI64B-2"; "500 MB/s (250+250 MB/s)
#              Myrinet link speed"
#   [V-hw]     Myricom Myrinet-2000 performance page: ~0.5 us hardware
#              latency between two NICs' LANai ports through one switch
#   [V-gm21]   Myricom, GM 2.1 API performance (GM performance index page):
#              dual 2.4 GHz Xeon GC-LE hosts, gm_debug 4 KB bursts at PCI-X
#              133 MHz: 780 MB/s bus read, 1044 MB/s bus write; host CPU per
#              message (send + receive) "less than 0.5 us"
#   [V-pcix]   Myricom, Bus performance of Myrinet-2000/PCI-X NICs,
#              www.myri.com/scs/performance/PCIX_motherboards/: "the host will
#              typically delay the beginning of DMA-read transfers for ~60
#              PCI-X clock cycles" (133.3 MHz: 450 ns)
#   [W-sissa]  SISSA Myrinet-2000 notes: GM as shipped uses 256-byte PCI bursts
#   [W-p4dl6]  trygve.com blog, Jan 2004: the Supermicro P4DL6 is a dual-Xeon
#              board with independent 64-bit PCI-X buses
# "provisional": no source gives the number; the comment says how it was
# chosen. Nothing here was fitted to [V-gm164]'s table.

[cluster]
name  = P-GM164-C
nodes = 2                   # [V-gm164] two hosts, NICs through one switch

[nic]
clock = 200 MHz             # [V-gm164] [V-pci64] PCI64C: LANai 9.2 at 200 MHz
cpi   = 1                   # provisional: cost-model hook (docs/profiles.md), not calibrated
sram  = 2 MB                # [V-news] M3F-PCI64C-2 (the -2 boards, as the PCI64B-2)

[pci]
width     = 64 bit          # [V-gm164] 64-bit, 66 MHz PCI slots
clock     = 66 MHz          # [V-gm164]
transaction = 167 ns        # provisional: 11 bus clocks of protocol per burst, from [V-gm21]'s GC-LE write rate (4 KB in 3923 ns at 1044 MB/s, 3840 ns of it data at PCI-X 133: 83 ns = 11 clocks), the clock count carried to 66 MHz
dma_read  = 450 ns          # provisional: [V-pcix] ~60 PCI-X clocks (450 ns) before a read's first data, taken as time (host memory latency does not scale with the bus clock); [V-gm21]'s GC-LE 780 MB/s read is that plus a bridge stream of ~870 MB/s, above this bus's 528 MB/s
max_burst = 256 B           # [W-sissa] GM's default PCI burst (measured there on an older GM; GM 1.6.4's own setting not found)
pio_read  = 1 us            # provisional: non-posted read through the host bridge; no benchmark path reads the board
pio_write = 60 ns           # provisional: PCI protocol, ~4 bus clocks (address, data, turnaround) at 66 MHz, as P-GM2
pio_write_latency = 250 ns  # provisional: posted write reaching the board through the GC-LE's I/O bridge, as P-GM2

[net]
link_rate      = 250 MB/s   # [V-news] Myrinet-2000, 2 Gb/s data per direction (M3F: fiber)
link_latency   = 100 ns     # provisional split of [V-hw] ~0.5 us = 2 links + 1 switch
switch_latency = 300 ns     # provisional split of [V-hw] ~0.5 us = 2 links + 1 switch
switch_ports   = 16         # provisional: [V-gm164] names no switch; the smallest Myrinet-2000 crossbar

[host]
clock = 2 GHz               # [V-gm164] 2-GHz Pentium-IV Xeon
cpus  = 2                   # [W-p4dl6] dual-Xeon board
post  = 150 ns              # provisional: [V-gm21] < 0.5 us per message (send + receive) on 2.4 GHz Xeon GC-LE hosts, scaled to 2 GHz (0.6 us), the bound taken as the value, over the 2 posts + 2 events libnicoll charges per message
recv  = 150 ns              # provisional: the same bound, one of the 2 events (SENT, RECV) per message
poll  = 18 ns               # provisional: ~35 CPU cycles for one empty check of the event queue, as P-GM2
copy_fixed = 50 ns          # provisional: call overhead; no benchmark path copies
copy_rate  = 1.5 ns/B       # provisional: ~670 MB/s memcpy on dual-channel DDR-200 (GC-LE); no benchmark path copies
interrupt  = 5 us           # provisional: not on any benchmark path (GM's tests poll)
signal     = 8 us           # provisional: not on any benchmark path
compute_scale = 1           # compute(ns) is this host's own time
