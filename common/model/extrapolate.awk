# Counts at a size the trace build did not run: one table (counters, sites or
# lines) from runs on n1 and on n2 images, extended in a
# straight line to n images. Counts of one iteration grow linearly with the
# images (each 1,024 more add the same, within 1%: tests/profile.bats), so two
# slices give every count at the full size in seconds instead of minutes;
# parts that do not grow (the update kernel, a persistent kernel's blocks) stay.
#   awk -F'\t' -v n1=N1 -v n2=N2 -v n=N -f extrapolate.awk TABLE_N1 TABLE_N2
# The two tables must have the same rows, in the same order, with the same
# first column: the same program on the same kind of input. A field that is a
# count ("12", or "A+B": counted and per-wave parts) is
# extended; a share (a column named *_share, from 0 to 1) is extended too,
# kept to four decimals and within 0 and 1; one the same in both tables (an
# occupancy of 2.5 warps, a distance) and any other field is copied. Prints
# the table at n.

function is_count(x) { return x ~ /^[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)?(\+[0-9]+(\.[0-9]+)?)?$/ }
function extend(a, b, share,    pa, pb, na, nb, i, out, v) {
    if (a == b) return a
    na = split(a, pa, "+"); nb = split(b, pb, "+")
    if (na != nb) return "" # not the same shape
    out = ""
    for (i = 1; i <= na; i++) {
        v = pa[i] + (pb[i] - pa[i]) * (n - n1) / (n2 - n1)
        if (v < 0) v = 0
        if (share && v > 1) v = 1
        out = out (i > 1 ? "+" : "") sprintf(share ? "%.4f" : "%.0f", v)
    }
    return out
}
BEGIN { OFS = "\t"; if (!(n2 > n1)) { print "extrapolate: n2 must be larger than n1" > "/dev/stderr"; bad = 1; exit 1 } }
FNR == 1 { file++ }
file == 1 { first[FNR] = $0; rows1 = FNR; if (FNR == 1) for (i = 1; i <= NF; i++) share[i] = $i ~ /_share$/; next }
{
    rows2 = FNR
    split(first[FNR], a, "\t")
    if (a[1] != $1) {
        printf "extrapolate: %s, line %d: '%s' here, '%s' in %s: not the same rows\n", FILENAME, FNR, $1, a[1],
            ARGV[1] > "/dev/stderr"
        bad = 1; exit 1
    }
    line = ""
    for (i = 1; i <= NF; i++) {
        f = $i
        if (FNR > 1 && is_count(a[i]) && is_count(f)) {
            f = extend(a[i], $i, share[i])
            if (f == "") { printf "extrapolate: line %d, field %d: '%s' against '%s'\n", FNR, i, a[i], $i > "/dev/stderr"; bad = 1; exit 1 }
        }
        line = line (i > 1 ? "\t" : "") f
    }
    print line
}
END {
    if (bad) exit 1
    if (rows1 != rows2) {
        printf "extrapolate: %d rows in %s, %d in %s: not the same rows\n", rows1, ARGV[1], rows2, ARGV[2] > "/dev/stderr"
        exit 1
    }
}
