# The charts' tests' sample files and checks, shared by plots.bats and
# readme_table.bats.

# check_png FILE WIDTH HEIGHT: the 8-byte PNG signature, then an IHDR chunk
# with that width and height (big-endian, bytes 16..23).
check_png() {
    local file=$1 width=$2 height=$3
    [ -s "$file" ] || { echo "$file: missing or empty"; return 1; }
    local signature chunk size
    signature=$(od -An -tx1 -N8 "$file" | tr -d ' \n')
    [ "$signature" = 89504e470d0a1a0a ] || { echo "$file: not a PNG (starts $signature)"; return 1; }
    chunk=$(od -An -c -j12 -N4 "$file" | tr -d ' \n')
    [ "$chunk" = IHDR ] || { echo "$file: no IHDR chunk first ($chunk)"; return 1; }
    size=$(od -An -tu1 -j16 -N8 "$file" |
        awk '{ for (i = 1; i <= NF; i++) b[i] = $i }
             END { printf "%d %d", ((b[1] * 256 + b[2]) * 256 + b[3]) * 256 + b[4],
                                   ((b[5] * 256 + b[6]) * 256 + b[7]) * 256 + b[8] }')
    [ "$size" = "$width $height" ] || { echo "$file: $size, expected $width $height"; return 1; }
}

# chart_table TABLE GNUPLOT_ARG... SCRIPT: the chart's script run once more
# with gnuplot's `set table`, which writes the points each plot command draws
# into TABLE: what the picture shows, where check_png sees only its size. (The
# script still opens its output, left empty: TABLE.png, beside TABLE.)
chart_table() {
    local table=$1 script=${*: -1}
    gnuplot "${@:2:$#-2}" -e "out='$table.png'; set table '$table'" "$script"
}

# curve_points TABLE: each curve's point count, in plot order, space-separated.
curve_points() {
    sed -n 's/^# Curve [0-9]* of [0-9]*, \([0-9]*\) points$/\1/p' "$1" | tr '\n' ' '
}

# curve_rows TABLE K: the rows of the table's curve K (0-based, counted over
# every plot of a multiplot), as gnuplot wrote them.
curve_rows() {
    awk -v k="$2" '/^# Curve [0-9]+ of / { c++; next } /^#/ || NF == 0 { next } c == k + 1' "$1"
}

# The bench TSV header every trainer writes (common/host/report.c).
BENCH_HEADER=$'chapter\tplatform\tdevice\timages\titerations\tmedian_ms\tmin_ms\tmax_ms\ttrain_accuracy\ttest_accuracy\tfinal_loss\tdate\twarmup_iterations\tpixels_per_image\tparameters'

sample_compare_tsv() { # FILE: what plots/compare.sh writes, for four chapters
    {
        printf 'chapter\tplatform\tdevice\timages\titerations\trepeats\tmedian_ms\tmin_ms\tmax_ms\trun_min_ms\trun_max_ms\tspeedup_vs_01\ttrain_accuracy\ttest_accuracy\tfinal_loss\tdate\n'
        printf '00-cpu-reference\tamd\thost CPU, plain C, one thread\t60000\t100\t3\t540\t510\t570\t530\t545\t0.0044\t0.83\t0.84\t0.5\t2026-11-22\n'
        printf '01-naive-gemm\tamd\tAMD Radeon Pro VII (gfx906)\t60000\t100\t3\t2.4\t2.3\t2.6\t2.35\t2.45\t1\t0.83\t0.84\t0.5\t2026-11-22\n'
        printf '02-coalesced-layout\tamd\tAMD Radeon Pro VII (gfx906)\t60000\t100\t3\t0.9\t0.85\t1.3\t0.88\t0.91\t2.667\t0.83\t0.84\t0.5\t2026-11-22\n'
        printf '03-shared-memory-tiles\tamd\tAMD Radeon Pro VII (gfx906)\t60000\t100\t3\t0.4\t0.39\t0.45\t0.4\t0.41\t6\t0.83\t0.84\t0.5\t2026-11-22\n'
    } >"$1"
}

sample_counters_tsv() { # FILE: what plots/compare.sh writes into compare-counters.tsv, for four chapters
    {
        printf 'chapter\tglobal_load_requests\tglobal_load_segments\tsegments_per_request\tlds_requests\tlds_bank_cycles'
        printf '\tbank_cycles_per_request\tbarriers_per_block\tbarriers_kernel\tfill_gfx906\tfill_kernel'
        printf '\tatomics_max_one_address\tunique_bytes\tmodel_gfx906_ms\tmodel_h100_ms\timages\tslices\tdate\n'
        # moves by more than 10%: 02 the segments; 03 LDS (from none), barriers, both times;
        # 04 barriers, fill, atomics, both times; 04's unique bytes fall by exactly 10%: not a move
        printf '01-naive-gemm\t100\t1600\t16\t0\t0\t-\t1\tsum\t0.05\tgradient\t0\t400000000\t15.3\t8.96\t60000\t1024 2048\t2026-11-25\n'
        printf '02-coalesced-layout\t100\t280\t2.8\t0\t0\t-\t1\tsum\t0.052\tgradient\t0\t400000000\t14.5\t8.96\t60000\t1024 2048\t2026-11-25\n'
        printf '03-shared-memory-tiles\t100\t290\t2.9\t50\t100\t2\t3750\tgradient\t0.055\tgradient\t0\t400000000\t3.5\t2.97\t60000\t1024 2048\t2026-11-25\n'
        printf '04-ping-pong-buffers\t100\t290\t2.9\t50\t105\t2.1\t1875\tgradient\t0.104\tgradient\t60\t360000000\t1.65\t0.83\t60000\t1024 2048\t2026-11-25\n'
    } >"$1"
}

sample_csv() { # FILE ITERATIONS: a --csv file
    awk -v n="$2" 'BEGIN { print "iteration,loss,train_accuracy"
        for (i = 1; i <= n; i++) printf "%d,%.6f,%.6f\n", i, 0.4 + 0.6 * exp(-i / 20), 0.85 - 0.75 * exp(-i / 15) }' >"$1"
}

