#!/usr/bin/env bash
# `make gpu-report`: every measurement the tutorial wants from a GPU, in one
# run that fits a lent machine's lease (9 minutes by default), for the day a
# GPU comes (README.md, "On a GPU machine"). Run at the repository's root,
# with the four dataset files in DATASET; nothing is needed but what such a
# machine has (nvcc or hipcc; ncu, compute-sanitizer, python3 with torch
# where there are): a step whose tool is missing is reported as skipped.
#
#   common/scripts/gpu_report.sh OUT_DIR [options]
#
#   --platform P     nvidia, amd or cpu (make's HIP_PLATFORM)
#   --build DIR      the platform's build folder (make's BUILD)
#   --dataset DIR    the MNIST folder (default dataset)
#   --limit N        train on the first N images (default: all)
#   --iters N        iterations per timed run (default 10: chapter 00 takes
#                    0.65 s an iteration on full MNIST, and 3 runs of 100
#                    would pass the compare step's share)
#   --repeats N      timed runs per chapter (default 3)
#   --epochs N       chapter 09's epochs (default 10)
#   --sizes "N..."   the --check image counts (default "1 63 1037 60000")
#   --tune-sets S    make tune's TUNE_SETS (default: tune.sh's list)
#   --budget S       seconds for the whole run (default 540), shared out
#                    among the steps; a step past its share is cut short
#   --only STEPS     run only these steps (comma-separated names, e.g.
#                    build,validation); the others are reported as skipped
#
# Each step runs once, in this order; its failure is recorded and the next
# step still runs: env, build, check (every GPU chapter's --check against its
# CPU reference at each size), sanitize (compute-sanitizer's memcheck,
# racecheck, initcheck and synccheck on every chapter, a small slice),
# compare (plots/compare.sh, --kernel-times too), tune (make tune), ncu
# (Nsight Compute's counters per kernel), validation (the time model's
# validation programs, timed by Nsight Compute), torch (the same training
# step in PyTorch, common/scripts/torch_baseline.py), chapter09 (its epochs).
# On the CPU platform the executor stands in for the GPU; ncu, the
# sanitizers, the validation timings and torch are skipped.
#
# Writes into OUT_DIR these files and nothing else (make gpu-import reads
# them; at most 8, what a lent machine sends back):
#   report.tsv   step, status (ok, failed, skipped, cut short), seconds, note
#   env.tsv      what ran it: date, platform, device, driver, compilers, tools
#   compare.tsv  plots/compare.sh's table, with PyTorch's rows when torch ran
#   kernels.tsv  --kernel-times: per chapter and kernel, median ms and share
#   ncu.tsv      Nsight Compute's counters per chapter and kernel (ncu_table.awk)
#   validation.tsv  the model's validation programs timed per kernel by
#                Nsight Compute (file, kernel, launches, ms), a program at a time
#   log.txt      every step's command and output
#   raw.tar.gz   where an NVIDIA step ran: Nsight Compute's raw CSV of each
#                chapter and validation program (ncu-NAME.csv) and the SASS
#                of each of their binaries (cuobjdump -sass: sass-NAME.txt)
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=common/scripts/lib.sh
. common/scripts/lib.sh
SCRIPT_NAME=gpu-report

