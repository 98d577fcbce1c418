#!/usr/bin/env bash
# `make compare`: trains every chapter on MNIST, collects the --bench-out rows
# into compare.tsv and draws compare.png with plots/compare.gp. The steps,
# each a script beside this one: compare_runs.sh (the timed runs),
# compare_table.awk (a row per chapter), compare_chart.sh (the chart of the
# timed runs), compare_model.sh (without a GPU: the time model's times and
# chart, and the counters).
#
#   plots/compare.sh --build DIR [options] CHAPTER...
#
#   --build DIR       folder with the built trainers (build/cpu, build/amd, ...)
#   --platform NAME   amd, nvidia or cpu (for the title; default cpu)
#   --dataset DIR     the MNIST folder (default dataset)
#   --iters N         training iterations per run (default 5)
#   --repeats N       runs per chapter (default 1)
#   --limit N         train on the first N images only (--train-limit)
#   --out-dir DIR     where compare.tsv and the picture go (default build/compare;
#                     make figures: plots)
#   --format FMT      png (default), svg, or none: the tables only, no
#                     picture and no gnuplot (make gpu-report on a GPU machine)
#   --devices FILE    known devices and their peaks (default plots/devices.tsv)
#   --profiles DIR    CPU platform: the chart is the time model's, from
#                     each GPU chapter's profile in DIR/IMAGES/ (profile.sh,
#                     traced on IMAGES images; COMPARE_SLICES="N1 N2": on two
#                     slices, extended to IMAGES), made with --trace-build DIR; the
#                     executor's own times go to compare-executor, and the
#                     counters the lessons move (summed per chapter, for
#                     README.md's counter table) to compare-counters.tsv
#   --trace-build DIR the chapters' trace builds (build/trace)
#   --model-only      with --profiles: no timed runs on the executor (its own
#                     ms say nothing of a GPU's); the model's table and chart only
#   --kernel-times FILE  also run the GPU chapters with --kernel-times and
#                     collect their per-kernel medians into FILE (TSV)
#
# compare.tsv has one row per chapter: median_ms is the median of the runs'
# median ms per iteration; min_ms and max_ms the fastest and slowest timed
# iteration over all runs (the whiskers); run_min_ms and run_max_ms the
# fastest and slowest run median (the spread between repeats).
# A chapter that fails stops everything: its output is shown, and the old
# compare.tsv and picture are left as they were. The output ends on the
# table to read: the time model's where there is one (the executor's ms,
# printed before it, are a correctness tool's, not a GPU's).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build='' platform=cpu dataset=dataset iters=5 repeats=1 limit='' out_dir=build/compare format=png
devices=$here/devices.tsv
profiles='' trace_build='' kernel_times='' model_only=0
# shellcheck source=common/scripts/lib.sh
. "$here/../common/scripts/lib.sh"
SCRIPT_NAME=compare
parse_options build platform dataset iters repeats limit out-dir format devices profiles trace-build kernel-times model-only! -- "$@"
set -- ${REST[@]+"${REST[@]}"}
[ -n "$build" ] || die "--build DIR is required"
[ $# -gt 0 ] || die "no chapters to compare"
case $iters in '' | *[!0-9]* | 0) die "ITERS must be a positive integer, got '$iters'" ;; esac
case $repeats in '' | *[!0-9]* | 0) die "REPEATS must be a positive integer, got '$repeats'" ;; esac
case $limit in *[!0-9]*) die "COMPARE_LIMIT must be a positive integer, got '$limit'" ;; esac
case $format in png | svg | none) ;; *) die "FORMAT must be png, svg or none, got '$format'" ;; esac
[ "$format" = none ] || command -v gnuplot >/dev/null || die "gnuplot is not installed (common/scripts/require.sh gnuplot-nox)"
for chapter in "$@"; do
    [ -x "$build/$chapter" ] || die "$build/$chapter is not built (make $build/$chapter)"
done
mkdir -p "$out_dir"

work=$(mktemp -d "${TMPDIR:-/tmp}/compare.XXXXXX")
trap 'rm -rf "$work"' EXIT

