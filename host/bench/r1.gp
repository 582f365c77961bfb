# make bench, R1: seed 000's Figure 4 from host/bench/r1r2_table's r1.dat:
# (a) latency until the last destination acknowledged, NIC multisend (NB)
# and host multiple unicasts (HB), 3/4/8 destinations; (b) the factor of
# improvement HB/NB. Emulated time on P-GM2; NA points are missing. The
# paper's one printed figure (2.05 at <= 128 B, 4 destinations) is the
# black point; its curve levels "a little below 1" at large sizes.
set terminal pngcairo size 1100,450
set output OUT.'/r1.png'
set datafile missing 'NA'
D = OUT.'/r1.dat'
set multiplot layout 1,2 title 'R1: NIC-based multisend (NB) vs host-based multiple unicasts (HB), P-GM2 (emulated; paper: seed 000 Fig. 4)'
set xlabel 'message size (bytes)'
set logscale x 2
set xrange [3:24000]
set format x '%.0s%c'
set key top left Left reverse samplen 2
set logscale y
set ylabel 'latency (us, log scale)'
set title '(a) latency until the last destination acks'
plot D using 1:2 with linespoints lc 1 pt 4 title 'NB 3 dests', '' using 1:3 with linespoints lc 1 dt 2 pt 5 title 'HB 3 dests', \
     '' using 1:5 with linespoints lc 2 pt 6 title 'NB 4 dests', '' using 1:6 with linespoints lc 2 dt 2 pt 7 title 'HB 4 dests', \
     '' using 1:8 with linespoints lc 3 pt 8 title 'NB 8 dests', '' using 1:9 with linespoints lc 3 dt 2 pt 9 title 'HB 8 dests'
unset logscale y
set yrange [0:3]   # room for the key above the curves
set key top right
set ylabel 'factor of improvement (HB / NB)'
set title '(b) improvement'
plot D using 1:4 with linespoints lc 1 pt 4 title '3 dests', '' using 1:7 with linespoints lc 2 pt 6 title '4 dests', \
     '' using 1:10 with linespoints lc 3 pt 8 title '8 dests', 1 with lines lc rgb 'gray' dt 3 notitle, \
     '-' using 1:2 with points pt 7 ps 1.6 lc rgb 'black' title 'paper: 2.05 (<=128 B, 4 dests)'
128 2.05
e
unset multiplot
