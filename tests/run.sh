#!/usr/bin/env bash
# Runs every test program and bats file, each of which speaks TAP, and ends
# with the closing line "N passed, N failed[, N skipped]".
# Called by `make test`, which builds everything first and sets
# TEST_BUILD, CPU_BUILD, DATASET_DIR, GPU_PLATFORM, NVCC and SANITIZE.
set -uo pipefail
cd "$(dirname "$0")/.."
: "${TEST_BUILD:=build/tests}" "${CPU_BUILD:=build/cpu}"
export TEST_BUILD CPU_BUILD DATASET_DIR GPU_PLATFORM NVCC SANITIZE
export CMOCKA_MESSAGE_OUTPUT=TAP
if [ -n "${SANITIZE:-}" ]; then
    # Leak checks need ptrace, which some containers forbid; keep the rest.
    export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
    export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
fi

passed=0 failed=0 skipped=0
failures=()

# run_tap NAME COMMAND...: runs a TAP producer, echoes its output, counts.
run_tap() {
    local name=$1
    shift
    echo "# --- $name"
    local output status
    output=$("$@" 2>&1)
    status=$?
    printf '%s\n' "$output"
    local p=0 f=0 s=0
    while IFS= read -r line; do
        shopt -s nocasematch
        case "$line" in
        "ok"*"# skip"* | "not ok"*"# skip"*) s=$((s + 1)) ;; # cmocka marks skips "not ok # SKIP"
        "not ok"*) f=$((f + 1)); failures+=("$name: ${line#not ok }") ;;
        "ok"*) p=$((p + 1)) ;;
        esac
        shopt -u nocasematch
    done <<<"$output"
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1
        failures+=("$name: exited with status $status without reporting a failed test")
    fi
    passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

for program in "$TEST_BUILD"/test_*; do
    [ -x "$program" ] || continue
    run_tap "$(basename "$program")" "$program"
done
for file in tests/*.bats; do
    run_tap "$(basename "$file")" bats --tap "$file"
done

if [ ${#failures[@]} -gt 0 ]; then
    echo "# failed:"
    printf '#   %s\n' "${failures[@]}"
fi
if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
