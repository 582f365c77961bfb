# P-GM1, LANai 7.2 variant: the 8 nodes of seed 002's cluster that also
# hold LANai 7.2 cards (Buntinas, Panda, Sadayappan, IPDPS'01), used by R7
# (8 nodes). Host and PCI are those of p-gm1-l43.profile.
# docs/profiles.md explains every key.
#
# Sources (short tags used below):
#   [002 s6]  seed 002 section 6: 8 of the 16 dual P-II 300 MHz nodes have
#             LANai 7.2 cards with 66 MHz NIC processors, on a Myrinet LAN
#             through an 8-port switch; GM 1.2.3
#   [002 s1]  seed 002 section 1: host-based one-way latency up to 30 us
#   [R-doc]   docs/profiles.md, Sources: P-GM1 PCI is 32-bit/33 MHz
#   [V-pci64] Myricom PCI64 Programmer's Documentation,
#             www.myri.com/myrinet/PCI64/programming.html: LANai 7.2 is the
#             chip of the M2M/M2L-PCI64A boards (1999-2000)
#   [W-gen]   Myrinet article, fact-index.com/m/my/myrinet.html: 512 Mb/s,
#             then 1.28 Gb/s, then 2 Gb/s generations
#   [W-sissa] as in p-gm2.profile (GM 256-byte bursts; 64/66 overheads)
# "provisional" numbers are placeholders to be calibrated against the named
# experiment (docs/profiles.md, "Calibration").
# R7 (docs/bench-r7.md, docs/profiles.md "R7 calibration"): host.post and
# host.recv are calibrated against it; nic.cpi stays 1 (the NIC rows follow
# the MCP's instructions at the clock); every other "provisional" number
# moves R7 by little (the sensitivities are in docs/profiles.md).

[cluster]
name  = P-GM1-L72
nodes = 8                   # [002 s6]

[nic]
clock = 66 MHz              # [002 s6] LANai 7.2
cpi   = 1                   # provisional: calibrate against R7 (NIC-PE 49.25 us at 8 nodes)
sram  = 2 MB                # provisional: 002 gives no size; [V-pci64] PCI64A board; capacity only, no timing effect

[pci]
width     = 32 bit          # [R-doc] (the PCI64A board runs at the host slot's 32/33)
clock     = 33 MHz          # [R-doc]
transaction = 1300 ns       # provisional: as p-gm1-l43; calibrate against R7 (host-PE 90.24 us at 8 nodes)
dma_read  = 1240 ns         # provisional: as p-gm1-l43; calibrate against R7
max_burst = 256 B           # [W-sissa] GM default PCI burst (assumed for GM 1.2.3)
pio_read  = 1.5 us          # provisional: no R7 path reads the board
pio_write = 120 ns          # provisional: PCI protocol, ~4 bus clocks at 33 MHz
pio_write_latency = 500 ns  # provisional: calibrate against R7 (host-PE)

[net]
link_rate      = 1.28 Gb/s  # [W-gen] the 1.28 Gb/s Myrinet generation; provisional: 002 says only "Myrinet LAN"
link_latency   = 100 ns     # provisional: negligible beside 30 us steps
switch_latency = 300 ns     # provisional: negligible beside 30 us steps
switch_ports   = 8          # [002 s6] one 8-port switch

[host]
clock = 300 MHz             # [002 s6] Pentium II
cpus  = 2                   # [002 s6]
post  = 6 us                # calibrated against R7 (docs/profiles.md "R7 calibration"): the paper's host-PE step
                            # has ~14.7 us that does not scale with the NIC clock; ~2.7 us of it is PCI/PIO
recv  = 6 us                # calibrated against R7 with post: post + recv = 14.7 - 2.7 us, split evenly
poll  = 117 ns              # provisional: ~35 CPU cycles
copy_fixed = 200 ns         # provisional: R7 is insensitive
copy_rate  = 8 ns/B         # provisional: R7 is insensitive
interrupt  = 10 us          # provisional: not on the R7 path
signal     = 15 us          # provisional: not on the R7 path
compute_scale = 1
