#!/usr/bin/env bash
# The chapters that the tests and make tune build from others, written to
# OUT and then built by the Makefile's one chapter rule like any chapter:
#   01-wrong-gradient      chapter 01 with its gradient's 2 made a 3: --check must catch it
#   08-missing-barrier     chapter 08 without the barrier before its loss sum: the race check must
#   broken_kernel          tests/broken_kernel.hip, whose overflow ASan must catch (a copy,
#                          whose messages name tests/broken_kernel.hip and its lines)
#   08-tune-cuB-fF-gG-tT   chapter 08 with BLOCKS_PER_CU=B FWD_UNROLL=F GRAD_UNROLL=G and,
#                          unless T is 0, TILE_IMAGES=T (make tune's sets)
# Usage: common/scripts/derive_chapter.sh NAME OUT. An edit whose text is no longer
# in the chapter fails, naming it, and leaves no OUT.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=common/scripts/lib.sh
. common/scripts/lib.sh
SCRIPT_NAME=derive_chapter.sh
name=$1 out=$2
mkdir -p "$(dirname "$out")"
edit() { # SOURCE PROGRAM...: OUT is SOURCE through PROGRAM, which must change it
    local source=$1
    shift
    "$@" <"$source" >"$out.tmp"
    if cmp -s "$source" "$out.tmp"; then
        rm -f "$out.tmp"
        SCRIPT_NAME=$out die "the text to change for $name was not found in $source"
    fi
    mv "$out.tmp" "$out"
}
case $name in
01-wrong-gradient)
    edit chapters/01-naive-gemm/train.hip \
        sed 's|delta\[c \* images + i\] = 2\.0f \* r / images;|delta[c * images + i] = 3.0f * r / images;|' ;;
08-missing-barrier)
    edit chapters/08-tuned-gfx906/train.hip \
        awk '/wave_hits\[wave\] = hits;/ { print; getline; print; getline; if ($0 ~ /__syncthreads/) next } { print }' ;;
broken_kernel)
    { echo '#line 1 "tests/broken_kernel.hip"'; cat tests/broken_kernel.hip; } >"$out" ;;
*)
    [[ $name =~ ^08-tune-cu([0-9]+)-f([0-9]+)-g([0-9]+)-t([0-9]+)$ ]] || die_usage "no derived chapter '$name'"
    {
        echo "/* make tune's set $name: chapter 08 with these sizes */"
        echo "#define BLOCKS_PER_CU ${BASH_REMATCH[1]}"
        echo "#define FWD_UNROLL ${BASH_REMATCH[2]}"
        echo "#define GRAD_UNROLL ${BASH_REMATCH[3]}"
        [ "${BASH_REMATCH[4]}" = 0 ] || echo "#define TILE_IMAGES ${BASH_REMATCH[4]}"
        echo "#include \"$(realpath -m --relative-to="$(dirname "$out")" chapters/08-tuned-gfx906/train.hip)\""
    } >"$out.tmp"
    mv "$out.tmp" "$out" ;;
esac
