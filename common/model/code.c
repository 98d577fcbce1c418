/* The compiled code's blocks, edges and loops (code.h), the same for every reader. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "code.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void *grow(void *array, int *cap, int need, size_t item) {
    if (need <= *cap) return array;
    int cap2 = *cap ? *cap * 2 : 64;
    while (cap2 < need) cap2 *= 2;
    void *p = realloc(array, (size_t)cap2 * item);
    if (!p) {
        fprintf(stderr, "code: out of memory\n");
        exit(1);
    }
    memset((char *)p + (size_t)*cap * item, 0, (size_t)(cap2 - *cap) * item);
    *cap = cap2;
    return p;
}

void code_init(CodeFile *file, CodeKind kind, const char *arch) {
    memset(file, 0, sizeof *file);
    file->kind = kind;
    snprintf(file->arch, sizeof file->arch, "%s", arch ? arch : "");
}

CodeKernel *code_add_kernel(CodeFile *file, const char *name) {
    file->kernels = grow(file->kernels, &file->kernel_cap, file->nkernels + 1, sizeof *file->kernels);
    CodeKernel *k = &file->kernels[file->nkernels++];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", name);
    return k;
}

int code_line(CodeKernel *k, const char *file_and_line) {
    for (int i = 0; i < k->nlines; i++)
        if (strcmp(k->lines[i], file_and_line) == 0) return i;
    k->lines = grow(k->lines, &k->line_cap, k->nlines + 1, sizeof *k->lines);
    k->lines[k->nlines] = strdup(file_and_line);
    return k->nlines++;
}

void code_insn_clear(CodeInsn *insn) {
    memset(insn, 0, sizeof *insn);
    insn->pipe = CODE_PIPE_OTHER;
    insn->mem = CODE_MEM_NONE;
    insn->wait[CODE_WAIT_VM] = insn->wait[CODE_WAIT_LGKM] = -1;
    insn->target = CODE_NO_TARGET;
    insn->line = -1;
}

void code_add_label(CodeKernel *k, const char *label) {
    int cap = k->label_cap;
    k->pending_labels = grow(k->pending_labels, &cap, k->nlabels + 1, sizeof *k->pending_labels);
    cap = k->label_cap;
    k->label_insn = grow(k->label_insn, &cap, k->nlabels + 1, sizeof *k->label_insn);
    k->label_cap = cap;
    snprintf(k->pending_labels[k->nlabels], sizeof k->pending_labels[0], "%s", label);
    k->label_insn[k->nlabels++] = k->ninsns;
}

void code_add_insn(CodeKernel *k, const CodeInsn *insn, const char *target_label) {
    int cap = k->insn_cap;
    k->insns = grow(k->insns, &cap, k->ninsns + 1, sizeof *k->insns);
    cap = k->insn_cap;
    k->target_label = grow(k->target_label, &cap, k->ninsns + 1, sizeof *k->target_label);
    k->insn_cap = cap;
    k->insns[k->ninsns] = *insn;
    snprintf(k->target_label[k->ninsns], sizeof k->target_label[0], "%s", target_label ? target_label : "");
    k->ninsns++;
}

static int ends_block(const CodeInsn *insn) {
    return insn->pipe == CODE_PIPE_BRANCH || strcmp(insn->op, "s_endpgm") == 0;
}

/* Does control fall from this instruction into the next? */
static int falls_through(const CodeInsn *insn, int has_target) {
    if (insn->pipe != CODE_PIPE_BRANCH) return strcmp(insn->op, "s_endpgm") != 0;
    if (insn->conditional) return 1;
    /* An unconditional branch, jump or return does not. */
    (void)has_target;
    return 0;
}

/* Loops. An edge to a block that dominates its source (every path from the
 * entry to the source passes through it) is a back edge; the loop is its
 * header and every block that reaches one of the header's back edges
 * without passing through the header, so a loop with two latches is one
 * loop. Layout order is no guide: LLVM places blocks after s_endpgm that
 * branch back to a join, and latches before their header. */
