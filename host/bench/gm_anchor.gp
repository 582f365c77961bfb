# make bench: the GM 1.6.4 anchor (host/bench/gm_anchor, docs/bench-gm.md).
# Rows of gm_anchor.csv: board,metric,size_bytes,value,unit. Ours: the
# metrics oneway_latency and stream_oneway; GM's published points:
# gm_latency_short, gm_rate_large (the asymptote), gm_half_rate; the
# profile's own streaming ceiling: ceiling (passed in as CB by gm_anchor).
set terminal pngcairo size 1200,480
set output OUT.'/gm_anchor.png'
set datafile separator ','
F = OUT.'/gm_anchor.csv'
sel(b, m) = sprintf('< awk -F, ''$1 == "%s" && $2 == "%s"'' %s', b, m, F)
set multiplot layout 1,2 title 'GM 1.6.4 on PCI64B / PCI64C (Myricom, 2003) beside nicoll on the p-gm164 profiles (emulated)'
set logscale xy 2
set xlabel 'message size (bytes)'
set ylabel 'one-way latency (us)'
# the key below the curves (ours above 8 us, GM's points at the left edge)
set yrange [4:20]
set key bottom right
plot sel('PCI64B', 'oneway_latency') using 3:4 with linespoints lc rgb '#1f77b4' title 'ours, PCI64B', \
     sel('PCI64C', 'oneway_latency') using 3:4 with linespoints lc rgb '#d62728' title 'ours, PCI64C', \
     sel('PCI64B', 'gm_latency_short') using 3:4 with points pt 7 ps 1.8 lc rgb '#1f77b4' title 'GM, PCI64B (short)', \
     sel('PCI64C', 'gm_latency_short') using 3:4 with points pt 7 ps 1.8 lc rgb '#d62728' title 'GM, PCI64C (short)'
unset logscale y
set ylabel 'one-way data rate (MB/s)'
set yrange [0:300]
set key bottom right
# CB: the profiles' streaming ceiling (the same for both boards), from -e
cb = CB + 0
plot sel('PCI64B', 'stream_oneway') using 3:4 with linespoints lc rgb '#1f77b4' title 'ours, PCI64B', \
     sel('PCI64C', 'stream_oneway') using 3:4 with linespoints lc rgb '#d62728' title 'ours, PCI64C', \
     sel('PCI64B', 'gm_rate_large') using (64):4:(262144 - 64):(0) with vectors nohead dt 2 lc rgb '#1f77b4' title 'GM asymptote, PCI64B', \
     sel('PCI64C', 'gm_rate_large') using (64):4:(262144 - 64):(0) with vectors nohead dt 2 lc rgb '#d62728' title 'GM asymptote, PCI64C', \
     sel('PCI64B', 'gm_half_rate') using 3:4 with points pt 5 ps 1.5 lc rgb '#1f77b4' title 'GM half rate, PCI64B', \
     sel('PCI64C', 'gm_half_rate') using 3:4 with points pt 5 ps 1.5 lc rgb '#d62728' title 'GM half rate, PCI64C', \
     cb with lines dt 3 lw 1.5 lc rgb 'gray30' title sprintf('profile ceiling (both boards): %.1f MB/s', cb)
unset multiplot
