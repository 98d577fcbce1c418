# shellcheck shell=bash
# Shared by plots/compare.sh, plots/training.sh and plots/resources.sh (sourced).

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
