#!/usr/bin/env bash
# make compare's chart of the timed runs (plots/compare.sh's step): compare.gp
# over compare.tsv, its title naming the device, the runs and, on a GPU whose
# peaks devices.tsv knows, the bytes/FLOPs floor of one iteration.
#
#   plots/compare_chart.sh --data compare.tsv --runs runs.tsv --out FILE [options]
#
#   --runs FILE       the runs' --bench-out rows: what the trainers say of
#                     themselves (warm-up iterations, pixels per image, the
#                     model's parameters), for the title and the floor
#   --platform NAME   amd, nvidia or cpu (default cpu)
#   --devices FILE    known devices and their peaks (default plots/devices.tsv)
#   --format FMT      png (default) or svg
#   --executor        the chart of the CPU executor's own times, beside the
#                     time model's (compare_model.sh), titled as what they are
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
data='' runs='' out='' platform=cpu devices=$here/devices.tsv format=png executor=''
# shellcheck source=common/scripts/lib.sh
. "$here/../common/scripts/lib.sh"
SCRIPT_NAME=compare
parse_options data runs out platform devices format executor! -- "$@"
[ -s "$data" ] && [ -s "$runs" ] && [ -n "$out" ] || die "compare_chart.sh needs --data FILE, --runs FILE and --out FILE"

# The device of the GPU chapters names the chart; chapter 00 always runs on the host.
gpu_row=$(awk -F '\t' 'NR > 1 && $1 !~ /^00-/ { print; exit }' "$data")
[ -n "$gpu_row" ] || gpu_row=$(awk -F '\t' 'NR == 2' "$data")
IFS=$'\t' read -r chapter _ device images run_iters repeats _ <<<"$gpu_row"
date=$(awk -F '\t' 'NR == 2 { print $16 }' "$data")

# run_fact COLUMN: that column of the chapter's first run, as its trainer wrote it (empty if none).
run_fact() {
    awk -F '\t' -v chapter="$chapter" -v name="$1" '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
        c && $1 == chapter { print $c; exit }' "$runs"
}

# The trainers time every iteration but the first few (their warm-up).
warmup=$(run_fact warmup_iterations)
timed=
if [ "${warmup:-0}" -gt 0 ] && [ "$run_iters" -gt "$warmup" ]; then
    timed=" (iterations $((warmup + 1))-$run_iters timed)"
fi
title="make compare: ms per full-batch training iteration, $images MNIST images"
title+=$'\n'"device: $device, platform $platform; $run_iters iterations$timed x $repeats run(s) per chapter; $date"
floor_args=()
if [ -n "$executor" ]; then
    title="make compare: the CPU executor's ms per training iteration, $images MNIST images, $date"
    title+=$'\n'"one thread of $(host_cpu), $(nproc) cores, $run_iters iterations$timed x $repeats run(s): a correctness tool's speed, not a GPU's"
    title+=$'\n'"(the modelled GPU times are in compare.$format)"
elif [ "$platform" = cpu ]; then
    title+=$'\n'"measured on the CPU executor (one thread of $(host_cpu), $(nproc) cores): a correctness tool, not a GPU"
else
    known=$(awk -F '\t' -v device="$device" '
        /^#/ || $1 == "pattern" || NF < 4 { next }
        tolower(device) ~ tolower($1) { print $2 "\t" $3 "\t" $4; exit }' "$devices")
    pixels=$(run_fact pixels_per_image) parameters=$(run_fact parameters)
    if [ -z "$known" ]; then
        title+=$'\n'"no floor line: '$device' is not in $(basename "$devices")"
    elif [ -z "$pixels" ] || [ -z "$parameters" ]; then
        title+=$'\n'"no floor line: the trainers' rows give no pixels_per_image and parameters"
    else
        IFS=$'\t' read -r name tflops gbps <<<"$known"
        # The bytes/FLOPs model of one iteration over N images: forward and
        # gradient are 2 x parameters x N multiply-adds; the pixels are read
        # at least once, as bytes (pixels N) or as float32 features with the
        # bias's 1 (4 x (pixels + 1) N).
        IFS=$'\t' read -r floor_ms floor_f32_ms floor_title floor_f32_title < <(awk -v n="$images" \
            -v parameters="$parameters" -v pixels="$pixels" -v tflops="$tflops" -v gbps="$gbps" -v name="$name" 'BEGIN {
                flops = 4 * parameters * n; bytes = pixels * n; f32 = 4 * (pixels + 1) * n
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
    fi
fi

gnuplot -e "data=$(gp_string "$data"); out=$(gp_string "$out"); format='$format'" \
    -e "title=$(gp_string "$title")" ${floor_args[@]+"${floor_args[@]}"} "$here/compare.gp" ||
    die "gnuplot failed on $data"
