# make profile-N's source view: per kernel, the source lines that cost
# something, each with its share of the term that binds the kernel on each
# device (gfx906, H100, H200) and its counters, as a profiler's source view
# shows them.
# Inputs, in order: the time model's per-line table (timemodel's SHARES.tsv,
# the devices in the order they come), the trace's per-line wave runs
# (HIPCPU_PROFILE_LINES). Variables: root (the repository), source (the
# kernels' file: bare file names resolve to it), warp32 (a device modelled on
# nvcc's code and the wave-32 trace, whose instructions and waits per warp
# are shown beside gfx906's per wave; empty: none).
# A line is shown when it holds at least 1% of the binding term on any
# device, or a wave or warp waits on its loads at least once.

function key(location) { sub(/.*\//, "", location); return location }
function number(location) { sub(/.*:/, "", location); return location + 0 }
function shown_name(d) { return d ~ /^[a-z][0-9]+$/ ? toupper(d) : d }
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
    return substr(line, 1, 50)
}
function pct(x) { return x >= 0.0005 ? sprintf("%.0f%%", 100 * x) : "-" }
function count(x) { return x == "" ? "-" : sprintf("%.1f", x) }
function waited(x) { return x >= 0.05 ? sprintf("%.1f", x) : "-" }

FNR == 1 { file++; for (i = 1; i <= NF; i++) col[file, $i] = i; next }
file == 1 {
    k = $col[1, "kernel"]; d = $col[1, "device"]; loc = $col[1, "line"]
    if (!(k in seen)) { seen[k] = 1; kernels[++nk] = k }
    if (!(d in seen_device)) { seen_device[d] = 1; devices[++ndev] = d }
    id = k SUBSEP key(loc)
    if (!(id in where)) { where[id] = loc; order[k, ++nl[k]] = id }
    if (loc ~ /\//) where[id] = loc
    share[id, d] = $col[1, "share"]; bound[k, d] = $col[1, "binding"]
    instr[id, d] = $col[1, "instructions_per_wave"]; trips[id, d] = $col[1, "round_trips_per_wave"]
    waves[k, d] = $col[1, "traced_waves"]
    next
}
{ runs[$col[2, "kernel"] SUBSEP key($col[2, "line"])] = $col[2, "wave_runs"] }
END {
    if (!nk) exit
    wide = devices[1] # the device of the wave-64 trace and hipcc's code (gfx906)
    if (warp32 != "" && !(warp32 in seen_device)) warp32 = ""
    printf "\nSource view: each line's share of the term that binds its kernel on each device; how often a\n"
    printf "wave ran it in the trace and the %s instructions it issued and loads it waited on, per wave", wide
    if (warp32 != "")
        printf ";\nand %s's (nvcc's sm_90 code, the wave-32 trace) per warp of 32, warp-instr and warp-waits", shown_name(warp32)
    printf ":\n"
    for (x = 1; x <= nk; x++) {
        k = kernels[x]
        title = ""
        for (j = 1; j <= ndev; j++) title = title (j > 1 ? ", " : "") bound[k, devices[j]] " on " shown_name(devices[j])
        printf "\n  %s: bound by %s\n", k, title
        header = sprintf("  %5s", "line")
        for (j = 1; j <= ndev; j++) header = header sprintf(" %6s", shown_name(devices[j]))
        header = header sprintf(" %9s %8s %7s", "runs/wave", "instr", "waits")
        if (warp32 != "") header = header sprintf(" %10s %10s", "warp-instr", "warp-waits")
        print header "  source"
        # This kernel's lines, by line number.
        n = 0
        for (j = 1; j <= nl[k]; j++) {
            id = order[k, j]
            keep = 0
            for (q = 1; q <= ndev; q++) if (share[id, devices[q]] >= 0.01 || trips[id, devices[q]] >= 1) keep = 1
            if (keep) list[++n] = id
        }
        for (a = 2; a <= n; a++) {
            t = list[a]
            for (b = a - 1; b >= 1 && number(where[list[b]]) > number(where[t]); b--) list[b + 1] = list[b]
            list[b + 1] = t
        }
        for (a = 1; a <= n; a++) {
            id = list[a]
            r = (id in runs) && waves[k, wide] > 0 ? sprintf("%.1f", runs[id] / waves[k, wide]) : "-"
            name = key(where[id]); sub(/:[0-9]+$/, "", name)
            shown = name == key(source) ? number(where[id]) : key(where[id])
            row = sprintf("  %5s", shown)
            for (j = 1; j <= ndev; j++) row = row sprintf(" %6s", pct(share[id, devices[j]]))
            row = row sprintf(" %9s %8s %7s", r, count(instr[id, wide]), waited(trips[id, wide]))
            if (warp32 != "") row = row sprintf(" %10s %10s", count(instr[id, warp32]), waited(trips[id, warp32]))
            print row "  " text_of(where[id])
        }
    }
}
