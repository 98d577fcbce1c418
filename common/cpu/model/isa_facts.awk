# The compiled-code facts of the time model (common/cpu/model/README.md):
# hipcc's gfx906 assembly of one source file, joined with what the trace build
# counted for the same kernels, becomes per kernel the instructions a wave
# issues, by pipe, and the waits on memory a wave sits through.
#
# Inputs, in order: the trace build's per-site TSV (HIPCPU_PROFILE_SITES), its
# per-line TSV (HIPCPU_PROFILE_LINES), the compiler's resources per kernel
# (common/scripts/resources.awk's rows: the occupancy), then the assembly (hipcc -S
# -gline-tables-only, names demangled). Run after common/scripts/kernel_name.awk
# (a kernel's name, as the trace build gives it). Variables: mix and waits, the
# two TSVs to write; kernel_list, if set, the kernels' demangled symbols, one a
# line (overloads keep their parameter lists); lines_out, if set, a third: per
# kernel and source line, the instructions it issued by pipe (the source view of
# make profile-N);
# counters, if set, the trace's per-kernel counters (HIPCPU_PROFILE), for the
# kernel's waves (blocks in no loop, below).
#
# How often each instruction ran. The trace build runs the source without
# unrolling or vectorising; hipcc does both. So a line's memory instructions
# are the anchors: a line whose lanes load 8 bytes per run in the trace (two
# floats) and whose assembly loads 40 bytes (dwordx4 + dword, twice) was
# unrolled 5 times, and each of those instructions ran a fifth as often as the
# line. A basic block in no loop (LLVM's loop comments say which) runs once
# per wave (or fewer: below). One in a loop runs as often as its most frequent anchor; one with
# no anchor, as often as the traced line most of its instructions belong to
# (no unrolling assumed); one with neither, once per wave.
#
# A block in no loop runs at most once per wave, but behind a branch (if (tid
# < 64): one of a block's two waves) in fewer waves than the kernel has. With
# the trace's counters (variable counters: HIPCPU_PROFILE's table, its waves
# column), such a block runs as often as the most that any of its traced
# lines ran (the line's wave runs, or its sites' requests, whichever is
# more), if that is fewer than the kernel's waves. Counts as traced, never
# divided by an unrolling: hipcc peels and unrolls loops, so the copy of a
# line in this block may be one of several, and a count divided by a
# mismatched number of copies would charge a block every wave runs to fewer
# waves. A line that ran more often than the kernel has waves is a loop's
# (peeled or unrolled here) and says nothing of how many waves reached this
# block: it is left out. The most, not the commonest: a line that opens an
# if and whose trace counts only its guarded part never lowers a block that
# also holds a line every wave ran. Without the counters, or with no other
# traced line, once per wave.
#
# Waits. A wait (s_waitcnt) that needs a load no earlier wait of that counter
# waited for is a dependent round trip: the wave can go no further until the
# data is back. The load is found by walking back from the wait along the
# hottest predecessor blocks (so round a loop's back edge: a loop that loads
# for its next trip before it computes is found that way). The wait's row says
# how often it ran (the less often of its block and the load's) and how many
# instructions the wave issued between the load and the wait, which hide part
# of the latency.

