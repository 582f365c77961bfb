# make bench: nicoll one-way latency and bandwidth vs size (P-GM2, emulated).
# Columns of nicoll_p2p.csv: 1 size, 2 one-way us, 3 ping-pong MB/s,
# 4 streaming MB/s, then constants from the profile: 5 link, 6 PCI DMA read
# ceiling, 7 the streaming ceiling min(link, DMA read, DMA write)
# (host/bench/nicoll_p2p says how each is got).
set terminal pngcairo size 1100,450
set output OUT.'/nicoll_p2p.png'
set datafile separator ','
stats OUT.'/nicoll_p2p.csv' every ::2 using 6:7 nooutput name 'LIM'   # the DMA read and streaming ceilings
set multiplot layout 1,2 title 'nicoll MCP + libnicoll on P-GM2 (emulated time)'
set logscale x 2
set xlabel 'message size (bytes)'
set ylabel 'one-way latency (us)'
set key top left
# log-log; size 0 has no place on a log axis: it is drawn at 1/2 byte
set logscale y 2
plot OUT.'/nicoll_p2p.csv' every ::2 using ($1 > 0 ? $1 : 0.5):2 with linespoints title 'ping-pong / 2 (0 B drawn at 1/2)'
unset logscale y
# The key sits in the empty band above the link line (250), clear of the
# data (all below ~150 MB/s).
set ylabel 'bandwidth (MB/s)'
set yrange [0:400]
set key at graph 0.03, graph 0.98 left top Left reverse opaque box samplen 3
plot OUT.'/nicoll_p2p.csv' every ::2 using 1:3 with linespoints title 'ping-pong', \
     '' every ::2 using 1:4 with linespoints title 'streaming', \
     '' every ::2 using 1:5 with lines dt 2 lw 1.5 lc rgb 'gray40' title 'link: 250 MB/s', \
     '' every ::2 using 1:6 with lines dt 4 lw 1.5 lc rgb 'dark-orange' \
        title sprintf('PCI DMA read, profile: %d MB/s', LIM_max_x), \
     '' every ::2 using 1:7 with lines dt 3 lw 1.5 lc rgb 'dark-red' \
        title sprintf('streaming ceiling, profile: %d MB/s', LIM_max_y)
unset multiplot
