/* timesim: the simulation (sim.h) over a profiled run, one row per kernel
 * and device, as TSV on standard output.
 *
 *   timesim --code gcn|ptx|sass CODE [--names NAMES.tsv] [--ptxas REPORT] [--code-for DEVICE[,DEVICE...]]
 *           [--lines OUT.tsv] DEVICES.tsv COUNTERS.tsv SITES.tsv LINES.tsv
 *
 * CODE: the compiled code (hipcc -S, nvcc --ptx, cuobjdump -sass). NAMES.tsv:
 * "symbol<TAB>trace name" rows. The occupancy: hipcc's own ("; Occupancy:" in
 * its assembly); for PTX, from ptxas -v's REPORT of the same PTX (registers,
 * shared memory) and the traced block size. OUT.tsv: the source view's rows
 * (write_lines). COUNTERS, SITES and LINES: the trace build's
 * HIPCPU_PROFILE, _SITES and _LINES tables. Devices: those --code-for names,
 * else every device of DEVICES.tsv. */
#include "code.h"
#include "sim.h"
#include "tsv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEVICES 16

static int same_kernel(const char *a, const char *b) {
    if (strcmp(a, b) == 0) return 1;
    char pa[256], pb[256];
    model_plain_name(a, pa, sizeof pa);
    model_plain_name(b, pb, sizeof pb);
    return strcmp(pa, pb) == 0;
}

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

typedef struct {
    TraceKernel trace;
    char name[256];
    TraceSite *sites;
    TraceLine *lines;
    int site_cap, line_cap;
    double unique_bytes;
} Kernel;

static Kernel *kernels;
static int nkernels;

static Kernel *find(const char *name) {
    for (int i = 0; i < nkernels; i++)
        if (same_kernel(kernels[i].name, name)) return &kernels[i];
    return NULL;
}

static void *grow(void *p, int *cap, int need, size_t size) {
    if (need <= *cap) return p;
    *cap = *cap ? *cap * 2 : 16;
    if (*cap < need) *cap = need;
    p = realloc(p, (size_t)*cap * size);
    if (!p) tsv_die("timesim", "out of memory");
    return p;
}

static void read_counters(const char *path) {
    Table t;
    int cap = 0;
    open_table(&t, path);
    while (next_row(&t)) {
        kernels = grow(kernels, &cap, nkernels + 1, sizeof *kernels);
        Kernel *k = &kernels[nkernels++];
        memset(k, 0, sizeof *k);
        snprintf(k->name, sizeof k->name, "%s", cell(&t, "kernel"));
        k->trace.launches = count(&t, "launches", 0);
        k->trace.blocks = count(&t, "blocks", 0);
        k->trace.threads = count(&t, "threads", 0);
        k->trace.traced_waves = count(&t, "waves", 0);
        k->trace.traced_blocks = k->trace.blocks;
        k->trace.atomics_max_one_address = count(&t, "atomics_max_one_address", 0);
        k->unique_bytes = count(&t, "unique_bytes", 0);
    }
    fclose(t.f);
}

