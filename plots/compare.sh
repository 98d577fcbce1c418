#!/usr/bin/env bash
# `make compare`: trains every chapter on MNIST, collects the --bench-out rows
# into compare.tsv and draws compare.png with plots/compare.gp.
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
#   --kernel-times FILE  also run the GPU chapters with --kernel-times and
#                     collect their per-kernel medians into FILE (TSV)
#
# compare.tsv has one row per chapter: median_ms is the median of the runs'
# median ms per iteration; min_ms and max_ms the fastest and slowest timed
# iteration over all runs (the whiskers); run_min_ms and run_max_ms the
# fastest and slowest run median (the spread between repeats).
# A chapter that fails stops everything: its output is shown, and the old
# compare.tsv and picture are left as they were.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build='' platform=cpu dataset=dataset iters=5 repeats=1 limit='' out_dir=build/compare format=png
devices=$here/devices.tsv
profiles='' trace_build='' kernel_times=''
# shellcheck source=common/scripts/lib.sh
. "$here/../common/scripts/lib.sh"
SCRIPT_NAME=compare
parse_options build platform dataset iters repeats limit out-dir format devices profiles trace-build kernel-times -- "$@"
set -- ${REST[@]+"${REST[@]}"}
[ -n "$build" ] || die "--build DIR is required"
[ $# -gt 0 ] || die "no chapters to compare"
case $iters in '' | *[!0-9]* | 0) die "ITERS must be a positive integer, got '$iters'" ;; esac
case $repeats in '' | *[!0-9]* | 0) die "REPEATS must be a positive integer, got '$repeats'" ;; esac
case $limit in *[!0-9]*) die "COMPARE_LIMIT must be a positive integer, got '$limit'" ;; esac
case $format in png | svg | none) ;; *) die "FORMAT must be png, svg or none, got '$format'" ;; esac
[ "$format" = none ] || command -v gnuplot >/dev/null || die "gnuplot is not installed (common/scripts/require.sh gnuplot-nox)"
# draw ARGS...: gnuplot ARGS, or nothing with --format none
draw() { [ "$format" = none ] || gnuplot "$@"; }
for chapter in "$@"; do
    [ -x "$build/$chapter" ] || die "$build/$chapter is not built (make $build/$chapter)"
done
mkdir -p "$out_dir"

work=$(mktemp -d "${TMPDIR:-/tmp}/compare.XXXXXX")
trap 'rm -rf "$work"' EXIT


