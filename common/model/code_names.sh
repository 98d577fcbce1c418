#!/usr/bin/env bash
# The kernels of a compiled file with the names the trace gives them, for the
# simulation's readers (code.h): one "symbol<TAB>name" row per kernel.
#   common/model/code_names.sh CODE > NAMES.tsv
# CODE: hipcc's assembly (.amdhsa_kernel lines), nvcc's PTX (.entry lines) or
# cuobjdump -sass output (Function : lines). Names: common/scripts/kernel_name.awk.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common/scripts/lib.sh
. "$here/../scripts/lib.sh"
SCRIPT_NAME=code_names
[ $# -eq 1 ] || die_usage "usage: code_names.sh CODE"
code=$1
[ -f "$code" ] || die "$code: no such file"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{ sed -n 's/^[[:space:]]*\.amdhsa_kernel[[:space:]]\{1,\}\([^[:space:]]*\).*/\1/p' "$code"
  sed -n 's/^[[:space:]]*\(\.visible[[:space:]]\{1,\}\)\{0,1\}\.entry[[:space:]]\{1,\}\([^([:space:]]*\).*/\2/p' "$code"
  sed -n 's/^[[:space:]]*Function[[:space:]]*:[[:space:]]*\([^[:space:]]*\).*/\1/p' "$code"; } | awk '!seen[$0]++' >"$work/symbols"
c++filt <"$work/symbols" >"$work/demangled"
echo 'BEGIN { kernel_list_read(kernel_list) } { print kernel_name($0) }' >"$work/name.awk"
awk -v kernel_list="$work/demangled" -f "$here/../scripts/kernel_name.awk" -f "$work/name.awk" "$work/demangled" >"$work/names"
paste "$work/symbols" "$work/names"
