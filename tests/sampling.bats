#!/usr/bin/env bats
# test-lane: shared-build
# Sampling (HIPCPU_SAMPLE_BLOCKS, make profile SAMPLE=N; common/executor/README.md,
# "Sampling"): a sampled trace's counters, call sites and lines against the
# full trace of the same run, on a grid with tail tiles of our own
# (tests/hip/tail_tiles.hip) and on chapter 03; the program's own check still
# passes; the output says what was sampled; bad sample sizes are named.
# `make test` builds the trace executor and chapter 03's trace build.

load helpers

TAIL=tests/hip/tail_tiles.hip
TAIL_BINARY=build/trace/standalone/sampling/tail_tiles

# traced DIR COMMAND...: COMMAND's counters, sites and lines into DIR.
traced() {
    local dir=$1
    shift
    mkdir -p "$dir"
    HIPCPU_PROFILE="$dir/raw.tsv" HIPCPU_PROFILE_SITES="$dir/sites.tsv" HIPCPU_PROFILE_LINES="$dir/lines.tsv" \
        "$@" >"$dir/log" 2>&1 || { cat "$dir/log"; return 1; }
}

# within FULL SAMPLED KERNELS SKIP: every number of the sampled tables
# within 2% of the full ones (and no row missing), for the kernels matching
# KERNELS, the columns matching SKIP left out; lines only of .hip files (not
# the library code a launch runs outside its blocks).
within() {
    local table keys
    for table in raw:1 sites:5 lines:2; do
        keys=${table#*:} table=${table%:*}
        awk -F'\t' -v keys="$keys" -v kernels="$3" -v skip="$4" -v name="$table" '
            FNR == 1 { for (i = 1; i <= NF; i++) head[i] = $i; next }
            $1 !~ kernels || (name == "lines" && $2 !~ /\.hip:[0-9]+$/) { next }
            { key = $1; for (i = 2; i <= keys; i++) key = key SUBSEP $i }
            FILENAME == ARGV[1] { for (i = keys + 1; i <= NF; i++) full[key, i] = $i; rows[key] = 1; next }
            {
                seen[key] = 1
                for (i = keys + 1; i <= NF; i++) {
                    if (head[i] ~ skip || !((key, i) in full)) continue
                    f = full[key, i]; d = $i - f; if (d < 0) d = -d
                    if (d > 0.02 * (f < 0 ? -f : f)) { printf "%s %s %s: full %s, sampled %s\n", name, key, head[i], f, $i; bad = 1 }
                }
            }
            END {
                for (k in rows) if (!(k in seen)) { printf "%s %s: not in the sampled table\n", name, k; bad = 1 }
                exit bad
            }' "$1/$table.tsv" "$2/$table.tsv" || return 1
    done
}

# within_share FULL SAMPLED KERNELS: the same block's re-reads (the
# *block_within_* columns) of the sampled tables within 1% of their row's
# load segments in the full ones, for the kernels matching KERNELS: the share
# of a load's segments the model reads. Only traced blocks count them, and
# the few re-reads near a distance's edge vary from block to block.
within_share() {
    local table keys of
    for table in raw:1:global_load_segments sites:5:segments; do
        of=${table##*:} table=${table%:*} keys=${table#*:} table=${table%:*}
        awk -F'\t' -v keys="$keys" -v kernels="$3" -v of="$of" -v name="$table" '
            FNR == 1 { for (i = 1; i <= NF; i++) { head[i] = $i; col[$i] = i }; next }
            $1 !~ kernels { next }
            { key = $1; for (i = 2; i <= keys; i++) key = key SUBSEP $i }
            FILENAME == ARGV[1] { for (i = keys + 1; i <= NF; i++) full[key, i] = $i; next }
            {
                for (i = keys + 1; i <= NF; i++) {
                    if (head[i] !~ /block_within_/) continue
                    d = $i - full[key, i]; if (d < 0) d = -d
                    if (d > 0.01 * full[key, col[of]]) {
                        printf "%s %s %s: full %s, sampled %s, of %s segments\n", name, key, head[i], full[key, i], $i, full[key, col[of]]
                        bad = 1
                    }
                    checked++
                }
            }
            END { if (!checked) { printf "%s: no block_within column\n", name; bad = 1 }; exit bad }' "$1/$table.tsv" "$2/$table.tsv" || return 1
    done
}

setup_file() {
    make --no-print-directory -s HIP_PLATFORM=cpu TRACE=1 "$TAIL_BINARY" STANDALONE_SOURCE="$TAIL" >/dev/null
}

@test "sampling: a grid with tail tiles, 4 of 34 rounds traced: every counter, site and line within 2% of the full trace" {
    local dir=$BATS_TEST_TMPDIR
    traced "$dir/full" "$TAIL_BINARY"
    HIPCPU_SAMPLE_BLOCKS=240 traced "$dir/sampled" "$TAIL_BINARY"
    grep -q 'transposed in 2016 blocks' "$dir/sampled/log"
    run cat "$dir/sampled/raw.tsv.sampling"
    echo "$output"
    [[ "$output" == *$'scaled_transpose\t1\t240\t2016\t0\t-'* ]]
    within "$dir/full" "$dir/sampled" . '^$'
}

@test "sampling: chapter 03, 8 blocks in rounds of 4: every counter within 2% but DRAM loads and re-reads (approximate); the same block's re-reads within 1% of the segments; a grid of one block traced whole" {
    local dir=$BATS_TEST_TMPDIR binary
    binary=$(chapter_binary 03 build/trace)
    HIPCPU_COMPUTE_UNITS=4 traced "$dir/full" "$binary" "$DATASET_DIR" 1 --train-limit 4000 --quiet
    HIPCPU_COMPUTE_UNITS=4 HIPCPU_SAMPLE_BLOCKS=8 traced "$dir/sampled" "$binary" "$DATASET_DIR" 1 --train-limit 4000 --quiet
    run cat "$dir/sampled/raw.tsv.sampling"
    echo "$output"
    [[ "$output" == *$'forward_scores\t1\t8\t63\t0'* ]]
    [[ "$output" == *$'gradient\t1\t8\t25\t0'* ]]
    [[ "$output" == *$'sum_records\t0\t0\t0\t1'* ]]
    within "$dir/full" "$dir/sampled" '^(forward_scores|gradient|sum_records)$' 'dram|beyond|block_within'
    within_share "$dir/full" "$dir/sampled" '^(forward_scores|gradient|sum_records)$'
    # The trainer's own check of its loss is the same line in both runs.
    diff <(grep -i loss "$dir/full/log") <(grep -i loss "$dir/sampled/log")
}

@test "sampling: make profile SAMPLE=240 says what it sampled; SAMPLE=5000 traces the launch whole; a bad SAMPLE or HIPCPU_SAMPLE_BLOCKS is named" {
    run make --no-print-directory -s profile FILE="$TAIL" SAMPLE=240
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"tail_tiles: 1000 x 500 transposed in 2016 blocks"* ]]
    [[ "$output" == *"counts sampled (SAMPLE=240): scaled_transpose: 240 of 2016 blocks traced in 1 launch, scaled to the grid"* ]]
    PROFILE_NO_SOURCE_VIEW=1 HIPCC=no-such-hipcc PROFILE_STANDALONE=1 PROFILE_SAMPLE=5000 \
        run bash common/tracer/profile.sh "$TAIL_BINARY" "$BATS_TEST_TMPDIR/whole" -
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"scaled_transpose: 1 launch traced whole (no more blocks than the sample)"* ]]
    run make --no-print-directory -s profile FILE="$TAIL" SAMPLE=abc
    echo "$output"
    [ "$status" -eq 2 ]
    [[ "$output" == *"SAMPLE=abc: must be a number of blocks from 0 to 2147483648 (0: trace every block)"* ]]
    HIPCPU_SAMPLE_BLOCKS=-1 run env HIPCPU_PROFILE="$BATS_TEST_TMPDIR/p.tsv" "$TAIL_BINARY"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"hipcpu: HIPCPU_SAMPLE_BLOCKS must be a number of blocks from 0 to 2147483648, not '-1'"* ]]
}
