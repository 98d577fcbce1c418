#!/usr/bin/env bash
# make compare without a GPU (plots/compare.sh's step): the time model's
# times of each GPU chapter (common/model/), from the trace build's
# counts of it and hipcc's gfx906 code, into WORK/model.tsv and its chart;
# the counters the lessons move, summed per chapter, into WORK/counters.tsv
# (README.md's counter table).
#
#   plots/compare_model.sh --profiles DIR --trace-build DIR --images N --date D \
#       --work DIR --out FILE [options] CHAPTER...
#
#   --profiles DIR    each chapter's profile goes to DIR/IMAGES/ (profile.sh)
#   --trace-build DIR the chapters' trace builds (build/trace)
#   --images N        the images the chapters were timed on: the profiles' size
#   --date D          the timed runs' date, for the rows and the title
#   --dataset DIR, --limit N  as plots/compare.sh's
#   --format FMT      png (default), svg, or none: the tables only
#
# One traced run per chapter at the size compared, two chapters at a time;
# with COMPARE_SLICES="N1 N2", two short ones per chapter, every count
# extended to IMAGES images (profile.sh, PROFILE_SLICES): quicker, but where
# a load's data comes from (L2 or DRAM) changes with the size and is not
# extended. Chapter 00 runs on the host and is not modelled.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
profiles='' trace_build='' images='' date='' work='' out='' dataset=dataset limit='' format=png
# shellcheck source=common/scripts/lib.sh
. "$here/../common/scripts/lib.sh"
SCRIPT_NAME=compare
parse_options profiles trace-build images date work out dataset limit format -- "$@"
set -- ${REST[@]+"${REST[@]}"}
[ -n "$profiles" ] && [ -n "$trace_build" ] && [ -n "$images" ] && [ -d "$work" ] && [ -n "$out" ] ||
    die "compare_model.sh needs --profiles, --trace-build, --images, --work and --out"

slices=${COMPARE_SLICES:-}
# A run on fewer images than the second slice is traced as it is.
if [ -n "$slices" ] && [ -n "$limit" ] && [ "$limit" -le "${slices#* }" ]; then slices=; fi
gpu_chapters=()
for chapter in "$@"; do
    case $chapter in 00-*) ;; *) gpu_chapters+=("$chapter") ;; esac
