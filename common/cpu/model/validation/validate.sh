#!/usr/bin/env bash
# make validate-model: the time model against the published times of kernels
# no one here wrote (README.md beside this file). Per kernel and device:
# modelled ms, published ms, their ratio, the term that binds; per set: the
# Spearman rank correlation; over the rows of the new sets and, apart, of the
# legacy ones: how many fall within 0.5x-2x and the geometric-mean error
# exp(mean |ln(model / published)|); then the bar the issue sets for the new
# sets, met or not.
#
#   validate.sh trace    trace every program again (make profile FILE=...'s path,
#                        about 4 minutes), keep its counts in counts/, then compare
#   validate.sh cached   run the model on the counts kept in counts/ (seconds),
#                        then compare
#   validate.sh check    as cached, and fail unless README.md's table between its
#                        validation markers is what this prints (make test)
#   validate.sh bar      as cached, and fail unless the new sets meet the bar: at
#                        least 80% of their rows within 0.5x-2x, a geometric-mean
#                        error of at most 1.5x, and a Spearman rank correlation of
#                        at least 0.8 in each new set whose published times differ
#
# published.tsv names each row's set (legacy: yes for the older sets, which
# count toward nothing: README.md beside this file), program, kernel and device. A program's rows are looked up by
# (program, kernel, device), and the model gets only the devices its rows name
# (timemodel holds 8). programs.tsv says how a program is traced when not whole:
# "slices N1 N2 N" runs it with the argument N1, then N2, and extends every
# count in a straight line to N (extrapolate.awk), for a program whose counts
# grow by the same amount per step of that argument (README.md: amd_laplacian).
#
# A device with warps of 32 (wave_size 32 in devices.tsv) is modelled as
# make profile models the H100: on a wave-32 trace of the same program
# (counts/NAME.wave32.tsv; traced only for programs with a published time on
# such a device) and nvcc's own sm_90 code (ptx_facts.sh: NAME.mix.sm_90.tsv,
# NAME.waits.sm_90.tsv). The A100 rows read that sm_90 code too.
#
# An AMD device that is not gfx906 (isa.tsv: its target) gets its
# instructions, waits, occupancy and scratch from hipcc's code for its own
# target (counts/NAME.mix.ARCH.tsv, NAME.waits.ARCH.tsv), its memory counters
# from the wave-64 trace.
#
# TIMEMODEL: the model's program (build/tools/timemodel).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
# shellcheck source=common/scripts/lib.sh
. "$root/common/scripts/lib.sh"
SCRIPT_NAME=validate
mode=${1:-cached}
case $mode in trace | cached | check | bar) ;; *) die_usage "usage: validate.sh trace|cached|check|bar" ;; esac
timemodel=${TIMEMODEL:-$root/build/tools/timemodel}
[ -x "$timemodel" ] || die "$timemodel is not built (make $timemodel)"
published=$here/published.tsv devices=$here/devices.tsv counts=$here/counts programs_table=$here/programs.tsv isa_table=$here/isa.tsv
out=$root/build/profile/validation
mkdir -p "$out"
# column NAME TABLE: the values of one named column, one per data row.
column() { awk -F'\t' -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } !/^#/ { print $c }' "$2"; }
programs=$(column file "$published" | sort -u)
# The devices with warps of 32, and the programs with a published time on one.
warp32=$(awk -F'\t' '$2 == "wave_size" && $3 == 32 { printf "%s%s", sep, $1; sep = " " }' "$devices")
narrow_programs=$(awk -F'\t' -v list="$warp32" 'BEGIN { n = split(list, d, " "); for (i = 1; i <= n; i++) w[d[i]] = 1 }
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } !/^#/ && ($c["device"] in w) { print $c["file"] }' "$published" | sort -u)

