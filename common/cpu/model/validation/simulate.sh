#!/usr/bin/env bash
# The simulation (common/cpu/model/sim.h) on the yardstick's development half, beside the terms
# while it is judged: make validate-model runs it after its traces. It reads what validate.sh
# trace left in build/profile/validation/ (each program's sites and lines at wave 64 and 32,
# the other AMD targets' assembly, nvcc's PTX), the kept counts, and hipcc's gfx906 assembly,
# compiled here; it never touches a held-out program (heldout.tsv).
#   common/cpu/model/validation/simulate.sh [FILE...]
# Writes build/profile/validation/sim/: NAME.sim[-ARCH|-warp32].tsv per program and code, and
# summary.md, report.awk's tables of the simulated times against the measured and published
# ones, development half only. TIMESIM: the program (build/tools/timesim).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
# shellcheck source=common/scripts/lib.sh
. "$root/common/scripts/lib.sh"
SCRIPT_NAME=simulate
timesim=${TIMESIM:-$root/build/tools/timesim}
[ -x "$timesim" ] || die "$timesim is not built (make $timesim)"
traces=$root/build/profile/validation out=$root/build/profile/validation/sim counts=$here/counts
mkdir -p "$out"
rm -f "$out"/*.tsv
held=$(awk -F'\t' '!/^#/ && $1 != "project" { printf "|%s", $1 } END { print "|" }' "$here/heldout.tsv")
# development FILE...: the programs of the development half (all of them without arguments)
development() {
    awk -F'\t' -v held="$held" -v wanted="$*" 'BEGIN { n = split(wanted, w, " "); for (i = 1; i <= n; i++) ask[w[i]] = 1 }
        !/^#/ && $1 != "file" && index(held, "|" $3 "|") == 0 && (n == 0 || ($1 in ask)) { print $1 }' "$here/kernels.tsv" | sort -u
}
programs=$(development "$@")
[ -n "$programs" ] || die "no program of the development half among: $*"
mapfile -t includes < <(sed 's/^/-I/' "$root/common/include_dirs")
# the devices of a program's published rows, by the code they are modelled on
device_of() { awk -F'\t' -v d="$1" -v f="$2" '!/^#/ && $1 == d && $2 == f { print $3 }' "$here/devices.tsv"; }
arch_of() { awk -F'\t' -v d="$1" '!/^#/ && $1 == d { print $2 }' "$here/isa.tsv"; }
extend() { awk -F'\t' -v n1="$1" -v n2="$2" -v n="$3" -f "$here/../extrapolate.awk" "$4" "$5" >"$6"; }
tables=()
for file in $programs; do
    name=${file%.hip}
    [ -f "$traces/$name.devices.tsv" ] || die "no traces of $file in $traces: run make validate-model first"
    read -r n1 n2 n <<<"$(awk -F'\t' -v f="$file" '!/^#/ && $1 == f && $2 == "slices" { print $3 }' "$here/programs.tsv")" || true
    devices=$(awk -F'\t' '!/^#/ && $1 != "device" { print $1 }' "$traces/$name.devices.tsv" | sort -u)
    # Wave 64: the counts at the full size (slices extended), gfx906's code and each other target's.
    if [ -f "$traces/$name.sites.tsv" ] || [ -d "$traces/$name.slice1" ]; then
        code_dir=$traces
        if [ -n "${n:-}" ]; then
            for part in sites lines; do
                extend "$n1" "$n2" "$n" "$traces/$name.slice1/$name.$part.tsv" "$traces/$name.slice2/$name.$part.tsv" "$out/$name.64.$part.tsv"
            done
            code_dir=$traces/$name.slice1
        else
            for part in sites lines; do cp "$traces/$name.$part.tsv" "$out/$name.64.$part.tsv"; done
        fi
        HIP_PLATFORM=amd "${HIPCC:-hipcc}" -O3 -std=c++17 --offload-arch=gfx906 -DHIP_WAVE_SIZE=64 "${includes[@]}" \
            -gline-tables-only -Wno-unused-command-line-argument --cuda-device-only -S "$here/$file" \
            -o "$out/$name.gfx906.s" 2>"$out/$name.hipcc.log" || { cat "$out/$name.hipcc.log" >&2; die "hipcc could not compile $file"; }
        for arch in gfx906 gfx908 gfx90a gfx940; do
            list=''
            for d in $devices; do
                [ "$(device_of "$d" wave_size)" = 64 ] || continue
                a=$(arch_of "$d")
                [ "${a:-gfx906}" = "$arch" ] && list=$list${list:+,}$d
            done
            [ -n "$list" ] || continue
            code=$code_dir/$name.$arch.$arch.s mix=$counts/$name.mix.$arch.tsv table=$out/$name.sim-$arch.tsv
            [ "$arch" != gfx906 ] || { code=$out/$name.gfx906.s mix=$counts/$name.mix.tsv table=$out/$name.sim.tsv; }
            [ -f "$code" ] || die "no $code: run make validate-model first"
            bash "$here/../code_names.sh" "$code" >"$out/$name.$arch.names"
            "$timesim" --code gcn "$code" --names "$out/$name.$arch.names" --mix "$mix" --code-for "$list" "$here/devices.tsv" \
                "$counts/$name.counters.tsv" "$out/$name.64.sites.tsv" "$out/$name.64.lines.tsv" >"$table"
            tables+=("$table")
        done
    fi
    # Warps of 32: the wave-32 counts and nvcc's PTX.
    w32=$traces/$name.wave32
    [ -z "${n:-}" ] || w32=$traces/$name.wave32$n1
    [ -f "$w32.sites.tsv" ] || continue
    list=''
    for d in $devices; do [ "$(device_of "$d" wave_size)" = 32 ] && list=$list${list:+,}$d; done
    [ -n "$list" ] || continue
    if [ -n "${n:-}" ]; then
        for part in sites lines; do
            extend "$n1" "$n2" "$n" "$traces/$name.wave32$n1.$part.tsv" "$traces/$name.wave32$n2.$part.tsv" "$out/$name.32.$part.tsv"
        done
    else
        for part in sites lines; do cp "$w32.$part.tsv" "$out/$name.32.$part.tsv"; done
    fi
    bash "$here/../code_names.sh" "$w32.ptx.sm_90.ptx" >"$out/$name.ptx.names"
    "$timesim" --code ptx "$w32.ptx.sm_90.ptx" --names "$out/$name.ptx.names" --mix "$counts/$name.mix.sm_90.tsv" \
        --code-for "$list" "$here/devices.tsv" "$counts/$name.wave32.tsv" "$out/$name.32.sites.tsv" "$out/$name.32.lines.tsv" \
        >"$out/$name.sim-warp32.tsv"
    tables+=("$out/$name.sim-warp32.tsv")
done
# report.awk reads NAME.model[-x].tsv tables of model_ms and binding, of the development half alone.
mkdir -p "$out/report"
rm -f "$out/report"/*.tsv
for table in "${tables[@]}"; do
    base=$(basename "$table")
    awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print "kernel", "device", "model_ms", "binding"; next }
        { print $c["kernel"], $c["device"], $c["model_ms"], $c["binding"] }' \
        "$table" >"$out/report/${base/.sim/.model}"
done
awk -F'\t' -v held="$held" '/^#/ || $1 == "file" || index(held, "|" $3 "|") == 0' "$here/kernels.tsv" >"$out/kernels.tsv"
awk -F'\t' 'FNR == 1 { part++ } part == 1 { if (!/^#/ && $1 != "file") dev[$1] = 1; next }
    /^#/ || !h++ { print; if (!/^#/) for (i = 1; i <= NF; i++) c[$i] = i; next } ($c["file"] in dev)' \
    "$out/kernels.tsv" "$here/published.tsv" >"$out/published.tsv"
warp32=$(awk -F'\t' '!/^#/ && $2 == "wave_size" && $3 == 32 { printf "%s%s", sep, $1; sep = " " }' "$here/devices.tsv")
awk -F'\t' -v half=development -v warp32_devices="$warp32" -v summary_out="$out/summary.tsv" -f "$here/report.awk" \
    "$here/projects.tsv" "$here/heldout.tsv" "$out/kernels.tsv" "$out/published.tsv" "$out"/report/*.tsv >"$out/summary.md"
awk -F'\t' '$1 == "total" { printf "simulate: development half, %s rows with a time, %s within 2x, geometric-mean error %sx\n", $2, $3, $4 }' \
    "$out/summary.tsv"
echo "simulate: the tables are in $out/summary.md" >&2