done
[ ${#gpu_chapters[@]} -gt 0 ] || die "no GPU chapter to model"
total=${#gpu_chapters[@]}
started=${COMPARE_STARTED_MS:-$(now_ms)}
echo "compare: modelling $total chapters, two at a time (traced on ${slices:-$images} images${slices:+, extended to $images})"

# model_chapter CHAPTER: its profile, then a line saying so. On slices, a
# chapter whose slices run different code (a loop that only a larger grid
# reaches: chapter 08's) cannot be extended; it is traced whole instead.
model_chapter() {
    local chapter=$1 log=$work/profile-$1.log note=
    if ! PROFILE_SLICES=$slices bash "$here/../common/tracer/profile.sh" "$trace_build/$chapter" "$profiles/$images" \
        "$dataset" ${limit:+--train-limit "$limit"} >"$log" 2>&1; then
        grep -q '^extrapolate: .*not the same rows' "$log" || { cat "$log" >&2; return 1; }
        echo "$chapter" >>"$work/whole"
        note=", traced whole: its slices run different code"
        PROFILE_SLICES='' bash "$here/../common/tracer/profile.sh" "$trace_build/$chapter" "$profiles/$images" \
            "$dataset" ${limit:+--train-limit "$limit"} >"$log" 2>&1 || { cat "$log" >&2; return 1; }
    fi
    echo "$chapter" >>"$work/done"
    echo "compare: $chapter modelled$note, $(wc -l <"$work/done") of $total ($(clock $(($(now_ms) - started))) so far)"
}
export -f model_chapter clock now_ms
export here trace_build profiles images dataset limit work total started slices

# A line as each chapter is done, and one every 20 s in between: a trace can take minutes.
: >"$work/done"
: >"$work/whole"
(
    trap 'kill $(jobs -p) 2>/dev/null; wait; exit 0' TERM # and its sleep with it
    while :; do
        sleep 20 &
        wait $!
        echo "compare: $(clock $(($(now_ms) - started))) so far, $(wc -l <"$work/done") of $total chapters modelled"
    done
) &
heartbeat=$!
trap 'kill $heartbeat 2>/dev/null || true; wait $heartbeat 2>/dev/null || true' EXIT
# shellcheck disable=SC2016 # the inner bash expands its own argument
printf '%s\n' "${gpu_chapters[@]}" | xargs -P 2 -I{} bash -c 'model_chapter "$1"' _ {} ||
    die "a chapter's profile failed (its output is above)"
kill $heartbeat 2>/dev/null || true
wait $heartbeat 2>/dev/null || true

printf 'chapter\tmodel_gfx906_ms\tmodel_h100_ms\tfloor_gfx906_ms\tfloor_h100_ms\tbound_gfx906\tbound_h100\timages\tslices\tdate\n' \
    >"$work/model.tsv"
for chapter in "${gpu_chapters[@]}"; do
    model=$profiles/$images/$chapter.model.tsv
    [ -s "$model" ] || die "no model for $chapter ($(tail -n 1 "$work/profile-$chapter.log"))"
    # Per device: the sum over kernels; what binds is the slowest kernel's term.
    chapter_slices=${slices:-none}
    ! grep -qx "$chapter" "$work/whole" || chapter_slices=none
    awk -F '\t' -v chapter="$chapter" -v images="$images" -v slices="$chapter_slices" -v date="$date" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { d = $col["device"]; t[d] += $col["model_ms"]; f[d] += $col["floor_ms"]
          if ($col["model_ms"] > worst[d]) { worst[d] = $col["model_ms"]; bound[d] = $col["kernel"] ": " $col["binding"] } }
        END { printf "%s\t%.6f\t%.6f\t%.6f\t%.6f\t%s\t%s\t%s\t%s\t%s\n", chapter, t["gfx906"], t["h100"],
              f["gfx906"], f["h100"], bound["gfx906"], bound["h100"], images, slices, date }' "$model" >>"$work/model.tsv"
done

printf '%s\t' chapter global_load_requests global_load_segments segments_per_request lds_requests \
    lds_bank_cycles bank_cycles_per_request barriers_per_block barriers_kernel fill_gfx906 fill_kernel \
    atomics_max_one_address unique_bytes model_gfx906_ms model_h100_ms images slices >"$work/counters.tsv"
printf 'date\n' >>"$work/counters.tsv"
for chapter in "${gpu_chapters[@]}"; do
    counts=$profiles/$images/$chapter.tsv
    [ -s "$counts" ] || die "no counters for $chapter in $counts"
    chapter_slices=${slices:-none}
    ! grep -qx "$chapter" "$work/whole" || chapter_slices=none
    awk -F '\t' -v chapter="$chapter" -v images="$images" -v slices="$chapter_slices" -v date="$date" -v file="$counts" \
        -f "$here/compare_counters.awk" "$counts" >>"$work/counters.tsv" || die "could not sum the counters of $chapter"
done

[ "$format" != none ] || exit 0
title="make compare: modelled ms per training iteration on $images MNIST images, $date (a model, never measured)"
if [ -n "$slices" ]; then
    whole=$(paste -sd, "$work/whole" | sed 's/,/, /g')
    title+=$'\n'"counts of the CPU executor's trace build (traced on ${slices/ / and } images, extended in a straight line${whole:+; $whole traced whole}), gfx906 code from hipcc, sm_90 PTX from nvcc"
else
    title+=$'\n'"counts of the CPU executor's trace build, gfx906 code from hipcc, sm_90 PTX from nvcc"
fi
title+=$'\n'"device figures and their sources: common/model/devices.tsv; how, and where it misses: common/model/README.md"
gnuplot -e "data=$(gp_string "$work/model.tsv"); out=$(gp_string "$out"); format='$format'" \
    -e "title=$(gp_string "$title")" "$here/compare-model.gp" ||
    die "gnuplot failed on $work/model.tsv"
