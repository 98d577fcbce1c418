#!/usr/bin/env bash
# make validate-model: the time model against the published times of kernels
# no one here wrote (README.md beside this file). Per kernel: modelled ms,
# published ms, their ratio, the term that binds; per set and device: the
# Spearman rank correlation; and how many rows fall within 0.5x-2x.
#
#   validate.sh trace    trace every program again (make profile FILE=..., about
#                        80 s), keep its counts in counts/, then compare
#   validate.sh cached   run the model on the counts kept in counts/ (seconds;
#                        make test's check), then compare
#   validate.sh check    as cached, and fail unless README.md's table between
#                        its validation markers is what this prints
#
# A device with warps of 32 (wave_size 32 in devices.tsv) gets its memory
# counters from a wave-32 trace of the same program (counts/NAME.wave32.tsv:
# the segment and sector columns; traced only for programs with a published
# time on such a device), the rest from the wave-64 one: the instructions are
# gfx906's (wave64) code, counted per wave of 64 against the wave-64 waves.
#
# TIMEMODEL: the model's program (build/tools/timemodel).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
# shellcheck source=common/scripts/lib.sh
. "$root/common/scripts/lib.sh"
SCRIPT_NAME=validate
mode=${1:-cached}
case $mode in trace | cached | check) ;; *) die_usage "usage: validate.sh trace|cached|check" ;; esac
timemodel=${TIMEMODEL:-$root/build/tools/timemodel}
[ -x "$timemodel" ] || die "$timemodel is not built (make $timemodel)"
published=$here/published.tsv devices=$here/devices.tsv counts=$here/counts
out=$root/build/profile/validation
mkdir -p "$out"
programs=$(awk -F'\t' 'NR > 1 && !/^#/ { print $2 }' "$published" | sort -u)
# The devices with warps of 32, and the programs with a published time on one.
warp32=$(awk -F'\t' '$2 == "wave_size" && $3 == 32 { printf "%s%s", sep, $1; sep = " " }' "$devices")
narrow_programs=$(awk -F'\t' -v list="$warp32" 'BEGIN { n = split(list, d, " "); for (i = 1; i <= n; i++) w[d[i]] = 1 }
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } !/^#/ && ($c["device"] in w) { print $c["file"] }' "$published" | sort -u)

for file in $programs; do
    name=${file%.hip}
    if [ "$mode" = trace ]; then
        echo "validate: tracing $file" >&2
        (cd "$root" && make --no-print-directory -s HIP_PLATFORM=cpu TRACE=1 "build/trace/standalone/$name" \
            STANDALONE_SOURCE="common/cpu/model/validation/$file") >&2
        (cd "$root" && MODEL_DEVICES="$devices" PROFILE_STANDALONE=1 PROFILE_SOURCE="common/cpu/model/validation/$file" \
            bash common/cpu/trace/profile.sh "build/trace/standalone/$name" "$out" -) >"$out/$name.txt" 2>&1 ||
            { cat "$out/$name.txt" >&2; die "the profile of $file failed"; }
        mkdir -p "$counts"
        # The counts the model reads, without the model's own columns: small, and kept.
        awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i !~ /_(g80|m2050|k20c|mi210|gfx906|h100)(_ms)?$/) keep[++n] = i }
            { line = $keep[1]; for (j = 2; j <= n; j++) line = line "\t" $keep[j]; print line }' \
            "$out/$name.tsv" >"$counts/$name.counters.tsv"
        cp "$out/$name.mix.tsv" "$counts/$name.mix.tsv"
        cp "$out/$name.waits.tsv" "$counts/$name.waits.tsv"
        # The same program at wave 32, for devices with warps of 32: its memory counters alone.
        if grep -qx "$file" <<<"$narrow_programs"; then
            echo "validate: tracing $file at wave 32" >&2
            (cd "$root" && make --no-print-directory -s HIP_PLATFORM=cpu TRACE=1 WAVE=32 "build/trace-wave32/standalone/$name" \
                STANDALONE_SOURCE="common/cpu/model/validation/$file") >&2
            HIPCPU_PROFILE="$out/$name.wave32.raw.tsv" "$root/build/trace-wave32/standalone/$name" >"$out/$name.wave32.log" 2>&1 ||
                { cat "$out/$name.wave32.log" >&2; die "the wave-32 trace of $file failed"; }
            awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "kernel" || $i == "waves" || $i ~ /_(segments|sectors)$/) keep[++n] = i }
                { line = $keep[1]; for (j = 2; j <= n; j++) line = line "\t" $keep[j]; print line }' \
                "$out/$name.wave32.raw.tsv" >"$counts/$name.wave32.tsv"
        fi
    fi
    for part in counters mix waits; do
        [ -f "$counts/$name.$part.tsv" ] || die "no $counts/$name.$part.tsv: run validate.sh trace"
    done
    "$timemodel" "$devices" "$counts/$name.counters.tsv" "$counts/$name.mix.tsv" "$counts/$name.waits.tsv" >"$out/$name.model.tsv"
    grep -qx "$file" <<<"$narrow_programs" || continue
    [ -f "$counts/$name.wave32.tsv" ] || die "no $counts/$name.wave32.tsv: run validate.sh trace"
    # Warps of 32: the wave-64 counters with the wave-32 trace's segments and sectors.
    awk -F'\t' -v OFS='\t' 'FNR == 1 { file++ }
        file == 1 { if (FNR == 1) for (i = 1; i <= NF; i++) name[i] = $i; else for (i = 2; i <= NF; i++) w32[$1, name[i]] = $i; next }
        FNR == 1 { for (i = 1; i <= NF; i++) col[i] = $i; print; next }
        { for (i = 2; i <= NF; i++) if (($1, col[i]) in w32 && col[i] != "waves") $i = w32[$1, col[i]]; print }' \
        "$counts/$name.wave32.tsv" "$counts/$name.counters.tsv" >"$out/$name.counters-warp32.tsv"
    "$timemodel" "$devices" "$out/$name.counters-warp32.tsv" "$counts/$name.mix.tsv" "$counts/$name.waits.tsv" \
        >"$out/$name.model-warp32.tsv"
