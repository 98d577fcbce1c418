#!/usr/bin/env bash
# `make gpu-import DIR=...`: folds a `make gpu-report` folder back into the
# tutorial, on the machine where the repository is worked on:
#   plots/compare.tsv      the report's compare.tsv (the device in every row)
#   plots/compare.png      redrawn from it (plots/compare.gp), where gnuplot is
#   plots/compare.command  the command that measured it, for the table's caption
#   README.md              the chapter table (plots/readme_table.sh)
#   chapters/*/README.md   between <!-- gpu-measured:begin --> and
#                          <!-- gpu-measured:end --> under "## Measured": the
#                          device, the command, the date, the median ms and the
#                          --check result (the markers go in first if missing)
#   common/executor/README.md   the same markers: a summary and its sentences;
#   plots/gpu-kernels.md   its table: per kernel, the GPU events' time
#                          beside the time model's prediction for the device
#                          (H100 or H200) and their ratio, where make compare
#                          left the chapter's profile at the report's size
#                          (build/profile/compare/IMAGES/; else "not
#                          profiled"), and Nsight Compute's counters beside the
#                          executor's counts of the same kernel
#   common/model/validation/published.tsv  the validation programs'
#                          kernels timed on this GPU (validation.tsv), first,
#                          as the set measured-DEVICE
#   plots/gpu-reports/DATE-DEVICE/  the report's tables and raw.tar.gz, kept
#
#   common/scripts/gpu_import.sh DIR [--root ROOT] [--allow-executor] [--validation-only]
#                                    [--validation FILE]
#
#   --root ROOT        the tree to write into (default: this repository)
#   --validation-only  fold in the validation's measured set alone (step 5),
#                      nothing of the chapters
#   --validation FILE  the validation step's table (default DIR/validation.tsv),
#                      for a report whose own did not come back and whose quick
#                      run's did: the validation runs at the programs' own sizes
#                      whatever the image count
#   --allow-executor   accept a report made on the CPU platform (its times
#                      are the executor's, labelled so); without it such a
#                      report is refused, so no executor number is filed as
#                      a GPU's
# A file is replaced whole (written beside it, then renamed) or left as it was.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=common/scripts/lib.sh
. "$here/common/scripts/lib.sh"
SCRIPT_NAME=gpu-import

[ $# -ge 1 ] && [[ $1 != -* ]] ||
    die "usage: common/scripts/gpu_import.sh DIR [--root ROOT] [--allow-executor] [--validation-only] [--validation FILE]"
dir=$1
shift
root=$here allow_executor='' validation_only='' validation=''
parse_options root allow-executor! validation-only! validation -- "$@"
[ ${#REST[@]} -eq 0 ] || die "unknown argument '${REST[0]}'"
needed="report.tsv env.tsv compare.tsv"
[ -z "$validation_only" ] || needed=env.tsv
for file in $needed; do
    [ -f "$dir/$file" ] || die "$dir/$file is missing: DIR must be a make gpu-report folder"
done
validation=${validation:-$dir/validation.tsv}
[ -z "$validation_only" ] || [ -s "$validation" ] || die "--validation-only: $validation is missing or empty"
if [ -s "$validation" ]; then
    head -n 1 "$validation" | grep -q $'^file\tkernel\tlaunches\tms' || die "$validation is not the validation step's table (file, kernel, launches, ms)"
fi
value() { awk -F '\t' -v key="$1" '$1 == key { print $2; found = 1 } END { if (!found) print "unknown" }' "$dir/env.tsv"; }
platform=$(value platform) device=$(value device) date=$(value date) driver=$(value driver)
compiler=$(value nvcc)
[ "$platform" != amd ] || compiler=$(value hipcc)
if [ "$platform" = cpu ] && [ -z "$allow_executor" ]; then
    die "$dir was made on the CPU platform: its times are the executor's, not a GPU's (--allow-executor to import it anyway; with make: GPU_IMPORT_ARGS=--allow-executor)"
fi
[ -n "$validation_only" ] || [ -s "$dir/compare.tsv" ] || die "$dir/compare.tsv is empty: the report's compare step did not run ($(awk -F '\t' '$1 == "compare" { print $2 ": " $4 }' "$dir/report.tsv"))"
[ -n "$validation_only" ] || head -n 1 "$dir/compare.tsv" | grep -q $'^chapter\tplatform\tdevice\t' || die "$dir/compare.tsv is not make compare's table"

# Every tracked file it rewrites, refused before the first is written if it holds changes not
# committed (FORCE_REWRITE=1 goes on).
if [ -z "$validation_only" ]; then
    refuse_uncommitted "make gpu-import" "$root"/plots/compare.{tsv,png,command} "$root/README.md" \
        "$root"/chapters/[0-9][0-9]-*/README.md "$root/common/executor/README.md" "$root/plots/gpu-kernels.md" \
        "$root/common/model/validation/published.tsv"
else
    refuse_uncommitted "make gpu-import" "$root/common/model/validation/published.tsv"
fi

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

# the time model's name for the device (common/model/devices.tsv), if it has one
case $device in
*H200*) model_device=h200 ;;
*H100*) model_device=h100 ;;
*"Radeon Pro VII"* | *MI50* | *MI60* | *"Vega 20"*) model_device=gfx906 ;;
*) model_device='' ;;
esac

