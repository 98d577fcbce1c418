# The table of `make profile-N` (called by common/cpu/profile.sh).
# Inputs, in order: floor_devices.tsv, plots/resources.tsv (waves per SIMD
# from the gfx906 compiler), the executor's raw counters. Variables: chapter,
# images, wave, out (the TSV to write), sites (the per-site TSV), seconds.

function flops_of(kernel) {
    # The model's arithmetic: the forward and the gradient are each 2 x 10 x
    # 785 FLOPs per image; other kernels' few FLOPs per image are left out.
    if (chapter ~ /^09-/) return 0 # the MLP: not modelled
    if (kernel == "forward_scores" || kernel == "gradient") return 2 * 10 * 785 * images
    if (kernel == "train_step") return 4 * 10 * 785 * images
    return 0
}
function ms(x) { return sprintf(x < 0.01 ? "%.4f" : "%.3f", x) }
function human(bytes) {
    if (bytes >= 1e9) return sprintf("%.2f GB", bytes / 1e9)
    if (bytes >= 1e6) return sprintf("%.2f MB", bytes / 1e6)
    if (bytes >= 1e3) return sprintf("%.1f kB", bytes / 1e3)
    return bytes " B"
}
function ratio(a, b) { return b > 0 ? sprintf("%.1f", a / b) : "-" }
# floor(device, kernel row) in ms; sets bound[] to the term that decides it.
function floor_ms(d, segments, sectors, unique, flops, launches,    l2bytes, t_mem, t_l2, t_flop, t, why) {
    l2bytes = seg_bytes[d] == 64 ? segments * 64 : sectors * 32
    t_mem = unique / (dram[d] * 1e9) * 1e3
    t_l2 = l2bytes / (l2[d] * 1e9) * 1e3
    t_flop = flops / (tflops[d] * 1e12) * 1e3
    t = t_mem; why = "memory"
    if (t_l2 > t) { t = t_l2; why = "L2" }
    if (t_flop > t) { t = t_flop; why = "FLOPs" }
    if (launches * launch[d] / 1e3 > t) why = "launch"
    bound = why
    return t + launches * launch[d] / 1e3
}

FNR == 1 { file++ }
/^#/ { next }
file == 1 {
    if ($1 == "device") next
    dram[$1] = $3; tflops[$1] = $2; l2[$1] = $4; launch[$1] = $5; seg_bytes[$1] = $6
    next
}
file == 2 {
    if ($1 == chapter) waves_per_simd[$2] = $9
    next
}
FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
    n++
    for (name in col) v[n, name] = $col[name]
}
END {
    header = "kernel\tlaunches\tblocks\tthreads\twaves\tglobal_load_requests\tglobal_load_bytes\t" \
             "global_load_segments\tglobal_load_sectors\tglobal_store_requests\tglobal_store_bytes\t" \
             "global_store_segments\tglobal_store_sectors\tunique_bytes\tlds_requests\tlds_read_requests\t" \
             "lds_write_requests\tlds_bytes\tlds_bank_cycles\tbarriers\tshuffles\tatomics\t" \
             "atomics_max_one_address\tflops\twaves_per_simd_gfx906\tfill_gfx906\tfloor_gfx906_ms\t" \
             "floor_h100_ms\tbound_gfx906\tbound_h100\timages"
    print header > out
    printf "%s: what the CPU executor saw in 1 %s on %d images (wave %d; %d s)\n", chapter,
        chapter ~ /^09-/ ? "epoch" : "iteration", images, wave, seconds
    printf "Counts are a model of the source's accesses (no caches, no timing; built without auto-vectorisation);\n"
    printf "floors are modelled from them, never measured. Columns: common/cpu/README.md.\n\n"
    fmt = "%-16s %4s %7s %5s %9s %6s %9s %6s %9s %9s %6s %5s %6s %8s %6s %9s %9s %-7s\n"
    printf fmt, "kernel", "runs", "waves", "fill", "loads", "seg/rq", "stores", "seg/rq", "unique", \
        "LDS rq", "cyc/rq", "bar/b", "shf/w", "atomics", "1 addr", "gfx906 ms", "H100 ms", "bound"
    for (i = 1; i <= n; i++) {
        k = v[i, "kernel"]
        segments = v[i, "global_load_segments"] + v[i, "global_store_segments"]
        sectors = v[i, "global_load_sectors"] + v[i, "global_store_sectors"]
        flops = flops_of(k)
        fg = floor_ms("gfx906", segments, sectors, v[i, "unique_bytes"], flops, v[i, "launches"]); bg = bound
        fh = floor_ms("h100", segments, sectors, v[i, "unique_bytes"], flops, v[i, "launches"]); bh = bound
        total_g += fg; total_h += fh
        wps = (k in waves_per_simd) && wave == 64 ? waves_per_simd[k] : ""
        per_launch = v[i, "waves"] / v[i, "launches"]
        fill = wps != "" ? sprintf("%.3f", per_launch / (60 * 4 * wps)) : ""
        row = k
        split("launches blocks threads waves global_load_requests global_load_bytes global_load_segments " \
              "global_load_sectors global_store_requests global_store_bytes global_store_segments " \
              "global_store_sectors unique_bytes lds_requests lds_read_requests lds_write_requests lds_bytes " \
              "lds_bank_cycles barriers shuffles atomics atomics_max_one_address", names, " ")
        for (j = 1; j in names; j++) row = row "\t" v[i, names[j]]
        row = row "\t" flops "\t" wps "\t" fill "\t" sprintf("%.6f", fg) "\t" sprintf("%.6f", fh) "\t" bg "\t" bh "\t" images
        print row > out
        printf fmt, k, v[i, "launches"], per_launch, fill != "" ? sprintf("%.0f%%", 100 * fill) : "-",
            v[i, "global_load_requests"], ratio(v[i, "global_load_segments"], v[i, "global_load_requests"]),
            v[i, "global_store_requests"], ratio(v[i, "global_store_segments"], v[i, "global_store_requests"]),
            human(v[i, "unique_bytes"]), v[i, "lds_requests"], ratio(v[i, "lds_bank_cycles"], v[i, "lds_requests"]),
            ratio(v[i, "barriers"], v[i, "blocks"]), ratio(v[i, "shuffles"], v[i, "waves"]), v[i, "atomics"],
            v[i, "atomics_max_one_address"], ms(fg), ms(fh), bg
    }
    close(out)
    printf "\nFloor of one %s (a model): gfx906 %s ms, H100 SXM %s ms.\n", chapter ~ /^09-/ ? "epoch" : "iteration",
        ms(total_g), ms(total_h)
    printf "fill: waves per launch against gfx906's 60 CUs x 4 SIMDs x the waves per SIMD that make resources gives.\n"
    printf "seg/rq: 64-byte segments per wave-level request; cyc/rq: LDS bank cycles per request (2 is conflict-free\n"
    printf "at wave 64 for 4-byte accesses); bar/b: barriers per block; shf/w: shuffles per wave; 1 addr: most atomics\n"
    printf "on one address. Written: %s, %s\n", out, sites
    # Per call site, in the order the kernels ran.
    if (sites != "" && (getline line < sites) > 0) {
        printf "\nPer call site (requests, bytes per request, and 64-byte segments or LDS bank cycles per request):\n"
        sfmt = "  %-16s %-44s %-14s %-6s %-6s %9s %7s %7s %9s\n"
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
