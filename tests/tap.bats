#!/usr/bin/env bats
# tests/tap.bash, the TAP reading of tests/run.sh: what counts as a pass, a
# failure and a skip, and cmocka's "not ok N # SKIP" printed as TAP's
# "ok N # SKIP", counted as a skip.

setup() {
    source tests/tap.bash
}

# kind_of LINE: "KIND|PRINTED LINE".
kind_of() {
    tap_line "$1"
    echo "$TAP_KIND|$TAP_LINE"
}

@test "tap_line: passes and failures, from cmocka and bats" {
    [ "$(kind_of 'ok 1 - test_parse_in_memory')" = "pass|ok 1 - test_parse_in_memory" ]
    [ "$(kind_of 'ok 12 make isa-1: names demangled')" = "pass|ok 12 make isa-1: names demangled" ]
    [ "$(kind_of 'ok')" = "pass|ok" ]
    [ "$(kind_of 'not ok 2 - test_truncated')" = "fail|not ok 2 - test_truncated" ]
    [ "$(kind_of 'not ok 3 a test whose name has a # in it')" = "fail|not ok 3 a test whose name has a # in it" ]
    [ "$(kind_of 'ok 4 skipping nothing: the word is in the name')" = "pass|ok 4 skipping nothing: the word is in the name" ]
}

@test "tap_line: a skip that cmocka writes as 'not ok N' with the SKIP directive is printed as ok, and is a skip" {
    [ "$(kind_of 'not ok 17 # SKIP test_unreadable_permission')" = "skip|ok 17 # SKIP test_unreadable_permission" ]
    [ "$(kind_of 'not ok 5 # skip')" = "skip|ok 5 # skip" ]
    # bats writes its skips as TAP does: unchanged.
    [ "$(kind_of 'ok 7 the GPU check # skip no GPU: set HIP_PLATFORM')" = "skip|ok 7 the GPU check # skip no GPU: set HIP_PLATFORM" ]
    [ "$(kind_of 'ok 8 name #SKIP')" = "skip|ok 8 name #SKIP" ]
}

@test "tap_line: the plan, comments and other output are neither tests nor changed" {
    for line in '1..19' '# --- test_loader' '# not ok 3 in a comment' 'okay, that was fast' \
        'not okay' '  ok 1 an indented subtest line' 'chapter: not ok 1 # SKIP' ''; do
        [ "$(kind_of "$line")" = "other|$line" ] || { echo "[$line] read as $(kind_of "$line")"; false; }
    done
}

@test "run_tap: counts a cmocka program's skip as a skip, prints it as ok, lists it" {
    passed=0 failed=0 skipped=0 failures=() skips=()
    producer() {
        printf '%s\n' '1..3' 'ok 1 - test_a' 'not ok 2 # SKIP test_unreadable_permission' 'ok 3 - test_c'
    }
    run_tap test_loader producer >"$BATS_TEST_TMPDIR/out"
    cat "$BATS_TEST_TMPDIR/out"
    [ "$passed" -eq 2 ]
    [ "$failed" -eq 0 ]
    [ "$skipped" -eq 1 ]
    grep -qx 'ok 2 # SKIP test_unreadable_permission' "$BATS_TEST_TMPDIR/out"
    run grep -q '^not ok' "$BATS_TEST_TMPDIR/out"
    [ "$status" -eq 1 ]
    [ "${skips[*]}" = "test_loader: 2 # SKIP test_unreadable_permission" ]
    [ ${#failures[@]} -eq 0 ]
}

@test "run_tap: a failure is counted and listed; a silent non-zero exit is one failure" {
    passed=0 failed=0 skipped=0 failures=() skips=()
    failing() { printf '%s\n' '1..2' 'ok 1 first' 'not ok 2 second'; return 1; }
    silent() { echo '1..1'; return 3; }
    run_tap failing failing >/dev/null
    run_tap silent silent >/dev/null
    [ "$passed" -eq 1 ]
    [ "$failed" -eq 2 ]
    [ "$skipped" -eq 0 ]
    [ "${failures[0]}" = "failing: 2 second" ]
    [ "${failures[1]}" = "silent: exited with status 3 without reporting a failed test" ]
}

@test "run_tap and report_times: each test's time from bats --timing and each file's, slowest first" {
    passed=0 failed=0 skipped=0 failures=() skips=() file_times=() test_times=()
    timed() { printf '%s\n' '1..3' 'ok 1 fast in 12ms' 'not ok 2 slow in 950ms' 'ok 3 untimed'; }
    run_tap timed.bats timed >/dev/null
    [ ${#test_times[@]} -eq 2 ]
    [ "${test_times[1]}" = "950 timed.bats: slow" ]
    [ ${#file_times[@]} -eq 1 ]
    [[ ${file_times[0]} =~ ^[0-9]+\ timed.bats$ ]]
    run report_times 1
    [ "${lines[0]}" = "# slowest tests (ms):" ]
    [ "${lines[1]}" = "#   950 timed.bats: slow" ]
    [ "${lines[2]}" = "# time per file (ms):" ]
    [ "${#lines[@]}" -eq 4 ]
}

@test "run_tap: a producer named by its path (build/trace/tests/test_trace) is kept and reported" {
    passed=0 failed=0 skipped=0 failures=() skips=() file_times=() test_times=()
    pathy() { printf '%s\n' '1..1' 'ok 1 first'; }
    run_tap build/trace/tests/test_trace pathy >"$BATS_TEST_TMPDIR/out"
    cat "$BATS_TEST_TMPDIR/out"
    [ "$passed" -eq 1 ]
    [ "$failed" -eq 0 ]
    grep -qx '# --- build/trace/tests/test_trace' "$BATS_TEST_TMPDIR/out"
}

@test "run_tap: a producer whose tests fall short of its plans, or that has none, is one failure" {
    passed=0 failed=0 skipped=0 failures=() skips=() file_times=() test_times=()
    short() { printf '%s\n' '1..3' 'ok 1 first' 'ok 2 second'; }
    planless() { echo 'ok 1 first'; }
    groups() { printf '%s\n' '1..1' 'ok 1 a' '1..2' 'ok 1 b' 'not ok 2 # SKIP c'; }
    run_tap short short >/dev/null
    run_tap planless planless >/dev/null
    run_tap groups groups >/dev/null
    [ "$passed" -eq 5 ]
    [ "$failed" -eq 2 ]
    [ "$skipped" -eq 1 ]
    [ "${failures[0]}" = "short: planned 3 tests, reported 2" ]
    [ "${failures[1]}" = "planless: no TAP plan (1..N): its tests cannot be counted" ]
}