if [ -z "$validation_only" ]; then # steps 1 to 4: the chapters
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

# 2. The README's chapter table, its caption naming the command.
echo '`make gpu-report` (its compare step)' >"$work/new"
replace "$root/plots/compare.command"
(cd "$root" && bash "$here/plots/readme_table.sh" --data plots/compare.tsv --ideas plots/chapter_ideas.tsv \
    --chapters chapters --readme README.md)

# kernel_medians: per chapter and kernel, the median of the runs' median ms a
# launch in the report's kernels.tsv (GPU events), as "chapter TAB kernel TAB ms".
kernel_medians() {
    [ -s "$dir/kernels.tsv" ] || return 0
    awk -F '\t' 'NR > 1 && $3 != "(iteration)" { key = $1 "\t" $3; if (!(key in n)) order[++keys] = key; v[key, ++n[key]] = $4 }
        END { for (k = 1; k <= keys; k++) { key = order[k]; m = n[key]
                  for (i = 1; i <= m; i++) a[i] = v[key, i]
                  for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
                  printf "%s\t%.6f\n", key, (m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2) } }' "$dir/kernels.tsv"
}

images=$(awk -F '\t' 'NR > 1 && $2 != "cpu" { print $4; exit }' "$root/plots/compare.tsv")
profiles=$root/build/profile/compare/$images
[ -d "$profiles" ] || profiles=$root/build/profile
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
        kernel_medians | awk -F '\t' -v c="$chapter" -v model="$profiles/$chapter.model.tsv" -v d="$model_device" '
            BEGIN { while ((getline line < model) > 0) { split(line, f, "\t"); if (f[2] == d) predicted[f[1]] = f[3] } }
            $1 == c { list = list (list == "" ? "" : ", ") sprintf("`%s` %.4g", $2, $3) (($2 in predicted) ? sprintf(" (%.4g)", predicted[$2]) : "") }
            END { if (list != "") printf "  per kernel, median ms a launch (GPU events; in brackets the time model'"'"'s %s figure, `make compare`): %s.\n", d, list }'
    } >"$work/block"
    between "$readme" "$begin" '<!-- gpu-measured:end -->' '^## Measured'
    replace "$readme"
done