chapters=("$@")
count=${#chapters[@]}
started=$(now_ms)
echo "compare: $count chapters, $iters iterations x $repeats run(s) each," \
    "${limit:-all} training images, platform $platform, trainers in $build"
i=0
for chapter in "${chapters[@]}"; do
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
        if [ "$status" -ne 0 ]; then
            echo "FAILED"
            error "$chapter failed (exit status $status) on run $run of $repeats;"
            error "stopping, no chart written. Its output:"
            sed 's/^/    /' "$work/log" >&2
            exit 1
        fi
        row=$(tail -n 1 "$work/runs.tsv" 2>/dev/null || true)
        if [ "${row%%$'\t'*}" != "$chapter" ]; then
            echo "FAILED"
            error "$build/$chapter exited 0 but its --bench-out row names chapter '${row%%$'\t'*}';"
            error "stopping, no chart written. Its output:"
            sed 's/^/    /' "$work/log" >&2
            exit 1
        fi
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

# One row per chapter, in the order they ran.
awk -F '\t' -v OFS='\t' '
    function median(list, n,    a, i, j, t) {
        split(list, a, " ")
        for (i = 2; i <= n; i++)
            for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    NR == 1 { next }
    {
        c = $1
        if (!(c in runs)) { order[++chapters] = c; runs[c] = 0; lo[c] = $7; hi[c] = $8
                            rlo[c] = $6; rhi[c] = $6 }
        runs[c]++
        medians[c] = medians[c] " " $6
        if ($7 + 0 < lo[c] + 0) lo[c] = $7
        if ($8 + 0 > hi[c] + 0) hi[c] = $8
        if ($6 + 0 < rlo[c] + 0) rlo[c] = $6
        if ($6 + 0 > rhi[c] + 0) rhi[c] = $6
        platform[c] = $2; device[c] = $3; images[c] = $4; iterations[c] = $5
        train[c] = $9; test[c] = $10; loss[c] = $11; date[c] = $12
    }
    END {
        base = ""
        for (k = 1; k <= chapters; k++) if (base == "" && order[k] ~ /^01-/) base = order[k]
        for (k = 1; k <= chapters; k++) if (base == "" && order[k] !~ /^00-/) base = order[k]
        if (base == "") base = order[1]
        for (k = 1; k <= chapters; k++) med[order[k]] = median(medians[order[k]], runs[order[k]])
        print "chapter", "platform", "device", "images", "iterations", "repeats", "median_ms",
              "min_ms", "max_ms", "run_min_ms", "run_max_ms", "speedup_vs_01",
              "train_accuracy", "test_accuracy", "final_loss", "date"
        for (k = 1; k <= chapters; k++) {
            c = order[k]
            print c, platform[c], device[c], images[c], iterations[c], runs[c],
                  sprintf("%.6f", med[c]), lo[c], hi[c], rlo[c], rhi[c],
                  sprintf("%.4g", med[base] / med[c]), train[c], test[c], loss[c], date[c]
        }
    }' "$work/runs.tsv" >"$work/compare.tsv"

# The device of the GPU chapters names the chart; chapter 00 always runs on the host.
gpu_row=$(awk -F '\t' 'NR > 1 && $1 !~ /^00-/ { print; exit }' "$work/compare.tsv")
[ -n "$gpu_row" ] || gpu_row=$(awk -F '\t' 'NR == 2' "$work/compare.tsv")
IFS=$'\t' read -r _ _ device images run_iters _ <<<"$gpu_row"
date=$(awk -F '\t' 'NR == 2 { print $16 }' "$work/compare.tsv")

# The trainers time every iteration but the first TIMING_WARMUP (common/host/timing.h).
warmup=$(awk '$1 == "#define" && $2 == "TIMING_WARMUP" { print $3 }' "$here/../common/host/timing.h" 2>/dev/null || true)
timed=
if [ -n "$warmup" ] && [ "$run_iters" -gt "$warmup" ]; then
    timed=" (iterations $((warmup + 1))-$run_iters timed)"
fi
title="make compare: ms per full-batch training iteration, $images MNIST images"
title+=$'\n'"device: $device, platform $platform; $run_iters iterations$timed x $repeats run(s) per chapter; $date"
floor_args=()
if [ "$platform" = cpu ]; then
    title+=$'\n'"measured on the CPU executor (one thread of $(host_cpu), $(nproc) cores): a correctness tool, not a GPU"
else
    # The bytes/FLOPs model of one iteration over N images: forward and
    # gradient are 2 x 10 x 785 x N multiply-adds; the pixels are read at
    # least once, as bytes (784 N) or as float32 features (4 x 785 N).
    known=$(awk -F '\t' -v device="$device" '
        /^#/ || $1 == "pattern" || NF < 4 { next }
        tolower(device) ~ tolower($1) { print $2 "\t" $3 "\t" $4; exit }' "$devices")
    if [ -n "$known" ]; then
        IFS=$'\t' read -r name tflops gbps <<<"$known"
        IFS=$'\t' read -r floor_ms floor_f32_ms floor_title floor_f32_title < <(awk -v n="$images" \
            -v tflops="$tflops" -v gbps="$gbps" -v name="$name" 'BEGIN {
                flops = 4 * 10 * 785 * n; bytes = 784 * n; f32 = 4 * 785 * n
                t_flops = flops / (tflops * 1e12) * 1e3
                t_bytes = bytes / (gbps * 1e9) * 1e3; t_f32 = f32 / (gbps * 1e9) * 1e3
                floor = t_flops > t_bytes ? t_flops : t_bytes
                floor32 = t_flops > t_f32 ? t_flops : t_f32
                t1 = sprintf("floor on %s (%g TFLOPS, %g GB/s): %.3g GFLOP, %.0f MB of pixels: %.3g ms",
                             name, tflops, gbps, flops / 1e9, bytes / 1e6, floor)
                t2 = sprintf("floor with float32 features (%.0f MB): %.3g ms", f32 / 1e6, floor32)
                printf "%.6g\t%.6g\t%s\t%s\n", floor, floor32, t1, t2
            }')
        floor_args=(-e "floor_ms=$floor_ms; floor_f32_ms=$floor_f32_ms")
        floor_args+=(-e "floor_title=$(gp_string "$floor_title"); floor_f32_title=$(gp_string "$floor_f32_title")")
    else
        title+=$'\n'"no floor line: '$device' is not in $(basename "$devices")"
    fi
fi

# Without a GPU the executor's milliseconds say little about a GPU: the main
# chart is the time model's (common/cpu/model/), from the trace build's counts
# of each chapter and hipcc's gfx906 code; the executor's own times go to a
# chart of their own, compare-executor, labelled as what they are.
picture=$work/compare.$format
timed_picture=$picture
if [ -n "$profiles" ]; then
    timed_picture=$work/compare-executor.$format
    title="make compare: the CPU executor's ms per training iteration, $images MNIST images, $date"
    title+=$'\n'"one thread of $(host_cpu), $(nproc) cores, $run_iters iterations$timed x $repeats run(s): a correctness tool's speed, not a GPU's"
    title+=$'\n'"(the modelled GPU times are in compare.$format)"
fi
draw -e "data=$(gp_string "$work/compare.tsv"); out=$(gp_string "$timed_picture"); format='$format'" \
    -e "title=$(gp_string "$title")" ${floor_args[@]+"${floor_args[@]}"} "$here/compare.gp" ||
    die "gnuplot failed on $work/compare.tsv"

if [ -n "$profiles" ]; then
    # One traced run per chapter at the size compared, two chapters at a time;
    # with COMPARE_SLICES="N1 N2", two short ones per chapter, every count
    # extended to $images images (profile.sh, PROFILE_SLICES): quicker, but
    # where a load's data comes from (L2 or DRAM) changes with the size and is
    # not extended.
    slices=${COMPARE_SLICES:-}
    slice_env=()
    [ -z "$slices" ] || slice_env=(PROFILE_SLICES="$slices")
    # A run on fewer images than the second slice is traced as it is.
    if [ -n "$slices" ] && [ -n "$limit" ] && [ "$limit" -le "${slices#* }" ]; then slice_env=(); slices=; fi
    gpu_chapters=()
    for chapter in "${chapters[@]}"; do
        case $chapter in 00-*) ;; *) gpu_chapters+=("$chapter") ;; esac
    done
    [ ${#gpu_chapters[@]} -gt 0 ] || die "no GPU chapter to model"
    echo "compare: modelling ${gpu_chapters[*]} (traced on ${slices:-$images} images${slices:+, extended to $images})"
    # shellcheck disable=SC2016 # the inner sh expands its own arguments
    printf '%s\n' "${gpu_chapters[@]}" | env "${slice_env[@]}" xargs -P 2 -I{} sh -c \
        'bash "$1/../common/cpu/trace/profile.sh" "$2/{}" "$3" "$4" $5 >"$6/profile-{}.log" 2>&1 || { cat "$6/profile-{}.log" >&2; exit 1; }' \
        sh "$here" "$trace_build" "$profiles/$images" "$dataset" "${limit:+--train-limit $limit}" "$work" ||
        die "a chapter's profile failed (its output is above)"
    printf 'chapter\tmodel_gfx906_ms\tmodel_h100_ms\tfloor_gfx906_ms\tfloor_h100_ms\tbound_gfx906\tbound_h100\timages\tslices\tdate\n' \
        >"$work/model.tsv"
    for chapter in "${gpu_chapters[@]}"; do
        model=$profiles/$images/$chapter.model.tsv
        [ -s "$model" ] || die "no model for $chapter ($(tail -n 1 "$work/profile-$chapter.log"))"
        # Per device: the sum over kernels; what binds is the slowest kernel's term.
        awk -F '\t' -v chapter="$chapter" -v images="$images" -v slices="${slices:-none}" -v date="$date" '
            NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            { d = $col["device"]; t[d] += $col["model_ms"]; f[d] += $col["floor_ms"]
              if ($col["model_ms"] > worst[d]) { worst[d] = $col["model_ms"]; bound[d] = $col["kernel"] ": " $col["binding"] } }
            END { printf "%s\t%.6f\t%.6f\t%.6f\t%.6f\t%s\t%s\t%s\t%s\t%s\n", chapter, t["gfx906"], t["h100"],
                  f["gfx906"], f["h100"], bound["gfx906"], bound["h100"], images, slices, date }' "$model" >>"$work/model.tsv"
    done
    # The counters the lessons move, per chapter, from the same extended
    # profiles (profile.sh's NN-name.tsv, one row per kernel): ratios of sums
    # over the kernels, the most of any one kernel, and the fill of the
    # kernel with the most modelled gfx906 time (README.md's counter table,
    # make readme-table).
    printf '%s\t' chapter global_load_requests global_load_segments segments_per_request lds_requests \
        lds_bank_cycles bank_cycles_per_request barriers_per_block barriers_kernel fill_gfx906 fill_kernel \
        atomics_max_one_address unique_bytes model_gfx906_ms model_h100_ms images slices >"$work/counters.tsv"
    printf 'date\n' >>"$work/counters.tsv"
    for chapter in "${gpu_chapters[@]}"; do
        counts=$profiles/$images/$chapter.tsv
        [ -s "$counts" ] || die "no counters for $chapter in $counts"
        awk -F '\t' -v chapter="$chapter" -v images="$images" -v slices="${slices:-none}" -v date="$date" -v file="$counts" '
            NR == 1 {
                for (i = 1; i <= NF; i++) col[$i] = i
                n = split("kernel blocks global_load_requests global_load_segments lds_requests lds_bank_cycles " \
                          "barriers atomics_max_one_address unique_bytes fill_gfx906 model_gfx906_ms model_h100_ms", need, " ")
                for (i = 1; i <= n; i++)
                    if (!(need[i] in col)) { print "compare: " file " has no " need[i] " column" > "/dev/stderr"; bad = 1; exit 1 }
                next
            }
            {
                rq += $col["global_load_requests"]; seg += $col["global_load_segments"]
                lds += $col["lds_requests"]; cycles += $col["lds_bank_cycles"]
                unique += $col["unique_bytes"]; g += $col["model_gfx906_ms"]; h += $col["model_h100_ms"]
                if ($col["blocks"] > 0 && $col["barriers"] / $col["blocks"] > bar) {
                    bar = $col["barriers"] / $col["blocks"]; bar_kernel = $col["kernel"]
                }
                if ($col["atomics_max_one_address"] > atom) atom = $col["atomics_max_one_address"]
                if (slowest == "" || $col["model_gfx906_ms"] > worst) {
                    worst = $col["model_gfx906_ms"]; slowest = $col["kernel"]; fill = $col["fill_gfx906"]
                }
            }
            END {
                if (bad) exit 1
                if (slowest == "") { print "compare: " file " has no kernel rows" > "/dev/stderr"; exit 1 }
                printf "%s\t%.0f\t%.0f\t%s\t%.0f\t%.0f\t%s\t%.6g\t%s\t%s\t%s\t%.0f\t%.0f\t%.6f\t%.6f\t%s\t%s\t%s\n",
                    chapter, rq, seg, (rq > 0 ? sprintf("%.6g", seg / rq) : "-"), lds, cycles,
                    (lds > 0 ? sprintf("%.6g", cycles / lds) : "-"), bar, (bar_kernel == "" ? "-" : bar_kernel),
                    fill, slowest, atom, unique, g, h, images, slices, date
            }' "$counts" >>"$work/counters.tsv" || die "could not sum the counters of $chapter"
    done
    model_title="make compare: modelled ms per training iteration on $images MNIST images, $date (a model, never measured)"
    if [ -n "$slices" ]; then
        model_title+=$'\n'"counts of the CPU executor's trace build (traced on ${slices/ / and } images, extended in a straight line), gfx906 code from hipcc, sm_90 PTX from nvcc"
    else
        model_title+=$'\n'"counts of the CPU executor's trace build, gfx906 code from hipcc, sm_90 PTX from nvcc"
    fi
    model_title+=$'\n'"device figures and their sources: common/cpu/model/devices.tsv; how, and where it misses: common/cpu/model/README.md"
    draw -e "data=$(gp_string "$work/model.tsv"); out=$(gp_string "$picture"); format='$format'" \
        -e "title=$(gp_string "$model_title")" "$here/compare-model.gp" ||
        die "gnuplot failed on $work/model.tsv"
fi

mv "$work/compare.tsv" "$out_dir/compare.tsv"
echo '`make compare`' >"$out_dir/compare.command" # what measured it, for make readme-table's caption
[ "$format" = none ] || { mv "$picture" "$out_dir/compare.$format"; picture_note=" and $out_dir/compare.$format"; }
if [ -n "$profiles" ]; then
    [ "$format" = none ] || mv "$timed_picture" "$out_dir/compare-executor.$format"
    mv "$work/model.tsv" "$out_dir/compare-model.tsv"
    mv "$work/counters.tsv" "$out_dir/compare-counters.tsv"
    echo
    print_table <(cut -f 1-7 "$out_dir/compare-model.tsv")
    echo "compare: wrote $out_dir/compare-model.tsv and $out_dir/compare.$format (modelled from the executor's counts)," \
        "$out_dir/compare-counters.tsv (the counters the lessons move) and $out_dir/compare-executor.$format (the executor's own times)"
fi
echo
print_table <(cut -f 1,7-9,12,14 "$out_dir/compare.tsv")
echo "compare: wrote $out_dir/compare.tsv${picture_note:-} in $(clock $(($(now_ms) - started)))" \
    "($count chapters, $iters iterations x $repeats run(s), platform $platform)"
