# make compare on the CPU platform: what the chapters ask of memory, counted
# by the executor's trace build (make profile-N), and the gfx906 floor
# modelled from it. Two panels, one bar group per GPU chapter:
#   top     the modelled gfx906 floor of one iteration (ms, log scale)
#   bottom  bytes moved per iteration: unique bytes (no cache can avoid them)
#           and the bytes of the 64-byte segments the requests touch
#
#   gnuplot -e "data='build/compare-floor.tsv'; out='x.png'; title='...'" plots/compare-floor.gp
#
# data: the TSV written by plots/compare.sh (chapter, floor_gfx906_ms,
# floor_h100_ms, unique_mb, segment_mb, images).

if (!exists("data")) { print "compare-floor.gp: set data='FILE.tsv'"; exit status 2 }
if (!exists("format")) format = "png"
if (!exists("out")) out = "compare-floor." . format
if (!exists("title")) title = "modelled floor and bytes per iteration"
if (format eq "svg") {
    set terminal svg size 1100, 800 dynamic noenhanced font "Sans,12" background "white"
} else {
    if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
        set terminal pngcairo size 1100, 800 noenhanced font "Sans,10" background "white"
    } else {
        set terminal png size 1100, 800 noenhanced background "white"
    }
}
set output out
set datafile separator "\t"
set datafile columnheaders
stats data using "floor_gfx906_ms" name "F" nooutput
stats data using "segment_mb" name "S" nooutput
stats data using "unique_mb" name "U" nooutput
bars = F_records

set multiplot layout 2, 1 title title font ",12"
set style fill solid 0.85 border lc rgb "#333333"
set xrange [-0.6:bars - 0.4]
set xtics rotate by 20 right nomirror scale 0
set border 3
set ytics nomirror
set grid ytics lc rgb "#dddddd"
set key top right box opaque samplen 2
set bmargin 5

set logscale y 10
set format y "%g"
set ylabel "ms per iteration (model, log scale)"
set yrange [10 ** floor(log10(F_min) - 0.3) : 10 ** (log10(F_max) + 0.6)]
plot data using ($0 - 0.18):"floor_gfx906_ms":(0.34):xtic(strcol("chapter")) with boxes lc rgb "#c0392b" \
        title "modelled floor on gfx906 (Radeon Pro VII / MI50)", \
     data using ($0 + 0.18):"floor_h100_ms":(0.34) with boxes lc rgb "#7f8c8d" title "modelled floor on H100 SXM", \
     data using ($0 - 0.18):"floor_gfx906_ms":(sprintf("%.3g", column("floor_gfx906_ms"))) \
        with labels offset 0, 0.8 font ",9" notitle

set yrange [10 ** floor(log10(U_min) - 0.3) : 10 ** (log10(S_max) + 0.6)]
set ylabel "MB per iteration (log scale)"
plot data using ($0 - 0.18):"unique_mb":(0.34):xtic(strcol("chapter")) with boxes lc rgb "#3b6fb6" \
        title "unique bytes touched (per kernel, summed)", \
     data using ($0 + 0.18):"segment_mb":(0.34) with boxes lc rgb "#85c1e9" \
        title "bytes of the 64-byte segments the requests touch", \
     data using ($0 - 0.18):"unique_mb":(sprintf("%.3g", column("unique_mb"))) with labels offset 0, 0.8 font ",9" notitle, \
     data using ($0 + 0.18):"segment_mb":(sprintf("%.3g", column("segment_mb"))) with labels offset 0, 0.8 font ",9" notitle
unset multiplot
