# make compare's table (plots/compare.sh): the runs' --bench-out rows (one
# per run, the trainers' columns: common/host/report.c) folded into one row
# per chapter, in the order they ran:
#   awk -F '\t' -v OFS='\t' -f plots/compare_table.awk runs.tsv >compare.tsv
# median_ms is the median of the runs' median ms per iteration; min_ms and
# max_ms the fastest and slowest timed iteration over all runs (the
# whiskers); run_min_ms and run_max_ms the fastest and slowest run median
# (the spread between repeats); speedup_vs_01 is against chapter 01, or the
# first GPU chapter without it.

function median(list, n,    a, i, j, t) {
    split(list, a, " ")
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
NR == 1 { next }
{
    c = $1
    if (!(c in runs)) { order[++chapters] = c; runs[c] = 0; lo[c] = $7; hi[c] = $8
                        rlo[c] = $6; rhi[c] = $6 }
    runs[c]++
    medians[c] = medians[c] " " $6
    if ($7 + 0 < lo[c] + 0) lo[c] = $7
    if ($8 + 0 > hi[c] + 0) hi[c] = $8
    if ($6 + 0 < rlo[c] + 0) rlo[c] = $6
    if ($6 + 0 > rhi[c] + 0) rhi[c] = $6
    platform[c] = $2; device[c] = $3; images[c] = $4; iterations[c] = $5
    train[c] = $9; test[c] = $10; loss[c] = $11; date[c] = $12
}
END {
    base = ""
    for (k = 1; k <= chapters; k++) if (base == "" && order[k] ~ /^01-/) base = order[k]
    for (k = 1; k <= chapters; k++) if (base == "" && order[k] !~ /^00-/) base = order[k]
    if (base == "") base = order[1]
    for (k = 1; k <= chapters; k++) med[order[k]] = median(medians[order[k]], runs[order[k]])
    print "chapter", "platform", "device", "images", "iterations", "repeats", "median_ms",
          "min_ms", "max_ms", "run_min_ms", "run_max_ms", "speedup_vs_01",
          "train_accuracy", "test_accuracy", "final_loss", "date"
    for (k = 1; k <= chapters; k++) {
        c = order[k]
        print c, platform[c], device[c], images[c], iterations[c], runs[c],
              sprintf("%.6f", med[c]), lo[c], hi[c], rlo[c], rhi[c],
              sprintf("%.4g", med[base] / med[c]), train[c], test[c], loss[c], date[c]
    }
}
