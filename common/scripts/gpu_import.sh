#!/usr/bin/env bash
# `make gpu-import DIR=...`: folds a `make gpu-report` folder back into the
# tutorial, on the machine where the repository is worked on:
#   plots/compare.tsv      the report's compare.tsv (the device in every row)
#   plots/compare.png      redrawn from it (plots/compare.gp), where gnuplot is
#   README.md              the chapter table (plots/readme_table.sh)
#   chapters/*/README.md   between <!-- gpu-measured:begin --> and
#                          <!-- gpu-measured:end --> under "## Measured": the
#                          device, the command, the date, the median ms and the
#                          --check result (the markers go in first if missing)
#   common/cpu/README.md   the same markers: per kernel, Nsight Compute's time
#                          and counters beside the time model's H100 prediction
#                          and the executor's counts of the same kernel, with
#                          the ratios, where build/profile/ has the chapter's
#                          profile (make profile-N; else "not profiled")
#
#   common/scripts/gpu_import.sh DIR [--root ROOT] [--allow-executor]
#
#   --root ROOT        the tree to write into (default: this repository)
#   --allow-executor   accept a report made on the CPU platform (its times
#                      are the executor's, labelled so); without it such a
#                      report is refused, so no executor number is filed as
#                      a GPU's
# A file is replaced whole (written beside it, then renamed) or left as it was.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=plots/lib.sh
. "$here/plots/lib.sh"
SCRIPT_NAME=gpu-import

