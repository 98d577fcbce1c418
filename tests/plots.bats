#!/usr/bin/env bats
# test-lane: shared-build
# The charts: every gnuplot script in plots/ draws a valid picture of the
# expected size from small sample files; plots/compare.sh aggregates repeats
# and stops at a failing chapter; plots/weights.sh draws a weights file and
# refuses a malformed one; `make compare` and `make plots` run end to end on
# the CPU executor (tiny runs, outputs in a temporary folder, and once with
# the defaults: under build/, the tracked files untouched). The README's
# tables: readme_table.bats.

load helpers
load plots_helpers

setup_file() {
    cd "$BATS_TEST_DIRNAME/.." || return 1
    command -v gnuplot >/dev/null || common/scripts/require.sh gnuplot-nox >&2 || true
}

setup() {
    cd "$BATS_TEST_DIRNAME/.." || return 1
    command -v gnuplot >/dev/null || skip "gnuplot is not installed: common/scripts/require.sh gnuplot-nox"
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
    [[ "$output" == *"[$chapters/$chapters]"* ]] # KERNEL_TIMES needs the executor's own runs
    # The model's progress lines: what it traces at this limit (fewer images than the slices:
    # traced as it is), then a line per chapter as it is done
    [[ "$output" == *"compare: modelling $((chapters - 1)) chapters, two at a time (traced on 200 images)"* ]]
    [[ "$output" == *"compare: 08-tuned-gfx906 modelled, "*" of $((chapters - 1)) ("*" so far)"* ]]
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

@test "make compare on the executor: the model only, from two slices extended; a chapter whose slices run other code traced whole" {
    [ -z "${SANITIZE:-}" ] || skip "shell logic, checked in the plain run; the sanitized run keeps its time for what ASan watches"
    local out=$BATS_TEST_TMPDIR/compare
    run make --no-print-directory compare HIP_PLATFORM=cpu COMPARE_CHAPTERS="6 8" COMPARE_LIMIT=4608 \
        COMPARE_SLICES="2048 4096" COMPARE_DIR="$out" DATASET_DIR="$DATASET_DIR"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" != *"run 1/1"* ]] # no timed runs on the executor
    [ ! -e "$out/compare.tsv" ]
    [[ "$output" == *"compare: modelling 2 chapters, two at a time (traced on 2048 4096 images, extended to 4608)"* ]]
    [[ "$output" == *"compare: 06-shuffle-reduction modelled, "*" of 2 ("*" so far)"* ]]
    # on 2,048 images chapter 08's 60 blocks never reach their loop's second tile, on 4,096 they do:
    # its slices run different code, and it is traced whole
    [[ "$output" == *"compare: 08-tuned-gfx906 modelled, traced whole: its slices run different code, "*" of 2 ("*" so far)"* ]]
    [[ "${lines[-1]}" == "(COMPARE_EXECUTOR=1 also times each chapter on the executor itself"* ]]
    grep -q $'^06-shuffle-reduction\t.*\t4608\t2048 4096\t' "$out/compare-model.tsv"
    grep -q $'^08-tuned-gfx906\t.*\t4608\tnone\t' "$out/compare-model.tsv"
    check_png "$out/compare.png" 1200 700
    [ "$(wc -l <"$out/compare-counters.tsv")" -eq 3 ]
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
    [ "$(stat -c %s "$BATS_TEST_TMPDIR"/work/run.*/weights.bin)" -eq 31400 ]
    # A second run makes a folder of its own: the first run's files stay as they were.
    local first
    first=$(cksum "$BATS_TEST_TMPDIR"/work/run.*/training.csv)
    run make --no-print-directory plots HIP_PLATFORM=cpu PLOT_ITERS=3 PLOT_LIMIT=200 PLOTS_DIR="$out" \
        PLOTS_WORK="$BATS_TEST_TMPDIR/work" RESOURCE_TSV="$BATS_TEST_TMPDIR/resources.tsv" DATASET_DIR="$DATASET_DIR"
    [ "$status" -eq 0 ]
    [ "$(ls -d "$BATS_TEST_TMPDIR"/work/run.* | wc -l)" -eq 2 ]
    grep -qF "$first" <(cksum "$BATS_TEST_TMPDIR"/work/run.*/training.csv)
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
        COMPARE_EXECUTOR=1 DATASET_DIR="$DATASET_DIR"
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