[ $# -ge 1 ] && [[ $1 != -* ]] || die "usage: common/scripts/gpu_report.sh OUT_DIR [options] (see its top)"
out=$1
shift
platform=cpu build=build/cpu dataset=dataset limit='' iters=10 repeats=3 epochs=10
sizes="1 63 1037 60000" tune_sets='' budget=540 only=''
parse_options platform build dataset limit iters repeats epochs sizes tune-sets budget only -- "$@"
[ ${#REST[@]} -eq 0 ] || die "unknown argument '${REST[0]}'"
for n in "$iters" "$repeats" "$epochs" "$budget" ${limit:+"$limit"}; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || die "'$n' is not a positive whole number (--limit, --iters, --repeats, --epochs, --budget)"
done
case $platform in nvidia | amd | cpu) ;; *) die "--platform must be nvidia, amd or cpu, not '$platform'" ;; esac
[ -d "$dataset" ] || die "$dataset: no such folder (the four MNIST files go there: make gpu-bundle)"
[ ! -e "$out" ] || [ -d "$out" ] || die "$out exists and is not a folder"
mkdir -p "$out"
for file in report.tsv env.tsv compare.tsv kernels.tsv ncu.tsv validation.tsv log.txt raw.tar.gz; do
    [ ! -e "$out/$file" ] || die "$out/$file exists: give an empty or new folder (nothing is overwritten)"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/gpu-report.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/raw" # raw.tar.gz's files
report=$out/report.tsv log=$out/log.txt
printf 'step\tstatus\tseconds\tnote\n' >"$report"
: >"$log"
started=$(date +%s)

# The chapters: the linear model's GPU chapters (01-08) and the others with a train.hip.
linear=() others=()
for dir in chapters/[0-9][0-9]-*/; do
    name=$(basename "$dir")
    [ -f "$dir/train.hip" ] || continue
    if [ -f "$dir/reference.c" ]; then others+=("$name"); else linear+=("$name"); fi
done
[ ${#linear[@]} -gt 0 ] || die "no GPU chapter in chapters/"

# step NAME SHARE FUNCTION: FUNCTION (with note_line and save_sass) in a shell of its own for at most SHARE
# seconds (less if the budget has less left), its output into the log.
step() {
    local name=$1 share=$2 fn=$3 left rc=0 status note='' start
    if [ -n "$only" ] && [[ ",$only," != *",$name,"* ]]; then
        skip "$name" "not among --only $only"
        return
    fi
    left=$((budget - ($(date +%s) - started)))
    [ "$left" -ge "$share" ] || share=$left
    if [ "$share" -le 0 ]; then
        printf '%s\tcut short\t0\tno time left of the %s s budget\n' "$name" "$budget" >>"$report"
        return
    fi
    start=$(date +%s)
    echo "=== $name (at most $share s)" >>"$log"
    timeout --kill-after=5 "$share" bash -c "set -euo pipefail; $(declare -f "$fn" note_line save_sass); $fn" \
        >"$work/step.out" 2>&1 || rc=$?
    cat "$work/step.out" >>"$log"
    case $rc in
    0) status=ok note=$(grep -a '^note: ' "$work/step.out" | tail -n 1 | cut -c7- || true) ;;
    124 | 137) status='cut short' note="after its share of $share s" ;;
    *) status=failed note="status $rc: $(grep -av '^note: ' "$work/step.out" | tail -n 1 | cut -c1-160 || true)" ;;
    esac
    echo "=== $name: $status in $(($(date +%s) - start)) s" >>"$log"
    printf '%s\t%s\t%s\t%s\n' "$name" "$status" "$(($(date +%s) - start))" "$note" >>"$report"
}
skip() { printf '%s\tskipped\t0\t%s\n' "$1" "$2" >>"$report"; }
note_line() { echo "note: $*"; }
export out work platform build dataset limit iters repeats epochs sizes tune_sets
export LINEAR="${linear[*]}" OTHERS="${others[*]}"

