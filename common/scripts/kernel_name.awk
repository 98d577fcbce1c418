# The name a kernel's rows carry, from its demangled symbol, as the trace
# build names it from the host's symbols (common/tracer/trace_symbols.cpp):
# without the return type and the parameter list, so
# "void tile_kernel<32, 8>(float const*, float*)" is "tile_kernel<32, 8>".
# Two kernels of one name (overloads) keep their parameter lists, so that
# each has rows of its own. Functions for resources.awk and code_names.sh
# (awk -f kernel_name.awk -f THE_SCRIPT).
#
# kernel_list_read(FILE): the kernels' demangled symbols, one a line (the
# assembly's .amdhsa_kernel names). Without it every function is named
# without its parameters, so overloads share one name.

function kernel_signature(symbol) {
    sub(/^void /, "", symbol)
    return symbol
}

# Without the parameter list: up to the "(" that matches the last ")", so a
# template argument in parentheses ("moded<(Mode)1>") stays.
function kernel_base(signature,    i, depth, c) {
    if (substr(signature, length(signature)) != ")") return signature
    depth = 0
    for (i = length(signature); i > 0; i--) {
        c = substr(signature, i, 1)
        if (c == ")") depth++
        else if (c == "(" && --depth == 0) return substr(signature, 1, i - 1)
    }
    return signature
}

function kernel_list_read(file,    line) {
    while ((getline line < file) > 0) {
        line = kernel_signature(line)
        kernel_listed[line] = 1
        kernel_bases[kernel_base(line)]++
    }
    close(file)
}

function kernel_name(symbol,    signature, base) {
    signature = kernel_signature(symbol)
    base = kernel_base(signature)
    if (!(base in kernel_bases)) return base
    if (signature in kernel_listed) return kernel_bases[base] > 1 ? signature : base
    return signature # a function that is no kernel but is named like one: rows of its own
}
