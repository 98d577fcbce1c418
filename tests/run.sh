#!/usr/bin/env bash
# Runs every test program and bats file, each of which speaks TAP, and ends
# with the list of skipped and of failed tests and the closing line
# "N passed, N failed[, N skipped]". A skip prints as "ok N # SKIP ..." and
# counts as a skip, never as a failure (tests/tap.bash).
# Called by `make test`, which builds everything first and sets
# TEST_BUILD, CPU_BUILD, DATASET_DIR, GPU_PLATFORM, GPU_BUILD (where make built its chapters), NVCC, SANITIZE,
# FUZZ_SECONDS and BROKEN_KERNEL_BINARY.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=common/scripts/lib.sh
. common/scripts/lib.sh
SCRIPT_NAME="make test"
: "${TEST_BUILD:=build/tests}" "${CPU_BUILD:=build/cpu}"
export TEST_BUILD CPU_BUILD DATASET_DIR GPU_PLATFORM GPU_BUILD NVCC SANITIZE FUZZ_SECONDS BROKEN_KERNEL_BINARY
export CMOCKA_MESSAGE_OUTPUT=TAP

# Sanitizer reports, from SANITIZE builds and from the programs that are
# always sanitized (the fuzzer, the broken kernel): ASan and LSan write theirs
# into SANITIZER_LOGS (not to stderr) and exit with status 86, UBSan stops the
# program with status 87. A test that expects a failure status still cannot
# hide a report: the last step below fails if any file is there. Tests that
# expect a report set their own ASAN_OPTIONS. Your ASAN_OPTIONS and
# UBSAN_OPTIONS come after these and win (detect_leaks=0 where a container
# forbids the ptrace that leak checks need).
SANITIZER_LOGS=build/sanitizer-logs
rm -rf "$SANITIZER_LOGS"
mkdir -p "$SANITIZER_LOGS"
chmod 1777 "$SANITIZER_LOGS" # tests that run a trainer as nobody
export SANITIZER_LOGS
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=86:log_path=$PWD/$SANITIZER_LOGS/asan${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=87${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

# The source tree as the suite found it: tracked files' changes and the
# untracked files git does not ignore, with their contents (a test writes
# only under build/ and temporary folders; quick runs never rewrite tracked
# files). Compared once the tests have run.
tree_state() {
    git status --porcelain --untracked-files=all
    git diff --binary HEAD | sha256sum
    git ls-files -z --others --exclude-standard | xargs -0 -r sha256sum
}
in_git=
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    in_git=1
    tree_before=$(tree_state)
fi

# run_tap, and tap_line, which prints cmocka's "not ok N # SKIP" as "ok N # SKIP".
source tests/tap.bash
passed=0 failed=0 skipped=0
failures=() skips=() file_times=() test_times=()

# not_built PROGRAM: one failed TAP test for a test program make did not build.
not_built() {
    echo "1..1"
    echo "not ok 1 $1 is not built (make test builds every tests/test_*.c, tests/test_executor_*.cpp and tests/test_trace_*.cpp first)"
}
# run_built NAME PROGRAM: the program's TAP under NAME, or one failure if it is not built.
run_built() {
    if [ -x "$2" ]; then
        run_tap "$1" "$2"
    else
        run_tap "$1" not_built "$2"
    fi
}
for source in tests/test_*.c; do
    program=$TEST_BUILD/$(basename "$source" .c)
    run_built "$(basename "$program")" "$program"
done
# The executor's tests at wave 64 and wave 32, and its trace build's micro-kernels at both.
wave32_build=build/cpu-wave32${SANITIZE:+-san}
for source in tests/test_executor_*.cpp; do
    name=$(basename "$source" .cpp)
    run_built "$name" "$CPU_BUILD/tests/$name"
    run_built "${name}_wave32" "$wave32_build/tests/$name"
done
for source in tests/test_trace_*.cpp; do
    for program in "build/trace/tests/$(basename "$source" .cpp)" "build/trace-wave32/tests/$(basename "$source" .cpp)"; do
        run_built "$program" "$program"
    done
done
# The bats files, TEST_JOBS at a time (default 2; 1: one after another). A
# file whose header has a line "# test-lane: NAME" runs in lane NAME, one
# after another with the others of that lane: they write the same outputs
# (make profile-N, make compare, make tune, make resources), so never at the
# same time. Each worker runs the lanes given to it, then takes the other
# files one by one from a queue until none is left, so the workers end
# together however long each file takes. Each file's TAP is kept and
# reported in file order once all have run.
lanes=$(mktemp -d "${TMPDIR:-/tmp}/lanes.XXXXXX")
jobs=${TEST_JOBS:-2}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die_usage "TEST_JOBS must be a whole number, 1 or more, got '$jobs'"
declare -A lane_files=()
named=()
: >"$lanes/queue"
for file in tests/*.bats; do
    lane=$(sed -n 's/^# test-lane: *\([a-z0-9-]*\)$/\1/p' "$file" | head -n 1)
    if [ -n "$lane" ]; then
        [ -n "${lane_files[$lane]:-}" ] || named+=("$lane")
        lane_files[$lane]+="$file "
    else
        echo "$file" >>"$lanes/queue"
    fi
done
# next_queued: the next file of the queue, taken under a lock; nothing when it is empty.
next_queued() {
    flock "$lanes/queue.lock" sh -c 'head -n 1 "$1" && sed -i 1d "$1"' sh "$lanes/queue"
}
# worker FILE...: these in order, then files from the queue until none is left.
worker() {
    local file
    for file in "$@"; do capture_tap "$lanes" "$(basename "$file")" bats --tap --timing "$file"; done
    while file=$(next_queued) && [ -n "$file" ]; do
        capture_tap "$lanes" "$(basename "$file")" bats --tap --timing "$file"
    done
}
for ((w = 0; w < jobs; w++)); do
    mine=()
    for ((l = w; l < ${#named[@]}; l += jobs)); do
        # shellcheck disable=SC2206 # a lane's files: paths without spaces
        mine+=(${lane_files[${named[l]}]})
    done
    worker ${mine[@]+"${mine[@]}"} &
done
wait
for file in tests/*.bats; do
    report_tap "$lanes" "$(basename "$file")"
done
rm -rf "$lanes"

# One TAP test: no sanitizer report was written while the tests above ran.
sanitizer_reports() {
    echo "1..1"
    local reports
    reports=$(find "$SANITIZER_LOGS" -type f | sort)
    if [ -z "$reports" ]; then
        echo "ok 1 no AddressSanitizer or LeakSanitizer report from any test"
        return
    fi
    echo "not ok 1 sanitizer reports in $SANITIZER_LOGS: $(wc -l <<<"$reports") file(s)"
    local report
    while IFS= read -r report; do
        echo "# $report:"
        sed 's/^/#   /' "$report"
    done <<<"$reports"
}
run_tap "sanitizer reports" sanitizer_reports

# One TAP test: the tests left the source tree as they found it.
tree_unchanged() {
    echo "1..1"
    if [ -z "$in_git" ]; then
        echo "ok 1 # SKIP not a git checkout: nothing to compare the tree with"
        return
    fi
    local after
    after=$(tree_state)
    if [ "$after" = "$tree_before" ]; then
        echo "ok 1 the source tree is as the tests found it"
        return
    fi
    echo "not ok 1 the tests changed the source tree (git status before and after):"
    diff <(echo "$tree_before") <(echo "$after") | sed 's/^/#   /'
}
run_tap "source tree" tree_unchanged

report_times 10
if [ ${#skips[@]} -gt 0 ]; then
    echo "# skipped:"
    printf '#   %s\n' "${skips[@]}"
fi
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
