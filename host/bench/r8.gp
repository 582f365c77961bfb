# make bench, R8: seed 003's Figures 5-8 from host/bench/r8_table's .dat
# files: effective latency (creation + k broadcasts of 1 KB) against k, one
# line per design, a panel per process count (rows) and computation
# (columns). Emulated time; NA points were not run. The paper's figures
# print no values: its factors are in the title.
#   gnuplot -e "OUT='DIR'; PROCS='16 32'; COMPUTES='0 1000 5000'" host/bench/r8.gp
np = words(PROCS)
nc = words(COMPUTES)
set terminal pngcairo size (420 * nc + 80),(380 * np + 60)
set output OUT.'/r8.png'
set datafile missing 'NA'
set multiplot layout np,nc title \
    "R8: communicator creation + k x MPI_Bcast(1 KB), P-IB (emulated)\nPaper, 32 processes: Basic/Pool up to 4.8 without computation, 4.9 with; Basic/Lazy up to 3.9, 3.8" \
    noenhanced
set xlabel 'k (broadcasts after the creation)'
set ylabel 'effective latency (us)'
set logscale xy
set key top left Left reverse samplen 2
do for [i = 1:np] {
    do for [j = 1:nc] {
        n = word(PROCS, i)
        c = word(COMPUTES, j)
        set title sprintf('%s processes, computation %s us', n, c)
        f = sprintf('%s/r8_%s_%s.dat', OUT, n, c)
        plot f using 1:2 with linespoints title 'point-to-point', '' using 1:3 with linespoints title 'Basic', \
             '' using 1:4 with linespoints title 'Lazy', '' using 1:5 with linespoints title 'Pool'
    }
}
unset multiplot
