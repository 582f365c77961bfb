# make bench-red (docs/bench-red.md): MPI_Reduce three ways on P-AB, on the
# largest node count (NODES, default 32) against the count: per type (rows:
# int, double) (a) latency without skew, (b) host CPU time without skew,
# (c) host CPU time at 1,000 us maximum skew. Bypass's points past 4,080
# bytes ran the host's algorithm: drawn apart as "host fallback".
# red_compare.csv: type,nodes,count,bytes,max_skew_us,impl,path,latency_us,cpu_us
if (!exists('NODES')) NODES = 32
set terminal pngcairo size 1500,850
set output OUT.'/red.png'
set datafile separator ','
set multiplot layout 2,3 title sprintf('MPI\_Reduce (MPI\_SUM) on %d nodes of P-AB (emulated): NIC-based (nic), application bypass (bypass), host binomial (host)', NODES)
set key top left Left reverse samplen 2
set logscale xy
set xlabel 'elements'
sel(t, s, m) = strcol(1) eq t && $2 == NODES && $5 == s && strcol(7) eq m
# rows sorted by type, nodes, skew, path and count, so that each line's points are
# consecutive and join
F = '< tail -n +2 '.OUT.'/red_compare.csv | sort -t, -k1,1 -k2,2n -k5,5n -k7,7 -k3,3n'
do for [t in 'int double'] {
    set ylabel 'latency (us)'
    set title t.': (a) latency without skew'
    plot for [m in 'nic bypass host'] F using (sel(t, 0, m) ? $3 : 1/0):8 with linespoints title m, \
         F using (sel(t, 0, 'host fallback') ? $3 : 1/0):8 with points pt 6 ps 1.6 title 'bypass: host fallback'
    set ylabel 'host CPU time per reduction (us)'
    do for [s in '0 1000'] {
        set title t.': ('.(s eq '0' ? 'b' : 'c').') CPU time, maximum skew '.s.' us'
        plot for [m in 'nic bypass host'] F using (sel(t, s + 0, m) ? $3 : 1/0):9 with linespoints title m, \
             F using (sel(t, s + 0, 'host fallback') ? $3 : 1/0):9 with points pt 6 ps 1.6 title 'bypass: host fallback'
    }
}
unset multiplot
