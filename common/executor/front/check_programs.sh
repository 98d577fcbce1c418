#!/usr/bin/env bash
# check_programs.sh DIR [NAME=ARGS...]: make profile FILE= and make sanitize
# FILE= on every DIR/NAME.hip, each copied into a scratch folder of its own
# with DIR's *.hpp beside it (the files in DIR are never written); one line per
# program: its kernels, how many got a modelled gfx906 time, the four checks'
# verdict, and the seconds. NAME=ARGS passes ARGS to that program, e.g.
# matrix_multiplication="-A_rows 256 -A_cols 256 -B_cols 256". Logs stay in
# the scratch folder, which the last line names.
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=common/scripts/lib.sh
. "$root/common/scripts/lib.sh"
SCRIPT_NAME=check_programs
[ $# -ge 1 ] || die_usage "usage: check_programs.sh DIR [NAME=ARGS...]"
dir=$1
[ -d "$dir" ] || die_usage "$dir: no such folder"
shift
declare -A args=()
for pair in "$@"; do args[${pair%%=*}]=${pair#*=}; done
scratch=$(mktemp -d "${TMPDIR:-/tmp}/check_programs.XXXXXX")
for source in "$dir"/*.hip; do
    name=$(basename "$source" .hip)
    mkdir -p "$scratch/$name"
    cp "$source" "$scratch/$name/main.hip"
    cp "$dir"/*.hpp "$scratch/$name/" 2>/dev/null
    start=$(date +%s)
    (cd "$root" && make --no-print-directory -s profile FILE="$scratch/$name/main.hip" ARGS="${args[$name]:-}") \
        >"$scratch/$name/profile.log" 2>&1
    profiled=$?
    kernels=0 modelled=0
    tables=$root/build/profile/standalone/${scratch#/}/$name/main # keyed by the source's folder (mk/profile.mk)
    if [ -f "$tables.tsv" ] && [ "$profiled" -eq 0 ] && ! grep -q "launched no kernel" "$scratch/$name/profile.log"; then
        kernels=$(tail -n +2 "$tables.tsv" | wc -l)
        modelled=$(awk -F'\t' '$2 == "gfx906" && $3 > 0' "$tables.model.tsv" | wc -l)
    fi
    (cd "$root" && make --no-print-directory -s sanitize FILE="$scratch/$name/main.hip" ARGS="${args[$name]:-}") \
        >"$scratch/$name/sanitize.log" 2>&1
    checked=$?
    verdict=clean
    [ "$checked" -eq 0 ] || verdict="failed: $(grep -m 1 -E 'hipcpu:|error|not supported' "$scratch/$name/sanitize.log" | cut -c1-100)"
    grep -q "launched no kernel" "$scratch/$name/profile.log" && kernels="no kernel"
    printf '%-24s profile %-6s kernels %-9s modelled %-3s sanitize %s (%d s)\n' "$name" \
        "$([ "$profiled" -eq 0 ] && echo ok || echo failed)" "$kernels" "$modelled" "$verdict" $(($(date +%s) - start))
done
echo "logs: $scratch"
