#!/usr/bin/env bash
# make validate-model: the time model (the simulation, common/model/sim.h)
# against the times of kernels no one here wrote (README.md beside this file).
# The yardstick is kernels.tsv: every kernel of the programs beside this file,
# each in a project (projects.tsv); the projects named in heldout.tsv are the
# held-out half, the rest the development half. A kernel's times are
# published.tsv's rows: measured here on a lent GPU (sets measured-DEVICE, from
# make gpu-import) or published by its authors. Per row: modelled ms, timed ms,
# their ratio, what binds; per project and device: rows within 0.5x-2x, the
# geometric-mean error exp(mean |ln(model / timed)|) and the Spearman rank
# correlation; per half, the same totals. Legacy rows (legacy: yes) are listed
# and count toward nothing but their own line.
#
#   validate.sh trace [FILE...]  trace every program (or those named) again, as
#                                make profile FILE=... does, compile each code it
#                                is modelled on, and keep in counts/ the counters
#                                and, for the development half, the simulated
#                                times (NAME.model[-ARCH|-warp32].tsv); then, all
#                                traced, as write
#   validate.sh simulate [FILE...]  the development half's programs (or those named)
#                                simulated again on the traces and code validate.sh
#                                trace left in build/profile/validation (seconds a
#                                program: model work), their times kept in counts/;
#                                then, all simulated, as write
#   validate.sh cached           the tables of the simulated times kept in counts/
#                                (seconds): the development half's, and the
#                                held-out half's kernels without their figures
#   validate.sh write            as cached, and write results.md
#   validate.sh check            as cached, and fail unless results.md is what this
#                                prints (make test)
#   validate.sh heldout          the held-out half simulated on its traces (those
#                                validate.sh trace left in build/profile/validation)
#                                and its figures: ISSUE=N must name the issue, which
#                                may read them once (make validate-heldout ISSUE=N);
#                                the reading is logged in heldout-reads.tsv and kept
#                                in build/profile/validation/heldout-ISSUE.md
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
# TIMESIM: the model's program (build/tools/timesim). HELDOUT_READS: the log
# (default heldout-reads.tsv beside this file; the tests point it elsewhere).
# VALIDATE_JOBS: how many programs trace at once (default: one a core).
# VALIDATE_COUNTS, VALIDATE_OUT: where the kept tables and the traces go
# (default counts/ beside this file and build/profile/validation; the tests
# trace into folders of their own).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
# shellcheck source=common/scripts/lib.sh
. "$root/common/scripts/lib.sh"
SCRIPT_NAME=validate
mode=${1:-cached}
case $mode in trace | simulate | cached | write | check | heldout) ;; *) die_usage "usage: validate.sh trace|simulate [FILE...]|cached|write|check|heldout" ;; esac
[ $# -eq 0 ] || shift
[ "$mode" = trace ] || [ "$mode" = simulate ] || [ $# -eq 0 ] || die_usage "validate.sh $mode takes no file names"
kernels=$here/kernels.tsv published=$here/published.tsv devices=$here/devices.tsv heldout=$here/heldout.tsv
counts=${VALIDATE_COUNTS:-$here/counts} programs_table=$here/programs.tsv isa_table=$here/isa.tsv results=$here/results.md
reads=${HELDOUT_READS:-$here/heldout-reads.tsv}
if [ "$mode" = heldout ]; then
    [[ ${ISSUE:-} =~ ^[1-9][0-9]{0,5}$ ]] ||
        die_usage "make validate-heldout needs ISSUE=N, the issue whose one reading of the held-out half this is"
    if [ -f "$reads" ] && awk -F'\t' -v issue="$ISSUE" '!/^#/ && $2 == issue { found = 1 } END { exit !found }' "$reads"; then
        die "the held-out half was read for issue $ISSUE already ($(awk -F'\t' -v issue="$ISSUE" '!/^#/ && $2 == issue { print $1 ", commit " $3; exit }' "$reads")): it is read once per issue; that reading is in $reads"
    fi
fi
timesim=${TIMESIM:-$root/build/tools/timesim}
[ -x "$timesim" ] || die "$timesim is not built (make $timesim)"
out=${VALIDATE_OUT:-$root/build/profile/validation}
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
if [ $# -gt 0 ]; then
    for file in "$@"; do grep -qx "$file" <<<"$programs" || die "validate.sh $mode $file: not a program of kernels.tsv"; done
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
        PROFILE_SOURCE="common/model/validation/$file" \
        bash common/tracer/profile.sh "build/trace/standalone/$name" "$dir" - "$@") >"$dir/$name.txt" 2>&1 ||
        { cat "$dir/$name.txt" >&2; die "the profile of $file failed"; }
}
# keep_counters TABLE: a profile's per-kernel table without the model's own columns (NAME_DEVICE).
keep_counters() {
    awk -F'\t' 'FNR == 1 { part++ } part == 1 { if (!/^#/ && $1 != "device") model = model "|" $1; next }
        FNR == 1 { for (i = 1; i <= NF; i++) if ($i !~ "_(" substr(model, 2) ")(_ms)?$") keep[++n] = i }
        { line = $keep[1]; for (j = 2; j <= n; j++) line = line "\t" $keep[j]; print line }' "$devices" "$1"
}
# extend PART FILE_N1 FILE_N2 KEPT: a table of two slices extended to n (extrapolate.awk).
extend() { awk -F'\t' -v n1="$n1" -v n2="$n2" -v n="$n" -f "$here/../extrapolate.awk" "$1" "$2" >"$3"; }

# trace_wave64 NAME FILE: the wave-64 trace and hipcc's gfx906 code (profile.sh), each other AMD
# target's code, and the counters into counts/.
trace_wave64() {
    local name=$1 file=$2
    (cd "$root" && make --no-print-directory -s HIP_PLATFORM=cpu TRACE=1 "build/trace/standalone/$name" \
        STANDALONE_SOURCE="common/model/validation/$file") >&2
    local dirs=("$out")
    if [ -n "${n:-}" ]; then
        dirs=("$out/$name.slice1" "$out/$name.slice2")
        profile "$name" "$file" "${dirs[0]}" "$n1"
        profile "$name" "$file" "${dirs[1]}" "$n2"
        keep_counters "${dirs[0]}/$name.tsv" >"${dirs[0]}/$name.counters.tsv"
        keep_counters "${dirs[1]}/$name.tsv" >"${dirs[1]}/$name.counters.tsv"
        extend "${dirs[0]}/$name.counters.tsv" "${dirs[1]}/$name.counters.tsv" "$counts/$name.counters.tsv"
    else
        profile "$name" "$file" "$out"
        keep_counters "$out/$name.tsv" >"$counts/$name.counters.tsv"
    fi
    [ -f "${dirs[0]}/$name.gfx906.s" ] || die "no gfx906 code of $file (its profile: ${dirs[0]}/$name.txt)"
    while read -r arch _; do
        [ -n "$arch" ] || continue
        echo "validate: $file's code for $arch" >&2
        (cd "$root" && ISA_ARCH=$arch bash common/model/compile.sh gcn "common/model/validation/$file" \
            "${dirs[0]}/$name.$arch.s") >&2 || die "hipcc's $arch code of $file failed (above)"
    done < <(arch_devices "$file")
}
# trace_wave32 NAME FILE: the wave-32 trace (one run, or one per slice), nvcc's sm_90 code, and
# the counters into counts/.
trace_wave32() {
    local name=$1 file=$2
    echo "validate: tracing $file at wave 32" >&2
    (cd "$root" && make --no-print-directory -s HIP_PLATFORM=cpu TRACE=1 WAVE=32 "build/trace-wave32/standalone/$name" \
        STANDALONE_SOURCE="common/model/validation/$file") >&2
    local runs=("") arg w32
    [ -z "${n:-}" ] || runs=("$n1" "$n2")
    for arg in "${runs[@]}"; do
        w32=$out/$name.wave32$arg
        # shellcheck disable=SC2086 # arg is empty or one number
        HIPCPU_PROFILE="$w32.raw.tsv" HIPCPU_PROFILE_SITES="$w32.sites.tsv" HIPCPU_PROFILE_LINES="$w32.lines.tsv" \
            "$root/build/trace-wave32/standalone/$name" $arg >"$out/$name.wave32.log" 2>&1 ||
            { cat "$out/$name.wave32.log" >&2; die "the wave-32 trace of $file failed"; }
    done
    (cd "$root" && bash common/model/compile.sh ptx "common/model/validation/$file" "$out/$name.ptx") >&2 ||
        die "nvcc's code of $file failed (above)"
    if [ -n "${n:-}" ]; then
        extend "$out/$name.wave32$n1.raw.tsv" "$out/$name.wave32$n2.raw.tsv" "$counts/$name.wave32.tsv"
    else
        cp "$out/$name.wave32.raw.tsv" "$counts/$name.wave32.tsv"
    fi
}
# simulate FILE DEST: the simulation of FILE's kernels on every device of its published rows (and
# gfx906 and h200 where traced at their wave), each on the code it ran (isa.tsv's target; warps of
# 32 on nvcc's), from the counts at the program's full size (slices extended), into
# DEST/NAME.model[-ARCH|-warp32].tsv: kernel, device, model_ms, binding (report.awk's tables).
simulate() {
    local file=$1 dest=$2 name=${1%.hip} n1='' n2='' n='' program_devices d a arch list code table sim=$out/sim
    mkdir -p "$sim"
    read -r n1 n2 n <<<"$(slices "$file")" || true
    program_devices=$(awk -F'\t' '!/^#/ && $1 != "device" { print $1 }' "$out/$name.devices.tsv" | sort -u)
    if traced_at "$file" 64; then
        local code_dir=$out
        if [ -n "$n" ]; then
            for part in sites lines; do
                awk -F'\t' -v n1="$n1" -v n2="$n2" -v n="$n" -f "$here/../extrapolate.awk" \
                    "$out/$name.slice1/$name.$part.tsv" "$out/$name.slice2/$name.$part.tsv" >"$sim/$name.64.$part.tsv"
            done
            code_dir=$out/$name.slice1
        else
            for part in sites lines; do
                [ -f "$out/$name.$part.tsv" ] || die "no traces of $file in $out: run validate.sh trace $file"
                cp "$out/$name.$part.tsv" "$sim/$name.64.$part.tsv"
            done
        fi
        for arch in gfx906 gfx908 gfx90a gfx940; do
            list=''
            for d in $program_devices; do
                [ "$(device_figure "$d" wave_size)" = 64 ] || continue
                a=$(awk -F'\t' -v d="$d" '!/^#/ && $1 == d { print $2 }' "$isa_table")
                [ "${a:-gfx906}" = "$arch" ] && list=$list${list:+,}$d
            done
            [ -n "$list" ] || continue
            code=$code_dir/$name.$arch.s table=$dest/$name.model-$arch.tsv
            [ "$arch" != gfx906 ] || { code=$code_dir/$name.gfx906.s table=$dest/$name.model.tsv; }
            [ -f "$code" ] || die "no $code: run validate.sh trace $file"
            bash "$here/../code_names.sh" "$code" >"$sim/$name.$arch.names"
            "$timesim" --code gcn "$code" --names "$sim/$name.$arch.names" --code-for "$list" "$devices_table" \
                "$counts/$name.counters.tsv" "$sim/$name.64.sites.tsv" "$sim/$name.64.lines.tsv" >"$sim/$name.$arch.tsv"
            model_columns "$sim/$name.$arch.tsv" >"$table"
        done
    fi
    if traced_at "$file" 32; then
        list=''
        for d in $program_devices; do [ "$(device_figure "$d" wave_size)" = 32 ] && list=$list${list:+,}$d; done
        [ -n "$list" ] || return 0
        local w32=$out/$name.wave32
        [ -z "$n" ] || w32=$out/$name.wave32$n1
        [ -f "$w32.sites.tsv" ] && [ -f "$out/$name.ptx.sm_90.ptx" ] || die "no wave-32 traces of $file in $out: run validate.sh trace $file"
        for part in sites lines; do
            if [ -n "$n" ]; then
                awk -F'\t' -v n1="$n1" -v n2="$n2" -v n="$n" -f "$here/../extrapolate.awk" \
                    "$out/$name.wave32$n1.$part.tsv" "$out/$name.wave32$n2.$part.tsv" >"$sim/$name.32.$part.tsv"
            else
                cp "$w32.$part.tsv" "$sim/$name.32.$part.tsv"
            fi
        done
        bash "$here/../code_names.sh" "$out/$name.ptx.sm_90.ptx" >"$sim/$name.ptx.names"
        "$timesim" --code ptx "$out/$name.ptx.sm_90.ptx" --names "$sim/$name.ptx.names" --ptxas "$out/$name.ptx.ptxas" \
            --code-for "$list" "$devices_table" "$counts/$name.wave32.tsv" "$sim/$name.32.sites.tsv" \
            "$sim/$name.32.lines.tsv" >"$sim/$name.warp32.tsv"
        model_columns "$sim/$name.warp32.tsv" >"$dest/$name.model-warp32.tsv"
    fi
}
# device_figure DEVICE FIGURE: one figure of devices.tsv.
device_figure() { awk -F'\t' -v d="$1" -v f="$2" '!/^#/ && $1 == d && $2 == f { print $3 }' "$devices_table"; }
devices_table=$devices
# model_columns TABLE: timesim's table as report.awk reads it (kernel, device, model_ms, binding).
model_columns() {
    awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print "kernel", "device", "model_ms", "binding"; next }
        { print $c["kernel"], $c["device"], $c["model_ms"], $c["binding"] }' "$1"
}
# held_out FILE: whether FILE's project is in the held-out half.
held_out() {
    awk -F'\t' -v file="$1" 'FNR == 1 { part++ } /^#/ { next }
        part == 1 { if ($1 != "project") held[$1] = 1; next }
        !c { for (i = 1; i <= NF; i++) h[$i] = i; c = 1; next }
        $h["file"] == file && ($h["project"] in held) { found = 1 } END { exit !found }' "$heldout" "$kernels"
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
    held_out "$file" || simulate "$file" "$counts" # the held-out half is simulated at its one reading alone
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
if [ "$mode" = simulate ]; then
    for file in $programs; do
        [ $# -eq 0 ] || printf '%s\n' "$@" | grep -qx "$file" || continue
        held_out "$file" || simulate "$file" "$counts"
    done
    mode=trace # then as a trace of the same programs
fi
if [ "$mode" = trace ] && [ $# -gt 0 ]; then # some programs traced: results.md waits for validate.sh write
    echo "validate: results.md is unchanged: validate.sh write rewrites it from the kept tables" >&2
    exit 0
fi
# The simulated times: the development half's kept in counts/; with heldout, the held-out half's,
# simulated now from the traces in $out.
tables=()
for file in $programs; do
    name=${file%.hip}
    if held_out "$file"; then
        [ "$mode" = heldout ] || continue
        mkdir -p "$out/heldout"
        rm -f "$out/heldout/$name".model*.tsv
        simulate "$file" "$out/heldout"
        tables+=("$out/heldout/$name".model*.tsv)
    else
        [ "$mode" != heldout ] || continue
        kept=("$counts/$name".model*.tsv)
        [ -f "${kept[0]}" ] || die "no simulated times of $file in $counts: run validate.sh trace $file"
        tables+=("${kept[@]}")
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
        error "$results is not what the kept simulated times give now (validate.sh write rewrites it):"
        cat "$out/check.diff" >&2
        exit 1
    fi
    echo "validate: results.md is what the kept simulated times give"
    ;;
heldout)
    echo "$report" | tee "$out/heldout-$ISSUE.md"
    # the commit read, and whether the model's files differed from it (the log itself aside)
    commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
    [ -z "$(git -C "$root" status --porcelain -- common/model ":(exclude)${reads#"$root"/}" 2>/dev/null)" ] || commit="$commit+uncommitted"
    [ -f "$reads" ] || printf '# Each reading of the held-out half (validate.sh heldout): once per issue.\ndate\tissue\tcommit\trows\twithin_2x\tgeomean_error\tspearman_per_project\n' >"$reads"
    awk -F'\t' -v date="$(date +%F)" -v issue="$ISSUE" -v commit="$commit" -v OFS='\t' '$1 == "total" { total = $2 OFS $3 OFS $4 }
        $1 == "project" { spear = spear (spear == "" ? "" : "; ") $2 " " $3 ": " $7 }
        END { print date, issue, commit, total, spear }' "$out/summary-$half.tsv" >>"$reads"
    echo "validate: this reading of the held-out half is logged in $reads (issue $ISSUE); kept in $out/heldout-$ISSUE.md" >&2
    ;;
*) echo "$report" ;;
esac
