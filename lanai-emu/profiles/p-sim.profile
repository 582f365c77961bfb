# P-SIM: the simulated platform of seed 001 section 5.2 (Kesavan, Panda,
# k-binomial trees for packetised multicast), used by R6 (host/bench/r6,
# docs/bench-r6.md). docs/profiles.md explains every key.
#
# The seed gives only its simulation's parameters:
#   [001 s5.2] 64 processors on 16 eight-port switches (irregular,
#              up*/down* routing), t_s = t_r = 12.5 us host software
#              overhead at the sender and at each receiver, 64-byte
#              packets, t_ns = 3.0 us and t_nr = 2.0 us NIC overhead to send
#              and to receive one packet.
# It names no hardware, so the NIC, PCI bus and links are P-GM2's (a
# decision: the LANai 9 the firmware is written for; p-gm2.profile gives
# their sources) and the NIC's speed is calibrated once so that the
# firmware's measured per-copy send overhead is t_ns:
#   [R6-cal]   host/bench/r6-calibrate (docs/bench-r6.md, "P-SIM"): on 9
#              nodes of one switch, a 64-byte multicast from a NIC to 8
#              children (the steady interval between copies: t_ns) and
#              along a chain (the step, NIC to NIC, less t_ns and the wire:
#              t_nr), both read from the event trace. t_ns is linear in
#              cpi: 3.414 us at cpi 1, so cpi 0.879 (3.0 / 3.414, rounded to
#              3 decimals) gives t_ns = 3.000 us; t_nr then measures 2.520 us
#              (the seed's 2.0: the firmware's receive path costs more,
#              beside its send path, than the seed's NIC; docs/bench-r6.md).
# 64-byte packets are not a profile key: the group's packet size
# (nc_tree_spec.pkt_size = 64, host/bench/r6).

[cluster]
name  = P-SIM
nodes = 64                  # [001 s5.2] 64 processors

[nic]
clock = 133 MHz             # decision: P-GM2's LANai 9.1 (the seed names no NIC)
cpi   = 0.879               # [R6-cal] once, from the per-copy send overhead t_ns = 3.0 us [001 s5.2]
sram  = 2 MB                # decision: P-GM2's board

[pci]
width     = 64 bit          # decision: P-GM2's bus
clock     = 66 MHz          # decision: P-GM2's bus
transaction = 650 ns        # P-GM2's (provisional there)
dma_read  = 620 ns          # P-GM2's (provisional there)
max_burst = 256 B           # P-GM2's
pio_read  = 1 us            # P-GM2's (provisional; not on R6's path)
pio_write = 60 ns           # P-GM2's (provisional)
pio_write_latency = 250 ns  # P-GM2's (provisional)

[net]
link_rate      = 250 MB/s   # decision: P-GM2's Myrinet-2000 link (the seed's model has no wire time)
link_latency   = 100 ns     # P-GM2's (provisional split of ~0.5 us per switch hop)
switch_latency = 300 ns     # P-GM2's (provisional split)
switch_ports   = 8          # [001 s5.2] eight-port switches

[host]
clock = 700 MHz             # decision: P-GM2's host (informational)
cpus  = 1                   # decision: one process per host
post  = 12.5 us             # [001 s5.2] t_s, charged once per command (a multicast is one)
recv  = 12.5 us             # [001 s5.2] t_r, charged once per event taken (the RECV)
poll  = 50 ns               # P-GM2's (provisional)
copy_fixed = 100 ns         # P-GM2's (provisional; R6 copies nothing)
copy_rate  = 3 ns/B         # P-GM2's (provisional)
interrupt  = 5 us           # P-GM2's (provisional; R6 polls)
signal     = 8 us           # P-GM2's (provisional; not on R6's path)
compute_scale = 1