# arch_devices FILE: per AMD target other than gfx906 that FILE's published rows
# name a device of, one line "ARCH DEVICE[,DEVICE...]".
arch_devices() {
    awk -F'\t' -v file="$1" 'FNR == 1 { part++ }
        part == 1 { if (!/^#/ && $1 != "device" && $2 != "gfx906") arch[$1] = $2; next }
        FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        !/^#/ && $c["file"] == file && ($c["device"] in arch) && !seen[$c["device"]]++ {
            d = $c["device"]; list[arch[d]] = list[arch[d]] (list[arch[d]] == "" ? "" : ",") d }
        END { for (a in list) print a, list[a] }' "$isa_table" "$published" | sort
}
# device_table FILE: devices.tsv with only the devices FILE's published rows name.
device_table() {
    awk -F'\t' -v file="$1" 'FNR == 1 { part++ }
        part == 1 { if (FNR == 1) { for (i = 1; i <= NF; i++) c[$i] = i; next } if ($c["file"] == file) want[$c["device"]] = 1; next }
        /^#/ || /^device\t/ || ($1 in want)' "$published" "$devices"
}
# slices FILE: "N1 N2 N" when programs.tsv traces FILE in two slices, else nothing.
slices() { awk -F'\t' -v file="$1" '!/^#/ && $1 == file && $2 == "slices" { print $3 }' "$programs_table"; }
# profile NAME FILE OUTDIR [ARGS...]: the trace build's counts, the compiled-code
# facts and the model, as make profile FILE=... makes them, in OUTDIR.
profile() {
    local name=$1 file=$2 dir=$3
    shift 3
    mkdir -p "$dir"
    (cd "$root" && MODEL_DEVICES="$out/$name.devices.tsv" PROFILE_STANDALONE=1 PROFILE_SOURCE="common/cpu/model/validation/$file" \
        bash common/cpu/trace/profile.sh "build/trace/standalone/$name" "$dir" - "$@") >"$dir/$name.txt" 2>&1 ||
        { cat "$dir/$name.txt" >&2; die "the profile of $file failed"; }
}
# keep_counters TABLE: a profile's per-kernel table without the model's own columns.
keep_counters() {
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i !~ /_(g80|m2050|k20c|mi210|mi250x?|mi100|a100|gfx906|h100)(_ms)?$/) keep[++n] = i }
        { line = $keep[1]; for (j = 2; j <= n; j++) line = line "\t" $keep[j]; print line }' "$1"
}

