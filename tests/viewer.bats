#!/usr/bin/env bats
# The digit viewer (--view) in a real terminal: the trainer runs inside a
# detached tmux session of a fixed size (80x24 unless a test says otherwise),
# keys go in with send-keys, and the screen comes back with capture-pane.
# Every wait polls with a deadline, so a viewer that never draws or never
# exits fails the test instead of hanging it; teardown kills the tmux server.
#
# The trainer is chapter 00 on a small dataset (100 training images, the
# first 20 MNIST labels 5 0 4 1 9 2 1 3 1 4 3 5 3 6 1 7 2 8 6 9 as the test
# set), one iteration, with --predictions-out so the tests know every
# prediction the viewer should show.

load helpers
load small_dataset

LABELS=(5 0 4 1 9 2 1 3 1 4 3 5 3 6 1 7 2 8 6 9)
PROMPT="Enter or n next, p previous, w next wrong, 1..20 jump, q quit >"
HINT="try n, p, w, 1..20 or q"

setup_file() {
    small_dataset "$BATS_FILE_TMPDIR/small" 100 20
}

setup() {
    command -v tmux >/dev/null || skip "tmux is not installed (make test-tools installs it)"
    unset TMUX # make test run from inside tmux: the private server below is not nested
    SOCKET="$BATS_TEST_TMPDIR/tmux.socket"
    STATUS="$BATS_TEST_TMPDIR/status"
    PREDICTIONS="$BATS_TEST_TMPDIR/predictions.tsv"
}

teardown() {
    [ -n "${SOCKET:-}" ] && tmux -S "$SOCKET" kill-server 2>/dev/null
    return 0
}

# start_viewer COLS ROWS [TRAINER [DATA]]: the trainer with --view in a
# COLSxROWS terminal, on the small dataset unless DATA names another; its exit
# status goes to $STATUS when it ends.
start_viewer() {
    local cols=$1 rows=$2 trainer=${3:-$REFERENCE} data=${4:-$BATS_FILE_TMPDIR/small}
    local script="$BATS_TEST_TMPDIR/viewer.sh"
    {
        printf 'export ASAN_OPTIONS=%q UBSAN_OPTIONS=%q\n' "${ASAN_OPTIONS:-}" "${UBSAN_OPTIONS:-}"
        printf '%q ' "$trainer" "$data" 1 --train-limit 100 --quiet \
            --predictions-out "$PREDICTIONS" --view
        printf '\necho $? >%q.tmp && mv %q.tmp %q\n' "$STATUS" "$STATUS" "$STATUS"
    } >"$script"
    tmux -S "$SOCKET" -f /dev/null new-session -d -s viewer -x "$cols" -y "$rows" "bash $script"
    [ "$(tmux -S "$SOCKET" display-message -p -t viewer '#{pane_width}x#{pane_height}')" = "${cols}x${rows}" ]
}

