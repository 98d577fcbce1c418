# make profile-N's source view: per kernel, the source lines that cost
# something, each with its share of the kernel's simulated cycles on each
# device (gfx906, H100, H200), what held gfx906's waves there, and how often a
# wave ran it, as a profiler's source view shows them.
# Inputs, in order: the simulation's per-line table (timesim --lines: the
# devices in the order they come), the trace's per-line wave runs
# (HIPCPU_PROFILE_LINES). Variables: root (the repository), source (the
# kernels' file: bare file names resolve to it), warp32 (a device simulated
# on nvcc's code and the wave-32 trace, whose instructions per warp are shown
# beside gfx906's per wave; empty: none), counters (the trace's counters
# table, for each kernel's traced waves).
# A line is shown when it holds at least 1% of its kernel's cycles on any device.

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
# The waves the trace counted for kernel k, from the counters table (its "waves" column).
function traced_waves(k,    line, f, nf, i, c) {
    if (!loaded) {
        loaded = 1
        while ((getline line < counters) > 0) {
            nf = split(line, f, "\t")
            if (!c) { for (i = 1; i <= nf; i++) if (f[i] == "waves") c = i; if (!c) break; continue }
            traced[f[1]] = f[c]
        }
        close(counters)
    }
    return traced[k] > 0 ? traced[k] : ""
}

FNR == 1 { file++; for (i = 1; i <= NF; i++) col[file, $i] = i; next }
file == 1 {
    k = $col[1, "kernel"]; d = $col[1, "device"]; loc = $col[1, "line"]
    if (loc == "-") next # code with no source line
    if (!(k in seen)) { seen[k] = 1; kernels[++nk] = k }
    if (!(d in seen_device)) { seen_device[d] = 1; devices[++ndev] = d }
    id = k SUBSEP key(loc)
    if (!(id in where)) { where[id] = loc; order[k, ++nl[k]] = id }
    if (loc ~ /\//) where[id] = loc
    share[id, d] = $col[1, "share"]; instr[id, d] = $col[1, "instructions_per_wave"]
    # What held the waves on this line, and in the kernel ("other": another wave issued, so the SIMD was busy).
    top = ""
    for (t = 1; t in stalls; t++) {
        x = $col[1, stalls[t]] + (stalls[t] == "issue" ? $col[1, "other"] : 0)
        held[k, d, stalls[t]] += x
        if (top == "" || x > best) { top = stalls[t]; best = x }
    }
    held_by[id, d] = $col[1, "share"] > 0 ? top : "-"
    next
}
{ runs[$col[2, "kernel"] SUBSEP key($col[2, "line"])] = $col[2, "wave_runs"] }
function bound_of(k, d,    t, top, best) {
    top = ""
    for (t = 1; t in stalls; t++)
        if (top == "" || held[k, d, stalls[t]] > best) { top = stalls[t]; best = held[k, d, stalls[t]] }
    return top
}
BEGIN { split("issue pipe dependency memory lds scalar barrier", stalls, " ") }
END {
    if (!nk) exit
    wide = devices[1] # the device of the wave-64 trace and hipcc's code (gfx906)
    if (warp32 != "" && !(warp32 in seen_device)) warp32 = ""
    printf "\nSource view: each line's share of its kernel's simulated cycles on each device, what held %s's\n", shown_name(wide)
    printf "waves there longest (held-by; issue: issuing, or another wave issuing), how often a wave ran it in the trace, and\n"
    printf "the %s instructions it issued per wave", shown_name(wide)
    if (warp32 != "") printf " (warp-instr: %s's, nvcc's sm_90 code, per warp of 32)", shown_name(warp32)
    printf ":\n"
    for (x = 1; x <= nk; x++) {
        k = kernels[x]
        title = ""
        for (j = 1; j <= ndev; j++) title = title (j > 1 ? ", " : "") bound_of(k, devices[j]) " on " shown_name(devices[j])
        printf "\n  %s: bound by %s\n", k, title
        header = sprintf("  %5s", "line")
        for (j = 1; j <= ndev; j++) header = header sprintf(" %6s", shown_name(devices[j]))
        header = header sprintf(" %-10s %9s %8s", "held-by", "runs/wave", "instr")
        if (warp32 != "") header = header sprintf(" %10s", "warp-instr")
        print header "  source"
        # This kernel's lines, by line number.
        n = 0
        for (j = 1; j <= nl[k]; j++) {
            id = order[k, j]
            keep = 0
            for (q = 1; q <= ndev; q++) if (share[id, devices[q]] >= 0.01) keep = 1
            if (keep) list[++n] = id
        }
        for (a = 2; a <= n; a++) {
            t = list[a]
            for (b = a - 1; b >= 1 && number(where[list[b]]) > number(where[t]); b--) list[b + 1] = list[b]
            list[b + 1] = t
        }
        for (a = 1; a <= n; a++) {
            id = list[a]
            r = (id in runs) && traced_waves(k) != "" ? sprintf("%.1f", runs[id] / traced_waves(k)) : "-"
            name = key(where[id]); sub(/:[0-9]+$/, "", name)
            shown = name == key(source) ? number(where[id]) : key(where[id])
            row = sprintf("  %5s", shown)
            for (j = 1; j <= ndev; j++) row = row sprintf(" %6s", pct(share[id, devices[j]]))
            row = row sprintf(" %-10s %9s %8s", held_by[id, wide] == "" ? "-" : held_by[id, wide], r, count(instr[id, wide]))
            if (warp32 != "") row = row sprintf(" %10s", count(instr[id, warp32]))
            print row "  " text_of(where[id])
        }
    }
}