BEGIN {
    if (kernel_list != "") kernel_list_read(kernel_list)
    # The kernel's traced waves (all launches), from the counters' header by name.
    if (counters != "") {
        while ((getline row < counters) > 0) {
            nf = split(row, cf, "\t")
            if (!header++) { for (i = 1; i <= nf; i++) ccol[cf[i]] = i; continue }
            if (("kernel" in ccol) && ("waves" in ccol)) traced_waves[cf[ccol["kernel"]]] = cf[ccol["waves"]] + 0
            if (("kernel" in ccol) && ("blocks" in ccol)) traced_blocks[cf[ccol["kernel"]]] = cf[ccol["blocks"]] + 0
        }
        close(counters)
        if (!header) { printf "isa_facts: no counters in %s\n", counters > "/dev/stderr"; bad = 1; exit 1 }
    }
}
function width_of(op) {
    if (op ~ /dwordx16/) return 64
    if (op ~ /dwordx8/) return 32
    if (op ~ /dwordx4|b128|read2st64_b64|read2_b64|write2_b64|write2st64_b64/) return 16
    if (op ~ /dwordx3|b96/) return 12
    if (op ~ /dwordx2|b64|read2_b32|read2st64_b32|write2_b32|write2st64_b32/) return 8
    if (op ~ /short|_u16|_i16|_b16|d16/) return 2
    if (op ~ /byte|_u8|_i8|_b8/) return 1
    return 4
}
# The pipe an instruction issues to.
function class_of(op) {
    if (op ~ /^(global|buffer|flat)_atomic/) return "vmem_atomic"
    # Buffer loads and stores are scratch on gfx9 (register spills, private
    # arrays): the compiler reaches global memory through global_ and flat_.
    if (op ~ /^buffer_(load|store)/) return "vmem_scratch"
    if (op ~ /^(global|buffer|flat)_store/) return "vmem_store"
    if (op ~ /^(global|buffer|flat)_load/) return "vmem_load"
    if (op ~ /^s_(buffer_)?load/) return "smem"
    if (op ~ /^s_(store|memtime|memrealtime|dcache)/) return "smem"
    if (op ~ /^ds_/) return "lds"
    if (op ~ /^s_waitcnt/) return "wait"
    if (op == "s_barrier") return "barrier"
    if (op ~ /^s_(cbranch|branch|setpc|swappc|getpc)/) return "branch"
    if (op ~ /^s_(endpgm|nop|sleep|setprio|sendmsg|trap|icache)/) return "other"
    if (op ~ /^s_/) return "salu"
    if (op ~ /^v_/) return "valu"
    return "other"
}
# FLOPs per lane of a VALU instruction: fused multiply-adds count 2.
function flops_of(op) {
    if (op ~ /^v_(fma|fmac|mac|mad|madak|madmk|fmaak|fmamk)_f32/) return 2
    if (op ~ /^v_pk_fma_f32/) return 4
    if (op ~ /^v_(add|sub|subrev|mul|min|max)_f32/) return 1
    return 0
}

