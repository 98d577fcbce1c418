#!/usr/bin/env bats
# test-lane: shared-build
# make gpu-report, make gpu-import and make gpu-bundle without a
# GPU. On the CPU platform the report runs the whole sequence on a small
# slice, the executor standing in for the GPU, and reports the GPU-only steps
# (compute-sanitizer, ncu, PyTorch) as skipped; make gpu-import folds that
# output into a copy of the tree. Nsight Compute's CSV is parsed from a
# sample this file writes itself in the form NVIDIA documents for
# `ncu --csv --page details` (docs.nvidia.com/nsight-compute/NsightComputeCli):
# no real ncu output was available to copy.
# Also here: -MMD -MP, a header change rebuilds only what includes it.

load helpers

setup_file() {
    cd "$BATS_TEST_DIRNAME/.." || return 1
    export REPORT="$BATS_FILE_TMPDIR/report"
    # one report for the tests below: 200 images, 2 timed iterations, one tune set; a
    # reader's build (no SANITIZE: the report's flow is under test, not the host code)
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SANITIZE make --no-print-directory gpu-report HIP_PLATFORM=cpu \
        GPU_REPORT_DIR="$REPORT" DATASET_DIR="$DATASET_DIR" \
        GPU_REPORT_ARGS="--limit 200 --iters 5 --repeats 1 --epochs 1 --sizes '1 63' --tune-sets 1:1:1 --budget 300" \
        >"$BATS_FILE_TMPDIR/report.out" 2>&1 || echo "status $?" >>"$BATS_FILE_TMPDIR/report.out"
}

setup() {
    cd "$BATS_TEST_DIRNAME/.." || return 1
}

@test "gpu-report on the CPU platform: every step runs or says why not, into seven files" {
    cat "$BATS_FILE_TMPDIR/report.out"
    run grep -q '^status ' "$BATS_FILE_TMPDIR/report.out"
    [ "$status" -eq 1 ]
    [ "$(ls "$REPORT" | tr '\n' ' ')" = "compare.tsv env.tsv kernels.tsv log.txt ncu.tsv report.tsv validation.tsv " ]
    # the steps in order, each ok or skipped with its reason
    [ "$(cut -f 1 "$REPORT/report.tsv" | tr '\n' ' ')" = "step env build check sanitize compare tune ncu validation torch chapter09 " ]
    for step in env build check compare tune chapter09; do
        grep -q "^$step"$'\tok\t' "$REPORT/report.tsv" || { grep "^$step" "$REPORT/report.tsv"; return 1; }
    done
    # the tune step's note is a whole sentence, and the closing hint the make
    # command that folds in this report, made on the executor
    grep -q $'^tune\tok\t[0-9]*\ton the CPU executor the times say nothing about a GPU; each set is only checked$' \
        "$REPORT/report.tsv"
    grep -q "; make gpu-import DIR=$REPORT GPU_IMPORT_ARGS=--allow-executor folds it in\$" "$BATS_FILE_TMPDIR/report.out"
    grep -q $'^sanitize\tskipped\t0\tcompute-sanitizer is NVIDIA\'s; platform cpu$' "$REPORT/report.tsv"
    grep -q $'^ncu\tskipped\t0\t' "$REPORT/report.tsv"
    grep -q $'^validation\tskipped\t0\t' "$REPORT/report.tsv"
    grep -q $'^torch\tskipped\t0\t' "$REPORT/report.tsv"
    # the check ran every GPU chapter at both sizes
    grep -q $'^check\tok\t[0-9]*\t18 of 18 chapter-and-size checks match' "$REPORT/report.tsv"
    # compare.tsv: chapters 00-08 on 200 images; kernels.tsv: the GPU chapters' kernels
    [ "$(awk -F '\t' 'NR > 1 && $4 == 200' "$REPORT/compare.tsv" | wc -l)" -eq 9 ]
    grep -q $'^08-tuned-gfx906\tcpu\ttrain_step\t' "$REPORT/kernels.tsv"
    grep -q $'^device\tthe CPU executor (HIP_PLATFORM=cpu), no GPU$' "$REPORT/env.tsv"
    grep -q $'^date\t[0-9]\\{4\\}-[0-9][0-9]-[0-9][0-9]$' "$REPORT/env.tsv"
    [ ! -s "$REPORT/ncu.tsv" ]
    [ ! -s "$REPORT/validation.tsv" ]
}