done

# The table, in the README's words; then the rank correlations.
# shellcheck disable=SC2046 # the lists of model tables split into one argument each, on purpose
table=$(awk -F'\t' -v out="$out" -v warp32_devices="$warp32" '
    BEGIN { n = split(warp32_devices, wd, " "); for (i = 1; i <= n; i++) warp32[wd[i]] = 1 }
    function spearman(key,    n, i, j, a, b, ra, rb, ma, mb, cov, va, vb) {
        n = count[key]
        for (i = 1; i <= n; i++) { a[i] = mod[key, i]; b[i] = pub[key, i] }
        rank(a, n, ra); rank(b, n, rb)
        for (i = 1; i <= n; i++) { ma += ra[i] / n; mb += rb[i] / n }
        for (i = 1; i <= n; i++) { cov += (ra[i] - ma) * (rb[i] - mb); va += (ra[i] - ma) ^ 2; vb += (rb[i] - mb) ^ 2 }
        return va > 0 && vb > 0 ? sprintf("%.2f", cov / sqrt(va * vb)) : "undefined (ties)"
    }
    # rank(v, n, r): ranks from 1, ties sharing their mean rank.
    function rank(v, n, r,    i, j, less, same) {
        for (i = 1; i <= n; i++) {
            less = same = 0
            for (j = 1; j <= n; j++) { if (v[j] < v[i]) less++; else if (v[j] == v[i]) same++ }
            r[i] = less + (same + 1) / 2
        }
    }
    FNR == 1 { file++ }
    file == 1 { if (FNR == 1) { for (i = 1; i <= NF; i++) pc[$i] = i; next } rows[++nrows] = $0; next }
    FNR == 1 { for (i = 1; i <= NF; i++) mc[$i] = i; narrow = FILENAME ~ /model-warp32/; next }
    # A device with warps of 32 from the counts at wave 32, any other from the wave-64 ones.
    (narrow != ($mc["device"] in warp32)) { next }
    { model[$mc["kernel"], $mc["device"]] = $mc["model_ms"]; bound[$mc["kernel"], $mc["device"]] = $mc["binding"] }
    END {
        print "| set | kernel | device | modelled ms | published ms | model / published | what binds |"
        print "|---|---|---|---:|---:|---:|---|"
        for (r = 1; r <= nrows; r++) {
            split(rows[r], f, "\t")
            s = f[pc["set"]]; k = f[pc["kernel"]]; d = f[pc["device"]]; p = f[pc["published_ms"]]
            if (!((k, d) in model)) { printf "validate: no model row for %s on %s\n", k, d > "/dev/stderr"; exit 1 }
            m = model[k, d]; ratio = m / p
            within += ratio >= 0.5 && ratio <= 2
            key = s SUBSEP d
            if (!(key in count)) order[++groups] = key
            count[key]++; mod[key, count[key]] = m; pub[key, count[key]] = p
            printf "| %s | %s | %s | %.4f | %.4f | %.2f | %s |\n", s, k, d, m, p, ratio, bound[k, d]
        }
        print ""
        print "| set | device | kernels | Spearman rank correlation |"
        print "|---|---|---:|---|"
        for (g = 1; g <= groups; g++) {
            split(order[g], sd, SUBSEP)
            printf "| %s | %s | %d | %s |\n", sd[1], sd[2], count[order[g]], spearman(order[g])
        }
        print ""
        printf "Within 0.5x-2x of the published time: %d of %d rows.\n", within, nrows
    }' "$published" $(for file in $programs; do echo "$out/${file%.hip}.model.tsv"; done) \
    $(for file in $narrow_programs; do echo "$out/${file%.hip}.model-warp32.tsv"; done))
echo "$table"
if [ "$mode" = check ]; then
    readme_table=$(awk '/<!-- validation:end/ { inside = 0 } inside { print } /<!-- validation:begin/ { inside = 1 }' "$here/README.md")
    if [ "$readme_table" != "$table" ]; then
        error "$here/README.md's table (between its validation markers) is not what the model gives now:"
        diff <(echo "$readme_table") <(echo "$table") >&2 || true
        exit 1
    fi
    echo "validate: README.md's table is what the model gives on the kept counts"
fi