FNR == 1 { file++; if (file == 4) { FS = " "; $0 = $0 } }
# ---- the trace build's sites and lines (trace_tables.awk)
file == 1 { read_site_row(); next }
file == 2 { read_line_row(); next }
# ---- the compiler's resources: waves per SIMD
file == 3 { occupancy[$2] = $9; scratch_size[$2] = $6; next }
# ---- the assembly
/^[ \t]*\.file[ \t]+[0-9]+[ \t]+"/ {
    rest = $0; sub(/^[ \t]*\.file[ \t]+[0-9]+[ \t]+/, "", rest)
    count = 0
    while (match(rest, /^"[^"]*"/)) { part[++count] = substr(rest, 2, RLENGTH - 2); rest = substr(rest, RLENGTH + 1); sub(/^[ \t]+/, "", rest) }
    files[$2] = base(part[count])
    next
}
/^[ \t]*\.loc[ \t]/ { if ($3 > 0 && ($2 in files)) line = files[$2] ":" $3; next }
# A kernel's entry label: "name(args):" after c++filt, at column 0.
/^[^ \t.;][^;]*:[ \t]*(;.*)?$/ && !/^\.L/ && /; @|\(/ {
    name = $0; sub(/:[ \t]*(;.*)?$/, "", name)
    if (name ~ /^__/) next
    kernel = kernel_name(name); kernels[++nk] = kernel; nb = 0; new_block(""); line = ""
    next
}
kernel == "" { next }
/^\.LBB[0-9_]+:/ { label = $1; sub(/:$/, "", label); new_block(label); set_depth(); next }
/^; %bb\.[0-9]+:/ { new_block(""); set_depth(); next }
/^[ \t]*;/ || /^[ \t]*\./ || /^[ \t]*$/ { if ($0 ~ /^[ \t]*\.Lfunc_end/ || $0 ~ /^[ \t]*\.size/) kernel_end(); next }
/^\.Lfunc_end/ { kernel_end(); next }
{
    op = $1
    if (op !~ /^[sv]_|^(global|buffer|flat|ds)_/) next
    n = ++ni[kernel, nb]
    insn_op[kernel, nb, n] = op
    insn_line[kernel, nb, n] = line
    insn_text[kernel, nb, n] = $0
    c = class_of(op)
    if (c ~ /^vmem|^smem|^lds/) {
        sp = c ~ /^lds/ ? "lds" : "global"
        if (c != "vmem_atomic" && c != "vmem_scratch") isa_bytes[kernel SUBSEP line, sp] += width_of(op)
    }
    if (op ~ /^s_(cbranch|branch)/) { target = $2; sub(/,.*/, "", target); block_target[kernel, nb] = target }
    block_end[kernel, nb] = op
    if (op ~ /^s_(cbranch|branch|endpgm)/) new_block("")
    next
}

# LLVM's comment on a block's first line says how deep in loops it is
# ("; =>This Inner Loop Header: Depth=2", ";   in Loop: Header=BB2_4 Depth=1").
# Which loop it is innermost in: the header's name ("BB2_4"; a header names
# itself), so the blocks of one loop can share its trip count (below).
function set_depth() {
    block_depth[kernel, nb] = match($0, /Depth=[0-9]+/) ? substr($0, RSTART + 6, RLENGTH - 6) + 0 : 0
    block_loop[kernel, nb] = ""
    if (match($0, /Header=BB[0-9_]+/)) block_loop[kernel, nb] = substr($0, RSTART + 7, RLENGTH - 7)
    else if ($0 ~ /Loop Header/ && $1 ~ /^\.LBB/) { block_loop[kernel, nb] = $1; sub(/^\.L/, "", block_loop[kernel, nb]); sub(/:$/, "", block_loop[kernel, nb]) }
}

# The limit a wait sets on counter q ("vm" or "lgkm"), or -1 if it sets none.
function wait_limit(text, q) {
    if (text ~ /s_waitcnt[ \t]+0[ \t]*$/) return 0
    if (match(text, q "cnt\\([0-9]+\\)")) return substr(text, RSTART + length(q) + 4, RLENGTH - length(q) - 5) + 0
    return -1
}

# Predecessors of each block of kernel k: fall-through unless it ends in an
# unconditional branch or the end of the program; branch targets.
function link_blocks(k,    b, t) {
    for (b = 1; b <= nblocks[k]; b++) npred[k, b] = 0
    for (b = 1; b <= nblocks[k]; b++) {
        if (block_end[k, b] != "s_branch" && block_end[k, b] != "s_endpgm" && b < nblocks[k])
            pred[k, b + 1, ++npred[k, b + 1]] = b
        if (block_target[k, b] != "" && ((k SUBSEP block_target[k, b]) in label_block)) {
            t = label_block[k, block_target[k, b]]
            pred[k, t, ++npred[k, t]] = b
        }
    }
}

# Walks back from instruction i of block b along the hottest predecessors
# (a loop's back edge is its hottest) for the load a wait with this limit
# needs: the (limit + 1)-th most recent instruction of counter q. Found
# before an earlier wait of the same counter, it is a new round trip: sets
# found_block, found_distance (instructions between) and found_kind.
function find_load(k, b, i, q, limit,    count, steps, op, c, best, p, pb, visits) {
    count = 0; steps = 0; split("", visits)
    i--
    while (steps < 5000) {
        if (i < 1) {
            if (++visits[b] > 2) return 0
            best = 0
            for (p = 1; p <= npred[k, b]; p++) {
                pb = pred[k, b, p]
                if (!best || runs_of[pb] > runs_of[best] || (runs_of[pb] == runs_of[best] && pb > best)) best = pb
            }
            if (!best) return 0
            b = best; i = ni[k, b]
            continue
        }
        op = insn_op[k, b, i]; c = class_of(op)
        if ((q == "vm" && c ~ /^vmem/) || (q == "lgkm" && (c == "smem" || c == "lds"))) {
            if (++count == limit + 1) {
                found_block = b; found_distance = steps; found_kind = c; found_line = insn_line[k, b, i]
                return 1
            }
        } else if (c == "wait" && wait_limit(insn_text[k, b, i], q) >= 0) {
            return 0
        }
        steps++; i--
    }
    return 0
}
function kernel_end() { kernel = "" }

# How often block b of kernel k ran, per the rules at the top: its own
# anchor; without one, its loop's trip count (the most of any anchor in the
# blocks of that innermost loop), or fewer where its traced line ran fewer
# times (a branch inside the loop). The trip count comes from the compiled
# code's own memory instructions, so a loop the host build ran unrolled
# (#pragma unroll) and one it ran rolled get the same counts: a line's runs
# on the host say nothing of how often the compiled block ran.
function block_runs(k, b,    own, loop, trips, line, x) {
    if (!block_depth[k, b]) return once_per_wave_or_fewer(k, b)
    own = anchor_runs(k, b)
    if (own >= 0) return own
    loop = block_loop[k, b]; trips = -1
    if (loop != "")
        for (x = 1; x <= nblocks[k]; x++)
            if (block_loop[k, x] == loop && block_depth[k, x] && anchor_runs(k, x) > trips) trips = anchor_runs(k, x)
    line = line_runs_of(k, b)
    if (trips < 0) return line
    return line >= 0 && line < trips ? line : trips
}

# The runs of a block's most frequent anchor (a memory instruction of a
# traced line, divided by the compiled copies of that line's bytes); -1: none.
function anchor_runs(k, b,    i, op, c, sp, key, copies, runs, best, l) {
    if ((k SUBSEP b) in anchor_cache) return anchor_cache[k, b]
    best = -1
    for (i = 1; i <= ni[k, b]; i++) {
        op = insn_op[k, b, i]; c = class_of(op); l = insn_line[k, b, i]; key = k SUBSEP l
        if (c !~ /^vmem_(load|store)|^smem|^lds/ || !(key in site_runs)) continue
        sp = c ~ /^lds/ ? "lds" : "global"
        if (host_lanes[key, sp] == 0 || isa_bytes[key, sp] == 0) continue
        copies = isa_bytes[key, sp] / (host_bytes[key, sp] / host_lanes[key, sp])
        if (copies < 1) copies = 1
        runs = site_runs[key] / copies
        if (runs > best) { best = runs; anchor_line[k, b] = key }
    }
    anchor_cache[k, b] = best
    return best
}


# What trace_tables.awk's critical_share asks of a block: in a loop? in the
# same innermost loop as another? the source line of its i-th instruction?
function in_loop(k, b) { return block_depth[k, b] && block_loop[k, b] != "" }
function same_loop(k, x, b) { return block_depth[k, x] && block_loop[k, x] == block_loop[k, b] }
function line_at(k, b, i) { return insn_line[k, b, i] }



END {
    if (bad) exit 1
    # The critical path's columns need the kernel's blocks and waves (the counters).
    critical = counters != ""
    printf "kernel\tvalu\tsalu\tsmem\tvmem_load\tvmem_store\tvmem_atomic\tlds\tbranch\twaits\tbarrier\t" \
           "flops_per_lane\tcas_loops\tinstructions\t%s\tvmem_scratch\tscratch_bytes\tscratch_lane_bytes%s\n",
           arch == "" || arch == "gfx906" ? "gfx906_waves_per_simd" : "waves_per_simd", critical ? "\tcritical_instructions" : "" > mix
    write_waits_header(critical)
    if (lines_out != "") printf "kernel\tline\tvalu\tsalu\tsmem\tvmem\tlds\tbranch\tinstructions\n" > lines_out
    for (x = 1; x <= nk; x++) {
        k = kernels[x]
        if (done[k]++) continue
        split("", total); split("", at_line); split("", line_seen); split("", crit_of); nlines = 0
        critical_total = 0
        cas = 0
        link_blocks(k)
        for (b = 1; b <= nblocks[k]; b++) {
            r = block_runs(k, b)
            if (r < 0) r = -1 # once per wave: the model multiplies by the waves
            runs_of[b] = r
            crit_of[b] = (r < 0 ? traced_waves[k] : r) * critical_share(k, b)
            critical_total += crit_of[b] * ni[k, b]
            if (debug) printf "%s block %d %s: %d instructions, runs %s\n", k, b, block_label[k, b], ni[k, b], r > "/dev/stderr"
            for (i = 1; i <= ni[k, b]; i++) {
                op = insn_op[k, b, i]; c = class_of(op)
                w = r < 0 ? "per_wave" : "counted"
                total[w, c] += r < 0 ? 1 : r
                total[w, "flops"] += (r < 0 ? 1 : r) * flops_of(op)
                if (c == "vmem_scratch") total[w, "scratch_bytes"] += (r < 0 ? 1 : r) * width_of(op)
                total[w, "all"] += r < 0 ? 1 : r
                l = insn_line[k, b, i]
                if (l != "") {
                    if (!(l in line_seen)) { line_seen[l] = 1; line_list[++nlines] = l }
                    cl = c ~ /^vmem/ ? "vmem" : c
                    at_line[l, w, cl] += r < 0 ? 1 : r
                    at_line[l, w, "all"] += r < 0 ? 1 : r
                }
                if (op ~ /atomic_cmpswap/ && block_target[k, b] != "") cas = 1
            }
        }
        # Waits: each one that needs a load no earlier wait of its counter
        # waited for is a dependent round trip (the walk back, below).
        for (b = 1; b <= nblocks[k]; b++)
            for (i = 1; i <= ni[k, b]; i++) {
                if (class_of(insn_op[k, b, i]) != "wait") continue
                for (qi = 1; qi <= 2; qi++) {
                    q = qi == 1 ? "vm" : "lgkm"
                    limit = wait_limit(insn_text[k, b, i], q)
                    if (limit < 0 || !find_load(k, b, i, q, limit)) continue
                    rw = runs_of[b]; rl = runs_of[found_block]
                    runs = (rw < 0 || rl < 0) ? -1 : (rw < rl ? rw : rl)
                    counter = q == "vm" ? "vm" : found_kind == "smem" ? "smem" : "lds"
                    share = wait_shares(k SUBSEP found_line, counter == "vm")
                    # Its critical runs: the wait's block's share of the runs it was given.
                    crit = (runs < 0 ? traced_waves[k] : runs) * critical_share(k, rw >= 0 && (rl < 0 || rw <= rl) ? b : found_block)
                    printf "%s\t%s\t%s\t%d\t%s\t%s", k, counter, runs < 0 ? "per_wave" : runs, found_distance, found_line, share > waits
                    printf "%s", (critical ? sprintf("\t%.1f\n", crit) : "\n") > waits
                }
            }
        # Per source line: what its instructions issued, for the source view.
        if (lines_out != "") write_line_rows(k)
        write_mix_counts(k)
        printf "\t%d\t%.0f+%.0f\t%d", cas, total["counted", "all"], total["per_wave", "all"], occupancy[k] > mix
        printf "\t%.0f+%.0f\t%.0f+%.0f\t%d", total["counted", "vmem_scratch"], total["per_wave", "vmem_scratch"],
            total["counted", "scratch_bytes"], total["per_wave", "scratch_bytes"], scratch_size[k] > mix
        printf "%s", (critical ? sprintf("\t%.0f\n", critical_total) : "\n") > mix
    }
}
