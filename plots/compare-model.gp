# make compare without a GPU: the time model's ms per training iteration, one
# bar pair per GPU chapter (gfx906 and H100 SXM, log axis), each labelled
# with its time and what binds its slowest kernel (its largest stall), and a
# tick at each bar's physical floor (unique bytes at full bandwidth, FLOPs
# at peak, plus the launches). Modelled from the executor's counts and the
# gfx906 code (common/model/), never measured.
#
#   gnuplot -e "data='build/compare/compare-model.tsv'; out='x.png'; title='...'" plots/compare-model.gp
#
# data: the TSV written by plots/compare.sh (chapter, model_gfx906_ms,
# model_h100_ms, floor_gfx906_ms, floor_h100_ms, bound_gfx906, bound_h100, ...).
# Variables: out, format (png or svg), title ("\n" starts a new line).

if (!exists("data")) { print "compare-model.gp: set data='FILE.tsv'"; exit status 2 }
if (!exists("format")) format = "png"
if (!exists("out")) out = "compare-model." . format
if (!exists("title")) title = "modelled ms per training iteration"
if (format eq "svg") {
    set terminal svg size 1200, 700 dynamic noenhanced font "Sans,12" background "white"
} else {
    if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
        set terminal pngcairo size 1200, 700 noenhanced font "Sans,10" background "white"
    } else {
        set terminal png size 1200, 700 noenhanced background "white"
    }
}
set output out
set datafile separator "\t"
set datafile columnheaders
stats data using "model_gfx906_ms" name "G" nooutput
stats data using "model_h100_ms" name "H" nooutput
stats data using "floor_h100_ms" name "F" nooutput
bars = G_records
low = F_min < H_min ? F_min : H_min
high = G_max > H_max ? G_max : H_max

set title title font ",11"
set tmargin 5
set style fill solid 0.85 border lc rgb "#333333"
set xrange [-0.6:bars - 0.4]
set xtics rotate by 20 right nomirror scale 0
set border 3
set ytics nomirror
set mytics 10
set grid ytics mytics lc rgb "#dddddd" lw 1, lc rgb "#f2f2f2" lw 1
set key top right box opaque samplen 2
set bmargin 9
# The key to the words a bar is labelled with (common/model/README.md, the simulation's stalls).
set label 1 "what binds (under each time): what held the slowest kernel's simulated waves longest.  memory = waiting for global memory;  lds = for shared memory;\nbarrier = at a barrier;  dependency = on an arithmetic result;  pipe = for a busy pipe;  scalar = for scalar loads;  issue = issuing, or another wave's turn;  launch = the launch cost" \
    at screen 0.01, screen 0.045 left font ",9" tc rgb "#333333"
set logscale y 10
set format y "%g"
set ylabel "ms per iteration (model, log scale)"
set yrange [10 ** floor(log10(low) - 0.3) : 10 ** (log10(high) + 1.0)]
w = 0.36
# The label: the time, then what binds the slowest kernel ("gradient: memory" shows "memory").
term(bound) = strstrt(bound, ": ") > 0 ? bound[strstrt(bound, ": ") + 2:] : bound
label(ms, bound) = sprintf("%.3g\n%s", ms, term(bound))
plot data using ($0 - w / 2):"model_gfx906_ms":(w):xtic(strcol("chapter")) with boxes lc rgb "#c0392b" \
        title "gfx906 (Radeon Pro VII / MI50), hipcc 5.2's code", \
     data using ($0 + w / 2):"model_h100_ms":(w) with boxes lc rgb "#7f8c8d" title "H100 SXM, nvcc's sm_90 code", \
     data using ($0 - w / 2):"floor_gfx906_ms":(w / 2) with xerrorbars pt -1 lw 2 lc rgb "black" \
        title "physical floor: unique bytes at full bandwidth, FLOPs at peak, launches", \
     data using ($0 + w / 2):"floor_h100_ms":(w / 2) with xerrorbars pt -1 lw 2 lc rgb "black" notitle, \
     data using ($0 - w / 2):"model_gfx906_ms":(label(column("model_gfx906_ms"), strcol("bound_gfx906"))) \
        with labels offset 0, 1.5 font ",8" notitle, \
     data using ($0 + w / 2):"model_h100_ms":(label(column("model_h100_ms"), strcol("bound_h100"))) \
        with labels offset 0, 1.5 font ",8" tc rgb "#555555" notitle
