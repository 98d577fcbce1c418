#!/usr/bin/env bats
# Reliability of the GPU side and of the outputs: sanitizers see kernel bugs
# on the CPU executor, device errors name what failed, runs are reproducible,
# and an interrupted run or download never leaves a file that looks whole.

load helpers
load small_dataset

# Built by `make test`, always with ASan and UBSan (see tests/broken_kernel.hip).
BROKEN="${BROKEN_KERNEL_BINARY:-build/cpu-san/broken_kernel}"

# The static check of HIP calls (an awk program; mawk will do): a runtime
# call must be inside HIP_CHECK( or assign a hipError_t that the code then
# tests (the runtime's own checks); only gpu_alloc, in the harness's
# runtime common/gpu/gpu_runtime.hip, may call hipMalloc (it names the buffer); hipGetErrorString and hipGetErrorName cannot fail; every
# hipLaunchKernelGGL must be followed by HIP_CHECK_LAUNCH of the same kernel
# before the next launch or the end of the function.
HIP_CALL_CHECK='
    function fail(message) { printf "%s:%d: %s\n", FILENAME, FNR, message; bad = 1 }
    function unchecked_launch() {
        if (pending != "") printf "%s:%d: launch of %s has no HIP_CHECK_LAUNCH\n", pending_file, pending_line, pending
        if (pending != "") bad = 1
        pending = ""
    }
    FNR == 1 { unchecked_launch(); in_comment = 0 }
    {
        line = $0
        # Drop comments: /* ... */ (also across lines) and // ...
        out = ""
        while (line != "") {
            if (in_comment) {
                end = index(line, "*/")
                if (!end) { line = ""; break }
                line = substr(line, end + 2); in_comment = 0
            } else {
                start = index(line, "/*")
                if (!start) { out = out line; break }
                out = out substr(line, 1, start - 1); line = substr(line, start + 2); in_comment = 1
            }
        }
        sub(/\/\/.*/, "", out)
        code = out
    }
    code ~ /^}/ { unchecked_launch() }
    code ~ /hipLaunchKernelGGL\(/ {
        unchecked_launch()
        rest = code; sub(/.*hipLaunchKernelGGL\([ \t]*/, "", rest); sub(/[ \t]*,.*/, "", rest)
        pending = rest; pending_line = FNR; pending_file = FILENAME
    }
    code ~ /HIP_CHECK_LAUNCH\(/ {
        name = code; sub(/.*HIP_CHECK_LAUNCH\([ \t]*/, "", name); sub(/[ \t]*\).*/, "", name)
        if (pending == "") fail("HIP_CHECK_LAUNCH(" name ") follows no launch")
        else if (name != pending) fail("HIP_CHECK_LAUNCH(" name ") after a launch of " pending)
        pending = ""
    }
    {
        rest = code
        while (match(rest, /hip[A-Z][A-Za-z]*\(/)) {
            call = substr(rest, RSTART, RLENGTH - 1)
            before = substr(rest, 1, RSTART - 1)
            rest = substr(rest, RSTART + RLENGTH)
            if (call == "hipLaunchKernelGGL" || call == "hipGetErrorString" || call == "hipGetErrorName") continue
            if (call == "hipMalloc" && FILENAME !~ /common\/gpu\/gpu_runtime\.hip$/) { fail("hipMalloc: use gpu_alloc, which names the buffer when it fails"); continue }
            if (before ~ /HIP_CHECK\([ \t]*$/) continue
            if (before ~ /hipError_t[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*=[ \t]*$/) continue
            fail(call " is not checked: wrap it in HIP_CHECK()")
        }
    }
    END { unchecked_launch(); exit bad }
'

# The GPU chapters present, as their two-digit numbers.
gpu_chapters() {
    local dir
    for dir in chapters/[0-9][0-9]-*/; do
        dir=$(basename "$dir")
        [ "${dir%%-*}" = 00 ] || echo "${dir%%-*}"
    done
}

# 300 training and 50 test images: the runs below load them many times.
setup_file() {
    small_dataset "$BATS_FILE_TMPDIR/small" 300 50
}
SMALL="$BATS_FILE_TMPDIR/small"

need_broken() {
    [ -x "$BROKEN" ] || skip "$BROKEN is not built (make test builds it)"
}

# ---- Sanitizers on the CPU executor ------------------------------------------

@test "ASan reports a kernel that writes one past the end of a hipMalloc'd buffer" {
    need_broken
    # Our own options: the report must come to stderr, not to run.sh's log folder.
    run env ASAN_OPTIONS=detect_leaks=0:exitcode=86 BROKEN_KERNEL=overflow \
        "$BROKEN" "$SMALL" 1 --train-limit 10 --quiet
    echo "$output"
    [ "$status" -eq 86 ]
    [[ "$output" == *"ERROR: AddressSanitizer: heap-buffer-overflow"* ]]
    [[ "$output" == *"WRITE of size 4"* ]]
    # The buffer is 4000 bytes: an executor that rounded it up to 4096 would hide this.
    [[ "$output" =~ "is located 0 bytes "(to the right of|after)" 4000-byte region" ]]
    [[ "$output" == *"in write_past_end"* ]]
    [[ "$output" == *"in gpu_alloc"* ]]
    [[ "$output" != *"summary"* ]]
}

@test "the same kernel within bounds runs clean under ASan and UBSan (the control)" {
    need_broken
    mkdir "$BATS_TEST_TMPDIR/logs"
    run env ASAN_OPTIONS="detect_leaks=1:exitcode=86:log_path=$BATS_TEST_TMPDIR/logs/asan" \
        BROKEN_KERNEL=inbounds "$BROKEN" "$SMALL" 1 --train-limit 10 --quiet
    echo "$output"
    cat "$BATS_TEST_TMPDIR"/logs/* 2>/dev/null || true
    [ "$status" -eq 0 ]
    [[ "$output" == *"summary"* ]]
    [ -z "$(ls -A "$BATS_TEST_TMPDIR/logs")" ]
}

# ---- Device errors -----------------------------------------------------------

@test "an invalid launch (2048 threads per block) names the kernel" {
    need_broken
    run env BROKEN_KERNEL=launch "$BROKEN" "$SMALL" 1 --train-limit 10 --quiet
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "${lines[-1]}" =~ ^"broken_kernel: tests/broken_kernel.hip:"[0-9]+": launch of kernel 'write_past_end' failed: invalid configuration argument"$ ]]
}

@test "chapter 01: each failed hipMalloc names its buffer and size (HIPCPU_FAIL_ALLOC)" {
    local binary expected
    binary=$(chapter_binary 01)
    # 250 images: x_rows is 250 x 785 floats; loss_sum and correct hold 2 iterations.
    # sum_records' buffers last: a slot per image, then a sum per thread of its one block (1,024).
    expected=("x_rows (785000 bytes)" "labels (250 bytes)" "w (31400 bytes)" "loss_sum (8 bytes)"
        "correct (8 bytes)" "scores (10000 bytes)" "delta (10000 bytes)" "grad (31400 bytes)"
        "image_loss (1000 bytes)" "image_hit (1000 bytes)" "thread_loss (4096 bytes)" "thread_hits (4096 bytes)")
    for n in $(seq 1 ${#expected[@]}); do
        run env HIPCPU_FAIL_ALLOC=$n "$binary" "$SMALL" 2 --train-limit 250 --quiet
        echo "HIPCPU_FAIL_ALLOC=$n: $output"
        [ "$status" -eq 1 ]
        [ "${lines[-1]}" = "01-naive-gemm: hipMalloc of ${expected[n - 1]} failed: out of memory" ]
    done
    run env HIPCPU_FAIL_ALLOC=$((${#expected[@]} + 1)) "$binary" "$SMALL" 2 --train-limit 250 --quiet
    [ "$status" -eq 0 ]
}

@test "every GPU chapter: every hipMalloc failure is reported with a name and a size, then it runs" {
    for nn in $(gpu_chapters); do
        binary=$(chapter_binary "$nn")
        chapter=$(basename "$binary")
        for n in $(seq 1 60); do
            run env HIPCPU_FAIL_ALLOC=$n "$binary" "$SMALL" 1 --train-limit 250 --quiet
            echo "$chapter, HIPCPU_FAIL_ALLOC=$n: ${lines[-1]}"
            [ "$status" -eq 0 ] && break # every allocation has been failed once
            [ "$status" -eq 1 ]
            [[ "${lines[-1]}" =~ ^"$chapter: hipMalloc of "[A-Za-z_][A-Za-z0-9_\ ]*" ("[0-9]+" bytes) failed: out of memory"$ ]]
        done
        [ "$status" -eq 0 ]
    done
}

@test "every HIP runtime call in chapters/ and common/ is checked, every launch followed by HIP_CHECK_LAUNCH" {
    run awk "$HIP_CALL_CHECK" chapters/*/train.hip common/*/*.hip tests/broken_kernel.hip
    echo "$output"
    [ "$status" -eq 0 ]
}

@test "the static check above catches an unchecked call and a missing launch check" {
    # Its own control: a file with both mistakes must fail it.
    mkdir -p "$BATS_TEST_TMPDIR/chapters/99-bad"
    cat >"$BATS_TEST_TMPDIR/chapters/99-bad/train.hip" <<'EOF'
void chapter_iteration(const gpu_problem *p, void *scratch, int it)
{
    hipMemset(p->w, 0, 4); /* HIP_CHECK( in a comment does not count */
    hipLaunchKernelGGL(update, dim3(1), dim3(64), 0, 0, p->w);
}
EOF
    run awk "$HIP_CALL_CHECK" "$BATS_TEST_TMPDIR/chapters/99-bad/train.hip"
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"train.hip:3: hipMemset is not checked"* ]]
    [[ "$output" == *"train.hip:4: launch of update has no HIP_CHECK_LAUNCH"* ]]
}

# ---- Determinism -------------------------------------------------------------

@test "every GPU chapter on the executor: the same command gives bit-identical weights and CSV" {
    # Chapter 00's own case is in tests/chapter00.bats; the executor's random
    # schedule with a fixed seed is checked in test_executor_kernels.cpp.
    local out=$BATS_TEST_TMPDIR
    for nn in $(gpu_chapters); do
        binary=$(chapter_binary "$nn")
        for run in 1 2; do
            "$binary" "$SMALL" 2 --quiet \
                --weights-out "$out/w$run" --csv "$out/c$run" >/dev/null
        done
        echo "chapter $nn"
        cmp "$out/w1" "$out/w2"
        cmp "$out/c1" "$out/c2"
    done
}

# ---- Outputs are never half-written -------------------------------------------

# kill_when_training OUT BINARY ARGS...: starts the trainer, waits (up to 120 s,
# however slow a sanitized build on a loaded machine is) until it has printed
# a progress line, then kills it with SIGKILL; its output is left in OUT.
kill_when_training() {
    local log=$1 pid waited=0
    shift
    "$@" >"$log" 2>&1 &
    pid=$!
    until grep -q "iteration      1 " "$log"; do
        kill -0 "$pid" 2>/dev/null || { echo "the trainer ended before it trained"; cat "$log"; return 1; }
        sleep 0.2
        waited=$((waited + 1))
        [ "$waited" -lt 600 ] || { kill -KILL "$pid"; echo "no progress line in 120 s"; return 1; }
    done
    kill -KILL "$pid"
    wait "$pid" || true
}

@test "a run killed during training leaves no output file, and the old ones whole" {
    local out=$BATS_TEST_TMPDIR/out binary
    mkdir -p "$out"
    binary=$(chapter_binary 01)
    printf 'iteration,loss,train_accuracy\n1,0.5,0.5\n' >"$out/old.csv"
    cp "$out/old.csv" "$out/old.csv.before"
    kill_when_training "$BATS_TEST_TMPDIR/log1" "$binary" "$DATASET_DIR" 1000000 --train-limit 1000 \
        --csv "$out/new.csv" --weights-out "$out/new.weights" --bench-out "$out/new.tsv" \
        --predictions-out "$out/new.predictions"
    kill_when_training "$BATS_TEST_TMPDIR/log2" "$binary" "$DATASET_DIR" 1000000 --train-limit 1000 --csv "$out/old.csv"
    ls -A "$out"
    [ "$(ls -A "$out" | tr '\n' ' ')" = "old.csv old.csv.before " ]
    cmp "$out/old.csv" "$out/old.csv.before"
}

# A PATH where npm, curl and wget fail without touching the network; curl
# "downloads" FAKE_DOWNLOAD's content when that is set.
offline_path() {
    local bin="$BATS_TEST_TMPDIR/bin"
    mkdir -p "$bin"
    printf '#!/bin/sh\necho "npm: offline (test)" >&2\nexit 1\n' >"$bin/npm"
    printf '#!/bin/sh\necho "wget: offline (test)" >&2\nexit 4\n' >"$bin/wget"
    cat >"$bin/curl" <<'EOF'
#!/bin/sh
[ -n "$FAKE_DOWNLOAD" ] || { echo "curl: offline (test)" >&2; exit 6; }
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
printf '%s' "$FAKE_DOWNLOAD" >"$out"
EOF
    chmod +x "$bin"/*
    echo "$bin:$PATH"
}

# A dataset folder whose good files link to dataset/ (nothing is copied).
linked_dataset() {
    local folder=$1 name
    mkdir -p "$folder"
    for name in train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte t10k-labels-idx1-ubyte; do
        ln -s "$PWD/$DATASET_DIR/$name" "$folder/$name"
    done
}

@test "dataset/fetch.sh: a corrupted file is reported and left as it was; nothing half-written is left" {
    local folder="$BATS_TEST_TMPDIR/data"
    linked_dataset "$folder"
    rm "$folder/t10k-labels-idx1-ubyte"
    cp "$DATASET_DIR/t10k-labels-idx1-ubyte" "$folder/t10k-labels-idx1-ubyte"
    printf '\377' | dd of="$folder/t10k-labels-idx1-ubyte" bs=1 seek=100 conv=notrunc status=none # label 255
    cp "$folder/t10k-labels-idx1-ubyte" "$BATS_TEST_TMPDIR/saved"
    run env PATH="$(offline_path)" bash dataset/fetch.sh "$folder"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"dataset: error: $folder/t10k-labels-idx1-ubyte fails verification against dataset/SHA256SUMS (the MNIST digits); nothing was changed"* ]]
    cmp "$folder/t10k-labels-idx1-ubyte" "$BATS_TEST_TMPDIR/saved"
    [ "$(ls -A "$folder" | wc -l)" -eq 4 ] # the three good links and the kept file, no temporary file
}

@test "dataset/fetch.sh: a download that fails its checksum is discarded" {
    local folder="$BATS_TEST_TMPDIR/data"
    linked_dataset "$folder"
    rm "$folder/train-labels-idx1-ubyte"
    run env PATH="$(offline_path)" FAKE_DOWNLOAD="not MNIST" bash dataset/fetch.sh "$folder"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"train-labels-idx1-ubyte from "*"/train-labels-idx1-ubyte.gz: sha256 "*" does not match SHA256SUMS ("*"); discarded"* ]]
    [ ! -e "$folder/train-labels-idx1-ubyte" ]
    [ "$(ls -A "$folder" | wc -l)" -eq 3 ]
}

@test "dataset/fetch.sh: four verified files are accepted without fetching anything" {
    local folder="$BATS_TEST_TMPDIR/data"
    linked_dataset "$folder"
    run env PATH="$(offline_path)" bash dataset/fetch.sh "$folder"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$output" = "dataset: all four files present and verified" ]
}
