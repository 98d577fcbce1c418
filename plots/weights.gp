# make plots: what the linear model learned. Each class's 784 pixel weights
# (a row of W, bias left out) as a 28 x 28 picture, labelled with the class
# digit, on a diverging scale: red where ink raises that class's score, blue
# where it lowers it, white for zero. Draws the two files plots/weights.awk
# writes; plots/weights.sh runs both.
#
#   gnuplot -e "image='weights-image.tsv'; labels='weights-labels.tsv'; max_abs=0.05" plots/weights.gp
#
# Variables (all optional except image and labels):
#   image      matrix of weights, 0 between the pictures
#   labels     TSV: x, y, class, min, max, bias, x0, y0, x1, y1
#   max_abs    the colour scale runs from -max_abs to +max_abs (default: from the image)
#   out        output file (default weights.png / weights.svg)
#   format     png (default) or svg
#   title      the chart's title; "\n" starts a new line
#   width      picture width in pixels (default 1000); the height follows
#   height     picture height (default: from the width and the grid's shape)

if (!exists("image") || !exists("labels")) { print "weights.gp: set image='FILE.tsv' and labels='FILE.tsv'"; exit status 2 }
if (!exists("format")) format = "png"
if (!exists("out")) out = "weights." . format
if (!exists("title")) title = "the weights of each class"
if (!exists("width")) width = 1000

set datafile separator "\t"
stats image matrix name "GRID" nooutput
columns = GRID_size_x
rows = GRID_size_y
if (!exists("max_abs")) max_abs = (-GRID_min > GRID_max ? -GRID_min : GRID_max)
if (max_abs <= 0) max_abs = 1
# Room for the title (about 18 pixels a line) and, on the right, the colour bar.
title_lines = 1
rest = title
while (strstrt(rest, "\n") > 0) { title_lines = title_lines + 1; rest = rest[strstrt(rest, "\n") + 1:] }
top_margin = 24 + 18 * title_lines
right_margin = 110
if (!exists("height")) height = int((width - right_margin) * rows / columns) + top_margin + 10

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

set title title font ",12"
# The grid fills the picture below the title, left of the colour bar: pixels stay square.
set lmargin at screen 0
set rmargin at screen 1.0 * (width - right_margin) / width
set bmargin at screen 0
set tmargin at screen 1.0 * (height - top_margin) / height
set xrange [-0.5:columns - 0.5]
set yrange [rows - 0.5:-0.5]
unset xtics
unset ytics
unset border
unset key
# Diverging: blue for negative weights, white at zero, red for positive ones.
set palette defined (-1 "#2166ac", -0.5 "#92c5de", 0 "white", 0.5 "#f4a582", 1 "#b2182b")
set cbrange [-max_abs:max_abs]
set colorbox vertical user origin screen 1.0 * (width - right_margin + 20) / width, screen 0.08 \
    size screen 20.0 / width, screen 1.0 * (height - top_margin) / height - 0.16
set cbtics font ",9"
set cblabel "weight" font ",10"

plot \
    image matrix with image notitle, \
    labels skip 1 using 1:2:7:9:8:10 with boxxyerror fs empty lc rgb "#9e9e9e" lw 1 notitle, \
    labels skip 1 using 1:2:(sprintf("%d", column(3))) with labels font ",13" notitle
