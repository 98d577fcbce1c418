# make plots: picks test digits from a trainer's --predictions-out TSV
# (index, label, prediction, pixels as 784 comma-separated values) and writes
# the two files plots/digits.gp draws:
#   image   one matrix of grey levels, the digits side by side: 0..255 for a
#           right prediction, 256..511 for a wrong one (a second palette)
#   labels  TSV: x, y (where to write under each digit), index, label,
#           prediction, wrong (0 or 1), and the digit's box x0 y0 x1 y1
# and prints a summary line: "shown N right R wrong W of TOTAL correct C".
#
#   awk -v right=30 -v wrong=10 -v columns=10 -v image=FILE -v labels=FILE \
#       -f plots/digits.awk predictions.tsv
#
# It shows the first `wrong` wrongly predicted test images and the first
# right ones, `right + wrong` in all (more right ones if there are fewer
# wrong ones), in the order of the test set.
BEGIN {
    FS = "\t"
    if (right == "") right = 30
    if (wrong == "") wrong = 10
    if (columns == "") columns = 10
    if (image == "" || labels == "") { print "digits.awk: set -v image=FILE -v labels=FILE" > "/dev/stderr"; exit 2 }
    total = right + wrong
    side = 28       # pixels per digit side
    cell_w = 34     # a digit and the gap beside it
    cell_h = 46     # a digit and the line of text under it
}
NR == 1 && $1 == "index" { next }
NF < 4 { print "digits.awk: line " NR ": expected index, label, prediction, pixels" > "/dev/stderr"; bad = 1; exit 2 }
{
    seen++
    ok = ($2 == $3)
    correct += ok
    if (ok && nright < total) { nright++; right_row[nright] = $0 }
    if (!ok && nwrong < wrong) { nwrong++; wrong_row[nwrong] = $0 }
}
END {
    if (bad) exit 2
    if (seen == 0) { print "digits.awk: no predictions in the input" > "/dev/stderr"; exit 2 }
    take_wrong = nwrong
    take_right = total - take_wrong
    if (take_right > nright) take_right = nright
    # Merge the two lists back into test-set order.
    n = 0; i = 1; j = 1
    while (i <= take_right || j <= take_wrong) {
        split(right_row[i], a, "\t"); split(wrong_row[j], b, "\t")
        if (j > take_wrong || (i <= take_right && a[1] + 0 < b[1] + 0)) pick[++n] = right_row[i++]
        else pick[++n] = wrong_row[j++]
    }
    rows = int((n + columns - 1) / columns)
    width = columns * cell_w
    height = rows * cell_h
    for (y = 0; y < height; y++) for (x = 0; x < width; x++) grey[y, x] = 0
    print "x\ty\tindex\tlabel\tprediction\twrong\tx0\ty0\tx1\ty1" > labels
    for (k = 1; k <= n; k++) {
        split(pick[k], f, "\t")
        bad_one = (f[2] != f[3])
        count = split(f[4], px, ",")
        if (count != side * side) { print "digits.awk: image " f[1] " has " count " pixels, not 784" > "/dev/stderr"; exit 2 }
        c = (k - 1) % columns; r = int((k - 1) / columns)
        x0 = c * cell_w + 3; y0 = r * cell_h + 3
        for (p = 0; p < side * side; p++)
            grey[y0 + int(p / side), x0 + p % side] = px[p + 1] + 256 * bad_one
        printf "%g\t%g\t%s\t%s\t%s\t%d\t%g\t%g\t%g\t%g\n", x0 + side / 2 - 0.5, y0 + side + 7,
               f[1], f[2], f[3], bad_one, x0 - 1.5, y0 - 1.5, x0 + side + 0.5, y0 + side + 0.5 > labels
    }
    for (y = 0; y < height; y++) {
        line = grey[y, 0]
        for (x = 1; x < width; x++) line = line "\t" grey[y, x]
        print line > image
    }
    close(image); close(labels)
    printf "shown %d right %d wrong %d of %d correct %d\n", n, take_right, take_wrong, seen, correct
}