# 4. The model against the chip, per kernel: the GPU events' time a launch
# (kernels.tsv, the median of the runs' medians) beside the time model's
# prediction for this device, from the profiles make compare made at the
# report's image count (build/profile/compare/IMAGES/, else build/profile/),
# then Nsight Compute's counters a launch beside the executor's.
ncu_clocks=$(value ncu_clocks)
[ "$ncu_clocks" != unknown ] || ncu_clocks="base (ncu's default; a report that does not name its clocks)"
{
    if [ ! -s "$dir/kernels.tsv" ] || [ "$platform" = cpu ]; then
        echo "No GPU kernel times in this report (compare: $(awk -F '\t' '$1 == "compare" { print $2 ": " $4 }' "$dir/report.tsv"))."
    else
        echo "Measured on $device (\`make gpu-report\`, $date; $images images, GPU events, median a launch) against the time"
        echo "model's ${model_device:-(no model of this device)} prediction (\`${profiles#"$root"/}\`, made by \`make compare\` on this machine); Nsight Compute's"
        echo "counters a launch (clocks: $ncu_clocks) beside the executor's counts of the same kernel, one row"
        echo "each in [plots/gpu-kernels.md](../../plots/gpu-kernels.md): a page of its own, as 34 rows would outweigh this one."
        { echo "| chapter | kernel | measured ms | modelled ms | model / measured | sectors/request (ncu) | sectors/request (executor) | shared bank conflicts (ncu) | DRAM MB (ncu) | unique MB (executor) | occupancy % (ncu) |"
          echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"; } >"$work/table"
        kernel_medians |
            while IFS=$'\t' read -r chapter kernel measured; do
                model=$profiles/$chapter.model.tsv counts=$profiles/$chapter.tsv
                # warps of 32: the executor's wave-32 trace of the same chapter, where make compare made one
                [ "$model_device" = gfx906 ] || [ ! -f "$profiles/$chapter.w32.tsv" ] || counts=$profiles/$chapter.w32.tsv
                predicted=$( [ -f "$model" ] && awk -F '\t' -v k="$kernel" -v d="$model_device" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                    $1 == k && $c["device"] == d { print $c["model_ms"] }' "$model")
                segments='-' unique='-'
                if [ -f "$counts" ]; then
                    read -r segments unique < <(awk -F '\t' -v k="$kernel" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                        $1 == k { printf "%.2f %.1f\n", $c["global_load_sectors"] / ($c["global_load_requests"] ? $c["global_load_requests"] : 1), $c["unique_bytes"] / 1e6 / ($c["launches"] ? $c["launches"] : 1) }' "$counts")
                fi
                ncu_row=$(awk -F '\t' -v c="$chapter" -v k="$kernel" '$1 == c && $2 == k' "$dir/ncu.tsv" 2>/dev/null)
                IFS=$'\t' read -r _ _ launches _ sectors conflicts _ dram occupancy <<<"${ncu_row:-x	x	1	-	-	-	-	-	-}"
                awk -v c="$chapter" -v k="$kernel" -v m="$measured" -v p="${predicted:-}" -v s="$sectors" -v seg="${segments:--}" \
                    -v bc="$conflicts" -v l="$launches" -v d="$dram" -v u="${unique:--}" -v o="$occupancy" 'BEGIN {
                    per = l + 0 > 0 ? l : 1
                    shown = (p == "") ? "not profiled" : sprintf("%.4f", p)
                    ratio = (p + 0 > 0) ? sprintf("%.2f", p / m) : "-"
                    conflicts = (bc == "-") ? "-" : sprintf("%.0f", bc / per)
                    megabytes = (d == "-") ? "-" : sprintf("%.1f", d / per / 1e6)
                    printf "| %s | %s | %.4f | %s | %s | %s | %s | %s | %s | %s | %s |\n", c, k, m, shown, ratio, s, seg,
                        conflicts, megabytes, u, o }'
            done >"$work/rows"
        { echo "# The time model against $device, per kernel"; echo
          echo "Written by \`make gpu-import\` from the \`make gpu-report\` of $date: the columns and the run are"
          echo "described in [common/executor/README.md](../common/executor/README.md#measured-on-a-gpu-against-the-model)."
          echo; cat "$work/table" "$work/rows"; } >"$root/plots/gpu-kernels.md"
        awk -F '|' '$6 + 0 > 0 { n++; r = $6 + 0; within += r >= 0.5 && r <= 2; e += r < 1 ? -log(r) : log(r) }
            END { if (n) printf "\n%d of %d kernels modelled within 0.5x-2x of the measured time (%.0f%%); geometric-mean error %.2fx.\n",
                      within, n, 100 * within / n, exp(e / n) }' "$work/rows"
    fi
} >"$work/block"
between "$root/common/executor/README.md" "$begin" '<!-- gpu-measured:end -->'
replace "$root/common/executor/README.md"

fi
# 5. The validation's measured set: the validation programs' kernels as this
# GPU ran them (validation.tsv), first in published.tsv as the set
# measured-DEVICE, replacing that set's rows from an earlier report. A kernel
# is filed under its name in kernels.tsv: Nsight Compute's demangler may write
# a template's values otherwise (a cast, an upper-case suffix, (bool)0 for
# false), so a name not in kernels.tsv is matched on its program's names with
# those differences, spaces and case taken out.
published=$root/common/model/validation/published.tsv
yardstick=$root/common/model/validation/kernels.tsv
if [ -s "$validation" ] && [ -n "$model_device" ] && [ "$platform" != cpu ]; then
    awk -F '\t' -v OFS='\t' -v set="measured-$model_device" -v d="$model_device" -v source="make gpu-report on $device, $date ($compiler): Nsight Compute gpu__time_duration.sum over the kernel's launches, at the GPU's own clocks, caches flushed between kernels" '
        function loose(name) {
            name = tolower(name)
            gsub(/\((unsigned |signed )?(int|long|long long|short|char|bool)\)/, "", name)
            gsub(/ /, "", name); gsub(/false/, "0", name); gsub(/true/, "1", name)
            gsub(/[ul]+>/, ">", name); gsub(/[ul]+,/, ",", name)
            return name
        }
        FNR == 1 { part++ }
        part == 1 { if (!/^#/ && $1 != "file") { exact[$1, $2] = 1; by_loose[$1, loose($2)] = $2 } next }
        part == 2 {
            if (FNR == 1) next
            k = $2
            if (!(($1, k) in exact) && (($1, loose(k)) in by_loose)) k = by_loose[$1, loose(k)]
            else if (!(($1, k) in exact)) printf "gpu-import: %s (%s) is not a kernel of kernels.tsv: filed as Nsight Compute names it\n", k, $1 > "/dev/stderr"
            ms[$1, k] = $4; order[++n] = $1 SUBSEP k
            next
        }
        FNR == 1 { print; for (i = 1; i <= NF; i++) c[$i] = i; next }
        /^#/ && !body { print; next }
        !body {
            body = 1
            for (i = 1; i <= n; i++) {
                split(order[i], f, SUBSEP)
                print set, "no", f[1], f[2], d, "as the program runs it (kernels.tsv)", ms[order[i]], source, ""
            }
        }
        $c["set"] == set { next }
        { print }' "$yardstick" "$validation" "$published" >"$work/new"
    replace "$published"
fi

# 6. The report itself, kept: its tables and raw.tar.gz (Nsight Compute's raw
# CSV and the SASS of every binary it timed) in plots/gpu-reports/DATE-DEVICE/
# (-b, -c... when that day's folder is there), never over a kept report.
if [ "$platform" != cpu ]; then
    kept=$root/plots/gpu-reports/$date-${model_device:-$(echo "$device" | tr 'A-Z ' 'a-z-' | tr -cd 'a-z0-9-')}
    suffix='' letter=b
    while [ -e "$kept$suffix" ]; do suffix=-$letter letter=$(echo "$letter" | tr 'a-y' 'b-z'); done
    mkdir -p "$kept$suffix"
    for file in env.tsv report.tsv compare.tsv kernels.tsv ncu.tsv raw.tar.gz; do
        [ ! -f "$dir/$file" ] || cp "$dir/$file" "$kept$suffix/$file"
    done
    [ ! -s "$validation" ] || cp "$validation" "$kept$suffix/validation.tsv"
    echo "gpu-import: kept the report's tables in ${kept#"$root"/}$suffix/"
fi
echo "gpu-import: folded $dir in ($platform, $device, $date)"
