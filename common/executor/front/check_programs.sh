#!/usr/bin/env bash
# check_programs.sh DIR [NAME=ARGS...]: make profile FILE=, make racecheck FILE= and make sanitize
# FILE= on every program of DIR, each copied into a scratch folder of its own (the files in DIR are
# never written). A program is DIR/NAME/main.hip (ROCm's HIP-Basic), DIR/NAME.hip, or DIR/NAME/NAME.cu
# (NVIDIA's cuda-samples); the headers of its folder (*.h, *.hpp, *.cuh) and of DIR/Common/ go
# beside it. One line per program: its kernels, how many got a modelled time on the device it leads
# with (gfx906 for HIP, the H100 for CUDA), the checks' verdicts, and the seconds. NAME=ARGS passes
# ARGS to that program, e.g. matrixMul="-wA=64 -hA=64 -wB=64 -hB=64". PROGRAM_TIMEOUT (seconds,
# default 300) stops one that runs longer. Logs stay in the scratch folder, which the last line names.
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
limit=${PROGRAM_TIMEOUT:-300}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/check_programs.XXXXXX")
shopt -s nullglob
for source in "$dir"/*/main.hip "$dir"/*.hip "$dir"/*/*.cu; do
    case $source in
    */main.hip) name=$(basename "$(dirname "$source")") ;;
    *) name=$(basename "$source") name=${name%.*} ;;
    esac
    mkdir -p "$scratch/$name"
    program=$scratch/$name/$(basename "$source")
    cp "$source" "$program"
    for header in "$(dirname "$source")"/*.h "$(dirname "$source")"/*.hpp "$(dirname "$source")"/*.cuh "$dir"/Common/*.h; do
        cp "$header" "$scratch/$name/"
    done
    lead=gfx906
    case $source in *.cu) lead=h100 ;; esac
    start=$(date +%s)
    (cd "$root" && timeout "$limit" make --no-print-directory -s profile FILE="$program" ARGS="${args[$name]:-}") \
        >"$scratch/$name/profile.log" 2>&1
    profiled=$?
    kernels=0 modelled=0
    tables=$root/build/profile/standalone/${scratch#/}/$name/${program##*/}
    tables=${tables%.*} # keyed by the source's folder (mk/profile.mk)
    if [ -f "$tables.tsv" ] && [ "$profiled" -eq 0 ] && ! grep -q "launched no kernel" "$scratch/$name/profile.log"; then
        kernels=$(tail -n +2 "$tables.tsv" | wc -l)
        modelled=$(awk -F'\t' -v d="$lead" '$2 == d && $3 > 0' "$tables.model.tsv" | wc -l)
    fi
    seconds=$(($(date +%s) - start))
    verdicts=
    for check in racecheck sanitize; do
        (cd "$root" && timeout "$limit" make --no-print-directory -s "$check" FILE="$program" ARGS="${args[$name]:-}") \
            >"$scratch/$name/$check.log" 2>&1
        checked=$?
        if [ "$checked" -eq 0 ]; then
            verdicts="$verdicts $check clean"
        elif [ "$checked" -eq 124 ]; then
            verdicts="$verdicts $check over ${limit} s"
        else
            verdicts="$verdicts $check failed: $(grep -m 1 -E 'hipcpu:|error|not supported|Terminated' "$scratch/$name/$check.log" | cut -c1-100)"
        fi
    done
    grep -q "launched no kernel" "$scratch/$name/profile.log" && kernels="no kernel"
    state=ok
    [ "$profiled" -eq 0 ] || state=failed
    [ "$profiled" -ne 124 ] || state="over ${limit} s"
    printf '%-24s profile %-6s (%d s) kernels %-9s modelled on %s %-3s%s\n' "$name" "$state" "$seconds" "$kernels" \
        "$lead" "$modelled" "$verdicts"
done
echo "logs: $scratch"
