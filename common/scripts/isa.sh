#!/usr/bin/env bash
# make isa-N: a chapter's device assembly, to read. hipcc -S with line tables
# (-gline-tables-only, which changes no instruction); common/scripts/isa.awk puts each
# source line as a comment before its instructions, c++filt demangles. hipcc
# passes its link flags even to -S: those warnings, and only those, are
# silenced (-Wno-unused-command-line-argument).
#   common/scripts/isa.sh CHAPTER OUT.s TARGET HIPCC_FLAGS...   (HIPCC: default hipcc)
# On a compile error: the error shown, status 1, no OUT.s.
set -euo pipefail
cd "$(dirname "$0")/../.."
chapter=$1 out=$2 target=$3
shift 3
source=chapters/$chapter/train.hip
mkdir -p "$(dirname "$out")"
# common/'s folders (common/include_dirs)
mapfile -t includes < <(sed 's/^/-I/' common/include_dirs)
# shellcheck disable=SC2086 # HIPCC may carry options
HIP_PLATFORM=amd ${HIPCC:-hipcc} "$@" -gline-tables-only -Wno-unused-command-line-argument "${includes[@]}" \
    --cuda-device-only -S "$source" -o "$out.raw"
awk -v root="$PWD" -v source="$source" -f common/scripts/isa.awk \
    -v title="make isa-$((10#${chapter%%-*})): chapter $chapter for $target (hipcc $*); each source line is a comment before its instructions" \
    "$out.raw" | c++filt >"$out.tmp"
mv "$out.tmp" "$out"
rm -f "$out.raw"
echo "wrote $out: the $target assembly of chapter $chapter's kernels, names demangled,"
echo "each source line before its instructions as a comment ('; train.hip:LINE  source')"
