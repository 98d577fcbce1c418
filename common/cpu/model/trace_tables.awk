# The trace build's tables as the compiled-code facts read them (isa_facts.awk
# for gfx906, ptx_facts.awk for sm_90: each is run with this file first), and
# the rows both write the same way. Keys are "kernel SUBSEP file:line", the
# file without its folders (the trace and the compilers spell paths apart).

BEGIN { nreuse = split("256k 1m 4m 16m 64m 256m", reuse, " ") } # the trace's re-read distances

function base(path) { sub(/.*\//, "", path); return path }

# A row of the per-site table (HIPCPU_PROFILE_SITES; its header read into sc):
# the host bytes and lanes per run of each line's memory accesses (the
# anchors' copies), its most requests (its runs), and for its global loads
# the requests that reached DRAM and that were re-read from beyond each
# distance.
function read_site_row(    k, loc, key, space, r) {
    if (FNR == 1) { for (i = 1; i <= NF; i++) sc[$i] = i; return }
    k = $sc["kernel"]; split($sc["site"], loc, ":"); key = k SUBSEP base(loc[1]) ":" loc[2]
    space = $sc["space"] == "shared" ? "lds" : "global"
    if ($sc["kind"] == "atomic") return
    host_bytes[key, space] += $sc["bytes"]
    if (space == "global" && $sc["kind"] == "load" && ("dram_requests" in sc)) {
        dram_requests[key] += $sc["dram_requests"]; load_requests[key] += $sc["requests"]
        for (r = 1; r <= nreuse; r++) if (("beyond_" reuse[r]) in sc) beyond_requests[key, r] += $sc["beyond_" reuse[r]]
    }
    if ($sc["lanes"] > host_lanes[key, space]) host_lanes[key, space] = $sc["lanes"]
    if ($sc["requests"] > site_runs[key]) site_runs[key] = $sc["requests"]
}

# A row of the per-line table (HIPCPU_PROFILE_LINES; its header into lc): how
# often a wave ran each line, in all and on its barrier phases' busiest waves.
function read_line_row(    loc, key) {
    if (FNR == 1) { for (i = 1; i <= NF; i++) lc[$i] = i; return }
    split($lc["line"], loc, ":")
    key = $lc["kernel"] SUBSEP base(loc[1]) ":" loc[2]
    line_runs[key] = $lc["wave_runs"]
    if ("critical_runs" in lc) line_critical[key] = $lc["critical_runs"]
}

# The waits table's header, and a wait's share columns: of its load's line's
# requests, those that reached DRAM, then those re-read from beyond each
# distance ("-" for all when the line has no counted global loads, or the
# wait is not on global memory).
function write_waits_header(critical,    r) {
    printf "kernel\tcounter\truns\tdistance\tline\tdram_share" > waits
    for (r = 1; r <= nreuse; r++) printf "\tbeyond_%s_share", reuse[r] > waits
    printf "%s\n", critical ? "\tcritical_runs" : "" > waits
}
function wait_shares(key, global,    share, r) {
    share = global && load_requests[key] > 0 ? sprintf("%.4f", dram_requests[key] / load_requests[key]) : "-"
    for (r = 1; r <= nreuse; r++)
        share = share "\t" (share ~ /^-/ ? "-" : sprintf("%.4f", beyond_requests[key, r] / load_requests[key]))
    return share
}

# Kernel k's rows of the per-line instruction table (the source view), from
# at_line[line, "counted" or "per_wave", pipe] over line_list[1..nlines].
function write_line_rows(k,    j, l, q, lcols) {
    split("valu salu smem vmem lds branch all", lcols, " ")
    for (j = 1; j <= nlines; j++) {
        l = line_list[j]
        printf "%s\t%s", k, l > lines_out
        for (q = 1; q <= 7; q++)
            printf "\t%.0f+%.0f", at_line[l, "counted", lcols[q]], at_line[l, "per_wave", lcols[q]] > lines_out
        printf "\n" > lines_out
    }
}

# The start of kernel k's mix row: its name and the per-pipe counts from
# total["counted" or "per_wave", class] (the script adds its own columns).
function write_mix_counts(k,    cols, j) {
    printf "%s", k > mix
    split("valu salu smem vmem_load vmem_store vmem_atomic lds branch wait barrier flops", cols, " ")
    for (j = 1; j <= 11; j++)
        printf "\t%.0f+%.0f", total["counted", cols[j]], total["per_wave", cols[j]] > mix
}

# Of a block's runs (summed over waves), the share its barrier phases'
# busiest waves made (critical_runs, summed over blocks): in a loop, the
# share of the line whose anchor sets the loop's trip count (so, like the
# runs, the same for the same machine code); elsewhere its main traced
# line's; with neither, a wave's share of its block (blocks / waves: the
# average wave, as if the block's waves shared its work evenly). The script
# gives in_loop, same_loop, line_at and anchor_runs (which sets anchor_line).
function critical_share(k, b,    i, key, held, most, best, x, trips) {
    best = ""
    if (in_loop(k, b)) {
        trips = -1
        for (x = 1; x <= nblocks[k]; x++)
            if (same_loop(k, x, b) && anchor_runs(k, x) > trips) { trips = anchor_runs(k, x); best = anchor_line[k, x] }
        if (best != "" && (best in line_critical) && line_runs[best] > 0) return line_critical[best] / line_runs[best]
    }
    best = ""
    split("", held)
    most = 0
    for (i = 1; i <= ni[k, b]; i++) {
        key = k SUBSEP line_at(k, b, i)
        if ((key in line_critical) && line_runs[key] > 0 && ++held[key] > most) { most = held[key]; best = key }
    }
    if (best != "") return line_critical[best] / line_runs[best]
    return traced_waves[k] > 0 ? traced_blocks[k] / traced_waves[k] : 1
}

# The runs of the traced line most of a block's instructions belong to; -1: none.
function line_runs_of(k, b,    i, key, held, most, best) {
    best = -1
    split("", held)
    most = 0
    for (i = 1; i <= ni[k, b]; i++) {
        key = k SUBSEP line_at(k, b, i)
        if ((key in line_runs) && ++held[key] > most) { most = held[key]; best = line_runs[key] }
    }
    return best
}

# A block in no loop, if the kernel's waves are known: the most that any of
# its traced lines ran (its wave runs, or its sites' requests), leaving out
# lines that ran more often than the kernel has waves; that if fewer than the
# waves, else -1 (once per wave).
function once_per_wave_or_fewer(k, b,    i, key, runs, most) {
    if (!(k in traced_waves)) return -1
    most = -1
    for (i = 1; i <= ni[k, b]; i++) {
        key = k SUBSEP line_at(k, b, i)
        runs = -1
        if (key in line_runs) runs = line_runs[key] + 0
        if ((key in site_runs) && site_runs[key] + 0 > runs) runs = site_runs[key] + 0
        if (runs > traced_waves[k]) continue # a loop's line, peeled or unrolled here
        if (runs > most) most = runs
    }
    return most >= 0 && most < traced_waves[k] ? most : -1
}

# Both parsers split a kernel's code into blocks the same way: a new block at
# each label and after each branch, numbered per kernel (nb, nblocks); an empty
# block just opened takes the label instead of leaving an empty one behind.
function new_block(label) {
    if (kernel == "") return
    if (nb > 0 && ni[kernel, nb] == 0 && block_label[kernel, nb] == "") {
        block_label[kernel, nb] = label
        if (label != "") label_block[kernel, label] = nb
        return
    }
    nb++; nblocks[kernel] = nb; block_label[kernel, nb] = label; ni[kernel, nb] = 0
    if (label != "") label_block[kernel, label] = nb
}
