#!/usr/bin/env bash
# `make readme-figures`: every block of a README that quotes a command's
# output, between markers that name the command and the parts quoted, is
# written by running that command:
#
#   <!-- figure: make profile-7 | counters model why -->
#   ```
#   (what plots/figure_part.awk picks of the command's output)
#   ```
#   <!-- figure end -->
#
# The command is `make TARGET` with an optional ARGS="..." (no other shell);
# the parts are plots/figure_part.awk's. Each command runs once however many
# blocks quote it.
#
#   plots/readme_figures.sh [--check] [--limit N] FILE...
#
#   (no option)  rewrite FILE's blocks; a FILE is replaced only when all its
#                commands ran, and left as it was when nothing changed
#   --check      rewrite nothing: run each block's command on a small slice
#                and fail, naming the file, line and command, where the block
#                no longer matches it. A command that names its own
#                --train-limit is run as written and must match exactly; one
#                on full MNIST is run with --train-limit N (default 1024) and
#                what does not depend on the image count must match (its
#                kernels, columns, call sites and quoted source lines;
#                plots/figure_part.awk's shape).
#
# Never run by make compare, make plots or make test in rewrite mode: it
# rewrites tracked files.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common/scripts/lib.sh
. "$here/../common/scripts/lib.sh"
check=0 limit=1024
SCRIPT_NAME=readme-figures
parse_options check! limit -- "$@"
[[ $limit =~ ^[1-9][0-9]*$ ]] || die "--limit needs a positive whole number of images, not '$limit'"
files=(${REST[@]+"${REST[@]}"})
[ ${#files[@]} -gt 0 ] || die "no README given (plots/readme_figures.sh [--check] [--limit N] FILE...)"
[ $check = 1 ] || refuse_uncommitted "make readme-figures" "${files[@]}" # before its minutes of profiles

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run_command COMMAND: its output, cached in $work by command; the exit status
# of make. COMMAND is `make TARGET [ARGS="..."]`, checked here, never evaluated.
declare -A cached=()
run_command() {
    local command=$1 key
    key=$(printf '%s' "$command" | cksum | tr ' ' _)
    if [ -z "${cached[$key]:-}" ]; then
        [[ $command =~ ^make\ ([a-z0-9-]+)(\ ARGS=\"([^\"\$\`\\]*)\")?$ ]] ||
            { echo "not a command this script runs: '$command' (make TARGET [ARGS=\"...\"])" >"$work/$key.err"; return 1; }
        local target=${BASH_REMATCH[1]} args=${BASH_REMATCH[3]}
        # a reader's make: none of the calling make's or test's settings
        if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SANITIZE -u ARGS \
            make -s --no-print-directory "$target" ARGS="$args" >"$work/$key.out" 2>"$work/$key.err"; then
            return 1
        fi
        cached[$key]=1
    fi
    cat "$work/$key.out"
}

# slice_command COMMAND: the command --check runs, and whether its block must
# match exactly (a command that names its own slice) or in shape.
slice_command() {
    local command=$1
    if [[ $command == *--train-limit* ]]; then
        printf '%s\texact\n' "$command"
    elif [[ $command == *'ARGS="'* ]]; then
        printf '%s\tshape\n' "${command%\"} --train-limit $limit\""
    else
        printf '%s\tshape\n' "$command ARGS=\"--train-limit $limit\""
    fi
}

# chapter_of COMMAND: the source of make profile-N's chapter (chapters/NN-name/train.hip).
chapter_of() {
    local n
    [[ $1 =~ ^make\ profile-([0-9]+) ]] || return 0
    n=$(printf '%02d' "$((10#${BASH_REMATCH[1]}))")
    for dir in chapters/"$n"-*/; do [ -f "$dir/train.hip" ] && echo "${dir}train.hip"; done
}

# The blocks of FILE: line of the opening marker, line of the closing one,
# command, parts (tab-separated); a malformed marker stops the script.
blocks() {
    awk -v file="$1" '
    function fail(message) { printf "readme-figures: %s:%d: %s\n", file, NR, message > "/dev/stderr"; bad = 1; exit 1 }
    /^<!-- figure end -->$/ {
        if (!open) fail("a closing marker with no opening one")
        printf "%d\t%d\t%s\t%s\n", open, NR, command, parts
        open = 0
        next
    }
    /^<!-- figure:/ {
        if (open) fail("a figure block opened inside another (line " open ")")
        line = $0
        if (line !~ /^<!-- figure: .* \| .* -->$/) fail("the marker is not <!-- figure: COMMAND | PARTS -->")
        sub(/^<!-- figure: /, "", line)
        sub(/ -->$/, "", line)
        command = line
        sub(/ \| .*/, "", command)
        parts = substr(line, length(command) + 4)
        open = NR
    }
    END { if (bad) exit 1; if (open) { printf "readme-figures: %s:%d: this figure block is never closed\n", file, open > "/dev/stderr"; exit 1 } }
    ' "$1"
}

# The fenced block a figure is written as, and a line naming its command and date.
fenced() {
    echo '```'
    cat
    echo '```'
    printf 'Written by `make readme-figures` from `%s` on %s (%s, HIP_PLATFORM=cpu).\n' "$1" "$(date +%F)" "$(uname -m)"
}

status=0
for file in "${files[@]}"; do
    [ -f "$file" ] || die "$file: no such file"
    list=$(blocks "$file") || exit 1
    [ -n "$list" ] || continue
    if [ $check = 0 ]; then
        # rewrite: every block's new text first, then the file once
        index=0
        while IFS=$'\t' read -r open close command parts; do
            index=$((index + 1))
            if ! run_command "$command" >"$work/output"; then
                sed 's/^/  /' "$work/"*.err | tail -20 >&2
                die "$file:$open: '$command' failed; $file is left as it was"
            fi
            awk -v parts="$parts" -v shape=0 -f "$here/figure_part.awk" "$work/output" | fenced "$command" >"$work/block.$index" ||
                die "$file:$open: '$command' printed no '$parts' ($file is left as it was)"
        done <<<"$list"
        awk -v list="$list" -v dir="$work" '
        BEGIN {
            n = split(list, rows, "\n")
            for (i = 1; i <= n; i++) { split(rows[i], f, "\t"); opens[f[1]] = i; closes[f[2]] = 1 }
        }
        NR in opens { print; while ((getline line < (dir "/block." opens[NR])) > 0) print line; skipping = 1; next }
        NR in closes { skipping = 0 }
        !skipping { print }
        ' "$file" >"$work/new"
        if cmp -s "$work/new" "$file"; then
            echo "readme-figures: $file: up to date"
        else
            cat "$work/new" >"$file"
            echo "readme-figures: $file: rewritten"
        fi
        continue
    fi
    # check
    while IFS=$'\t' read -r open close command parts; do
        IFS=$'\t' read -r sliced how <<<"$(slice_command "$command")"
        if ! run_command "$sliced" >"$work/output"; then
            sed 's/^/  /' "$work/"*.err | tail -20 >&2
            error "$file:$open: '$sliced' failed"
            status=1
            continue
        fi
        shape=0
        [ "$how" = exact ] || shape=1
        # what is between the block's two fences
        sed -n "$((open + 1)),$((close - 1))p" "$file" | awk '/^```/ { fences++; next } fences == 1' >"$work/quoted"
        if [ $shape = 1 ]; then
            # the quoted block, put through the same shape as the slice's output
            awk -v parts="$parts" -v shape=1 -f "$here/figure_part.awk" "$work/quoted" >"$work/expected" 2>/dev/null ||
                { error "$file:$open: the block is not the '$parts' of make's output"; status=1; continue; }
        else
            cp "$work/quoted" "$work/expected"
        fi
        awk -v parts="$parts" -v shape=$shape -f "$here/figure_part.awk" "$work/output" >"$work/actual" ||
            { error "$file:$open: '$sliced' printed no '$parts'"; status=1; continue; }
        # The source view prints the lines with the largest shares, which
        # depend on the image count: in shape, each quoted line must still be
        # that line of its source (the chapter's train.hip, or a header in
        # common/), its text as the view cuts it.
        if [ $shape = 1 ] && [[ " $parts " == *" source"* ]]; then
            chapter=$(chapter_of "$command")
            if ! awk -v chapter="$chapter" -f "$here/source_lines.awk" "$work/expected" >"$work/missing" ||
                [ -s "$work/missing" ]; then
                error "$file:$open: these lines of the block are no longer those of their source (run make readme-figures):"
                sed 's/^/  /' "$work/missing" >&2
                status=1
            fi
            continue
        fi
        if ! diff -u "$work/expected" "$work/actual" >"$work/diff"; then
            error "$file:$open: the block no longer matches '$sliced' (${how}; run make readme-figures):"
            sed -n '3,40p' "$work/diff" >&2
            status=1
        fi
    done <<<"$list"
done
[ $check = 0 ] || [ $status != 0 ] || echo "readme-figures: every figure block matches its command"
exit $status
