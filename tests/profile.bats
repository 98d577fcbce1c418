#!/usr/bin/env bats
# test-lane: shared-build
# The executor's counters on the chapters (make profile-N; the micro-kernels
# with hand-worked answers are tests/test_trace_*.cpp). Small image counts: each
# profile takes a few seconds. `make test` builds the trace binaries.

load helpers

# profile NN IMAGES: chapter NN's profile TSV, after a run on IMAGES images.
profile() { echo "$(chapter_profile "$1" "$2").tsv"; }

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

@test "profile: chapters 01-06 add the loss with no atomic, chapters 07-08 with one per block" {
    local nn tsv most blocks
    for nn in 01 02 03 04 05 06; do
        tsv=$(profile "$nn" 1037)
        most=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } { a += $col["atomics"] } END { print a + 0 }' "$tsv")
        echo "chapter $nn: $most atomics"
        [ "$most" -eq 0 ]
        [ "$(counter "$tsv" sum_records blocks)" -eq 1 ]
    done
    for nn in 07 08; do
        tsv=$(profile "$nn" 1037)
        most=$(counter "$tsv" train_step atomics_max_one_address)
        blocks=$(counter "$tsv" train_step blocks)
        echo "chapter $nn: $most atomics on one address, $blocks blocks"
        [ "$most" -eq "$blocks" ]
    done
}

# Chapter 08 copies its pixels as 16-byte structs into a local array, which
# the compiler keeps as a memcpy: counted through the trace build's memcpy
# hook, one 16-byte access per lane (a dwordx4 on gfx906).
@test "profile: chapter 08's pixel loads are counted: every pixel, 16 bytes per lane" {
    local tsv sites
    tsv=$(profile 08 1037)
    sites="${tsv%.tsv}.sites.tsv"
    local unique
    unique=$(counter "$tsv" train_step unique_bytes)
    echo "train_step unique bytes: $unique (pixels: $((784 * 1037)))"
    [ "$unique" -ge $((784 * 1037)) ]
    awk -F'\t' '$3 == "pixels" && $5 == "load" { lanes += $7; bytes += $8 }
        END { printf "pixel loads: %d bytes over %d lanes\n", bytes, lanes; exit !(lanes > 0 && bytes == 16 * lanes && bytes >= 784 * 1037) }' "$sites"
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

# The same block's re-reads (common/executor/README.md, "The counters"): per load
# site, after the columns before them, the segments within 2, 8, 32 and 128
# KiB, each bucket holding the ones before, none past the site's segments,
# none for stores or shared memory; per kernel, its sites' sums.
@test "profile: the same block's re-reads are the sites table's last columns, nested buckets, summed per kernel" {
    local tsv sites nn
    for nn in 03 08; do
        tsv=$(profile "$nn" 1037)
        sites="${tsv%.tsv}.sites.tsv"
        head -n 1 "$sites" | grep -q $'\tbeyond_256m\tblock_within_2k\tblock_within_8k\tblock_within_32k\tblock_within_128k$'
        awk -F'\t' 'FNR == 1 { file++; split("", col); for (i = 1; i <= NF; i++) col[$i] = i; next }
            file == 1 {
                w[1] = $col["block_within_2k"]; w[2] = $col["block_within_8k"]; w[3] = $col["block_within_32k"]
                w[4] = $col["block_within_128k"]
                if (!(w[1] <= w[2] && w[2] <= w[3] && w[3] <= w[4] && w[4] <= $col["segments"])) { print "not nested: " $0; bad = 1 }
                if (($col["kind"] != "load" || $col["space"] != "global") && w[4] != 0) { print "not a global load: " $0; bad = 1 }
                for (b = 1; b <= 4; b++) sum[$col["kernel"], b] += w[b]
                any += w[4]
                next
            }
            {
                split("2k 8k 32k 128k", name, " ")
                for (b = 1; b <= 4; b++)
                    if ($col["load_segments_block_within_" name[b]] != sum[$col["kernel"], b] + 0) {
                        printf "%s within %s: %s in the table, %d in its sites\n", $col["kernel"], name[b],
                            $col["load_segments_block_within_" name[b]], sum[$col["kernel"], b]
                        bad = 1
                    }
            }
            END { if (!any) { print "no re-read in any site"; bad = 1 }; exit bad }' "$sites" "$tsv"
    done
}

# Counts grow with the images: over one iteration, each further 1,024
# images adds the same traffic (within 1%), from 1,024 to 2,048 images and
# from 2,048 to 3,072. Differences cancel what does not depend on the images
# (the update kernel, W). Multiples of 16 images, because segments depend on
# alignment: a feature-major row is 4 N bytes, 64-byte aligned only when N is
# a multiple of 16 (at 1,000 images each row start costs a segment more; 10,000
# and 60,000 are aligned). The check on 10,000 against 60,000 images takes
# minutes per chapter; its result is in common/executor/README.md. Not the counts
# of where a load's data comes from (the DRAM requests and the re-reads
# beyond each distance): how many blocks run at the same time, and how far
# apart a re-read comes, change with the size, so those are traced at the
# full size, not extended (make compare).
@test "profile: each 1,024 images more adds the same counts (chapters 02 and 08)" {
    local nn
    for nn in 02 08; do
        awk -F'\t' -v nn="$nn" 'FNR == 1 { file++; for (i = 1; i <= NF; i++) col[$i] = i; next }
            { for (name in col) if (name ~ /bytes|segments|sectors|requests|lds_bank_cycles/ && name !~ /dram|beyond/) t[file, name] += $col[name] }
            END {
                for (key in t) {
                    split(key, k, SUBSEP)
                    if (k[1] != 1) continue
                    first = t[2, k[2]] - t[1, k[2]]; second = t[3, k[2]] - t[2, k[2]]
                    if (first == 0 && second == 0) continue
                    d = (second - first) / (first > second ? first : second)
                    if (d < 0) d = -d
                    printf "chapter %s %s: +%d then +%d per 1,024 images (%.2f%%)\n", nn, k[2], first, second, 100 * d
                    if (d > 0.01) bad = 1
                }
                exit bad
            }' "$(profile "$nn" 1024)" "$(profile "$nn" 2048)" "$(profile "$nn" 3072)"
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

# required_packages ARG...: the Debian packages `make -n ARG...` would ask
# common/scripts/require.sh for (make -n runs the sub-makes, which print theirs).
required_packages() {
    plain_make -n HIP_PLATFORM=cpu "$@" | sed -n 's|^common/scripts/require\.sh ||p' | tr ' ' '\n' | sort -u | tr '\n' ' '
}

# Each target installs only its own packages: libcmocka-dev is the tests' alone.
@test "make profile-N and the other targets ask only for the packages they use" {
    local packages
    packages=$(required_packages profile-1)
    echo "profile-1: $packages"
    [ "$packages" = "clang hipcc libamdhip64-dev libclang-rt-dev rocm-device-libs " ]
    packages=$(required_packages racecheck-1)
    echo "racecheck-1: $packages"
    [ "$packages" = "clang libclang-rt-dev " ]
    packages=$(required_packages fuzz)
    echo "fuzz: $packages"
    [ "$packages" = "clang libclang-rt-dev " ]
    packages=$(required_packages chapter-1 "$TEST_BUILD/compare_runs") # make tune's checker too
    echo "chapter-1 and compare_runs: $packages"
    [ "$packages" = "" ]
    packages=$(required_packages test)
    echo "test: $packages"
    [[ " $packages" == *" libcmocka-dev "* && " $packages" == *" clang "* && " $packages" == *" hipcc "* ]]
}

# The first line of make profile-N says what this run did: the images
# traced (or extended to), and the seconds it took as measured, no estimate,
# which would be wrong at most image counts. (plots.bats checks make
# compare's progress line the same way.)
@test "profile: its first line names this run's images and its measured seconds, nothing estimated" {
    local binary out="$BATS_TEST_TMPDIR/profile" started elapsed
    binary=$(chapter_binary 01 build/trace)
    started=$(date +%s)
    run bash common/tracer/profile.sh "$binary" "$out" "$DATASET_DIR" --train-limit 100
    elapsed=$(($(date +%s) - started))
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" =~ ^01-naive-gemm:\ what\ the\ CPU\ executor\ saw\ in\ 1\ iteration\ on\ 100\ images\ \(wave\ 64\;\ ([0-9]+)\ s\)$ ]]
    echo "said ${BASH_REMATCH[1]} s, took $elapsed s"
    [ "${BASH_REMATCH[1]}" -le "$elapsed" ]
    [[ "$output" != *minute* ]]
    PROFILE_SLICES="50 100" run bash common/tracer/profile.sh "$binary" "$out" "$DATASET_DIR" --train-limit 300
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "01-naive-gemm: what the CPU executor saw in 1 iteration on 300 images (extended from 50 and 100 images) (wave 64; "*" s)" ]]
}

