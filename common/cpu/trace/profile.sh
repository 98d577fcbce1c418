#!/usr/bin/env bash
# make profile-N: runs a chapter's trace build for one iteration (chapter 09:
# one epoch) with the executor's counters on, then the time model over them
# (common/cpu/model/), and prints what it saw and what it would cost, per
# kernel (common/cpu/trace/profile.awk). Each device is modelled from its own
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
#   NN-name.gfx906.s, NN-name.sm_90.ptx  the compiled code it simulated
#   NN-name.terms.tsv   the previous model (a maximum of terms), beside it while it is judged
#   NN-name.mix.tsv, NN-name.waits.tsv  the terms' compiled-code facts (isa_facts.awk)
#   NN-name.w32.tsv, .w32.sites.tsv, .w32.lines.tsv  the wave-32 trace's
#                       counters, sites and lines (the warp-32 devices' counts)
#   NN-name.sm_90.mix.tsv, NN-name.sm_90.waits.tsv  nvcc's facts (ptx_facts.awk)
#   NN-name.log         the trainer's own output
# The model needs hipcc (the gfx906 assembly says what the waves issue);
# without it the counts come alone, with a note. Without nvcc or the wave-32
# build, the warp-32 devices are modelled as before this second trace: on
# gfx906's code and the wave-64 counts, at their most occupancy, with a note.
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
# (HIPCPU_SAMPLE_BLOCKS; common/cpu/README.md, "Sampling"); empty or 0: every block;
# MODEL_DEVICES: the device table (default common/cpu/model/devices.tsv);
# TIMESIM, TIMEMODEL: the model's programs (default: build/tools/timesim, build/tools/timemodel);
# NVCC: nvcc (default: on the PATH, else /usr/local/cuda/bin/nvcc).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
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
timemodel=${TIMEMODEL:-$root/build/tools/timemodel}
timesim=${TIMESIM:-$root/build/tools/timesim}
devices=${MODEL_DEVICES:-$root/common/cpu/model/devices.tsv}
note=
if [ "$wave" != 64 ]; then
    note="no model at wave 32: the model reads gfx906's wave64 code against wave64 counts (make profile-N WAVE=64)"
elif [ -z "$source" ]; then
    note="no model: no source found for $chapter (set PROFILE_SOURCE)"
elif ! command -v "${HIPCC:-hipcc}" >/dev/null; then
    note="no model: it reads the gfx906 assembly, and ${HIPCC:-hipcc} is not installed (make resources installs it as root)"
elif [ ! -x "$timemodel" ]; then
    note="no model: $timemodel is not built (make $timemodel)"
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
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
# split: the warp-32 devices get their own trace and code; model_note says why not, where they do not.
split="" model_note=""
if [ -z "$note" ] && [ "$warp32_devices" != - ]; then
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

# trace_warp32 DIR [TRAINER OPTIONS...]: the same iteration at wave 32 with
# the warp-32 devices' CUs into DIR/w32, then nvcc's facts against it
# (compiled once per profile: PTX_FACTS_COMPILED for the second slice).
trace_warp32() {
    local dir=$1
    shift
    HIPCPU_COMPUTE_UNITS=$warp32_cus run_trace "$dir/w32" "$warp32_binary" "$@"
    local compiled=
    [ -s "$work/compiled.sm_90.ptx" ] && compiled=$work/compiled
    if (cd "$root" && PTX_FACTS_COMPILED=$compiled NVCC=$nvcc bash common/cpu/model/ptx_facts.sh "$source" "$dir/w32/sites.tsv" \
        "$dir/w32/lines.tsv" "$dir/w32/raw.tsv" "$dir/ptx") >"$dir/w32/facts.log" 2>&1; then
        [ -n "$compiled" ] || { cp "$dir/ptx.sm_90.ptx" "$work/compiled.sm_90.ptx"; cp "$dir/ptx.ptxas" "$work/compiled.ptxas"; }
    else
        cat "$dir/w32/facts.log" >&2
        : >"$dir/w32/failed"
    fi
}

