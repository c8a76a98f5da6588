# written by rtvirt report; run as: gnuplot -c THIS.gp OUT.svg DATA...
set terminal svg size 860,420 font 'Sans,12' noenhanced background rgb 'white'
set output ARG1
set datafile missing '?'
set grid ytics lc rgb '#dddddd'
set border 3 lc rgb '#444444'
set tics nomirror
set key outside right top box lc rgb '#cccccc'
set colorsequence classic
set xrange [-0.6:int(ARG3)-0.4]
set ylabel ARG4
set xtics rotate by -20
set key off
set offsets 0, 0, graph 0.1, graph 0.1
plot ARG2 using 1:2:3:xtic(4) with yerrorbars pt 7 ps 1.4 lw 2 lc rgb '#1f77b4'
