# P-VM: the NICVM testbed of seed 004 chapter 4 (Wagner, MS thesis, OSU
# 2004), used by R10. docs/profiles.md explains every key.
#
# Sources (short tags used below):
#   [004 s4]  seed 004 section 4.4: 16 dual P-III 1 GHz, 33 MHz/32-bit PCI,
#             Myrinet-2000 through a 32-port switch, PCI64B cards with a
#             133 MHz LANai 9.1 and 2 MB SRAM; MPICH 1.2.5..10 over GM 2.0.3
#   [000 s5]  seed 000 section 5.1: GM host send overhead < 1 us (on P-III 700)
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
name  = P-VM
nodes = 16                  # [004 s4]

[nic]
clock = 133 MHz             # [004 s4] LANai 9.1
cpi   = 1                   # calibrated against R10: the no-op module's echo overhead, mean
                            # over 10 sizes 4-4016 B, 7.64 us at 1 (8.06 at 1.1, 8.90 at 1.2)
                            # against [004 s4]'s 7.6 us (docs/profiles.md, "R10 calibration")
sram  = 2 MB                # [004 s4]

[pci]
width     = 32 bit          # [004 s4]
clock     = 33 MHz          # [004 s4]
transaction = 1300 ns       # provisional: p-gm2's 43 bus clocks at 33 MHz; calibrate against R10 (echo, large sizes)
dma_read  = 1240 ns         # provisional: p-gm2's 41 bus clocks at 33 MHz; calibrate against R10 (echo, large sizes)
max_burst = 256 B           # [W-sissa] GM default PCI burst
pio_read  = 1.5 us          # provisional: no R10 path reads the board
pio_write = 120 ns          # provisional: PCI protocol, ~4 bus clocks at 33 MHz
pio_write_latency = 500 ns  # provisional: calibrate against R10 (ping-pong, small sizes)

[net]
link_rate      = 250 MB/s   # [V-link] Myrinet-2000
link_latency   = 100 ns     # provisional split of [V-hw] ~0.5 us = 2 links + 1 switch
switch_latency = 300 ns     # provisional split of [V-hw] ~0.5 us = 2 links + 1 switch
switch_ports   = 32         # [004 s4] 32-port switch

[host]
clock = 1 GHz               # [004 s4] Pentium III
cpus  = 2                   # [004 s4] dual
post  = 350 ns              # provisional: p-gm2's 0.5 us ([000 s5] bound) scaled by CPU clock; calibrate against R10 (ping-pong)
recv  = 350 ns              # provisional: as post; calibrate against R10 (host echo)
poll  = 35 ns               # provisional: ~35 CPU cycles
copy_fixed = 70 ns          # provisional: calibrate against R10 (echo, large sizes)
copy_rate  = 2.5 ns/B       # provisional: ~400 MB/s memcpy; calibrate against R10 (echo crossover at 128 B)
interrupt  = 4 us           # provisional: not on the R10 paths (MPICH-GM polls)
signal     = 6 us           # provisional: not on the R10 paths
compute_scale = 1           # skew is busy-wait time on each node ([004 s4])
