#!/usr/bin/env bats
# test-lane: shared-build
# The README's chapter and counter tables are what `make readme-table` writes
# (plots/readme_table.sh, plots/counter_table.sh) from plots/compare.tsv,
# compare-counters.tsv and the ideas in plots/chapter_ideas.tsv; bad markers
# and missing rows are refused, and the file is left alone. Needs only sh and awk.

load helpers
load plots_helpers

setup() {
    cd "$BATS_TEST_DIRNAME/.." || return 1
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

@test "readme table: the counter table has a row per modelled chapter, in order, its lesson's counter first, and marks exactly the moves over 10%" {
    local tsv=$BATS_TEST_TMPDIR/counters.tsv
    sample_counters_tsv "$tsv"
    mkdir -p "$BATS_TEST_TMPDIR"/chapters/{00-cpu-reference,01-naive-gemm,02-coalesced-layout,03-shared-memory-tiles,04-ping-pong-buffers,09-hidden-layer}
    run plots/counter_table.sh --counters "$tsv" --chapters "$BATS_TEST_TMPDIR/chapters"
    echo "$output"
    [ "$status" -eq 0 ]
    local c=$BATS_TEST_TMPDIR/chapters
    [ "$(sed -n 1p <<<"$output")" = "| chapter | the lesson's counter | global segments per load request | LDS bank cycles per LDS request | barriers per block | fill | atomics on one address | unique MB | model: gfx906 ms | model: H100 ms |" ]
    # bold: the lesson's own counter (plots/lesson_counters.tsv) or a time; italic: a counter moved on the side
    [ "$(sed -n 3,6p <<<"$output")" = "| [01-naive-gemm]($c/01-naive-gemm/) | - | 16.0 | - | 1.00 | 0.0500 | 0 | 400 | 15.3 | 8.96 |
| [02-coalesced-layout]($c/02-coalesced-layout/) | segments per load request 16.0 -> 2.80 | **2.80** | - | 1.00 | 0.0520 | 0 | 400 | 14.5 | 8.96 |
| [03-shared-memory-tiles]($c/03-shared-memory-tiles/) | global load requests 100 -> 100 | 2.90 | *2.00* | *3750* | 0.0550 | 0 | 400 | **3.50** | **2.97** |
| [04-ping-pong-buffers]($c/04-ping-pong-buffers/) | barriers per block 3750 -> 1875 | 2.90 | 2.10 | **1875** | *0.104* | *60* | 360 | **1.65** | **0.830** |" ]
    [ "$(grep -o '\*\*[0-9.]*\*\*' <<<"$output" | wc -l)" -eq 6 ]
    [ "$(grep -oE ' \*[0-9.]+\*' <<<"$output" | wc -l)" -eq 4 ]
    # the caption: the command, the images, the date, the rule, a model and not a measurement, the chapters left out
    local caption
    caption=$(tail -n 1 <<<"$output")
    [[ "$caption" == "*\`make compare\` on the CPU platform, 2026-11-25: "*" on 60000 MNIST images (traced on 1024 and 2048 images, extended in a straight line)"* ]]
    [[ "$caption" == *"not a GPU measurement"* ]]
    [[ "$caption" == *"more than 10% of the larger of the two is **bold** where it is the lesson's counter or a modelled time, and *italic* where the lesson moved it on the side"* ]]
    [[ "$caption" == *"[$tsv]($tsv); no row for chapters 00, 09, which make compare does not model.*" ]]
    # another threshold, another set of marks: at 50% 04's barriers (exactly half) and fill stay plain
    run plots/counter_table.sh --counters "$tsv" --chapters "$BATS_TEST_TMPDIR/chapters" --threshold 50
    [ "$status" -eq 0 ]
    [ "$(grep -o '\*\*[0-9.]*\*\*' <<<"$output" | wc -l)" -eq 5 ]
    [[ "$output" == *"| *60* | 360 | **1.65** | **0.830** |"* ]]
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