@test "gpu-report: nothing in its folder is overwritten; a bad option or a missing dataset is named" {
    run common/scripts/gpu_report.sh "$REPORT" --platform cpu --build "$CPU_BUILD"
    [ "$status" -eq 1 ]
    [[ $output == *"$REPORT/report.tsv exists: give an empty or new folder (nothing is overwritten)"* ]]
    run common/scripts/gpu_report.sh "$BATS_TEST_TMPDIR/new" --iters 0
    [ "$status" -eq 1 ]
    [[ $output == *"'0' is not a positive whole number"* ]]
    run common/scripts/gpu_report.sh "$BATS_TEST_TMPDIR/new" --colour red
    [ "$status" -eq 1 ]
    [[ $output == *"unknown option '--colour'"* ]]
    run common/scripts/gpu_report.sh "$BATS_TEST_TMPDIR/new" --dataset "$BATS_TEST_TMPDIR/nowhere"
    [ "$status" -eq 1 ]
    [[ $output == *"$BATS_TEST_TMPDIR/nowhere: no such folder (the four MNIST files go there: make gpu-bundle)"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/new" ]
}

@test "gpu-report: a failing step is recorded and the next one still runs; a step past its share is cut short" {
    local fake=$BATS_TEST_TMPDIR/build
    mkdir -p "$fake"
    # chapter binaries that fail at once, except chapter 00's
    for dir in chapters/[0-9][0-9]-*/; do
        name=$(basename "$dir")
        printf '#!/bin/sh\nexit 3\n' >"$fake/$name"
        chmod +x "$fake/$name"
    done
    # chapter 09 fails its --check too, and its epochs take too long
    printf '#!/bin/sh\ncase "$*" in *--check*) exit 3 ;; esac\nsleep 60\n' >"$fake/09-hidden-layer"
    run env -u MAKEFLAGS -u SANITIZE common/scripts/gpu_report.sh "$BATS_TEST_TMPDIR/out" --platform cpu --build "$fake" \
        --dataset "$DATASET_DIR" --limit 100 --iters 5 --repeats 1 --epochs 1 --sizes 1 --tune-sets 1:1:1 --budget 10
    echo "$output"
    [ "$status" -eq 1 ]
    grep -q $'^check\tfailed\t' "$BATS_TEST_TMPDIR/out/report.tsv"
    # later steps still ran or were cut short for time, each with a row
    [ "$(cut -f 1 "$BATS_TEST_TMPDIR/out/report.tsv" | tail -n 1)" = chapter09 ]
    grep -q $'^chapter09\tcut short\t' "$BATS_TEST_TMPDIR/out/report.tsv"
}

@test "gpu-report's validation step on NVIDIA, with stand-in tools: every program built, checked and timed, the raw files in raw.tar.gz" {
    # Stand-ins for a GPU machine's tools (tests/stand_in/): nvidia-smi names an H200; nvcc
    # "builds" a program by copying the executor's build of it (make test made them, each at its
    # wave), so --small --check really runs; ncu prints, in its documented CSV form, one row per
    # kernel kernels.tsv gives the program, without running it; cuobjdump prints a line.
    local out=$BATS_TEST_TMPDIR/report-nv build=$BATS_TEST_TMPDIR/nvbuild
    mkdir -p "$build" "$BATS_TEST_TMPDIR/data"
    run env -u MAKEFLAGS PATH="$PWD/tests/stand_in:$PATH" STAND_IN_BUILDS="$PWD/$CPU_BUILD/validation $PWD/${CPU_BUILD/build\/cpu/build/cpu-wave32}/validation" \
        common/scripts/gpu_report.sh "$out" --platform nvidia --build "$build" --dataset "$BATS_TEST_TMPDIR/data" --only validation
    echo "$output"
    [ "$status" -eq 0 ]
    local programs kernels
    programs=$(awk -F'\t' '!/^#/ && $1 != "file" { print $1 }' common/model/validation/kernels.tsv | sort -u | wc -l)
    kernels=$(awk -F'\t' '!/^#/ && $1 != "file"' common/model/validation/kernels.tsv | wc -l)
    grep $'^validation\t' "$out/report.tsv"
    grep -q $'^validation\tok\t[0-9]*\t'"$kernels validation kernels timed by Nsight Compute; [0-9]* programs checked by --small --check; 0 failures" "$out/report.tsv"
    grep -q $'^build\tskipped\t0\tnot among --only validation' "$out/report.tsv"
    grep -q $'^device\tNVIDIA H200$' "$out/env.tsv"
    # one row a kernel, each at 1.5 us, under the trace's names
    [ "$(($(wc -l <"$out/validation.tsv") - 1))" -eq "$kernels" ]
    grep -q $'^liu_reduce_v5_v7.hip\treduce5<256u>\t1\t0.001500$' "$out/validation.tsv"
    # the raw files: each program's ncu CSV and SASS; at most the 8 files a lent machine sends back
    tar -tzf "$out/raw.tar.gz" >"$BATS_TEST_TMPDIR/raw.list"
    [ "$(grep -c '^./ncu-validation-.*\.csv$' "$BATS_TEST_TMPDIR/raw.list")" -eq "$programs" ]
    [ "$(grep -c '^./sass-validation-.*\.txt$' "$BATS_TEST_TMPDIR/raw.list")" -eq "$programs" ]
    [ "$(find "$out" -type f | wc -l)" -le 8 ]
}

@test "gpu-import: refuses the executor's report unless asked; with --allow-executor folds it into a copy of the tree" {
    local root=$BATS_TEST_TMPDIR/root
    mkdir -p "$root"
    git ls-files | tar -cf - -T - | tar -xf - -C "$root"
    md5sum README.md chapters/*/README.md plots/compare.tsv common/executor/README.md >"$BATS_TEST_TMPDIR/own.md5"
    run common/scripts/gpu_import.sh "$REPORT" --root "$root"
    [ "$status" -eq 1 ]
    [[ $output == *"was made on the CPU platform: its times are the executor's, not a GPU's (--allow-executor"* ]]
    run common/scripts/gpu_import.sh "$REPORT" --root "$root" --allow-executor
    echo "$output"
    [ "$status" -eq 0 ]
    cmp "$REPORT/compare.tsv" "$root/plots/compare.tsv"
    # the README's chapter table names the executor's times, with relative links
    grep -q '^| \[03-shared-memory-tiles\](chapters/03-shared-memory-tiles/) |.* ms per iteration on HIP CPU executor' "$root/README.md"
    # each chapter's measured part, between its markers, once
    for readme in "$root"/chapters/0[1-8]-*/README.md; do
        [ "$(grep -c '^<!-- gpu-measured:begin' "$readme")" -eq 1 ] || { echo "$readme"; return 1; }
        grep -q '^- \*\*Executor, not a GPU\*\*' "$readme"
        run grep -q 'not yet measured\|not measured on a GPU' "$readme"
        [ "$status" -eq 1 ]
    done
    grep -q '^  the report.s --check: ok: 18 of 18' "$root/chapters/05-loop-unrolling/README.md"
    grep -q '^No GPU kernel times in this report (compare: ok: ' "$root/common/executor/README.md"
    # a second import changes nothing
    cp -r "$root" "$BATS_TEST_TMPDIR/before"
    common/scripts/gpu_import.sh "$REPORT" --root "$root" --allow-executor >/dev/null
    diff -r "$BATS_TEST_TMPDIR/before" "$root"
    # the repository's own files were not touched
    cmp "$BATS_TEST_TMPDIR/own.md5" <(md5sum README.md chapters/*/README.md plots/compare.tsv common/executor/README.md)
}

@test "gpu-import of an H100's report: per kernel, measured beside modelled; the validation programs as the measured set, once" {
    local root=$BATS_TEST_TMPDIR/root gpu=$BATS_TEST_TMPDIR/gpu
    mkdir -p "$root" "$gpu"
    git ls-files | tar -cf - -T - | tar -xf - -C "$root"
    # the executor's report, relabelled as an H100's, with GPU-event times and validation timings this test writes
    cp "$REPORT"/report.tsv "$REPORT"/ncu.tsv "$gpu/"
    sed 's/^platform\t.*/platform\tnvidia/; s/^device\t.*/device\tNVIDIA H100 80GB HBM3/' "$REPORT/env.tsv" >"$gpu/env.tsv"
    sed 's/\tcpu\tHIP CPU executor (wave64)\t/\tnvidia\tNVIDIA H100 80GB HBM3\t/' "$REPORT/compare.tsv" >"$gpu/compare.tsv"
    printf 'chapter\tplatform\tkernel\tmedian_ms\tshare\tsamples\tclock\n' >"$gpu/kernels.tsv"
    printf '08-tuned-gfx906\tnvidia\ttrain_step\t%s\t0.9\t5\tGPU events\n' 0.30 0.10 0.20 >>"$gpu/kernels.tsv"
    printf '08-tuned-gfx906\tnvidia\tupdate\t0.01\t0.1\t5\tGPU events\n' >>"$gpu/kernels.tsv"
    printf 'file\tkernel\tlaunches\tms\nbabelstream.hip\tcopy_kernel<double>\t1\t0.19\nharris_transpose.hip\tcopy\t1\t0.0053\n' >"$gpu/validation.tsv"
    # a model of chapter 08 at the report's size, as make compare leaves it
    mkdir -p "$root/build/profile/compare/200"
    printf 'kernel\tdevice\tmodel_ms\ntrain_step\tgfx906\t0.5\ntrain_step\th100\t0.08\nupdate\th100\t0.04\n' \
        >"$root/build/profile/compare/200/08-tuned-gfx906.model.tsv"
    run common/scripts/gpu_import.sh "$gpu" --root "$root"
    echo "$output"
    [ "$status" -eq 0 ]
    # the median of the three runs (0.20) beside the model's h100 figure, and their ratio
    # the table on a page of its own, the README its summary and a link to it
    grep -q '^| 08-tuned-gfx906 | train_step | 0.2000 | 0.0800 | 0.40 |' "$root/plots/gpu-kernels.md"
    grep -q '^| 08-tuned-gfx906 | update | 0.0100 | 0.0400 | 4.00 |' "$root/plots/gpu-kernels.md"
    run grep -q '^| 08-tuned-gfx906 |' "$root/common/executor/README.md"
    [ "$status" -eq 1 ]
    grep -q '(../../plots/gpu-kernels.md)' "$root/common/executor/README.md"
    grep -q '^0 of 2 kernels modelled within 0.5x-2x of the measured time (0%)' "$root/common/executor/README.md"
    grep -q '`train_step` 0.2 (0.08), `update` 0.01 (0.04)' "$root/chapters/08-tuned-gfx906/README.md"
    # the measured set leads published.tsv, each row once, after a second import too
    common/scripts/gpu_import.sh "$gpu" --root "$root" >/dev/null
    local published=$root/common/model/validation/published.tsv
    [ "$(awk -F '\t' '!/^#/ && NR > 1 { print $1; exit }' "$published")" = measured-h100 ]
    [ "$(grep -c $'^measured-h100\tno\tbabelstream.hip\tcopy_kernel<double>\th100\t.*\t0.19\t' "$published")" -eq 1 ]
    [ "$(grep -c '^measured-h100' "$published")" -eq 2 ]
    # every other row is as it was
    diff <(grep -v '^measured-h100' common/model/validation/published.tsv) <(grep -v '^measured-h100' "$published")
}

@test "gpu-import --validation-only: an H200's validation table alone, each kernel filed under its kernels.tsv name, the report kept" {
    local root=$BATS_TEST_TMPDIR/root gpu=$BATS_TEST_TMPDIR/gpu
    mkdir -p "$root" "$gpu/quick"
    git ls-files | tar -cf - -T - | tar -xf - -C "$root"
    sed 's/^platform\t.*/platform\tnvidia/; s/^device\t.*/device\tNVIDIA H200/; s/^date\t.*/date\t2030-01-02/' "$REPORT/env.tsv" >"$gpu/env.tsv"
    # names as a demangler may print template values: a cast, an upper-case suffix, (bool)0 for false
    printf 'file\tkernel\tlaunches\tms\n' >"$gpu/quick/validation.tsv"
    printf 'liu_sgemv.hip\tSgemv_v2<(int)2>\t1\t0.004\nliu_reduce_v5_v7.hip\treduce5<256U>\t1\t0.08\n' >>"$gpu/quick/validation.tsv"
    printf 'liu_sgemm_v1.hip\tSgemm<128, 8, 128, 8, 8, (bool)0>\t1\t0.05\nbabelstream.hip\tcopy_kernel<double>\t1\t0.15\n' >>"$gpu/quick/validation.tsv"
    run common/scripts/gpu_import.sh "$gpu" --root "$root" --validation-only
    [ "$status" -eq 1 ] # no validation.tsv in the report itself
    [[ "$output" == *"--validation-only: $gpu/validation.tsv is missing or empty"* ]]
    run common/scripts/gpu_import.sh "$gpu" --root "$root" --validation-only --validation "$gpu/quick/validation.tsv"
    echo "$output"
    [ "$status" -eq 0 ]
    local published=$root/common/model/validation/published.tsv
    grep -q $'^measured-h200\tno\tliu_sgemv.hip\tSgemv_v2<2>\th200\t.*\t0.004\t' "$published"
    grep -q $'^measured-h200\tno\tliu_reduce_v5_v7.hip\treduce5<256u>\th200\t.*\t0.08\t' "$published"
    grep -q $'^measured-h200\tno\tliu_sgemm_v1.hip\tSgemm<128, 8, 128, 8, 8, false>\th200\t.*\t0.05\t' "$published"
    [ "$(grep -c '^measured-h200' "$published")" -eq 4 ]
    # nothing of the chapters is touched; the report's tables are kept beside the earlier ones
    cmp README.md "$root/README.md"
    cmp plots/compare.tsv "$root/plots/compare.tsv"
    [ -f "$root/plots/gpu-reports/2030-01-02-h200/validation.tsv" ]
    [ -f "$root/plots/gpu-reports/2030-01-02-h200/env.tsv" ]
}

# A sample in ncu's documented --csv --page details form: a program's own
# output first, one row per launch and metric, a kernel name with commas in
# quotes, a value with thousands separators, times in usecond and in "ns" (the
# short form an H100's ncu 2025.3 printed, 2026-11-26).
ncu_sample() {
    local head='"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"'
    local k1='"forward_scores(const float *, const float *, float *, int)"' k2='"update(float *, const float *, float, int)"'
    row() { printf '"%s","42","train","host",%s,"1","7","(256, 1, 1)","(60, 1, 1)","0","9.0","Command line profiler metrics","%s","%s","%s"\n' "$@"; }
    echo "chapter 01-naive-gemm | platform nvidia"
    echo "==PROF== Connected to process 42"
    echo "$head"
    row 0 "$k1" gpu__time_duration.sum usecond 1,500.00
    row 0 "$k1" l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum sector 8,000
    row 0 "$k1" l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum "" 1,000
    row 0 "$k1" dram__bytes_read.sum Mbyte 2.50
    row 0 "$k1" dram__bytes_write.sum Kbyte 500
    row 0 "$k1" sm__warps_active.avg.pct_of_peak_sustained_active % 40
    row 1 "$k2" gpu__time_duration.sum ns 4,000
    row 1 "$k2" sm__warps_active.avg.pct_of_peak_sustained_active % 10
    row 2 "$k1" gpu__time_duration.sum usecond 500
    row 2 "$k1" l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum sector 2,000
    row 2 "$k1" l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum "" 1,000
    row 2 "$k1" sm__warps_active.avg.pct_of_peak_sustained_active % 60
}

@test "ncu_table.awk: per kernel from ncu's documented CSV form, worked by hand (a sample this test writes)" {
    ncu_sample >"$BATS_TEST_TMPDIR/ncu.csv"
    run awk -v chapter=01-naive-gemm -f common/scripts/ncu_table.awk "$BATS_TEST_TMPDIR/ncu.csv"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = $'chapter\tkernel\tlaunches\tms\tsectors_per_request\tshared_bank_conflicts\tatomic_requests\tdram_bytes\tachieved_occupancy_pct' ]
    # forward_scores: 2 launches, 1.5 + 0.5 ms, (8000 + 2000) / (1000 + 1000) = 5 sectors a request,
    # 2.5 MB + 500 kB = 3,000,000 bytes, occupancy (40 + 60) / 2 = 50%; no bank-conflict or atomic metric: -
    [ "${lines[1]}" = $'01-naive-gemm\tforward_scores\t2\t2.000000\t5.00\t-\t-\t3000000\t50.0' ]
    # update: 4,000 ns = 0.004 ms, no load metric: -
    [ "${lines[2]}" = $'01-naive-gemm\tupdate\t1\t0.004000\t-\t-\t-\t-\t10.0' ]
    # no header: an error that names what it looked for
    run awk -v chapter=x -f common/scripts/ncu_table.awk <(echo "==PROF== nothing profiled")
    [ "$status" -eq 1 ]
    [[ $output == *'no ncu --csv header ("Kernel Name", "Metric Name", "Metric Value")'* ]]
    # a time in a unit the table does not know: an error naming it, not a number in the wrong unit
    ncu_sample | sed 's/"usecond","1,500.00"/"fortnight","1,500.00"/' >"$BATS_TEST_TMPDIR/odd.csv"
    run awk -v chapter=x -f common/scripts/ncu_table.awk "$BATS_TEST_TMPDIR/odd.csv"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"gpu__time_duration.sum comes in 'fortnight', a time unit this table does not know"* ]]
}

