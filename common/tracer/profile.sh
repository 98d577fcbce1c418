#!/usr/bin/env bash
# make profile-N: runs a chapter's trace build for one iteration (chapter 09:
# one epoch) with the executor's counters on, then the time model over them
# (common/model/), and prints what it saw and what it would cost, per
# kernel (common/tracer/profile.awk). Each device is modelled from its own
# code: the devices with waves of 64 (gfx906) from hipcc's gfx906 assembly
# and this trace; those with warps of 32 (h100, h200) from nvcc's sm_90 PTX
# and a second trace of the same run, by the wave-32 trace build
# (build/trace-wave32/, beside the binary) with their CUs
# (HIPCPU_COMPUTE_UNITS), run beside the first. Writes, in OUTDIR:
#   NN-name.tsv         one row per kernel: the counters, the model's times and where they went
#   NN-name.sites.tsv   one row per call site (file:line) and memory space
#   NN-name.lines.tsv   how often a wave ran each source line, per kernel
#   NN-name.model.tsv   the model (the simulation), one row per kernel and device
#   NN-name.source.tsv  the source view: each line's share of its kernel's simulated cycles, by what held them
#   NN-name.gfx906.s, NN-name.sm_90.ptx, NN-name.sm_90.ptxas  the compiled code it simulated
#                       (common/model/compile.sh), and ptxas's registers and shared memory
#   NN-name.w32.tsv, .w32.sites.tsv, .w32.lines.tsv  the wave-32 trace's
#                       counters, sites and lines (the warp-32 devices' counts)
#   NN-name.log         the trainer's own output
# The model needs hipcc (the gfx906 assembly says what the waves issue);
# without it the counts come alone, with a note. Without nvcc or the wave-32
# build, the warp-32 devices are modelled on gfx906's code and the wave-64
# counts, at their most occupancy, with a note saying so.
# Usage: profile.sh TRACE_BINARY OUTDIR DATASET_DIR [TRAINER OPTIONS...]
# PROFILE_SLICES="N1 N2": trace N1 and N2 images and extend every count to the
# whole training set (make compare: seconds instead of minutes a chapter).
# PROFILE_SOURCE: the kernels' source (default: the chapter's train.hip);
# PROFILE_STANDALONE=1: the binary is a program of its own (make profile
# FILE=...), run with the options alone, no dataset;
# PROFILE_WARP32_BINARY: the wave-32 trace build of the same program (default:
# for a chapter, build/trace-wave32/NN-name beside build/trace/NN-name; for a
# program of one's own, none unless given: make profile FILE=... gives
# build/trace-wave32/standalone/KEY/NAME);
# PROFILE_SAMPLE=N: trace about N blocks of each launch of more, in whole
# rounds of HIPCPU_COMPUTE_UNITS blocks, and scale the counts to the grid
# (HIPCPU_SAMPLE_BLOCKS; common/executor/README.md, "Sampling"); empty or 0: every block;
# PROFILE_CUDA=1: a CUDA program of one's own, traced at warp 32 (the binary
# is its wave-32 build): it leads with the warp-32 devices, from nvcc's code of
# the file itself and this trace; gfx906 comes beside them from hipcc's code
# (through common/executor/cuda/) and PROFILE_WAVE64_BINARY's trace, when both
# come (a program written for warps of 32 may fail at 64: the note says so);
# MODEL_DEVICES: the device table (default common/model/devices.tsv);
# TIMESIM: the model's program (default: build/tools/timesim);
# NVCC: nvcc (default: on the PATH, else /usr/local/cuda/bin/nvcc).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=common/scripts/lib.sh
. "$root/common/scripts/lib.sh"
SCRIPT_NAME=profile
binary=$1 outdir=$2 dataset=$3
shift 3
chapter=$(basename "$binary")
mkdir -p "$outdir"
# Everything is made under a work folder and moved into place at the end: a
# failed profile leaves the last good one whole.
work=$(mktemp -d "$outdir/.profile-$chapter.XXXXXX")
# A wave-32 trace still running in the background (trace) is stopped first: left alone, it goes on
# writing into the work folder after it is removed.
warp32_pid=
trap '[ -z "$warp32_pid" ] || { kill "$warp32_pid" 2>/dev/null || true; wait "$warp32_pid" 2>/dev/null || true; }; rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
wave=64
case "$binary" in *wave32*) wave=32 ;; esac
source=${PROFILE_SOURCE:-}
if [ -z "$source" ]; then
    for candidate in "$root/chapters/$chapter/train.hip" "$root/build/generated/chapters/$chapter/train.hip"; do
        [ -f "$candidate" ] && { source=$candidate; break; }
    done
