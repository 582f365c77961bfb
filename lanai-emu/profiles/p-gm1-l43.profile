# P-GM1, LANai 4.3 variant: the NIC-based barrier testbed of seed 002
# (Buntinas, Panda, Sadayappan, IPDPS'01), used by R7 (16 nodes).
# docs/profiles.md explains every key.
#
# Sources (short tags used below):
#   [002 s6]  seed 002 section 6: 16 dual P-II 300 MHz, 128 MB, Linux 2.2.5,
#             LANai 4.3 cards with 33 MHz NIC processors, Myrinet LAN,
#             one 16-port switch; GM 1.2.3
#   [002 s1]  seed 002 section 1: host-based one-way latency "may be as
#             high as 30 us"
#   [R-doc]   docs/profiles.md, Sources: P-GM1 PCI is 32-bit/33 MHz
#   [W-gen]   Myrinet article, fact-index.com/m/my/myrinet.html: first
#             generation 512 Mb/s, later 1.28 Gb/s, then 2 Gb/s
#   [W-nt99]  Chen et al., USENIX Windows NT Symposium 1999, section 5
#             (static.usenix.org/publications/library/proceedings/usenix-nt99/
#             full_papers/chen/chen_html/node13.html): LANai 4.x NIC, 1 MB SRAM
#   [W-sissa] as in p-gm2.profile (GM 256-byte bursts; 64/66 overheads)
# "provisional" numbers are placeholders to be calibrated against the named
# experiment (docs/profiles.md, "Calibration").
# R7 (docs/bench-r7.md, docs/profiles.md "R7 calibration"): host.post and
# host.recv are calibrated against it; nic.cpi stays 1 (the NIC rows follow
# the MCP's instructions at the clock); every other "provisional" number
# moves R7 by little (the sensitivities are in docs/profiles.md).

[cluster]
name  = P-GM1-L43
nodes = 16                  # [002 s6]

[nic]
clock = 33 MHz              # [002 s6] LANai 4.3
cpi   = 1                   # provisional: calibrate against R7 (NIC-PE 102.14 us at 16 nodes)
sram  = 1 MB                # [W-nt99] LANai 4.x board of the same era (002 gives no size); provisional

[pci]
width     = 32 bit          # [R-doc]
clock     = 33 MHz          # [R-doc]
transaction = 1300 ns       # provisional: p-gm2's 43 bus clocks at 33 MHz; calibrate against R7 (host-PE)
dma_read  = 1240 ns         # provisional: p-gm2's 41 bus clocks at 33 MHz; calibrate against R7
max_burst = 256 B           # [W-sissa] GM default PCI burst (assumed for GM 1.2.3)
pio_read  = 1.5 us          # provisional: no R7 path reads the board
pio_write = 120 ns          # provisional: PCI protocol, ~4 bus clocks at 33 MHz
pio_write_latency = 500 ns  # provisional: calibrate against R7 (host-PE)

[net]
link_rate      = 1.28 Gb/s  # [W-gen] the 1.28 Gb/s Myrinet generation; provisional: 002 says only "Myrinet LAN"
link_latency   = 100 ns     # provisional: no figure found for Myrinet LAN links; negligible beside 30 us steps
switch_latency = 300 ns     # provisional: no figure found for Myrinet LAN switches; negligible beside 30 us steps
switch_ports   = 16         # [002 s6] one 16-port switch

[host]
clock = 300 MHz             # [002 s6] Pentium II
cpus  = 2                   # [002 s6] dual
post  = 6 us                # calibrated against R7 (docs/profiles.md "R7 calibration"): the paper's host-PE step
                            # has ~14.7 us that does not scale with the NIC clock; ~2.7 us of it is PCI/PIO
recv  = 6 us                # calibrated against R7 with post: post + recv = 14.7 - 2.7 us, split evenly
poll  = 117 ns              # provisional: ~35 CPU cycles
copy_fixed = 200 ns         # provisional: barrier messages are empty; R7 is insensitive
copy_rate  = 8 ns/B         # provisional: ~125 MB/s memcpy; R7 is insensitive
interrupt  = 10 us          # provisional: not on the R7 path (GM polls)
signal     = 15 us          # provisional: not on the R7 path
compute_scale = 1
