#!/usr/bin/env bash
# The compiled-code facts of the time model (isa_facts.awk): SOURCE compiled
# for gfx906 (or ISA_ARCH) by hipcc (assembly with line tables, and the
# compiler's resource remarks), joined with a trace-build run's per-site and
# per-line counts and its per-kernel counters (the waves).
#   common/cpu/model/isa_facts.sh SOURCE SITES.tsv LINES.tsv COUNTERS.tsv OUT_PREFIX [HIPCC FLAGS...]
# Writes OUT_PREFIX.ARCH.s (the assembly, mangled, with line tables),
# OUT_PREFIX.mix.tsv, OUT_PREFIX.waits.tsv and OUT_PREFIX.lines.tsv (per
# source line, for the source view). HIPCC: the compiler (hipcc). ISA_ARCH:
# the AMD target (gfx906; the validation reads gfx908 and gfx90a code for
# the GPUs its published times were measured on).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common/scripts/lib.sh
. "$here/../../scripts/lib.sh"
SCRIPT_NAME=isa_facts
source=$1 sites=$2 lines=$3 counters=$4 out=$5
shift 5
arch=${ISA_ARCH:-gfx906}
[[ $arch =~ ^gfx[0-9a-f]+$ ]] || die "ISA_ARCH=$arch: not an AMD target name such as gfx906"
log=$out.remarks
mapfile -t includes < <(sed 's/^/-I/' "$here/../../include_dirs") # common/'s folders (from the repository root)
# shellcheck disable=SC2086 # HIPCC may carry options
if ! HIP_PLATFORM=amd ${HIPCC:-hipcc} -O3 -std=c++17 --offload-arch="$arch" -DHIP_WAVE_SIZE=64 "${includes[@]}" "$@" \
    -gline-tables-only -Wno-unused-command-line-argument --cuda-device-only -S \
    -Rpass-analysis=kernel-resource-usage "$source" -o "$out.$arch.s" >"$log" 2>&1; then
    grep -v 'remark:' "$log" >&2 || true
    die "hipcc could not compile $source for $arch (its messages are above)"
fi
# The kernels, for their names: overloads keep their parameter lists, as in the trace.
sed -n 's/^[[:space:]]*\.amdhsa_kernel[[:space:]]\{1,\}//p' "$out.$arch.s" | c++filt >"$out.kernels"
names=$here/../../scripts/kernel_name.awk
c++filt <"$log" | awk -v chapter=- -v kernel_list="$out.kernels" -f "$names" -f "$here/../../scripts/resources.awk" \
    >"$out.resources.tsv"
c++filt <"$out.$arch.s" | awk -F'\t' -v mix="$out.mix.tsv" -v waits="$out.waits.tsv" -v lines_out="$out.lines.tsv" \
    -v counters="$counters" -v kernel_list="$out.kernels" -v arch="$arch" \
    -f "$names" -f "$here/trace_tables.awk" -f "$here/isa_facts.awk" \
    "$sites" "$lines" "$out.resources.tsv" -
