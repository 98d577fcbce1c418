#!/usr/bin/env bash
# make validate-model: the time model against the times of kernels no one
# here wrote (README.md beside this file). The yardstick is kernels.tsv: every
# kernel of the programs beside this file, each in a project (projects.tsv);
# the projects named in heldout.tsv are the held-out half, the rest the
# development half. A kernel's times are published.tsv's rows: measured here on
# a lent GPU (sets measured-DEVICE, from make gpu-import) or published by its
# authors. Per row: modelled ms, timed ms, their ratio, the term that binds;
# per project and device: rows within 0.5x-2x, the geometric-mean error
# exp(mean |ln(model / timed)|) and the Spearman rank correlation; per half,
# the same totals. Legacy rows (legacy: yes) are listed and count toward
# nothing but their own line.
#
#   validate.sh trace [FILE...]  trace every program (or those named) again, as
#                                make profile FILE=... does, keep the model's
#                                inputs in counts/, then as write
#   validate.sh cached           the model on the counts kept in counts/ (seconds):
#                                the development half's tables, and the held-out
#                                half's kernels without their figures
#   validate.sh write            as cached, and write results.md
#   validate.sh check            as cached, and fail unless results.md is what this
#                                prints (make test)
#   validate.sh heldout          the held-out half's figures: ISSUE=N must name the
#                                issue, which may read them once (make
#                                validate-heldout ISSUE=N); the reading is logged
#                                in heldout-reads.tsv and kept in
#                                build/profile/validation/heldout-ISSUE.md
#
# Waves: kernels.tsv says which wave a program's code assumes (any, 32, 64).
# It is traced at wave 64 (hipcc's gfx906 code; other AMD targets' code from
# isa.tsv for their devices' rows) unless its code assumes 32 and no row is on
# a wave-64 device, and at wave 32 (nvcc's sm_90 code, for every device with
# warps of 32) unless its code assumes 64 and no row is on a warp-32 device.
# Every program traced at wave 32 is modelled on the H200, the GPU a GPU day
# times, and every one traced at wave 64 on gfx906, so a kernel not yet timed
# still shows what the model says. programs.tsv says how a program is traced
# when not in one run ("slices N1 N2 N": with the argument N1, then N2, every
# count extended in a straight line to N by extrapolate.awk).
#
# TIMEMODEL: the model's program (build/tools/timemodel). HELDOUT_READS: the
# log (default heldout-reads.tsv beside this file; the tests point it elsewhere).
# VALIDATE_JOBS: how many programs trace at once (default: one a core).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
# shellcheck source=common/scripts/lib.sh
. "$root/common/scripts/lib.sh"
SCRIPT_NAME=validate
mode=${1:-cached}
case $mode in trace | cached | write | check | heldout) ;; *) die_usage "usage: validate.sh trace [FILE...]|cached|write|check|heldout" ;; esac
[ $# -eq 0 ] || shift
[ "$mode" = trace ] || [ $# -eq 0 ] || die_usage "validate.sh $mode takes no file names"
kernels=$here/kernels.tsv published=$here/published.tsv devices=$here/devices.tsv heldout=$here/heldout.tsv
counts=$here/counts programs_table=$here/programs.tsv isa_table=$here/isa.tsv results=$here/results.md
reads=${HELDOUT_READS:-$here/heldout-reads.tsv}
if [ "$mode" = heldout ]; then
    [[ ${ISSUE:-} =~ ^[1-9][0-9]{0,5}$ ]] ||
        die_usage "make validate-heldout needs ISSUE=N, the issue whose one reading of the held-out half this is"
    if [ -f "$reads" ] && awk -F'\t' -v issue="$ISSUE" '!/^#/ && $2 == issue { found = 1 } END { exit !found }' "$reads"; then
        die "the held-out half was read for issue $ISSUE already ($(awk -F'\t' -v issue="$ISSUE" '!/^#/ && $2 == issue { print $1 ", commit " $3; exit }' "$reads")): it is read once per issue; that reading is in $reads"
    fi
fi
timemodel=${TIMEMODEL:-$root/build/tools/timemodel}
[ -x "$timemodel" ] || die "$timemodel is not built (make $timemodel)"
out=$root/build/profile/validation
mkdir -p "$out"

# column NAME TABLE: the values of one named column, one per data row.
column() { awk -F'\t' -v name="$1" '/^#/ { next } !c { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } { print $c }' "$2"; }
# The tables must agree before anything runs: every published row's kernel is in
# kernels.tsv, every kernel's project in projects.tsv, every program a file here,
# one wave per program.
awk -F'\t' 'FNR == 1 { part++ } /^#/ { next }
    !seen_header[part]++ { for (i = 1; i <= NF; i++) c[part, $i] = i; next }
    part == 1 { known[$1] = 1; next }
    part == 2 {
        k = $c[2, "file"] SUBSEP $c[2, "kernel"]; file = $c[2, "file"]
        if (k in yard) { printf "validate: kernels.tsv lists %s (%s) twice\n", $c[2, "kernel"], file > "/dev/stderr"; bad = 1 }
        yard[k] = 1
        if (!($c[2, "project"] in known)) { printf "validate: kernels.tsv: project %s of %s is not in projects.tsv\n", $c[2, "project"], file > "/dev/stderr"; bad = 1 }
        w = $c[2, "wave"]
        if (w != "any" && w != 32 && w != 64) { printf "validate: kernels.tsv: wave %s of %s: not any, 32 or 64\n", w, file > "/dev/stderr"; bad = 1 }
        if ((file in wave) && wave[file] != w) { printf "validate: kernels.tsv: %s has kernels of waves %s and %s\n", file, wave[file], w > "/dev/stderr"; bad = 1 }
        wave[file] = w; next
    }
    part == 3 { if (!($1 in known)) { printf "validate: heldout.tsv names %s, which projects.tsv does not\n", $1 > "/dev/stderr"; bad = 1 } next }
    { k = $c[4, "file"] SUBSEP $c[4, "kernel"]
      if (!(k in yard)) { printf "validate: published.tsv times %s (%s), which kernels.tsv does not list\n", $c[4, "kernel"], $c[4, "file"] > "/dev/stderr"; bad = 1 } }
    END { exit bad }' "$here/projects.tsv" "$kernels" "$heldout" "$published" || die "the validation tables disagree (above)"
programs=$(column file "$kernels" | sort -u)
for file in $programs; do [ -f "$here/$file" ] || die "kernels.tsv names $file, which is not in $here"; done
if [ "$mode" = trace ] && [ $# -gt 0 ]; then
    for file in "$@"; do grep -qx "$file" <<<"$programs" || die "validate.sh trace $file: not a program of kernels.tsv"; done
fi

# wave_of FILE: any, 32 or 64 (kernels.tsv).
wave_of() { awk -F'\t' -v file="$1" '/^#/ { next } !c { for (i = 1; i <= NF; i++) h[$i] = i; c = 1; next } $h["file"] == file { print $h["wave"]; exit }' "$kernels"; }
# devices_of FILE WAVE_SIZE: the devices of FILE's published rows with that wave size.
devices_of() {
    awk -F'\t' -v file="$1" -v w="$2" 'FNR == 1 { part++ } /^#/ { next }
        part == 1 { if ($2 == "wave_size") size[$1] = $3; next }
        !c { for (i = 1; i <= NF; i++) h[$i] = i; c = 1; next }
        $h["file"] == file && size[$h["device"]] == w && !seen[$h["device"]]++ { print $h["device"] }' "$devices" "$published"
}
# traced_at FILE 64|32: whether FILE is traced at that wave (the header).
traced_at() {
    local wave
    wave=$(wave_of "$1")
    if [ "$2" = 64 ]; then [ "$wave" != 32 ] || [ -n "$(devices_of "$1" 64)" ]; else [ "$wave" != 64 ] || [ -n "$(devices_of "$1" 32)" ]; fi
}
# arch_devices FILE: per AMD target other than gfx906 that FILE's published rows
# name a device of, one line "ARCH DEVICE[,DEVICE...]".
arch_devices() {
    awk -F'\t' -v file="$1" 'FNR == 1 { part++ }
        part == 1 { if (!/^#/ && $1 != "device" && $2 != "gfx906") arch[$1] = $2; next }
        /^#/ { next }
        !c { for (i = 1; i <= NF; i++) h[$i] = i; c = 1; next }
        $h["file"] == file && ($h["device"] in arch) && !seen[$h["device"]]++ {
            d = $h["device"]; list[arch[d]] = list[arch[d]] (list[arch[d]] == "" ? "" : ",") d }
        END { for (a in list) print a, list[a] }' "$isa_table" "$published" | sort
}
# device_table FILE: devices.tsv with the devices FILE's published rows name, and
# gfx906 and h200 where FILE is traced at their wave.
device_table() {
    local extra=""
    traced_at "$1" 64 && extra="gfx906"
    traced_at "$1" 32 && extra="$extra h200"
    awk -F'\t' -v file="$1" -v extra="$extra" 'BEGIN { n = split(extra, e, " "); for (i = 1; i <= n; i++) want[e[i]] = 1 }
        FNR == 1 { part++ }
        part == 1 { if (/^#/) next; if (!c) { for (i = 1; i <= NF; i++) h[$i] = i; c = 1; next } if ($h["file"] == file) want[$h["device"]] = 1; next }
        /^#/ || /^device\t/ || ($1 in want)' "$published" "$devices"
}
# slices FILE: "N1 N2 N" when programs.tsv traces FILE in two slices, else nothing.
slices() { awk -F'\t' -v file="$1" '!/^#/ && $1 == file && $2 == "slices" { print $3 }' "$programs_table"; }
# profile NAME FILE OUTDIR [ARGS...]: the trace build's counts, the compiled-code
# facts and the model, as make profile FILE=... makes them, in OUTDIR (wave 64).
profile() {
    local name=$1 file=$2 dir=$3
    shift 3
    mkdir -p "$dir"
    (cd "$root" && MODEL_DEVICES="$out/$name.devices.tsv" PROFILE_STANDALONE=1 PROFILE_WARP32_BINARY='' \
        PROFILE_SOURCE="common/cpu/model/validation/$file" \
        bash common/cpu/trace/profile.sh "build/trace/standalone/$name" "$dir" - "$@") >"$dir/$name.txt" 2>&1 ||
        { cat "$dir/$name.txt" >&2; die "the profile of $file failed"; }
}
# keep_counters TABLE: a profile's per-kernel table without the model's own columns.
keep_counters() {
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i !~ /_(g80|m2050|k20c|mi210|mi250x?|mi100|a100|v100|gfx906|h100|h200)(_ms)?$/) keep[++n] = i }
        { line = $keep[1]; for (j = 2; j <= n; j++) line = line "\t" $keep[j]; print line }' "$1"
}
# extend PART FILE_N1 FILE_N2 KEPT: a table of two slices extended to n (extrapolate.awk).
extend() { awk -F'\t' -v n1="$n1" -v n2="$n2" -v n="$n" -f "$here/../extrapolate.awk" "$1" "$2" >"$3"; }

# trace_wave64 NAME FILE: the wave-64 trace, gfx906's facts and each other AMD
# target's, into counts/.
trace_wave64() {
    local name=$1 file=$2
    (cd "$root" && make --no-print-directory -s HIP_PLATFORM=cpu TRACE=1 "build/trace/standalone/$name" \
        STANDALONE_SOURCE="common/cpu/model/validation/$file") >&2
    local dirs=("$out")
    if [ -n "${n:-}" ]; then
        dirs=("$out/$name.slice1" "$out/$name.slice2")
        profile "$name" "$file" "${dirs[0]}" "$n1"
        profile "$name" "$file" "${dirs[1]}" "$n2"
        keep_counters "${dirs[0]}/$name.tsv" >"${dirs[0]}/$name.counters.tsv"
        keep_counters "${dirs[1]}/$name.tsv" >"${dirs[1]}/$name.counters.tsv"
        for part in counters mix waits; do
            extend "${dirs[0]}/$name.$part.tsv" "${dirs[1]}/$name.$part.tsv" "$counts/$name.$part.tsv"
        done
    else
        profile "$name" "$file" "$out"
        keep_counters "$out/$name.tsv" >"$counts/$name.counters.tsv"
        cp "$out/$name.mix.tsv" "$counts/$name.mix.tsv"
        cp "$out/$name.waits.tsv" "$counts/$name.waits.tsv"
    fi
    while read -r arch _; do
        [ -n "$arch" ] || continue
        echo "validate: $file's code for $arch" >&2
        for dir in "${dirs[@]}"; do
            (cd "$root" && ISA_ARCH=$arch bash common/cpu/model/isa_facts.sh "common/cpu/model/validation/$file" \
                "$dir/$name.sites.tsv" "$dir/$name.lines.tsv" "$dir/$name.tsv" "$dir/$name.$arch") >&2 ||
                die "hipcc's $arch code of $file failed (above)"
        done
        for part in mix waits; do
            if [ -n "${n:-}" ]; then
                extend "${dirs[0]}/$name.$arch.$part.tsv" "${dirs[1]}/$name.$arch.$part.tsv" "$counts/$name.$part.$arch.tsv"
            else
                cp "$out/$name.$arch.$part.tsv" "$counts/$name.$part.$arch.tsv"
            fi
        done
    done < <(arch_devices "$file")
}
# trace_wave32 NAME FILE: the wave-32 trace and nvcc's sm_90 facts, into counts/.
trace_wave32() {
    local name=$1 file=$2
    echo "validate: tracing $file at wave 32" >&2
    (cd "$root" && make --no-print-directory -s HIP_PLATFORM=cpu TRACE=1 WAVE=32 "build/trace-wave32/standalone/$name" \
        STANDALONE_SOURCE="common/cpu/model/validation/$file") >&2
    local runs=("") compiled='' arg w32 part kept # one whole run, or one run per slice
    [ -z "${n:-}" ] || runs=("$n1" "$n2")
    for arg in "${runs[@]}"; do
        w32=$out/$name.wave32$arg
        # shellcheck disable=SC2086 # arg is empty or one number
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
            extend "$out/$name.wave32$n1.$part.tsv" "$out/$name.wave32$n2.$part.tsv" "$kept"
        else
            cp "$out/$name.wave32.$part.tsv" "$kept"
        fi
    done
}

warp32=$(awk -F'\t' '!/^#/ && $2 == "wave_size" && $3 == 32 { printf "%s%s", sep, $1; sep = " " }' "$devices")
# First the traces asked for, VALIDATE_JOBS at a time (default: one a core;
# each trace runs on one), then the model on every program's kept counts.
# The executor and the tools are built once first, so the programs' builds
# running side by side find them made.
# trace_program FILE: FILE's traces, its log in $out/NAME.trace.log, "ok" in
# $out/NAME.trace.status when they all succeeded.
trace_program() {
    local file=$1 name=${1%.hip} start
    start=$(date +%s)
    n1='' n2='' n=''
    read -r n1 n2 n <<<"$(slices "$file")" || true
    if traced_at "$file" 64; then trace_wave64 "$name" "$file"; fi
    if traced_at "$file" 32; then trace_wave32 "$name" "$file"; fi
    echo "validate: $file traced in $(($(date +%s) - start)) s" >&2
    echo ok >"$out/$name.trace.status"
}
for file in $programs; do device_table "$file" >"$out/${file%.hip}.devices.tsv"; done
if [ "$mode" = trace ]; then
    jobs_max=${VALIDATE_JOBS:-$(nproc)}
    [[ $jobs_max =~ ^[1-9][0-9]?$ ]] || die_usage "VALIDATE_JOBS=$jobs_max: not a number of jobs from 1 to 99"
    (cd "$root" && make --no-print-directory -s HIP_PLATFORM=cpu TRACE=1 build/trace/executor.o build/tools/hipcpu_front &&
        make --no-print-directory -s HIP_PLATFORM=cpu TRACE=1 WAVE=32 build/trace-wave32/executor.o) >&2
    mkdir -p "$counts"
    traced=()
    for file in $programs; do
        [ $# -eq 0 ] || printf '%s\n' "$@" | grep -qx "$file" || continue
        name=${file%.hip}
        rm -f "$out/$name.trace.status"
        echo "validate: tracing $file" >&2
        (trace_program "$file") >"$out/$name.trace.log" 2>&1 &
        traced+=("$file")
        while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
    done
    wait || true
    for file in "${traced[@]}"; do
        name=${file%.hip}
        grep -h '^validate: .* traced in ' "$out/$name.trace.log" >&2 || true
        [ -f "$out/$name.trace.status" ] || { cat "$out/$name.trace.log" >&2; die "the traces of $file failed (its log is above)"; }
    done
fi
tables=()
for file in $programs; do
    name=${file%.hip}
    if traced_at "$file" 64; then
        for part in counters mix waits; do
            [ -f "$counts/$name.$part.tsv" ] || die "no $counts/$name.$part.tsv: run validate.sh trace $file"
        done
        "$timemodel" "$out/$name.devices.tsv" "$counts/$name.counters.tsv" "$counts/$name.mix.tsv" "$counts/$name.waits.tsv" \
            >"$out/$name.model.tsv"
        tables+=("$out/$name.model.tsv")
        # Each other AMD target's devices, on that target's code.
        while read -r arch list; do
            [ -n "$arch" ] || continue
            for part in mix waits; do
                [ -f "$counts/$name.$part.$arch.tsv" ] || die "no $counts/$name.$part.$arch.tsv: run validate.sh trace $file"
            done
            "$timemodel" --code-for "$list" "$out/$name.devices.tsv" "$counts/$name.counters.tsv" "$counts/$name.mix.$arch.tsv" \
                "$counts/$name.waits.$arch.tsv" >"$out/$name.model-$arch.tsv"
            tables+=("$out/$name.model-$arch.tsv")
        done < <(arch_devices "$file")
    fi
    if traced_at "$file" 32; then
        for part in wave32 mix.sm_90 waits.sm_90; do
            [ -f "$counts/$name.$part.tsv" ] || die "no $counts/$name.$part.tsv: run validate.sh trace $file"
        done
        # Warps of 32: the wave-32 trace's counters and nvcc's sm_90 code.
        list=$(awk -F'\t' -v list="$warp32" 'BEGIN { n = split(list, d, " "); for (i = 1; i <= n; i++) w[d[i]] = 1 }
            !/^#/ && ($1 in w) && !seen[$1]++ { printf "%s%s", sep, $1; sep = "," }' "$out/$name.devices.tsv")
        "$timemodel" --code-for "$list" "$out/$name.devices.tsv" "$counts/$name.wave32.tsv" "$counts/$name.mix.sm_90.tsv" \
            "$counts/$name.waits.sm_90.tsv" >"$out/$name.model-warp32.tsv"
        tables+=("$out/$name.model-warp32.tsv")
    fi
done

# The tables, in the README's words (report.awk): the development half, or with
# heldout the held-out half; legacy rows apart.
half=development
[ "$mode" = heldout ] && half=held-out
report=$(awk -F'\t' -v half="$half" -v warp32_devices="$warp32" -v summary_out="$out/summary-$half.tsv" \
    -f "$here/report.awk" "$here/projects.tsv" "$heldout" "$kernels" "$published" "${tables[@]}")
case $mode in
trace | write)
    printf '%s\n' "$report" >"$results.new" && mv "$results.new" "$results"
    echo "$report"
    echo "validate: wrote $results" >&2
    ;;
check)
    echo "$report"
    if ! diff <(cat "$results") <(echo "$report") >"$out/check.diff"; then
        error "$results is not what the model gives on the kept counts now (validate.sh write rewrites it):"
        cat "$out/check.diff" >&2
        exit 1
    fi
    echo "validate: results.md is what the model gives on the kept counts"
    ;;
heldout)
    echo "$report" | tee "$out/heldout-$ISSUE.md"
    # the commit read, and whether the model's files differed from it (the log itself aside)
    commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
    [ -z "$(git -C "$root" status --porcelain -- common/cpu/model ":(exclude)${reads#"$root"/}" 2>/dev/null)" ] || commit="$commit+uncommitted"
    [ -f "$reads" ] || printf '# Each reading of the held-out half (validate.sh heldout): once per issue.\ndate\tissue\tcommit\trows\twithin_2x\tgeomean_error\tspearman_per_project\n' >"$reads"
    awk -F'\t' -v date="$(date +%F)" -v issue="$ISSUE" -v commit="$commit" -v OFS='\t' '$1 == "total" { total = $2 OFS $3 OFS $4 }
        $1 == "project" { spear = spear (spear == "" ? "" : "; ") $2 " " $3 ": " $7 }
        END { print date, issue, commit, total, spear }' "$out/summary-$half.tsv" >>"$reads"
    echo "validate: this reading of the held-out half is logged in $reads (issue $ISSUE); kept in $out/heldout-$ISSUE.md" >&2
    ;;
*) echo "$report" ;;
esac
