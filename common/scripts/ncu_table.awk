# Nsight Compute's counters, per kernel, from `ncu --csv --page details`
# (make gpu-report). That form, as NVIDIA's Nsight Compute CLI documents it
# (docs.nvidia.com/nsight-compute/NsightComputeCli, "--csv", "--page"): a
# header row of quoted column names, among them "Kernel Name", "Metric Name",
# "Metric Unit" and "Metric Value", then one row per kernel launch and
# metric; a value may carry thousands separators. Lines before the header
# (the program's own output, ==PROF== notes) are skipped. Columns are found
# by name, so others may come and go.
#
#   awk -v chapter=NN-name -f common/scripts/ncu_table.awk ncu.csv
#
# Prints a header and one row per kernel (its name up to the first "("):
# launches, ms in all (gpu__time_duration.sum over its launches), global
# load sectors per request, shared-memory bank conflicts, global atomic and
# reduction requests, DRAM bytes read and written, and the mean achieved
# occupancy (% of the peak warps). A metric ncu did not give is "-".
# Exits 1 when there is no header or no row.

# split_csv LINE, FIELDS: the fields of one CSV line, quotes removed ("" is ").
function split_csv(line, fields,    n, i, c, quoted, field) {
    n = 0
    field = ""
    quoted = 0
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (quoted) {
            if (c == "\"" && substr(line, i + 1, 1) == "\"") { field = field "\""; i++ }
            else if (c == "\"") quoted = 0
            else field = field c
        } else if (c == "\"") quoted = 1
        else if (c == ",") { fields[++n] = field; field = "" }
        else field = field c
    }
    fields[++n] = field
    return n
}
# A value in the metric's unit, to ms or bytes.
# Times come as "nsecond" or, from newer versions, "ns" (an H100's ncu,
# 2026-11-26); any other time unit stops the table rather than mislabel it.
function scaled(value, unit, metric) {
    gsub(/,/, "", value)
    if (unit == "nsecond" || unit == "ns") return value / 1e6
    if (unit == "usecond" || unit == "us") return value / 1e3
    if (unit == "msecond" || unit == "ms") return value
    if (unit == "second" || unit == "s") return value * 1e3
    if (metric ~ /time_duration/) {
        printf "ncu_table: %s comes in '%s', a time unit this table does not know\n", metric, unit > "/dev/stderr"
        failed = 1
        exit 1
    }
    if (unit == "Kbyte" || unit == "KB") return value * 1e3
    if (unit == "Mbyte" || unit == "MB") return value * 1e6
    if (unit == "Gbyte" || unit == "GB") return value * 1e9
    if (unit == "Tbyte" || unit == "TB") return value * 1e12
    return value + 0
}
function shown(kernel, metric) { return (kernel SUBSEP metric) in sum }
{ sub(/\r$/, "") }
!header && /"Kernel Name"/ && /"Metric Name"/ && /"Metric Value"/ {
    n = split_csv($0, f)
    for (i = 1; i <= n; i++) col[f[i]] = i
    header = 1
    next
}
header {
    n = split_csv($0, f)
    if (n < col["Metric Value"]) next
    kernel = f[col["Kernel Name"]]
    sub(/\(.*/, "", kernel)
    sub(/^void /, "", kernel)
    metric = f[col["Metric Name"]]
    value = scaled(f[col["Metric Value"]], ("Metric Unit" in col) ? f[col["Metric Unit"]] : "", metric)
    if (!(kernel in seen)) { seen[kernel] = 1; order[++kernels] = kernel }
    sum[kernel, metric] += value
    count[kernel, metric]++
    if (metric == "gpu__time_duration.sum") launches[kernel]++
    rows++
}
END {
    if (failed) exit 1
    if (!header) { print "ncu_table: no ncu --csv header (\"Kernel Name\", \"Metric Name\", \"Metric Value\")" > "/dev/stderr"; exit 1 }
    if (!rows) { print "ncu_table: no kernel rows after the header" > "/dev/stderr"; exit 1 }
    print "chapter\tkernel\tlaunches\tms\tsectors_per_request\tshared_bank_conflicts\tatomic_requests\tdram_bytes\tachieved_occupancy_pct"
    for (k = 1; k <= kernels; k++) {
        kn = order[k]
        ld = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
        sectors = shown(kn, ld) && sum[kn, ld] > 0 ? sprintf("%.2f", sum[kn, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] / sum[kn, ld]) : "-"
        conflicts = shown(kn, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") ? \
            sum[kn, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] + sum[kn, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"] : "-"
        atomics = shown(kn, "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum") ? \
            sum[kn, "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"] + sum[kn, "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"] : "-"
        dram = shown(kn, "dram__bytes_read.sum") ? sprintf("%.0f", sum[kn, "dram__bytes_read.sum"] + sum[kn, "dram__bytes_write.sum"]) : "-"
        occ = "sm__warps_active.avg.pct_of_peak_sustained_active"
        occupancy = shown(kn, occ) ? sprintf("%.1f", sum[kn, occ] / count[kn, occ]) : "-"
        ms = shown(kn, "gpu__time_duration.sum") ? sprintf("%.6f", sum[kn, "gpu__time_duration.sum"]) : "-"
        printf "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", chapter, kn, launches[kn], ms, sectors, conflicts, atomics, dram, occupancy
    }
}