# trace DIR [TRAINER OPTIONS...]: one traced iteration in DIR (and, split,
# the wave-32 one beside it, in the background); then, with the model on,
# the compiled-code facts. Sets images (trained on) and total (in the training set).
trace() {
    local dir=$1
    shift
    mkdir -p "$dir"
    if [ -n "$split" ]; then
        trace_warp32 "$dir" "$@" &
        warp32_pid=$!
    fi
    run_trace "$dir" "$binary" "$@"
    # The images, from the trainer's header: "dataset DIR: N training images, ...",
    # then "  using the first M training images (--train-limit)" when M < N.
    total=0 images=0
    [ -n "${PROFILE_STANDALONE:-}" ] || read -r total images < <(awk '
        /^dataset .*: [0-9]+ training images, / && total == "" {
            total = $0; sub(/ training images, .*/, "", total); sub(/.* /, "", total) }
        /^  using the first [0-9]+ training images/ && used == "" { used = $4 }
        END { if (total != "") print total, (used != "" ? used : total) }' "$dir/log")
    [ -n "${PROFILE_STANDALONE:-}" ] || [ "${images:-0}" -gt 0 ] || die "no image count in $dir/log"
    if [ -z "$note" ]; then
        (cd "$root" && bash common/cpu/model/isa_facts.sh "$source" "$dir/sites.tsv" "$dir/lines.tsv" "$dir/raw.tsv" "$dir/isa") >&2 ||
            note="no model: hipcc could not compile $source for gfx906 (its messages are above); the counts come alone"
    fi
    if [ -n "$warp32_pid" ]; then
        local pid=$warp32_pid
        warp32_pid=
        wait "$pid" || die "the wave-32 trace of $chapter failed (its output is above)"
        if [ -f "$dir/w32/failed" ]; then
            split="" model_note="${warp32_devices//,/ and }: modelled on gfx906's code and the wave-64 counts: nvcc's facts failed (above)"
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
    for table in raw.tsv isa.mix.tsv isa.waits.tsv isa.lines.tsv sites.tsv lines.tsv w32/raw.tsv w32/sites.tsv w32/lines.tsv \
        ptx.mix.tsv ptx.waits.tsv ptx.lines.tsv; do
        [ -f "$work/a/$table" ] && [ -f "$work/b/$table" ] || continue
        awk -F'\t' -v n1="$n1" -v n2="$n2" -v n="$target" -f "$here/../model/extrapolate.awk" \
            "$work/a/$table" "$work/b/$table" >"$work/run/$table"
    done
    { echo "counts extended in a straight line from traced runs on $n1 and $n2 images to $target:"; cat "$work/b/log"; } \
        >"$work/run/log"
    images=$target
    scaled=" (extended from $n1 and $n2 images)"
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
    echo "the trace took $seconds s: SAMPLE=240 traces 240 blocks of each bigger launch and scales the counts (common/cpu/README.md, \"Sampling\")"
    echo
fi
if [ -z "$note" ] && [ -n "$split" ]; then
    # Each device from its own code: gfx906's facts against the wave-64 counts, sm_90's against the wave-32 ones.
    "$timemodel" --code-for "$wave64_devices" "$devices" "$run/raw.tsv" "$run/isa.mix.tsv" "$run/isa.waits.tsv" \
        "$run/isa.lines.tsv" "$run/sites.tsv" "$run/shares.tsv" >"$run/model.tsv"
    "$timemodel" --code-for "$warp32_devices" "$devices" "$run/w32/raw.tsv" "$run/ptx.mix.tsv" "$run/ptx.waits.tsv" \
        "$run/ptx.lines.tsv" "$run/w32/sites.tsv" "$run/w32/shares.tsv" >"$run/w32/model.tsv"
    tail -n +2 "$run/w32/model.tsv" >>"$run/model.tsv"
    tail -n +2 "$run/w32/shares.tsv" >>"$run/shares.tsv"
elif [ -z "$note" ]; then
    "$timemodel" "$devices" "$run/raw.tsv" "$run/isa.mix.tsv" "$run/isa.waits.tsv" \
        "$run/isa.lines.tsv" "$run/sites.tsv" "$run/shares.tsv" >"$run/model.tsv"
else
    printf 'kernel\tdevice\n' >"$run/model.tsv" # a header alone: profile.awk reads its two files in order
fi
# The time model: a simulation of each device's own code (common/cpu/model/sim.h) against the same
# counts, into NN-name.model.tsv, and per source line, the source view's NN-name.source.tsv. The terms
# above (the previous model) stay beside it in NN-name.terms.tsv while it is judged against them.
simulate() {
    local code_dir=$sim_code_dir
    bash "$root/common/cpu/model/code_names.sh" "$code_dir/isa.gfx906.s" >"$work/gcn.names" &&
        "$timesim" --code gcn "$code_dir/isa.gfx906.s" --names "$work/gcn.names" --mix "$run/isa.mix.tsv" \
            ${split:+--code-for "$wave64_devices"} --lines "$run/sim-lines.tsv" "$devices" "$run/raw.tsv" \
            "$run/sites.tsv" "$run/lines.tsv" >"$run/sim.tsv" || return 1
    [ -n "$split" ] || return 0
    bash "$root/common/cpu/model/code_names.sh" "$code_dir/ptx.sm_90.ptx" >"$work/ptx.names" &&
        "$timesim" --code ptx "$code_dir/ptx.sm_90.ptx" --names "$work/ptx.names" --mix "$run/ptx.mix.tsv" \
            --code-for "$warp32_devices" --lines "$work/ptx-lines.tsv" "$devices" "$run/w32/raw.tsv" \
            "$run/w32/sites.tsv" "$run/w32/lines.tsv" >"$work/ptx-sim.tsv" || return 1
    tail -n +2 "$work/ptx-sim.tsv" >>"$run/sim.tsv"
    tail -n +2 "$work/ptx-lines.tsv" >>"$run/sim-lines.tsv"
}
sim_code_dir=$run
[ -z "${PROFILE_SLICES:-}" ] || sim_code_dir=$work/a
rm -f "$run/shares.tsv" # the terms' source view: the simulation's replaces it
if [ -z "$note" ] && simulate; then
    mv "$run/model.tsv" "$run/terms.tsv"
    mv "$run/sim.tsv" "$run/model.tsv"
    mv "$run/sim-lines.tsv" "$run/source.tsv"
elif [ -z "$note" ]; then
    note="no model: the simulation failed (its messages are above); the counts come alone"
    printf 'kernel\tdevice\n' >"$run/model.tsv"
    rm -f "$run/sim.tsv" "$run/sim-lines.tsv"
fi
warp32_counters=
[ -z "$split" ] || [ -n "$note" ] || warp32_counters=$run/w32/raw.tsv
awk -F'\t' -v chapter="$chapter" -v images="$images" -v wave="$wave" -v out="$run/table.tsv" \
    -v sites="$run/sites.tsv" -v seconds="$seconds" -v note="$note" -v shown="$outdir/$chapter" -v scaled="$scaled" \
    -v warp32="$warp32_counters" -v warp32_cus="$warp32_cus" -v model_note="$model_note" \
    -f "$here/profile.awk" "$run/model.tsv" "$run/raw.tsv"
if [ -s "$run/source.tsv" ] && [ -z "${PROFILE_NO_SOURCE_VIEW:-}" ]; then
    awk -F'\t' -v root="$root" -v source="$source" -v warp32="${split:+${warp32_devices%%,*}}" -v counters="$run/raw.tsv" \
        -f "$here/source_view.awk" "$run/source.tsv" "$run/lines.tsv"
fi
# The set replaces the last one whole: each file this run made is moved into place, and one it did not
# make (the model's inputs and source view, without hipcc or at wave 32; the wave-32 trace's and nvcc's
# without the second trace) is removed, not left from an older run beside the new table. The model's
# other inputs are there to rerun it (timemodel DEVICES NN.tsv NN.mix.tsv NN.waits.tsv; timemodel
# --code-for h100,h200 DEVICES NN.w32.tsv NN.sm_90.mix.tsv NN.sm_90.waits.tsv).
mv "$run/isa.mix.tsv" "$run/mix.tsv" 2>/dev/null || true
mv "$run/isa.waits.tsv" "$run/waits.tsv" 2>/dev/null || true
if [ -z "$note" ] && [ -n "$split" ]; then
    mv "$run/w32/raw.tsv" "$run/w32.tsv"
    mv "$run/w32/sites.tsv" "$run/w32.sites.tsv"
    mv "$run/w32/lines.tsv" "$run/w32.lines.tsv"
    mv "$run/ptx.mix.tsv" "$run/sm_90.mix.tsv"
    mv "$run/ptx.waits.tsv" "$run/sm_90.waits.tsv"
fi
# The compiled code the simulation read, to rerun it (build/tools/timesim --code gcn NN.gfx906.s ...).
for code in gfx906.s sm_90.ptx; do
    case $code in gfx906.s) from=$sim_code_dir/isa.gfx906.s ;; *) from=$sim_code_dir/ptx.sm_90.ptx ;; esac
    if [ -f "$from" ] && [ -f "$run/source.tsv" ]; then mv -f "$from" "$outdir/$chapter.$code"; else rm -f "$outdir/$chapter.$code"; fi
done
mv "$run/log" "$run/log.tsv"
for part in sampling sites lines model terms mix waits w32 w32.sites w32.lines sm_90.mix sm_90.waits source log table; do
    name=$outdir/$chapter.$part.tsv
    case $part in table) name=$outdir/$chapter.tsv ;; log) name=$outdir/$chapter.log ;; esac
    if [ -f "$run/$part.tsv" ]; then
        mv -f "$run/$part.tsv" "$name"
    else
        rm -f "$name"
    fi
done
