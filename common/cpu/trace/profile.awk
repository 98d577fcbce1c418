# The tables of `make profile-N` (called by common/cpu/trace/profile.sh).
# Inputs, in order: the time model's rows (common/cpu/model/timemodel: one per
# kernel and device; empty when there is no model, with `note` saying why),
# then the executor's counters. Variables: chapter, images, wave, out (the TSV
# to write), sites (the per-site TSV), seconds, note, and shown (where the
# files will be, without .tsv, to print), scaled (how the counts were made, if
# extended from two slices).

function ms(x) { return x == "" ? "-" : sprintf(x < 0.01 ? "%.4f" : x < 10 ? "%.3f" : "%.1f", x) }
function human(bytes) {
    if (bytes >= 1e9) return sprintf("%.2f GB", bytes / 1e9)
    if (bytes >= 1e6) return sprintf("%.2f MB", bytes / 1e6)
    if (bytes >= 1e3) return sprintf("%.1f kB", bytes / 1e3)
    return bytes " B"
}
function ratio(a, b) { return b > 0 ? sprintf("%.1f", a / b) : "-" }
function pct(a, b) { return b > 0 ? sprintf("%.0f%%", 100 * a / b) : "-" }

FNR == 1 { file++ }
file == 1 && FNR == 1 { for (i = 1; i <= NF; i++) { mcol[$i] = i; mname[i] = $i }; mfields = NF; next }
file == 1 {
    d = $mcol["device"]; k = $mcol["kernel"]
    if (!(d in seen_device)) { seen_device[d] = 1; devices[++ndev] = d }
    for (i = 1; i <= mfields; i++) m[k, d, mname[i]] = $i
    has_model = 1
    next
}
FNR == 1 { for (i = 1; i <= NF; i++) { col[$i] = i; cname[i] = $i }; cfields = NF; next }
{
    n++
    for (i = 1; i <= cfields; i++) v[n, cname[i]] = $i
}
END {
    unit = chapter ~ /^09-/ ? "epoch" : "iteration"
    # The TSV: the counters, then the model's columns per device.
    header = "kernel"
    for (i = 2; i <= cfields; i++) header = header "\t" cname[i]
    split("model_ms floor_ms binding flops occupancy fill dram_ms l2_ms l1_ms lds_ms valu_ms salu_ms smem_ms " \
          "vmem_ms branch_ms issue_ms latency_ms atomic_ms round_trips_per_wave", mcols, " ")
    for (j = 1; j <= ndev; j++)
        for (c = 1; c in mcols; c++) {
            name = mcols[c]
            sub(/_ms$/, "", name)
            header = header "\t" name "_" devices[j] (mcols[c] ~ /_ms$/ ? "_ms" : "")
        }
    header = header "\timages"
    print header > out
    for (r = 1; r <= n; r++) {
        k = v[r, "kernel"]; row = k
        for (i = 2; i <= cfields; i++) row = row "\t" v[r, cname[i]]
        for (j = 1; j <= ndev; j++)
            for (c = 1; c in mcols; c++) row = row "\t" m[k, devices[j], mcols[c]]
        print row "\t" images > out
    }
    close(out)

    # The kernel column: 16 wide, or as wide as the longest name ("tile_kernel<64, 4>").
    kw = 16
    for (r = 1; r <= n; r++) if (length(v[r, "kernel"]) > kw) kw = length(v[r, "kernel"])
    kfmt = "%-" kw "s"

    if (images > 0)
        printf "%s: what the CPU executor saw in 1 %s on %d images%s (wave %d; %d s)\n", chapter, unit, images, scaled,
            wave, seconds
    else
        printf "%s: what the CPU executor saw in one run (wave %d; %d s)\n", chapter, wave, seconds
    if (images == 0) unit = "run"
    printf "Counts model the source's accesses, a wave at a time (built without auto-vectorisation);\n"
    printf "the times below are modelled from them, never measured. Columns: common/cpu/README.md.\n\n"
    fmt = kfmt " %4s %7s %9s %6s %6s %9s %6s %9s %9s %6s %5s %6s %8s %6s\n"
    printf fmt, "kernel", "runs", "waves", "loads", "seg/rq", "L2/rq", "stores", "seg/rq", "unique", \
        "LDS rq", "cyc/rq", "bar/b", "shf/w", "atomics", "1 addr"
    for (r = 1; r <= n; r++) {
        printf fmt, v[r, "kernel"], v[r, "launches"], v[r, "waves"] / v[r, "launches"],
            v[r, "global_load_requests"], ratio(v[r, "global_load_segments"], v[r, "global_load_requests"]),
            ratio(v[r, "global_load_phase_segments"], v[r, "global_load_requests"]),
            v[r, "global_store_requests"], ratio(v[r, "global_store_segments"], v[r, "global_store_requests"]),
            human(v[r, "unique_bytes"]), v[r, "lds_requests"], ratio(v[r, "lds_bank_cycles"], v[r, "lds_requests"]),
            ratio(v[r, "barriers"], v[r, "blocks"]), ratio(v[r, "shuffles"], v[r, "waves"]), v[r, "atomics"],
            v[r, "atomics_max_one_address"]
    }
    printf "seg/rq: 64-byte segments per wave-level request; L2/rq: the same after what a block re-reads between two\n"
    printf "barriers is kept in L1 (or LDS); cyc/rq: LDS bank cycles per request (2 is conflict-free at wave 64 for\n"
    printf "4-byte accesses); bar/b: barriers per block; shf/w: shuffles per wave; 1 addr: most atomics on one address.\n"

    if (!has_model) {
        printf "\n%s\n", note
    } else {
        printf "\nThe time model (common/cpu/model/README.md): ms per %s on each device, the term that binds,\n", unit
        printf "and the physical floor (unique bytes at full memory bandwidth, FLOPs at peak, plus launches).\n"
        mfmt = kfmt " %5s %10s %-8s %10s %10s %-8s %10s\n"
        printf mfmt, "kernel", "fill", "gfx906 ms", "bound", "floor", "H100 ms", "bound", "floor"
        for (r = 1; r <= n; r++) {
            k = v[r, "kernel"]
            printf mfmt, k, pct(m[k, "gfx906", "fill"], 1), ms(m[k, "gfx906", "model_ms"]), m[k, "gfx906", "binding"],
                ms(m[k, "gfx906", "floor_ms"]), ms(m[k, "h100", "model_ms"]), m[k, "h100", "binding"],
                ms(m[k, "h100", "floor_ms"])
            for (j = 1; j <= ndev; j++) { tg[devices[j]] += m[k, devices[j], "model_ms"]; fg[devices[j]] += m[k, devices[j], "floor_ms"] }
        }
        printf mfmt, "one " unit, "", ms(tg["gfx906"]), "", ms(fg["gfx906"]), ms(tg["h100"]), "", ms(fg["h100"])
        printf "fill: waves per launch against gfx906's SIMDs x the waves per SIMD its registers and LDS allow.\n"
        printf "\nWhy, per kernel and device (the binding term, then every term's share of the modelled time):\n"
        split("dram l2 l1 lds valu salu smem vmem branch issue latency atomic", terms, " ")
        for (r = 1; r <= n; r++) {
            k = v[r, "kernel"]
            for (j = 1; j <= ndev; j++) {
                d = devices[j]
                printf "  " kfmt " %-6s %s\n", k, d, m[k, d, "why"]
                line = ""
                for (t = 1; t in terms; t++) {
                    share = m[k, d, "model_ms"] > 0 ? m[k, d, terms[t] "_ms"] / m[k, d, "model_ms"] : 0
                    if (share >= 0.005) line = line sprintf(" %s %.0f%%", terms[t], 100 * share)
                }
                printf "  " kfmt " %-6s  terms:%s; launch %s ms\n", "", "", line, ms(m[k, d, "launch_ms"])
            }
        }
    }
    printf "Written: %s.tsv, .sites.tsv, .lines.tsv%s and .log\n", shown, has_model ? ", .model.tsv, .mix.tsv, .waits.tsv" : ""
    # Per call site, in the order the kernels ran.
    if (sites != "" && (getline line < sites) > 0) {
        printf "\nPer call site (requests, bytes per request, and 64-byte segments or LDS bank cycles per request):\n"
        sfmt = "  " kfmt " %-44s %-14s %-6s %-6s %9s %7s %7s %9s\n"
        printf sfmt, "kernel", "site", "buffer", "space", "kind", "requests", "B/rq", "seg/rq", "cyc/rq"
        while ((getline line < sites) > 0) {
            split(line, f, "\t")
            site = f[2]
            sub(/^chapters\/[^\/]*\//, "", site)
            if (f[5] == "atomic")
                printf sfmt, f[1], site, f[3], f[4], f[5], f[12] " lanes", "-", "-", "-"
            else
                printf sfmt, f[1], site, f[3], f[4], f[5], f[6], ratio(f[8], f[6]),
                    f[4] == "global" ? ratio(f[9], f[6]) : "-", f[4] == "shared" ? ratio(f[11], f[6]) : "-"
        }
        close(sites)
    }
}
