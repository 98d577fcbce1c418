#!/usr/bin/env bats
# test-lane: shared-build
# The charts: every gnuplot script in plots/ draws a valid picture of the
# expected size from small sample files; plots/compare.sh aggregates repeats
# and stops at a failing chapter; plots/weights.sh draws a weights file and
# refuses a malformed one; `make compare` and `make plots` run end to end on
# the CPU executor (tiny runs, outputs in a temporary folder, and once with
# the defaults: under build/, the tracked files untouched); the README's
# chapter and counter tables are what `make readme-table` writes
# (plots/readme_table.sh, plots/counter_table.sh).

load helpers

setup_file() {
    cd "$BATS_TEST_DIRNAME/.." || return 1
    command -v gnuplot >/dev/null || common/scripts/require.sh gnuplot-nox >&2 || true
}

setup() {
    cd "$BATS_TEST_DIRNAME/.." || return 1
    # The README's chapter table needs only sh and awk.
    [[ $BATS_TEST_DESCRIPTION == "readme table:"* ]] && return 0
    command -v gnuplot >/dev/null || skip "gnuplot is not installed: common/scripts/require.sh gnuplot-nox"
}

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

@test "compare.gp: a PNG of the default size, with the floor lines" {
    sample_compare_tsv "$BATS_TEST_TMPDIR/compare.tsv"
    run gnuplot -e "data='$BATS_TEST_TMPDIR/compare.tsv'; out='$BATS_TEST_TMPDIR/compare.png'" \
        -e "title=\"make compare\nsecond line\"; floor_ms=0.144; floor_f32_ms=0.184" plots/compare.gp
    echo "$output"
    [ "$status" -eq 0 ]
    check_png "$BATS_TEST_TMPDIR/compare.png" 1100 650
    # what it draws, from compare.tsv's rows: chapter 00's bar grey, the GPU
    # chapters' blue, each to its median_ms; the whiskers from min_ms to max_ms;
    # over each bar its median and speed-up; the two floors flat across
    local table=$BATS_TEST_TMPDIR/compare.table tsv=$BATS_TEST_TMPDIR/compare.tsv
    chart_table "$table" -e "data='$tsv'; floor_ms=0.144; floor_f32_ms=0.184" plots/compare.gp
    [ "$(curve_rows "$table" 0 | awk '$7 == "i" { printf "%s %s,", $1, $2 }')" = "0 540," ]
    [ "$(curve_rows "$table" 1 | awk '$7 == "i" { printf "%s %s,", $1, $2 }')" = "1 2.4,2 0.9,3 0.4," ]
    [ "$(curve_rows "$table" 2 | awk '{ print $1, $2, $3, $4 }')" = \
        "$(awk -F '\t' 'NR > 1 { print NR - 2, $7, $8, $9 }' "$tsv")" ]
    [ "$(curve_rows "$table" 3 | cut -d '"' -f 2 | tr '\n' '|')" = \
        '540 ms\n0.0044x vs 01|2.4 ms\nbaseline|0.9 ms\n2.67x vs 01|0.4 ms\n6.00x vs 01|' ]
    [ "$(curve_rows "$table" 4 | awk '{ print $2 }' | sort -u)" = 0.144 ]
    [ "$(curve_rows "$table" 5 | awk '{ print $2 }' | sort -u)" = 0.184 ]
}

@test "compare.gp: width and height are honoured; no floor without a device" {
    sample_compare_tsv "$BATS_TEST_TMPDIR/compare.tsv"
    run gnuplot -e "data='$BATS_TEST_TMPDIR/compare.tsv'; out='$BATS_TEST_TMPDIR/small.png'; width=640; height=400" plots/compare.gp
    echo "$output"
    [ "$status" -eq 0 ]
    check_png "$BATS_TEST_TMPDIR/small.png" 640 400
    # without a device's floor_ms no floor is titled; with one it is (the control)
    run gnuplot -e "data='$BATS_TEST_TMPDIR/compare.tsv'; out='$BATS_TEST_TMPDIR/none.svg'; format='svg'" plots/compare.gp
    [ "$status" -eq 0 ]
    run grep -c "floor" "$BATS_TEST_TMPDIR/none.svg"
    [ "$output" = 0 ]
    run gnuplot -e "data='$BATS_TEST_TMPDIR/compare.tsv'; out='$BATS_TEST_TMPDIR/floor.svg'; format='svg'; floor_ms=0.05" plots/compare.gp
    [ "$status" -eq 0 ]
    grep -q "floor, pixels read once as bytes: 0.05 ms" "$BATS_TEST_TMPDIR/floor.svg"
    # without a floor its lines lie a hundredth of the axis's bottom (0.1 ms) down, out of sight and untitled
    local table=$BATS_TEST_TMPDIR/none.table
    chart_table "$table" -e "data='$BATS_TEST_TMPDIR/compare.tsv'" plots/compare.gp
    [ "$(curve_points "$table" | cut -d " " -f 2-6)" = "4 4 4 100 100" ]
    [ "$(curve_rows "$table" 4 | awk '{ print $2, $3 }' | sort -u)" = "0.001 o" ]
    [ "$(curve_rows "$table" 5 | awk '{ print $2, $3 }' | sort -u)" = "0.001 o" ]
    run grep -c 'Curve title: "floor' "$table"
    [ "$output" = 0 ]
}

@test "compare-model.gp: a bar pair per chapter at its modelled ms, a floor tick on each, the binding term over it" {
    local tsv=$BATS_TEST_TMPDIR/model.tsv table=$BATS_TEST_TMPDIR/model.table
    {
        printf 'chapter\tmodel_gfx906_ms\tmodel_h100_ms\tfloor_gfx906_ms\tfloor_h100_ms\tbound_gfx906\tbound_h100\timages\tslices\tdate\n'
        printf '01-naive-gemm\t15.3\t8.96\t0.5\t0.2\tgradient: latency\tgradient: l2\t60000\tnone\t2026-11-25\n'
        printf '03-shared-memory-tiles\t3.5\t2.97\t0.4\t0.1\tforward_scores: lds\tgradient: latency\t60000\tnone\t2026-11-25\n'
    } >"$tsv"
    run gnuplot -e "data='$tsv'; out='$BATS_TEST_TMPDIR/model.png'; title='model'" plots/compare-model.gp
    echo "$output"
    [ "$status" -eq 0 ]
    check_png "$BATS_TEST_TMPDIR/model.png" 1200 700
    chart_table "$table" -e "data='$tsv'" plots/compare-model.gp
    [ "$(curve_points "$table")" = "2 2 2 2 2 2 " ]
    # gfx906 left of each chapter's tick, the H100 right; each floor tick on its own bar
    [ "$(curve_rows "$table" 0 | awk '{ printf "%s %s,", $1, $2 }')" = "-0.18 15.3,0.82 3.5," ]
    [ "$(curve_rows "$table" 1 | awk '{ printf "%s %s,", $1, $2 }')" = "0.18 8.96,1.18 2.97," ]
    [ "$(curve_rows "$table" 2 | awk '{ printf "%s %s,", $1, $2 }')" = "-0.18 0.5,0.82 0.4," ]
    [ "$(curve_rows "$table" 3 | awk '{ printf "%s %s,", $1, $2 }')" = "0.18 0.2,1.18 0.1," ]
    # the labels: the time, then the term of the slowest kernel (its name dropped)
    [ "$(curve_rows "$table" 4 | cut -d '"' -f 2 | tr '\n' '|')" = '15.3\nlatency|3.5\nlds|' ]
    [ "$(curve_rows "$table" 5 | cut -d '"' -f 2 | tr '\n' '|')" = '8.96\nl2|2.97\nlatency|' ]
}

@test "compare.gp: format=svg writes an SVG" {
    sample_compare_tsv "$BATS_TEST_TMPDIR/compare.tsv"
    run gnuplot -e "data='$BATS_TEST_TMPDIR/compare.tsv'; out='$BATS_TEST_TMPDIR/compare.svg'; format='svg'" plots/compare.gp
    echo "$output"
    [ "$status" -eq 0 ]
    grep -q '<svg' "$BATS_TEST_TMPDIR/compare.svg"
    grep -q '</svg>' "$BATS_TEST_TMPDIR/compare.svg"
    grep -q '01-naive-gemm' "$BATS_TEST_TMPDIR/compare.svg"
}

@test "loss.gp: a PNG of the default size from a --csv file" {
    sample_csv "$BATS_TEST_TMPDIR/run.csv" 50
    run gnuplot -e "data='$BATS_TEST_TMPDIR/run.csv'; out='$BATS_TEST_TMPDIR/loss.png'; title='loss'" plots/loss.gp
    echo "$output"
    [ "$status" -eq 0 ]
    check_png "$BATS_TEST_TMPDIR/loss.png" 900 560
    # the line through all 50 losses, and the labels of the last and the first
    local table=$BATS_TEST_TMPDIR/loss.table
    chart_table "$table" -e "data='$BATS_TEST_TMPDIR/run.csv'" plots/loss.gp
    [ "$(curve_points "$table")" = "50 1 1 " ]
    [ "$(curve_rows "$table" 0 | awk '{ print $1, $2 + 0, NF }')" = \
        "$(awk -F, 'NR > 1 { print $1, $2 + 0, 3 }' "$BATS_TEST_TMPDIR/run.csv")" ]
    [ "$(curve_rows "$table" 1 | awk '{ print $1 }')" = 50 ]
}

@test "accuracy.gp: a PNG with the test accuracy from the bench TSV, and one without it" {
    sample_csv "$BATS_TEST_TMPDIR/run.csv" 50
    { echo "$BENCH_HEADER"; printf '00-cpu-reference\tcpu\thost CPU, plain C, one thread\t60000\t50\t540\t510\t570\t0.8\t0.8123\t0.5\t2026-11-22\t3\t784\t7850\n'; } \
        >"$BATS_TEST_TMPDIR/run.tsv"
    run gnuplot -e "data='$BATS_TEST_TMPDIR/run.csv'; bench='$BATS_TEST_TMPDIR/run.tsv'; out='$BATS_TEST_TMPDIR/accuracy.png'" plots/accuracy.gp
    echo "$output"
    [ "$status" -eq 0 ]
    check_png "$BATS_TEST_TMPDIR/accuracy.png" 900 560
    # the train accuracy in percent at all 50 iterations, the test point at the last
    local table=$BATS_TEST_TMPDIR/accuracy.table
    chart_table "$table" -e "data='$BATS_TEST_TMPDIR/run.csv'; bench='$BATS_TEST_TMPDIR/run.tsv'" plots/accuracy.gp
    [ "$(curve_points "$table")" = "50 1 1 1 " ]
    [ "$(curve_rows "$table" 0 | awk '{ printf "%d %.4f\n", $1, $2 }')" = \
        "$(awk -F, 'NR > 1 { printf "%d %.4f\n", $1, 100 * $3 }' "$BATS_TEST_TMPDIR/run.csv")" ]
    [ "$(curve_rows "$table" 2 | awk '{ print $1, $2 }')" = "50 81.23" ]
    run gnuplot -e "data='$BATS_TEST_TMPDIR/run.csv'; out='$BATS_TEST_TMPDIR/accuracy.svg'; format='svg'" plots/accuracy.gp
    echo "$output"
    [ "$status" -eq 0 ]
    grep -q '</svg>' "$BATS_TEST_TMPDIR/accuracy.svg"
}

@test "digits.awk picks the first wrong and the first right digits, in test-set order" {
    sample_predictions "$BATS_TEST_TMPDIR/predictions.tsv" 30
    run awk -v right=5 -v wrong=3 -v columns=4 -v image="$BATS_TEST_TMPDIR/image.tsv" \
        -v labels="$BATS_TEST_TMPDIR/labels.tsv" -f plots/digits.awk "$BATS_TEST_TMPDIR/predictions.tsv"
    echo "$output"
    [ "$status" -eq 0 ]
    # 30 images, wrong ones at 1, 5, 9, 13, ...: 8 wrong, 22 right.
    [ "$output" = "shown 8 right 5 wrong 3 of 30 correct 22" ]
    [ "$(cut -f 3 "$BATS_TEST_TMPDIR/labels.tsv" | tail -n +2 | tr '\n' ' ')" = "0 1 2 3 4 5 6 9 " ]
    [ "$(cut -f 6 "$BATS_TEST_TMPDIR/labels.tsv" | tail -n +2 | tr '\n' ' ')" = "0 1 0 0 0 1 0 1 " ]
    # two rows of four digits, each cell 34 x 46
    [ "$(wc -l <"$BATS_TEST_TMPDIR/image.tsv")" -eq 92 ]
    [ "$(head -n 1 "$BATS_TEST_TMPDIR/image.tsv" | awk -F '\t' '{ print NF }')" -eq 136 ]
}

@test "digits.awk: a perfect model still fills the grid; bad input is an error" {
    awk -F '\t' -v OFS='\t' 'NR > 1 { $3 = $2 } 1' <(sample_predictions /dev/stdout 12) >"$BATS_TEST_TMPDIR/perfect.tsv"
    run awk -v right=5 -v wrong=3 -v image="$BATS_TEST_TMPDIR/image.tsv" -v labels="$BATS_TEST_TMPDIR/labels.tsv" \
        -f plots/digits.awk "$BATS_TEST_TMPDIR/perfect.tsv"
    echo "$output"
    [ "$output" = "shown 8 right 8 wrong 0 of 12 correct 12" ]
    printf 'index\tlabel\tprediction\tpixels\n0\t7\t7\t1,2,3\n' >"$BATS_TEST_TMPDIR/short.tsv"
    run awk -v image="$BATS_TEST_TMPDIR/image.tsv" -v labels="$BATS_TEST_TMPDIR/labels.tsv" \
        -f plots/digits.awk "$BATS_TEST_TMPDIR/short.tsv"
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"has 3 pixels, not 784"* ]]
}

@test "digits.gp: a PNG of the requested size, and its height follows the grid" {
    sample_predictions "$BATS_TEST_TMPDIR/predictions.tsv" 40
    awk -v image="$BATS_TEST_TMPDIR/image.tsv" -v labels="$BATS_TEST_TMPDIR/labels.tsv" \
        -f plots/digits.awk "$BATS_TEST_TMPDIR/predictions.tsv" >/dev/null
    run gnuplot -e "image='$BATS_TEST_TMPDIR/image.tsv'; labels='$BATS_TEST_TMPDIR/labels.tsv'" \
        -e "out='$BATS_TEST_TMPDIR/digits.png'; width=800; height=500" plots/digits.gp
    echo "$output"
    [ "$status" -eq 0 ]
    check_png "$BATS_TEST_TMPDIR/digits.png" 800 500
    # every pixel of the image table; a red box for each wrong digit; two
    # label curves (wrong, right) with a point for each of the 40 digits
    local table=$BATS_TEST_TMPDIR/digits.table
    chart_table "$table" -e "image='$BATS_TEST_TMPDIR/image.tsv'; labels='$BATS_TEST_TMPDIR/labels.tsv'" plots/digits.gp
    [ "$(curve_points "$table" | cut -d' ' -f 1,3,4)" = \
        "$(awk -F '\t' '{ n += NF } END { print n }' "$BATS_TEST_TMPDIR/image.tsv") 40 40" ]
    [ "$(curve_rows "$table" 1 | awk '$NF == "i"' | wc -l)" -eq \
        "$(awk -F '\t' 'NR > 1 && $6 == 1' "$BATS_TEST_TMPDIR/labels.tsv" | wc -l)" ]
    [ "$(awk -F '\t' 'NR > 1 && $6 == 1' "$BATS_TEST_TMPDIR/labels.tsv" | wc -l)" -eq 10 ]
    # 4 rows x 10 columns of 46 x 34 cells, 1000 wide: 541 for the grid, 42 for a one-line title, 10 spare
    run gnuplot -e "image='$BATS_TEST_TMPDIR/image.tsv'; labels='$BATS_TEST_TMPDIR/labels.tsv'" \
        -e "out='$BATS_TEST_TMPDIR/auto.png'; title='digits'" plots/digits.gp
    echo "$output"
    [ "$status" -eq 0 ]
    check_png "$BATS_TEST_TMPDIR/auto.png" 1000 593
}

@test "resources.gp: a PNG 1100 wide and 200 + 22 per kernel high, 18 less for a one-line title" {
    sample_resources "$BATS_TEST_TMPDIR/resources.tsv"
    run gnuplot -e "data='$BATS_TEST_TMPDIR/resources.tsv'; out='$BATS_TEST_TMPDIR/resources.png'" plots/resources.gp
    echo "$output"
    [ "$status" -eq 0 ]
    check_png "$BATS_TEST_TMPDIR/resources.png" 1100 248
    # three panels, a bar and a label per kernel in each: the bars (centred
    # at half their length) end at the table's VGPRs, LDS in KiB and waves per SIMD
    local table=$BATS_TEST_TMPDIR/resources.table
    chart_table "$table" -e "data='$BATS_TEST_TMPDIR/resources.tsv'" plots/resources.gp
    [ "$(curve_points "$table")" = "3 3 3 3 3 3 " ]
    [ "$(curve_rows "$table" 0 | awk '{ printf "%g ", 2 * $1 }')" = "17 31 90 " ]
    [ "$(curve_rows "$table" 2 | awk '{ printf "%.2f ", 2 * $1 }')" = "0.00 9.25 5.29 " ]
    [ "$(curve_rows "$table" 4 | awk '{ printf "%g ", 2 * $1 }')" = "10 8 2 " ]
    [ "$(curve_rows "$table" 1 | awk '{ print $3, $4, $5 }' | tail -n 1)" = '"90, 4 spilled"' ]
}

@test "resources.sh: draws from a table (a three-line title: 18 more), and names a missing one" {
    sample_resources "$BATS_TEST_TMPDIR/resources.tsv"
    run plots/resources.sh --data "$BATS_TEST_TMPDIR/resources.tsv" --out-dir "$BATS_TEST_TMPDIR/out"
    echo "$output"
    [ "$status" -eq 0 ]
    check_png "$BATS_TEST_TMPDIR/out/resources.png" 1100 284
    run plots/resources.sh --data "$BATS_TEST_TMPDIR/none.tsv" --out-dir "$BATS_TEST_TMPDIR/out"
    [ "$status" -ne 0 ]
    [[ "$output" == *"none.tsv is missing or empty: run make resources"* ]]
}

@test "weights.sh: ten 28 x 28 pictures on one symmetric scale, the bias left out" {
    sample_weights "$BATS_TEST_TMPDIR/w.bin"
    [ "$(stat -c %s "$BATS_TEST_TMPDIR/w.bin")" -eq 31400 ]
    run plots/weights.sh --weights "$BATS_TEST_TMPDIR/w.bin" --out "$BATS_TEST_TMPDIR/weights.png" --work "$BATS_TEST_TMPDIR/work"
    echo "$output"
    [ "$status" -eq 0 ]
    # the scale is the pixels' 0.135, not the biases' 7..16
    [[ "$output" == *"wrote $BATS_TEST_TMPDIR/weights.png (colour scale +-0.135)"* ]]
    # two rows of five 34 x 42 cells: 890 pixels for the 170 x 84 grid, 42 for a one-line title, 10 spare
    check_png "$BATS_TEST_TMPDIR/weights.png" 1000 491
    local image=$BATS_TEST_TMPDIR/work/weights-image.tsv labels=$BATS_TEST_TMPDIR/work/weights-labels.tsv
    [ "$(wc -l <"$image")" -eq 84 ]
    [ "$(head -n 1 "$image" | awk -F '\t' '{ print NF }')" -eq 170 ]
    # class 3: its smallest and largest pixel weight, and its bias
    [ "$(awk -F '\t' '$3 == 3 { print $4 + 0, $5 + 0, $6 + 0 }' "$labels")" = "-0.054 0.054 10" ]
    [ "$(awk -F '\t' 'NR > 1 { print $3 }' "$labels" | tr '\n' ' ')" = "0 1 2 3 4 5 6 7 8 9 " ]
    # class 9's top-left pixel (column 0: -0.135) sits in the second row, fifth cell
    local y x
    read -r x y < <(awk -F '\t' '$3 == 9 { print $7 + 0.5, $8 + 0.5 }' "$labels")
    [ "$(awk -F '\t' -v y="$y" -v x="$x" 'NR == y + 1 { print $(x + 1) + 0 }' "$image")" = "-0.135" ]
    # a 1 x 10 strip, as SVG
    run plots/weights.sh --weights "$BATS_TEST_TMPDIR/w.bin" --out "$BATS_TEST_TMPDIR/strip.svg" --format svg \
        --columns 10 --title $'ten classes\nin a row' --work "$BATS_TEST_TMPDIR/strip"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$(head -n 1 "$BATS_TEST_TMPDIR/strip/weights-image.tsv" | awk -F '\t' '{ print NF }')" -eq 340 ]
    grep -q '</svg>' "$BATS_TEST_TMPDIR/strip.svg"
    grep -q 'in a row' "$BATS_TEST_TMPDIR/strip.svg"
}

@test "weights.sh: a short file, a NaN and a missing file are refused by name; the old picture stays" {
    local out=$BATS_TEST_TMPDIR/weights.png
    echo old >"$out"
    sample_weights "$BATS_TEST_TMPDIR/short.bin" 7849
    run plots/weights.sh --weights "$BATS_TEST_TMPDIR/short.bin" --out "$out"
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"weights: $BATS_TEST_TMPDIR/short.bin has 31396 bytes, not 31400: a --weights-out file of the linear model (chapters 00-08) is 10 x 785 float32"* ]]
    # value 1000 (index 999) is class 1's pixel 214
    sample_weights "$BATS_TEST_TMPDIR/nan.bin"
    printf '\x00\x00\xc0\x7f' | dd of="$BATS_TEST_TMPDIR/nan.bin" bs=4 seek=999 conv=notrunc status=none
    run plots/weights.sh --weights "$BATS_TEST_TMPDIR/nan.bin" --out "$out"
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"weights.awk: value 1000 (class 1, pixel 214) is 'nan', not a finite number"* ]]
    [[ "$output" == *"weights: $BATS_TEST_TMPDIR/nan.bin: not drawn"* ]]
    run plots/weights.sh --weights "$BATS_TEST_TMPDIR/none.bin" --out "$out"
    [ "$status" -ne 0 ]
    [[ "$output" == *"none.bin: no such file (a trainer writes it with --weights-out FILE)"* ]]
    [ "$(cat "$out")" = old ]
    [ "$(find "$BATS_TEST_TMPDIR" -maxdepth 1 -name '.weights*' | wc -l)" -eq 0 ] # no temporary picture left
    # weights.awk on its own counts the values
    run awk -v image="$BATS_TEST_TMPDIR/i.tsv" -v labels="$BATS_TEST_TMPDIR/l.tsv" -f plots/weights.awk \
        < <(od --endian=little -An -v -tf4 -w4 "$BATS_TEST_TMPDIR/short.bin")
    echo "$output"
    [ "$status" -eq 2 ]
    [[ "$output" == *"weights.awk: 7849 values, not 7850 (10 classes x 785 features, the bias last)"* ]]
}

