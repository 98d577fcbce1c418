# make plots: the training loss per iteration, from a trainer's --csv file
# (columns iteration,loss,train_accuracy; the loss is recorded on the device
# at the weights before each iteration's update).
#
#   gnuplot -e "data='build/plots/training.csv'; out='plots/loss.png'" plots/loss.gp
#
# Variables (all optional except data):
#   data       the --csv file
#   out        output file (default loss.png / loss.svg)
#   format     png (default) or svg
#   title      the chart's title; "\n" starts a new line
#   width, height  picture size in pixels (default 900 x 560)

if (!exists("data")) { print "loss.gp: set data='FILE.csv'"; exit status 2 }
if (!exists("format")) format = "png"
if (!exists("out")) out = "loss." . format
if (!exists("title")) title = "training loss per iteration"
if (!exists("width")) width = 900
if (!exists("height")) height = 560

if (format eq "svg") {
    set terminal svg size width, height dynamic noenhanced font "Sans,12" background "white"
} else {
    if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
        set terminal pngcairo size width, height noenhanced font "Sans,10" background "white"
    } else {
        set terminal png size width, height noenhanced background "white"
    }
}
set output out

set datafile separator ","
set datafile columnheaders
stats data using "loss" name "LOSS" nooutput
last = LOSS_records - 1

set title title font ",12"
set xlabel "iteration"
set ylabel "loss (squared error over the 10 classes, mean per image)"
set yrange [0:*]
set xrange [0:*]
set grid lc rgb "#e0e0e0"
set border 3
set xtics nomirror
set ytics nomirror
set key top right

plot \
    data using "iteration":"loss" with lines lw 2 lc rgb "#3b6fb6" title "loss (before the iteration's update)", \
    data every ::last::last using "iteration":"loss":(sprintf("%.4f at iteration %d", column("loss"), column("iteration"))) \
        with labels point pt 7 ps 0.8 lc rgb "#3b6fb6" right offset -1, 1.2 notitle, \
    data every ::0::0 using "iteration":"loss":(sprintf("%.4f at iteration 1", column("loss"))) \
        with labels point pt 7 ps 0.8 lc rgb "#3b6fb6" left offset 1, 0 notitle
