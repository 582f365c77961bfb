# R8 beyond the paper (host/bench/r8_bcast): MPI_Bcast latency against
# message size on P-IB by the switch multicast group, the host's binomial
# tree and NIC multicast, a panel per process count. Emulated time.
#   gnuplot -e "OUT='DIR'; PROCS='16 32'" host/bench/r8_bcast.gp
np = words(PROCS)
set terminal pngcairo size (480 * np + 80),460
set output OUT.'/r8_bcast.png'
set datafile separator ','
set multiplot layout 1,np title "R8 beyond the paper: MPI_Bcast on P-IB (emulated)\nswitch multicast group vs host binomial vs NIC multicast" noenhanced
set logscale xy 2
set logscale y 10
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set key top left Left reverse samplen 2
do for [i = 1:np] {
    n = word(PROCS, i)
    set title sprintf('%s processes', n)
    plot for [p in 'swmc host nic'] OUT.'/r8_bcast.csv' every ::1 \
         using ($1 == n + 0 && strcol(3) eq p ? $2 : 1/0):4 with linespoints \
         title (p eq 'swmc' ? 'switch multicast group' : p eq 'host' ? 'host binomial' : 'NIC multicast')
}
unset multiplot
