# Makes hipcc's device assembly (-S, compiled with -gline-tables-only) easier
# to read for make isa-N: before the instructions of each source line it puts
# that line as a comment, "; train.hip:163  acc = ...", and it drops what the
# line tables added (.file and .loc directives, .cfi_* directives, the .Ltmp
# and .Lfunc_begin labels, the .debug_* sections). Every instruction, label
# and other directive is kept as it was. Demangling is left to c++filt.
# Run as: awk -v root=REPO_ROOT -v source=CHAPTER_SOURCE [-v title=TEXT] -f isa.awk train.s
# root: the folder the paths are shown relative to; source: the chapter's
# train.hip, shown by its file name alone; title: a first comment line.

BEGIN {
    if (title != "")
        print "; " title
}

# The name a source file is shown by: the chapter's own file by its name,
# other files of the repository by their path in it, the rest (HIP's headers)
# by their file name.
function shown_name(path,    name) {
    if (path == source || path == root "/" source) {
        name = path
        sub(/.*\//, "", name)
        return name
    }
    if (index(path, root "/") == 1)
        return substr(path, length(root) + 2)
    name = path
    sub(/.*\//, "", name)
    return name
}

# Line LINE of file PATH, without its indentation; read once per file.
function source_line(path, line,    text, n, status) {
    if (!(path in loaded)) {
        loaded[path] = 1
        n = 0
        while ((status = (getline text < path)) > 0)
            lines[path, ++n] = text
        if (status < 0)
            unreadable[path] = 1
        close(path)
    }
    if (path in unreadable)
        return "(source not readable)"
    text = lines[path, line]
    sub(/^[ \t]+/, "", text)
    sub(/[ \t\r]+$/, "", text)
    return text
}

# .file N "DIR" "NAME" [md5 ...] (DWARF 5), or .file N "NAME".
/^[ \t]*\.file[ \t]+[0-9]+[ \t]+"/ {
    rest = $0
    sub(/^[ \t]*\.file[ \t]+[0-9]+[ \t]+/, "", rest)
    count = 0
    while (match(rest, /^"[^"]*"/)) {
        part[++count] = substr(rest, 2, RLENGTH - 2)
        rest = substr(rest, RLENGTH + 1)
        sub(/^[ \t]+/, "", rest)
    }
    path = part[count]
    if (count >= 2 && path !~ /^\//)
        path = part[1] "/" path
    files[$2] = path
    next
}

# .loc FILE LINE [COLUMN] [flags]: a comment with that source line, once per
# change of line. Line 0 marks code that belongs to no line.
/^[ \t]*\.loc[ \t]/ {
    if ($3 > 0 && ($2 in files) && ($2 SUBSEP $3) != last) {
        last = $2 SUBSEP $3
        printf "; %s:%d  %s\n", shown_name(files[$2]), $3, source_line(files[$2], $3)
    }
    next
}

# The debug sections run until the next section that is not one (or the
# metadata block), and may end the file.
/^[ \t]*\.section[ \t]+\.debug_/ { in_debug = 1; next }
/^[ \t]*(\.section|\.amdgpu_metadata)/ { in_debug = 0 }
in_debug { next }

/^[ \t]*\.cfi_/ { next }
/^\.L(tmp|func_begin)[0-9]+:[ \t]*$/ { next }

# A label (a function, a branch target): the next source line is shown again,
# so that a loop's label is followed by its line.
/^[^ \t;].*:/ { last = "" }

{ print }
