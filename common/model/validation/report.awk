# validate.sh's tables: the model against the times of one half of the
# yardstick (README.md beside this file).
#   awk -F'\t' -v half=development|held-out -v warp32_devices="h100 ..." -v summary_out=FILE \
#       -f report.awk projects.tsv heldout.tsv kernels.tsv published.tsv MODEL_TABLE...
# MODEL_TABLE: the time model's output for one program of the half, named NAME.model.tsv
# (its rows for devices of wave 64, on gfx906's code), NAME.model-ARCH.tsv
# (another AMD target's devices, on that target's code; these replace the
# first's) or NAME.model-warp32.tsv (the devices with warps of 32, on a
# wave-32 trace and nvcc's code). Prints markdown; writes summary_out: one
# line per project and device ("project NAME DEVICE rows within geomean
# spearman") and one "total rows within geomean" for the half.

function spearman(key,    n, i, a, b, ra, rb, ma, mb, cov, va, vb) {
    n = count[key]
    if (n < 3) return "- (under 3 rows)"
    for (i = 1; i <= n; i++) { a[i] = mod[key, i]; b[i] = timed[key, i] }
    rank(a, n, ra); rank(b, n, rb)
    for (i = 1; i <= n; i++) { ma += ra[i] / n; mb += rb[i] / n }
    for (i = 1; i <= n; i++) { cov += (ra[i] - ma) * (rb[i] - mb); va += (ra[i] - ma) ^ 2; vb += (rb[i] - mb) ^ 2 }
    if (vb == 0) return "undefined (timed all equal)"
    if (va == 0) return "undefined (modelled all equal)"
    return sprintf("%.2f", cov / sqrt(va * vb))
}
# rank(v, n, r): ranks from 1, ties sharing their mean rank.
function rank(v, n, r,    i, j, less, same) {
    for (i = 1; i <= n; i++) {
        less = same = 0
        for (j = 1; j <= n; j++) { if (v[j] < v[i]) less++; else if (v[j] == v[i]) same++ }
        r[i] = less + (same + 1) / 2
    }
}
function abslog(x) { return log(x) < 0 ? -log(x) : log(x) }
function cell(key) { return (key in model) ? sprintf("%.4f (%s)", model[key], bound[key]) : "-" }

