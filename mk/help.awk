# make help, and make's answer to a target it does not know. Reads the Makefile and the
# mk/*.mk files it includes: a target's note follows "## " on its rule's line, a setting's
# meaning follows the "#" of its "NAME ?= default" line (mk/settings.mk); each setting's value
# now comes in the environment. Every line printed fits 80 columns: longer ones wrap.
#   awk -f mk/help.awk -v chapters='00-... 01-...' -v summary='So here ...' FILES...
#   awk -f mk/help.awk -v typo=chaptr-1 FILES...   (the nearest target, or nothing)

BEGIN { width = 80 }

# The rule lines with a note: "name [name...]: prerequisites ## note"
/^[a-z][a-z%-]*( [a-z%-]+)*:.*## / {
    note = $0
    sub(/^[^#]*## /, "", note)
    split(substr($0, 1, index($0, ":") - 1), names, " ")
    for (i = 1; i in names; i++) {
        name = names[i]
        sub(/%/, "N", name)
        targets[++target_count] = name
        target_note[target_count] = note
    }
    delete names
}

# The settings: "NAME ?= default# meaning"
/^[A-Z_]+ [?]=.*#/ {
    name = $1
    meaning = $0
    sub(/^[^#]*# */, "", meaning)
    settings[++setting_count] = name
    setting_meaning[setting_count] = meaning
}

END {
    if (typo != "") {
        suggest()
        exit
    }
    wrap("GPU programming tutorial: an MNIST classifier from plain C to gfx906.", "", 0)
    wrap("Chapters: " chapters, "", 2)
    print "Targets (from a chapter's folder: make -C ../.. chapter-N):"
    for (t = 1; t <= target_count; t++)
        wrap(target_note[t], sprintf("  make %-15s ", targets[t]), 23)
    print "Settings (make chapter-3 ITERS=20 HIP_PLATFORM=cpu), with their values now:"
    for (s = 1; s <= setting_count; s++) {
        head = "  " settings[s] "=" ENVIRON[settings[s]]
        # a short NAME=value shares its line with the meaning, a long one has lines of its own
        if (length(head) <= 21) {
            wrap(setting_meaning[s], sprintf("%-22s ", head), 23)
        } else {
            wrap(substr(head, 3), "  ", 4)
            wrap(setting_meaning[s], sprintf("%23s", ""), 23)
        }
    }
    wrap(summary, "", 2)
}

# wrap(text, first, indent): text after `first` on its first line, then on lines
# indented by `indent` spaces, broken at spaces within `width` columns (a word
# longer than a whole line is cut).
function wrap(text, first, indent,    words, n, i, line, pad, word) {
    pad = sprintf("%" indent "s", "")
    line = first
    n = split(text, words, " ")
    for (i = 1; i <= n; i++) {
        word = words[i]
        if (line != first && line != pad && length(line) + 1 + length(word) > width) {
            print line
            line = pad
        }
        while (length(line) + length(word) > width) {
            print line substr(word, 1, width - length(line))
            word = substr(word, width - length(line) + 1)
            line = pad
        }
        line = (line == first || line == pad) ? line word : line " " word
    }
    print line
}

# The target nearest `typo`: each listed name, its N as the typo's own number when it ends in
# one (chaptr-1 against chapter-1), by the fewest letters to insert, delete, change or swap with
# the next; printed only when that is at most a third of its length (a typo, not another word).
function suggest(    number, t, name, d, best, best_d) {
    number = match(typo, /[0-9]+$/) ? substr(typo, RSTART) : "N"
    for (t = 1; t <= target_count; t++) {
        name = targets[t]
        sub(/N$/, number, name)
        d = distance(typo, name)
        if (best == "" || d < best_d) { best = name; best_d = d }
    }
    if (best != "" && best_d * 3 <= length(best)) print best
}

# The edits from a to b (Damerau's optimal string alignment: names are short)
function distance(a, b,    i, j, la, lb, d, v) {
    la = length(a); lb = length(b)
    for (i = 0; i <= la; i++) d[i, 0] = i
    for (j = 0; j <= lb; j++) d[0, j] = j
    for (i = 1; i <= la; i++)
        for (j = 1; j <= lb; j++) {
            v = d[i - 1, j - 1] + (substr(a, i, 1) != substr(b, j, 1))
            if (d[i - 1, j] + 1 < v) v = d[i - 1, j] + 1
            if (d[i, j - 1] + 1 < v) v = d[i, j - 1] + 1
            if (i > 1 && j > 1 && substr(a, i, 1) == substr(b, j - 1, 1) && substr(a, i - 1, 1) == substr(b, j, 1) &&
                d[i - 2, j - 2] + 1 < v)
                v = d[i - 2, j - 2] + 1
            d[i, j] = v
        }
    return d[la, lb]
}