# wait_for TEXT: polls the screen (wrapped lines joined) until it shows TEXT
# and the viewer has drawn the whole page: its last line is the prompt,
# waiting for a key (TEXT alone can show while the page is still scrolling
# in under the previous one, as it did once under ASan); then SCREEN holds
# it and LINE the screen's lines, trailing blanks dropped. Fails after 20 s.
wait_for() {
    local deadline=$((SECONDS + 20)) last
    while [ "$SECONDS" -lt "$deadline" ]; do
        SCREEN=$(tmux -S "$SOCKET" capture-pane -p -J -t viewer 2>/dev/null) &&
            [[ "$SCREEN" == *"$1"* ]] &&
            last=$(grep -v '^ *$' <<<"$SCREEN" | tail -n 1) &&
            [[ "${last%"${last##*[! ]}"}" == *" quit >" ]] && {
            mapfile -t LINE <<<"$SCREEN"
            local i # -J keeps trailing blanks: drop them
            for i in "${!LINE[@]}"; do LINE[i]=${LINE[i]%"${LINE[i]##*[! ]}"}; done
            return 0
        }
        sleep 0.1
    done
    echo "timed out waiting for '$1'; the screen:"
    echo "${SCREEN:-}"
    return 1
}

# send TEXT: types TEXT and Enter.
send() {
    tmux -S "$SOCKET" send-keys -t viewer -l -- "$1"
    tmux -S "$SOCKET" send-keys -t viewer Enter
}

# wait_exit: the trainer's exit status, once it has ended (fails after 20 s).
wait_exit() {
    local deadline=$((SECONDS + 20))
    while [ ! -f "$STATUS" ] && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.1; done
    [ -f "$STATUS" ] || { echo "the viewer did not exit within 20 s"; return 1; }
    EXIT_STATUS=$(cat "$STATUS")
}

# prediction I: what the model predicts for test digit I (1-based).
prediction() {
    awk -F '\t' -v i="$1" 'NR == i + 1 { print $3 }' "$PREDICTIONS"
}

# verdict I: the verdict line of test digit I, from the predictions file.
verdict() {
    local label=${LABELS[$1 - 1]} predicted
    predicted=$(prediction "$1")
    # verdict runs inside $(...), where errexit is off: fail by status
    [ -n "$predicted" ] || { echo "no prediction for test digit $1 in $PREDICTIONS" >&2; return 1; }
    if [ "$label" -eq "$predicted" ]; then
        echo "test digit $1 of 20: label $label, predicted $predicted  right"
    else
        echo "test digit $1 of 20: label $label, predicted $predicted  WRONG"
    fi
}

# digit_rows FIRST WIDTH: the number of digit rows ("  |" WIDTH shades "|")
# from line FIRST on, and at least 5 of them must have ink.
digit_rows() {
    local first=$1 width=$2 n=0 inked=0 i
    for ((i = first; i < ${#LINE[@]}; i++)); do
        [[ "${LINE[i]}" =~ ^"  |"(.{$width})"|"$ ]] || break
        n=$((n + 1))
        [[ "${BASH_REMATCH[1]}" == *[^\ ]* ]] && inked=$((inked + 1))
    done
    [ "$inked" -ge 5 ] || { echo "only $inked of $n digit rows have ink"; return 1; }
    echo "$n"
}

# page_is I ROWS WIDTH [MESSAGE]: the screen starts with digit I's verdict,
# then ROWS digit rows WIDTH wide, then MESSAGE if given, then the prompt.
page_is() {
    local want rows
    want=$(verdict "$1")
    printf '%s\n' "${LINE[@]}"
    [ "${LINE[0]}" = "$want" ]
    rows=$(digit_rows 1 "$3")
    [ "$rows" -eq "$2" ]
    local next=$((1 + rows))
    if [ -n "${4:-}" ]; then
        [ "${LINE[next]}" = "$4" ]
        next=$((next + 1))
    fi
    [ "${LINE[next]}" = "$PROMPT" ]
}

quit_with_status_0() {
    send "${1:-q}"
    wait_exit
    [ "$EXIT_STATUS" -eq 0 ]
}

@test "80x24: the verdict, the whole digit (two pixel rows a line) and the prompt on one screen" {
    start_viewer 80 24
    wait_for "$PROMPT"
    # 1 verdict line + 14 digit lines + the prompt: 16 of the 24 lines
    page_is 1 14 56
    [[ "${LINE[0]}" == "test digit 1 of 20: label 5, predicted "* ]]
    quit_with_status_0
}

@test "80x24: an unknown command gets a one-line hint; the digit and its verdict stay" {
    start_viewer 80 24
    wait_for "$PROMPT"
    send x
    wait_for "unknown command"
    page_is 1 14 56 "unknown command 'x': $HINT"
    # the hint goes once the next command is read
    send 2
    wait_for "test digit 2 of 20"
    page_is 2 14 56
    quit_with_status_0
}

@test "Enter, n, next, p, numbers and w move between digits; wrong numbers are named" {
    start_viewer 80 24
    wait_for "$PROMPT"
    send ""
    wait_for "test digit 2 of 20"
    page_is 2 14 56
    send next
    wait_for "test digit 3 of 20"
    page_is 3 14 56
    send p
    wait_for "test digit 2 of 20"
    send 20
    wait_for "test digit 20 of 20"
    page_is 20 14 56
    send N # wraps around, any case
    wait_for "test digit 1 of 20"
    send prev
    wait_for "test digit 20 of 20"
    send 21
    wait_for "no test digit 21"
    page_is 20 14 56 "no test digit 21: the numbers go 1..20"
    send " 0 "
    wait_for "no test digit 0:"
    page_is 20 14 56 "no test digit 0: the numbers go 1..20"
    # w from digit 1: the first wrong prediction after it, by the predictions file
    send 1
    wait_for "test digit 1 of 20"
    local i want=0
    for ((i = 2; i <= 20; i++)); do
        if [ "$(prediction "$i")" != "${LABELS[i - 1]}" ]; then want=$i; break; fi
    done
    [ "$want" -gt 0 ] # one iteration leaves most of the 20 digits wrong
    send w
    wait_for "test digit $want of 20"
    page_is "$want" 14 56
    [[ "${LINE[0]}" == *WRONG ]]
    quit_with_status_0 quit
}

@test "a tall terminal (80x40) shows the digit at full height" {
    start_viewer 80 40
    wait_for "$PROMPT"
    page_is 1 28 56
    quit_with_status_0
}

@test "a narrow terminal (40x24) gets one character per pixel" {
    start_viewer 40 24
    wait_for "$PROMPT"
    page_is 1 14 28
    quit_with_status_0
}

@test "a long line and escape sequences: one hint, shown cut and made printable" {
    start_viewer 80 24
    wait_for "$PROMPT"
    # 200 n's once meant three or four "next"s, 63 bytes at a time
    send "$(printf 'n%.0s' {1..200})"
    wait_for "unknown command"
    page_is 1 14 56 "unknown command 'nnnnnnnnnnnnnnnn...': $HINT"
    send $'\e[2Jx'
    wait_for "unknown command '?[2Jx'"
    page_is 1 14 56 "unknown command '?[2Jx': $HINT"
    quit_with_status_0
}

# screen_fits: no line of the screen is wider than 80 columns (wait_for's -J
# joins a line that wrapped, so one that did shows up wider).
screen_fits() {
    printf '%s\n' "${LINE[@]}"
    within_80_columns "$(printf '%s\n' "${LINE[@]}")"
}

@test "80 columns at the largest counts (10,000 test digits): no line wraps" {
    start_viewer 80 24 "$REFERENCE" "$DATASET_DIR"
    local prompt="Enter or n next, p previous, w next wrong, 1..10000 jump, q quit >"
    wait_for "$prompt"
    screen_fits
    send "$(printf 'n%.0s' {1..200})" # the longest command shown: 16 characters and ...
    wait_for "unknown command"
    [ "${LINE[15]}" = "unknown command 'nnnnnnnnnnnnnnnn...': try n, p, w, 1..10000 or q" ]
    screen_fits
    send 99999999999999999999
    wait_for "no test digit"
    [ "${LINE[15]}" = "no test digit 9999999999999999...: the numbers go 1..10000" ]
    screen_fits
    send 10000
    wait_for "test digit 10000 of 10000: label "
    screen_fits
    [ "${LINE[15]}" = "$prompt" ] # the verdict, 14 digit lines, no message line
    quit_with_status_0
}

@test "end of input (Ctrl-D) leaves the viewer with status 0" {
    start_viewer 80 24
    wait_for "$PROMPT"
    tmux -S "$SOCKET" send-keys -t viewer C-d
    wait_exit
    [ "$EXIT_STATUS" -eq 0 ]
}

@test "chapter 09's CPU reference (the MLP) shares the viewer" {
    local mlp="$CPU_BUILD/09-hidden-layer-reference"
    [ -x "$mlp" ] || skip "$mlp is not built (make test builds it)"
    start_viewer 80 24 "$mlp"
    wait_for "$PROMPT"
    page_is 1 14 56
    quit_with_status_0
}
