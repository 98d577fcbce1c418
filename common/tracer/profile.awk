# The tables of `make profile-N` (called by common/tracer/profile.sh).
# Inputs, in order: the time model's rows (common/model/timesim: one per
# kernel and device; empty when there is no model, with `note` saying why),
# then the executor's counters. Variables: chapter, images, wave, out (the TSV
# to write), sites (the per-site TSV), seconds, note, and shown (where the
# files will be, without .tsv, to print), scaled (how the counts were made, if
# extended from two slices); warp32, if set, the counters of the same run
# traced at wave 32 with warp32_cus CUs (what the warp-32 devices read);
# model_note, a line on how the devices were modelled, if not each from its
# own code; cuda, set for a CUDA program: its counts are at warp 32, in
# NVIDIA's 32-byte sectors, and its first device (an NVIDIA one) leads.

function ms(x) { return x == "" ? "-" : sprintf(x < 0.01 ? "%.4f" : x < 10 ? "%.3f" : "%.1f", x) }
function human(bytes) {
    if (bytes >= 1e9) return sprintf("%.2f GB", bytes / 1e9)
    if (bytes >= 1e6) return sprintf("%.2f MB", bytes / 1e6)
    if (bytes >= 1e3) return sprintf("%.1f kB", bytes / 1e3)
    return bytes " B"
}
function ratio(a, b) { return b > 0 ? sprintf("%.1f", a / b) : "-" }
function pct(a, b) { return b > 0 ? sprintf("%.0f%%", 100 * a / b) : "-" }
# A device as the tables name it: gfx906, H100, H200.
function shown_name(d) { return d ~ /^[a-z][0-9]+$/ ? toupper(d) : d }
# counter_table(which, unit): the counter table of the rows in v[] (which "")
# or wv[] (which "w"), with segments (unit "seg") or sectors ("sec") per request.
function counter_table(which, unit,    fmt, r, k, key, seg, rows, row) {
    fmt = kfmt " %4s %7s %9s %6s %6s %9s %6s %9s %9s %6s %5s %6s %8s %6s\n"
    seg = unit == "sec" ? "sectors" : "segments"
    printf fmt, "kernel", "runs", "waves", "loads", unit "/rq", "L2/rq", "stores", unit "/rq", "unique", \
        "LDS rq", "cyc/rq", "bar/b", "shf/w", "atomics", "1 addr"
    rows = which == "w" ? nw : n
    for (r = 1; r <= rows; r++) {
        split("", row)
        if (which == "w") { for (k in wv) { split(k, key, SUBSEP); if (key[1] == r) row[key[2]] = wv[k] } }
        else { for (k in v) { split(k, key, SUBSEP); if (key[1] == r) row[key[2]] = v[k] } }
        printf fmt, row["kernel"], row["launches"], row["waves"] / row["launches"],
            row["global_load_requests"], ratio(row["global_load_" seg], row["global_load_requests"]),
            ratio(row["global_load_phase_" seg], row["global_load_requests"]),
            row["global_store_requests"], ratio(row["global_store_" seg], row["global_store_requests"]),
            human(row["unique_bytes"]), row["lds_requests"], ratio(row["lds_bank_cycles"], row["lds_requests"]),
            ratio(row["barriers"], row["blocks"]), ratio(row["shuffles"], row["waves"]), row["atomics"],
            row["atomics_max_one_address"]
    }
}

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
    split("model_ms floor_ms binding flops fill waves_per_simd instructions_per_wave issue_share " \
          "issue other pipe dependency memory lds scalar barrier", mcols, " ")
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
    printf "the times below are modelled from them, never measured. Columns: common/executor/README.md.\n\n"
    if (cuda != "") {
        counter_table("", "sec")
        printf "sec/rq: 32-byte sectors per warp-level request (NVIDIA's unit); L2/rq: the same after what a block re-reads\n"
        printf "between two barriers is kept in L1 (or shared memory); cyc/rq: shared-memory bank cycles per request (1 is\n"
        printf "conflict-free for 4-byte accesses); bar/b: barriers per block; shf/w: shuffles per warp; 1 addr: most atomics on one address.\n"
    } else {
        counter_table("", "seg")
        printf "seg/rq: 64-byte segments per wave-level request; L2/rq: the same after what a block re-reads between two\n"
        printf "barriers is kept in L1 (or LDS); cyc/rq: LDS bank cycles per request (2 is conflict-free at wave 64 for\n"
        printf "4-byte accesses); bar/b: barriers per block; shf/w: shuffles per wave; 1 addr: most atomics on one address.\n"
    }
    if (warp32 != "") {
        nw = 0
        while ((getline line < warp32) > 0) {
            nf = split(line, f, "\t")
            if (!wheader++) { for (i = 1; i <= nf; i++) wname[i] = f[i]; continue }
            nw++
            for (i = 1; i <= nf; i++) wv[nw, wname[i]] = f[i]
        }
        close(warp32)
        printf "\nThe same %s traced again at wave 32 with %s CUs (multiProcessorCount), what the warp-32\n", unit, warp32_cus
        printf "devices read; sec/rq: 32-byte sectors per request (NVIDIA's unit), L2/rq the same per block and phase:\n"
        counter_table("w", "sec")
    }

    if (!has_model) {
        printf "\n%s\n", note
    } else {
        printf "\nThe time model, a simulation of each device's compiled code (common/model/README.md): ms per\n"
        printf "%s, what held the waves longest, and the floor (unique bytes at DRAM bandwidth or FLOPs at peak, plus launches).\n", unit
        filled = cuda != "" ? devices[1] : "gfx906" # whose fill the column shows
        header = sprintf(kfmt " %5s", "kernel", "fill")
        for (j = 1; j <= ndev; j++) header = header sprintf(" %10s %-10s %10s", shown_name(devices[j]) " ms", "bound", "floor")
        print header
        for (r = 1; r <= n; r++) {
            k = v[r, "kernel"]
            row = sprintf(kfmt " %5s", k, pct(m[k, filled, "fill"], 1))
            for (j = 1; j <= ndev; j++) {
                d = devices[j]
                row = row sprintf(" %10s %-10s %10s", ms(m[k, d, "model_ms"]), m[k, d, "binding"], ms(m[k, d, "floor_ms"]))
                tg[d] += m[k, d, "model_ms"]; fg[d] += m[k, d, "floor_ms"]
            }
            print row
        }
        row = sprintf(kfmt " %5s", "one " unit, "")
        for (j = 1; j <= ndev; j++) row = row sprintf(" %10s %-10s %10s", ms(tg[devices[j]]), "", ms(fg[devices[j]]))
        print row
        printf "fill: how much of %s a launch can keep busy: its blocks, against the blocks all its CUs\n", shown_name(filled)
        printf "      hold at once (as many each as the kernel's registers and LDS leave room for).\n"
        printf "bound: what held the simulated waves longest. memory: waiting for global memory; lds: for\n"
        printf "      shared memory; barrier: at a barrier; dependency: on an arithmetic result; pipe: for a\n"
        printf "      busy pipe; scalar: for scalar or constant loads; issue: issuing, or another wave issuing\n"
        printf "      (the SIMD is busy); launch: the launch's fixed cost, larger than the work.\n"
        printf "\nWhy, per kernel and device (the largest share, then where a wave's resident cycles went):\n"
        split("issue other pipe dependency memory lds scalar barrier", stalls, " ")
        for (r = 1; r <= n; r++) {
            k = v[r, "kernel"]
            for (j = 1; j <= ndev; j++) {
                d = devices[j]
                printf "  " kfmt " %-6s %s\n", k, d, m[k, d, "why"]
                line = ""
                for (t = 1; t in stalls; t++)
                    if (m[k, d, stalls[t]] >= 0.005) line = line sprintf(" %s %.0f%%", stalls[t], 100 * m[k, d, stalls[t]])
                printf "  " kfmt " %-6s cycles:%s; %s instructions per wave\n", "", "", line, m[k, d, "instructions_per_wave"]
            }
        }
        printf "other: ready, but another wave issued.\n"
    }
    if (has_model && model_note != "") printf "\nNote: %s\n", model_note
    printf "Written: %s.tsv, .sites.tsv, .lines.tsv%s%s and .log\n", shown, has_model ? ", .model.tsv, .source.tsv, .gfx906.s" : "",
        nw ? ", .w32.tsv, .w32.sites.tsv, .w32.lines.tsv, .sm_90.ptx" : ""
    # Per call site, in the order the kernels ran.
    if (sites != "" && (getline line < sites) > 0) {
        printf "\nPer call site (requests, bytes per request, and %s or LDS bank cycles per request):\n",
            cuda != "" ? "32-byte sectors" : "64-byte segments"
        sfmt = "  " kfmt " %-44s %-14s %-6s %-6s %9s %7s %7s %9s\n"
        printf sfmt, "kernel", "site", "buffer", "space", "kind", "requests", "B/rq", cuda != "" ? "sec/rq" : "seg/rq", "cyc/rq"
        while ((getline line < sites) > 0) {
            split(line, f, "\t")
            site = f[2]
            sub(/^chapters\/[^\/]*\//, "", site)
            if (f[5] == "atomic")
                printf sfmt, f[1], site, f[3], f[4], f[5], f[12] " lanes", "-", "-", "-"
            else
                printf sfmt, f[1], site, f[3], f[4], f[5], f[6], ratio(f[8], f[6]),
                    f[4] == "global" ? ratio(f[cuda != "" ? 10 : 9], f[6]) : "-", f[4] == "shared" ? ratio(f[11], f[6]) : "-"
        }
        close(sites)
    }
}
