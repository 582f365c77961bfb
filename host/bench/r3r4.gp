# make bench, R3 and R4 (seed 000 Figures 6 and 7): (a) MPI_Bcast latency on
# 16 ranks, host binomial vs NIC multicast; (b) its factor of improvement;
# (c) host CPU time in MPI_Bcast against average skew, 16 ranks; (d) its
# factor. Paper points in black (read from the text, not the figures).
set terminal pngcairo size 1100,850
set output OUT.'/r3r4.png'
set datafile separator ','
set multiplot layout 2,2 title 'R3/R4: MPI\_Bcast on NIC multicast vs host binomial, P-GM2 (emulated; paper: seed 000 Figs. 6, 7)'
set key top left Left reverse samplen 2
set logscale x 2
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set logscale y
set title '(a) R3 latency, 16 ranks'
plot OUT.'/r3.csv' every ::1 using 1:2 with linespoints title 'host (binomial)', \
     '' every ::1 using 1:3 with linespoints title 'NIC multicast'
unset logscale y
set ylabel 'factor (host / NIC)'
set yrange [0:*]
set title '(b) R3 factor, 16 ranks'
plot OUT.'/r3.csv' every ::1 using 1:4 with linespoints title 'ours', \
     '-' using 1:2 with points pt 7 ps 1.6 lc rgb 'black' title 'paper (<=512 B peak, 8 KB)'
512,1.78
8192,2.02
e
unset logscale x
set xlabel 'average skew (us)'
set ylabel 'host CPU time in MPI\_Bcast (us)'
set title '(c) R4 CPU time, 16 ranks'
plot for [s in '4 4096'] OUT.'/r4.csv' every ::1 using ($1 == 16 && $2 == s ? $3 : 1/0):4 with linespoints title 'host '.s.' B', \
     for [s in '4 4096'] OUT.'/r4.csv' every ::1 using ($1 == 16 && $2 == s ? $3 : 1/0):5 with linespoints title 'NIC '.s.' B'
set ylabel 'factor (host / NIC)'
set title '(d) R4 factor, 16 ranks'
plot for [s in '2 4 8 2048 4096 8192'] OUT.'/r4.csv' every ::1 using ($1 == 16 && $2 == s ? $3 : 1/0):6 with linespoints title s.' B', \
     '-' using 1:2 with points pt 7 ps 1.6 lc rgb 'black' title 'paper at 400 us'
400,5.82
400,2.9
400,2.22
400,2.01
e
unset multiplot
