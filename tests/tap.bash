# Reading TAP, for tests/run.sh; tests/tap.bats feeds it lines.
#
# A test line is "ok N description" or "not ok N description" (N may be
# left out). A "# SKIP" directive after the description (any case, with a
# reason or not) makes it a skip, whichever of the two it starts with: cmocka
# writes a skipped test as "not ok N # SKIP name", which TAP itself reads as
# a failure, so run.sh prints it as TAP's "ok N # SKIP name". Every other line
# (the plan "1..N", "# comments", a program's own messages) is passed through.

# tap_line LINE: sets TAP_KIND to pass, fail, skip or other, and TAP_LINE to
# the line as run.sh prints it.
tap_line() {
    TAP_LINE=$1
    local status
    if [[ "$1" =~ ^ok([[:space:]]|$) ]]; then
        status=ok
    elif [[ "$1" =~ ^not\ ok([[:space:]]|$) ]]; then
        status="not ok"
    else
        TAP_KIND=other
        return
    fi
    local lower=${1,,}
    if [[ "$lower" =~ [[:space:]]#[[:space:]]*skip ]]; then
        TAP_KIND=skip
        [ "$status" = ok ] || TAP_LINE="ok${1:6}"
    elif [ "$status" = ok ]; then
        TAP_KIND=pass
    else
        TAP_KIND=fail
    fi
}

# run_tap NAME COMMAND...: runs a TAP producer and prints its output, each
# line through tap_line; adds its tests to the counters passed, failed and
# skipped, and a line per failure and per skip to the arrays failures and
# skips, which the caller declares. A producer that exits non-zero without
# reporting a failed test counts as one failure, and so does one whose tests
# do not add up to its plans ("1..N" lines: cmocka writes one per group). Its time goes to the array
# file_times ("MS NAME"), and each test's that says it (bats --timing: "...
# in 12ms") to test_times ("MS NAME: TEST"), for report_times.
run_tap() {
    local dir
    dir=$(mktemp -d "${TMPDIR:-/tmp}/tap.XXXXXX")
    capture_tap "$dir" "$@"
    report_tap "$dir" "$1"
    rm -rf "$dir"
}

# capture_tap DIR NAME COMMAND...: runs a TAP producer, keeping its output,
# exit status and milliseconds in DIR/NAME.out, .status and .ms (a / in NAME
# becomes _), so that
# producers can run side by side and be reported in order (report_tap).
capture_tap() {
    local dir=$1 name=$2 start status=0 file
    shift 2
    file=$dir/${name//\//_}
    start=$(date +%s%N)
    "$@" >"$file.out" 2>&1 || status=$?
    echo "$status" >"$file.status"
    echo "$((($(date +%s%N) - start) / 1000000))" >"$file.ms"
}

# report_tap DIR NAME: what run_tap does with a producer capture_tap ran.
report_tap() {
    local dir=$1 name=$2 file
    file=$dir/${name//\//_}
    echo "# --- $name"
    local status ms
    status=$(cat "$file.status") ms=$(cat "$file.ms")
    file_times+=("$ms $name")
    local p=0 f=0 s=0 line planned=0 plans=0
    while IFS= read -r line; do
        if [[ $line =~ ^1\.\.([0-9]+)([[:space:]]|$) ]]; then
            planned=$((planned + BASH_REMATCH[1])) plans=$((plans + 1))
        fi
        tap_line "$line"
        printf '%s\n' "$TAP_LINE"
        [[ $TAP_KIND != other && $TAP_LINE =~ ^(ok|not\ ok)\ [0-9]+\ (.*)\ in\ ([0-9]+)ms$ ]] &&
            test_times+=("${BASH_REMATCH[3]} $name: ${BASH_REMATCH[2]}")
        case "$TAP_KIND" in
        pass) p=$((p + 1)) ;;
        fail) f=$((f + 1)); failures+=("$name: ${TAP_LINE#not ok }") ;;
        skip) s=$((s + 1)); skips+=("$name: ${TAP_LINE#ok }") ;;
        esac
    done <"$file.out"
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1
        failures+=("$name: exited with status $status without reporting a failed test")
    elif [ "$plans" -eq 0 ]; then
        f=$((f + 1))
        failures+=("$name: no TAP plan (1..N): its tests cannot be counted")
    elif [ "$planned" -ne $((p + f + s)) ]; then
        failures+=("$name: planned $planned tests, reported $((p + f + s))")
        f=$((f + 1))
    fi
    passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

# report_times [COUNT]: the COUNT (default 10) slowest tests and every
# producer's time, slowest first, as TAP comments.
report_times() {
    local count=${1:-10}
    if [ ${#test_times[@]} -gt 0 ]; then
        echo "# slowest tests (ms):"
        printf '%s\n' "${test_times[@]}" | sort -rn | awk -v n="$count" 'NR <= n { print "#   " $0 }'
    fi
    if [ ${#file_times[@]} -gt 0 ]; then
        echo "# time per file (ms):"
        printf '%s\n' "${file_times[@]}" | sort -rn | sed 's/^/#   /'
    fi
}