fi
timesim=${TIMESIM:-$root/build/tools/timesim}
devices=${MODEL_DEVICES:-$root/common/model/devices.tsv}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
cuda=${PROFILE_CUDA:-}
wave64_binary=${PROFILE_WAVE64_BINARY:-}
wide_note= # CUDA: why gfx906 is not modelled beside the warp-32 devices, if it is not
note=
if [ -n "$cuda" ]; then
    if [ ! -x "$nvcc" ]; then
        note="no model: a CUDA program's is read from nvcc's sm_90 code, and nvcc is not installed (the CUDA toolkit; or set NVCC)"
    elif [ ! -x "$timesim" ]; then
        note="no model: $timesim is not built (make $timesim)"
    fi
elif [ "$wave" != 64 ]; then
    note="no model at wave 32: the model reads gfx906's wave64 code against wave64 counts (make profile-N WAVE=64)"
elif [ -z "$source" ]; then
    note="no model: no source found for $chapter (set PROFILE_SOURCE)"
elif ! command -v "${HIPCC:-hipcc}" >/dev/null; then
    note="no model: it reads the gfx906 assembly, and ${HIPCC:-hipcc} is not installed (make resources installs it as root)"
elif [ ! -x "$timesim" ]; then
    note="no model: $timesim is not built (make $timesim)"
fi

