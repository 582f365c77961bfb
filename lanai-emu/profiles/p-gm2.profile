# P-GM2: the NIC-based multicast testbed of seed 000 (Yu, Buntinas, Panda,
# OSU-CISRC-5/03-TR33), used by R1-R4. docs/profiles.md explains every key.
#
# Sources (short tags used below):
#   [000 s7]  seed 000 section 7: 16 quad P-III 700 MHz, 64-bit/66 MHz PCI,
#             LANai 9.1 133 MHz, Myrinet-2000, Linux 2.4.18, GM-2.0 alpha
#   [000 s5]  seed 000 section 5.1: "the host overhead over GM is less than 1us"
#   [004 s4]  seed 004 section 4.4: PCI64B boards have 2 MB SRAM
#   [V-link]  Myricom product news, 1 May 2003, www.myri.com/news/03501/:
#             "500 MB/s (250+250 MB/s) Myrinet link speed"
#   [V-hw]    Myricom Myrinet-2000 performance page,
#             www.myricom.com/scs/performance/Myrinet-2000/: ~0.5 us total
#             hardware latency between the LANai ports of two NICs through
#             one switch (PHY conversion + switch); fiber 6.5 ns per metre
#   [W-sissa] SISSA Myrinet-2000 notes,
#             people.sissa.it/~inno/hpc.sissa.it/myrinet2000/ar01s03.html:
#             GM uses 256-byte PCI bursts by default; 512-byte bursts on
#             64-bit PCI measured 227 MB/s DMA read, 315 MB/s DMA write
# "provisional" numbers are placeholders to be calibrated against the named
# experiment (docs/profiles.md, "Calibration").

[cluster]
name  = P-GM2
nodes = 16                  # [000 s7] 16-node cluster

[nic]
clock = 133 MHz             # [000 s7] LANai 9.1
cpi   = 1                   # provisional: cost-model hook, calibrate against R1 and R2 (small sizes)
sram  = 2 MB                # [004 s4] PCI64B board (000 gives no size); lanai9-nic.md decision

[pci]
width     = 64 bit          # [000 s7]
clock     = 66 MHz          # [000 s7]
transaction = 650 ns        # provisional, derived from [W-sissa] writes: 512 B in 1625 ns minus 64 bus clocks (970 ns); calibrate against R1 (large sizes)
dma_read  = 620 ns          # provisional, derived from [W-sissa] reads: 512 B in 2256 ns minus 970 ns data minus transaction; calibrate against R1
max_burst = 256 B           # [W-sissa] GM default PCI burst
pio_read  = 1 us            # provisional: non-posted read through the host bridge; no R1-R4 path reads the board
pio_write = 60 ns           # provisional: PCI protocol, ~4 bus clocks (address, data, turnaround) at 66 MHz
pio_write_latency = 250 ns  # provisional: posted write reaching the board; calibrate against R1 (small sizes)

[net]
link_rate      = 250 MB/s   # [V-link] Myrinet-2000, 2 Gb/s data per direction
link_latency   = 100 ns     # provisional split of [V-hw] ~0.5 us = 2 links + 1 switch
switch_latency = 300 ns     # provisional split of [V-hw] ~0.5 us = 2 links + 1 switch
switch_ports   = 16         # provisional: [000 s7] names no switch; one 16-port crossbar holds 16 nodes

[host]
clock = 700 MHz             # [000 s7] Pentium III
cpus  = 4                   # [000 s7] quad SMP
post  = 500 ns              # provisional, bounded by [000 s5] (< 1 us per GM send); calibrate against R1 (host multiple unicasts)
recv  = 500 ns              # provisional, same bound as post; calibrate against R2 (host-based binomial)
poll  = 50 ns               # provisional: ~35 CPU cycles for one empty check of the event queue
copy_fixed = 100 ns         # provisional: call overhead; calibrate against R3 (16,287 B dip)
copy_rate  = 3 ns/B         # provisional: ~330 MB/s memcpy; calibrate against R3 (16,287 B dip) and R4 (2-8 KB)
interrupt  = 5 us           # provisional: not on any R1-R4 path (MPICH-GM and GM tests poll)
signal     = 8 us           # provisional: not on any R1-R4 path
compute_scale = 1           # compute(ns) is this host's own time (R4 skew is busy-wait time)
