#!/usr/bin/env bash
# `make plots` (the training part): trains one chapter, then draws
# loss.png, accuracy.png and digits.png from its --csv, --bench-out and
# --predictions-out files with plots/loss.gp, accuracy.gp and digits.gp,
# and weights.png, what the model learned, from its --weights-out file with
# plots/weights.sh (chapters 00-08: the linear model).
#
#   plots/training.sh --build DIR --chapter NAME [options]
#
#   --build DIR       folder with the built trainers
#   --chapter NAME    e.g. 00-cpu-reference
#   --platform NAME   amd, nvidia or cpu (default cpu)
#   --dataset DIR     the MNIST folder (default dataset)
#   --iters N         training iterations (default 300)
#   --lr RATE         learning rate (default 0.01)
#   --limit N         train on the first N images only (--train-limit)
#   --work DIR        where the trainer's files go, in a folder of this run's own
#                     (DIR/run.XXXXXX: nothing already in DIR is touched; default build/plots/work)
#   --out-dir DIR     where the pictures go (default build/plots; make figures: plots)
#   --format FMT      png (default) or svg
#   --right N, --wrong N  how many right and wrong test digits digits.png shows (30, 10)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common/scripts/lib.sh
. "$here/../common/scripts/lib.sh"
build='' chapter='' platform=cpu dataset=dataset iters=300 lr=0.01 limit='' work=build/plots/work
out_dir=build/plots format=png right=30 wrong=10
SCRIPT_NAME=plots
parse_options build chapter platform dataset iters lr limit work out-dir format right wrong -- "$@"
[ ${#REST[@]} -eq 0 ] || die "unknown argument '${REST[0]}' (see the top of $0)"
{ [ -n "$build" ] && [ -n "$chapter" ]; } || die "--build DIR and --chapter NAME are required"
[ -x "$build/$chapter" ] || die "$build/$chapter is not built (make $build/$chapter)"
case $iters in '' | *[!0-9]* | 0) die "PLOT_ITERS must be a positive integer, got '$iters'" ;; esac
case $format in png | svg) ;; *) die "FORMAT must be png or svg, got '$format'" ;; esac
command -v gnuplot >/dev/null || die "gnuplot is not installed (common/scripts/require.sh gnuplot-nox)"
mkdir -p "$work" "$out_dir"
work=$(mktemp -d "$work/run.XXXXXX") # this run's files, beside no other's

csv=$work/training.csv bench=$work/training.tsv predictions=$work/predictions.tsv
weights=$work/weights.bin
# The weights picture is of the linear model's W (chapters 00-08); the
# extension chapters train other models.
linear=
case $chapter in 0[0-8]-*) linear=yes ;; esac
echo "plots: training $chapter for $iters iterations (platform $platform) for loss, accuracy and digits"
started=$(now_ms)
"$build/$chapter" "$dataset" "$iters" "$lr" ${limit:+--train-limit "$limit"} \
    --csv "$csv" --bench-out "$bench" --predictions-out "$predictions" ${linear:+--weights-out "$weights"} ||
    die "$chapter failed (exit status $?): no pictures drawn"
echo "plots: trained in $(clock $(($(now_ms) - started))); its files: $work"

IFS=$'\t' read -r _ run_platform device images run_iters _ _ _ _ test_accuracy _ date _ \
    < <(tail -n 1 "$bench")
source_line="chapter $chapter ($device), platform $run_platform"
source_line+=$'\n'"$run_iters iterations, learning rate $lr, $images training images, full batch; $date"
note=
if [ "$platform" = cpu ]; then
    case $chapter in
    00-*) note="no GPU here: chapter 00, plain C, stands in for the GPU chapters (same model, same start)" ;;
    *) note="trained on the CPU executor (one thread of $(host_cpu)): a correctness tool, not a GPU" ;;
    esac
fi
titled() { # titled HEADLINE: the headline, the run, and the note
    printf '%s\n%s%s' "$1" "$source_line" "${note:+$'\n'$note}"
}

draw() { # draw NAME gnuplot-assignments...: plots/NAME.gp into OUT/NAME.FORMAT
    local name=$1
    shift
    local tmp="$work/$name.$format"
    gnuplot -e "out=$(gp_string "$tmp"); format='$format'" "$@" "$here/$name.gp" ||
        die "gnuplot failed on $name.gp"
    mv "$tmp" "$out_dir/$name.$format"
    echo "plots: wrote $out_dir/$name.$format"
}

draw loss -e "data=$(gp_string "$csv")" \
    -e "title=$(gp_string "$(titled "MNIST linear classifier: training loss per iteration")")"
draw accuracy -e "data=$(gp_string "$csv"); bench=$(gp_string "$bench")" \
    -e "title=$(gp_string "$(titled "MNIST linear classifier: train accuracy per iteration, test accuracy at the end")")"

summary=$(awk -v right="$right" -v wrong="$wrong" -v columns=10 \
    -v image="$work/digits-image.tsv" -v labels="$work/digits-labels.tsv" \
    -f "$here/digits.awk" "$predictions") || die "digits.awk failed on $predictions"
read -r _ _ _ shown_right _ shown_wrong _ total _ correct <<<"$summary"
headline="MNIST test digits, true label → prediction, wrong ones in red"
headline+=$'\n'"the first $shown_right predicted right and the first $shown_wrong predicted wrong"
headline+=" of $total test images ($correct right: $(awk -v a="$test_accuracy" 'BEGIN { printf "%.2f", 100 * a }')%)"
draw digits -e "image=$(gp_string "$work/digits-image.tsv"); labels=$(gp_string "$work/digits-labels.tsv")" \
    -e "title=$(gp_string "$(titled "$headline")")"

if [ -n "$linear" ]; then
    headline="MNIST linear classifier: what each class learned, its 784 pixel weights (a row of W, bias left out)"
    headline+=$'\n'"red: ink there raises the class's score; blue: ink there lowers it; one colour scale for all ten"
    bash "$here/weights.sh" --weights "$weights" --out "$out_dir/weights.$format" --format "$format" \
        --work "$work" --title "$(titled "$headline")" || die "the weights picture failed"
else
    echo "plots: no weights picture: $chapter does not train the linear model (chapters 00-08 do)"
fi
