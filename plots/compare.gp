# make compare's chart: one bar per chapter, ms per training iteration on a
# log axis, the speed-up over chapter 01 on each bar, whiskers from the
# fastest to the slowest timed iteration, and the bytes/FLOPs floor of the
# device where it is known.
#
#   gnuplot -e "data='plots/compare.tsv'; out='plots/compare.png'" plots/compare.gp
#
# Variables (all optional except data):
#   data       the TSV written by plots/compare.sh (columns named in its header)
#   out        output file (default compare.png / compare.svg)
#   format     png (default) or svg
#   title      the chart's title; "\n" starts a new line
#   floor_ms   the floor with the pixels read once as bytes (ms per iteration)
#   floor_f32_ms  the floor with the features read once as float32
#   floor_title, floor_f32_title  the key entries of the two floor lines
#   width, height  picture size in pixels (default 1100 x 650)

if (!exists("data")) { print "compare.gp: set data='FILE.tsv'"; exit status 2 }
if (!exists("format")) format = "png"
if (!exists("out")) out = "compare." . format
if (!exists("title")) title = "ms per training iteration"
if (!exists("width")) width = 1100
if (!exists("height")) height = 650

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

set datafile separator "\t"
set datafile columnheaders

# The range: from a decade below the fastest iteration (or the floor) to
# well above the slowest, so the labels over the bars fit.
stats data using "min_ms" name "LOW" nooutput
stats data using "max_ms" name "HIGH" nooutput
bars = LOW_records
low = LOW_min
if (exists("floor_ms")) { low = (floor_ms < low) ? floor_ms : low }
if (low <= 0) low = 1e-3
bottom = 10 ** floor(log10(low) - 0.3)
top = 10 ** (log10(HIGH_max) + 0.8)

set title title font ",12"
set logscale y 10
set yrange [bottom:top]
set xrange [-0.6:bars - 0.4]
set ylabel "ms per iteration (log scale; bar: median, whiskers: fastest..slowest)"
set format y "%g"
set mytics 10
set grid ytics mytics lc rgb "#dddddd" lw 1, lc rgb "#f2f2f2" lw 1
set xtics rotate by 25 right nomirror scale 0
set xlabel "chapter"
set border 3
set ytics nomirror
set key top right box opaque samplen 2 width 1
set bmargin 7
set style fill solid 0.85 border lc rgb "#333333"

is_cpu_reference(c) = (c[1:3] eq "00-")
speedup_text(s) = (s >= 10 ? sprintf("%.0fx", s) : (s >= 1 ? sprintf("%.2fx", s) : sprintf("%.2gx", s)))
ms_text(ms) = (ms >= 100 ? sprintf("%.0f ms", ms) : sprintf("%.3g ms", ms))
bar_text(c, ms, s) = ms_text(ms) . "\n" . (c[1:3] eq "01-" ? "baseline" : speedup_text(s) . " vs 01")
half = 0.33

# Without a known device the floor lines sit below the visible range, untitled.
if (!exists("floor_title")) floor_title = exists("floor_ms") ? sprintf("floor, pixels read once as bytes: %.3g ms", floor_ms) : ""
if (!exists("floor_f32_title")) floor_f32_title = exists("floor_f32_ms") ? sprintf("floor, features read once as float32: %.3g ms", floor_f32_ms) : ""
hidden = bottom / 100

plot \
    data using 0:(is_cpu_reference(strcol("chapter")) ? column("median_ms") : NaN):($0 - half):($0 + half):(bottom):(column("median_ms")) \
        with boxxyerror lc rgb "#9e9e9e" title "chapter 00: plain C on the host CPU", \
    data using 0:(is_cpu_reference(strcol("chapter")) ? NaN : column("median_ms")):($0 - half):($0 + half):(bottom):(column("median_ms")) \
        with boxxyerror lc rgb "#3b6fb6" title "GPU chapters", \
    data using 0:"median_ms":"min_ms":"max_ms":"median_ms":(0.12):xtic(strcol("chapter")) \
        with candlesticks whiskerbars 1 lc rgb "black" lw 1.2 notitle, \
    data using 0:"max_ms":(bar_text(strcol("chapter"), column("median_ms"), column("speedup_vs_01"))) \
        with labels offset 0, 1.6 font ",9" notitle, \
    (exists("floor_ms") ? floor_ms : hidden) with lines dt 2 lw 2 lc rgb "#c0392b" title floor_title, \
    (exists("floor_f32_ms") ? floor_f32_ms : hidden) with lines dt 3 lw 2 lc rgb "#e67e22" title floor_f32_title