# The devices by wave size: those of 64 read hipcc's gfx906 code and this
# trace; those of 32, nvcc's sm_90 code and a trace at wave 32 with their CUs
# (one count for all of them: the grid of a persistent kernel follows it).
IFS=$'\t' read -r wave64_devices warp32_devices warp32_cus < <(awk -F'\t' '
    !/^#/ && NR > 1 && $2 == "wave_size" { wave[$1] = $3; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
    !/^#/ && NR > 1 && $2 == "compute_units" { cus[$1] = $3 }
    END {
        for (i = 1; i <= n; i++) {
            d = order[i]
            if (wave[d] == 32) { narrow = narrow (narrow == "" ? "" : ",") d; c = (c == "" || c == cus[d]) ? cus[d] : "mixed" }
            else wide = wide (wide == "" ? "" : ",") d
        }
        printf "%s\t%s\t%s\n", (wide == "" ? "-" : wide), (narrow == "" ? "-" : narrow), (c == "" ? "-" : c)
    }' "$devices")
warp32_binary=${PROFILE_WARP32_BINARY-}
if [ -z "${PROFILE_WARP32_BINARY+set}" ] && [ -z "${PROFILE_STANDALONE:-}" ] && [ "$(basename "$(dirname "$binary")")" = trace ]; then
    warp32_binary=$(dirname "$(dirname "$binary")")/trace-wave32/$chapter
fi
# split: the warp-32 devices get their own trace and code; model_note says why not, where they do not.
split="" model_note=""
if [ -n "$cuda" ]; then
    [ -n "$note" ] || [ "$warp32_devices" != - ] || note="no model: $devices has no device with warps of 32"
    [ -n "$wave64_binary" ] && [ -x "$wave64_binary" ] || wide_note="it does not build at wave 64"
    command -v "${HIPCC:-hipcc}" >/dev/null || wide_note="hipcc is not installed (make resources installs it as root)"
elif [ -z "$note" ] && [ "$warp32_devices" != - ]; then
    names=${warp32_devices//,/ and }
    if [ -z "$warp32_binary" ]; then
        [ -n "${PROFILE_STANDALONE:-}" ] || model_note="$names: modelled on gfx906's code and the wave-64 counts (no wave-32 trace build given)"
    elif [ ! -x "$warp32_binary" ]; then
        model_note="$names: modelled on gfx906's code and the wave-64 counts: $warp32_binary is not built (make $warp32_binary WAVE=32 TRACE=1 HIP_PLATFORM=cpu)"
    elif [ ! -x "$nvcc" ]; then
        model_note="$names: modelled on gfx906's code and the wave-64 counts: nvcc is not installed (the CUDA toolkit; or set NVCC)"
    elif [ "$warp32_devices" != - ] && ! [[ $warp32_cus =~ ^[1-9][0-9]*$ ]]; then
        model_note="$names: modelled on gfx906's code and the wave-64 counts: their compute_units differ ($devices), and one trace serves them all"
    else
        split=1
    fi
fi

# run_trace DIR BINARY [TRAINER OPTIONS...]: one traced iteration, its
# counters, sites, lines and log in DIR (HIPCPU_COMPUTE_UNITS as set).
run_trace() {
    local dir=$1 program=$2
    shift 2
    mkdir -p "$dir"
    local command=("$program" "$dataset" 1 --quiet "$@")
    [ -n "${PROFILE_STANDALONE:-}" ] && command=("$program" "$@")
    if ! HIPCPU_PROFILE="$dir/raw.tsv" HIPCPU_PROFILE_SITES="$dir/sites.tsv" HIPCPU_PROFILE_LINES="$dir/lines.tsv" \
        "${command[@]}" >"$dir/log" 2>&1; then
        cat "$dir/log" >&2
        die "$program failed; its output is above"
    fi
    # A program of one's own: its output on the screen too (the first 40 lines).
    if [ -n "${PROFILE_STANDALONE:-}" ] && [ "$dir" = "$work/run" ]; then
        echo "$chapter's own output:"
        head -n 40 "$dir/log"
        [ "$(wc -l <"$dir/log")" -le 40 ] || echo "... (the rest: $outdir/$chapter.log)"
        echo
    fi
    if [ -n "${PROFILE_STANDALONE:-}" ] && [ ! -s "$dir/raw.tsv" ]; then
        echo "profile: $chapter launched no kernel: nothing to count or model"
        exit 0
    fi
    [ -s "$dir/raw.tsv" ] || die "$program wrote no counters"
}

# The compiled code the model simulates, made once per profile (the slices share it) in $work/code:
# hipcc's gfx906 assembly (isa.gfx906.s) and nvcc's sm_90 PTX with ptxas's report (ptx.sm_90.ptx,
# ptx.ptxas).
code=$work/code
mkdir -p "$code"

# trace_warp32 DIR [TRAINER OPTIONS...]: the same iteration at wave 32 with
# the warp-32 devices' CUs into DIR/w32, and nvcc's code beside it (once).
trace_warp32() {
    local dir=$1
    shift
    HIPCPU_COMPUTE_UNITS=$warp32_cus run_trace "$dir/w32" "$warp32_binary" "$@"
    [ ! -s "$code/ptx.sm_90.ptx" ] || return 0
    if ! (cd "$root" && NVCC=$nvcc bash common/model/compile.sh ptx "$source" "$code/ptx") >"$dir/w32/compile.log" 2>&1; then
        cat "$dir/w32/compile.log" >&2
        : >"$dir/w32/failed"
    fi
}

# trace_wave64 DIR [OPTIONS...]: a CUDA program's second run, at wave 64, into DIR/w64, and hipcc's
# gfx906 code of it beside (once); what failed, in DIR/w64/failed: gfx906 is then left out, and says why.
trace_wave64() {
    local dir=$1 log
    shift
    mkdir -p "$dir/w64"
    local status=0
    HIPCPU_PROFILE="$dir/w64/raw.tsv" HIPCPU_PROFILE_SITES="$dir/w64/sites.tsv" HIPCPU_PROFILE_LINES="$dir/w64/lines.tsv" \
        "$wave64_binary" "$@" >"$dir/w64/log" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
        log=$(grep -m 1 -E 'hipcpu:|Assertion|FAIL|[Ee]rror|mismatch' "$dir/w64/log" | cut -c1-140 || true)
        [ -n "$log" ] || log="$(tail -n 1 "$dir/w64/log" | cut -c1-140) (exit status $status)"
        echo "its run at wave 64 failed (a program written for warps of 32 may not run at 64)${log:+: $log}" >"$dir/w64/failed"
        return 0
    fi
    [ -s "$dir/w64/raw.tsv" ] || { echo "its run at wave 64 launched no kernel" >"$dir/w64/failed"; return 0; }
    [ ! -s "$code/isa.gfx906.s" ] || return 0
    if ! (cd "$root" && bash common/model/compile.sh gcn "$source" "$code/isa.gfx906.s" -I"$root/common/executor/cuda" -include cuda_runtime.h \
        -idirafter "$(dirname "$source")") >"$dir/w64/compile.log" 2>&1; then
        log=$(grep -m 1 'error' "$dir/w64/compile.log" | cut -c1-160 || true)
        echo "hipcc could not compile it for gfx906${log:+: $log}" >"$dir/w64/failed"
    fi
}

# trace_cuda DIR [OPTIONS...]: a CUDA program's run at warp 32 with the warp-32 devices' CUs (the
# counts), nvcc's code of it, and the wave-64 run beside, in the background.
trace_cuda() {
    local dir=$1 pid
    shift
    mkdir -p "$dir"
    if [ -z "$note" ] && [ -z "$wide_note" ]; then
        trace_wave64 "$dir" "$@" &
        warp32_pid=$!
    fi
    HIPCPU_COMPUTE_UNITS=$warp32_cus run_trace "$dir" "$binary" "$@"
    if [ -z "$note" ] && [ ! -s "$code/ptx.sm_90.ptx" ] &&
        ! (cd "$root" && NVCC=$nvcc bash common/model/compile.sh ptx "$source" "$code/ptx" -I"$(dirname "$source")") \
            >"$dir/compile.log" 2>&1; then
        cat "$dir/compile.log" >&2
        note="no model: nvcc could not compile $source for sm_90 (its messages are above); the counts come alone"
    fi
    if [ -n "$warp32_pid" ]; then
        pid=$warp32_pid
        warp32_pid=
        wait "$pid" || true
        [ ! -f "$dir/w64/failed" ] || wide_note=$(cat "$dir/w64/failed")
    fi
    total=0 images=0
}

# trace DIR [TRAINER OPTIONS...]: one traced iteration in DIR (and, split,
# the wave-32 one beside it, in the background); then, with the model on and
# not yet made, hipcc's code. Sets images (trained on) and total (in the training set).
trace() {
    local dir=$1
    shift
    mkdir -p "$dir"
    if [ -n "$split" ]; then
        trace_warp32 "$dir" "$@" &
        warp32_pid=$!
    fi
    run_trace "$dir" "$binary" "$@"
    # The images, from the trainer's header: "dataset in DIR/: N training images, ...",
    # then "  using the first M training images (--train-limit)" when M < N.
    total=0 images=0
    [ -n "${PROFILE_STANDALONE:-}" ] || read -r total images < <(awk '
        /^dataset .*: [0-9]+ training images, / && total == "" {
            total = $0; sub(/ training images, .*/, "", total); sub(/.* /, "", total) }
        /^  using the first [0-9]+ training images/ && used == "" { used = $4 }
        END { if (total != "") print total, (used != "" ? used : total) }' "$dir/log")
    [ -n "${PROFILE_STANDALONE:-}" ] || [ "${images:-0}" -gt 0 ] || die "no image count in $dir/log"
    if [ -z "$note" ] && [ ! -s "$code/isa.gfx906.s" ]; then
        (cd "$root" && bash common/model/compile.sh gcn "$source" "$code/isa.gfx906.s") >&2 ||
            note="no model: hipcc could not compile $source for gfx906 (its messages are above); the counts come alone"
    fi
    if [ -n "$warp32_pid" ]; then
        local pid=$warp32_pid
        warp32_pid=
        wait "$pid" || die "the wave-32 trace of $chapter failed (its output is above)"
        if [ -f "$dir/w32/failed" ]; then
            split="" model_note="${warp32_devices//,/ and }: modelled on gfx906's code and the wave-64 counts: nvcc's code failed (above)"
        fi
    fi
}

sample=${PROFILE_SAMPLE:-}
if [ -n "$sample" ]; then
    [[ $sample =~ ^[0-9]+$ ]] && [ "${#sample}" -le 10 ] && [ "$sample" -le 2147483648 ] ||
        die_usage "SAMPLE=$sample: must be a number of blocks from 0 to 2147483648 (0: trace every block)"
    export HIPCPU_SAMPLE_BLOCKS=$sample
fi
start=$(date +%s)
# PROFILE_SLICES="N1 N2": two short runs, every count extended in a straight
# line to the whole training set (or to --train-limit's images if given).
if [ -n "${PROFILE_SLICES:-}" ]; then
    read -r n1 n2 <<<"$PROFILE_SLICES"
    trace "$work/a" "$@" --train-limit "$n1"
    trace "$work/b" "$@" --train-limit "$n2"
    target=$total
    for ((i = 1; i <= $#; i++)); do
        [ "${!i}" = --train-limit ] && { j=$((i + 1)); target=${!j}; }
    done
    [ "$target" -le "$total" ] || target=$total
    mkdir -p "$work/run/w32"
    for table in raw.tsv sites.tsv lines.tsv w32/raw.tsv w32/sites.tsv w32/lines.tsv; do
        [ -f "$work/a/$table" ] && [ -f "$work/b/$table" ] || continue
        awk -F'\t' -v n1="$n1" -v n2="$n2" -v n="$target" -f "$here/../model/extrapolate.awk" \
            "$work/a/$table" "$work/b/$table" >"$work/run/$table"
    done
    { echo "counts extended in a straight line from traced runs on $n1 and $n2 images to $target:"; cat "$work/b/log"; } \
        >"$work/run/log"
    images=$target
    scaled=" (extended from $n1 and $n2 images)"
elif [ -n "$cuda" ]; then
    trace_cuda "$work/run" "$@"
    scaled=
else
    trace "$work/run" "$@"
    scaled=
fi
seconds=$(($(date +%s) - start))
run=$work/run
# Sampled counts say so, per kernel: traced blocks of how many.
if [ -s "$run/raw.tsv.sampling" ]; then
    mv "$run/raw.tsv.sampling" "$run/sampling.tsv"
    awk -F'\t' -v sample="$sample" 'NR > 1 {
        if ($2 > 0) {
            printf "counts sampled (SAMPLE=%s): %s: %d of %d blocks traced in %d launch%s, scaled to the grid%s\n", sample, $1, $3, $4,
                $2, ($2 == 1 ? "" : "es"), ($6 == "-" ? "" : " (" $6 ")")
            shown = 1
        }
        if ($5 > 0) printf "%s: %d launch%s traced whole (no more blocks than the sample)\n", $1, $5, ($5 == 1 ? "" : "es")
    }
    END { if (shown) print "  every block counted exactly: unique bytes, DRAM loads, re-reads, atomics, barriers, shuffles, bytes\n" }' "$run/sampling.tsv"
elif [ -z "$sample" ] && [ -n "${PROFILE_STANDALONE:-}" ] && [ "$seconds" -ge 20 ]; then
    echo "the trace took $seconds s: SAMPLE=240 traces 240 blocks of each bigger launch and scales the counts (common/executor/README.md, \"Sampling\")"
    echo
fi
# The time model: a simulation of each device's own code (common/model/sim.h) against the
# counts, into NN-name.model.tsv, and per source line, the source view's NN-name.source.tsv. Split,
# gfx906's code against the wave-64 counts and sm_90's against the wave-32 ones; else every device
# on gfx906's code.
simulate() {
    if [ -n "$cuda" ]; then # the warp-32 devices first, on nvcc's code and the warp-32 counts; gfx906 beside
        bash "$root/common/model/code_names.sh" "$code/ptx.sm_90.ptx" >"$work/ptx.names" &&
            "$timesim" --code ptx "$code/ptx.sm_90.ptx" --names "$work/ptx.names" --ptxas "$code/ptx.ptxas" \
                --code-for "$warp32_devices" --lines "$run/source.tsv" "$devices" "$run/raw.tsv" \
                "$run/sites.tsv" "$run/lines.tsv" >"$run/model.tsv" || return 1
        [ -z "$wide_note" ] || return 0
        if bash "$root/common/model/code_names.sh" "$code/isa.gfx906.s" >"$work/gcn.names" &&
            "$timesim" --code gcn "$code/isa.gfx906.s" --names "$work/gcn.names" --code-for "$wave64_devices" \
                --lines "$work/gcn-lines.tsv" "$devices" "$run/w64/raw.tsv" "$run/w64/sites.tsv" "$run/w64/lines.tsv" \
                >"$work/gcn-sim.tsv"; then
            tail -n +2 "$work/gcn-sim.tsv" >>"$run/model.tsv"
            tail -n +2 "$work/gcn-lines.tsv" >>"$run/source.tsv"
        else
            wide_note="the simulation of hipcc's code failed (its messages are above)"
        fi
        return 0
    fi
    bash "$root/common/model/code_names.sh" "$code/isa.gfx906.s" >"$work/gcn.names" &&
        "$timesim" --code gcn "$code/isa.gfx906.s" --names "$work/gcn.names" \
            ${split:+--code-for "$wave64_devices"} --lines "$run/source.tsv" "$devices" "$run/raw.tsv" \
            "$run/sites.tsv" "$run/lines.tsv" >"$run/model.tsv" || return 1
    [ -n "$split" ] || return 0
    bash "$root/common/model/code_names.sh" "$code/ptx.sm_90.ptx" >"$work/ptx.names" &&
        "$timesim" --code ptx "$code/ptx.sm_90.ptx" --names "$work/ptx.names" --ptxas "$code/ptx.ptxas" \
            --code-for "$warp32_devices" --lines "$work/ptx-lines.tsv" "$devices" "$run/w32/raw.tsv" \
            "$run/w32/sites.tsv" "$run/w32/lines.tsv" >"$work/ptx-sim.tsv" || return 1
    tail -n +2 "$work/ptx-sim.tsv" >>"$run/model.tsv"
    tail -n +2 "$work/ptx-lines.tsv" >>"$run/source.tsv"
}
if [ -n "$note" ]; then
    printf 'kernel\tdevice\n' >"$run/model.tsv" # a header alone: profile.awk reads its two files in order
elif ! simulate; then
    note="no model: the simulation failed (its messages are above); the counts come alone"
    printf 'kernel\tdevice\n' >"$run/model.tsv"
    rm -f "$run/source.tsv"
fi
warp32_counters=
[ -z "$split" ] || [ -n "$note" ] || warp32_counters=$run/w32/raw.tsv
if [ -n "$cuda" ] && [ -z "$note" ]; then
    names=${wave64_devices//,/ and }
    if [ -n "$wide_note" ]; then
        model_note="$names: not modelled: $wide_note"
    else
        model_note="$names (beside): modelled from hipcc's code of this file (CUDA's names through common/executor/cuda/) and a second run at wave 64"
    fi
fi
awk -F'\t' -v chapter="$chapter" -v images="$images" -v wave="$wave" -v out="$run/table.tsv" -v cuda="$cuda" \
    -v sites="$run/sites.tsv" -v seconds="$seconds" -v note="$note" -v shown="$outdir/$chapter" -v scaled="$scaled" \
    -v warp32="$warp32_counters" -v warp32_cus="$warp32_cus" -v model_note="$model_note" \
    -f "$here/profile.awk" "$run/model.tsv" "$run/raw.tsv"
if [ -s "$run/source.tsv" ] && [ -z "${PROFILE_NO_SOURCE_VIEW:-}" ]; then
    awk -F'\t' -v root="$root" -v source="$source" -v warp32="${split:+${warp32_devices%%,*}}" -v counters="$run/raw.tsv" \
        -f "$here/source_view.awk" "$run/source.tsv" "$run/lines.tsv"
fi
# The set replaces the last one whole: each file this run made is moved into place, and one it did not
# make (the model's code and source view, without hipcc or at wave 32; the wave-32 trace's and nvcc's
# without the second trace) is removed, not left from an older run beside the new table.
if [ -z "$note" ] && [ -n "$split" ]; then
    mv "$run/w32/raw.tsv" "$run/w32.tsv"
    mv "$run/w32/sites.tsv" "$run/w32.sites.tsv"
    mv "$run/w32/lines.tsv" "$run/w32.lines.tsv"
fi
# The compiled code the simulation read, to rerun it (build/tools/timesim --code gcn NN.gfx906.s ...;
# --code ptx NN.sm_90.ptx --ptxas NN.sm_90.ptxas ...).
for kept in gfx906.s sm_90.ptx sm_90.ptxas; do
    case $kept in gfx906.s) from=$code/isa.gfx906.s ;; sm_90.ptx) from=$code/ptx.sm_90.ptx ;; *) from=$code/ptx.ptxas ;; esac
    if [ -f "$from" ] && [ -f "$run/source.tsv" ]; then mv -f "$from" "$outdir/$chapter.$kept"; else rm -f "$outdir/$chapter.$kept"; fi
done
mv "$run/log" "$run/log.tsv"
for part in sampling sites lines model w32 w32.sites w32.lines source log table; do
    name=$outdir/$chapter.$part.tsv
    case $part in table) name=$outdir/$chapter.tsv ;; log) name=$outdir/$chapter.log ;; esac
    if [ -f "$run/$part.tsv" ]; then
        mv -f "$run/$part.tsv" "$name"
    else
        rm -f "$name"
    fi
done
