# R5 plots: optimal k and steps against the number of packets (seed 001).
set datafile separator ","
set terminal pngcairo size 900,420 font ",10"
set key top left
set grid
set output OUT."/r5_optimal_k.png"
set key top right   # k is largest at m = 1, under a top-left key
set yrange [0.5:6.8]; set ytics 1   # points at k = 1 and 6 clear of the frame
set title "R5: optimal k of the k-binomial tree (seed 001, Theorem 3)"
set xlabel "packets per message (m)"; set ylabel "optimal k"
plot for [n in "16 32 64"] DATA using ($1==n ? $2 : 1/0):3 with linespoints title "n = ".n
set output OUT."/r5_steps_n64.png"
set key top left    # the lines start low or at 63 and rise to the right
set autoscale y; set ytics autofreq
set title "R5: multicast steps for n = 64 (L1 + (m-1)k)"
set ylabel "steps"
plot DATA using ($1==64 ? $2 : 1/0):5 with linespoints title "binomial (k = 6)", \
     DATA using ($1==64 ? $2 : 1/0):6 with linespoints title "linear chain (k = 1)", \
     DATA using ($1==64 ? $2 : 1/0):4 with linespoints title "optimal k"
