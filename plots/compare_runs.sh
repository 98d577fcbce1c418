#!/usr/bin/env bash
# make compare's timing runs (plots/compare.sh's first step): each chapter
# trained REPEATS times, a progress line per run, every run's --bench-out row
# into WORK/runs.tsv (the trainers' own columns: common/host/report.c).
#
#   plots/compare_runs.sh --build DIR --work DIR [options] CHAPTER...
#
#   --dataset DIR, --iters N, --repeats N, --limit N   as plots/compare.sh's
#   --kernel-times FILE  the GPU chapters run with --kernel-times too, their
#                        per-kernel medians gathered into FILE (TSV)
#
# A chapter that fails, or whose row names another chapter, stops the runs
# with its output shown and exit status 1.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build='' work='' dataset=dataset iters=5 repeats=1 limit='' kernel_times=''
# shellcheck source=common/scripts/lib.sh
. "$here/../common/scripts/lib.sh"
SCRIPT_NAME=compare
parse_options build work dataset iters repeats limit kernel-times -- "$@"
set -- ${REST[@]+"${REST[@]}"}
[ -n "$build" ] && [ -d "$work" ] || die "compare_runs.sh needs --build DIR and --work DIR"

# fail CHAPTER MESSAGE...: the run's verdict, MESSAGE, the chapter's output; exit 1
fail() {
    echo "FAILED"
    error "${@:2}"
    error "stopping, no chart written. Its output:"
    sed 's/^/    /' "$work/log" >&2
    exit 1
}

count=$#
started=$(now_ms)
i=0
for chapter in "$@"; do
    i=$((i + 1))
    for run in $(seq 1 "$repeats"); do
        printf '[%d/%d] %-26s run %d/%d ... ' "$i" "$count" "$chapter" "$run" "$repeats"
        run_started=$(now_ms)
        status=0
        # --kernel-times FILE: the GPU chapters' per-kernel medians too (an
        # event after every launch, and a wait after every iteration).
        times=()
        [ -n "$kernel_times" ] && [ "${chapter#00-}" = "$chapter" ] &&
            times=(--kernel-times-out "$work/kernels-$chapter-$run.tsv")
        "$build/$chapter" "$dataset" "$iters" --quiet --bench-out "$work/runs.tsv" \
            ${limit:+--train-limit "$limit"} "${times[@]}" >"$work/log" 2>&1 || status=$?
        [ "$status" -eq 0 ] || fail "$chapter" "$chapter failed (exit status $status) on run $run of $repeats;"
        row=$(tail -n 1 "$work/runs.tsv" 2>/dev/null || true)
        [ "${row%%$'\t'*}" = "$chapter" ] ||
            fail "$chapter" "$build/$chapter exited 0 but its --bench-out row names chapter '${row%%$'\t'*}';"
        now=$(now_ms)
        awk -F '\t' -v took="$(((now - run_started) / 100))" -v elapsed="$(clock $((now - started)))" '
            { printf "%.4g ms per iteration, test accuracy %.2f%%  (%.1f s; elapsed %s)\n",
                     $6, 100 * $10, took / 10, elapsed }' <<<"$row"
    done
done

if [ -n "$kernel_times" ]; then
    mkdir -p "$(dirname "$kernel_times")"
    first=1
    for file in "$work"/kernels-*.tsv; do
        [ -e "$file" ] || continue
        if [ "$first" = 1 ]; then cat "$file"; first=0; else tail -n +2 "$file"; fi
    done >"$kernel_times"
    echo "compare: per-kernel times in $kernel_times"
fi
