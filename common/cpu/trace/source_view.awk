# make profile-N's source view: per kernel, the source lines that cost
# something, each with its share of the term that binds the kernel (on gfx906
# and on H100) and its counters, as a profiler's source view shows them.
# Inputs, in order: the time model's per-line table (timemodel's SHARES.tsv),
# the trace's per-line wave runs (HIPCPU_PROFILE_LINES). Variables: root (the
# repository), source (the kernels' file: bare file names resolve to it),
# images (0 for a program of one's own).
# A line is shown when it holds at least 1% of the binding term on either
# device, or a wave waits on its loads at least once.

function key(location) { sub(/.*\//, "", location); return location }
function number(location) { sub(/.*:/, "", location); return location + 0 }
# The file a location names, under root; "" when it is not there (HIP's headers).
function path_of(location,    file) {
    file = location
    sub(/:[0-9]+$/, "", file)
    if (file !~ /\//) {
        if (key(source) == file) return source
        return ""
    }
    return file ~ /^\// ? file : root "/" file
}
function text_of(location,    file, n, wanted, line, got) {
    file = path_of(location)
    if (file == "") return "(a HIP header)"
    wanted = number(location)
    if (!((file, wanted) in text)) {
        n = 0
        while ((got = (getline line < file)) > 0)
            if (++n == wanted) { text[file, wanted] = line; break }
        close(file)
        if (!((file, wanted) in text)) text[file, wanted] = "(no such line)"
    }
    line = text[file, wanted]
    sub(/^[ \t]+/, "", line)
    return substr(line, 1, 70)
}
function pct(x) { return x >= 0.0005 ? sprintf("%.0f%%", 100 * x) : "-" }

FNR == 1 { file++; for (i = 1; i <= NF; i++) col[file, $i] = i; next }
file == 1 {
    k = $col[1, "kernel"]; d = $col[1, "device"]; loc = $col[1, "line"]
    if (!(k in seen)) { seen[k] = 1; kernels[++nk] = k }
    id = k SUBSEP key(loc)
    if (!(id in where)) { where[id] = loc; order[k, ++nl[k]] = id }
    if (loc ~ /\//) where[id] = loc
    share[id, d] = $col[1, "share"]; bound[k, d] = $col[1, "binding"]
    instr[id] = $col[1, "instructions_per_wave"]; trips[id] = $col[1, "round_trips_per_wave"]
    waves[k] = $col[1, "traced_waves"]
    next
}
{ runs[$col[2, "kernel"] SUBSEP key($col[2, "line"])] = $col[2, "wave_runs"] }
END {
    if (!nk) exit
    printf "\nSource view: each line's share of the term that binds its kernel (gfx906, H100), how often a\n"
    printf "wave ran it in the trace, the gfx906 instructions it issued and the loads a wave waited on, per wave:\n"
    fmt = "  %5s %6s %6s %9s %8s %7s  %s\n"
    for (x = 1; x <= nk; x++) {
        k = kernels[x]
        printf "\n  %s: bound by %s on gfx906, %s on H100\n", k, bound[k, "gfx906"], bound[k, "h100"]
        printf fmt, "line", "gfx906", "H100", "runs/wave", "instr", "waits", "source"
        # This kernel's lines, by line number.
        n = 0
        for (j = 1; j <= nl[k]; j++) {
            id = order[k, j]
            if (share[id, "gfx906"] < 0.01 && share[id, "h100"] < 0.01 && trips[id] < 1) continue
            list[++n] = id
        }
        for (a = 2; a <= n; a++) {
            t = list[a]
            for (b = a - 1; b >= 1 && number(where[list[b]]) > number(where[t]); b--) list[b + 1] = list[b]
            list[b + 1] = t
        }
        for (a = 1; a <= n; a++) {
            id = list[a]
            r = (id in runs) && waves[k] > 0 ? sprintf("%.1f", runs[id] / waves[k]) : "-"
            name = key(where[id]); sub(/:[0-9]+$/, "", name)
            shown = name == key(source) ? number(where[id]) : key(where[id])
            waited = trips[id] >= 0.05 ? sprintf("%.1f", trips[id]) : "-"
            printf fmt, shown, pct(share[id, "gfx906"]), pct(share[id, "h100"]), r, sprintf("%.1f", instr[id]), waited,
                text_of(where[id])
        }
    }
}