# listing DIR: every name in DIR (hidden ones too) and each file's checksum.
listing() { (cd "$1" && ls -A && find . -type f -exec md5sum {} + | sort); }

# A failed make profile-1 ARGS="--train-limit abc" must not delete any of the
# last good set's files, nor leave a mix of old and new ones.
@test "profile: a failed run leaves the last good set as it was; a run without the model leaves none of an older model's files" {
    local binary out="$BATS_TEST_TMPDIR/profile"
    binary=$(chapter_binary 01 build/trace)
    run bash common/tracer/profile.sh "$binary" "$out" "$DATASET_DIR" --train-limit 100
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    listing "$out" >"$BATS_TEST_TMPDIR/before"
    run bash common/tracer/profile.sh "$binary" "$out" "$DATASET_DIR" --train-limit abc
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"--train-limit must be an integer in 1..2147483647, got 'abc'"* ]]
    listing "$out" >"$BATS_TEST_TMPDIR/after"
    diff "$BATS_TEST_TMPDIR/before" "$BATS_TEST_TMPDIR/after"
    # Without hipcc the counts come alone: the set is the five files of such a
    # run, not those beside the .mix, .waits and .source of the run before.
    HIPCC=no-such-hipcc run bash common/tracer/profile.sh "$binary" "$out" "$DATASET_DIR" --train-limit 100
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"no model: it reads the gfx906 assembly, and no-such-hipcc is not installed"* ]]
    run ls -A "$out"
    echo "$output"
    [ "$output" = "$(printf '01-naive-gemm.%s\n' lines.tsv log model.tsv sites.tsv tsv)" ]
}
