# The README's chapter table (plots/readme_table.sh, make readme-table): a
# row per chapter folder with its idea, its measured ms from compare.tsv and,
# where the time model ran, its modelled ms, then the caption naming the
# command, the devices and the data.
#   LC_ALL=C awk -F '\t' -v list="NN-name ..." -v ideas=FILE -v data=FILE \
#       -v chapters=DIR -v modelfile=FILE -v command=TEXT -f plots/readme_table.awk compare.tsv
# list: the chapter folders in order; modelfile: compare-model.tsv, or empty.

function fail(message) { print "readme-table: " message > "/dev/stderr"; failed = 1; exit 1 }
function md(s) { gsub(/\|/, "\\|", s); return s }
function ms(v) {
    v += 0
    if (v >= 100) return sprintf("%.0f", v)
    if (v >= 10) return sprintf("%.1f", v)
    if (v >= 1) return sprintf("%.2f", v)
    return sprintf("%.3g", v)
}
# add(set, value): value appended to the ", "-list set once, in order of first sight.
function add(set, value) {
    if (value == "" || index(", " set ", ", ", " value ", ")) return set
    return set == "" ? value : set ", " value
}
# chapter numbers "00" -> "chapter 00", "01 02 03" in table order -> "chapters 01-03"
function numbers(s,    n, a, i, out, first, last) {
    n = split(s, a, " ")
    if (n == 1) return "chapter " a[1]
    for (i = 1; i <= n; i++) {
        if (i > 1 && pos[a[i]] == pos[last] + 1) { last = a[i]; continue }
        if (i > 1) out = out (out == "" ? "" : ", ") (first == last ? first : first "-" last)
        first = last = a[i]
    }
    out = out (out == "" ? "" : ", ") (first == last ? first : first "-" last)
    return "chapters " out
}
BEGIN {
    count = split(list, order, " ")
    for (i = 1; i <= count; i++) pos[substr(order[i], 1, 2)] = i
    while ((got = getline line < ideas) > 0) {
        n++
        if (line ~ /^#/ || line ~ /^[ \t]*$/) continue
        if (!header++) {
            if (line != "chapter\tidea") fail(ideas ": the first line must be the header chapter<TAB>idea, not \"" line "\"")
            continue
        }
        tab = index(line, "\t")
        if (!tab) fail(ideas ":" n ": no tab between the chapter and its idea")
        chapter = substr(line, 1, tab - 1); text = substr(line, tab + 1)
        if (text ~ /^[ \t]*$/) fail(ideas ":" n ": " chapter " has an empty idea")
        if (chapter in idea) fail(ideas ":" n ": a second idea for " chapter)
        words = split(text, w, " ")
        if (words > 14) fail(ideas ":" n ": " chapter "'s idea has " words " words; keep it to about 10, the detail belongs in its README")
        idea[chapter] = text; line_of[chapter] = n
    }
    if (got < 0) fail("cannot read " ideas)
    for (i = 1; i <= count; i++) {
        if (!(order[i] in idea)) fail(ideas ": no idea for " chapters "/" order[i] ": add a line \"" order[i] "<TAB>idea\"")
        known[order[i]] = 1
    }
    for (chapter in idea)
        if (!(chapter in known)) fail(ideas ":" line_of[chapter] ": " chapter " is not a folder in " chapters)
    # The time model, by column name.
    if (modelfile != "") {
        mn = 0
        while ((got = getline line < modelfile) > 0) {
            nf = split(line, f, "\t")
            if (++mn == 1) { for (i = 1; i <= nf; i++) mcol[f[i]] = i; continue }
            if (!("model_gfx906_ms" in mcol) || !("bound_gfx906" in mcol) || !("model_h100_ms" in mcol))
                fail(modelfile ": needs columns model_gfx906_ms, model_h100_ms, bound_gfx906")
            c = f[mcol["chapter"]]
            modelled[c] = 1; mg[c] = f[mcol["model_gfx906_ms"]]; mh[c] = f[mcol["model_h100_ms"]]
            mb[c] = f[mcol["bound_gfx906"]]; mbh[c] = f[mcol["bound_h100"]]
            mdate = f[mcol["date"]]; mimages = f[mcol["images"]]; mslices = f[mcol["slices"]]; gsub(/ /, " and ", mslices)
        }
        if (got < 0) fail("cannot read " modelfile)
    }
}
FNR == 1 {
    for (i = 1; i <= NF; i++) col[$i] = i
    split("chapter platform device images iterations repeats median_ms date", need, " ")
    for (i = 1; i in need; i++)
        if (!(need[i] in col)) fail(data ": no " need[i] " column in its header")
    next
}
{
    chapter = $(col["chapter"])
    if (!(chapter in known) || (chapter in median)) next
    value = $(col["median_ms"])
    if (value !~ /^[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/ || value + 0 <= 0)
        fail(data ":" FNR ": " chapter " has median_ms \"" value "\", not a positive number")
    median[chapter] = value
    device[chapter] = $(col["device"]); date[chapter] = $(col["date"])
    if (substr(chapter, 1, 2) != "00") platforms = add(platforms, $(col["platform"])) # chapter 00 is always the host's
    dates = add(dates, date[chapter])
    runs = add(runs, $(col["iterations"]) " iterations x " $(col["repeats"]) " run" ($(col["repeats"]) == 1 ? "" : "s"))
    images = add(images, $(col["images"]))
    if (!(device[chapter] in on)) devices[++ndevices] = device[chapter]
    on[device[chapter]] = on[device[chapter]] (on[device[chapter]] == "" ? "" : " ") substr(chapter, 1, 2)
}
END {
    if (failed) exit 1
    if (modelfile != "") {
        print "| chapter | the one idea | model: gfx906 ms (what binds) | model: H100 ms (what binds) | measured |"
        print "|---|---|---|---|---|"
    } else {
        print "| chapter | the one idea | measured |"
        print "|---|---|---|"
    }
    for (i = 1; i <= count; i++) {
        c = order[i]
        cell = (c in median) ? ms(median[c]) " ms per iteration on " md(device[c]) ", " date[c] : "not measured"
        if (modelfile != "") {
            if (c in modelled)
                cell = ms(mg[c]) " (" md(mb[c]) ") | " ms(mh[c]) " (" md(mbh[c]) ") | " cell
            else
                cell = "- | - | " cell
        }
        print "| [" c "](" chapters "/" c "/) | " md(idea[c]) " | " cell " |"
    }
    print ""
    if (modelfile != "")
        print "*Model: the time model (common/model/) on the CPU executor's counts of one iteration on " mimages \
            " MNIST images" (mslices != "" && mslices != "none" ? " (traced on " mslices " images, extended in a straight line)" : "") \
            ", hipcc's gfx906 code and nvcc's sm_90 PTX, `make compare`, " mdate "; what binds is the slowest kernel and what held its simulated waves longest. A model, never measured: [" \
            modelfile "](" modelfile "), device figures and sources in [common/model/devices.tsv](common/model/devices.tsv).*"
    if (modelfile != "") print ""
    if (!ndevices) {
        print "*No chapter measured yet: `make compare` writes the times into [" data "](" data ").*"
        exit
    }
    for (i = 1; i <= ndevices; i++)
        where = where (i > 1 ? "; " : "") numbers(on[devices[i]]) " on " md(devices[i])
    caption = "*" command ", " dates ", platform " platforms ": median ms per full-batch training iteration on " \
        images " MNIST images, " runs " per chapter; " where ". The numbers are in [" data "](" data ")"
    if (", " platforms ", " ~ /, cpu, /)
        caption = caption "; on platform cpu they time the CPU executor, a correctness tool, not a GPU"
    print caption ".*"
}
