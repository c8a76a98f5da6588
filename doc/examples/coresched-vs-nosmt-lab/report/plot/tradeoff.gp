# written by rtvirt report; run as: gnuplot -c THIS.gp OUT.svg DATA...
set terminal svg size 860,420 font 'Sans,12' noenhanced background rgb 'white'
set output ARG1
set datafile missing '?'
set grid ytics lc rgb '#dddddd'
set border 3 lc rgb '#444444'
set tics nomirror
set key outside right top box lc rgb '#cccccc'
set colorsequence classic
set xlabel 'throughput change vs baseline [%]'
set ylabel 'RT p99.99 [us]'
set offsets graph 0.15, graph 0.15, graph 0.15, graph 0.15
plot for [i=0:int(ARG3)-1] ARG2 index i using 1:2 with points pt 7 ps 1.5 title columnheader(1), \
     for [i=0:int(ARG3)-1] ARG2 index i using 1:2:3 with labels offset 1,1 left notitle
