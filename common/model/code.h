/* The compiled code, as the simulation reads it (sim.h): a kernel's machine
 * instructions in basic blocks, each with the pipe it issues to, the memory
 * it moves, the waits it sets and the registers it reads and writes.
 *
 * Three readers fill it, one per kind of code: code_gcn.c (hipcc's AMD
 * assembly), code_ptx.c (nvcc's PTX) and code_sass.c (cuobjdump -sass). They
 * call code_add_label and code_add_insn in program order; code_finish builds
 * the blocks, their edges and their loops, the same for all three. */
#ifndef CODE_H
#define CODE_H

#include <stdio.h>

/* Where an instruction issues. A wave issues at most one instruction at a
 * time; each pipe has its own rate (the device's figures, sim.h). */
typedef enum {
    CODE_PIPE_VALU,    /* vector ALU, full rate */
    CODE_PIPE_TRANS,   /* vector transcendental and double precision: a quarter rate or less */
    CODE_PIPE_SALU,    /* scalar ALU (AMD); uniform datapath (NVIDIA) */
    CODE_PIPE_VMEM,    /* vector memory: global, scratch, atomics */
    CODE_PIPE_LDS,     /* shared memory */
    CODE_PIPE_SMEM,    /* scalar memory (AMD s_load), constant loads (NVIDIA LDC) */
    CODE_PIPE_BRANCH,  /* branches, jumps, returns */
    CODE_PIPE_BARRIER, /* s_barrier, bar.sync, BAR.SYNC */
    CODE_PIPE_WAIT,    /* s_waitcnt (AMD): issues nothing, holds the wave */
    CODE_PIPE_OTHER,   /* s_nop, s_endpgm, markers: issue, take no unit */
    CODE_PIPE_COUNT
} CodePipe;

/* What an instruction does to memory. */
typedef enum {
    CODE_MEM_NONE,
    CODE_MEM_GLOBAL_LOAD,
    CODE_MEM_GLOBAL_STORE,
    CODE_MEM_GLOBAL_ATOMIC, /* returning or not */
    CODE_MEM_SCRATCH_LOAD,  /* spills and private arrays: buffer_load on gfx9, ld.local, LDL */
    CODE_MEM_SCRATCH_STORE,
    CODE_MEM_LDS_LOAD,
    CODE_MEM_LDS_STORE,
    CODE_MEM_LDS_ATOMIC,
    CODE_MEM_SCALAR_LOAD, /* s_load, ld.param/ld.const, LDC */
    CODE_MEM_COUNT
} CodeMem;

/* The wait counters of AMD's s_waitcnt (the gfx9 ISA guide, 4.4): vector
 * memory in issue order; LDS, scalar memory and messages together. */
enum { CODE_WAIT_VM, CODE_WAIT_LGKM, CODE_WAIT_COUNTERS };

#define CODE_MAX_DST 4
#define CODE_MAX_SRC 8
#define CODE_NO_TARGET (-1)

/* Registers, for the NVIDIA scoreboard: one number per 32-bit register (a
 * 64-bit pair is two numbers), in one space per kind: codes below
 * CODE_REG_PREDICATE are general registers, then predicates. AMD readers
 * may leave them empty: s_waitcnt says when a wave waits. */
#define CODE_REG_PREDICATE 100000
#define CODE_REG_UNIFORM 50000                         /* NVIDIA's uniform registers, UR0 */
#define CODE_REG_UNIFORM_PREDICATE (CODE_REG_PREDICATE + 16) /* UP0 */

typedef struct {
    char op[48];            /* the mnemonic, as written ("v_fmac_f32", "ld.global.f32", "LDG.E.128") */
    unsigned char pipe;     /* CodePipe */
    unsigned char mem;      /* CodeMem */
    unsigned char bytes;    /* bytes a lane moves (memory instructions), else 0 */
    unsigned char flops;    /* FP32 operations a lane does: an FMA counts 2 */
    unsigned char guarded;  /* issued under a predicate (@P) or on a branch-free exec mask */
    unsigned char conditional; /* a branch that may fall through */
    signed char wait[CODE_WAIT_COUNTERS]; /* s_waitcnt limits; -1: this counter not waited on */
    unsigned char ndst, nsrc;
    int dst[CODE_MAX_DST], src[CODE_MAX_SRC];
    int target;             /* a branch's target block (after code_finish); CODE_NO_TARGET */
    int line;               /* the source line: an index into CodeKernel.lines; -1 none */
} CodeInsn;

