#!/usr/bin/env bash
# The compiled code the simulation reads (sim.h), from one HIP source with the project's flags:
#   common/model/compile.sh gcn SOURCE OUT.s [HIPCC FLAGS...]
#     hipcc's assembly for ISA_ARCH (default gfx906), with line tables and its "; Occupancy:"
#   common/model/compile.sh ptx SOURCE OUT_PREFIX [NVCC FLAGS...]
#     nvcc's sm_90 PTX with line info (OUT_PREFIX.sm_90.ptx) and ptxas -v's report of it
#     (OUT_PREFIX.ptxas: each kernel's registers and shared memory, for its occupancy)
# HIPCC, NVCC: the compilers (hipcc; nvcc on the PATH, else /usr/local/cuda/bin/nvcc, with the
# ptxas beside it). A compiler's messages go to standard error when it fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common/scripts/lib.sh
. "$here/../scripts/lib.sh"
SCRIPT_NAME=compile
[ $# -ge 3 ] || die_usage "usage: compile.sh gcn|ptx SOURCE OUT [FLAGS...]"
kind=$1 source=$2 out=$3
shift 3
[ -f "$source" ] || die "$source: no such file"
mapfile -t includes < <(sed 's/^/-I/' "$here/../include_dirs") # common/'s folders (from the repository root)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
case $kind in
gcn)
    arch=${ISA_ARCH:-gfx906}
    [[ $arch =~ ^gfx[0-9a-f]+$ ]] || die "ISA_ARCH=$arch: not an AMD target name such as gfx906"
    # shellcheck disable=SC2086 # HIPCC may carry options
    if ! HIP_PLATFORM=amd ${HIPCC:-hipcc} -O3 -std=c++17 --offload-arch="$arch" -DHIP_WAVE_SIZE=64 "${includes[@]}" "$@" \
        -gline-tables-only -Wno-unused-command-line-argument --cuda-device-only -S "$source" -o "$out" >"$log" 2>&1; then
        cat "$log" >&2
        die "hipcc could not compile $source for $arch (its messages are above)"
    fi
    ;;
ptx)
    nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
    [ -x "$nvcc" ] || die "nvcc not found (set NVCC, or install the CUDA toolkit)"
    ptxas=$(dirname "$nvcc")/ptxas
    [ -x "$ptxas" ] || ptxas=$(command -v ptxas || true)
    [ -n "$ptxas" ] || die "ptxas not found beside $nvcc"
    # The project's NVIDIA build (the Makefile's NVCCFLAGS and HIP_COMPILE for nvidia), to PTX.
    if ! "$nvcc" -O3 -std=c++17 -arch=sm_90 -x cu -I"$here/../gpu/nvidia" "${includes[@]}" "$@" \
        -ptx -lineinfo "$source" -o "$out.sm_90.ptx" >"$log" 2>&1; then
        cat "$log" >&2
        die "nvcc could not compile $source for sm_90 (its messages are above)"
    fi
    if ! "$ptxas" -v -arch=sm_90 "$out.sm_90.ptx" -o /dev/null >"$out.ptxas" 2>&1; then
        cat "$out.ptxas" >&2
        die "ptxas could not assemble nvcc's PTX of $source (its messages are above)"
    fi
    ;;
*) die_usage "compile.sh $kind: the kind is gcn or ptx" ;;
esac