BEGIN {
    n = split(warp32_devices, wd, " "); for (i = 1; i <= n; i++) warp32[wd[i]] = 1
    other = half == "development" ? "held-out" : "development"
}
FNR == 1 { file++ }
/^#/ { next }
# projects.tsv
file == 1 { if (FNR > 1 && !header1++) next; if ($1 != "project") project_repo[$1] = $2; next }
# heldout.tsv
file == 2 { if ($1 != "project") held[$1] = 1; next }
# kernels.tsv
file == 3 {
    if (!kc["file"]) { for (i = 1; i <= NF; i++) kc[$i] = i; next }
    key = $kc["file"] SUBSEP $kc["kernel"]
    proj = $kc["project"]
    kproject[key] = proj; kkind[key] = $kc["kind"]; korder[++nkernels] = key
    h = (proj in held) ? "held-out" : "development"
    khalf[key] = h
    kernels_in[h]++
    if (!((h, proj) in pk)) { pk[h, proj] = 0; porder[h, ++nproj[h]] = proj }
    pk[h, proj]++
    if (!((proj, $kc["kind"]) in kind_seen)) { kind_seen[proj, $kc["kind"]] = 1; kinds[proj] = kinds[proj] (kinds[proj] == "" ? "" : ", ") $kc["kind"] }
    next
}
# published.tsv
file == 4 {
    if (!pc["file"]) { for (i = 1; i <= NF; i++) pc[$i] = i; next }
    rows[++nrows] = $0
    key = $pc["file"] SUBSEP $pc["kernel"]
    has_time[key] = 1
    timed_rows[khalf[key], kproject[key]]++
    next
}
# the model's tables
FNR == 1 {
    for (i = 1; i <= NF; i++) mc[$i] = i
    narrow = FILENAME ~ /model-warp32/
    program = FILENAME; sub(/.*\//, "", program); sub(/\.model(-[a-z0-9]+)?\.tsv$/, ".hip", program)
    next
}
(narrow != ($mc["device"] in warp32)) { next }
{
    key = program SUBSEP $mc["kernel"] SUBSEP $mc["device"]; model[key] = $mc["model_ms"]; bound[key] = $mc["binding"]
    modelled[program SUBSEP $mc["kernel"]] = 1
}

END {
    # kernels.tsv and the simulated times name the same kernels (the tables are one half's)
    for (key in modelled) if (!(key in kproject)) {
        split(key, kf, SUBSEP); printf "validate: the trace of %s has kernel %s, which kernels.tsv does not list\n", kf[1], kf[2] > "/dev/stderr"; bad = 1 }
    for (i = 1; i <= nkernels; i++) if (khalf[korder[i]] == half && !(korder[i] in modelled)) {
        split(korder[i], kf, SUBSEP); printf "validate: kernels.tsv lists %s (%s), which its trace does not have\n", kf[2], kf[1] > "/dev/stderr"; bad = 1 }
    if (bad) exit 1
    printf "## The %s half: %d kernels from %d projects\n\n", half, kernels_in[half], nproj[half]
    print "| project | set | program | kernel | kind | device | modelled ms | timed ms | model / timed | what binds |"
    print "|---|---|---|---|---|---|---:|---:|---:|---|"
    for (r = 1; r <= nrows; r++) {
        split(rows[r], f, "\t")
        key = f[pc["file"]] SUBSEP f[pc["kernel"]]
        if (khalf[key] != half) continue
        s = f[pc["set"]]; d = f[pc["device"]]; t = f[pc["published_ms"]]; proj = kproject[key]
        mkey = key SUBSEP d
        if (!(mkey in model)) { printf "validate: no model row for %s on %s (%s)\n", f[pc["kernel"]], d, f[pc["file"]] > "/dev/stderr"; exit 1 }
        m = model[mkey]; ratio = m / t
        legacy = f[pc["legacy"]] == "yes"
        printf "| %s | %s%s | %s | %s | %s | %s | %.4f | %.4f | %.3f | %s |\n", proj, s, legacy ? " (legacy)" : "", f[pc["file"]],
            f[pc["kernel"]], kkind[key], d, m, t, ratio, bound[mkey]
        g = legacy ? "legacy" : "counted"
        n_in[g]++; within[g] += ratio >= 0.5 && ratio <= 2; err[g] += abslog(ratio)
        if (legacy) continue
        pd = proj SUBSEP d
        if (!(pd in count)) order[++groups] = pd
        count[pd]++; mod[pd, count[pd]] = m; timed[pd, count[pd]] = t
        pwithin[pd] += ratio >= 0.5 && ratio <= 2; perr[pd] += abslog(ratio)
    }
    print ""
    print "| project | device | rows | within 0.5x-2x | geometric-mean error | Spearman rank correlation |"
    print "|---|---|---:|---:|---:|---|"
    for (i = 1; i <= groups; i++) {
        split(order[i], pdv, SUBSEP)
        rho = spearman(order[i])
        printf "| %s | %s | %d | %d | %.2fx | %s |\n", pdv[1], pdv[2], count[order[i]], pwithin[order[i]], exp(perr[order[i]] / count[order[i]]), rho
        printf "project\t%s\t%s\t%d\t%d\t%.2f\t%s\n", pdv[1], pdv[2], count[order[i]], pwithin[order[i]], exp(perr[order[i]] / count[order[i]]), rho > summary_out
    }
    print ""
    if (n_in["counted"]) {
        printf "The %s half: %d rows with a time; within 0.5x-2x: %d (%.0f%%); geometric-mean error exp(mean |ln(model / timed)|): %.2fx.\n",
            half, n_in["counted"], within["counted"], 100 * within["counted"] / n_in["counted"], exp(err["counted"] / n_in["counted"])
        printf "total\t%d\t%d\t%.2f\n", n_in["counted"], within["counted"], exp(err["counted"] / n_in["counted"]) > summary_out
    } else {
        printf "The %s half: no row has a time yet.\n", half
        printf "total\t0\t0\t-\n" > summary_out
    }
    if (n_in["legacy"])
        printf "Legacy rows (counted toward nothing): %d; within 0.5x-2x: %d; geometric-mean error: %.2fx.\n",
            n_in["legacy"], within["legacy"], exp(err["legacy"] / n_in["legacy"])
    print ""
    printf "### The %s half's kernels not yet timed\n\n", half
    print "| project | program | kernel | kind | model: H200 ms (binds) | model: gfx906 ms (binds) |"
    print "|---|---|---|---|---:|---:|"
    none = 1
    for (i = 1; i <= nkernels; i++) {
        key = korder[i]
        if (khalf[key] != half || (key in has_time)) continue
        split(key, kf, SUBSEP)
        printf "| %s | %s | %s | %s | %s | %s |\n", kproject[key], kf[1], kf[2], kkind[key], cell(key SUBSEP "h200"), cell(key SUBSEP "gfx906")
        none = 0
    }
    if (none) print "| (none) | | | | | |"
    print ""
    printf "### The %s half (its figures are not shown here)\n\n", other
    print "| project | repository | kernels | rows with a time | kinds |"
    print "|---|---|---:|---:|---|"
    for (i = 1; i <= nproj[other]; i++) {
        proj = porder[other, i]
        printf "| %s | %s | %d | %d | %s |\n", proj, project_repo[proj], pk[other, proj], timed_rows[other, proj], kinds[proj]
    }
    if (half == "development")
        printf "\n%d kernels from %d projects in all. The held-out half's figures are read once per issue, at its end: make validate-heldout ISSUE=N.\n",
            kernels_in["development"] + kernels_in["held-out"], nproj["development"] + nproj["held-out"]
}
