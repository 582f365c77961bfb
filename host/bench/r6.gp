# R6 plots (host/bench/r6): seed 001 Figure 14's two panels, latency of the
# optimal k-binomial and the binomial tree on CCO, emulated on P-SIM and from
# the pipelined model, with P-SIM's measured step and with the seed's own
# t_ns and t_nr (the seed gives its figure as a picture, not in numbers; its
# model with its parameters is what stands beside ours).
# gnuplot -e "dir='build/bench'" host/bench/r6.gp
set datafile separator ","
set terminal pngcairo size 1200,480 font ",10" noenhanced
set output dir."/r6.png"
set multiplot layout 1,2
set grid
set key top left
set logscale x 2
set ylabel "latency (us)"
series(f) = sprintf("plot '%s' using 1:2 with linespoints lw 2 title 'k-binomial, emulated', '' using 1:3 with linespoints lw 2 title 'binomial, emulated', '' using 1:4 with lines dt 2 lw 1.5 title 'k-binomial, model (P-SIM step)', '' using 1:5 with lines dt 2 lw 1.5 title 'binomial, model (P-SIM step)', '' using 1:6 with lines dt 3 lw 1.5 title 'k-binomial, model (seed t_ns, t_nr)', '' using 1:7 with lines dt 3 lw 1.5 title 'binomial, model (seed t_ns, t_nr)'", f)
set title "R6 (a): 15 destinations, latency against packets of 64 B"
set xlabel "packets per message (m)"
eval series(dir."/r6_a.csv")
set title "R6 (b): 8 packets of 64 B, latency against destinations"
set xlabel "destinations"
eval series(dir."/r6_b.csv")
unset multiplot
