#!/usr/bin/env bash
# README.md's counter table (make readme-table writes it, through
# plots/readme_table.sh): one row per chapter that make compare modelled, in
# lesson order (the folders of chapters/), with the counters the lessons move
# and the modelled ms, from plots/compare-counters.tsv (make compare on the
# CPU platform). The first column is the counter the chapter's idea is meant
# to move (plots/lesson_counters.tsv), from the row above to this one. A cell
# that moved by more than THRESHOLD percent from the row above is bold where
# it is the lesson's counter or a modelled time, and italic where it is a
# counter the lesson moved on the side; the caption says so, and names the
# command, image count and date.
#
#   plots/counter_table.sh [--counters TSV] [--lessons TSV] [--chapters DIR] [--threshold PERCENT]
#
#   --counters FILE    make compare's counters (default plots/compare-counters.tsv)
#   --lessons FILE     chapter <TAB> its lesson's counter column, # comments
#                      (default plots/lesson_counters.tsv)
#   --chapters DIR     the chapter folders (default chapters): the rows' order;
#                      a chapter in FILE with no folder is an error
#   --threshold PCT    bold a value that differs from the row above by more
#                      than PCT percent of the larger of the two (default 10)
#
# Prints the table and its caption. Bash (common/scripts/lib.sh's option parser) and awk.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common/scripts/lib.sh
. "$here/../common/scripts/lib.sh"