static int find_loops(CodeKernel *k) {
    int n = k->nblocks;
    int *mem = calloc((size_t)n * 9 + 2, sizeof *mem);
    if (!mem) return -1;
    int *rpo = mem, *order = mem + n, *idom = mem + 2 * n, *stack = mem + 3 * n, *next = mem + 4 * n;
    int *size = mem + 5 * n, *preds = mem + 6 * n, *pred_start = mem + 8 * n; /* preds: 2n; pred_start: n + 1 */
    char *mark = calloc((size_t)n + 1, 1);
    if (!mark) {
        free(mem);
        return -1;
    }
#define SUCC(b, i) ((i) == 0 ? k->blocks[b].fallthrough : k->blocks[b].target)
    /* Reverse postorder from the entry; unreached blocks keep rpo -1. */
    int top = 0, nposts = 0;
    for (int b = 0; b < n; b++) rpo[b] = idom[b] = -1;
    if (n > 0) stack[top++] = 0, mark[0] = 1;
    while (top > 0) {
        int b = stack[top - 1];
        if (next[b] < 2) {
            int s = SUCC(b, next[b]);
            next[b]++;
            if (s >= 0 && !mark[s]) mark[s] = 1, stack[top++] = s;
        } else {
            order[nposts++] = b;
            top--;
        }
    }
    for (int i = 0; i < nposts / 2; i++) {
        int t = order[i];
        order[i] = order[nposts - 1 - i], order[nposts - 1 - i] = t;
    }
    for (int i = 0; i < nposts; i++) rpo[order[i]] = i;
    /* Predecessors (reached ones), grouped by block: preds[pred_start[b] .. pred_start[b + 1]). */
    for (int p = 0; p < n; p++)
        for (int i = 0; i < 2; i++)
            if (rpo[p] >= 0 && SUCC(p, i) >= 0 && !(i == 1 && SUCC(p, 1) == SUCC(p, 0))) pred_start[SUCC(p, i) + 1]++;
    for (int b = 0; b < n; b++) pred_start[b + 1] += pred_start[b];
    for (int b = 0; b < n; b++) next[b] = pred_start[b];
    for (int p = 0; p < n; p++)
        for (int i = 0; i < 2; i++)
            if (rpo[p] >= 0 && SUCC(p, i) >= 0 && !(i == 1 && SUCC(p, 1) == SUCC(p, 0))) preds[next[SUCC(p, i)]++] = p;
    /* Dominators (Cooper, Harvey and Kennedy's iteration). */
    if (n > 0) idom[0] = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 1; i < nposts; i++) {
            int b = order[i], best = -1;
            for (int j = pred_start[b]; j < pred_start[b + 1]; j++) {
                int p = preds[j];
                if (idom[p] < 0) continue;
                if (best < 0) { best = p; continue; }
                while (p != best) {
                    while (rpo[p] > rpo[best]) p = idom[p];
                    while (rpo[best] > rpo[p]) best = idom[best];
                }
            }
            if (best >= 0 && idom[b] != best) idom[b] = best, changed = 1;
        }
    }
    for (int h = 0; h < n; h++) {
        memset(mark, 0, (size_t)n);
        top = 0;
        int latches = 0;
        for (int b = 0; b < n; b++) {
            if (rpo[b] < 0 || (SUCC(b, 0) != h && SUCC(b, 1) != h)) continue;
            int x = b;
            while (x != h && idom[x] != x) x = idom[x];
            if (x == h) latches++; /* h dominates b: a back edge */
            if (x == h && b != h) mark[b] = 1, stack[top++] = b;
        }
        if (latches == 0) continue;
        mark[h] = 1; /* the walk back stops at the header */
        while (top > 0) {
            int x = stack[--top];
            for (int j = pred_start[x]; j < pred_start[x + 1]; j++)
                if (!mark[preds[j]]) mark[preds[j]] = 1, stack[top++] = preds[j];
        }
        for (int x = 0; x < n; x++) size[h] += mark[x];
        for (int x = 0; x < n; x++) {
            if (!mark[x]) continue;
            k->blocks[x].loop_depth++;
            /* The innermost loop holding it: the smallest. */
            if (k->blocks[x].loop_header < 0 || size[h] < size[k->blocks[x].loop_header]) k->blocks[x].loop_header = h;
        }
    }