[ $# -ge 1 ] && [[ $1 != -* ]] || die "usage: common/scripts/gpu_import.sh DIR [--root ROOT] [--allow-executor]"
dir=$1
shift
root=$here allow_executor=''
parse_options root allow-executor! -- "$@"
[ ${#REST[@]} -eq 0 ] || die "unknown argument '${REST[0]}'"
for file in report.tsv env.tsv compare.tsv; do
    [ -f "$dir/$file" ] || die "$dir/$file is missing: DIR must be a make gpu-report folder"
done
value() { awk -F '\t' -v key="$1" '$1 == key { print $2; found = 1 } END { if (!found) print "unknown" }' "$dir/env.tsv"; }
platform=$(value platform) device=$(value device) date=$(value date) driver=$(value driver)
compiler=$(value nvcc)
[ "$platform" != amd ] || compiler=$(value hipcc)
if [ "$platform" = cpu ] && [ -z "$allow_executor" ]; then
    die "$dir was made on the CPU platform: its times are the executor's, not a GPU's (--allow-executor to import it anyway)"
fi
[ -s "$dir/compare.tsv" ] || die "$dir/compare.tsv is empty: the report's compare step did not run ($(awk -F '\t' '$1 == "compare" { print $2 ": " $4 }' "$dir/report.tsv"))"
head -n 1 "$dir/compare.tsv" | grep -q $'^chapter\tplatform\tdevice\t' || die "$dir/compare.tsv is not make compare's table"

work=$(mktemp -d "${TMPDIR:-/tmp}/gpu-import.XXXXXX")
trap 'rm -rf "$work"' EXIT
# replace FILE: FILE's new text from $work/new, renamed over it
replace() {
    cp "$work/new" "$1.gpu-import.$$" && mv "$1.gpu-import.$$" "$1"
    echo "gpu-import: wrote $1"
}
# between FILE BEGIN END: FILE with the lines between its markers BEGIN...END
# replaced by $work/block; when FILE has none, they go in after the line
# matching the awk pattern AFTER (or at the end).
between() {
    local file=$1 begin=$2 end=$3 after=${4:-} prefix
    prefix=${begin%% (*} # the marker without its note: "<!-- gpu-measured:begin"
    ! grep -qF "$prefix" "$file" || after='' # the markers are there: only between them
    awk -v begin="$begin" -v prefix="$prefix" -v end="$end" -v after="$after" -v block="$work/block" '
        function emit(   line) { print begin; while ((getline line < block) > 0) print line; close(block); print end }
        index($0, prefix) == 1 { emit(); skipping = 1; done = 1; next }
        skipping && index($0, end) == 1 { skipping = 0; next }
        skipping { next }
        { print }
        !done && after != "" && $0 ~ after { print ""; emit(); done = 1 }
        END { if (!done) { print ""; emit() } }
    ' "$file" >"$work/new"
}

begin='<!-- gpu-measured:begin (make gpu-import writes this) -->'

# 1. The chart's table, and the chart.
cp "$dir/compare.tsv" "$work/new"
replace "$root/plots/compare.tsv"
if command -v gnuplot >/dev/null; then
    title="make gpu-report on $device ($platform), $date: median ms per training iteration"
    gnuplot -e "data=$(gp_string "$root/plots/compare.tsv"); out=$(gp_string "$work/compare.png"); format='png'" \
        -e "title=$(gp_string "$title")" "$here/plots/compare.gp" && cp "$work/compare.png" "$work/new" &&
        replace "$root/plots/compare.png"
else
    echo "gpu-import: gnuplot is not installed: plots/compare.png left as it was (common/scripts/require.sh gnuplot-nox)"
fi

# 2. The README's chapter table.
(cd "$root" && bash "$here/plots/readme_table.sh" --data plots/compare.tsv --ideas plots/chapter_ideas.tsv \
    --chapters chapters --readme README.md)

# 3. Each chapter's measured part.
check_note=$(awk -F '\t' '$1 == "check" { print $2 ": " $4 }' "$dir/report.tsv")
for readme in "$root"/chapters/[0-9][0-9]-*/README.md; do
    chapter=$(basename "$(dirname "$readme")")
    case $chapter in 00-*) continue ;; esac # the host's reference: its time is the host CPU's
    row=$(awk -F '\t' -v c="$chapter" '$1 == c' "$root/plots/compare.tsv")
    [ -n "$row" ] || continue
    IFS=$'\t' read -r _ _ _ images iterations repeats median min max _ <<<"$row"
    {
        if [ "$platform" = cpu ]; then
            echo "- **Executor, not a GPU** (a \`make gpu-report\` made with \`HIP_PLATFORM=cpu\`, imported with \`--allow-executor\`):"
        else
            echo "- **Measured on $device** (\`make gpu-report\`, $date; driver $driver; $compiler):"
        fi
        printf '  median %s ms per iteration (fastest %s, slowest %s), %s images, %s iterations x %s runs;\n' \
            "$(printf '%.4g' "$median")" "$(printf '%.4g' "$min")" "$(printf '%.4g' "$max")" "$images" "$iterations" "$repeats"
        echo "  the report's --check: $check_note."
    } >"$work/block"
    between "$readme" "$begin" '<!-- gpu-measured:end -->' '^## Measured'
    replace "$readme"
done

# 4. The model against the chip: per kernel, Nsight Compute beside the model.
{
    if [ ! -s "$dir/ncu.tsv" ]; then
        echo "No Nsight Compute counters in this report ($(awk -F '\t' '$1 == "ncu" { print $2 ": " $4 }' "$dir/report.tsv"))."
    else
        echo "Nsight Compute on $device (\`make gpu-report\`, $date) against the time model's H100 prediction and the executor's counts"
        echo "of the same kernel (\`build/profile/\`, \`make profile-N\` on this machine); ratios are measured / modelled."
        echo
        echo "| chapter | kernel | launches | measured ms | modelled H100 ms | ratio | sectors/request (ncu) | segments/request (executor) | shared bank conflicts (ncu) | atomic requests (ncu) | DRAM MB (ncu) | unique MB (executor) | occupancy % (ncu) |"
        echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        tail -n +2 "$dir/ncu.tsv" | while IFS=$'\t' read -r chapter kernel launches ms sectors conflicts atomics dram occupancy; do
            model=$root/build/profile/$chapter.model.tsv counts=$root/build/profile/$chapter.tsv
            predicted=$( [ -f "$model" ] && awk -F '\t' -v k="$kernel" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                $1 == k && $c["device"] == "h100" { print $c["model_ms"] }' "$model")
            segments='' unique=''
            if [ -f "$counts" ]; then
                read -r segments unique < <(awk -F '\t' -v k="$kernel" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                    $1 == k { printf "%.2f %.1f\n", $c["global_load_segments"] / ($c["global_load_requests"] ? $c["global_load_requests"] : 1), $c["unique_bytes"] / 1e6 }' "$counts")
            fi
            ratio=$(awk -v m="$ms" -v p="${predicted:-}" 'BEGIN { if (p + 0 > 0 && m != "-") printf "%.2f", m / p; else printf "-" }')
            printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$chapter" "$kernel" "$launches" "$ms" \
                "${predicted:-not profiled}" "$ratio" "$sectors" "${segments:--}" "$conflicts" "$atomics" "$(awk -v d="$dram" 'BEGIN { if (d == "-") print "-"; else printf "%.1f", d / 1e6 }')" \
                "${unique:--}" "$occupancy"
        done
    fi
} >"$work/block"
between "$root/common/cpu/README.md" "$begin" '<!-- gpu-measured:end -->'
replace "$root/common/cpu/README.md"
echo "gpu-import: folded $dir in ($platform, $device, $date)"