typedef struct {
    int first, count;       /* its instructions: insns[first .. first + count) */
    int fallthrough;        /* the block after it, if control can fall into it; -1 */
    int target;             /* the block its last instruction branches to; -1 */
    int loop_header;        /* the header of the innermost loop holding it (a header names itself); -1 */
    int loop_depth;         /* loops around it (0: none) */
    char label[48];         /* its label, "" if none */
} CodeBlock;

typedef struct {
    char name[256];         /* the trace's name for it (common/scripts/kernel_name.awk) */
    CodeInsn *insns;
    int ninsns, insn_cap;
    CodeBlock *blocks;
    int nblocks;
    char **lines;           /* "file.hip:42": base name of the file, colon, line */
    int nlines, line_cap;
    /* Resources the compiler reports; 0 where the reader did not find them. NVIDIA: vgprs are
     * ptxas's registers per thread and lds_bytes its static shared memory (code_read_ptxas). */
    int vgprs, sgprs, lds_bytes, scratch_lane_bytes, waves_per_simd;
    /* Reader's working state until code_finish. */
    char (*pending_labels)[48];
    int *label_insn;        /* the instruction each pending label precedes */
    int nlabels, label_cap;
    char (*target_label)[48]; /* per instruction: its branch's label, until resolved */
} CodeKernel;

typedef enum { CODE_KIND_GCN, CODE_KIND_PTX, CODE_KIND_SASS } CodeKind;

typedef struct {
    CodeKind kind;
    char arch[16];          /* "gfx906", "sm_90" */
    CodeKernel *kernels;
    int nkernels, kernel_cap;
} CodeFile;

/* Building (the readers). */
void code_init(CodeFile *file, CodeKind kind, const char *arch);
CodeKernel *code_add_kernel(CodeFile *file, const char *name);
int code_line(CodeKernel *kernel, const char *file_and_line); /* its index, added if new */
void code_add_label(CodeKernel *kernel, const char *label);
/* Appends a copy of insn; target_label is the label its branch goes to, or NULL. */
void code_add_insn(CodeKernel *kernel, const CodeInsn *insn, const char *target_label);
/* A fresh instruction: no memory, no waits, no registers, no target, no line. */
void code_insn_clear(CodeInsn *insn);
/* Blocks, edges and loops of every kernel. 0, or -1 with a message naming
 * the kernel in err (a branch to a label the kernel does not have). */
int code_finish(CodeFile *file, char *err, size_t err_size);
void code_free(CodeFile *file);

/* The readers: 0, or -1 with a message in err naming the file and line.
 * names, if not NULL, is a TSV of "mangled<TAB>trace name" rows that gives
 * each kernel the trace's name; without it, or for a kernel not in it, the
 * symbol as written. */
int code_read_gcn(FILE *in, const char *path, const char *names, CodeFile *out, char *err, size_t err_size);
int code_read_ptx(FILE *in, const char *path, const char *names, CodeFile *out, char *err, size_t err_size);
int code_read_sass(FILE *in, const char *path, const char *names, CodeFile *out, char *err, size_t err_size);

/* ptxas -v's report of the same PTX: each kernel's registers and shared memory. 0, or -1 with
 * a message in err naming the file and line. */
int code_read_ptxas(FILE *in, const char *path, const char *names, CodeFile *code, char *err, size_t err_size);
/* Warps per SM sub-partition that compute capability 9.0 holds of a kernel with k's registers
 * and shared memory in blocks of block_threads; 0 where k has no registers reported. */
double code_sm90_warps_per_scheduler(const CodeKernel *k, double block_threads);

/* PTX as ptxas would issue it: in each basic block, loads as early as their
 * registers and the memory order allow (code_schedule.c). After code_finish. */
void code_hoist_loads(CodeKernel *kernel);

/* The trace's name for a kernel symbol, from a names TSV as above: 1 and
 * the name in out, or 0 and the symbol itself in out. */
int code_trace_name(const char *names, const char *symbol, char *out, size_t size);

/* For the readers: "path:line: message" in err, and -1. */
int code_error(char *err, size_t err_size, const char *path, long line, const char *format, ...);
/* The next line of in into text (limit bytes, newline dropped): 1, 0 at the
 * end, -1 with err set for a line longer than limit - 2 characters. */
int code_read_line(FILE *in, char *text, int limit, long *lineno, char *err, size_t err_size, const char *path);
/* s without the white space around it. */
char *code_trim(char *s);

const char *code_pipe_name(int pipe);
const char *code_mem_name(int mem);
/* One line per instruction, for tests and for reading: block, pipe, memory, op, waits, line. */
void code_dump(const CodeKernel *kernel, FILE *out);

#endif