@test "compare.sh: median and spread over repeats, speed-up over chapter 01" {
    local fake=$BATS_TEST_TMPDIR/fake
    fake_trainer "$fake" 00-cpu-reference 500 400 600
    fake_trainer "$fake" 01-naive-gemm 2 3 2.2
    fake_trainer "$fake" 02-coalesced-layout 0.5 0.45 0.7
    run plots/compare.sh --build "$fake" --platform amd --iters 10 --repeats 3 \
        --out-dir "$BATS_TEST_TMPDIR/out" 00-cpu-reference 01-naive-gemm 02-coalesced-layout
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"[3/3] 02-coalesced-layout"*"run 3/3"* ]]
    [[ "$output" == *"elapsed 0:0"* ]]
    local tsv=$BATS_TEST_TMPDIR/out/compare.tsv
    cat "$tsv"
    [ "$(wc -l <"$tsv")" -eq 4 ]
    # chapter repeats median_ms min_ms max_ms run_min_ms run_max_ms speedup_vs_01
    [ "$(awk -F '\t' '$1 == "01-naive-gemm" { print $6, $7 + 0, $8 + 0, $9 + 0, $10 + 0, $11 + 0, $12 + 0 }' "$tsv")" = "3 2.2 1.8 3.6 2 3 1" ]
    [ "$(awk -F '\t' '$1 == "02-coalesced-layout" { print $7 + 0, $12 + 0 }' "$tsv")" = "0.5 4.4" ]
    [ "$(awk -F '\t' '$1 == "00-cpu-reference" { print $7 + 0, $8 + 0, $9 + 0 }' "$tsv")" = "500 360 720" ]
    check_png "$BATS_TEST_TMPDIR/out/compare.png" 1100 650
}