#undef SUCC
    free(mark);
    free(mem);
    return 0;
}

static int finish_kernel(CodeKernel *k, char *err, size_t err_size) {
    /* Block starts: instruction 0, each label's instruction, after each block end. */
    char *starts = calloc((size_t)k->ninsns + 1, 1);
    if (!starts) return -1;
    starts[0] = 1;
    for (int l = 0; l < k->nlabels; l++) starts[k->label_insn[l]] = 1;
    for (int i = 0; i < k->ninsns; i++)
        if (ends_block(&k->insns[i])) starts[i + 1] = 1;
    int nblocks = 0;
    for (int i = 0; i < k->ninsns; i++) nblocks += starts[i];
    k->blocks = calloc((size_t)(nblocks ? nblocks : 1), sizeof *k->blocks);
    int *block_of = calloc((size_t)k->ninsns + 1, sizeof *block_of);
    if (!k->blocks || !block_of) {
        free(starts);
        free(block_of);
        return -1;
    }
    int b = -1;
    for (int i = 0; i < k->ninsns; i++) {
        if (starts[i]) {
            b++;
            k->blocks[b].first = i;
            k->blocks[b].fallthrough = k->blocks[b].target = -1;
            k->blocks[b].loop_header = -1;
        }
        k->blocks[b].count++;
        block_of[i] = b;
    }
    block_of[k->ninsns] = nblocks; /* a label at the very end: past the last block */
    k->nblocks = nblocks;
    for (int l = 0; l < k->nlabels; l++) {
        int at = k->label_insn[l];
        if (at < k->ninsns && k->blocks[block_of[at]].label[0] == '\0')
            snprintf(k->blocks[block_of[at]].label, sizeof k->blocks[0].label, "%s", k->pending_labels[l]);
    }
    /* Edges. */
    int status = 0;
    for (b = 0; b < nblocks; b++) {
        CodeBlock *blk = &k->blocks[b];
        int last = blk->first + blk->count - 1;
        CodeInsn *insn = &k->insns[last];
        const char *label = k->target_label[last];
        if (insn->pipe == CODE_PIPE_BRANCH && label[0]) {
            int found = -1;
            for (int l = 0; l < k->nlabels && found < 0; l++)
                if (strcmp(k->pending_labels[l], label) == 0) found = block_of[k->label_insn[l]];
            if (found < 0 || found >= nblocks) {
                snprintf(err, err_size, "kernel %s: a branch to %s, a label it does not have", k->name, label);
                status = -1;
                break;
            }
            blk->target = found;
            insn->target = found;
        }
        if (falls_through(insn, blk->target >= 0) && b + 1 < nblocks) blk->fallthrough = b + 1;
    }
    if (status == 0 && find_loops(k) != 0) {
        snprintf(err, err_size, "kernel %s: out of memory", k->name);
        status = -1;
    }
    free(starts);
    free(block_of);
    return status;
}

int code_finish(CodeFile *file, char *err, size_t err_size) {
    for (int i = 0; i < file->nkernels; i++) {
        CodeKernel *k = &file->kernels[i];
        if (k->blocks) continue;
        if (finish_kernel(k, err, err_size) != 0) return -1;
        free(k->pending_labels);
        free(k->label_insn);
        free(k->target_label);
        k->pending_labels = NULL;
        k->label_insn = NULL;
        k->target_label = NULL;
    }
    return 0;
}

void code_free(CodeFile *file) {
    for (int i = 0; i < file->nkernels; i++) {
        CodeKernel *k = &file->kernels[i];
        free(k->insns);
        free(k->blocks);
        for (int l = 0; l < k->nlines; l++) free(k->lines[l]);
        free(k->lines);
        free(k->pending_labels);
        free(k->label_insn);
        free(k->target_label);
    }
    free(file->kernels);
    memset(file, 0, sizeof *file);
}

