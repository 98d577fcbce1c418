#!/usr/bin/env bats
# Every path the documentation names is there. In each tracked
# markdown file: every relative link ([text](path), read from the file's own
# folder), and every path in backticks that starts at a top folder of the
# repository (`common/...`, `chapters/...`, `plots/...`, `tests/...`,
# `dataset/...`, `.ci/...`). `name.c/h` means both files; paths with a
# placeholder (NN, N-, ...) are not real paths and are left out.

setup() {
    cd "$BATS_TEST_DIRNAME/.." || return 1
}

# missing_paths FILE...: "FILE: link PATH" or "FILE: path PATH" for each one
# that does not exist.
missing_paths() {
    local md dir target path
    for md in "$@"; do
        dir=$(dirname "$md")
        while read -r target; do
            case $target in http:* | https:* | mailto:* | "") continue ;; esac
            [ -e "$dir/$target" ] || echo "$md: link $target"
        done < <(grep -oE '\]\([^)#[:space:]]+(#[^)]*)?\)' "$md" | sed -E 's/^\]\(//; s/\)$//; s/#.*//')
        while read -r path; do
            path=${path%.}
            path=${path%/}
            case $path in *NN* | *...* | */N-* | "") continue ;; esac
            if [[ $path == *.c/h ]]; then
                { [ -e "${path%/h}" ] && [ -e "${path%.c/h}.h" ]; } || echo "$md: path $path"
                continue
            fi
            [ -e "$path" ] || echo "$md: path $path"
        done < <(grep -oE '`[^`]*`' "$md" | tr -d '`' |
            grep -oE '(^|[[:space:](])(common|chapters|plots|tests|dataset|\.ci)/[A-Za-z0-9_./-]*' | sed -E 's/^[[:space:](]//')
    done
}

markdown_files() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files '*.md'
    else
        find . -path ./build -prune -o -path ./node_modules -prune -o -name '*.md' -type f -print
    fi
}

@test "links: every relative link and every repository path in the markdown files exists" {
    local files
    mapfile -t files < <(markdown_files)
    [ "${#files[@]}" -ge 10 ]
    run missing_paths "${files[@]}"
    echo "$output"
    [ -z "$output" ]
}

@test "links: a moved file, a broken link and half of a .c/h pair are reported (control)" {
    local md=$BATS_TEST_TMPDIR/doc.md
    mkdir -p "$BATS_TEST_TMPDIR/here"
    touch "$BATS_TEST_TMPDIR/here/there.md"
    printf '%s\n' 'see `common/idx.c` (moved to `common/host/idx.c`), [ok](here/there.md), [gone](nowhere.md#top),' \
        'and `common/host/idx.c/h`, `common/host/gpu_runtime.c/h`, `chapters/NN-name/train.hip`' >"$md"
    run missing_paths "$md"
    echo "$output"
    [ "$(wc -l <<<"$output")" -eq 3 ]
    [[ $output == *"$md: link nowhere.md"* ]]
    [[ $output == *"$md: path common/idx.c"* ]]
    [[ $output == *"$md: path common/host/gpu_runtime.c/h"* ]]
}
