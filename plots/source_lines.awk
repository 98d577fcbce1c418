# The check of a quoted source view (plots/readme_figures.sh --check): reads
# plots/figure_part.awk's shape of it, rows "  LINE TEXT" (LINE a number, of
# the chapter's source, or FILE:NUMBER, of a header in one of common/'s
# folders) and prints
# each row whose TEXT is no longer how that line of its source begins (the
# view trims the line's indent and cuts it at a width). Rows of HIP's own
# headers ("(a HIP header)") are not ours to check. Variable: chapter, the
# chapter's source file.
# A header the view names without its folder: the first of common/'s
# folders on the include path (common/include_dirs) that has it.
function in_common(name,    dir, found) {
    found = "common/" name
    while ((getline dir < "common/include_dirs") > 0)
        if ((getline probe < (dir "/" name)) >= 0) { close(dir "/" name); found = dir "/" name; break }
    close("common/include_dirs")
    return found
}
function source_line(path, number,    line, n) {
    n = 0
    while ((getline line < path) > 0) if (++n == number) break
    close(path)
    if (n != number) return "(no such line)"
    sub(/^[ \t]+/, "", line)
    return line
}
/^  [^ ]+ / {
    ref = $1
    text = $0
    sub(/^  [^ ]+ /, "", text)
    sub(/[ \t]+$/, "", text)
    if (text == "(a HIP header)" || ref ~ /:$/) next
    if (ref ~ /^[0-9]+$/) { path = chapter; number = ref + 0 }
    else if (ref ~ /^[A-Za-z0-9_.\/-]+:[0-9]+$/) {
        path = ref
        sub(/:[0-9]+$/, "", path)
        number = substr(ref, length(path) + 2) + 0
        if (path !~ /\//) path = in_common(path)
    } else next
    if (chapter == "" && ref ~ /^[0-9]+$/) { print $0 "  (no chapter source to read)"; next }
    line = source_line(path, number)
    if (substr(line, 1, length(text)) != text) print $0 "  (" path ":" number " is now: " line ")"
}
