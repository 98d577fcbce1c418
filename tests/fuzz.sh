#!/usr/bin/env bash
# make fuzz: runs a libFuzzer target for a while with its output in a log,
# and ends with one line, the verdict:
#   fuzz: no crash in 60 s (123456 runs, corpus 54 inputs); log: build/fuzz.log
# or, with a non-zero status,
#   fuzz: CRASH: input saved as build/fuzz_crashes/crash-SHA1; reproduce with: build/tests/fuzz_loader FILE
# (LEAK, TIMEOUT, OOM likewise), after the sanitizer's SUMMARY line.
#
# Usage: tests/fuzz.sh FUZZER SECONDS LOG CRASH_DIR WORK_DIR SEED_DIR
#   FUZZER     the libFuzzer program (build/tests/fuzz_loader)
#   SECONDS    how long to fuzz (-max_total_time)
#   LOG        where libFuzzer's own output goes
#   CRASH_DIR  where a failing input is saved (-artifact_prefix)
#   WORK_DIR   the corpus new inputs are written to
#   SEED_DIR   the seeds, read and never written
set -euo pipefail
# shellcheck source=common/scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../common/scripts/lib.sh"
SCRIPT_NAME=fuzz

[ $# -eq 6 ] || die_usage "usage: tests/fuzz.sh FUZZER SECONDS LOG CRASH_DIR WORK_DIR SEED_DIR (got $# arguments)"
fuzzer=$1 seconds=$2 log=$3 crashes=$4 work=$5 seeds=$6
[ -x "$fuzzer" ] || die_usage "FUZZER '$fuzzer' is not an executable file (make fuzz builds build/tests/fuzz_loader)"
[[ "$seconds" =~ ^[1-9][0-9]{0,6}$ ]] || die_usage "FUZZ_SECONDS must be a whole number of seconds, 1 or more, got '$seconds'"
[ -d "$seeds" ] || die_usage "SEED_DIR '$seeds' is not a folder"
mkdir -p "$crashes" "$work" "$(dirname "$log")"

echo "fuzz: running $fuzzer for $seconds s on $work and $seeds; libFuzzer's output goes to $log"
status=0
"$fuzzer" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
    -artifact_prefix="${crashes%/}/" "$work" "$seeds" >"$log" 2>&1 || status=$?

# libFuzzer names every input it saves: "Test unit written to PATH"
# (a slow-unit-* is only a note, not a failure).
saved=$(sed -n '/Test unit written to .*slow-unit-/d; /Test unit written to /{s/.*Test unit written to //p;q}' "$log")
if [ -n "$saved" ]; then
    kind=$(basename "$saved")
    kind=${kind%%-*}
    grep -m 1 '^SUMMARY: ' "$log" >&2 || true
    die "${kind^^}: input saved as $saved; reproduce with: $fuzzer $saved; log: $log"
fi
# The statistics of a finished run: "Done 123456 runs in 61 second(s)", and the
# corpus size in the last status line ("... corp: 54/856b ...").
done_line=$(grep -m 1 '^Done [0-9]* runs in [0-9]* second' "$log" || true)
if [ "$status" -ne 0 ] || [ -z "$done_line" ]; then
    echo "the end of $log:" >&2
    tail -n 20 "$log" | sed 's/^/  /' >&2
    die "FAILED: $fuzzer exited with status $status without saving an input; log: $log"
fi
[[ "$done_line" =~ ^Done\ ([0-9]+)\ runs\ in\ ([0-9]+)\ second ]]
runs=${BASH_REMATCH[1]} elapsed=${BASH_REMATCH[2]}
corpus=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' "$log" | tail -n 1)
echo "fuzz: no crash in $elapsed s ($runs runs, corpus ${corpus:-?} inputs); log: $log"
