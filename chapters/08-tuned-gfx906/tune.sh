#!/usr/bin/env bash
# Times chapter 08 with each set of its tunable sizes and prints the fastest.
# Run by `make tune`, which builds chapter 00 and compare_runs first and sets
# HIP_PLATFORM, BUILD, TEST_BUILD, DATASET_DIR, TUNE_ITERS, TUNE_LIMIT,
# TUNE_SETS and MAKE.
#
# For each set: build chapter 08 with BLOCKS_PER_CU, FWD_UNROLL, GRAD_UNROLL
# [and TILE_IMAGES] defined, as the chapter 08-tune-cuB-fF-gG-tT of
# common/scripts/derive_chapter.sh (through the Makefile's one chapter rule, so its
# objects are BUILD's own), check it against chapter 00 (5
# iterations on 1,037 images, as tests/chapters.bats does), then time it with
# --bench-out. A set that fails to build or to match is reported and skipped.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=common/scripts/lib.sh
. common/scripts/lib.sh
SCRIPT_NAME="make tune"

: "${HIP_PLATFORM:?run me through make tune}" "${BUILD:?}" "${TEST_BUILD:?}"
TUNE_DIR=build/tune/$(basename "$BUILD")
: "${DATASET_DIR:=dataset}" "${TUNE_ITERS:=50}" "${TUNE_LIMIT:=}" "${TUNE_SETS:=}" "${MAKE:=make}"

# The trainers leave the first TIMING_WARMUP iterations out of their timing
# (common/host/timing.h), or none when a run has no more than that. The median and
# the minimum need at least 3 timed iterations to differ.
warmup=$(sed -n 's/^#define TIMING_WARMUP \([0-9][0-9]*\).*/\1/p' common/host/timing.h)
[ -n "$warmup" ] || die "no '#define TIMING_WARMUP N' in common/host/timing.h"
[[ "$TUNE_ITERS" =~ ^[1-9][0-9]{0,5}$ ]] ||
    die_usage "TUNE_ITERS must be a whole number of iterations, 1 to 999999, got '$TUNE_ITERS'"
if [ "$TUNE_ITERS" -gt "$warmup" ]; then timed=$((TUNE_ITERS - warmup)); else timed=$TUNE_ITERS; fi
if [ "$timed" -lt 3 ]; then
    die_usage "TUNE_ITERS=$TUNE_ITERS times only $timed iteration(s) (the first $warmup of a run are warm-up); use TUNE_ITERS=$((warmup + 3)) or more, so that the median and the minimum are over 3 or more"
fi
[ -z "$TUNE_LIMIT" ] || [[ "$TUNE_LIMIT" =~ ^[1-9][0-9]{0,8}$ ]] ||
    die_usage "TUNE_LIMIT must be a number of images, 1 or more (or empty: all), got '$TUNE_LIMIT'"

# BLOCKS_PER_CU:FWD_UNROLL:GRAD_UNROLL[:TILE_IMAGES]. The first two are the
# shipped defaults: FWD_UNROLL 5 off gfx9, 1 on gfx9 (train.hip). Blocks per
# CU: 1x the device's compute units (multiProcessorCount, read at run time:
# 60 on gfx906, 132 SMs on an H100) and 2x, a second round of blocks queued
# behind the first. TILE_IMAGES is left at the wave size (one
# image per lane): smaller tiles make W differ within a wave, larger ones do
# not fit the LDS.
if [ -z "$TUNE_SETS" ]; then
    TUNE_SETS="1:5:1 1:1:1 1:1:2 1:4:1 1:4:2 2:5:1 2:4:1"
fi

mkdir -p "$TUNE_DIR"
summary="$TUNE_DIR/summary.tsv"
printf 'set\tflags\tmedian_ms\tmin_ms\tcheck\n' >"$summary"
limit_args=()
[ -n "$TUNE_LIMIT" ] && limit_args=(--train-limit "$TUNE_LIMIT")

