# make bench: nicoll one-way latency and bandwidth vs size (P-GM2, emulated).
set terminal pngcairo size 1100,450
set output OUT.'/nicoll_p2p.png'
set datafile separator ','
set multiplot layout 1,2 title 'nicoll MCP + libnicoll on P-GM2 (emulated time)'
set logscale x 2
set xlabel 'message size (bytes)'
set ylabel 'one-way latency (us)'
set key top left
plot OUT.'/nicoll_p2p.csv' every ::2 using 1:2 with linespoints title 'ping-pong / 2'
set ylabel 'bandwidth (MB/s)'
set yrange [0:560]
plot OUT.'/nicoll_p2p.csv' every ::2 using 1:3 with linespoints title 'ping-pong', \
     '' every ::2 using 1:4 with linespoints title 'streaming', \
     '' every ::2 using 1:5 with lines dt 2 title 'link 250 MB/s', \
     '' every ::2 using 1:6 with lines dt 3 title 'PCI 64/66 528 MB/s'
unset multiplot
