# make plots: lays out a linear-model weights file as ten 28 x 28 pictures,
# one per class, for plots/weights.gp. Reads the values of a --weights-out
# file (W, 10 x 785 float32, class-major: a class's 784 pixel weights, then
# its bias), one number per line as `od -An -v -tf4 -w4` prints them, and
# writes:
#   image   one matrix: the classes' pixel weights side by side, 0 (white) between
#           them (the colour of a zero weight); the bias column is left out
#   labels  TSV: x, y (where to write the class above its picture), class,
#           the class's smallest and largest pixel weight, its bias, and the
#           picture's box x0 y0 x1 y1
# and prints one line: "classes 10 max_abs M min MIN max MAX".
#
#   od --endian=little -An -v -tf4 -w4 W.bin |
#       awk -v image=FILE -v labels=FILE [-v columns=5] -f plots/weights.awk
#
# A file with another number of values, or a value that is not a finite
# number, is an error (status 2) naming the value, its class and feature.
BEGIN {
    if (image == "" || labels == "") { print "weights.awk: set -v image=FILE -v labels=FILE" > "/dev/stderr"; exit 2 }
    if (columns == "") columns = 5
    if (columns !~ /^[0-9]+$/ || columns < 1 || columns > 10) {
        print "weights.awk: columns must be 1..10, not '" columns "'" > "/dev/stderr"; exit 2
    }
    classes = 10
    side = 28
    features = side * side + 1   # the pixels and the bias
    expected = classes * features
    cell_w = side + 6            # a picture and the gap beside it
    cell_h = side + 14           # a picture, the line of text above it, a gap
    number = "^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$"
}
NF == 0 { next }
{
    if (NF != 1) { fail("line " NR ": expected one number, got \"" $0 "\"") }
    n++
    if (n > expected) { fail("more than " expected " values (" classes " classes x " features " features): not a --weights-out file of the linear model") }
    class = int((n - 1) / features); feature = (n - 1) % features
    if ($1 !~ number) {
        fail("value " n " (class " class ", " (feature == features - 1 ? "bias" : "pixel " feature) ") is '" $1 "', not a finite number")
    }
    w[class, feature] = $1 + 0
}
END {
    if (failed) exit 2
    if (n != expected) {
        print "weights.awk: " n + 0 " values, not " expected " (" classes " classes x " features " features, the bias last)" > "/dev/stderr"
        exit 2
    }
    lo = hi = w[0, 0]
    for (c = 0; c < classes; c++) {
        cmin[c] = cmax[c] = w[c, 0]
        for (p = 0; p < side * side; p++) {
            v = w[c, p]
            if (v < cmin[c]) cmin[c] = v
            if (v > cmax[c]) cmax[c] = v
        }
        if (cmin[c] < lo) lo = cmin[c]
        if (cmax[c] > hi) hi = cmax[c]
    }
    rows = int((classes + columns - 1) / columns)
    width = columns * cell_w
    height = rows * cell_h
    for (y = 0; y < height; y++) for (x = 0; x < width; x++) grid[y, x] = 0
    print "x\ty\tclass\tmin\tmax\tbias\tx0\ty0\tx1\ty1" > labels
    for (c = 0; c < classes; c++) {
        x0 = (c % columns) * cell_w + 3; y0 = int(c / columns) * cell_h + 12
        for (p = 0; p < side * side; p++)
            grid[y0 + int(p / side), x0 + p % side] = sprintf("%.6g", w[c, p])
        printf "%g\t%g\t%d\t%.6g\t%.6g\t%.6g\t%g\t%g\t%g\t%g\n", x0 + side / 2 - 0.5, y0 - 6, c,
               cmin[c], cmax[c], w[c, features - 1], x0 - 0.5, y0 - 0.5, x0 + side - 0.5, y0 + side - 0.5 > labels
    }
    for (y = 0; y < height; y++) {
        line = grid[y, 0]
        for (x = 1; x < width; x++) line = line "\t" grid[y, x]
        print line > image
    }
    close(image); close(labels)
    max_abs = -lo > hi ? -lo : hi
    printf "classes %d max_abs %.6g min %.6g max %.6g\n", classes, max_abs, lo, hi
}
function fail(message) {
    print "weights.awk: " message > "/dev/stderr"
    failed = 1
    exit 2
}