@test "compare.sh: the title names device and platform; the floor from devices.tsv, none on cpu" {
    local fake=$BATS_TEST_TMPDIR/fake svg
    fake_trainer "$fake" 01-naive-gemm 2 2
    run plots/compare.sh --build "$fake" --platform amd --format svg --out-dir "$BATS_TEST_TMPDIR/amd" 01-naive-gemm
    echo "$output"
    [ "$status" -eq 0 ]
    svg=$(cat "$BATS_TEST_TMPDIR/amd/compare.svg")
    [[ "$svg" == *"device: AMD Radeon Pro VII, platform amd; 10 iterations (iterations 4-10 timed) x 1 run(s) per chapter; 2026-11-22"* ]]
    # 4 x 10 x 785 x 60000 = 1.88 GFLOP at 13.1 TFLOPS: 0.144 ms; 188 MB at 1024 GB/s: 0.184 ms
    [[ "$svg" == *"floor on Radeon Pro VII (13.1 TFLOPS, 1024 GB/s): 1.88 GFLOP, 47 MB of pixels: 0.144 ms"* ]]
    [[ "$svg" == *"floor with float32 features (188 MB): 0.184 ms"* ]]
    run plots/compare.sh --build "$fake" --platform cpu --format svg --out-dir "$BATS_TEST_TMPDIR/cpu" 01-naive-gemm
    [ "$status" -eq 0 ]
    svg=$(cat "$BATS_TEST_TMPDIR/cpu/compare.svg")
    [[ "$svg" == *"measured on the CPU executor"*"a correctness tool, not a GPU"* ]]
    [[ "$svg" != *"floor on"* ]]
}

