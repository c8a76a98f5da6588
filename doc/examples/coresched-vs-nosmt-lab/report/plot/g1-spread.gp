# written by rtvirt report; run as: gnuplot -c THIS.gp OUT.svg DATA...
set terminal svg size 860,420 font 'Sans,12' noenhanced background rgb 'white'
set output ARG1
set datafile missing '?'
set grid ytics lc rgb '#dddddd'
set border 3 lc rgb '#444444'
set tics nomirror
set key outside right top box lc rgb '#cccccc'
set colorsequence classic
set xrange [-0.6:int(ARG4)-0.4]
set yrange [0:*]
set ylabel 'max latency [us]'
set xtics rotate by -20
plot ARG2 using 1:2 with points pt 7 ps 1.1 lc rgb '#1f77b4' title 'max of one repetition', \
     ARG3 using 1:2:xtic(3) with points pt 3 ps 3 lw 2 lc rgb '#d62728' title 'mean (compare)'