# version COMMAND...: the first line of its output that names a version, or none
version() {
    local line
    line=$({ "$@" 2>&1 || true; } | grep -iE 'release|version|[0-9]+\.[0-9]+' | head -n 1 | tr '\t' ' ' || true)
    echo "${line:-none}"
}
{
    printf 'key\tvalue\n'
    printf 'date\t%s\n' "$(date -u +%Y-%m-%d)"
    printf 'platform\t%s\n' "$platform"
    if [ "$platform" = nvidia ] && command -v nvidia-smi >/dev/null; then
        printf 'device\t%s\n' "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)"
        printf 'driver\t%s\n' "$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -n 1)"
    elif [ "$platform" = amd ] && command -v rocminfo >/dev/null; then
        printf 'device\t%s\n' "$(rocminfo | awk -F: '/Marketing Name/ { gsub(/^ +| +$/, "", $2); if ($2 !~ /CPU|Processor/) { print $2; exit } }')"
        printf 'driver\t%s\n' "$(version cat /sys/module/amdgpu/version)"
    else
        printf 'device\t%s\n' "the CPU executor (HIP_PLATFORM=cpu), no GPU"
        printf 'driver\tnone\n'
    fi
    printf 'nvcc\t%s\n' "$(command -v nvcc >/dev/null && version nvcc --version || echo none)"
    printf 'hipcc\t%s\n' "$(command -v hipcc >/dev/null && version hipcc --version || echo none)"
    printf 'ncu\t%s\n' "$(command -v ncu >/dev/null && version ncu --version || echo none)"
    printf 'compute-sanitizer\t%s\n' "$(command -v compute-sanitizer >/dev/null && version compute-sanitizer --version || echo none)"
    printf 'ncu_clocks\t%s\n' "the GPU's own (--clock-control none)"
    printf 'torch\t%s\n' "$(python3 -c 'import torch; print(torch.__version__)' 2>/dev/null || echo none)"
    printf 'host\t%s, %s cores\n' "$(host_cpu)" "$(nproc)"
    printf 'commit\t%s\n' "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    printf 'command\tmake gpu-report%s\n' "${limit:+ (--limit $limit)}"
} >"$out/env.tsv"
printf 'env\tok\t0\t%s\n' "$(awk -F '\t' '$1 == "device" { print $2 }' "$out/env.tsv")" >>"$report"

do_build() {
    # shellcheck disable=SC2086,SC2046 # LINEAR and OTHERS are lists of names
    make --no-print-directory HIP_PLATFORM="$platform" $(printf "$build/%s " 00-cpu-reference $LINEAR $OTHERS) \
        $(printf "$build/%s-reference " $OTHERS)
}
step build 100 do_build

do_check() {
    local chapter size failed=0 runs=0
    for chapter in $LINEAR $OTHERS; do
        for size in $sizes; do
            [ -z "$limit" ] || [ "$size" -le "$limit" ] || continue
            runs=$((runs + 1))
            echo "--- $chapter --check on $size images"
            "$build/$chapter" "$dataset" 2 --train-limit "$size" --check --quiet || failed=$((failed + 1))
        done
    done
    note_line "$((runs - failed)) of $runs chapter-and-size checks match their reference (sizes $sizes)"
    [ "$failed" -eq 0 ]
}
step check 90 do_check

do_sanitize() {
    local chapter tool failed=0 runs=0
    for chapter in $LINEAR $OTHERS; do
        for tool in memcheck racecheck initcheck synccheck; do
            runs=$((runs + 1))
            echo "--- compute-sanitizer --tool $tool $chapter"
            compute-sanitizer --tool "$tool" --error-exitcode 1 "$build/$chapter" "$dataset" 1 --train-limit 257 --quiet ||
                failed=$((failed + 1))
        done
    done
    note_line "$((runs - failed)) of $runs sanitizer runs clean"
    [ "$failed" -eq 0 ]
}
if [ "$platform" != nvidia ]; then
    skip sanitize "compute-sanitizer is NVIDIA's; platform $platform"
elif ! command -v compute-sanitizer >/dev/null; then
    skip sanitize "compute-sanitizer is not installed"
else
    step sanitize 60 do_sanitize
fi

do_compare() {
    # shellcheck disable=SC2086 # LINEAR is a list of names
    plots/compare.sh --build "$build" --platform "$platform" --dataset "$dataset" --iters "$iters" \
        --repeats "$repeats" ${limit:+--limit "$limit"} --out-dir "$work/compare" --format none \
        --kernel-times "$out/kernels.tsv" 00-cpu-reference $LINEAR
    cp "$work/compare/compare.tsv" "$out/compare.tsv"
    note_line "$(($(wc -l <"$out/compare.tsv") - 1)) chapters timed, $iters iterations x $repeats runs"
}
step compare 110 do_compare