for file in $programs; do
    name=${file%.hip}
    device_table "$file" >"$out/$name.devices.tsv"
    if [ "$mode" = trace ]; then
        start=$(date +%s)
        echo "validate: tracing $file" >&2
        (cd "$root" && make --no-print-directory -s HIP_PLATFORM=cpu TRACE=1 "build/trace/standalone/$name" \
            STANDALONE_SOURCE="common/cpu/model/validation/$file") >&2
        mkdir -p "$counts"
        read -r n1 n2 n <<<"$(slices "$file")" || true
        if [ -n "${n:-}" ]; then
            # Two slices, every count extended in a straight line to n.
            profile "$name" "$file" "$out/$name.slice1" "$n1"
            profile "$name" "$file" "$out/$name.slice2" "$n2"
            keep_counters "$out/$name.slice1/$name.tsv" >"$out/$name.slice1/$name.counters.tsv"
            keep_counters "$out/$name.slice2/$name.tsv" >"$out/$name.slice2/$name.counters.tsv"
            for part in counters mix waits; do
                awk -F'\t' -v n1="$n1" -v n2="$n2" -v n="$n" -f "$here/../extrapolate.awk" \
                    "$out/$name.slice1/$name.$part.tsv" "$out/$name.slice2/$name.$part.tsv" >"$counts/$name.$part.tsv"
            done
        else
            profile "$name" "$file" "$out"
            keep_counters "$out/$name.tsv" >"$counts/$name.counters.tsv"
            cp "$out/$name.mix.tsv" "$counts/$name.mix.tsv"
            cp "$out/$name.waits.tsv" "$counts/$name.waits.tsv"
        fi
        # The same program at wave 32, for devices with warps of 32, and nvcc's sm_90 code
        # joined with it (ptx_facts.sh; in two slices extended to n, as above, for a
        # program traced in slices).
        if grep -qx "$file" <<<"$narrow_programs"; then
            echo "validate: tracing $file at wave 32" >&2
            (cd "$root" && make --no-print-directory -s HIP_PLATFORM=cpu TRACE=1 WAVE=32 "build/trace-wave32/standalone/$name" \
                STANDALONE_SOURCE="common/cpu/model/validation/$file") >&2
            runs=("") # one whole run, or one run per slice
            [ -z "${n:-}" ] || runs=("$n1" "$n2")
            compiled=
            for arg in "${runs[@]}"; do
                w32=$out/$name.wave32$arg
                HIPCPU_PROFILE="$w32.raw.tsv" HIPCPU_PROFILE_SITES="$w32.sites.tsv" HIPCPU_PROFILE_LINES="$w32.lines.tsv" \
                    "$root/build/trace-wave32/standalone/$name" $arg >"$out/$name.wave32.log" 2>&1 ||
                    { cat "$out/$name.wave32.log" >&2; die "the wave-32 trace of $file failed"; }
                (cd "$root" && PTX_FACTS_COMPILED=$compiled bash common/cpu/model/ptx_facts.sh "common/cpu/model/validation/$file" \
                    "$w32.sites.tsv" "$w32.lines.tsv" "$w32.raw.tsv" "$w32.ptx") >&2 || die "nvcc's facts of $file failed (above)"
                compiled=$w32.ptx
            done
            for part in raw ptx.mix ptx.waits; do
                case $part in raw) kept=$counts/$name.wave32.tsv ;; *) kept=$counts/$name.${part#ptx.}.sm_90.tsv ;; esac
                if [ -n "${n:-}" ]; then
                    awk -F'\t' -v n1="$n1" -v n2="$n2" -v n="$n" -f "$here/../extrapolate.awk" \
                        "$out/$name.wave32$n1.$part.tsv" "$out/$name.wave32$n2.$part.tsv" >"$kept"
                else
                    cp "$out/$name.wave32.$part.tsv" "$kept"
                fi
            done
        fi
        # Each other AMD target's code, joined with the same trace (each slice's, extended).
        while read -r arch _; do
            [ -n "$arch" ] || continue
            echo "validate: $file's code for $arch" >&2
            dirs=("$out") # the profile's folder, or one per slice
            [ -z "${n:-}" ] || dirs=("$out/$name.slice1" "$out/$name.slice2")
            for dir in "${dirs[@]}"; do
                (cd "$root" && ISA_ARCH=$arch bash common/cpu/model/isa_facts.sh "common/cpu/model/validation/$file" \
                    "$dir/$name.sites.tsv" "$dir/$name.lines.tsv" "$dir/$name.tsv" "$dir/$name.$arch") >&2 ||
                    die "hipcc's $arch code of $file failed (above)"
            done
            for part in mix waits; do
                if [ -n "${n:-}" ]; then
                    awk -F'\t' -v n1="$n1" -v n2="$n2" -v n="$n" -f "$here/../extrapolate.awk" "${dirs[0]}/$name.$arch.$part.tsv" \
                        "${dirs[1]}/$name.$arch.$part.tsv" >"$counts/$name.$part.$arch.tsv"
                else
                    cp "$out/$name.$arch.$part.tsv" "$counts/$name.$part.$arch.tsv"
                fi
            done
        done < <(arch_devices "$file")
        echo "validate: $file traced in $(($(date +%s) - start)) s" >&2
    fi
    for part in counters mix waits; do
        [ -f "$counts/$name.$part.tsv" ] || die "no $counts/$name.$part.tsv: run validate.sh trace"
    done
    "$timemodel" "$out/$name.devices.tsv" "$counts/$name.counters.tsv" "$counts/$name.mix.tsv" "$counts/$name.waits.tsv" \
        >"$out/$name.model.tsv"
    # Each other AMD target's devices, on that target's code.
    while read -r arch list; do
        [ -n "$arch" ] || continue
        for part in mix waits; do
            [ -f "$counts/$name.$part.$arch.tsv" ] || die "no $counts/$name.$part.$arch.tsv: run validate.sh trace"
        done
        "$timemodel" --code-for "$list" "$out/$name.devices.tsv" "$counts/$name.counters.tsv" "$counts/$name.mix.$arch.tsv" \
            "$counts/$name.waits.$arch.tsv" >"$out/$name.model-$arch.tsv"
    done < <(arch_devices "$file")
    grep -qx "$file" <<<"$narrow_programs" || continue
    for part in wave32 mix.sm_90 waits.sm_90; do
        [ -f "$counts/$name.$part.tsv" ] || die "no $counts/$name.$part.tsv: run validate.sh trace"
    done
    # Warps of 32: the wave-32 trace's counters and nvcc's sm_90 code.
    list=$(awk -F'\t' -v list="$warp32" 'BEGIN { n = split(list, d, " "); for (i = 1; i <= n; i++) w[d[i]] = 1 }
        !/^#/ && ($1 in w) && !seen[$1]++ { printf "%s%s", sep, $1; sep = "," }' "$out/$name.devices.tsv")
    "$timemodel" --code-for "$list" "$out/$name.devices.tsv" "$counts/$name.wave32.tsv" "$counts/$name.mix.sm_90.tsv" \
        "$counts/$name.waits.sm_90.tsv" >"$out/$name.model-warp32.tsv"
done

# The table, in the README's words; then the rank correlations, the summaries
# and the bar. The model tables are read as FILE.model.tsv (FILE.model-warp32.tsv
# for the devices with warps of 32), each row keyed by its program; then
# FILE.model-ARCH.tsv, whose rows (its target's devices) replace gfx906's code's.
# shellcheck disable=SC2046 # the lists of model tables split into one argument each, on purpose
table=$(awk -F'\t' -v warp32_devices="$warp32" -v bar_out="$out/bar" '
    BEGIN { n = split(warp32_devices, wd, " "); for (i = 1; i <= n; i++) warp32[wd[i]] = 1 }
    function spearman(key,    n, i, a, b, ra, rb, ma, mb, cov, va, vb) {
        n = count[key]
        for (i = 1; i <= n; i++) { a[i] = mod[key, i]; b[i] = pub[key, i] }
        rank(a, n, ra); rank(b, n, rb)
        for (i = 1; i <= n; i++) { ma += ra[i] / n; mb += rb[i] / n }
        for (i = 1; i <= n; i++) { cov += (ra[i] - ma) * (rb[i] - mb); va += (ra[i] - ma) ^ 2; vb += (rb[i] - mb) ^ 2 }
        if (vb == 0) { pub_equal[key] = 1; return "undefined (published times all equal)" }
        if (va == 0) return "undefined (modelled times all equal)"
        rho[key] = cov / sqrt(va * vb); defined[key] = 1
        return sprintf("%.2f", rho[key])
    }
    # rank(v, n, r): ranks from 1, ties sharing their mean rank.
    function rank(v, n, r,    i, j, less, same) {
        for (i = 1; i <= n; i++) {
            less = same = 0
            for (j = 1; j <= n; j++) { if (v[j] < v[i]) less++; else if (v[j] == v[i]) same++ }
            r[i] = less + (same + 1) / 2
        }
    }
    function summary(what, g) {
        if (!rows_in[g]) return
        printf "%s: %d rows; within 0.5x-2x of the published time: %d (%.0f%%); geometric-mean error exp(mean |ln(model / published)|): %.2fx.\n",
            what, rows_in[g], within[g], 100 * within[g] / rows_in[g], exp(abslog[g] / rows_in[g])
    }
    FNR == 1 { file++ }
    file == 1 { if (FNR == 1) { for (i = 1; i <= NF; i++) pc[$i] = i; next } if (!/^#/) rows[++nrows] = $0; next }
    FNR == 1 {
        for (i = 1; i <= NF; i++) mc[$i] = i
        narrow = FILENAME ~ /model-warp32/
        program = FILENAME; sub(/.*\//, "", program); sub(/\.model(-[a-z0-9]+)?\.tsv$/, ".hip", program)
        next
    }
    # A device with warps of 32 from the counts at wave 32, any other from the wave-64 ones.
    (narrow != ($mc["device"] in warp32)) { next }
    { key = program SUBSEP $mc["kernel"] SUBSEP $mc["device"]; model[key] = $mc["model_ms"]; bound[key] = $mc["binding"] }
    END {
        print "| set | program | kernel | device | modelled ms | published ms | model / published | what binds |"
        print "|---|---|---|---|---:|---:|---:|---|"
        for (r = 1; r <= nrows; r++) {
            split(rows[r], f, "\t")
            s = f[pc["set"]]; k = f[pc["kernel"]]; d = f[pc["device"]]; p = f[pc["published_ms"]]
            # measured-DEVICE: timings made here on a lent GPU (make gpu-import), summed up apart
            g = f[pc["legacy"]] == "yes" ? "legacy" : (s ~ /^measured-/ ? "measured" : "new")
            key = f[pc["file"]] SUBSEP k SUBSEP d
            if (!(key in model)) { printf "validate: no model row for %s on %s (%s)\n", k, d, f[pc["file"]] > "/dev/stderr"; exit 1 }
            m = model[key]; ratio = m / p
            rows_in[g]++; within[g] += ratio >= 0.5 && ratio <= 2; abslog[g] += log(ratio) < 0 ? -log(ratio) : log(ratio)
            if (!(s in count)) { order[++groups] = s; group_of[s] = g }
            count[s]++; mod[s, count[s]] = m; pub[s, count[s]] = p
            set_within[s] += ratio >= 0.5 && ratio <= 2; set_abslog[s] += log(ratio) < 0 ? -log(ratio) : log(ratio)
            sd = s SUBSEP d
            if (!(sd in count)) { devices_of[s] = devices_of[s] " " d; ndev[s]++ }
            count[sd]++; mod[sd, count[sd]] = m; pub[sd, count[sd]] = p
            printf "| %s | %s | %s | %s | %.4f | %.4f | %.3f | %s |\n", s (g == "legacy" ? " (legacy)" : ""), f[pc["file"]], k, d, m, p,
                ratio, bound[key]
        }
        print ""
        print "| set | devices | rows | within 0.5x-2x | geometric-mean error | Spearman rank correlation |"
        print "|---|---|---:|---:|---:|---|"
        for (i = 1; i <= groups; i++) {
            s = order[i]; devs = substr(devices_of[s], 2); gsub(/ /, ", ", devs)
            printf "| %s | %s | %d | %d | %.2fx | %s |\n", s (group_of[s] == "legacy" ? " (legacy)" : ""), devs, count[s], set_within[s],
                exp(set_abslog[s] / count[s]), spearman(s)
            if (ndev[s] < 2) continue
            nd = split(substr(devices_of[s], 2), dl, " ")
            for (j = 1; j <= nd; j++) {
                sd = s SUBSEP dl[j]
                if (count[sd] >= 3) printf "| %s, %s alone | %s | %d | | | %s |\n", s, dl[j], dl[j], count[sd], spearman(sd)
            }
        }
        print ""
        summary("Measured sets", "measured")
        summary("New sets", "new")
        summary("Legacy sets", "legacy")
        # The bar: the new sets alone (README.md beside this file).
        share_ok = rows_in["new"] && within["new"] / rows_in["new"] >= 0.8
        gm_ok = rows_in["new"] && exp(abslog["new"] / rows_in["new"]) <= 1.5
        rank_ok = 1; low = ""
        for (i = 1; i <= groups; i++) {
            s = order[i]
            if (group_of[s] != "new" || pub_equal[s]) continue
            if (!defined[s] || rho[s] < 0.8) { rank_ok = 0; low = low (low == "" ? "" : ", ") s }
        }
        printf "The bar for the new sets (at least 80%% of rows within 0.5x-2x, geometric-mean error at most 1.5x, Spearman at least 0.8 in each set whose published times differ): %s (rows within 0.5x-2x: %s; geometric-mean error: %s; Spearman: %s).\n",
            share_ok && gm_ok && rank_ok ? "met" : "not met", share_ok ? "met" : "not met", gm_ok ? "met" : "not met",
            rank_ok ? "met" : "not met in " low
        print (share_ok && gm_ok && rank_ok ? "met" : "not met") > bar_out
    }' "$published" $(for file in $programs; do echo "$out/${file%.hip}.model.tsv"; done) \
    $(for file in $narrow_programs; do echo "$out/${file%.hip}.model-warp32.tsv"; done) \
    $(for file in $programs; do arch_devices "$file" | while read -r arch _; do echo "$out/${file%.hip}.model-$arch.tsv"; done; done))
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
if [ "$mode" = bar ]; then
    [ "$(cat "$out/bar")" = met ] || die "the new sets do not meet the bar (the line above says which part)"
    echo "validate: the new sets meet the bar"
fi
