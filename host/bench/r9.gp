# make bench, R9 (seed 004 Figures 3.6-3.10): application-bypass MPI_Reduce
# against the host's binomial reduction on P-AB. (a) CPU time per reduction
# on 32 nodes against the maximum skew (Fig. 3.6a); (b) its factor (3.6b);
# (c) the factor at 1,000 us against nodes (3.7b); (d) the factor without
# skew against nodes (3.8b); (e) latency without skew against nodes, 1
# double (3.9a); (f) latency on 32 nodes against doubles (3.10). The
# thesis's two printed numbers in black; its figures print no others.
# Beyond the thesis, the NIC-based reduction (nic, dotted) in (a), (b), (e)
# and (f): r9_cpu.csv's columns 7-8 (32 nodes) and r9_latency.csv's 6.
# (c) and (d) read the rows sorted by size, skew and nodes, so that each
# line's points are consecutive and join.
set terminal pngcairo size 1500,850
set output OUT.'/r9.png'
set datafile separator ','
set multiplot layout 2,3 title 'R9: application-bypass (ab) vs host (nab) MPI\_Reduce, and NIC-based (nic), P-AB (emulated; thesis: seed 004 Figs. 3.6-3.10)'
set key top left Left reverse samplen 2
set xlabel 'maximum skew (us)'
set ylabel 'host CPU time per reduction (us)'
set title '(a) CPU time, 32 nodes'
plot for [c in '4 32 128'] OUT.'/r9_cpu.csv' every ::1 using ($1 == 32 && $2 == c ? $3 : 1/0):4 with linespoints title 'nab '.c, \
     for [c in '4 32 128'] OUT.'/r9_cpu.csv' every ::1 using ($1 == 32 && $2 == c ? $3 : 1/0):5 with linespoints dt 2 title 'ab '.c, \
     for [c in '4 32 128'] OUT.'/r9_cpu.csv' every ::1 using ($1 == 32 && $2 == c ? $3 : 1/0):7 with linespoints dt 3 title 'nic '.c
set ylabel 'factor (nab / ab)'
set yrange [0:*]
set title '(b) factor, 32 nodes'
plot for [c in '4 32 128'] OUT.'/r9_cpu.csv' every ::1 using ($1 == 32 && $2 == c ? $3 : 1/0):6 with linespoints title c.' doubles', \
     for [c in '4 32 128'] OUT.'/r9_cpu.csv' every ::1 using ($1 == 32 && $2 == c ? $3 : 1/0):8 with linespoints dt 3 title 'nab / nic '.c, \
     '-' using 1:2 with points pt 7 ps 1.6 lc rgb 'black' title 'thesis (4 doubles)'
1000,5.1
e
set logscale x 2
set xlabel 'nodes'
set title '(c) factor at 1,000 us maximum skew'
plot for [c in '4 32 128'] '< sort -t, -k2,2n -k3,3n -k1,1n '.OUT.'/r9_cpu.csv' every ::1 using ($3 == 1000 && $2 == c ? $1 : 1/0):6 with linespoints title c.' doubles', \
     '-' using 1:2 with points pt 7 ps 1.6 lc rgb 'black' title 'thesis (4 doubles)'
32,5.1
e
set title '(d) factor without skew'
plot for [c in '4 32 128'] '< sort -t, -k2,2n -k3,3n -k1,1n '.OUT.'/r9_cpu.csv' every ::1 using ($3 == 0 && $2 == c ? $1 : 1/0):6 with linespoints title c.' doubles', \
     1 with lines dt 3 lc rgb 'gray' notitle, \
     '-' using 1:2 with points pt 7 ps 1.6 lc rgb 'black' title 'thesis (128 doubles)'
32,1.5
e
set autoscale y
set ylabel 'latency (us)'
set title '(e) latency without skew, 1 double'
plot OUT.'/r9_latency.csv' every ::1 using ($2 == 1 ? $1 : 1/0):3 with linespoints title 'nab', \
     '' every ::1 using ($2 == 1 ? $1 : 1/0):4 with linespoints title 'ab', \
     '' every ::1 using ($2 == 1 ? $1 : 1/0):6 with linespoints dt 3 title 'nic'
set xlabel 'doubles'
set title '(f) latency without skew, 32 nodes'
plot OUT.'/r9_latency.csv' every ::1 using ($1 == 32 ? $2 : 1/0):3 with linespoints title 'nab', \
     '' every ::1 using ($1 == 32 ? $2 : 1/0):4 with linespoints title 'ab', \
     '' every ::1 using ($1 == 32 ? $2 : 1/0):6 with linespoints dt 3 title 'nic'
unset multiplot