# The chapter check's reference, once.
reference="$TUNE_DIR/reference-1037"
"$BUILD/00-cpu-reference" "$DATASET_DIR" 5 0.01 --train-limit 1037 --quiet \
    --weights-out "$reference.weights" --csv "$reference.csv" >/dev/null || exit 1

echo "make tune: chapter 08 on platform $HIP_PLATFORM, $TUNE_ITERS iterations on ${TUNE_LIMIT:-all} images per set:"
echo "           $timed of them timed, after $((TUNE_ITERS - timed)) warm-up; median and min are over those $timed"
if [ "$HIP_PLATFORM" = cpu ]; then
    # one whole sentence on the note: line, which make gpu-report quotes alone
    echo "note: on the CPU executor the times say nothing about a GPU; each set is only checked"
    echo "      (it builds, runs and matches chapter 00). Tune on a GPU."
fi

for set in $TUNE_SETS; do
    IFS=: read -r blocks fwd grad tile <<<"$set"
    flags="-DBLOCKS_PER_CU=$blocks -DFWD_UNROLL=$fwd -DGRAD_UNROLL=$grad"
    [ -n "${tile:-}" ] && flags="$flags -DTILE_IMAGES=$tile"
    name="cu$blocks-f$fwd-g$grad-t${tile:-0}"
    binary="$BUILD/08-tune-$name"
    echo "# $name: $flags"
    if ! $MAKE --no-print-directory HIP_PLATFORM="$HIP_PLATFORM" "$binary" >"$TUNE_DIR/$name.build.log" 2>&1; then
        echo "  build failed (see $TUNE_DIR/$name.build.log)"
        printf '%s\t%s\t\t\tbuild failed\n' "$name" "$flags" >>"$summary"
        continue
    fi
    run="$TUNE_DIR/$name"
    mkdir -p "$run"
    if ! "$binary" "$DATASET_DIR" 5 0.01 --train-limit 1037 --quiet \
            --weights-out "$run/check.weights" --csv "$run/check.csv" >/dev/null ||
       ! check=$("$TEST_BUILD/compare_runs" "$reference.weights" "$reference.csv" \
            "$run/check.weights" "$run/check.csv"); then
        echo "  does not match chapter 00: skipped"
        printf '%s\t%s\t\t\tmismatch\n' "$name" "$flags" >>"$summary"
        continue
    fi
    echo "  $check"
    rm -f "$run/bench.tsv"
    if ! "$binary" "$DATASET_DIR" "$TUNE_ITERS" 0.01 "${limit_args[@]}" --quiet \
            --bench-out "$run/bench.tsv" >/dev/null; then
        echo "  the timed run failed: skipped"
        printf '%s\t%s\t\t\trun failed\n' "$name" "$flags" >>"$summary"
        continue
    fi
    # The bench TSV: a header, then chapter platform device images iterations
    # median_ms min_ms max_ms ...
    read -r median min < <(awk -F'\t' 'NR == 2 { print $6, $7 }' "$run/bench.tsv")
    echo "  median $median ms, min $min ms per iteration, over $timed timed iterations"
    printf '%s\t%s\t%s\t%s\tmatch\n' "$name" "$flags" "$median" "$min" >>"$summary"
done

echo
print_table "$summary"
best=$(awk -F'\t' 'NR > 1 && $3 != "" && (best == "" || $3 + 0 < low) { best = $1 "\t" $2 "\t" $3; low = $3 + 0 }
    END { print best }' "$summary")
if [ -z "$best" ]; then
    echo "no set built and matched chapter 00"
    exit 1
fi
IFS=$'\t' read -r name flags median <<<"$best"
echo
echo "fastest here: $name, $median ms per iteration (median of $timed timed iterations): $flags"
if [ "$HIP_PLATFORM" = cpu ]; then
    echo "(on the CPU executor: this ranks fiber switches, not GPU kernels; every set above"
    echo " that says 'match' is correct, and that is all this run shows)"
else
    echo "to make it the default, set these values in the #ifndef block of chapters/08-tuned-gfx906/train.hip"
fi
echo "table: $summary"
