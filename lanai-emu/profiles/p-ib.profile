# P-IB: the InfiniBand testbed of seed 003 section 5 (Mamidala, Jin, Panda,
# OSU-CISRC-5/05-TR34: MPI communicator creation with hardware multicast,
# Basic, Lazy and Pool), used by R8. docs/profiles.md explains every key and
# says what running it on LANai 9 NICs changes ("P-IB").
#
# Sources (short tags used below; docs/profiles.md, "P-IB"):
#   [003 s5]   seed 003 section 5: dual Intel Xeon 2.66 GHz nodes, 512 KB
#              L2, PCI-X 64-bit 133 MHz; MT23108 InfiniBand HCAs (PCI-X);
#              one InfiniScale MTS14400 switch; OpenSM 1.7.0 as the
#              multicast management entity
#   [003 s5.1] seed 003 section 5.1: OpenSM's transaction time-out chosen as
#              10 ms; the outstanding MADs (maxMADs) set to "maximum"
#   [003 s5.2] seed 003 section 5.2: communicators of 16 and 32 processes;
#              1024-byte MPI_Bcast; computation between creation and use
#   [W-ibrate] computer.yourdictionary.com/infiniband: a 4X link signals at
#              10 Gb/s and carries 8 Gb/s of data (8B/10B) per direction
#   [W-ih]     Electronic Design, "Dual-Port Host Adapter Streamlines
#              InfiniBand Designs", www.electronicdesign.com/digital-ics/
#              dual-port-host-adapter-streamlines-infiniband-designs: the
#              MT23108 InfiniHost has two 4X ports and is a PCI-X master
#   [W-is3]    Electronic Design, "Switch-Chip Fuels Third-Generation
#              InfiniBand" (Nov. 2003), www.electronicdesign.com/boards/
#              switch-chip-fuels-third-generation-infiniband: InfiniScale III
#              (MT47396), 24 4X ports; InfiniBand latency "under 200 ns"
#   [V-gm21]   Myricom, GM 2.1 API performance: dual 2.4 GHz Xeon hosts,
#              4 KB DMA on PCI-X 133: 1044 MB/s bus write; host CPU per
#              message (send + receive) "less than 0.5 us"
#   [V-pcix]   Myricom, Bus performance of Myrinet-2000/PCI-X NICs,
#              www.myri.com/scs/performance/PCIX_motherboards/: hosts delay
#              a DMA read's first data by ~60 PCI-X clock cycles
#   [W-sissa]  SISSA Myrinet-2000 notes: GM as shipped uses 256-byte PCI bursts
#   [004 s4]   seed 004 section 4.4: PCI64B boards (LANai 9.1, 133 MHz) have
#              2 MB SRAM
# The emulator has no HCA model: the NICs are LANai 9 boards running the
# MCP, on the paper's hosts, bus, link rate and switch. "decision": a choice
# where the paper's platform has no LANai equivalent or no source was found,
# with its reason; "provisional": to be calibrated against R8
# (docs/profiles.md, "Calibration").

[cluster]
name  = P-IB
nodes = 32                  # decision: [003 s5.2]'s largest runs have 32 processes; the paper gives no node count (two CPUs a node allow 16 nodes x 2); the emulator runs one process per node, so 32 nodes x 1

[nic]
clock = 133 MHz             # decision: a LANai 9.1 (PCI64B) as P-GM2's, the NIC the MCP is written for, in place of [003 s5]'s MT23108 HCA
cpi   = 1                   # not calibrated: NIC-side costs are the LANai's own, not fitted to the HCA's
sram  = 2 MB                # [004 s4] the PCI64B board's SRAM (decision, with the board)

[pci]
width     = 64 bit          # [003 s5] PCI-X 64-bit
clock     = 133 MHz         # [003 s5] PCI-X 133 MHz (the host's bus, used as the paper gives it; a PCI64B would run it in 66 MHz PCI mode)
transaction = 83 ns         # provisional: 11 PCI-X clocks of protocol per burst, from [V-gm21]'s 4 KB write at 1044 MB/s (3923 ns, 3840 ns of it data), as P-GM164's
dma_read  = 450 ns          # provisional: [V-pcix] ~60 PCI-X clocks before a read's first data (host memory latency)
max_burst = 256 B           # [W-sissa] GM's default PCI burst, as every profile (decision: the MCP's DMA, not the HCA's)
pio_read  = 1 us            # provisional, as P-GM2: a non-posted read through the host bridge; no R8 path reads the board
pio_write = 30 ns           # provisional: PCI protocol, ~4 bus clocks (address, data, turnaround) at 133 MHz
pio_write_latency = 250 ns  # provisional, as P-GM2: a posted write reaching the board through the host bridge

[net]
link_rate      = 1 GB/s     # [W-ibrate] 4X: 8 Gb/s of data per direction; [W-ih] the MT23108's ports are 4X
link_latency   = 100 ns     # provisional: as the Myrinet profiles (cable and PHY); no 4X figure found
switch_latency = 200 ns     # provisional: [W-is3] "under 200 ns", the bound taken as the value
switch_ports   = 32         # decision: [003 s5]'s one switch holds all 32 nodes; the parser's crossbars have 8, 16 or 32 ports (docs/profiles.md, "P-IB")
mcast_entries  = 1024       # decision: no multicast table size found for the switch (docs/fabric.md, "Switch multicast")
switch_agent   = 10 us      # decision: no figure for the switch's management agent (docs/fabric.md); provisional against R8's set-up time
mcast_buffer   = 32         # decision: no replication buffer size found (docs/fabric.md)
sm_timeout     = 10 ms      # [003 s5.1] OpenSM's transaction time-out
sm_outstanding = 4096       # decision: [003 s5.1] sets maxMADs to "maximum" without a number: the key's largest value, no bound in practice
sm_request     = 20 us      # decision: the entity's default (docs/fabric.md); provisional: calibrate against R8 (Basic's creation time)
sm_set         = 5 us       # decision: the entity's default; provisional: calibrate against R8 (Basic's creation time)
sm_answer      = 2 us       # decision: the entity's default; provisional: calibrate against R8 (Basic's creation time)
sm_groups      = 1024       # decision: as many ids as a switch's table holds (net.mcast_entries)

[host]
clock = 2.66 GHz            # [003 s5] Intel Xeon
cpus  = 2                   # [003 s5] dual (informational: one process per node)
post  = 113 ns              # provisional: [V-gm21] < 0.5 us per message on 2.4 GHz Xeons, scaled to 2.66 GHz (451 ns), over the 2 posts + 2 events libnicoll charges per message, as P-GM164's
recv  = 113 ns              # provisional: the same bound, one of the 2 events (SENT, RECV) per message
poll  = 13 ns               # provisional: ~35 CPU cycles for one empty check of the event queue
copy_fixed = 40 ns          # provisional: call overhead; calibrate against R8's point-to-point broadcast
copy_rate  = 1 ns/B         # provisional: ~1 GB/s memcpy, a placeholder; calibrate against R8's point-to-point broadcast
interrupt  = 5 us           # provisional: not on the R8 paths (MPI polls)
signal     = 8 us           # provisional: not on the R8 paths
compute_scale = 1           # [003 s5.2]'s computation between creation and use is this host's own time
