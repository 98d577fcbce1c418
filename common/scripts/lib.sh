# shellcheck shell=bash
# The shell scripts' one way to report an error, sourced by every script that
# reports one, from its own location (never the current folder), e.g.
#   . "$(dirname "${BASH_SOURCE[0]}")/../common/scripts/lib.sh"
# (plots/lib.sh sources it for the plot scripts). After sourcing it a script
# sets SCRIPT_NAME, the name its messages start with: what it serves ("make
# tune", "compare") or what it is ("validate", "fuzz"). Sourcing resets
# SCRIPT_NAME to the script's file name and ERROR_TAG to nothing, so neither
# comes in from the environment.
#
#   die MESSAGE [DETAIL...]        on stderr:
#                                    NAME: MESSAGE
#                                    NAME:   DETAIL       (each DETAIL a line)
#                                  then exit status 1
#   die_usage MESSAGE [DETAIL...]  the same, exit status 2: called wrongly (a
#                                  bad argument or setting)
#   error MESSAGE [DETAIL...]      the same lines, and no exit: for a script
#                                  that reports every failure, then fails
#   print_table [FILE]             a tab-separated table (FILE or stdin) in
#                                  aligned columns, two spaces apart: what
#                                  `column -t -s TAB` prints, without needing
#                                  it (a lent GPU machine had no `column`)
#
# NAME is SCRIPT_NAME. ERROR_TAG, when set, comes between NAME and MESSAGE:
# dataset/fetch.sh prints progress lines "dataset: ..." and errors
# "dataset: error: ...". A message about one file may name the file instead
# of the script: SCRIPT_NAME=FILE die MESSAGE (for that call only).

SCRIPT_NAME=${0##*/}
ERROR_TAG=

error() {
    local line
    printf '%s: %s%s\n' "$SCRIPT_NAME" "${ERROR_TAG:+$ERROR_TAG: }" "${1-}" >&2
    for line in "${@:2}"; do printf '%s:   %s\n' "$SCRIPT_NAME" "$line" >&2; done
}

die() {
    error "$@"
    exit 1
}

die_usage() {
    error "$@"
    exit 2
}

print_table() {
    awk -F '\t' '{ rows[NR] = $0; for (i = 1; i <= NF; i++) if (length($i) > width[i]) width[i] = length($i) }
        END { for (r = 1; r <= NR; r++) { n = split(rows[r], f, "\t"); line = ""
                  for (i = 1; i < n; i++) line = line sprintf("%-" width[i] + 2 "s", f[i])
                  print line f[n] } }' "$@"
}