sample_predictions() { # FILE COUNT: a --predictions-out file; every 4th image is wrong
    awk -v n="$2" 'BEGIN { print "index\tlabel\tprediction\tpixels"
        for (i = 0; i < n; i++) {
            label = i % 10; prediction = (i % 4 == 1) ? (label + 1) % 10 : label
            line = i "\t" label "\t" prediction "\t"
            for (p = 0; p < 784; p++) {
                r = int(p / 28); c = p % 28
                line = line (p ? "," : "") ((r - 14) ^ 2 + (c - 14) ^ 2 < 60 + 10 * label ? 255 : 0)
            }
            print line
        } }' >"$1"
}

sample_resources() { # FILE: a plots/resources.tsv with three kernels
    {
        printf 'chapter\tkernel\tvgprs\tsgprs\tlds_bytes\tscratch_bytes\tvgpr_spills\tsgpr_spills\twaves_per_simd\n'
        printf '01-naive-gemm\tforward_scores\t17\t13\t0\t0\t0\t0\t10\n'
        printf '03-shared-memory-tiles\tforward_scores\t31\t28\t9472\t0\t0\t0\t8\n'
        printf '08-tuned-gfx906\tgradient\t90\t26\t5416\t64\t4\t0\t2\n' # "08": not octal
    } >"$1"
}

# sample_weights FILE [COUNT]: a --weights-out file (little-endian float32,
# class-major, 785 a class): pixel p of class c is (p % 28 - 13.5) (c + 1) / 1000,
# so the largest |weight| is 0.135 (class 9, columns 0 and 27), and the
# bias of class c is 7 + c, larger than any pixel weight; COUNT values
# (default 7850) make a malformed file.
sample_weights() {
    perl -e 'my $n = $ARGV[0]; print pack("f<*", map { my ($c, $f) = (int($_ / 785), $_ % 785);
        $f == 784 ? 7 + $c : ($f % 28 - 13.5) * ($c + 1) / 1000 } 0 .. $n - 1)' "${2:-7850}" >"$1"
}

# fake_trainer DIR NAME MS...: a trainer stub that appends a bench row with
# median MS (the Nth run takes the Nth value), min 0.9 MS and max 1.2 MS, on
# the device $FAKE_DEVICE (default AMD Radeon Pro VII), 10 iterations, the
# first $FAKE_WARMUP (default 3) warm-up, $FAKE_PIXELS (default 784) pixels
# an image and $FAKE_PARAMETERS (default 7850) parameters (set empty: none).
fake_trainer() {
    local dir=$1 name=$2
    shift 2
    mkdir -p "$dir"
    cat >"$dir/$name" <<EOF
#!/usr/bin/env bash
bench=
while [ \$# -gt 0 ]; do case \$1 in --bench-out) bench=\$2; shift 2 ;; *) shift ;; esac; done
times=($*)
n=\$(cat "\$0.runs" 2>/dev/null || echo 0)
echo \$((n + 1)) >"\$0.runs"
ms=\${times[\$n]}
[ -s "\$bench" ] || echo '$BENCH_HEADER' >"\$bench"
awk -v ms="\$ms" 'BEGIN { printf "%s\tamd\t%s\t60000\t10\t%g\t%g\t%g\t0.8\t0.81\t0.5\t2026-11-22\t${FAKE_WARMUP-3}\t${FAKE_PIXELS-784}\t${FAKE_PARAMETERS-7850}\n", "$name", "${FAKE_DEVICE:-AMD Radeon Pro VII}", ms, 0.9 * ms, 1.2 * ms }' >>"\$bench"
EOF
    chmod +x "$dir/$name"
}
