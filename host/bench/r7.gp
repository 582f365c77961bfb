# make bench, R7: seed 002's Figure 5 from host/bench/r7_table's .dat files:
# (a) latency vs nodes on LANai 4.3, (b) factor of improvement on LANai 4.3,
# (c) and (d) the same on LANai 7.2. Emulated time; NA points are missing.
set terminal pngcairo size 1100,850
set output OUT.'/r7.png'
set datafile missing 'NA'
set multiplot layout 2,2 title 'R7: NIC-based vs host-based barrier, P-GM1 (emulated; paper: seed 002 Fig. 5)'
set xlabel 'nodes'
set logscale x 2
set xrange [1.7:19]
# Keys sit inside each panel where there is no data (a key below every
# panel collided with the x label of (d) and was cut off at the bottom):
# latency panels top left, above the curves (they rise to the right, and the
# y range leaves a decade free above them); factor panels bottom right.
set key top left Left reverse samplen 2 spacing 1.1
L43 = OUT.'/r7_p-gm1-l43.dat'
L72 = OUT.'/r7_p-gm1-l72.dat'
set logscale y
set yrange [10:5000]
set ylabel 'barrier latency (us, log scale)'
set title '(a) LANai 4.3 (33 MHz)'
plot L43 using 1:2 with linespoints title 'NIC-PE', '' using 1:4 with linespoints title 'NIC-GB', \
     '' using 1:3 with linespoints title 'host-PE', '' using 1:5 with linespoints title 'host-GB', \
     '-' using 1:2 with points pt 7 ps 1.6 lc rgb 'black' title 'paper NIC-PE / NIC-GB (16)'
16 102.14
16 152.27
e
unset logscale y
set yrange [0:*]
set offsets 0, 0, graph 0.1, 0   # room above the curves
set key bottom right
set ylabel 'factor of improvement (host / NIC)'
set title '(b) LANai 4.3'
plot L43 using 1:6 with linespoints title 'PE', '' using 1:7 with linespoints title 'GB', \
     '-' using 1:2 with points pt 7 ps 1.6 lc rgb 'black' title 'paper (PE 8, 16; GB 16)'
8 1.66
16 1.78
16 1.46
e
set logscale y
set yrange [10:5000]
set offsets 0, 0, 0, 0
set key top left
set ylabel 'barrier latency (us, log scale)'
set title '(c) LANai 7.2 (66 MHz)'
set xrange [1.7:10]
plot L72 using 1:2 with linespoints title 'NIC-PE', '' using 1:4 with linespoints title 'NIC-GB', \
     '' using 1:3 with linespoints title 'host-PE', '' using 1:5 with linespoints title 'host-GB', \
     '-' using 1:2 with points pt 7 ps 1.6 lc rgb 'black' title 'paper NIC-PE / host-PE (8)'
8 49.25
8 90.24
e
unset logscale y
set yrange [0:*]
set offsets 0, 0, graph 0.1, 0   # room above the curves
set key bottom right
set ylabel 'factor of improvement (host / NIC)'
set title '(d) LANai 7.2'
plot L72 using 1:6 with linespoints title 'PE', '' using 1:7 with linespoints title 'GB', \
     '-' using 1:2 with points pt 7 ps 1.6 lc rgb 'black' title 'paper PE (8)'
8 1.83
e
unset multiplot