@test "compare.sh: devices.tsv tells an H100 SXM from a PCIe one; an unknown GPU gets no floor" {
    local svg
    FAKE_DEVICE="NVIDIA H100 80GB HBM3" fake_trainer "$BATS_TEST_TMPDIR/sxm" 01-naive-gemm 2
    run plots/compare.sh --build "$BATS_TEST_TMPDIR/sxm" --platform nvidia --format svg --out-dir "$BATS_TEST_TMPDIR/sxm" 01-naive-gemm
    [ "$status" -eq 0 ]
    svg=$(cat "$BATS_TEST_TMPDIR/sxm/compare.svg")
    # 1.88 GFLOP at 67 TFLOPS: 0.0281 ms; 188 MB at 3350 GB/s: 0.0562 ms
    [[ "$svg" == *"floor on H100 SXM (67 TFLOPS, 3350 GB/s): 1.88 GFLOP, 47 MB of pixels: 0.0281 ms"* ]]
    [[ "$svg" == *"floor with float32 features (188 MB): 0.0562 ms"* ]]
    FAKE_DEVICE="NVIDIA H100 PCIe" fake_trainer "$BATS_TEST_TMPDIR/pcie" 01-naive-gemm 2
    run plots/compare.sh --build "$BATS_TEST_TMPDIR/pcie" --platform nvidia --format svg --out-dir "$BATS_TEST_TMPDIR/pcie" 01-naive-gemm
    [ "$status" -eq 0 ]
    [[ "$(cat "$BATS_TEST_TMPDIR/pcie/compare.svg")" == *"floor on H100 PCIe (51 TFLOPS, 2000 GB/s)"* ]]
    FAKE_DEVICE="Some Future GPU" fake_trainer "$BATS_TEST_TMPDIR/other" 01-naive-gemm 2
    run plots/compare.sh --build "$BATS_TEST_TMPDIR/other" --platform amd --format svg --out-dir "$BATS_TEST_TMPDIR/other" 01-naive-gemm
    [ "$status" -eq 0 ]
    svg=$(cat "$BATS_TEST_TMPDIR/other/compare.svg")
    [[ "$svg" == *"no floor line: 'Some Future GPU' is not in devices.tsv"* ]]
    [[ "$svg" != *"floor on"* ]]
}

