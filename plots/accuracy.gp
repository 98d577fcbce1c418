# make plots: the training accuracy per iteration, from a trainer's --csv
# file, and the test accuracy of the final weights, from its --bench-out TSV.
#
#   gnuplot -e "data='build/plots/training.csv'; bench='build/plots/training.tsv'; out='plots/accuracy.png'" plots/accuracy.gp
#
# Variables (all optional except data):
#   data       the --csv file (iteration,loss,train_accuracy; accuracy as a fraction)
#   bench      the --bench-out TSV of the same run (test_accuracy and iterations
#              columns); without it no test point is drawn
#   out        output file (default accuracy.png / accuracy.svg)
#   format     png (default) or svg
#   title      the chart's title; "\n" starts a new line
#   width, height  picture size in pixels (default 900 x 560)

if (!exists("data")) { print "accuracy.gp: set data='FILE.csv'"; exit status 2 }
if (!exists("format")) format = "png"
if (!exists("out")) out = "accuracy." . format
if (!exists("title")) title = "training accuracy per iteration"
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

set datafile columnheaders
# The test accuracy: the last row of the bench TSV (tabs; its device names
# may hold commas).
have_test = exists("bench")
if (have_test) {
    set datafile separator "\t"
    stats bench using "test_accuracy" name "TEST" nooutput
    stats bench using "iterations" name "ITERS" nooutput
    test_percent = 100 * TEST_max
    test_x = ITERS_max
}
set datafile separator ","
stats data using "train_accuracy" name "TRAIN" nooutput
last = TRAIN_records - 1

set title title font ",12"
set xlabel "iteration"
set ylabel "accuracy (%)"
set yrange [0:100]
set ytics 10 nomirror
set xrange [0:*]
set xtics nomirror
set grid lc rgb "#e0e0e0"
set border 3
set key bottom right box opaque

train_line = "train accuracy, at the weights before each iteration's update"
if (have_test) {
    plot \
        data using "iteration":(100 * column("train_accuracy")) with lines lw 2 lc rgb "#3b6fb6" title train_line, \
        data every ::last::last using "iteration":(100 * column("train_accuracy")):(sprintf("train %.2f%%", 100 * column("train_accuracy"))) \
            with labels right offset -1, 1.2 notitle, \
        '+' every ::0::0 using (test_x):(test_percent) with points pt 7 ps 1.4 lc rgb "#c0392b" \
            title sprintf("test accuracy of the final weights (MNIST test set): %.2f%%", test_percent), \
        '+' every ::0::0 using (test_x):(test_percent):(sprintf("test %.2f%%", test_percent)) \
            with labels right offset -1, -1.2 tc rgb "#c0392b" notitle
} else {
    plot \
        data using "iteration":(100 * column("train_accuracy")) with lines lw 2 lc rgb "#3b6fb6" title train_line, \
        data every ::last::last using "iteration":(100 * column("train_accuracy")):(sprintf("train %.2f%%", 100 * column("train_accuracy"))) \
            with labels right offset -1, 1.2 notitle
}
