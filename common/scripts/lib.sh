# shellcheck shell=bash
# The shell scripts' one library, sourced by every script that reports an
# error or parses options, from its own location (never the current folder),
# e.g. from plots/:
#   . "$(dirname "${BASH_SOURCE[0]}")/../common/scripts/lib.sh"
# It sources nothing itself. After sourcing it a script sets SCRIPT_NAME, the
# name its messages start with: what it serves ("make tune", "compare") or
# what it is ("validate", "fuzz"). Sourcing resets SCRIPT_NAME to the
# script's file name and ERROR_TAG to nothing, so neither comes in from the
# environment.
#
# Errors:
#   die MESSAGE [DETAIL...]        on stderr:
#                                    NAME: MESSAGE
#                                    NAME:   DETAIL       (each DETAIL a line)
#                                  then exit status 1
#   die_usage MESSAGE [DETAIL...]  the same, exit status 2: called wrongly (a
#                                  bad argument or setting)
#   error MESSAGE [DETAIL...]      the same lines, and no exit: for a script
#                                  that reports every failure, then fails
# Tables, options, charts, times:
#   print_table [FILE]             a tab-separated table (FILE or stdin) in
#                                  aligned columns, two spaces apart: what
#                                  `column -t -s TAB` prints, without needing
#                                  it (a lent GPU machine had no `column`)
#   parse_options NAME... -- ARGS  --NAME VALUE options into variables
#   gp_string TEXT                 TEXT as a gnuplot string
#   host_cpu, now_ms, clock MS     the processor's name, the time, m:ss
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

# gp_string TEXT: TEXT as a double-quoted gnuplot string for `gnuplot -e`,
# new lines as \n (double quotes inside become single ones).
gp_string() {
    local s=$1
    s=${s//\\/\\\\}
    s=${s//\"/\'}
    s=${s//$'\n'/\\n}
    printf '"%s"' "$s"
}

# host_cpu: the model name of this machine's processor.
host_cpu() {
    local name
    name=$(awk -F ': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
    echo "${name:-$(uname -m)}"
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# clock MS: m:ss
clock() {
    local s=$(($1 / 1000))
    printf '%d:%02d' $((s / 60)) $((s % 60))
}

# parse_options NAME... -- ARGUMENTS...: every --NAME VALUE among ARGUMENTS
# into the variable NAME (a - becomes _: --out-dir sets out_dir), every
# --NAME given as NAME! into NAME=1 (a flag). Options come first; the rest,
# after them or after --, is left in the array REST. An unknown option or a
# missing value dies, naming it and the options there are.
parse_options() {
    local -a option_names=()
    local key name kind
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        option_names+=("$1")
        shift
    done
    shift
    while [ $# -gt 0 ]; do
        case $1 in
        --) shift && break ;;
        --*) ;;
        *) break ;;
        esac
        key=${1#--} kind=
        for name in "${option_names[@]}"; do
            if [ "$name" = "$key!" ]; then kind=flag; elif [ "$name" = "$key" ]; then kind=value; fi
        done
        case $kind in
        flag) printf -v "${key//-/_}" 1 && shift ;;
        value)
            [ $# -ge 2 ] || die "$1 needs a value"
            printf -v "${key//-/_}" '%s' "$2" && shift 2
            ;;
        *) die "unknown option '$1' (options: $(printf -- '--%s ' "${option_names[@]%!}" | sed 's/ $//'))" ;;
        esac
    done
    REST=("$@")
}

# refuse_uncommitted WHAT FILE...: stops, before anything is written, when a FILE that git
# tracks has changes not committed: WHAT (make readme-table, ...) would replace them and they
# would be lost. Names every such file. FORCE_REWRITE=1 lets it go on; a FILE outside a git
# checkout, or one git does not track, is never refused.
refuse_uncommitted() {
    local what=$1 file changed=()
    shift
    [ "${FORCE_REWRITE:-}" != 1 ] || return 0
    for file in "$@"; do
        [ -e "$file" ] || continue
        [ -z "$(git -C "$(dirname "$file")" status --porcelain --untracked-files=no -- "$(basename "$file")" 2>/dev/null)" ] ||
            changed+=("$file")
    done
    [ ${#changed[@]} -eq 0 ] ||
        die "$what would rewrite files with changes not committed; commit or stash them, or set FORCE_REWRITE=1:" "${changed[@]}"
}

# chapter_list DIR: the names of DIR's chapter folders (NN-name), in byte order as make's
# $(sort) gives them, on one line, each followed by a space; stops when DIR has none.
chapter_list() {
    local dir list
    [ -d "$1" ] || die "$1: no such folder"
    list=$(for dir in "$1"/[0-9][0-9]-*/; do
        [ -d "$dir" ] || continue
        dir=${dir%/}
        printf '%s\n' "${dir##*/}"
    done | LC_ALL=C sort | tr '\n' ' ')
    [ -n "$list" ] || die "$1 has no chapter folders (NN-name)"
    printf '%s' "$list"
}
