# The compiled-code facts of the time model for NVIDIA devices
# (common/cpu/model/README.md): nvcc's sm_90 PTX of one source file, joined
# with what a warp-32 trace counted for the same kernels, becomes per kernel
# the instructions a warp issues, by pipe, the waits on memory a warp sits
# through, and its occupancy (from ptxas's resource report). The tables are
# isa_facts.awk's, so the model reads both alike.
#
# Run after trace_tables.awk (the trace's tables) and ptx_loops.awk (the
# blocks' control flow and loops). Inputs, in order: the trace build's
# per-site TSV (HIPCPU_PROFILE_SITES), its per-line TSV
# (HIPCPU_PROFILE_LINES), ptxas -v's report (names demangled), then the PTX
# (nvcc -ptx -lineinfo, names demangled). Variables: mix and
# waits, the two TSVs to write; lines_out, if set, a third: per kernel and
# source line, the instructions it issued by pipe (the source view);
# counters, if set, the trace's per-kernel counters (HIPCPU_PROFILE): the
# kernel's warps (blocks in no loop, below) and its block size (occupancy).
#
# Pipes. NVIDIA has no scalar unit: integer and float arithmetic, moves,
# conversions, compares and selects all issue as warp instructions to the
# `valu` figure (salu stays 0). ld.param and ld.const read the constant
# bank: `smem`. ld/st/atom/red on global, local or generic addresses:
# vmem_load, vmem_store, vmem_atomic; on shared memory: `lds`. shfl goes to
# `lds` too: the LSU pipe issues shuffles to the L1TEX unit beside the shared
# memory accesses (Nsight Compute Kernel Profiling Guide, NVIDIA, pipelines:
# lsu), as gfx906's ds_bpermute is an LDS instruction. bra, brx and call:
# `branch`; bar.sync / barrier.sync: `barrier`; ret, exit, fences and the
# like: `other` (counted in the instructions, in no pipe). A PTX instruction
# is taken for one warp instruction; ptxas expands a few (division, square
# root) into several and folds others (ld.param, cvta) into operands.
#
# How often each instruction ran. The trace build runs the source without
# unrolling or vectorising; nvcc does both. So a line's memory instructions
# are the anchors, as in isa_facts.awk: a line whose lanes load 8 bytes per
# run in the trace and whose PTX loads 40 bytes in all was unrolled 5 times,
# and each of those instructions ran a fifth as often as the line. Loops come
# from the control flow (PTX has no loop comments): an edge to a block that
# dominates its source is a back edge, and its natural loop is the header and
# every block that reaches the edge without passing the header; a block's
# innermost loop is the smallest one holding it.
#   - A block in no loop runs once per warp, or in fewer warps behind a
#     branch: as often as the most that any of its traced lines or sites ran,
#     when that is fewer than the kernel's traced warps (isa_facts.awk's rule).
#   - A block in a loop with an anchor of its own runs as often as its most
#     frequent anchor.
#   - Any other block in a loop runs as often as its innermost loop's trip
#     count: the most frequent anchor of the blocks of that same innermost
#     loop. So the same machine code gets the same counts whatever the host
#     build unrolled.
#   - Only where that loop has no anchor at all: the runs of the traced line
#     most of its instructions belong to; with none, once per warp.
#
# Waits. PTX has no s_waitcnt. ptxas issues a block's loads early; this is
# modelled by moving each load of a block up to just after the last
# instruction it depends on (the instruction that last wrote its address or
# predicate registers, or read or wrote its destination, an earlier load, a
# store, atomic, barrier or fence), the rest keeping the PTX order (no SASS
# can be read here to check it: README.md, Limits). In that order, an
# instruction that is the first to read a register a global, local or shared
# load (or a returning atomic, a shuffle, ld.const) wrote waits for it; it is
# a dependent round trip when no earlier wait of the same kind came after
# that load, and its distance is the instructions between the load and it.
# The load is found by walking back along the hottest predecessor blocks, as
# isa_facts.awk walks back from an s_waitcnt (so round a loop's back edge).
# Its row says how often it ran (the less often of its block and the load's).
#
# Occupancy: warps per SM partition from ptxas's registers and shared memory
# per block and the block size the trace launched, by compute capability
# 9.0's limits (below, each with its source).