@test "gpu-bundle lists the four dataset files to carry; the PyTorch baseline compiles and says so without torch" {
    run make --no-print-directory gpu-bundle DATASET_DIR="$DATASET_DIR"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$(grep -c "^  $DATASET_DIR/.*-ubyte .* verified$" <<<"$output")" -eq 4 ]
    [[ $output == *'carry: ["'"$DATASET_DIR"'/train-images-idx3-ubyte", '* ]]
    # compiled, not run: written nowhere (py_compile would leave a __pycache__ in the tree)
    python3 -c 'import sys; compile(open(sys.argv[1]).read(), sys.argv[1], "exec")' common/scripts/torch_baseline.py
    if ! python3 -c 'import torch' 2>/dev/null; then
        run python3 common/scripts/torch_baseline.py --dataset "$DATASET_DIR" --out "$BATS_TEST_TMPDIR/t.tsv"
        [ "$status" -eq 1 ]
        [[ $output == *"torch_baseline: python3 has no torch"* ]]
    fi
}

@test "the executor: one object per source, so a changed source rebuilds its own and the link, no other" {
    # a build folder of its own: every object there (make -j2 compiles them side by side)
    local build=$BATS_TEST_TMPDIR/trace
    plain_make -s -j2 HIP_PLATFORM=cpu TRACE=1 BUILD="$build" "$build/executor.o" >/dev/null
    run plain_make -n -W common/tracer/trace_race.cpp HIP_PLATFORM=cpu TRACE=1 BUILD="$build" "$build/executor.o"
    [ "$status" -eq 0 ]
    [ "$(grep -oE ' -c common/[^ ]+' <<<"$output" | tr '\n' ' ')" = " -c common/tracer/trace_race.cpp " ]
    [[ "${lines[-1]}" == "ld -r "*"$build/common/executor/scheduler.o "*" -o $build/executor.o" ]]
}

@test "-MMD -MP: a header change rebuilds the objects that include it, and no others" {
    # a reader's build (plain_make: no SANITIZE), build/cpu
    plain_make -s HIP_PLATFORM=cpu build/cpu/libhost.a build/cpu/liblinear.a >/dev/null
    run plain_make -n -W common/host/idx.h HIP_PLATFORM=cpu build/cpu/libhost.a
    [ "$status" -eq 0 ]
    [ "$(grep -oE ' -c common/[^ ]+' <<<"$output" | sort | tr '\n' ' ')" = " -c common/host/idx.c  -c common/host/mnist.c " ]
    run plain_make -n -W common/linear/model.h HIP_PLATFORM=cpu build/cpu/liblinear.a
    grep -q ' -c common/linear/model.c' <<<"$output"
    run grep -q ' -c common/host/idx.c' <<<"$output"
    [ "$status" -eq 1 ]
}
