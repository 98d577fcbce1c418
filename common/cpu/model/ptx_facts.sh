#!/usr/bin/env bash
# The compiled-code facts of the time model for NVIDIA devices
# (ptx_facts.awk): SOURCE compiled by nvcc for sm_90 to PTX with line info,
# and that PTX through ptxas for its resource report (registers, shared
# memory, spills), joined with a warp-32 trace-build run's per-site and
# per-line counts and its per-kernel counters (the warps, the block size).
#   common/cpu/model/ptx_facts.sh SOURCE SITES.tsv LINES.tsv COUNTERS.tsv OUT_PREFIX [NVCC FLAGS...]
# Writes OUT_PREFIX.sm_90.ptx (the PTX, mangled), OUT_PREFIX.ptxas (ptxas -v's
# report), OUT_PREFIX.mix.tsv, OUT_PREFIX.waits.tsv and OUT_PREFIX.lines.tsv
# (per source line, for the source view). NVCC: the compiler (nvcc on the
# PATH, else /usr/local/cuda/bin/nvcc); ptxas is the one beside it.
# PTX_FACTS_COMPILED=PREFIX: take PREFIX.sm_90.ptx and PREFIX.ptxas from an
# earlier run on the same SOURCE instead of compiling again (make compare's
# second slice).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common/scripts/lib.sh
. "$here/../../scripts/lib.sh"
SCRIPT_NAME=ptx_facts
source=$1 sites=$2 lines=$3 counters=$4 out=$5
shift 5
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
compiled=${PTX_FACTS_COMPILED:-}
if [ -n "$compiled" ]; then
    [ -s "$compiled.sm_90.ptx" ] && [ -f "$compiled.ptxas" ] || die "PTX_FACTS_COMPILED=$compiled: no $compiled.sm_90.ptx and .ptxas"
    [ "$compiled" = "$out" ] || { cp "$compiled.sm_90.ptx" "$out.sm_90.ptx"; cp "$compiled.ptxas" "$out.ptxas"; }
else
    [ -x "$nvcc" ] || die "nvcc not found (set NVCC, or install the CUDA toolkit)"
    ptxas=$(dirname "$nvcc")/ptxas
    [ -x "$ptxas" ] || ptxas=$(command -v ptxas || true)
    [ -n "$ptxas" ] || die "ptxas not found beside $nvcc"
    mapfile -t includes < <(sed 's/^/-I/' "$here/../../include_dirs") # common/'s folders (from the repository root)
    # The project's NVIDIA build (the Makefile's NVCCFLAGS and HIP_COMPILE for nvidia), to PTX.
    if ! "$nvcc" -O3 -std=c++17 -arch=sm_90 -x cu -I"$here/../../gpu/nvidia" "${includes[@]}" "$@" \
        -ptx -lineinfo "$source" -o "$out.sm_90.ptx" >"$out.nvcc.log" 2>&1; then
        cat "$out.nvcc.log" >&2
        die "nvcc could not compile $source for sm_90 (its messages are above)"
    fi
    if ! "$ptxas" -v -arch=sm_90 "$out.sm_90.ptx" -o /dev/null >"$out.ptxas" 2>&1; then
        cat "$out.ptxas" >&2
        die "ptxas could not assemble nvcc's PTX of $source (its messages are above)"
    fi
fi
c++filt <"$out.ptxas" >"$out.ptxas.demangled"
# The kernels, for their names: overloads keep their parameter lists, as in the trace.
c++filt <"$out.sm_90.ptx" | sed -n 's/^[[:space:]]*\(\.visible[[:space:]]\{1,\}\|\.weak[[:space:]]\{1,\}\)\{0,1\}\.entry[[:space:]]\{1,\}//p' |
    sed 's/($//' >"$out.kernels"
c++filt <"$out.sm_90.ptx" | awk -F'\t' -v mix="$out.mix.tsv" -v waits="$out.waits.tsv" -v lines_out="$out.lines.tsv" \
    -v counters="$counters" -v kernel_list="$out.kernels" \
    -f "$here/../../scripts/kernel_name.awk" -f "$here/trace_tables.awk" -f "$here/ptx_loops.awk" -f "$here/ptx_facts.awk" \
    "$sites" "$lines" "$out.ptxas.demangled" -