counters=plots/compare-counters.tsv lessons=plots/lesson_counters.tsv chapters=chapters threshold=10
SCRIPT_NAME=counter-table
parse_options counters lessons chapters threshold -- "$@"
[ ${#REST[@]} -eq 0 ] || die "unknown argument '${REST[0]}'"
case $threshold in '' | *[!0-9]*) die "--threshold must be a whole percentage, got '$threshold'" ;; esac
[ -s "$counters" ] || die "$counters is missing or empty: run make figures-compare on the CPU platform"
[ -s "$lessons" ] || die "$lessons is missing or empty: a chapter and its lesson's counter a line"
list=$(chapter_list "$chapters") || exit

LC_ALL=C awk -F '\t' -v list="$list" -v file="$counters" -v lessons="$lessons" -v chapters="$chapters" -v threshold="$threshold" '
    function fail(message) { print "counter-table: " message > "/dev/stderr"; failed = 1; exit 1 }
    # num(v, whole): a count (whole) as it is, anything else to three
    # significant figures (whole from 100 up)
    function num(v, whole,    d) {
        if (v == "-") return v
        v += 0
        if (whole || v >= 100) return sprintf("%.0f", v)
        if (v >= 10) return sprintf("%.1f", v)
        if (v >= 1) return sprintf("%.2f", v)
        for (d = 3; v < 0.1 && d < 12; d++) v *= 10
        return sprintf("%." d "f", v / 10 ^ (d - 3))
    }
    # short(v): a large count in millions (29.5M), anything else as num does
    function short(v) { return (v != "-" && v + 0 >= 1e6) ? num(v / 1e6) "M" : num(v) }
    function abs(v) { return v < 0 ? -v : v }
    # moved(a, b): a and b differ by more than threshold percent of the larger;
    # "-" (nothing to count) against a number is a move
    function moved(a, b) {
        if (a == "-" || b == "-") return a != b
        a += 0; b += 0
        return abs(a - b) * 100 > threshold * (abs(a) > abs(b) ? abs(a) : abs(b))
    }
    BEGIN {
        count = split(list, order, " ")
        for (i = 1; i <= count; i++) folder[order[i]] = 1
        # the columns shown, in order, with their headers
        ncols = split("segments_per_request bank_cycles_per_request barriers_per_block fill_gfx906 " \
                      "atomics_max_one_address unique_bytes model_gfx906_ms model_h100_ms", show, " ")
        split("global segments per load request|LDS bank cycles per LDS request|barriers per block|fill|" \
              "atomics on one address|unique MB|model: gfx906 ms|model: H100 ms", head, "|")
        # the counters a lesson may name, and the words the first column gives each
        split("global_load_requests|global load requests|segments_per_request|segments per load request|" \
              "lds_requests|LDS requests|barriers_per_block|barriers per block|fill_gfx906|fill|unique_bytes|unique MB", w, "|")
        for (i = 1; i in w; i += 2) label[w[i]] = w[i + 1]
        while ((getline line < lessons) > 0) {
            if (line ~ /^#/ || line == "") continue
            split(line, f, "\t")
            if (f[2] != "-" && !(f[2] in label)) fail(lessons ": the counter of " f[1] ", " f[2] ", is not one the table knows")
            lesson[f[1]] = f[2]
        }
    }
    FNR == 1 {
        for (i = 1; i <= NF; i++) col[$i] = i
        for (i = 1; i <= ncols; i++) if (!(show[i] in col)) fail(file ": no " show[i] " column in its header")
        split("chapter images slices date", more, " ")
        for (i = 1; i in more; i++) if (!(more[i] in col)) fail(file ": no " more[i] " column in its header")
        next
    }
    {
        c = $(col["chapter"])
        if (!(c in folder)) fail(file ":" FNR ": " c " is not a folder in " chapters ": run make figures-compare")
        if (c in row) fail(file ":" FNR ": a second row for " c)
        row[c] = FNR
        for (i = 1; i <= ncols; i++) {
            v = $(col[show[i]])
            if (v != "-" && v !~ /^[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/)
                fail(file ":" FNR ": " c " has " show[i] " \"" v "\", not a number or -")
            if (show[i] == "unique_bytes" && v != "-") v = v / 1e6
            value[c, i] = v
        }
        for (name in label) {
            v = $(col[name])
            if (name == "unique_bytes" && v != "-") v = v / 1e6
            counted[c, name] = v
        }
        images = $(col["images"]); slices = $(col["slices"]); date = $(col["date"])
    }
    END {
        if (failed) exit 1
        line = "| chapter | the lesson'"'"'s counter |"; rule = "|---|---|"
        for (i = 1; i <= ncols; i++) { line = line " " head[i] " |"; rule = rule "---|" }
        print line; print rule
        previous = ""
        for (k = 1; k <= count; k++) {
            c = order[k]
            if (!(c in row)) { missing = missing (missing == "" ? "" : ", ") substr(c, 1, 2); continue }
            rows++
            name = (c in lesson) ? lesson[c] : "-"
            lead = (name == "-" || previous == "") ? "-" : \
                label[name] " " short(counted[previous, name]) " -> " short(counted[c, name])
            line = "| [" c "](" chapters "/" c "/) | " lead " |"
            for (i = 1; i <= ncols; i++) {
                cell = num(value[c, i], show[i] == "atomics_max_one_address")
                if (previous != "" && moved(value[previous, i], value[c, i]))
                    cell = (show[i] == name || show[i] ~ /_ms$/) ? "**" cell "**" : "*" cell "*"
                line = line " " cell " |"
            }
            print line
            previous = c
        }
        if (!rows) fail(file ": no row for any folder in " chapters)
        gsub(/ /, " and ", slices)
        print ""
        print "*`make compare` on the CPU platform, " date ": the CPU executor'"'"'s counts of one full-batch training iteration on " \
            images " MNIST images" (slices != "" && slices != "none" ? " (traced on " slices " images, extended in a straight line)" : "") \
            " and the time model'"'"'s ms for them, not a GPU measurement. Segments, bank cycles and unique bytes: over all of a " \
            "chapter'"'"'s kernels (- without LDS); barriers and atomics: its kernel with the most; fill: its slowest kernel on gfx906. " \
            "The lesson'"'"'s counter: the one the chapter'"'"'s idea is meant to move, from the row above to this one. " \
            "A value that differs from the row above by more than " threshold "% of the larger of the two is **bold** " \
            "where it is the lesson'"'"'s counter or a modelled time, and *italic* where the lesson moved it on the side " \
            "(the chapter'"'"'s README says why). " \
            "The numbers are in [" file "](" file ")" \
            (missing != "" ? "; no row for chapter" (index(missing, ",") ? "s " : " ") missing ", which make compare does not model" : "") ".*"
    }' "$counters"