@test "compare.sh: the title's warm-up and the floor's model come from the trainers' bench rows" {
    local svg
    # twice the parameters: twice the FLOPs (3.77 GFLOP at 13.1 TFLOPS: 0.288 ms), the pixels' bytes the same
    FAKE_WARMUP=5 FAKE_PARAMETERS=15700 fake_trainer "$BATS_TEST_TMPDIR/wide" 01-naive-gemm 2
    run plots/compare.sh --build "$BATS_TEST_TMPDIR/wide" --platform amd --format svg --out-dir "$BATS_TEST_TMPDIR/wide" 01-naive-gemm
    echo "$output"
    [ "$status" -eq 0 ]
    svg=$(cat "$BATS_TEST_TMPDIR/wide/compare.svg")
    [[ "$svg" == *"10 iterations (iterations 6-10 timed) x 1 run(s) per chapter"* ]]
    [[ "$svg" == *"floor on Radeon Pro VII (13.1 TFLOPS, 1024 GB/s): 3.77 GFLOP, 47 MB of pixels: 0.288 ms"* ]]
    # a run that times every iteration says no range; rows without the model's size draw no floor
    FAKE_WARMUP=0 FAKE_PIXELS='' FAKE_PARAMETERS='' fake_trainer "$BATS_TEST_TMPDIR/bare" 01-naive-gemm 2
    run plots/compare.sh --build "$BATS_TEST_TMPDIR/bare" --platform amd --format svg --out-dir "$BATS_TEST_TMPDIR/bare" 01-naive-gemm
    echo "$output"
    [ "$status" -eq 0 ]
    svg=$(cat "$BATS_TEST_TMPDIR/bare/compare.svg")
    [[ "$svg" == *"; 10 iterations x 1 run(s) per chapter"* ]]
    [[ "$svg" == *"no floor line: the trainers' rows give no pixels_per_image and parameters"* ]]
    [[ "$svg" != *"floor on"* ]]
}

@test "compare.sh: a failing chapter stops the comparison with its error; the old chart stays" {
    local fake=$BATS_TEST_TMPDIR/fake out=$BATS_TEST_TMPDIR/out
    fake_trainer "$fake" 01-naive-gemm 2
    printf '#!/bin/sh\necho "02-coalesced-layout: hipMalloc of W failed: out of memory" >&2\nexit 1\n' >"$fake/02-coalesced-layout"
    chmod +x "$fake/02-coalesced-layout"
    fake_trainer "$fake" 03-shared-memory-tiles 1
    mkdir -p "$out"
    echo old >"$out/compare.tsv"
    echo old >"$out/compare.png"
    run plots/compare.sh --build "$fake" --iters 10 --out-dir "$out" 01-naive-gemm 02-coalesced-layout 03-shared-memory-tiles
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"[2/3] 02-coalesced-layout"*"FAILED"* ]]
    [[ "$output" == *"02-coalesced-layout failed (exit status 1)"* ]]
    [[ "$output" == *"hipMalloc of W failed: out of memory"* ]]
    [[ "$output" != *"[3/3]"* ]]
    [ "$(cat "$out/compare.tsv")" = old ]
    [ "$(cat "$out/compare.png")" = old ]
}

@test "compare.sh: bad ITERS, REPEATS and a chapter that is not built are refused" {
    run plots/compare.sh --build "$BATS_TEST_TMPDIR" --iters 0 01-naive-gemm
    [ "$status" -ne 0 ]
    [[ "$output" == *"ITERS must be a positive integer, got '0'"* ]]
    run plots/compare.sh --build "$BATS_TEST_TMPDIR" --repeats x 01-naive-gemm
    [[ "$output" == *"REPEATS must be a positive integer, got 'x'"* ]]
    run plots/compare.sh --build "$BATS_TEST_TMPDIR" 01-naive-gemm
    [ "$status" -ne 0 ]
    [[ "$output" == *"01-naive-gemm is not built"* ]]
}

@test "make compare: defaults are 2 iterations x 1 run on cpu, 100 x 3 on a GPU; ITERS wins" {
    run env -u ITERS -u REPEATS make --no-print-directory help HIP_PLATFORM=cpu
    [[ "$(printf %s "$output" | tr -s '\n ' ' ')" == *"; make compare 2 iterations x 1 run(s) a chapter" ]]
    grep -Eq '^  REPEATS=1 ' <<<"$output"
    run env -u ITERS -u REPEATS make --no-print-directory help HIP_PLATFORM=nvidia
    [[ "$(printf %s "$output" | tr -s '\n ' ' ')" == *"; make compare 100 iterations x 3 run(s) a chapter" ]]
    grep -Eq '^  REPEATS=3 ' <<<"$output"
    run make --no-print-directory help HIP_PLATFORM=cpu ITERS=7 REPEATS=2
    [[ "$(printf %s "$output" | tr -s '\n ' ' ')" == *"; make compare 7 iterations x 2 run(s) a chapter" ]]
    grep -Eq '^  REPEATS=2 ' <<<"$output"
}

@test "make compare: every linear-model chapter (00-08) end to end on the CPU executor, into COMPARE_DIR, with KERNEL_TIMES" {
    local out=$BATS_TEST_TMPDIR/compare
    run make --no-print-directory compare HIP_PLATFORM=cpu ITERS=1 COMPARE_LIMIT=200 \
        COMPARE_DIR="$out" DATASET_DIR="$DATASET_DIR" KERNEL_TIMES="$out/kernels.tsv"
    echo "$output"
    [ "$status" -eq 0 ]
    local chapters
    chapters=$(ls -d chapters/0[0-8]-* | wc -l) # extension chapters train per epoch: not compared
    [[ "$output" == *"[$chapters/$chapters]"* ]]
    # The model's progress line says what it traces at this limit, and promises no time
    [[ "$output" == *"compare: modelling 01-naive-gemm "*" (traced on 200 images)"* ]]
    [[ "$output" != *minute* ]]
    # it ends on the model's table, the executor's before it, each under a line saying what it is
    [[ "$output" == *$'\nThe CPU executor\'s own ms (compare.tsv): '*$'\nchapter '*$'\nThe time model\'s ms on gfx906 and the H100 (compare-model.tsv): '* ]]
    [[ "${lines[-$chapters]}" == "chapter "*" model_gfx906_ms "*" bound_h100" ]]
    [[ "${lines[-1]}" == "08-tuned-gfx906 "* ]]
    [ "$(wc -l <"$out/compare.tsv")" -eq $((chapters + 1)) ]
    [ "$(awk -F '\t' 'NR > 1 && ($4 != 200 || $5 != 1 || $6 != 1) { bad++ } END { print bad + 0 }' "$out/compare.tsv")" -eq 0 ]
    # Without a GPU the chart is the time model's, the executor's own times a second chart
    check_png "$out/compare.png" 1200 700
    check_png "$out/compare-executor.png" 1100 650
    cat "$out/compare-model.tsv"
    [ "$(wc -l <"$out/compare-model.tsv")" -eq "$chapters" ]
    [ "$(awk -F '\t' 'NR > 1 && $2 > 0 && $3 > 0 && $4 > 0 && $4 <= $2 && $5 <= $3 && $6 ~ /: / && $8 == 200' \
        "$out/compare-model.tsv" | wc -l)" -eq $((chapters - 1)) ]
    # the counters the lessons move: one row per GPU chapter, its ms the model's
    cat "$out/compare-counters.tsv"
    [ "$(wc -l <"$out/compare-counters.tsv")" -eq "$chapters" ]
    diff <(cut -f 1-3 "$out/compare-model.tsv") <(cut -f 1,14,15 "$out/compare-counters.tsv" |
        sed '1s/.*/chapter\tmodel_gfx906_ms\tmodel_h100_ms/')
    [ "$(awk -F '\t' 'NR > 1 && $2 > 0 && $4 >= 1 && $8 >= 0 && $10 > 0 && $13 > 0 && $16 == 200' \
        "$out/compare-counters.tsv" | wc -l)" -eq $((chapters - 1)) ]
    grep -q $'^01-naive-gemm\t.*\t-\t[0-9.]*\t[a-z_]*\t' "$out/compare-counters.tsv" # no LDS: -
    grep -q $'^08-tuned-gfx906\t.*\ttrain_step\t60\t' "$out/compare-counters.tsv"       # 60 blocks add into one address
    # --kernel-times of the GPU chapters: one (iteration) row each, chapter 00 none
    cat "$out/kernels.tsv"
    [ "$(awk -F '\t' '$3 == "(iteration)"' "$out/kernels.tsv" | wc -l)" -eq $((chapters - 1)) ]
    run grep -q '^00-' "$out/kernels.tsv"
    [ "$status" -eq 1 ]
    grep -q $'^08-tuned-gfx906\tcpu\ttrain_step\t' "$out/kernels.tsv"
}