BEGIN {
    # Compute capability 9.0 (H100, H200). CUDA C++ Programming Guide, NVIDIA,
    # Compute Capabilities appendix, technical specifications table: 32
    # resident blocks, 64 resident warps and 64 K 32-bit registers per SM,
    # 228 KB of shared memory per SM; 1 KB of shared memory per block is
    # reserved for system use (the compute capability 9.0 section). CUDA
    # toolkit 13.0's cuda_occupancy.h (NVIDIA): registers allocated per warp
    # in units of 256, each of the 4 SM sub-partitions holding a quarter of
    # the registers; shared memory allocated in units of 128 bytes. The driver
    # sizes the shared memory carve-out for the kernel (the compute capability
    # 9.0 section): the whole 228 KB is taken as available.
    SM_BLOCKS = 32; SM_WARPS = 64; SM_REGISTERS = 65536; SM_PARTITIONS = 4
    REG_UNIT = 256; SMEM_BYTES = 233472; SMEM_UNIT = 128; SMEM_RESERVED = 1024; WARP = 32
    if (counters != "") {
        while ((getline row < counters) > 0) {
            nf = split(row, cf, "\t")
            if (!header++) { for (i = 1; i <= nf; i++) ccol[cf[i]] = i; continue }
            if (!("kernel" in ccol) || !("waves" in ccol)) continue
            ck = cf[ccol["kernel"]]
            traced_waves[ck] = cf[ccol["waves"]] + 0
            if (("threads" in ccol) && ("blocks" in ccol) && cf[ccol["blocks"]] > 0)
                block_threads[ck] = cf[ccol["threads"]] / cf[ccol["blocks"]]
            if ("blocks" in ccol) traced_blocks[ck] = cf[ccol["blocks"]] + 0
        }
        close(counters)
        if (!header) { printf "ptx_facts: no counters in %s\n", counters > "/dev/stderr"; bad = 1; exit 1 }
    }
}
# A source file's key, as the trace names lines (file name:line). NVIDIA's
# shim and the toolkit's headers get a name of their own: the executor has a
# hip_runtime.h too, and its lines are others.
function file_key(path) {
    if (path ~ /\/gpu\/nvidia\// || path ~ /\/targets\/[^\/]*\/include\// || path ~ /\/cuda[^\/]*\/include\//)
        return "nvidia-" base(path)
    return base(path)
}
function round_up(x, unit) { return unit * int((x + unit - 1) / unit) }
# Bytes one lane moves: the element size times the vector width.
function width_of(op,    w) {
    w = 4
    if (op ~ /\.(b8|u8|s8)(\.|$)/) w = 1
    else if (op ~ /\.(b16|u16|s16|f16|bf16)(\.|$)/) w = 2
    else if (op ~ /\.(b64|u64|s64|f64)(\.|$)/) w = 8
    else if (op ~ /\.b128(\.|$)/) w = 16
    if (op ~ /\.v2\./) w *= 2
    else if (op ~ /\.v4\./) w *= 4
    else if (op ~ /\.v8\./) w *= 8
    return w
}
# The pipe an instruction issues to (the header says why).
function class_of(op) {
    if (op ~ /^(ld|ldu)\./) {
        if (op ~ /\.shared/) return "lds"
        if (op ~ /\.(param|const)/) return "smem"
        return "vmem_load"
    }
    if (op ~ /^st\./) {
        if (op ~ /\.shared/) return "lds"
        if (op ~ /\.param/) return "other"
        return "vmem_store"
    }
    if (op ~ /^(atom|red)\./) return op ~ /\.shared/ ? "lds" : "vmem_atomic"
    if (op ~ /^shfl\./) return "lds"
    if (op ~ /^bar\.warp/) return "other"
    if (op ~ /^(bar|barrier)\./ || op == "bar" || op == "barrier") return "barrier"
    if (op ~ /^(bra|brx|call)(\.|$)/) return "branch"
    if (op ~ /^(ret|exit|trap|membar|fence|nanosleep|prefetch|pmevent|griddepcontrol|discard|applypriority|createpolicy|cp\.)(\.|$)/)
        return "other"
    return "valu"
}
# The kind of wait a use of this instruction's result is: vm (global memory),
# lds (shared memory, shuffles), smem (the constant bank); "" for none.
function wait_kind(op,    c) {
    c = class_of(op)
    if (c == "vmem_load" || c == "vmem_atomic") return "vm"
    if (c == "lds" && op !~ /^st\./) return "lds"
    if (op ~ /^ld\.const/) return "smem"
    return ""
}
# A load that the schedule moves up (the header): ld on any memory but the
# parameter space.
function movable_load(op) { return op ~ /^(ld|ldu)\./ && op !~ /\.param/ }
# An instruction no load moves above.
function fences_loads(op) { return op ~ /^(st|atom|red|bar|barrier|membar|fence|cp|mbarrier)(\.|$)/ }
# FLOPs per lane: fused multiply-adds count 2, a single-precision add,
# multiply, min, max or division 1.
function flops_of(op) {
    if (op ~ /^(fma|mad)\.[a-z.]*f32$/) return 2
    if (op ~ /^(add|sub|mul|min|max|div)\.[a-z.]*f32$/) return 1
    return 0
}
# Whether an instruction writes its first operand.
function has_destination(op) {
    return op !~ /^(st|red|bar|barrier|bra|brx|call|ret|exit|trap|membar|fence|prefetch|nanosleep|pmevent|cp|griddepcontrol|discard|applypriority)(\.|$)/
}
# The virtual registers (%r12, %rd3, %f7, %p1...) in a piece of an operand list, space-separated.
function registers(text,    out) {
    out = ""
    while (match(text, /%[a-z]+[0-9]+/)) {
        out = out " " substr(text, RSTART, RLENGTH)
        text = substr(text, RSTART + RLENGTH)
    }
    return out
}

BEGIN { if (kernel_list != "") kernel_list_read(kernel_list) } # overloads keep their parameter lists (kernel_name.awk)
FNR == 1 { file++; if (file == 3) { FS = " "; $0 = $0 } }
# ---- the trace build's sites and lines (trace_tables.awk)
file == 1 { read_site_row(); next }
file == 2 { read_line_row(); next }
# ---- ptxas -v: registers and shared memory per kernel
file == 3 {
    if (match($0, /Compiling entry function '[^']*'/)) {
        res_kernel = kernel_name(substr($0, RSTART + 26, RLENGTH - 27))
        registers_of[res_kernel] = 0; smem_of[res_kernel] = 0
        next
    }
    if (res_kernel != "" && match($0, /Used [0-9]+ registers/)) registers_of[res_kernel] = substr($0, RSTART + 5, RLENGTH - 15) + 0
    if (res_kernel != "" && match($0, /[0-9]+ bytes smem/)) smem_of[res_kernel] = substr($0, RSTART, RLENGTH - 11) + 0
    if (res_kernel != "" && match($0, /[0-9]+ bytes spill stores/)) spill_of[res_kernel] = substr($0, RSTART, RLENGTH - 19) + 0
    next
}
# ---- the PTX
/^[ \t]*\.file[ \t]+[0-9]+[ \t]+"/ {
    path = $0; sub(/^[^"]*"/, "", path); sub(/".*$/, "", path)
    files[$2] = file_key(path)
    next
}
/^[ \t]*\.loc[ \t]/ { f = $2; sub(/,$/, "", $3); line = ($3 > 0) ? "F" f ":" ($3 + 0) : ""; next }
# A kernel's entry: ".visible .entry name(args)(" after c++filt; a device function's body is no kernel's.
/^[ \t]*(\.visible[ \t]+|\.weak[ \t]+)?\.entry[ \t]/ {
    name = $0; sub(/^[ \t]*(\.visible[ \t]+|\.weak[ \t]+)?\.entry[ \t]+/, "", name); sub(/\($/, "", name)
    kernel = kernel_name(name); kernels[++nk] = kernel; nb = 0; new_block(""); line = ""
    next
}
/^[ \t]*(\.visible[ \t]+|\.weak[ \t]+|\.extern[ \t]+)?\.func[ \t]/ { kernel = ""; next }
kernel == "" { next }
/^\$[A-Za-z0-9_$]+:/ { label = $0; sub(/:.*/, "", label); new_block(label); next }
/^}/ { kernel = ""; next }
/^[ \t]*[a-z@]/ {
    text = $0
    sub(/^[ \t]+/, "", text); sub(/[ \t]*;.*$/, "", text)
    guard = ""
    if (text ~ /^@/) { guard = text; sub(/[ \t].*/, "", guard); sub(/^@!?/, "", guard); sub(/^[^ \t]+[ \t]+/, "", text) }
    op = text; sub(/[ \t].*/, "", op)
    rest = substr(text, length(op) + 1)
    n = ++ni[kernel, nb]
    insn_op[kernel, nb, n] = op
    insn_line[kernel, nb, n] = line
    # Registers read and written: the first operand is written (all of a
    # vector {a, b} or a pair a|b) unless the instruction writes none or it is
    # an address; everything else, the guard and the address are read.
    dst = ""; src = registers(guard)
    if (has_destination(op)) {
        first = rest; sub(/^[ \t]+/, "", first)
        if (first ~ /^\{/) { first_text = first; sub(/}.*/, "}", first_text) }
        else { first_text = first; sub(/,.*/, "", first_text) }
        if (first_text ~ /^\[/) src = src registers(rest)
        else { dst = registers(first_text); src = src registers(substr(first, length(first_text) + 1)) }
    } else src = src registers(rest)
    insn_dst[kernel, nb, n] = dst
    insn_src[kernel, nb, n] = src
    # A move from one register to another (a copy, or a bit cast between a
    # float and an integer register: PTX registers are typed and virtual,
    # SASS's are not) is left to ptxas's register allocation, which coalesces
    # them: in the data flow, but not issued (an assumption: no SASS to check
    # it against here). A move of a special register (%tid: S2R) or of an
    # immediate is issued.
    insn_copy[kernel, nb, n] = op ~ /^mov\./ && rest ~ /,[ \t]*%[a-z]+[0-9]+[ \t]*$/
    if (dst != "" && wait_kind(op) != "") {
        m = split(dst, regs, " ")
        for (j = 1; j <= m; j++) if (regs[j] != "") loaded_reg[kernel, regs[j]] = 1
    }
    if (op ~ /^(bra|brx)(\.|$)/) { target = rest; gsub(/[ \t]/, "", target); block_target[kernel, nb] = target }
    block_end[kernel, nb] = op
    block_guarded[kernel, nb] = guard != ""
    if (op ~ /^(bra|brx|ret|exit|trap)(\.|$)/) new_block("")
    next
}

# A line key "F<file>:<line>" as the trace names it ("train.hip:98").
function resolve(l,    f) {
    if (l == "") return ""
    f = substr(l, 2); sub(/:.*/, "", f)
    return (f in files ? files[f] : "file" f) substr(l, index(l, ":"))
}

# A block's own anchor runs: its memory instructions' lines' traced runs
# over the copies the PTX holds of them; -1 without one.
function anchor_runs(k, b,    i, c, key, sp, copies, runs, best) {
    best = -1
    for (i = 1; i <= ni[k, b]; i++) {
        c = class_of(insn_op[k, b, i]); key = k SUBSEP resolve(insn_line[k, b, i])
        if (c !~ /^vmem_(load|store)$|^smem$|^lds$/ || insn_op[k, b, i] ~ /^shfl/ || !(key in site_runs)) continue
        sp = c == "lds" ? "lds" : "global"
        if (host_lanes[key, sp] == 0 || ptx_bytes[key, sp] == 0) continue
        copies = ptx_bytes[key, sp] / (host_bytes[key, sp] / host_lanes[key, sp])
        if (copies < 1) copies = 1
        runs = site_runs[key] / copies
        if (runs > best) { best = runs; anchor_line[k, b] = key }
    }
    return best
}

# What trace_tables.awk's critical_share asks of a block (as isa_facts.awk).
function in_loop(k, b) { return loop_of[b] != 0 }
function same_loop(k, x, b) { return loop_of[x] == loop_of[b] }
function line_at(k, b, i) { return resolve(insn_line[k, b, i]) }

# How often block b of kernel k ran, per the rules at the top (-1: once per warp).
function block_runs(k, b,    a, l) {
    if (!loop_of[b]) return once_per_wave_or_fewer(k, b)
    a = anchor_runs(k, b)
    if (a >= 0) return a
    l = loop_of[b]
    if (loop_trips[l] >= 0) return loop_trips[l]
    return line_runs_of(k, b)
}

# The issue order of block b (the header's schedule): sched[b, p] is the
# PTX index of its p-th instruction. A list schedule over the block's
# dependences (a register written then read, read then written, or written
# twice; a load after the last store, atomic, barrier or fence; those after
# every memory access before them; the branch that ends the block last):
# whenever one is ready, a load goes first, then an instruction some load of
# the block needs for its address, then the rest in PTX order.
function schedule(k, b,    n, i, j, m, q, r, regs, rd, crit, lastw, readers, lastorder, since, nsince, done, p, pick, rank) {
    n = ni[k, b]
    split("", ndep); split("", nsucc_i); split("", succ_i); split("", crit); split("", lastw); split("", readers)
    split("", since); split("", dep_seen); lastorder = 0; nsince = 0
    for (i = 1; i <= n; i++) {
        ndep[i] = 0; nsucc_i[i] = 0
        m = split(insn_src[k, b, i], regs, " ")
        for (q = 1; q <= m; q++) {
            r = regs[q]
            if (r == "") continue
            if (r in lastw) add_dep(lastw[r], i)
            readers[r] = readers[r] " " i
        }
        m = split(insn_dst[k, b, i], regs, " ")
        for (q = 1; q <= m; q++) {
            r = regs[q]
            if (r == "") continue
            if (r in lastw) add_dep(lastw[r], i)
            if (r in readers) { split(readers[r], rd, " "); for (j in rd) if (rd[j] != "") add_dep(rd[j] + 0, i) }
            lastw[r] = i; readers[r] = ""
        }
        if (movable_load(insn_op[k, b, i])) {
            if (lastorder) add_dep(lastorder, i)
            since[++nsince] = i
        } else if (fences_loads(insn_op[k, b, i])) {
            if (lastorder) add_dep(lastorder, i)
            for (j = 1; j <= nsince; j++) add_dep(since[j], i)
            lastorder = i; nsince = 0
        }
        if (i == n && insn_op[k, b, i] ~ /^(bra|brx|ret|exit|trap|call)(\.|$)/)
            for (j = 1; j < n; j++) add_dep(j, i)
    }
    # What the loads need: their register inputs, back to the block's start.
    for (i = n; i >= 1; i--) {
        if (movable_load(insn_op[k, b, i])) crit[i] = 1
        if (!crit[i]) continue
        m = split(insn_src[k, b, i], regs, " ")
        for (q = 1; q <= m; q++)
            if (regs[q] != "")
                for (j = i - 1; j >= 1; j--)
                    if (index(insn_dst[k, b, j] " ", " " regs[q] " ")) { crit[j] = 1; break }
    }
    split("", done)
    for (i = 1; i <= n; i++) rank[i] = movable_load(insn_op[k, b, i]) ? 0 : crit[i] ? 1 : 2
    for (p = 1; p <= n; p++) {
        pick = 0
        for (i = 1; i <= n; i++) {
            if ((i in done) || ndep[i] > 0) continue
            if (!pick || rank[i] < rank[pick]) pick = i
            if (rank[pick] == 0) break
        }
        done[pick] = 1; sched[b, p] = pick
        for (q = 1; q <= nsucc_i[pick]; q++) ndep[succ_i[pick, q]]--
    }
}
# A dependence of instruction `to` on `from` in the block being scheduled.
function add_dep(from, to) {
    if (from == to || ((from, to) in dep_seen)) return
    dep_seen[from, to] = 1
    ndep[to]++; succ_i[from, ++nsucc_i[from]] = to
}

# One step back along the hottest path from position (wb, wp): sets wb, wp
# to the instruction before; 0 when there is none (the entry, or a block
# met a third time).
function step_back(k,    best, p, pb) {
    wp--
    while (wp < 1) {
        if (++visits[wb] > 2) return 0
        best = 0
        for (p = 1; p <= npred[k, wb]; p++) {
            pb = pred[k, wb, p]
            if (!best || runs_of[pb] > runs_of[best] || (runs_of[pb] == runs_of[best] && pb > best)) best = pb
        }
        if (!best) return 0
        wb = best; wp = ni[k, wb]
    }
    return 1
}
# The waits of the instruction at position p of block b: for each kind of
# load whose register it is the first to read, the nearest such load, in
# wait_distance[b, p, kind], wait_load_b[b, p, kind], wait_load_p[b, p, kind].
function find_wait(k, b, p,    i, m, regs, q, r, steps, j, kind, np, path_b, path_p, x, n2, lregs, y, used) {
    i = sched[b, p]
    m = split(insn_src[k, b, i], regs, " ")
    for (q = 1; q <= m; q++) {
        r = regs[q]
        if (r == "" || !((k SUBSEP r) in loaded_reg)) continue
        split("", visits); wb = b; wp = p; steps = 0; np = 0
        while (steps < 5000 && step_back(k)) {
            j = sched[wb, wp]
            if (index(insn_dst[k, wb, j] " ", " " r " ")) {
                kind = wait_kind(insn_op[k, wb, j])
                if (kind == "") break
                # the first use: nothing in between read a register the load wrote
                n2 = split(insn_dst[k, wb, j], lregs, " "); used = 0
                for (x = 1; x <= np && !used; x++)
                    for (y = 1; y <= n2; y++)
                        if (lregs[y] != "" && index(insn_src[k, path_b[x], sched[path_b[x], path_p[x]]] " ", " " lregs[y] " ")) { used = 1; break }
                if (used) break
                if (!((b, p, kind) in wait_distance) || steps < wait_distance[b, p, kind]) {
                    wait_distance[b, p, kind] = steps; wait_load_b[b, p, kind] = wb; wait_load_p[b, p, kind] = wp
                }
                break
            }
            path_b[++np] = wb; path_p[np] = wp
            steps++
        }
    }
}
# Whether the wait of this kind at (b, p) is a new round trip: no earlier
# wait of its kind between its load and it.
function new_round_trip(k, b, p, kind,    d, steps) {
    d = wait_distance[b, p, kind]
    split("", visits); wb = b; wp = p; steps = 0
    while (steps < d && step_back(k)) {
        if ((wb, wp, kind) in wait_distance) return 0
        steps++
    }
    return 1
}

function occupancy(k,    threads, warps, regs_warp, by_regs, by_warps, by_smem, blocks) {
    if (!(k in block_threads) || !(k in registers_of)) return 0
    threads = block_threads[k]
    warps = int((threads + WARP - 1) / WARP)
    if (warps < 1) return 0
    regs_warp = round_up(registers_of[k] * WARP, REG_UNIT)
    blocks = SM_BLOCKS
    by_warps = int(SM_WARPS / warps)
    if (by_warps < blocks) blocks = by_warps
    if (regs_warp > 0) {
        if (regs_warp * round_up(warps, SM_PARTITIONS) > SM_REGISTERS) return 0
        by_regs = int(int(SM_REGISTERS / SM_PARTITIONS / regs_warp) * SM_PARTITIONS / warps)
        if (by_regs < blocks) blocks = by_regs
    }
    by_smem = int(SMEM_BYTES / round_up(smem_of[k] + SMEM_RESERVED, SMEM_UNIT))
    if (by_smem < blocks) blocks = by_smem
    return blocks * warps / SM_PARTITIONS
}

END {
    if (bad) exit 1
    critical = counters != "" # the critical path's columns need the kernel's blocks and warps
    printf "kernel\tvalu\tsalu\tsmem\tvmem_load\tvmem_store\tvmem_atomic\tlds\tbranch\twaits\tbarrier\t" \
           "flops_per_lane\tcas_loops\tinstructions\twaves_per_simd\tregisters\tshared_bytes\tspill_bytes%s\n",
           critical ? "\tcritical_instructions" : "" > mix
    write_waits_header(critical)
    if (lines_out != "") printf "kernel\tline\tvalu\tsalu\tsmem\tvmem\tlds\tbranch\tinstructions\n" > lines_out
    # The compiled bytes of each line's memory instructions (the anchors' copies).
    for (x = 1; x <= nk; x++) {
        k = kernels[x]
        for (b = 1; b <= nblocks[k]; b++)
            for (i = 1; i <= ni[k, b]; i++) {
                op = insn_op[k, b, i]; c = class_of(op)
                if (c !~ /^vmem_(load|store)$|^smem$|^lds$/ || op ~ /^(shfl|atom|red)/ || op ~ /\.param/) continue
                ptx_bytes[k SUBSEP resolve(insn_line[k, b, i]), c == "lds" ? "lds" : "global"] += width_of(op)
            }
    }
    for (x = 1; x <= nk; x++) {
        k = kernels[x]
        if (done[k]++) continue
        split("", total); split("", at_line); split("", line_seen); split("", runs_of); split("", loop_trips); split("", crit_of)
        split("", wait_distance); split("", wait_load_b); split("", wait_load_p); split("", sched)
        nlines = 0; cas = 0; critical_total = 0
        link_blocks(k)
        find_loops(k)
        # Each innermost loop's trip count: its blocks' most frequent anchor.
        for (b = 1; b <= nblocks[k]; b++) if (loop_of[b]) loop_trips[loop_of[b]] = -1
        for (b = 1; b <= nblocks[k]; b++)
            if (loop_of[b]) { a = anchor_runs(k, b); if (a > loop_trips[loop_of[b]]) loop_trips[loop_of[b]] = a }
        for (b = 1; b <= nblocks[k]; b++) {
            r = block_runs(k, b)
            if (r < 0) r = -1 # once per warp: the model multiplies by the warps
            runs_of[b] = r
            crit_of[b] = (r < 0 ? traced_waves[k] : r) * critical_share(k, b)
            if (debug) printf "%s block %d %s: %d instructions, loop %d, runs %s\n", k, b, block_label[k, b], ni[k, b], loop_of[b], r > "/dev/stderr"
            for (i = 1; i <= ni[k, b]; i++) {
                if (insn_copy[k, b, i]) continue
                critical_total += crit_of[b]
                op = insn_op[k, b, i]; c = class_of(op)
                w = r < 0 ? "per_wave" : "counted"; v = r < 0 ? 1 : r
                total[w, c] += v
                total[w, "flops"] += v * flops_of(op)
                total[w, "all"] += v
                l = resolve(insn_line[k, b, i])
                if (l != "") {
                    if (!(l in line_seen)) { line_seen[l] = 1; line_list[++nlines] = l }
                    cl = c ~ /^vmem/ ? "vmem" : c
                    at_line[l, w, cl] += v
                    at_line[l, w, "all"] += v
                }
                if (op ~ /^atom\..*cas/ && loop_of[b]) cas = 1
            }
            schedule(k, b)
        }
        # Waits, in the issue order: each first use of a load's register,
        # then which of them are new round trips.
        for (b = 1; b <= nblocks[k]; b++)
            for (p = 1; p <= ni[k, b]; p++) find_wait(k, b, p)
        split("vm lds smem", kinds, " ")
        for (b = 1; b <= nblocks[k]; b++)
            for (p = 1; p <= ni[k, b]; p++)
                for (kq = 1; kq <= 3; kq++) {
                    kind = kinds[kq]
                    if (!((b, p, kind) in wait_distance) || !new_round_trip(k, b, p, kind)) continue
                    lb = wait_load_b[b, p, kind]
                    rw = runs_of[b]; rl = runs_of[lb]
                    runs = (rw < 0 || rl < 0) ? -1 : (rw < rl ? rw : rl)
                    total[runs < 0 ? "per_wave" : "counted", "wait"] += runs < 0 ? 1 : runs
                    wline = resolve(insn_line[k, lb, sched[lb, wait_load_p[b, p, kind]]])
                    share = wait_shares(k SUBSEP wline, kind == "vm")
                    crit = (runs < 0 ? traced_waves[k] : runs) * critical_share(k, rw >= 0 && (rl < 0 || rw <= rl) ? b : lb)
                    printf "%s\t%s\t%s\t%d\t%s\t%s", k, kind, runs < 0 ? "per_wave" : runs, wait_distance[b, p, kind], wline, share > waits
                    printf "%s", (critical ? sprintf("\t%.1f\n", crit) : "\n") > waits
                }
        if (lines_out != "") write_line_rows(k)
        write_mix_counts(k)
        printf "\t%d\t%.0f+%.0f\t%g\t%d\t%d\t%d", cas, total["counted", "all"], total["per_wave", "all"], occupancy(k),
            registers_of[k], smem_of[k], spill_of[k] > mix
        printf "%s", (critical ? sprintf("\t%.0f\n", critical_total) : "\n") > mix
    }
}
