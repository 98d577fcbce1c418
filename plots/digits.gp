# make plots: test digits with their true label and the model's prediction,
# wrong predictions in red. Draws the two files plots/digits.awk writes from
# a trainer's --predictions-out TSV.
#
#   awk -v image=digits-image.tsv -v labels=digits-labels.tsv -f plots/digits.awk predictions.tsv
#   gnuplot -e "image='digits-image.tsv'; labels='digits-labels.tsv'; out='plots/digits.png'" plots/digits.gp
#
# Variables (all optional except image and labels):
#   image      matrix of grey levels: 0..255 right, 256..511 wrong predictions
#   labels     TSV: x, y, index, label, prediction, wrong, x0, y0, x1, y1
#   out        output file (default digits.png / digits.svg)
#   format     png (default) or svg
#   title      the chart's title; "\n" starts a new line
#   width      picture width in pixels (default 1000); the height follows
#   height     picture height (default: from the width and the grid's shape)

if (!exists("image") || !exists("labels")) { print "digits.gp: set image='FILE.tsv' and labels='FILE.tsv'"; exit status 2 }
if (!exists("format")) format = "png"
if (!exists("out")) out = "digits." . format
if (!exists("title")) title = "MNIST test digits: true label -> prediction"
if (!exists("width")) width = 1000

set datafile separator "\t"
stats image matrix name "GRID" nooutput
columns = GRID_size_x
rows = GRID_size_y
# Room for the title: about 18 pixels a line.
title_lines = 1
rest = title
while (strstrt(rest, "\n") > 0) { title_lines = title_lines + 1; rest = rest[strstrt(rest, "\n") + 1:] }
top_margin = 24 + 18 * title_lines
if (!exists("height")) height = int(width * rows / columns) + top_margin + 10

if (format eq "svg") {
    set terminal svg size width, height dynamic noenhanced font "Sans,12" background "white"
    arrow = " → "
} else {
    if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
        set terminal pngcairo size width, height noenhanced font "Sans,10" background "white"
        arrow = " → "
    } else {
        set terminal png size width, height noenhanced background "white"
        arrow = " -> "
    }
}
set encoding utf8
set output out

set title title font ",12"
# The grid fills the picture below the title: pixels stay square.
set lmargin at screen 0
set rmargin at screen 1
set bmargin at screen 0
set tmargin at screen 1.0 * (height - top_margin) / height
set xrange [-0.5:columns - 0.5]
set yrange [rows - 0.5:-0.5]
unset xtics
unset ytics
unset border
unset key
unset colorbox
# 0..255: white to black (right predictions); 256..511: light red to dark red (wrong ones).
set palette defined (0 "white", 255 "black", 256 "#ffe0e0", 511 "#9b0000")
set cbrange [0:511]

# labels: 1 x, 2 y, 3 index, 4 label, 5 prediction, 6 wrong, 7-10 the digit's box
tag(dummy) = strcol(4) . arrow . strcol(5)
plot \
    image matrix with image notitle, \
    labels skip 1 using (column(6) != 0 ? $1 : NaN):2:7:9:8:10 with boxxyerror fs empty lc rgb "#c00000" lw 2 notitle, \
    labels skip 1 using 1:2:(column(6) != 0 ? tag(1) : "") with labels tc rgb "#b00000" font ",10" notitle, \
    labels skip 1 using 1:2:(column(6) != 0 ? "" : tag(0)) with labels tc rgb "black" font ",10" notitle
