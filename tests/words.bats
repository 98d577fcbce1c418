#!/usr/bin/env bats
# The README's words: every word its tables use in their headers, and every acronym a chapter's
# README uses, is in the README's list of words ("## Words"), which comes before the first table,
# and the words a newcomer stumbled on are not used above it.

load helpers

words() { sed -n '/<!-- words:begin/,/<!-- words:end/p' README.md; }
line_of() { grep -n -m 1 -- "$1" README.md | cut -d: -f1; }

@test "words: the list comes before the first table, and the words a newcomer met undefined are not used above it" {
    local start word first
    start=$(line_of '<!-- words:begin')
    [ -n "$start" ]
    [ "$start" -lt "$(line_of '^| ')" ]
    for word in wave LDS fill SGPR segment 'unique MB' 'what binds' VGPR barrier hipcc nvcc sm_90 coalesced \
        feature-major unroll-and-jam 'register blocking' occupancy compute-sanitizer fiber 'trace build'; do
        first=$(grep -n -i -m 1 -w -- "$word" README.md | cut -d: -f1)
        echo "$word: first used on line $first, the list starts on line $start"
        [ "$first" -ge "$start" ]
    done
}

@test "words: every header of the README's two tables names a word of the list" {
    local cell missing=() list
    list=$(words | grep -o '\*\*[^*]*\*\*' | tr -d '*' | tr '[:upper:]' '[:lower:]')
    [ "$(wc -l <<<"$list")" -ge 15 ]
    while IFS= read -r cell; do
        case $cell in chapter | 'the one idea' | measured) continue ;; esac
        local found=
        while IFS= read -r word; do
            [[ "${cell,,}" == *"$word"* ]] && found=1 && break
        done <<<"$list"
        [ -n "$found" ] || missing+=("$cell")
    done < <(awk '/<!-- (chapter|counter)-table:begin/ { getline; print }' README.md | tr '|' '\n' | sed 's/^ *//; s/ *$//' | grep -v '^$')
    echo "headers with no word of the list: ${missing[*]:-none}"
    [ ${#missing[@]} -eq 0 ]
}

@test "words: every acronym a chapter's README uses is in the list, or a name (a GPU, a file, a setting, a symbol)" {
    local acronym base missing=() names=' MB GB KB TB GPU CPU MNIST README NOTES ARGS ITERS EPOCHS HIP CUDA NVIDIA AMD H100 H200 MI50 VII HBM3 SXM W1 W2 Z1 Z2 A1 V13 O2 O3 SGD VM SIMD16 '
    local list
    list=$(words)
    while IFS= read -r acronym; do
        base=${acronym%[sS]} # a plural: VGPRs, TFLOPS (a second)
        [[ "$names" == *" $acronym "* || "$names" == *" $base "* ]] && continue
        grep -qw -- "$acronym" <<<"$list" || grep -qw -- "$base" <<<"$list" || missing+=("$acronym")
    done < <(awk '/^```/ { fence = !fence; next } !fence && !/^    / { print }' chapters/*/README.md |
        grep -oE '\b[A-Z][A-Z0-9]{1,6}s?\b' | sort -u)
    echo "acronyms the list lacks: ${missing[*]:-none}"
    [ ${#missing[@]} -eq 0 ]
}