int code_trace_name(const char *names, const char *symbol, char *out, size_t size) {
    snprintf(out, size, "%s", symbol);
    if (!names) return 0;
    FILE *f = fopen(names, "r");
    if (!f) return 0;
    char row[2048];
    int found = 0;
    size_t len = strlen(symbol);
    while (!found && fgets(row, sizeof row, f)) {
        row[strcspn(row, "\r\n")] = '\0';
        if (strncmp(row, symbol, len) == 0 && row[len] == '\t') {
            snprintf(out, size, "%s", row + len + 1);
            found = 1;
        }
    }
    fclose(f);
    return found;
}

int code_error(char *err, size_t err_size, const char *path, long line, const char *format, ...) {
    char message[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    if (err && err_size) snprintf(err, err_size, "%s:%ld: %s", path, line, message);
    return -1;
}

int code_read_line(FILE *in, char *text, int limit, long *lineno, char *err, size_t err_size, const char *path) {
    if (!fgets(text, limit, in)) return 0;
    (*lineno)++;
    size_t n = strlen(text);
    if (n && text[n - 1] == '\n')
        text[--n] = '\0';
    else if (n == (size_t)limit - 1 && getc(in) != EOF)
        return code_error(err, err_size, path, *lineno, "a line longer than %d characters", limit - 2);
    return 1;
}

char *code_trim(char *s) {
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

const char *code_pipe_name(int pipe) {
    static const char *const names[CODE_PIPE_COUNT] = {"valu", "trans", "salu",    "vmem", "lds",
                                                       "smem", "branch", "barrier", "wait", "other"};
    return pipe >= 0 && pipe < CODE_PIPE_COUNT ? names[pipe] : "?";
}

const char *code_mem_name(int mem) {
    static const char *const names[CODE_MEM_COUNT] = {"-",         "global_load", "global_store", "global_atomic",
                                                      "scratch_load", "scratch_store", "lds_load",  "lds_store",
                                                      "lds_atomic", "scalar_load"};
    return mem >= 0 && mem < CODE_MEM_COUNT ? names[mem] : "?";
}

void code_dump(const CodeKernel *k, FILE *out) {
    fprintf(out, "kernel %s: %d blocks, %d instructions\n", k->name, k->nblocks, k->ninsns);
    for (int b = 0; b < k->nblocks; b++) {
        const CodeBlock *blk = &k->blocks[b];
        fprintf(out, "block %d %s depth %d header %d fall %d target %d\n", b, blk->label[0] ? blk->label : "-",
                blk->loop_depth, blk->loop_header, blk->fallthrough, blk->target);
        for (int i = blk->first; i < blk->first + blk->count; i++) {
            const CodeInsn *in = &k->insns[i];
            fprintf(out, "  %-7s %-13s %2d %s%s", code_pipe_name(in->pipe), code_mem_name(in->mem), in->bytes,
                    in->guarded ? "@" : "", in->op);
            if (in->wait[CODE_WAIT_VM] >= 0) fprintf(out, " vm=%d", in->wait[CODE_WAIT_VM]);
            if (in->wait[CODE_WAIT_LGKM] >= 0) fprintf(out, " lgkm=%d", in->wait[CODE_WAIT_LGKM]);
            if (in->ndst) {
                fprintf(out, " dst");
                for (int r = 0; r < in->ndst; r++) fprintf(out, "%s%d", r ? "," : "=", in->dst[r]);
            }
            if (in->nsrc) {
                fprintf(out, " src");
                for (int r = 0; r < in->nsrc; r++) fprintf(out, "%s%d", r ? "," : "=", in->src[r]);
            }
            if (in->line >= 0) fprintf(out, " @%s", k->lines[in->line]);
            fputc('\n', out);
        }
    }
}