do_tune() {
    make --no-print-directory tune HIP_PLATFORM="$platform" TUNE_LIMIT="$limit" TUNE_SETS="$tune_sets" \
        ${limit:+TUNE_ITERS=6}
}
step tune 40 do_tune

# Nsight Compute: the counters the executor reports, per kernel launch, in
# ncu's documented CSV form (--csv --page details), folded by ncu_table.awk;
# at the GPU's own clocks (ncu locks them to base by default, which made its
# times 5-22% longer than the events' on an H100, 2026-11-26).
NCU_METRICS=gpu__time_duration.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
NCU_METRICS+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
NCU_METRICS+=,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum
NCU_METRICS+=,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active
export NCU_METRICS
# save_sass BINARY PREFIX: its machine code, PREFIX.txt (cuobjdump -sass) and, where nvdisasm is,
# PREFIX-lines.txt: the same with the source line of each instruction (the builds' -lineinfo), which
# the time model's SASS reader anchors to the trace's counts (common/model/code_sass.c).
save_sass() {
    command -v cuobjdump >/dev/null || return 0
    cuobjdump -sass "$1" >"$2.txt" || true
    command -v nvdisasm >/dev/null || return 0
    local cubins cubin
    cubins=$(mktemp -d)
    (cd "$cubins" && cuobjdump -xelf all "$1" >/dev/null 2>&1) || true
    for cubin in "$cubins"/*.cubin; do
        [ -f "$cubin" ] && nvdisasm -g -c "$cubin" >>"$2-lines.txt" 2>/dev/null || true
    done
    rm -rf "$cubins"
}
do_ncu() {
    local chapter
    for chapter in $LINEAR; do
        echo "--- ncu $chapter"
        ncu --csv --page details --clock-control none --metrics "$NCU_METRICS" "$build/$chapter" "$dataset" 2 \
            ${limit:+--train-limit "$limit"} --quiet >"$work/raw/ncu-$chapter.csv"
        awk -v chapter="$chapter" -f common/scripts/ncu_table.awk "$work/raw/ncu-$chapter.csv" >>"$work/ncu.tsv"
        save_sass "$build/$chapter" "$work/raw/sass-$chapter"
    done
    awk 'NR == 1 || $1 != "chapter"' "$work/ncu.tsv" >"$out/ncu.tsv"
    note_line "$(($(wc -l <"$out/ncu.tsv") - 1)) kernels measured by Nsight Compute"
}
# ncu_step NAME SHARE FUNCTION: step, where Nsight Compute can run; else skipped, saying why.
ncu_step() {
    if [ "$platform" != nvidia ]; then
        skip "$1" "Nsight Compute is NVIDIA's; platform $platform"
    elif ! command -v ncu >/dev/null; then
        skip "$1" "ncu is not installed"
    else
        step "$@"
    fi
}
ncu_step ncu 70 do_ncu

# The time model's validation programs (common/model/validation/, one per
# program of its kernels.tsv), built with nvcc side by side, each checked
# against its host reference on a small case (--small --check; not the
# programs whose code assumes waves of 64), then timed kernel by kernel with
# Nsight Compute at the GPU's own clocks (--clock-control none; caches flushed
# between kernels, ncu's default) at the size the executor traces: the
# measured set that validate.sh puts beside the model's column for this
# device. Rows go out a program at a time, so a step cut short keeps what it
# timed.
do_validation() {
    local name wave checked=0 failed=0 programs
    programs=$(awk -F'\t' '/^#/ { next } !c { for (i = 1; i <= NF; i++) h[$i] = i; c = 1; next } !seen[$h["file"]]++ {
        print $h["file"], $h["wave"] }' common/model/validation/kernels.tsv)
    mkdir -p "$build/validation"
    echo "$programs" | cut -d' ' -f1 | sed 's/\.hip$//' | xargs -P "$(nproc)" -I{} sh -c \
        'nvcc -O3 -std=c++17 -arch="${NV_ARCH:-sm_90}" -lineinfo -x cu -Icommon/gpu/nvidia -Icommon common/model/validation/{}.hip \
            -o "$0/validation/{}" >"$1/raw/nvcc-{}.log" 2>&1 || cat "$1/raw/nvcc-{}.log"' "$build" "$work"
    printf 'file\tkernel\tlaunches\tms\n' >"$out/validation.tsv"
    while read -r name wave; do
        name=${name%.hip}
        echo "--- validation $name"
        if [ ! -x "$build/validation/$name" ]; then
            echo "nvcc could not build $name (above)"
            failed=$((failed + 1))
            continue
        fi
        if [ "$wave" != 64 ]; then
            checked=$((checked + 1))
            "$build/validation/$name" --small --check || failed=$((failed + 1))
        fi
        if ncu --csv --page details --clock-control none --metrics gpu__time_duration.sum "$build/validation/$name" \
            >"$work/raw/ncu-validation-$name.csv"; then
            awk -v chapter="$name.hip" -f common/scripts/ncu_table.awk "$work/raw/ncu-validation-$name.csv" |
                awk -F '\t' '$1 != "chapter" { print $1 "\t" $2 "\t" $3 "\t" $4 }' >>"$out/validation.tsv"
        else
            echo "ncu: $name failed (its output: raw/ncu-validation-$name.csv)"
            failed=$((failed + 1))
        fi
        save_sass "$build/validation/$name" "$work/raw/sass-validation-$name"
    done <<<"$programs"
    note_line "$(($(wc -l <"$out/validation.tsv") - 1)) validation kernels timed by Nsight Compute; $checked programs checked by --small --check; $failed failures to build, check or time (the log names them)"
    [ "$failed" -eq 0 ]
}
ncu_step validation 200 do_validation

do_torch() {
    python3 common/scripts/torch_baseline.py --dataset "$dataset" --iters "$iters" --repeats "$repeats" \
        ${limit:+--limit "$limit"} --out "$work/torch.tsv"
    [ -s "$out/compare.tsv" ] || { echo "no compare.tsv to add PyTorch's rows to (the compare step failed)"; exit 1; }
    tail -n +2 "$work/torch.tsv" >>"$out/compare.tsv"
    note_line "$(($(wc -l <"$work/torch.tsv") - 1)) PyTorch rows added to compare.tsv"
}
if [ "$platform" != nvidia ]; then
    skip torch "the PyTorch baseline runs on CUDA; platform $platform"
elif ! python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
    skip torch "python3 has no torch with CUDA"
else
    step torch 30 do_torch
fi

do_chapter09() {
    local chapter
    for chapter in $OTHERS; do
        "$build/$chapter" "$dataset" "$epochs" ${limit:+--train-limit "$limit"}
    done
}
if [ ${#others[@]} -eq 0 ]; then skip chapter09 "no chapter 09"; else step chapter09 30 do_chapter09; fi

# The files make gpu-import reads are there even where their step did not run.
[ -e "$out/compare.tsv" ] || : >"$out/compare.tsv"
[ -e "$out/kernels.tsv" ] || : >"$out/kernels.tsv"
[ -e "$out/ncu.tsv" ] || : >"$out/ncu.tsv"
[ -e "$out/validation.tsv" ] || : >"$out/validation.tsv"
[ -z "$(ls "$work/raw")" ] || tar -czf "$out/raw.tar.gz" -C "$work/raw" .
total=$(($(date +%s) - started))
print_table "$report"
# make gpu-import refuses the executor's report unless told: the hint says how
import="make gpu-import DIR=$out"
[ "$platform" = cpu ] && import+=" GPU_IMPORT_ARGS=--allow-executor"
echo "gpu-report: $out/ ($(ls "$out" | tr '\n' ' ')) in $total s of the $budget s budget; $import folds it in"
! grep -q $'\tfailed\t' "$report"
