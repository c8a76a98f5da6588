# written by rtvirt report; run as: gnuplot -c THIS.gp OUT.svg DATA...
set terminal svg size 860,420 font 'Sans,12' noenhanced background rgb 'white'
set output ARG1
set datafile missing '?'
set grid ytics lc rgb '#dddddd'
set border 3 lc rgb '#444444'
set tics nomirror
set key outside right top box lc rgb '#cccccc'
set colorsequence classic
set logscale y
set xlabel 'percentile'
set ylabel 'latency [us]'
set xrange [0:6.4]
set xtics ('p50' 0.30103, 'p90' 1, 'p99' 2, 'p99.9' 3, 'p99.99' 4, 'p99.999' 5, 'max' 6)
plot for [i=0:int(ARG3)-1] ARG2 index i using 1:2 with linespoints pt 7 ps 0.8 lw 1.5 title columnheader(1), \
     for [i=0:int(ARG3)-1] ARG2 index i using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 2 lc rgb '#000000' notitle
