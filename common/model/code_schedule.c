/* What ptxas does to PTX before it runs: within a basic block, the loads go
 * as early as their operands allow (code.h: code_hoist_loads).
 *
 * nvcc's PTX lists a loop's body in source order (a load, the add that uses
 * it, the next load), and an in-order SIMD issuing it as written would wait
 * out each load before the next one starts. ptxas's scheduler issues the
 * independent loads first, so their latencies overlap (the SASS of the
 * chapters shows it: chapter 01's gradient has 32 loads in flight). A list
 * schedule with loads first models that much. It does not model ptxas's own
 * unrolling, which the SASS of a GPU day shows and PTX cannot. */
#include "code.h"

#include <stdlib.h>
#include <string.h>

static int is_load(const CodeInsn *in) {
    return in->mem == CODE_MEM_GLOBAL_LOAD || in->mem == CODE_MEM_LDS_LOAD || in->mem == CODE_MEM_SCALAR_LOAD ||
           in->mem == CODE_MEM_SCRATCH_LOAD;
}

/* Memory that others must not pass: stores, atomics, barriers and fences. */
static int orders_memory(const CodeInsn *in) {
    return (in->mem != CODE_MEM_NONE && !is_load(in)) || in->pipe == CODE_PIPE_BARRIER ||
           (in->pipe == CODE_PIPE_OTHER && in->ndst == 0 && in->nsrc == 0);
}

static int reads(const CodeInsn *in, int reg) {
    for (int r = 0; r < in->nsrc; r++)
        if (in->src[r] == reg) return 1;
    return 0;
}

static int writes(const CodeInsn *in, int reg) {
    for (int r = 0; r < in->ndst; r++)
        if (in->dst[r] == reg) return 1;
    return 0;
}

/* Must b stay after a (a before it in the block)? */
static int depends(const CodeInsn *a, const CodeInsn *b) {
    for (int r = 0; r < a->ndst; r++)
        if (reads(b, a->dst[r]) || writes(b, a->dst[r])) return 1; /* true and output dependences */
    for (int r = 0; r < a->nsrc; r++)
        if (writes(b, a->src[r])) return 1; /* anti */
    if ((orders_memory(a) && (b->mem != CODE_MEM_NONE || orders_memory(b))) ||
        (orders_memory(b) && (a->mem != CODE_MEM_NONE || orders_memory(a))))
        return 1;
    return 0;
}

static void schedule_block(CodeKernel *k, const CodeBlock *blk) {
    int n = blk->count;
    /* The block's last instruction stays last when it is a branch. */
    if (n > 0 && k->insns[blk->first + n - 1].pipe == CODE_PIPE_BRANCH) n--;
    if (n < 3) return;
    CodeInsn *in = &k->insns[blk->first];
    int *waiting = calloc((size_t)n, sizeof *waiting); /* unscheduled instructions each must follow */
    char *done = calloc((size_t)n, 1);
    CodeInsn *order = malloc((size_t)n * sizeof *order);
    if (!waiting || !done || !order) {
        free(waiting);
        free(done);
        free(order);
        return;
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < j; i++) waiting[j] += depends(&in[i], &in[j]);
    for (int placed = 0; placed < n; placed++) {
        int pick = -1;
        for (int j = 0; j < n && (pick < 0 || !is_load(&in[pick])); j++)
            if (!done[j] && waiting[j] == 0 && (pick < 0 || is_load(&in[j]))) pick = j;
        done[pick] = 1;
        order[placed] = in[pick];
        for (int j = pick + 1; j < n; j++)
            if (!done[j] && depends(&in[pick], &in[j])) waiting[j]--;
    }
    memcpy(in, order, (size_t)n * sizeof *order);
    free(waiting);
    free(done);
    free(order);
}

void code_hoist_loads(CodeKernel *k) {
    for (int b = 0; b < k->nblocks; b++) schedule_block(k, &k->blocks[b]);
}
