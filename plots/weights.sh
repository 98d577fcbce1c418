#!/usr/bin/env bash
# `make plots` (the weights part): draws a linear chapter's --weights-out
# file as ten 28 x 28 pictures, one per class (plots/weights.awk lays them
# out, plots/weights.gp draws them). plots/training.sh runs it after training.
#
#   plots/weights.sh --weights FILE --out FILE [options]
#
#   --weights FILE    a --weights-out file of chapters 00-08: W, 10 x 785
#                     little-endian float32, class-major, the bias last
#   --out FILE        the picture (its folder must exist)
#   --format FMT      png (default) or svg
#   --title TEXT      the chart's title ("\n" or new lines start a new line)
#   --columns N       pictures per row (default 5: two rows of five)
#   --work DIR        where the two intermediate tables go (default: a
#                     temporary folder, removed at the end)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common/scripts/lib.sh
. "$here/../common/scripts/lib.sh"
weights='' out='' format=png title='' columns=5 work=''
SCRIPT_NAME=weights
parse_options weights out format title columns work -- "$@"
[ ${#REST[@]} -eq 0 ] || die "unknown argument '${REST[0]}' (see the top of $0)"
{ [ -n "$weights" ] && [ -n "$out" ]; } || die "--weights FILE and --out FILE are required"
case $format in png | svg) ;; *) die "FORMAT must be png or svg, got '$format'" ;; esac
[ -f "$weights" ] || die "$weights: no such file (a trainer writes it with --weights-out FILE)"
[ -r "$weights" ] || die "$weights: not readable"
expected=$((10 * 785 * 4))
size=$(stat -c %s "$weights")
[ "$size" -eq "$expected" ] ||
    die "$weights has $size bytes, not $expected: a --weights-out file of the linear model (chapters 00-08) is 10 x 785 float32"
command -v gnuplot >/dev/null || die "gnuplot is not installed (common/scripts/require.sh gnuplot-nox)"

if [ -z "$work" ]; then
    work=$(mktemp -d "${TMPDIR:-/tmp}/weights.XXXXXX")
    trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
image=$work/weights-image.tsv labels=$work/weights-labels.tsv
summary=$(od --endian=little -An -v -tf4 -w4 "$weights" |
    awk -v image="$image" -v labels="$labels" -v columns="$columns" -f "$here/weights.awk") ||
    die "$weights: not drawn (see the line above)"
read -r _ _ _ max_abs _ _ _ _ <<<"$summary"

# Draw into the output's folder, then rename: a failed run leaves the old picture.
tmp="$(dirname "$out")/.weights.$$.$format"
titled=()
[ -z "$title" ] || titled=(-e "title=$(gp_string "$title")")
gnuplot -e "image=$(gp_string "$image"); labels=$(gp_string "$labels"); max_abs=$max_abs" \
    -e "out=$(gp_string "$tmp"); format='$format'" \
    ${titled[@]+"${titled[@]}"} "$here/weights.gp" ||
    { rm -f "$tmp"; die "gnuplot failed on $image"; }
mv "$tmp" "$out"
echo "weights: wrote $out (colour scale +-$max_abs)"