@test "make plots: loss, accuracy, digits, weights and resources from a tiny run, into PLOTS_DIR" {
    local out=$BATS_TEST_TMPDIR/plots
    sample_resources "$BATS_TEST_TMPDIR/resources.tsv"
    # newer than every chapter source, so make resources is not run
    touch -d "@$(($(date +%s) + 3600))" "$BATS_TEST_TMPDIR/resources.tsv"
    run make --no-print-directory plots HIP_PLATFORM=cpu PLOT_ITERS=3 PLOT_LIMIT=200 PLOTS_DIR="$out" \
        PLOTS_WORK="$BATS_TEST_TMPDIR/work" RESOURCE_TSV="$BATS_TEST_TMPDIR/resources.tsv" DATASET_DIR="$DATASET_DIR"
    echo "$output"
    [ "$status" -eq 0 ]
    check_png "$out/loss.png" 900 560
    check_png "$out/accuracy.png" 900 560
    check_png "$out/resources.png" 1100 284
    # 4 x 10 digits: 541 pixels, and 24 + 18 for each of the title's 5 lines on cpu, and 10
    check_png "$out/digits.png" 1000 665
    # the weights: 439 for the grid, 24 + 18 x 5 for the title, 10
    check_png "$out/weights.png" 1000 563
    [ "$(stat -c %s "$BATS_TEST_TMPDIR/work/weights.bin")" -eq 31400 ]
}

# tracked_state: git's view of the tree, and the time stamps of plots/'s
# tracked files (a rewrite with the same content changes only those).
tracked_state() {
    git status --porcelain --untracked-files=all
    git ls-files -z plots | xargs -0 stat -c '%n %Y'
}

@test "make compare and make plots with the default folders: outputs under build/, the tracked files untouched" {
    git rev-parse --is-inside-work-tree >/dev/null 2>&1 || skip "not a git checkout"
    local before after
    before=$(tracked_state)
    touch "$BATS_TEST_TMPDIR/start"
    sleep 1 # time stamps in whole seconds
    run make --no-print-directory compare HIP_PLATFORM=cpu COMPARE_CHAPTERS="0 1" COMPARE_LIMIT=1000 ITERS=2 \
        DATASET_DIR="$DATASET_DIR"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"compare: wrote build/compare/compare.tsv and build/compare/compare.png"* ]]
    run make --no-print-directory plots HIP_PLATFORM=cpu PLOT_LIMIT=1000 PLOT_ITERS=3 DATASET_DIR="$DATASET_DIR"
    echo "$output"
    [ "$status" -eq 0 ]
    after=$(tracked_state)
    diff <(echo "$before") <(echo "$after") || { echo "make compare or make plots changed the tracked files"; return 1; }
    local file
    for file in build/compare/compare.tsv build/compare/compare.png build/compare/compare-executor.png \
        build/compare/compare-model.tsv build/compare/compare-model.png build/compare/compare-counters.tsv \
        build/plots/loss.png build/plots/accuracy.png build/plots/digits.png build/plots/weights.png \
        build/plots/resources.png; do
        [ "$file" -nt "$BATS_TEST_TMPDIR/start" ] || { echo "$file was not written by this run"; return 1; }
    done
    check_png build/plots/weights.png 1000 563
    [ "$(awk -F '\t' 'NR > 1 { print $1, $4, $5 }' build/compare/compare.tsv | tr '\n' ' ')" = \
        "00-cpu-reference 1000 2 01-naive-gemm 1000 2 " ]
    # make resources writes its table under build/ too (plot-resources runs it when the table is stale)
    run make --no-print-directory -n resources HIP_PLATFORM=cpu
    [[ "$output" == *"common/scripts/resources.sh build/resources/resources.tsv "* ]]
    [[ "$output" != *"plots/resources.tsv"* ]]
}

@test "make figures: the one target that writes plots/ refuses a quick run's limits" {
    run make --no-print-directory figures HIP_PLATFORM=cpu COMPARE_LIMIT=100
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"make figures draws the committed pictures on full MNIST: unset COMPARE_LIMIT and PLOT_LIMIT"* ]]
    [[ "$output" != *"compare:"* ]]
    run make --no-print-directory figures-plots HIP_PLATFORM=cpu PLOT_LIMIT=100
    [ "$status" -ne 0 ]
    [[ "$output" == *"unset COMPARE_LIMIT and PLOT_LIMIT"* ]]
    run make --no-print-directory help HIP_PLATFORM=cpu
    grep -Eq '^  make figures +redraw the committed pictures and tables in plots/' <<<"$output"
    grep -Eq '^  make compare +time every chapter; without a GPU, chart the time model' <<<"$output"
    # make help wraps its lines at 80 columns: read as one
    [[ "$(printf %s "$output" | tr -s '\n ' ' ')" == *" COMPARE_DIR=build/compare make compare"* ]]
}

# chapter_table FILE: the lines between FILE's chapter-table markers.
chapter_table() {
    awk '/^<!-- chapter-table:end -->/ { inside = 0 } inside { print } /^<!-- chapter-table:begin/ { inside = 1 }' "$1"
}

@test "readme table: README.md's chapter table is what make readme-table writes from plots/compare.tsv" {
    run plots/readme_table.sh
    [ "$status" -eq 0 ] || { echo "$output"; return 1; }
    diff -u <(printf '%s\n' "$output") <(chapter_table README.md) ||
        { echo "README.md's chapter table is stale: run make readme-table"; return 1; }
    # every chapter folder has its row, in order, and one caption names the command
    [ "$(chapter_table README.md | awk -F '[][]' '/^\| \[/ { print $2 }')" = "$(ls chapters)" ]
    [[ "$(chapter_table README.md | tail -n 1)" == "*\`$(cat plots/compare.command)\`, "*"[plots/compare.tsv]"* ]] ||
        [[ "$(chapter_table README.md | tail -n 1)" == "*$(cat plots/compare.command), "*"[plots/compare.tsv]"* ]]
    # and make readme-table leaves an up-to-date copy as it is
    cp README.md "$BATS_TEST_TMPDIR/README.md"
    run make --no-print-directory readme-table HIP_PLATFORM=cpu README_FILE="$BATS_TEST_TMPDIR/README.md"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"is up to date"* ]]
    cmp README.md "$BATS_TEST_TMPDIR/README.md"
}

