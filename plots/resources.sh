#!/usr/bin/env bash
# `make plot-resources`: draws resources.png from a table of `make resources`
# (default plots/resources.tsv, the committed one) with plots/resources.gp.
#
#   plots/resources.sh [--data FILE] [--out-dir DIR] [--format png|svg] [--remake COMMAND]
#
# --out-dir defaults to build/plots (make figures: plots). --remake (make
# plot-resources: make resources): the command that rewrites FILE, run when
# FILE is missing or older than a chapter's source; if it fails (no hipcc),
# the older FILE is drawn, or else the committed plots/resources.tsv, with a note.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common/scripts/lib.sh
. "$here/../common/scripts/lib.sh"
data=plots/resources.tsv out_dir=build/plots format=png remake=''
SCRIPT_NAME=plots
parse_options data out-dir format remake -- "$@"
[ ${#REST[@]} -eq 0 ] || die "unknown argument '${REST[0]}'"
if [ -n "$remake" ] && { [ ! -s "$data" ] || [ -n "$(find chapters -name '*.hip' -newer "$data")" ]; }; then
    if ! bash -c "$remake"; then
        [ -s "$data" ] || data=plots/resources.tsv
        [ -s "$data" ] && error "make resources failed; drawing the older $data"
    fi
fi
[ -s "$data" ] || die "$data is missing or empty: run make resources"
[ "$(wc -l <"$data")" -ge 2 ] || die "$data has no kernels"
case $format in png | svg) ;; *) die "FORMAT must be png or svg, got '$format'" ;; esac
mkdir -p "$out_dir"

compiler=$(hipcc --version 2>/dev/null | awk '/^HIP version/ { hip = $3 } /clang version/ { clang = $0 } END {
    sub(/-.*/, "", hip); if (hip != "") printf "HIP %s, %s", hip, clang }' || true)
title="gfx906 resources per kernel: VGPRs, LDS, occupancy, as the compiler reports them"
title+=$'\n'"from make resources (-Rpass-analysis=kernel-resource-usage): compiled for gfx906, no GPU needed"
title+=$'\n'"${compiler:+$compiler; }table written $(date -r "$data" +%F)"
tmp=$out_dir/.resources.$$.$format
gnuplot -e "data=$(gp_string "$data"); out=$(gp_string "$tmp"); format='$format'" \
    -e "title=$(gp_string "$title")" "$here/resources.gp" || { rm -f "$tmp"; die "gnuplot failed on $data"; }
mv "$tmp" "$out_dir/resources.$format"
echo "plots: wrote $out_dir/resources.$format"
