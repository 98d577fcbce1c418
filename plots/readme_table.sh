#!/usr/bin/env bash
# `make readme-table`: the chapter table of README.md, one row per folder in
# chapters/, in order: a link to the chapter, its short idea from
# plots/chapter_ideas.tsv and what `make compare` measured for it in
# plots/compare.tsv (median ms per iteration, with the device and date the
# TSV records; "not measured" for a chapter it has no row for), then a
# caption naming the command, platform, devices and dates.
#
#   plots/readme_table.sh [--data TSV] [--ideas FILE] [--chapters DIR] [--readme FILE]
#
#   --data FILE      the make compare table (default plots/compare.tsv)
#   --model FILE     the time model's table of make compare without a GPU
#                    (default: compare-model.tsv beside --data, if it exists):
#                    each GPU chapter's modelled ms on gfx906 and H100 and
#                    what binds it lead the table, labelled as a model
#   --ideas FILE     chapter <TAB> idea, # comments (default plots/chapter_ideas.tsv)
#   --chapters DIR   the chapter folders (default chapters)
#   --counters FILE  the counters the lessons move, make compare's on the CPU
#                    platform (default: compare-counters.tsv beside --data, if
#                    it exists): with --readme, plots/counter_table.sh's table
#                    goes between FILE's counter-table markers too
#   --readme FILE    rewrite the lines between FILE's markers
#                        <!-- chapter-table:begin ... -->
#                        <!-- chapter-table:end -->
#                    (and, with counters, between
#                        <!-- counter-table:begin ... -->
#                        <!-- counter-table:end -->)
#                    instead of printing the table; FILE is left as it was
#                    when a marker is missing, repeated or out of order.
#
# Bash (common/scripts/lib.sh's option parser) and awk. Never run by make compare, make plots or make test:
# it rewrites a tracked file.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common/scripts/lib.sh
. "$here/../common/scripts/lib.sh"
data=plots/compare.tsv ideas=plots/chapter_ideas.tsv chapters=chapters readme='' model='' counters=''
SCRIPT_NAME='readme-table'
parse_options data ideas chapters readme model counters -- "$@"
[ ${#REST[@]} -eq 0 ] || die "unknown argument '${REST[0]}'"
# The command that measured the data, for the caption: compare.command beside
# it, which make compare and make gpu-import write; without one, make compare.
command='`make compare`'
[ ! -s "$(dirname "$data")/compare.command" ] || command=$(head -n 1 "$(dirname "$data")/compare.command")

BEGIN_MARK='<!-- chapter-table:begin'
END_MARK='<!-- chapter-table:end -->'
COUNTER_BEGIN='<!-- counter-table:begin'
COUNTER_END='<!-- counter-table:end -->'

# table: the markdown table and its caption on stdout.
table() {
    [ -n "$model" ] || { model=$(dirname "$data")/compare-model.tsv; [ -f "$model" ] || model=; }
    [ -z "$model" ] || [ -s "$model" ] || die "$model is missing or empty: run make compare on the CPU platform"
    [ -s "$data" ] || die "$data is missing or empty: run make compare"
    [ -s "$ideas" ] || die "$ideas is missing or empty"
    list=$(chapter_list "$chapters") || exit
    LC_ALL=C awk -F '\t' -v list="$list" -v ideas="$ideas" -v data="$data" -v chapters="$chapters" -v modelfile="$model" \
        -v command="$command" -f "$here/readme_table.awk" "$data"
}

if [ -z "$readme" ]; then
    table
    exit
fi

[ -f "$readme" ] || die "$readme: no such file"
[ -n "$counters" ] || { counters=$(dirname "$data")/compare-counters.tsv; [ -f "$counters" ] || counters=; }
# markers BEGIN END: FILE has one line starting BEGIN, then one line END;
# anything else leaves the file alone.
markers() {
    LC_ALL=C awk -v file="$readme" -v begin="$1" -v end="$2" '
    index($0, begin) == 1 { b++; bl = NR }
    index($0, end) == 1 { e++; el = NR }
    END {
        how = "; put the table between a line starting \"" begin "\" and a line \"" end "\""
        if (b != 1) message = b ? "has " b " lines starting \"" begin "\", not one" : "has no line starting \"" begin "\""
        else if (e != 1) message = e ? "has " e " lines \"" end "\", not one" : "has no line \"" end "\""
        else if (el < bl) message = "has its end marker (line " el ") before its begin marker (line " bl ")"
        if (message != "") {
            print "readme-table: " file " " message how "; " file " is unchanged" > "/dev/stderr"
            exit 1
        }
    }' "$readme"
}
markers "$BEGIN_MARK" "$END_MARK" || exit 1
[ -z "$counters" ] || markers "$COUNTER_BEGIN" "$COUNTER_END" || exit 1

tmp_table="$readme.table.$$" tmp_counters="$readme.counters.$$" tmp="$readme.new.$$"
trap 'rm -f "$tmp_table" "$tmp_counters" "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
table >"$tmp_table" || die "$readme is unchanged"
what="the chapter table" from="$data and $ideas"
if [ -n "$counters" ]; then
    bash "$here/counter_table.sh" --counters "$counters" --chapters "$chapters" >"$tmp_counters" || die "$readme is unchanged"
    what="the chapter table and the counter table" from="$data, $ideas and $counters"
fi
# Each begin marker is kept, its lines up to the end marker replaced.
LC_ALL=C awk -v begin="$BEGIN_MARK" -v end="$END_MARK" -v table="$tmp_table" \
    -v cbegin="${counters:+$COUNTER_BEGIN}" -v cend="${counters:+$COUNTER_END}" -v ctable="$tmp_counters" '
    function insert(file,    got, line) {
        while ((got = getline line < file) > 0) print line
        if (got < 0) exit 1
        skip = 1
    }
    index($0, begin) == 1 { print; insert(table); next }
    cbegin != "" && index($0, cbegin) == 1 { print; insert(ctable); next }
    index($0, end) == 1 || (cend != "" && index($0, cend) == 1) { skip = 0 }
    !skip' "$readme" >"$tmp" || die "could not write $tmp; $readme is unchanged"
if cmp -s "$tmp" "$readme"; then
    echo "readme-table: $what in $readme is up to date"
else
    refuse_uncommitted "make readme-table" "$readme"
    # keep the file's mode: cat into the new file's place would not be atomic
    chmod "$(stat -c %a "$readme" 2>/dev/null || echo 644)" "$tmp" 2>/dev/null || true
    mv "$tmp" "$readme"
    echo "readme-table: wrote $what in $readme (from $from)"
fi
