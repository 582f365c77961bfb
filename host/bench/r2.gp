# make bench, R2: seed 000's Figure 5 from host/bench/r1r2_table's r2.dat:
# (a) broadcast latency (max over leaves of root-to-leaf-ack), NIC multicast
# (NB, on the NIC tree TREE) and host-based binomial (HB), 4/8/16 nodes;
# (b) the factor HB/NB. The paper's NB is NIC forwarding on a postal tree,
# and so is ours by default (TREE 'postal': lambda per size from R1,
# host/bench/postal_lambda.c); another TREE (R2_TREE) is said in the title. The paper's printed figures (16 nodes: 1.48 at
# <= 512 B, 1.86 at 16 KB) are the black points.
set terminal pngcairo size 1100,450
set output OUT.'/r2.png'
set datafile missing 'NA'
D = OUT.'/r2.dat'
set multiplot layout 1,2 title 'R2: NIC multicast, '.TREE.' tree (NB) vs host-based binomial (HB), P-GM2 (emulated; paper: seed 000 Fig. 5, NB = postal tree)'
set xlabel 'message size (bytes)'
set logscale x 2
set xrange [3:24000]
set format x '%.0s%c'
set key top left Left reverse samplen 2
set logscale y
set ylabel 'latency (us, log scale)'
set title '(a) max over leaves of root-to-leaf-ack'
plot D using 1:2 with linespoints lc 1 pt 4 title 'NB 4 nodes', '' using 1:3 with linespoints lc 1 dt 2 pt 5 title 'HB 4 nodes', \
     '' using 1:5 with linespoints lc 2 pt 6 title 'NB 8 nodes', '' using 1:6 with linespoints lc 2 dt 2 pt 7 title 'HB 8 nodes', \
     '' using 1:8 with linespoints lc 3 pt 8 title 'NB 16 nodes', '' using 1:9 with linespoints lc 3 dt 2 pt 9 title 'HB 16 nodes'
unset logscale y
set yrange [0:2.6]   # room for the key above the curves
set key top left
set ylabel 'factor of improvement (HB / NB)'
set title '(b) improvement'
plot D using 1:4 with linespoints lc 1 pt 4 title '4 nodes', '' using 1:7 with linespoints lc 2 pt 6 title '8 nodes', \
     '' using 1:10 with linespoints lc 3 pt 8 title '16 nodes', 1 with lines lc rgb 'gray' dt 3 notitle, \
     '-' using 1:2 with points pt 7 ps 1.6 lc rgb 'black' title 'paper, 16 nodes'
512 1.48
16384 1.86
e
unset multiplot
