# The counters the lessons move, for one chapter of make compare
# (compare_model.sh), from its extended profile (profile.sh's NN-name.tsv,
# one row per kernel): ratios of sums over the kernels, the most of any one
# kernel, and the fill of the kernel with the most modelled gfx906 time
# (README.md's counter table, make readme-table). One row of
# compare-counters.tsv:
#   awk -F '\t' -v chapter=NN-name -v images=N -v slices=S -v date=D -v file=FILE \
#       -f plots/compare_counters.awk FILE

NR == 1 {
    for (i = 1; i <= NF; i++) col[$i] = i
    n = split("kernel blocks global_load_requests global_load_segments lds_requests lds_bank_cycles " \
              "barriers atomics_max_one_address unique_bytes fill_gfx906 model_gfx906_ms model_h100_ms", need, " ")
    for (i = 1; i <= n; i++)
        if (!(need[i] in col)) { print "compare: " file " has no " need[i] " column" > "/dev/stderr"; bad = 1; exit 1 }
    next
}
{
    rq += $col["global_load_requests"]; seg += $col["global_load_segments"]
    lds += $col["lds_requests"]; cycles += $col["lds_bank_cycles"]
    unique += $col["unique_bytes"]; g += $col["model_gfx906_ms"]; h += $col["model_h100_ms"]
    if ($col["blocks"] > 0 && $col["barriers"] / $col["blocks"] > bar) {
        bar = $col["barriers"] / $col["blocks"]; bar_kernel = $col["kernel"]
    }
    if ($col["atomics_max_one_address"] > atom) atom = $col["atomics_max_one_address"]
    if (slowest == "" || $col["model_gfx906_ms"] > worst) {
        worst = $col["model_gfx906_ms"]; slowest = $col["kernel"]; fill = $col["fill_gfx906"]
    }
}
END {
    if (bad) exit 1
    if (slowest == "") { print "compare: " file " has no kernel rows" > "/dev/stderr"; exit 1 }
    printf "%s\t%.0f\t%.0f\t%s\t%.0f\t%.0f\t%s\t%.6g\t%s\t%s\t%s\t%.0f\t%.0f\t%.6f\t%.6f\t%s\t%s\t%s\n",
        chapter, rq, seg, (rq > 0 ? sprintf("%.6g", seg / rq) : "-"), lds, cycles,
        (lds > 0 ? sprintf("%.6g", cycles / lds) : "-"), bar, (bar_kernel == "" ? "-" : bar_kernel),
        fill, slowest, atom, unique, g, h, images, slices, date
}
