#!/usr/bin/env bats
# The time model's yardstick (common/model/validation/): every program of
# kernels.tsv, built by `make validation-programs` (make test builds them
# first) for the plain executor at the wave its code assumes, checks a small
# case of each of its kernels against a host reference (--small --check); each
# refuses an option it does not know; where nvcc is (and the run is not the
# sanitized one), each compiled by nvcc too, to PTX (a GPU day builds them whole).

load helpers

VALIDATION=common/model/validation
WAVE32_BUILD=${CPU_BUILD/build\/cpu/build/cpu-wave32}

# programs WAVE_PATTERN: the programs whose kernels.tsv wave matches.
programs() {
    awk -F'\t' -v want="$1" '/^#/ { next } !c { for (i = 1; i <= NF; i++) h[$i] = i; c = 1; next }
        $h["wave"] ~ want && !seen[$h["file"]]++ { sub(/\.hip$/, "", $h["file"]); print $h["file"] }' "$VALIDATION/kernels.tsv"
}

# checked BINARY: --small --check passes, one ok line a kernel at least, no failure.
checked() {
    run "$1" --small --check
    echo "$1 --small --check: status $status"
    echo "$output" | grep '^check ' || true
    [ "$status" -eq 0 ] || return 1
    [[ "$output" == *"(ok)"* ]] || return 1
    [[ "$output" != *"FAILED"* ]]
}

@test "validation programs: each checks a small case of its kernels against its host reference, at its own wave" {
    local name bad=0 n=0
    for name in $(programs '^(any|64)$'); do
        n=$((n + 1))
        checked "$CPU_BUILD/validation/$name" || bad=1
    done
    for name in $(programs '^32$'); do
        n=$((n + 1))
        checked "$WAVE32_BUILD/validation/$name" || bad=1
    done
    echo "$n programs"
    [ "$n" -ge 7 ]
    [ "$bad" -eq 0 ]
}

@test "validation programs: an option a program does not know is refused with its usage, status 2" {
    local name bad=0
    for name in $(programs '^(any|64)$'); do
        run "$CPU_BUILD/validation/$name" --sizes
        if [ "$status" -ne 2 ] || [[ "$output" != *sage* ]]; then
            echo "$name: status $status: $output"
            bad=1
        fi
    done
    [ "$bad" -eq 0 ]
}

@test "validation programs: nvcc compiles every one, host code and kernels, to PTX" {
    [ -x "${NVCC:-}" ] || skip "nvcc is not installed"
    [ -z "${SANITIZE:-}" ] || skip "the sanitized run builds no nvcc binary"
    local name bad=0
    for name in $(programs '.'); do
        [ -s "build/nvcc-validation/$name.ptx" ] || { echo "not compiled by nvcc: $name"; bad=1; }
    done
    [ "$bad" -eq 0 ]
}
