# make plots / make plot-resources: what the compiler gave each kernel on
# gfx906, from plots/resources.tsv (written by `make resources`): VGPRs per
# thread, LDS per workgroup and the occupancy (waves per SIMD, at most 10).
#
#   gnuplot -e "data='plots/resources.tsv'; out='plots/resources.png'" plots/resources.gp
#
# Variables (all optional except data):
#   data       TSV: chapter, kernel, vgprs, sgprs, lds_bytes, scratch_bytes,
#              vgpr_spills, sgpr_spills, waves_per_simd (a header line first)
#   out        output file (default resources.png / resources.svg)
#   format     png (default) or svg
#   title      the chart's title; "\n" starts a new line
#   width      picture width in pixels (default 1100)
#   height     picture height (default: 200 + 22 per kernel, with a two-line title)

if (!exists("data")) { print "resources.gp: set data='FILE.tsv'"; exit status 2 }
if (!exists("format")) format = "png"
if (!exists("out")) out = "resources." . format
if (!exists("title")) title = "gfx906 resources per kernel"
if (!exists("width")) width = 1100
# about 18 pixels for each line of the title
title_lines = 1
rest = title
while (strstrt(rest, "\n") > 0) { title_lines = title_lines + 1; rest = rest[strstrt(rest, "\n") + 1:] }

set datafile separator "\t"
set datafile columnheaders
stats data using "vgprs" name "VGPR" nooutput
stats data using "lds_bytes" name "LDS" nooutput
stats data using "vgpr_spills" name "SPILLS" nooutput
kernels = VGPR_records
if (!exists("height")) height = 200 + 22 * kernels + 18 * (title_lines - 2)

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

# One row per kernel, the first at the top; chapters alternate in colour.
row_name(c, k) = c[1:2] . "  " . k
chapter_number(c) = 10 * int(c[1:1]) + int(c[2:2])  # digit by digit: "08" would read as octal
colour(c) = chapter_number(c) % 2 ? 0x3b6fb6 : 0x7fa6d9
spill_text(v, s, scratch) = (s > 0 || scratch > 0) ? sprintf("%d, %d spilled", v, s) : sprintf("%d", v)
half = 0.36

set yrange [kernels - 0.5:-0.5]
set style fill solid 0.9 noborder
set grid xtics lc rgb "#e0e0e0"
set border 1
set xtics nomirror out
unset key
top = 1.0 - (70.0 + 18 * title_lines) / height  # the title, and the panels' two-line titles
bottom = 50.0 / height
set multiplot layout 1, 3 title title font ",12" margins 0.2, 0.98, bottom, top spacing 0.03, 0

# VGPRs: 256 per thread at most on gfx906; more than 24 costs occupancy.
set title "VGPRs per thread\n(gfx906: at most 256; 24 or fewer for 10 waves)" font ",10"
vgpr_max = VGPR_max < 40 ? 48 : VGPR_max * (SPILLS_max > 0 ? 1.7 : 1.35)
set xrange [0:vgpr_max]
set ytics scale 0 nomirror
plot data using (column("vgprs") / 2):0:(0):(column("vgprs")):($0 - half):($0 + half):(colour(strcol("chapter"))):ytic(row_name(strcol("chapter"), strcol("kernel"))) \
        with boxxyerror lc rgb variable, \
     data using "vgprs":0:(spill_text(column("vgprs"), column("vgpr_spills"), column("scratch_bytes"))) \
        with labels left offset 0.5, 0 font ",9"

# LDS: 64 KiB per workgroup at most.
set title "LDS per workgroup, KiB\n(gfx906: at most 64)" font ",10"
lds_max = LDS_max < 4096 ? 8 : LDS_max / 1024.0 * 1.35
set xrange [0:lds_max]
set ytics format ""
plot data using (column("lds_bytes") / 2048.0):0:(0):(column("lds_bytes") / 1024.0):($0 - half):($0 + half):(colour(strcol("chapter"))) \
        with boxxyerror lc rgb variable, \
     data using (column("lds_bytes") / 1024.0):0:(column("lds_bytes") > 0 ? sprintf("%.1f", column("lds_bytes") / 1024.0) : "0") \
        with labels left offset 0.5, 0 font ",9"

# Occupancy: waves per SIMD, 10 at most on gfx906.
set title "occupancy, waves per SIMD\n(gfx906: at most 10)" font ",10"
set xrange [0:11.5]
set xtics 0, 2, 10
plot data using (column("waves_per_simd") / 2.0):0:(0):(column("waves_per_simd")):($0 - half):($0 + half):(colour(strcol("chapter"))) \
        with boxxyerror lc rgb variable, \
     data using "waves_per_simd":0:(sprintf("%d", column("waves_per_simd"))) \
        with labels left offset 0.5, 0 font ",9"
unset multiplot
