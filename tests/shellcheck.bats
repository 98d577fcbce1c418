#!/usr/bin/env bats
# The shell scripts and the tests themselves are checked. shellcheck
# (warnings and errors) over every script, bats file and .ci/run; and two
# assertions that can never fail in a bats test, which shellcheck misses or
# reports only for bats files: `! cmd` before the last line (SC2314), and a
# chain `cmd && [ b ]` standing alone (`[ a ] && [ b ]` too), in which a
# failing `cmd` fails nothing: errexit ignores all but a chain's last command.

setup() {
    cd "$BATS_TEST_DIRNAME/.." || return 1
    command -v shellcheck >/dev/null || skip "shellcheck is not installed: common/scripts/require.sh shellcheck"
}

# The scripts: tracked ones from git, or every one in the tree outside build/.
scripts() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files '*.sh' '*.bash' '*.bats' .ci/run
    else
        find . -path ./build -prune -o -path ./node_modules -prune -o \
            \( -name '*.sh' -o -name '*.bash' -o -name '*.bats' \) -type f -print
        echo .ci/run
    fi
}

# Lines of FILEs that are an && chain ending in a test, alone (not the
# condition of an if, while or until, and with no ||): only the last counts.
lone_test_chains() {
    grep -nE '^[[:space:]]*[^#[:space:]].* && \[\[? .*\]\]?[[:space:]]*(#.*)?$' "$@" |
        grep -vE '^[^:]*:?[0-9]+:[[:space:]]*(if|elif|while|until) ' | grep -v '||'
}

@test "shellcheck: every script, test file and .ci/run passes at warning level" {
    local list
    list=$(scripts)
    [ "$(wc -l <<<"$list")" -ge 40 ]
    # shellcheck disable=SC2086 # one path a line, none with spaces
    run shellcheck -x --severity=warning -f gcc $list
    echo "$output"
    [ "$status" -eq 0 ]
}

@test "shellcheck: no test or helper chains its assertions with && (only the last one would count)" {
    run lone_test_chains tests/*.bats tests/*.bash
    echo "$output"
    [ "$status" -eq 1 ] # grep found none
}

@test "shellcheck: the two checks above find the assertions that cannot fail (controls)" {
    local bad=$BATS_TEST_TMPDIR/bad.bats
    printf '%s\n' '#!/usr/bin/env bats' '@test "x" {' '    ! grep -q a /dev/null' '    [ 1 -eq 1 ] && [ 2 -eq 3 ] && [ 3 -eq 3 ]' \
        '    grep -q a /dev/null && [[ $x == y ]]' '    if true && [ 1 -eq 1 ]; then :; fi' '    true' '}' >"$bad"
    run shellcheck -x --severity=warning -f gcc "$bad"
    echo "$output"
    [ "$status" -ne 0 ]
    [[ $output == *"bad.bats:3:"*"SC2314"* ]]
    run lone_test_chains "$bad"
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 2 ] # the two chains, not the if's condition
    [[ ${lines[0]} == "4:    [ 1 -eq 1 ]"* ]]
    [[ ${lines[1]} == "5:    grep -q a"* ]]
}
