# shellcheck shell=bash
# Shared by the scripts in plots/ and by common/scripts/gpu_report.sh and
# gpu_import.sh (sourced): the option parser, gnuplot strings, times. Errors
# are common/scripts/lib.sh's die, sourced here.

# shellcheck source=common/scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../common/scripts/lib.sh"

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
    local -a names=()
    local key name kind
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        names+=("$1")
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
        for name in "${names[@]}"; do
            if [ "$name" = "$key!" ]; then kind=flag; elif [ "$name" = "$key" ]; then kind=value; fi
        done
        case $kind in
        flag) printf -v "${key//-/_}" 1 && shift ;;
        value)
            [ $# -ge 2 ] || die "$1 needs a value"
            printf -v "${key//-/_}" '%s' "$2" && shift 2
            ;;
        *) die "unknown option '$1' (options: $(printf -- '--%s ' "${names[@]%!}" | sed 's/ $//'))" ;;
        esac
    done
    REST=("$@")
}