@test "readme table: a chapter in the TSV gets its ms, device and date; one not in it is not measured" {
    local tsv=$BATS_TEST_TMPDIR/compare.tsv readme=$BATS_TEST_TMPDIR/README.md
    sample_compare_tsv "$tsv" # 00 on the host, 01-03 on a Radeon Pro VII
    sed -i '/^02-coalesced-layout/d' "$tsv"
    run plots/readme_table.sh --data "$tsv"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"| [01-naive-gemm](chapters/01-naive-gemm/) | "*" | 2.40 ms per iteration on AMD Radeon Pro VII (gfx906), 2026-11-22 |"* ]]
    [[ "$output" == *"| [03-shared-memory-tiles](chapters/03-shared-memory-tiles/) | "*" | 0.4 ms per iteration on AMD Radeon Pro VII (gfx906), 2026-11-22 |"* ]]
    [[ "$output" == *"| [00-cpu-reference](chapters/00-cpu-reference/) | "*" | 540 ms per iteration on host CPU, plain C, one thread, 2026-11-22 |"* ]]
    [[ "$output" == *"| [02-coalesced-layout](chapters/02-coalesced-layout/) | "*" | not measured |"* ]]
    [[ "$output" == *"| [09-hidden-layer](chapters/09-hidden-layer/) | "*" | not measured |"* ]]
    [ "$(grep -c '^| \[' <<<"$output")" -eq "$(ls chapters | wc -l)" ]
    local caption
    caption=$(tail -n 1 <<<"$output")
    [[ "$caption" == "*\`make compare\`, 2026-11-22, platform amd: "*"100 iterations x 3 runs per chapter"* ]]
    [[ "$caption" == *"chapter 00 on host CPU, plain C, one thread; chapters 01, 03 on AMD Radeon Pro VII (gfx906)"* ]]
    [[ "$caption" != *"CPU executor"* ]]
    # make readme-table with the fixture rewrites the table in a copy, and nothing else
    cp README.md "$readme"
    run make --no-print-directory readme-table HIP_PLATFORM=cpu README_TABLE_TSV="$tsv" README_FILE="$readme"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"wrote the chapter table in $readme"* ]]
    grep -q '^| \[02-coalesced-layout\].* | not measured |$' "$readme"
    diff <(awk '/^<!-- chapter-table:begin/ { skip = 1 } /^<!-- chapter-table:end/ { skip = 0 } !skip' README.md) \
        <(awk '/^<!-- chapter-table:begin/ { skip = 1 } /^<!-- chapter-table:end/ { skip = 0 } !skip' "$readme")
    [ "$(find "$BATS_TEST_TMPDIR" -maxdepth 1 -name 'README.md?*' | wc -l)" -eq 0 ] # no temporary file left
}

@test "readme table: make readme-table fails on a missing or misplaced marker and leaves the file alone" {
    local readme=$BATS_TEST_TMPDIR/README.md
    grep -v '^<!-- chapter-table:end -->$' README.md >"$readme"
    cp "$readme" "$BATS_TEST_TMPDIR/before"
    run make --no-print-directory readme-table HIP_PLATFORM=cpu README_FILE="$readme"
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"readme-table: $readme has no line \"<!-- chapter-table:end -->\""*"is unchanged"* ]]
    cmp "$BATS_TEST_TMPDIR/before" "$readme"
    # the end marker before the begin marker
    { echo '<!-- chapter-table:end -->'; cat "$BATS_TEST_TMPDIR/before"; } >"$readme"
    cp "$readme" "$BATS_TEST_TMPDIR/before"
    run make --no-print-directory readme-table HIP_PLATFORM=cpu README_FILE="$readme"
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"$readme has its end marker (line 1) before its begin marker"* ]]
    cmp "$BATS_TEST_TMPDIR/before" "$readme"
    # no begin marker at all
    grep -v '^<!-- chapter-table:begin' README.md >"$readme"
    cp "$readme" "$BATS_TEST_TMPDIR/before"
    run make --no-print-directory readme-table HIP_PLATFORM=cpu README_FILE="$readme"
    [ "$status" -ne 0 ]
    [[ "$output" == *"$readme has no line starting \"<!-- chapter-table:begin\""* ]]
    cmp "$BATS_TEST_TMPDIR/before" "$readme"
    [ "$(find "$BATS_TEST_TMPDIR" -maxdepth 1 -name 'README.md?*' | wc -l)" -eq 0 ]
}

# counter_table FILE: the lines between FILE's counter-table markers.
counter_table() {
    awk '/^<!-- counter-table:end -->/ { inside = 0 } inside { print } /^<!-- counter-table:begin/ { inside = 1 }' "$1"
}

