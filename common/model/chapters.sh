#!/usr/bin/env bash
# make validate-chapters: each chapter kernel's modelled time on one device (NN-name.model.tsv)
# against a GPU report's measured one.
#   common/model/chapters.sh KERNELS.tsv PROFILE_DIR DEVICE CHAPTER...
# KERNELS.tsv: a make gpu-report's kernel table (chapter, platform, kernel, median_ms; several
# runs of a chapter: their median). PROFILE_DIR: where make profile-N left the chapters' tables.
# Prints one row per kernel (measured, modelled, their ratio), a total per chapter, and the
# kernels within 0.5x-2x.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common/scripts/lib.sh
. "$here/../scripts/lib.sh"
SCRIPT_NAME=validate-chapters
[ $# -ge 4 ] || die_usage "usage: chapters.sh KERNELS.tsv PROFILE_DIR DEVICE CHAPTER..."
measured=$1 dir=$2 device=$3
shift 3
[ -f "$measured" ] || die "$measured: no such report table"
tables=()
for chapter in "$@"; do
    [ -f "$dir/$chapter.model.tsv" ] || die "no $dir/$chapter.model.tsv: run make profile-${chapter%%-*} first"
    tables+=("$dir/$chapter.model.tsv")
done
awk -F'\t' -v device="$device" '
    function median(list,    n, v, i, j, t) {
        n = split(list, v, " ")
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    function within(r) { return r >= 0.5 && r <= 2 }
    FNR == 1 { part++ }
    part == 1 { if (FNR > 1 && $2 != "cpu" && $3 !~ /^\(/) runs[$1 SUBSEP $3] = runs[$1 SUBSEP $3] " " $4; next }
    FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
               chapter = FILENAME; sub(/.*\//, "", chapter); sub(/\.model\.tsv$/, "", chapter); next }
    $col["device"] == device { ms[chapter, $1] = $col["model_ms"]
                               if (!((chapter, $1) in seen)) { seen[chapter, $1] = 1; order[++n] = chapter SUBSEP $1 } }
    END {
        printf "%-24s %-16s %10s %10s %6s\n", "chapter", "kernel", "measured", "modelled", "ratio"
        for (i = 1; i <= n; i++) {
            split(order[i], k, SUBSEP)
            if (!((k[1], k[2]) in runs)) continue
            m = median(runs[k[1], k[2]]); s = ms[k[1], k[2]]
            printf "%-24s %-16s %10.4f %10.4f %6.2f\n", k[1], k[2], m, s, s / m
            kernels++; inside += within(s / m)
            total_m[k[1]] += m; total_s[k[1]] += s
            if (!(k[1] in listed)) { listed[k[1]] = 1; chapters[++c] = k[1] }
        }
        for (i = 1; i <= c; i++)
            printf "%-24s %-16s %10.4f %10.4f %6.2f\n", chapters[i], "(all)", total_m[chapters[i]], total_s[chapters[i]],
                total_s[chapters[i]] / total_m[chapters[i]]
        printf "kernels within 0.5x-2x on %s: %d of %d\n", device, inside, kernels
    }' "$measured" "${tables[@]}"