static void read_sites(const char *path) {
    static const char *const beyond[TRACE_BEYOND_BUCKETS] = {"beyond_256k", "beyond_1m",  "beyond_4m",
                                                            "beyond_16m",  "beyond_64m", "beyond_256m"};
    static const char *const within[TRACE_WITHIN_BUCKETS] = {"block_within_2k", "block_within_8k", "block_within_32k",
                                                             "block_within_128k"};
    Table t;
    open_table(&t, path);
    while (next_row(&t)) {
        Kernel *k = find(cell(&t, "kernel"));
        if (!k) continue;
        k->sites = grow(k->sites, &k->site_cap, k->trace.nsites + 1, sizeof *k->sites);
        TraceSite *s = &k->sites[k->trace.nsites++];
        memset(s, 0, sizeof *s);
        snprintf(s->line, sizeof s->line, "%s", base_name(cell(&t, "site")));
        s->space = strcmp(cell(&t, "space"), "shared") == 0 ? TRACE_SHARED : TRACE_GLOBAL;
        const char *kind = cell(&t, "kind");
        s->kind = strcmp(kind, "load") == 0 ? TRACE_LOAD : strcmp(kind, "store") == 0 ? TRACE_STORE : TRACE_ATOMIC;
        s->requests = count(&t, "requests", 0);
        s->lanes = count(&t, "lanes", 0);
        s->bytes = count(&t, "bytes", 0);
        s->segments = count(&t, "segments", 0);
        s->sectors = count(&t, "sectors", 0);
        s->bank_cycles = count(&t, "bank_cycles", 0);
        s->atomics = count(&t, "atomics", 0);
        s->dram_requests = has_column(&t, "dram_requests") ? count(&t, "dram_requests", 0) : 0;
        for (int b = 0; b < TRACE_BEYOND_BUCKETS; b++) s->beyond[b] = optional_count(&t, beyond[b], 0);
        for (int b = 0; b < TRACE_WITHIN_BUCKETS; b++) s->within[b] = optional_count(&t, within[b], 0);
        k->trace.sites = k->sites;
    }
    fclose(t.f);
}

static void read_lines(const char *path) {
    Table t;
    open_table(&t, path);
    while (next_row(&t)) {
        Kernel *k = find(cell(&t, "kernel"));
        if (!k) continue;
        k->lines = grow(k->lines, &k->line_cap, k->trace.nlines + 1, sizeof *k->lines);
        TraceLine *l = &k->lines[k->trace.nlines++];
        snprintf(l->line, sizeof l->line, "%s", base_name(cell(&t, "line")));
        l->wave_runs = count(&t, "wave_runs", 0);
        l->critical_runs = has_column(&t, "critical_runs") ? count(&t, "critical_runs", 0) : NAN;
        k->trace.lines = k->lines;
    }
    fclose(t.f);
}

/* The source view's rows of one kernel on one device: each source line's share of the simulated
 * waves' cycles, split by what held them (sim.h's stalls), and the instructions a wave issued for
 * it (runs: per block, per wave); "-" for code with no line. */
static void write_lines(FILE *view, const CodeKernel *ck, const char *device, const double *cycles,
                        const double *runs) {
    double total = 0;
    for (int i = 0; i < ck->ninsns * SIM_STALL_COUNT; i++) total += cycles[i];
    for (int line = -1; line < ck->nlines && total > 0; line++) { /* -1: instructions with no source line */
        double by[SIM_STALL_COUNT] = {0}, sum = 0, issued = 0;
        for (int b = 0; b < ck->nblocks; b++)
            for (int i = ck->blocks[b].first; i < ck->blocks[b].first + ck->blocks[b].count; i++)
                if (ck->insns[i].line == line) {
                    issued += runs[b];
                    for (int st = 0; st < SIM_STALL_COUNT; st++) by[st] += cycles[(size_t)i * SIM_STALL_COUNT + st];
                }
        for (int st = 0; st < SIM_STALL_COUNT; st++) sum += by[st];
        if (sum <= 0) continue;
        fprintf(view, "%s\t%s\t%s\t%.4f", ck->name, device, line < 0 ? "-" : ck->lines[line], sum / total);
        for (int st = 0; st < SIM_STALL_COUNT; st++) fprintf(view, "\t%.4f", by[st] / total);
        fprintf(view, "\t%.1f\n", issued);
    }
}

/* What binds, in a word: the launch's fixed cost where it is most of the time, else sim_kernel's
 * stall ("other", another wave issued, counts as issue: the SIMD was busy). */
static const char *binding(const SimResult *r) {
    if (r->launch_ms > r->ms - r->launch_ms) return "launch";
    return r->binding == SIM_other || r->binding == SIM_issue ? "issue" : sim_stall_names[r->binding];
}

static void usage(void) {
    fprintf(stderr, "usage: timesim --code gcn|ptx|sass CODE [--names NAMES.tsv] [--ptxas REPORT] "
                    "[--code-for DEVICE[,DEVICE...]] [--lines OUT.tsv] DEVICES.tsv COUNTERS.tsv SITES.tsv LINES.tsv\n");
    exit(2);
}

