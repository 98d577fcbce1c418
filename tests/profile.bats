#!/usr/bin/env bats
# The executor's counters on the chapters (make profile-N; the micro-kernels
# with hand-worked answers are tests/test_trace.cpp). Small image counts: each
# profile takes a few seconds. `make test` builds the trace binaries.

load helpers

# profile NN IMAGES: chapter NN's profile TSV path, after a run on IMAGES images.
profile() {
    local binary out="$BATS_FILE_TMPDIR/profile-$1-$2"
    binary=$(chapter_binary "$1" build/trace)
    if [ ! -f "$out/$(basename "$binary").tsv" ]; then
        bash common/cpu/profile.sh "$binary" "$out" "$DATASET_DIR" --train-limit "$2" >"$out.txt" 2>&1 ||
            { cat "$out.txt"; return 1; }
    fi
    echo "$out/$(basename "$binary").tsv"
}

# counter TSV KERNEL COLUMN: one counter of one kernel.
counter() {
    awk -F'\t' -v kernel="$2" -v name="$3" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $1 == kernel { print $col[name] }' "$1"
}

@test "profile: chapter 02's forward needs at least 8x fewer segments per load request than chapter 01's" {
    local one two
    one=$(profile 01 1037)
    two=$(profile 02 1037)
    local r1 r2
    r1=$(awk -v s="$(counter "$one" forward_scores global_load_segments)" \
             -v r="$(counter "$one" forward_scores global_load_requests)" 'BEGIN { print s / r }')
    r2=$(awk -v s="$(counter "$two" forward_scores global_load_segments)" \
             -v r="$(counter "$two" forward_scores global_load_requests)" 'BEGIN { print s / r }')
    echo "segments per request: chapter 01 $r1, chapter 02 $r2"
    awk -v a="$r1" -v b="$r2" 'BEGIN { exit !(a >= 8 * b) }'
}

@test "profile: chapters 01-05 add every image's loss into one address, chapter 06 once per block" {
    local nn tsv most
    for nn in 01 02 03 04 05; do
        tsv=$(profile "$nn" 1037)
        most=$(counter "$tsv" residual_loss atomics_max_one_address)
        echo "chapter $nn: $most atomics on one address"
        [ "$most" -eq 1037 ]
    done
    tsv=$(profile 06 1037)
    most=$(counter "$tsv" residual_loss atomics_max_one_address)
    local blocks
    blocks=$(counter "$tsv" residual_loss blocks)
    echo "chapter 06: $most atomics on one address, $blocks blocks"
    [ "$most" -eq "$blocks" ]
}

@test "profile: every column the issue names is in the TSV, and the floors are positive" {
    local tsv
    tsv=$(profile 08 1037)
    local name
    for name in kernel launches blocks threads waves global_load_requests global_load_bytes \
        global_load_segments global_store_requests global_store_bytes global_store_segments unique_bytes \
        lds_requests lds_bank_cycles barriers shuffles atomics atomics_max_one_address floor_gfx906_ms \
        floor_h100_ms; do
        head -n 1 "$tsv" | tr '\t' '\n' | grep -qx "$name" || { echo "no column $name"; return 1; }
    done
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        !($col["floor_gfx906_ms"] > 0 && $col["floor_h100_ms"] > 0) { print "no floor: " $0; bad = 1 }
        END { exit bad }' "$tsv"
}

# Counts that depend on the images must grow with them: per image, a profile
# on 3,000 images and one on 1,000 agree within 1% (kernels whose work does
# not depend on N, the update, are left out).
@test "profile: counts per image agree on 1,000 and 3,000 images (chapters 02 and 08)" {
    local nn small large
    for nn in 02 08; do
        small=$(profile "$nn" 1000)
        large=$(profile "$nn" 3000)
        awk -F'\t' -v nn="$nn" 'FNR == 1 { file++; for (i = 1; i <= NF; i++) col[$i] = i; next }
            $1 == "update" { next }
            { for (name in col) if (name ~ /bytes|segments|sectors|requests|lds_bank_cycles/) v[file, $1, name] = $col[name] }
            END {
                for (key in v) {
                    split(key, k, SUBSEP)
                    if (k[1] != 1) continue
                    small = v[1, k[2], k[3]] / 1000; large = v[2, k[2], k[3]] / 3000
                    if (small == 0 && large == 0) continue
                    d = (large - small) / (small > large ? small : large)
                    if (d < 0) d = -d
                    printf "chapter %s %s %s: %.2f vs %.2f per image (%.2f%%)\n", nn, k[2], k[3], small, large, 100 * d
                    if (d > 0.01) bad = 1
                }
                exit bad
            }' "$small" "$large"
    done
}

@test "profile: make profile-N names a chapter without kernels and a missing one" {
    run make --no-print-directory profile-0
    [ "$status" -ne 0 ]
    [[ "$output" == *"no GPU chapter '0'"* ]]
    run make --no-print-directory profile-42
    [ "$status" -ne 0 ]
    [[ "$output" == *"no GPU chapter '42'"* ]]
}

@test "profile: HIPCPU_PROFILE on a build without the tracer is refused with a hint" {
    run env HIPCPU_PROFILE=/dev/null "$(chapter_binary 01)" "$DATASET_DIR" 1 --train-limit 100 --quiet
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"needs the executor's trace build"* ]]
}
