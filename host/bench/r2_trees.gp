# make bench, R2's extra series (beyond seed 000): the NIC trees side by
# side, from host/bench/r1r2_table's r2_trees.dat (columns: size, then per
# node count 4, 8, 16 the series host-binomial, nic-postal, nic-kbinomial,
# nic-binomial, nic-flat). One panel per node count; latency is the max
# over leaves of root-to-leaf-ack.
set terminal pngcairo size 1500,450
set output OUT.'/r2_trees.png'
set datafile missing 'NA'
D = OUT.'/r2_trees.dat'
set multiplot layout 1,3 title 'R2 extra: NIC trees (postal, k-binomial, binomial, flat) vs host-based binomial, P-GM2 (emulated)'
set xlabel 'message size (bytes)'
set logscale x 2
set xrange [3:24000]
set format x '%.0s%c'
set logscale y
set ylabel 'latency (us, log scale)'
set key top left Left reverse samplen 2
do for [ni = 0:2] {
    c = 2 + ni * 5
    set title sprintf('%d nodes', 4 * 2**ni)
    plot D using 1:(column(c)) with linespoints lc rgb 'black' dt 2 pt 5 title 'host binomial', \
         '' using 1:(column(c + 1)) with linespoints lc 1 pt 4 title 'NIC postal', \
         '' using 1:(column(c + 2)) with linespoints lc 2 pt 6 title 'NIC k-binomial', \
         '' using 1:(column(c + 3)) with linespoints lc 3 pt 8 title 'NIC binomial', \
         '' using 1:(column(c + 4)) with linespoints lc 4 pt 10 title 'NIC flat'
}
unset multiplot