int main(int argc, char **argv) {
    tsv_program = "timesim";
    const char *kind = NULL, *code_path = NULL, *names = NULL, *ptxas = NULL, *code_for = NULL, *lines_path = NULL;
    int i = 1;
    for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        if (strcmp(argv[i], "--code") == 0 && i + 2 < argc) kind = argv[i + 1], code_path = argv[i + 2], i++;
        else if (strcmp(argv[i], "--names") == 0) names = argv[i + 1];
        else if (strcmp(argv[i], "--ptxas") == 0) ptxas = argv[i + 1];
        else if (strcmp(argv[i], "--code-for") == 0) code_for = argv[i + 1];
        else if (strcmp(argv[i], "--lines") == 0) lines_path = argv[i + 1];
        else usage();
    }
    if (!kind || argc - i != 4) usage();
    ModelDevice devices[MAX_DEVICES];
    int ndevices = model_devices_read(argv[i], code_for, devices, MAX_DEVICES);
    read_counters(argv[i + 1]);
    read_sites(argv[i + 2]);
    read_lines(argv[i + 3]);

    FILE *in = fopen(code_path, "r");
    if (!in) tsv_die(code_path, "cannot open the compiled code");
    CodeFile code;
    char err[512] = "";
    int rc = strcmp(kind, "gcn") == 0   ? code_read_gcn(in, code_path, names, &code, err, sizeof err)
             : strcmp(kind, "ptx") == 0 ? code_read_ptx(in, code_path, names, &code, err, sizeof err)
             : strcmp(kind, "sass") == 0 ? code_read_sass(in, code_path, names, &code, err, sizeof err)
                                        : (usage(), -1);
    fclose(in);
    if (rc != 0) tsv_die(code_path, err);
    int nvidia = code.kind != CODE_KIND_GCN;
    if (code.kind == CODE_KIND_PTX)
        for (int c = 0; c < code.nkernels; c++) code_hoist_loads(&code.kernels[c]);
    if (ptxas) {
        if (code.kind != CODE_KIND_PTX) tsv_die(ptxas, "--ptxas goes with --code ptx");
        FILE *report = fopen(ptxas, "r");
        if (!report) tsv_die(ptxas, "cannot open ptxas's report");
        rc = code_read_ptxas(report, ptxas, names, &code, err, sizeof err);
        fclose(report);
        if (rc != 0) tsv_die(ptxas, err);
    }

    FILE *view = NULL;
    if (lines_path) {
        view = fopen(lines_path, "w");
        if (!view) tsv_die(lines_path, "cannot write the per-line table");
        fprintf(view, "kernel\tdevice\tline\tshare");
        for (int st = 0; st < SIM_STALL_COUNT; st++) fprintf(view, "\t%s", sim_stall_names[st]);
        fprintf(view, "\tinstructions_per_wave\n");
    }
    printf("kernel\tdevice\tmodel_ms\tfloor_ms\tbinding\tfill\tlaunch_ms\tflops\tcycles_per_launch\tblocks_per_cu\t"
           "resident_blocks\tsimulated_blocks\twaves_per_simd\tinstructions_per_wave\tissue_share");
    for (int s = 0; s < SIM_STALL_COUNT; s++) printf("\t%s", sim_stall_names[s]);
    printf("\twhy\n");
    for (int n = 0; n < nkernels; n++) {
        Kernel *k = &kernels[n];
        const CodeKernel *ck = NULL;
        for (int c = 0; c < code.nkernels && !ck; c++)
            if (same_kernel(code.kernels[c].name, k->name)) ck = &code.kernels[c];
        if (!ck) {
            fprintf(stderr, "timesim: %s: no compiled code for kernel '%s': it is not simulated\n", code_path, k->name);
            continue;
        }
        double *runs = calloc((size_t)ck->nblocks + 1, sizeof *runs);
        double *lead = calloc((size_t)ck->nblocks + 1, sizeof *lead);
        SimMemory *mem = calloc((size_t)ck->ninsns + 1, sizeof *mem);
        if (!runs || !lead || !mem) tsv_die("timesim", "out of memory");
        code_block_runs(ck, &k->trace, runs, lead);
        /* FP32 operations of the launches: each traced wave's runs, done by every lane of every thread. */
        double flops = 0;
        for (int b = 0; b < ck->nblocks; b++)
            for (int i = ck->blocks[b].first; i < ck->blocks[b].first + ck->blocks[b].count; i++)
                flops += runs[b] * ck->insns[i].flops;
        flops *= k->trace.threads;
        if (getenv("TIMESIM_DEBUG")) { /* the blocks, their runs per wave and their code */
            for (int b = 0; b < ck->nblocks; b++)
                fprintf(stderr, "block %d: %.3f runs per wave, %.3f by the first of a block\n", b, runs[b], lead[b]);
            code_dump(ck, stderr);
        }
        for (int d = 0; d < ndevices; d++) {
            SimLaunch launch = {0};
            launch.code = ck;
            launch.nvidia = nvidia;
            launch.block_runs = runs;
            launch.lead_runs = lead;
            launch.launches = k->trace.launches;
            launch.blocks = k->trace.blocks;
            launch.threads = k->trace.threads;
            double block_threads = k->trace.blocks > 0 ? k->trace.threads / k->trace.blocks : 0;
            int waves = (int)(ptxas ? code_sm90_warps_per_scheduler(ck, block_threads) : ck->waves_per_simd);
            /* The compiler's occupancy is its own device's: another device gets its most. */
            launch.waves_per_simd = code_for || strcmp(devices[d].name, "gfx906") == 0 ? waves : 0;
            SimResult r;
            sim_memory(&devices[d], ck, nvidia, &k->trace, sim_resident_blocks(&devices[d], &launch), mem);
            launch.mem = mem;
            double *cycles = view ? calloc((size_t)ck->ninsns * SIM_STALL_COUNT + 1, sizeof *cycles) : NULL;
            if (view && !cycles) tsv_die("timesim", "out of memory");
            launch.insn_cycles = cycles;
            if (sim_kernel(&devices[d], &launch, &r, err, sizeof err) != 0) tsv_die(code_path, err);
            if (getenv("TIMESIM_DEBUG"))
                fprintf(stderr, "%s %s: %.0f DRAM and %.0f L2 bytes on the busiest CU, loop share %.3f\n", k->name,
                        devices[d].name, r.dram_bytes_per_cu, r.l2_bytes_per_cu, r.loop_share);
            if (view) write_lines(view, ck, devices[d].name, cycles, runs);
            free(cycles);
            const ModelDevice *dev = &devices[d];
            /* The floor: the kernel's unique bytes at DRAM's bandwidth or its FP32 operations at peak, plus launches. */
            double floor_ms = fmax(k->unique_bytes / (dev->dram_gbps * 1e9), flops / (dev->fp32_tflops * 1e12)) * 1e3 +
                              r.launch_ms;
            /* Fill: a launch's blocks against the blocks all CUs hold at once. */
            double fill = launch.blocks / (launch.launches > 0 ? launch.launches : 1) /
                          (dev->compute_units * sim_block_capacity(dev, &launch));
            printf("%s\t%s\t%.6f\t%.6f\t%s\t%.4f\t%.6f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.2f\t%.0f\t%.3f", k->name,
                   dev->name, r.ms, floor_ms, binding(&r), fill, r.launch_ms, flops, r.cycles_per_launch, r.blocks_per_cu,
                   r.resident_blocks, r.simulated_blocks, r.waves_per_simd, r.instructions_per_wave, r.issue_share);
            for (int s = 0; s < SIM_STALL_COUNT; s++) printf("\t%.3f", r.stall[s]);
            printf("\t%s\n", r.binds);
        }
        free(runs);
        free(lead);
        free(mem);
    }
    code_free(&code);
    if (view && fclose(view) != 0) tsv_die(lines_path, "could not be written");
    return 0;
}