chapters=("$@")
count=${#chapters[@]}
started=$(now_ms)
export COMPARE_STARTED_MS=$started # compare_model.sh's progress lines count from here
if [ "$model_only" = 1 ]; then
    [ -n "$profiles" ] || die "--model-only needs --profiles"
    "$here/compare_model.sh" --profiles "$profiles" --trace-build "$trace_build" --images "${limit:-60000}" \
        --date "$(date +%Y-%m-%d)" --work "$work" --out "$work/compare.$format" --dataset "$dataset" \
        ${limit:+--limit "$limit"} --format "$format" "${chapters[@]}"
    [ "$format" = none ] || { mv "$work/compare.$format" "$out_dir/compare.$format"
        cp "$out_dir/compare.$format" "$out_dir/compare-model.$format"; }
    mv "$work/model.tsv" "$out_dir/compare-model.tsv"
    mv "$work/counters.tsv" "$out_dir/compare-counters.tsv"
    picture_note=
    [ "$format" = none ] || picture_note=" and $out_dir/compare.$format"
    echo "compare: wrote $out_dir/compare-model.tsv, $out_dir/compare-counters.tsv (the counters the lessons move)" \
        "$picture_note in $(clock $(($(now_ms) - started)))"
    echo
    echo "The time model's ms per iteration (compare-model.tsv): modelled from the executor's counts, never measured:"
    print_table <(cut -f 1-7,9 "$out_dir/compare-model.tsv")
    echo "(COMPARE_EXECUTOR=1 also times each chapter on the executor itself: a correctness tool's ms, not a GPU's)"
    exit 0
fi
echo "compare: $count chapters, $iters iterations x $repeats run(s) each," \
    "${limit:-all} training images, platform $platform, trainers in $build"
"$here/compare_runs.sh" --build "$build" --work "$work" --dataset "$dataset" --iters "$iters" --repeats "$repeats" \
    ${limit:+--limit "$limit"} ${kernel_times:+--kernel-times "$kernel_times"} "${chapters[@]}"
awk -F '\t' -v OFS='\t' -f "$here/compare_table.awk" "$work/runs.tsv" >"$work/compare.tsv"

# Without a GPU the executor's milliseconds say little about a GPU: the main
# chart is the time model's (common/model/), from the trace build's counts
# of each chapter and hipcc's gfx906 code; the executor's own times go to a
# chart of their own, compare-executor, labelled as what they are.
picture=$work/compare.$format
timed_picture=$picture
[ -z "$profiles" ] || timed_picture=$work/compare-executor.$format
[ "$format" = none ] ||
    "$here/compare_chart.sh" --data "$work/compare.tsv" --runs "$work/runs.tsv" --out "$timed_picture" \
        --platform "$platform" --devices "$devices" --format "$format" ${profiles:+--executor}
if [ -n "$profiles" ]; then
    # The images of the GPU chapters' runs (chapter 00's are the same), and the runs' date.
    read -r images date < <(awk -F '\t' 'NR == 2 { date = $16; images = $4 }
        NR > 1 && $1 !~ /^00-/ { images = $4; exit } END { print images, date }' "$work/compare.tsv")
    "$here/compare_model.sh" --profiles "$profiles" --trace-build "$trace_build" --images "$images" --date "$date" \
        --work "$work" --out "$picture" --dataset "$dataset" ${limit:+--limit "$limit"} --format "$format" "${chapters[@]}"
fi

mv "$work/compare.tsv" "$out_dir/compare.tsv"
echo '`make compare`' >"$out_dir/compare.command" # what measured it, for make readme-table's caption
[ "$format" = none ] || { mv "$picture" "$out_dir/compare.$format"; picture_note=" and $out_dir/compare.$format"; }
wrote="compare: wrote $out_dir/compare.tsv${picture_note:-} in $(clock $(($(now_ms) - started))) ($count chapters, $iters iterations x $repeats run(s), platform $platform)"
if [ -z "$profiles" ]; then
    echo
    print_table <(cut -f 1,7-9,12,14 "$out_dir/compare.tsv")
    echo "$wrote"
    exit 0
fi
[ "$format" = none ] || mv "$timed_picture" "$out_dir/compare-executor.$format"
# The model's chart also under its own name: make gpu-import redraws compare.png from a GPU's times.
[ "$format" = none ] || cp "$out_dir/compare.$format" "$out_dir/compare-model.$format"
mv "$work/model.tsv" "$out_dir/compare-model.tsv"
mv "$work/counters.tsv" "$out_dir/compare-counters.tsv"
echo "$wrote"
echo "compare: wrote $out_dir/compare-model.tsv and $out_dir/compare.$format (also compare-model.$format: modelled from the executor's counts)," \
    "$out_dir/compare-counters.tsv (the counters the lessons move) and $out_dir/compare-executor.$format (the executor's own times)"
echo
echo "The CPU executor's own ms (compare.tsv): one CPU thread running the kernels to check them, so its speed-ups say nothing of a GPU's:"
print_table <(cut -f 1,7-9,12,14 "$out_dir/compare.tsv")
echo
echo "The time model's ms on gfx906 and the H100 (compare-model.tsv): what the chapters would take on those GPUs, modelled from the counts, never measured:"
print_table <(cut -f 1-7 "$out_dir/compare-model.tsv")
