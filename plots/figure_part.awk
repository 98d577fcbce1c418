# The parts of `make profile-N`'s output that a README quotes between
# <!-- figure: ... --> markers (plots/readme_figures.sh). Variables:
#   parts: the parts to print, in this order, a blank line between them:
#          counters  the title line and the counter table
#          model     the time model's table
#          why       what binds and where a wave's cycles went, per kernel and device
#          sites     the per-call-site table, one row per site, buffer and kind
#                    (an unrolled line's copies are one row: the first copy)
#          source    the source view
#          Each may name kernels after a colon, e.g. sites:gradient,update
#   shape: 0 prints the parts as they are; 1 prints what of them does not
#          depend on the image count (the check on a small slice): numbers
#          become #, and what binds, the cycles' shares and the source view's
#          shares are left out. A number inside a name (train.hip:84) stays.
#          In the source view only the line and its source text stay.
# The title's measured seconds ("; 94 s)") are left out in both: they are
# not a figure of the chapter.

function wanted(kernel,    i, n, names) {
    if (filter[current] == "") return 1
    n = split(filter[current], names, ",")
    for (i = 1; i <= n; i++) if (names[i] == kernel) return 1
    return 0
}
# Pure numbers (1,024  4.5  83%  1.22e+04  0.0069) become #, and their units go.
function mask(line,    n, i, f, out) {
    n = split(line, f, /[ \t]+/)
    out = ""
    for (i = 1; i <= n; i++) {
        if (f[i] == "") continue
        if (f[i] ~ /^[-+]?[0-9][0-9.,]*(e[-+]?[0-9]+)?%?$/) f[i] = "#"
        # a number's unit goes with it: 5.13 MB at one size is 190.83 MB at another
        else if (f[i] ~ /^(B|kB|MB|GB)$/ && i > 1 && f[i - 1] == "#") continue
        out = out (out == "" ? "" : " ") f[i]
    }
    return out
}
function first_words(line, count,    n, f, i, out) {
    n = split(line, f, /[ \t]+/)
    out = ""
    for (i = 1; i <= n && count > 0; i++) {
        if (f[i] == "") continue
        out = out (out == "" ? "" : " ") f[i]
        count--
    }
    return out
}
function emit(part, line) {
    if (!(part in want)) return
    text[part] = text[part] line "\n"
}
BEGIN {
    n = split(parts, list, / +/)
    for (i = 1; i <= n; i++) {
        name = list[i]
        kernels = ""
        if (index(name, ":")) { kernels = substr(name, index(name, ":") + 1); name = substr(name, 1, index(name, ":") - 1) }
        if (name !~ /^(counters|model|why|sites|source)$/) {
            printf "figure_part: unknown part '%s' (counters, model, why, sites, source)\n", name > "/dev/stderr"
            bad = 1
            exit 2
        }
        want[name] = 1
        filter[name] = kernels
        order[++count] = name
    }
    section = ""
}
# Sections of make profile-N's output, by their first lines.
/: what the CPU executor saw in / {
    section = "counters"
    current = "counters"
    line = $0
    sub(/; [0-9.]+ s\)$/, ")", line)
    emit("counters", shape ? mask(line) : line)
    next
}
/^kernel +runs +waves +loads +seg\/rq / { section = "counters"; current = "counters"; emit("counters", shape ? mask($0) : $0); next }
/^kernel +fill +gfx906 ms/ { section = "model"; current = "model"; emit("model", shape ? mask($0) : $0); next }
/^Why, per kernel and device/ { section = "why"; current = "why"; next }
/^Per call site/ { section = "sites"; current = "sites"; next }
/^Source view:/ { section = "source"; current = "source"; next }
/^$/ { if (section == "source" && source_kernel != "") source_kernel = ""; if (section != "source") section = ""; next }
section == "counters" && /^[a-z_0-9]+ +[0-9]/ {
    if (wanted($1)) emit("counters", shape ? mask($0) : $0)
    next
}
section == "model" && (/^[a-z_0-9]+ +[0-9]/ || /^one iteration/) {
    if (/^one iteration/ || wanted($1)) emit("model", shape ? ($1 == "one" ? "one iteration" : $1) : $0)
    next
}
/^  [a-z_0-9]+ +(gfx906|h[0-9]+) +[a-zA-Z0-9]/ {
    section = "why"
    current = "why"
    keep = wanted($1)
    if (keep) emit("why", shape ? first_words($0, 2) : $0)
    next
}
section == "why" && /^ +cycles:/ { if (keep && !shape) emit("why", $0); next }
/^  kernel +site +buffer / { section = "sites"; current = "sites"; emit("sites", shape ? mask($0) : $0); next }
section == "sites" && /^  [a-z_0-9]+ +[^ ]+:[0-9]+ / {
    key = $1 " " $2 " " $3 " " $4 " " $5
    if (!(key in seen_site) && wanted($1)) emit("sites", shape ? mask($0) : $0)
    seen_site[key] = 1
    next
}
/^  [a-z_0-9]+: bound by / {
    section = "source"
    current = "source"
    source_kernel = $1
    sub(/:$/, "", source_kernel)
    keep = wanted(source_kernel)
    if (keep && text["source"] != "") emit("source", "")
    if (keep) emit("source", shape ? "  " source_kernel ":" : $0)
    next
}
section == "source" && /^ +line +gfx906 +H100 / {
    # the columns before the source text: the line, a share per device, the counts
    for (counted = 0; counted < NF && $(counted + 1) != "source"; counted++) ;
    if (keep) emit("source", shape ? mask($0) : $0)
    next
}
section == "source" && source_kernel != "" && /^ +[^ ]+ +(-|[0-9]+%) +(-|[0-9]+%) / {
    if (!keep) next
    if (!shape) { emit("source", $0); next }
    # The line, then its source text (after the shares and the counts).
    line = $0
    sub(/^ +/, "", line)
    ref = line
    sub(/ .*/, "", ref)
    for (i = 1; i <= (counted ? counted : 6); i++) sub(/^[^ ]+ +/, "", line)
    emit("source", "  " ref " " line)
    next
}
END {
    if (bad) exit 2
    for (i = 1; i <= count; i++) {
        if (text[order[i]] == "") {
            printf "figure_part: no '%s' part in the output\n", order[i] > "/dev/stderr"
            exit 1
        }
        printf "%s%s", (i > 1 ? "\n" : ""), text[order[i]]
    }
}
