# make bench, R10 (seed 004 section 4.4, Figures 4.9-4.17): (a) ping-pong
# overhead of the NICVM plug-in; (b) echo round trips: host, no-op module,
# NIC echo; (c) NIC echo's factor; (d) broadcast latency at 16 nodes:
# host binomial vs Figure 4.3's module; (e) broadcast factor by nodes;
# (f) CPU utilisation factor under skew, 16 nodes. Thesis points in black
# (read from the text, not the figures).
set terminal pngcairo size 1500,850
set output OUT.'/r10.png'
set datafile separator ','
set multiplot layout 2,3 title 'R10: NICVM microbenchmarks, MPI level, P-VM (emulated; thesis: seed 004 section 4.4)'
set key top left Left reverse samplen 2
set logscale x 2
set xlabel 'message size (bytes)'
set ylabel 'overhead (us)'
set title '(a) ping-pong: with - without the plug-in'
plot OUT.'/r10_pingpong.csv' every ::1 using 1:4 with linespoints title 'ours', \
     0.8 with lines lc rgb 'black' title 'thesis mean 0.8 us'
set ylabel 'round trip (us)'
set title '(b) echo'
plot OUT.'/r10_echo.csv' every ::1 using 1:2 with linespoints title 'host echo', \
     '' every ::1 using 1:3 with linespoints title 'no-op module', \
     '' every ::1 using 1:4 with linespoints title 'NIC echo'
set ylabel 'factor (host / NIC echo)'
set title '(c) NIC echo factor'
plot OUT.'/r10_echo.csv' every ::1 using 1:6 with linespoints title 'ours', \
     1 with lines lc rgb 'gray' notitle, \
     '-' using 1:2 with points pt 7 ps 1.6 lc rgb 'black' title 'thesis: 1 at 128 B, 1.5 max'
128,1.0
4096,1.5
e
set ylabel 'latency (us)'
set title '(d) broadcast, 16 nodes'
plot OUT.'/r10_bcast.csv' every ::1 using ($1 == 16 ? $2 : 1/0):3 with linespoints title 'MPI\_Bcast (host binomial)', \
     '' every ::1 using ($1 == 16 ? $2 : 1/0):4 with linespoints title 'Figure 4.3 module'
set xlabel 'nodes'
set ylabel 'factor (host / module)'
set title '(e) broadcast factor'
plot for [s in '32 1024 4016'] OUT.'/r10_bcast.csv' every ::1 using ($2 == s ? $1 : 1/0):6 with linespoints title s.' B', \
     '-' using 1:2 with points pt 7 ps 1.6 lc rgb 'black' title 'thesis: 1.4 at 8, 1.3 at 16 (4 KB)'
8,1.4
16,1.3
e
unset logscale x
set xlabel 'maximum skew (us)'
set ylabel 'factor (host / module)'
set title '(f) CPU utilisation factor, 16 nodes'
plot for [s in '32 1024 4016'] OUT.'/r10_cpu.csv' every ::1 using ($1 == 16 && $2 == s ? $3 : 1/0):6 with linespoints title s.' B', \
     '-' using 1:2 with points pt 7 ps 1.6 lc rgb 'black' title 'thesis max 2.2'
1000,2.2
e
unset multiplot