@test "readme table: the counter table has a row per modelled chapter, in order, and bolds exactly the moves over 10%" {
    local tsv=$BATS_TEST_TMPDIR/counters.tsv
    sample_counters_tsv "$tsv"
    mkdir -p "$BATS_TEST_TMPDIR"/chapters/{00-cpu-reference,01-naive-gemm,02-coalesced-layout,03-shared-memory-tiles,04-ping-pong-buffers,09-hidden-layer}
    run plots/counter_table.sh --counters "$tsv" --chapters "$BATS_TEST_TMPDIR/chapters"
    echo "$output"
    [ "$status" -eq 0 ]
    local c=$BATS_TEST_TMPDIR/chapters
    [ "$(sed -n 1p <<<"$output")" = "| chapter | global segments per load request | LDS bank cycles per LDS request | barriers per block | fill | atomics on one address | unique MB | model: gfx906 ms | model: H100 ms |" ]
    [ "$(sed -n 3,6p <<<"$output")" = "| [01-naive-gemm]($c/01-naive-gemm/) | 16.0 | - | 1.00 | 0.0500 | 0 | 400 | 15.3 | 8.96 |
| [02-coalesced-layout]($c/02-coalesced-layout/) | **2.80** | - | 1.00 | 0.0520 | 0 | 400 | 14.5 | 8.96 |
| [03-shared-memory-tiles]($c/03-shared-memory-tiles/) | 2.90 | **2.00** | **3750** | 0.0550 | 0 | 400 | **3.50** | **2.97** |
| [04-ping-pong-buffers]($c/04-ping-pong-buffers/) | 2.90 | 2.10 | **1875** | **0.104** | **60** | 360 | **1.65** | **0.830** |" ]
    [ "$(grep -o '\*\*[0-9.]*\*\*' <<<"$output" | wc -l)" -eq 10 ]
    # the caption: the command, the images, the date, the rule, a model and not a measurement, the chapters left out
    local caption
    caption=$(tail -n 1 <<<"$output")
    [[ "$caption" == "*\`make compare\` on the CPU platform, 2026-11-25: "*" on 60000 MNIST images (traced on 1024 and 2048 images, extended in a straight line)"* ]]
    [[ "$caption" == *"not a GPU measurement"* ]]
    [[ "$caption" == *"**Bold**: the value differs from the row above by more than 10% of the larger of the two."* ]]
    [[ "$caption" == *"[$tsv]($tsv); no row for chapters 00, 09, which make compare does not model.*" ]]
    # another threshold, another set of marks: at 50% 04's barriers (exactly half) and fill stay plain
    run plots/counter_table.sh --counters "$tsv" --chapters "$BATS_TEST_TMPDIR/chapters" --threshold 50
    [ "$status" -eq 0 ]
    [ "$(grep -o '\*\*[0-9.]*\*\*' <<<"$output" | wc -l)" -eq 8 ]
    [[ "$output" == *"| **60** | 360 | **1.65** | **0.830** |"* ]]
    [[ "$output" == *"more than 50% of the larger"* ]]
    # a chapter with no folder is a stale table
    rm -r "$BATS_TEST_TMPDIR/chapters/03-shared-memory-tiles"
    run plots/counter_table.sh --counters "$tsv" --chapters "$BATS_TEST_TMPDIR/chapters"
    [ "$status" -ne 0 ]
    [[ "$output" == *"counters.tsv:4: 03-shared-memory-tiles is not a folder in $BATS_TEST_TMPDIR/chapters: run make figures-compare"* ]]
}

@test "readme table: make readme-table writes the counter table between its markers from compare-counters.tsv beside the data" {
    local readme=$BATS_TEST_TMPDIR/README.md
    sample_compare_tsv "$BATS_TEST_TMPDIR/compare.tsv"
    sample_counters_tsv "$BATS_TEST_TMPDIR/compare-counters.tsv"
    cp README.md "$readme"
    run make --no-print-directory readme-table HIP_PLATFORM=cpu README_TABLE_TSV="$BATS_TEST_TMPDIR/compare.tsv" README_FILE="$readme"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"wrote the chapter table and the counter table in $readme"* ]]
    diff <(plots/counter_table.sh --counters "$BATS_TEST_TMPDIR/compare-counters.tsv") <(counter_table "$readme")
    [ "$(counter_table "$readme" | grep -c '^| \[')" -eq 4 ]
    # nothing outside the two tables changed
    local outside='/^<!-- (chapter|counter)-table:begin/ { print; skip = 1 } /^<!-- (chapter|counter)-table:end/ { skip = 0 } !skip'
    diff <(awk "$outside" README.md) <(awk "$outside" "$readme")
    [ "$(find "$BATS_TEST_TMPDIR" -maxdepth 1 -name 'README.md?*' | wc -l)" -eq 0 ] # no temporary file left
    # a second run finds both up to date
    run make --no-print-directory readme-table HIP_PLATFORM=cpu README_TABLE_TSV="$BATS_TEST_TMPDIR/compare.tsv" README_FILE="$readme"
    [ "$status" -eq 0 ]
    [[ "$output" == *"the chapter table and the counter table in $readme is up to date"* ]]
}

@test "readme table: a missing or misplaced counter-table marker leaves README alone" {
    local readme=$BATS_TEST_TMPDIR/README.md
    sample_compare_tsv "$BATS_TEST_TMPDIR/compare.tsv"
    sample_counters_tsv "$BATS_TEST_TMPDIR/compare-counters.tsv"
    grep -v '^<!-- counter-table:end -->$' README.md >"$readme"
    cp "$readme" "$BATS_TEST_TMPDIR/before"
    run make --no-print-directory readme-table HIP_PLATFORM=cpu README_TABLE_TSV="$BATS_TEST_TMPDIR/compare.tsv" README_FILE="$readme"
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"readme-table: $readme has no line \"<!-- counter-table:end -->\""*"is unchanged"* ]]
    cmp "$BATS_TEST_TMPDIR/before" "$readme"
    # two begin markers
    awk '{ print } /^<!-- counter-table:begin/ { print }' README.md >"$readme"
    cp "$readme" "$BATS_TEST_TMPDIR/before"
    run make --no-print-directory readme-table HIP_PLATFORM=cpu README_TABLE_TSV="$BATS_TEST_TMPDIR/compare.tsv" README_FILE="$readme"
    [ "$status" -ne 0 ]
    [[ "$output" == *"$readme has 2 lines starting \"<!-- counter-table:begin\", not one"* ]]
    cmp "$BATS_TEST_TMPDIR/before" "$readme"
    # a counters file that does not parse leaves it alone too
    cp README.md "$readme"
    printf 'chapter\tsomething\n' >"$BATS_TEST_TMPDIR/compare-counters.tsv"
    run make --no-print-directory readme-table HIP_PLATFORM=cpu README_TABLE_TSV="$BATS_TEST_TMPDIR/compare.tsv" README_FILE="$readme"
    [ "$status" -ne 0 ]
    [[ "$output" == *"no segments_per_request column"* ]]
    cmp README.md "$readme"
    [ "$(find "$BATS_TEST_TMPDIR" -maxdepth 1 -name 'README.md?*' | wc -l)" -eq 0 ]
}

@test "readme table: plots/compare-counters.tsv has one row per GPU chapter of make compare, as compare-model.tsv" {
    # make compare's GPU chapters: the linear model's, 01-08 (00 runs on the host, 09 on trains per epoch)
    local expected
    expected=$(for dir in chapters/0[1-8]-*/; do basename "$dir"; done)
    [ -n "$expected" ]
    diff <(echo "$expected") <(awk -F '\t' 'NR > 1 { print $1 }' plots/compare-counters.tsv) ||
        { echo "plots/compare-counters.tsv does not match the chapter folders: run make figures-compare, then make readme-table"; return 1; }
    diff <(awk -F '\t' 'NR > 1 { print $1 }' plots/compare-model.tsv) <(awk -F '\t' 'NR > 1 { print $1 }' plots/compare-counters.tsv)
    # README.md's counter table is the one plots/counter_table.sh writes from it
    run plots/counter_table.sh
    [ "$status" -eq 0 ] || { echo "$output"; return 1; }
    diff -u <(printf '%s\n' "$output") <(counter_table README.md) ||
        { echo "README.md's counter table is stale: run make readme-table"; return 1; }
}

@test "readme table: a chapter without an idea, or an idea without a chapter, is an error" {
    mkdir -p "$BATS_TEST_TMPDIR/chapters/00-cpu-reference" "$BATS_TEST_TMPDIR/chapters/10-new-idea"
    printf 'chapter\tidea\n00-cpu-reference\tthe oracle\n' >"$BATS_TEST_TMPDIR/ideas.tsv"
    run plots/readme_table.sh --chapters "$BATS_TEST_TMPDIR/chapters" --ideas "$BATS_TEST_TMPDIR/ideas.tsv"
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"ideas.tsv: no idea for $BATS_TEST_TMPDIR/chapters/10-new-idea"* ]]
    printf '10-new-idea\tsomething new\n01-gone\ta renamed chapter\n' >>"$BATS_TEST_TMPDIR/ideas.tsv"
    run plots/readme_table.sh --chapters "$BATS_TEST_TMPDIR/chapters" --ideas "$BATS_TEST_TMPDIR/ideas.tsv"
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"ideas.tsv:4: 01-gone is not a folder in $BATS_TEST_TMPDIR/chapters"* ]]
}
