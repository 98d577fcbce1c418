# Shared by the bats files: paths set by `make test`, and the chapter check.
# shellcheck shell=bash
# shellcheck disable=SC2154 # output and status are bats' run's
: "${CPU_BUILD:=build/cpu}" "${TEST_BUILD:=build/tests}" "${DATASET_DIR:=dataset}"
# common/'s folders on the include path, as the Makefile puts them (common/include_dirs)
# shellcheck disable=SC2034 # used by the bats files that load this one
mapfile -t COMMON_INCLUDES < <(sed 's/^/-I/' "$(dirname "${BASH_SOURCE[0]}")/../common/include_dirs")
REFERENCE="$CPU_BUILD/00-cpu-reference"

# unwrap TEXT: TEXT with its wrapped messages joined again: common/host/errors.c
# breaks a long error message at a space, which becomes a newline and two
# spaces, so each "\n  " goes back to " " (a summary's "  key  value" lines
# are joined too, which substring matches do not mind).
unwrap() {
    printf '%s\n' "${1//$'\n  '/ }"
}

# within_80_columns TEXT: fails, naming it, when a line of TEXT is wider than
# 80 columns (every line the trainers print must fit an 80x24 terminal).
within_80_columns() {
    awk 'length($0) > 80 { print "wider than 80 columns (" length($0) "): " $0; wide = 1 }
         END { exit wide }' <<<"$1"
}

# tables_of FILE: where make profile FILE= writes FILE's tables, without the extension: under
# build/profile/standalone/, the source's folder from the repository or from / (mk/profile.mk).
tables_of() {
    local folder
    folder=$(realpath -sm "$(dirname "$1")")
    folder=${folder#"$PWD"/}
    echo "build/profile/standalone/${folder#/}/$(basename "$1" .hip)"
}

# chapter_binary NN [BUILD]: the built trainer of chapter NN-*.
chapter_binary() {
    local build=${2:-$CPU_BUILD}
    local dir
    dir=$(cd chapters && ls -d "$1"-* | head -n 1)
    echo "$build/$dir"
}

# reference_run IMAGES: chapter 00's weights and CSV after 5 iterations, made
# once per image count and kept for the whole file. Called inside $(...),
# where errexit is off, so a failed run returns 1 and says so on stderr.
reference_run() {
    local out="$BATS_FILE_TMPDIR/reference-$1"
    if [ ! -f "$out.weights" ]; then
        "$REFERENCE" "$DATASET_DIR" 5 0.01 --train-limit "$1" --quiet \
            --weights-out "$out.weights" --csv "$out.csv" >/dev/null ||
            { echo "the reference run failed: $REFERENCE $DATASET_DIR 5 0.01 --train-limit $1" >&2; return 1; }
    fi
    echo "$out"
}

# check_chapter BINARY IMAGES [ENV...]: the chapter check. The chapter's
# weights and per-iteration losses after 5 iterations must equal chapter 00's
# within a relative 1e-4; NaN or Inf fail.
check_chapter() {
    local binary=$1 images=$2
    shift 2
    local ref out="$BATS_TEST_TMPDIR/run"
    ref=$(reference_run "$images")
    run env "$@" "$binary" "$DATASET_DIR" 5 0.01 --train-limit "$images" --quiet \
        --weights-out "$out.weights" --csv "$out.csv"
    echo "$output"
    [ "$status" -eq 0 ]
    run "$TEST_BUILD/compare_runs" "$ref.weights" "$ref.csv" "$out.weights" "$out.csv"
    echo "$output"
    [ "$status" -eq 0 ]
}

# gpu_check NN IMAGES: the chapter check on a real GPU, or skipped without one.
gpu_check() {
    [ -n "${GPU_PLATFORM:-}" ] || skip "no GPU: set HIP_PLATFORM=amd or nvidia on a machine with one"
    check_chapter "$(chapter_binary "$1" "$GPU_BUILD")" "$2"
}

# chapter_profile NN IMAGES: where chapter NN's make profile files are (the
# path without .tsv), after a run on IMAGES images, made once per file of tests.
chapter_profile() {
    local binary out="$BATS_FILE_TMPDIR/profile-$1-$2"
    binary=$(chapter_binary "$1" build/trace)
    if [ ! -f "$out/$(basename "$binary").tsv" ]; then
        bash common/tracer/profile.sh "$binary" "$out" "$DATASET_DIR" --train-limit "$2" >"$out.txt" 2>&1 ||
            { cat "$out.txt"; return 1; }
    fi
    echo "$out/$(basename "$binary")"
}

# fresh_copy DIR: the working tree as a fresh clone of it would be (the files
# git tracks, and new ones it does not ignore: no build/, no dataset files).
fresh_copy() {
    if ! command -v git >/dev/null || ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        skip "not a git checkout: no way to tell a fresh clone's files"
    fi
    local file
    mkdir -p "$1"
    # files git knows that are there (a deletion not yet committed is left out)
    git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' file; do
        [ ! -e "$file" ] || printf '%s\0' "$file"
    done | tar -c --null -T - | tar -x -C "$1"
}

# plain_make ARG...: make as a reader types it, without what a surrounding
# `make test` passes down (MAKEFLAGS would carry its HIP_PLATFORM and win, and its
# SANITIZE would send the builds to build/cpu-san).
plain_make() {
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u DATASET -u DATASET_DIR -u SANITIZE make --no-print-directory "$@"
}

# racecheck_without_barrier SOURCE HEADER: make racecheck on a copy of SOURCE (beside a copy of
# HEADER, in the test's folder) with its line marked "barrier: the negative control" deleted;
# it must fail. The copy is BATS_TEST_TMPDIR/nobarrier/NAME; output is left for the test to match.
racecheck_without_barrier() {
    local dir=$BATS_TEST_TMPDIR/nobarrier copy
    mkdir -p "$dir"
    cp "$2" "$dir/"
    copy=$dir/$(basename "$1")
    sed '/barrier: the negative control/d' "$1" >"$copy"
    run make --no-print-directory -s racecheck FILE="$copy"
    echo "$output"
    [ "$status" -ne 0 ]
}
