# P-AB: the application-bypass reduction testbed of seed 004 chapter 3
# (Wagner, MS thesis, OSU 2004), used by R9. A heterogeneous cluster: the
# base keys describe the 16 quad P-III 700 MHz nodes; [nodes] sections
# override them for the 16 dual P-III 1 GHz nodes. docs/profiles.md
# explains every key and the node numbering.
#
# Sources (short tags used below):
#   [004 s3]  seed 004 section 3.5: 32 nodes; 16 quad P-III 700 MHz with
#             66 MHz/64-bit PCI and 16 dual P-III 1 GHz with 33 MHz/32-bit
#             PCI; Myrinet-2000 around one 32-port switch; 4 of the 1 GHz
#             nodes have PCI64C cards (LANai 9.2, 200 MHz), the other 28 PCI64B
#             (LANai 9.1, 133 MHz); the two groups are interlaced in the
#             machine list; MPICH 1.2.4..8a over GM 1.5.2.1; signals from
#             the NIC
#   [004 s4]  seed 004 section 4.4: PCI64B boards have 2 MB SRAM
#   [000 s5]  seed 000 section 5.1: GM host send overhead < 1 us (P-III 700)
#   [V-pci64] Myricom PCI64B/C specifications
#             (www.myri.com/myrinet/PCI64/m3m-pmc64b.html): 133 MHz RISC
#             and memory on PCI64B, 200 MHz on PCI64C
#   [V-link]  Myricom product news, 1 May 2003, www.myri.com/news/03501/:
#             "500 MB/s (250+250 MB/s) Myrinet link speed"
#   [V-hw]    Myricom Myrinet-2000 performance page,
#             www.myricom.com/scs/performance/Myrinet-2000/: ~0.5 us hardware
#             latency between two NICs' LANai ports through one switch
#   [W-sissa] SISSA Myrinet-2000 notes,
#             people.sissa.it/~inno/hpc.sissa.it/myrinet2000/ar01s03.html:
#             GM default 256-byte PCI bursts; 64-bit PCI burst overheads
# "provisional" numbers are placeholders to be calibrated against the named
# experiment (docs/profiles.md, "Calibration").

[cluster]
name  = P-AB
nodes = 32                  # [004 s3]

# Even node ids: the 16 quad P-III 700 MHz nodes ([004 s3] interlaced list).
[nic]
clock = 133 MHz             # [004 s3] PCI64B, LANai 9.1
cpi   = 1                   # provisional: calibrate against R9 (latency without skew)
sram  = 2 MB                # [004 s4] PCI64B

[pci]
width     = 64 bit          # [004 s3]
clock     = 66 MHz          # [004 s3]
transaction = 650 ns        # provisional: as p-gm2 (derived from [W-sissa]); calibrate against R9
dma_read  = 620 ns          # provisional: as p-gm2 (derived from [W-sissa]); calibrate against R9
max_burst = 256 B           # [W-sissa] GM default PCI burst
pio_read  = 1 us            # provisional: no R9 path reads the board
pio_write = 60 ns           # provisional: PCI protocol, ~4 bus clocks at 66 MHz
pio_write_latency = 250 ns  # provisional: calibrate against R9

[net]
link_rate      = 250 MB/s   # [V-link] Myrinet-2000
link_latency   = 100 ns     # provisional split of [V-hw] ~0.5 us = 2 links + 1 switch
switch_latency = 300 ns     # provisional split of [V-hw] ~0.5 us = 2 links + 1 switch
switch_ports   = 32         # [004 s3] one 32-port switch

[host]
clock = 700 MHz             # [004 s3]
cpus  = 4                   # [004 s3] quad
post  = 500 ns              # provisional: bounded by [000 s5]; calibrate against R9 (latency without skew)
recv  = 500 ns              # provisional: calibrate against R9
poll  = 50 ns               # provisional: ~35 CPU cycles
copy_fixed = 100 ns         # provisional: R9 messages are 32-1024 B
copy_rate  = 3 ns/B         # provisional: ~330 MB/s memcpy
interrupt  = 5 us           # provisional: part of signal delivery
signal     = 8 us           # calibrated against R9: 32 nodes, 4 doubles, 1,000 us maximum skew (docs/profiles.md, "R9 calibration")
compute_scale = 1           # skew is busy-loop time on each node ([004 s3])

# Odd node ids 1..23: dual P-III 1 GHz, 32/33 PCI, PCI64B (LANai 9.1).
[nodes 1-23/2]
host.clock = 1 GHz          # [004 s3]
host.cpus  = 2              # [004 s3] dual
pci.width  = 32 bit         # [004 s3]
pci.clock  = 33 MHz         # [004 s3]
pci.transaction = 1300 ns   # provisional: p-gm2's 43 bus clocks at 33 MHz
pci.dma_read = 1240 ns      # provisional: p-gm2's 41 bus clocks at 33 MHz
pci.pio_read = 1.5 us       # provisional
pci.pio_write = 120 ns      # provisional: ~4 bus clocks at 33 MHz
pci.pio_write_latency = 500 ns # provisional
host.post  = 350 ns         # provisional: 0.5 us scaled by CPU clock
host.recv  = 350 ns         # provisional
host.poll  = 35 ns          # provisional: ~35 CPU cycles
host.copy_fixed = 70 ns     # provisional
host.copy_rate = 2.5 ns/B   # provisional: ~400 MB/s memcpy
host.interrupt = 4 us       # provisional
host.signal = 6 us          # calibrated against R9 with the base key (docs/profiles.md)

# Odd node ids 25..31: the four 1 GHz nodes with PCI64C cards. Which four
# machines held them is not stated in [004 s3]; the last four is a choice.
[nodes 25-31/2]
nic.clock  = 200 MHz        # [004 s3] [V-pci64] PCI64C, LANai 9.2
host.clock = 1 GHz          # [004 s3]
host.cpus  = 2              # [004 s3]
pci.width  = 32 bit         # [004 s3]
pci.clock  = 33 MHz         # [004 s3]
pci.transaction = 1300 ns   # provisional, as nodes 1-23/2
pci.dma_read = 1240 ns      # provisional
pci.pio_read = 1.5 us       # provisional
pci.pio_write = 120 ns      # provisional
pci.pio_write_latency = 500 ns # provisional
host.post  = 350 ns         # provisional
host.recv  = 350 ns         # provisional
host.poll  = 35 ns          # provisional
host.copy_fixed = 70 ns     # provisional
host.copy_rate = 2.5 ns/B   # provisional
host.interrupt = 4 us       # provisional
host.signal = 6 us          # calibrated against R9 with the base key (docs/profiles.md)
