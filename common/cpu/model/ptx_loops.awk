# The control flow of ptx_facts.awk's kernels (run with it, before it): the
# blocks its PTX parse split each kernel into, linked by their fall-throughs
# and branch targets; their dominators; and the natural loops, each block's
# innermost one (loop_of), which the block's runs come from (ptx_facts.awk's
# header: how often each instruction ran).
#
# Reads ptx_facts.awk's blocks of kernel k: nblocks[k], block_end[k, b],
# block_guarded[k, b], block_target[k, b], label_block[k, label]. Writes
# pred, npred, succ, nsucc, idom and loop_of.

# Predecessors and successors of each block of kernel k: the fall-through
# unless it ends in an unguarded unconditional branch, ret or exit; branch targets.
function link_blocks(k,    b, t, falls) {
    for (b = 1; b <= nblocks[k]; b++) { npred[k, b] = 0; nsucc[k, b] = 0 }
    for (b = 1; b <= nblocks[k]; b++) {
        falls = b < nblocks[k]
        if (block_end[k, b] ~ /^(bra|brx|ret|exit|trap)(\.|$)/ && !block_guarded[k, b]) falls = 0
        if (falls) { pred[k, b + 1, ++npred[k, b + 1]] = b; succ[k, b, ++nsucc[k, b]] = b + 1 }
        if (block_target[k, b] != "" && ((k SUBSEP block_target[k, b]) in label_block)) {
            t = label_block[k, block_target[k, b]]
            pred[k, t, ++npred[k, t]] = b; succ[k, b, ++nsucc[k, b]] = t
        }
    }
}

# Dominators (Cooper, Harvey and Kennedy's iteration over reverse postorder),
# then natural loops: loop_of[b] is the header of b's innermost loop (0: none).
function find_loops(k,    b, s, i, n, changed, new_idom, p, a, c, stack, top, visited, order, post, h, body, size, work, w, q) {
    split("", visited); split("", order); n = 0
    # Postorder by an explicit depth-first walk from block 1.
    top = 0; stack_b[++top] = 1; stack_i[top] = 0; visited[1] = 1
    while (top > 0) {
        b = stack_b[top]
        if (stack_i[top] < nsucc[k, b]) {
            s = succ[k, b, ++stack_i[top]]
            if (!(s in visited)) { visited[s] = 1; stack_b[++top] = s; stack_i[top] = 0 }
        } else { post[b] = ++n; order[n] = b; top-- }
    }
    split("", idom)
    idom[1] = 1
    changed = 1
    while (changed) {
        changed = 0
        for (i = n; i >= 1; i--) {
            b = order[i]
            if (b == 1) continue
            new_idom = 0
            for (p = 1; p <= npred[k, b]; p++) {
                a = pred[k, b, p]
                if (!(a in idom)) continue
                if (!new_idom) { new_idom = a; continue }
                c = a
                while (c != new_idom) {
                    while (post[c] < post[new_idom]) c = idom[c]
                    while (post[new_idom] < post[c]) new_idom = idom[new_idom]
                }
                new_idom = c
            }
            if (new_idom && idom[b] != new_idom) { idom[b] = new_idom; changed = 1 }
        }
    }
    for (b = 1; b <= nblocks[k]; b++) { loop_of[b] = 0; loop_size[b] = 0 }
    # Each back edge s -> h (h dominates s): its body, the blocks reaching s
    # without passing h. Loops sharing a header are one loop.
    for (s = 1; s <= nblocks[k]; s++) {
        if (!(s in idom)) continue
        for (q = 1; q <= nsucc[k, s]; q++) {
            h = succ[k, s, q]
            if (!dominates(h, s)) continue
            split("", body); body[h] = 1; size = 1; w = 0
            if (!(s in body)) { body[s] = 1; size++; work[++w] = s }
            while (w > 0) {
                b = work[w--]
                for (p = 1; p <= npred[k, b]; p++) {
                    a = pred[k, b, p]
                    if ((a in idom) && !(a in body)) { body[a] = 1; size++; work[++w] = a }
                }
            }
            for (b in body) { loop_members[h, b] = 1 }
            loop_header[h] = 1
        }
    }
    # Innermost: the loop with the fewest blocks holding b.
    for (h in loop_header) {
        size = 0
        for (b = 1; b <= nblocks[k]; b++) if ((h, b) in loop_members) size++
        header_size[h] = size
    }
    for (h in loop_header)
        for (b = 1; b <= nblocks[k]; b++)
            if (((h, b) in loop_members) && (!loop_of[b] || header_size[h] < loop_size[b])) { loop_of[b] = h; loop_size[b] = header_size[h] }
    split("", loop_header); split("", loop_members); split("", header_size)
}
function dominates(a, b) {
    if (!(b in idom)) return 0
    while (1) {
        if (a == b) return 1
        if (b == 1 || idom[b] == b) return 0
        b = idom[b]
    }
}
