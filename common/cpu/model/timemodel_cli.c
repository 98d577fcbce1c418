/* timemodel: the time model (the library of timemodel.h and timemodel.c) over
 * a profiled run, one row per kernel and device, as TSV on standard output.
 *
 *   timemodel [--code-for DEVICE[,DEVICE...]] DEVICES.tsv COUNTERS.tsv MIX.tsv WAITS.tsv
 *             [LINES.tsv SITES.tsv SHARES.tsv]
 *
 * DEVICES.tsv: devices.tsv beside this file (device, figure, value, ...).
 * COUNTERS.tsv: the trace build's HIPCPU_PROFILE table. MIX.tsv and
 * WAITS.tsv: isa_facts.awk's. Every table is read by column name; a count
 * written "A+B" is A counted runs plus B runs per wave (multiplied by the
 * kernel's traced waves).
 *
 * With the three more tables, also the source view: LINES.tsv is
 * isa_facts.awk's per-line instruction table, SITES.tsv the trace's per-site
 * one (HIPCPU_PROFILE_SITES); SHARES.tsv gets one row per kernel, device and
 * source line: the line's share of the term that binds, and its counters.
 *
 * The occupancy is the mix table's waves_per_simd column (gfx906_waves_per_simd
 * in isa_facts.awk's tables). Without --code-for, every device of DEVICES.tsv
 * is modelled on the one compiled code (gfx906's), whose occupancy is gfx906's
 * alone: another device gets its most waves per SIMD. --code-for names the
 * devices the code was compiled for (ptx_facts.awk's sm_90 code: h100,h200):
 * only they are modelled, each with the code's occupancy. */
#include "timemodel.h"
#include "tsv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KERNELS 64
#define MAX_WAITS 4096
#define MAX_LINES 512

#define program tsv_program
#define die tsv_die

/* A share from 0 to 1, or "-" (none measured): NAN. */
static double optional_share(const Table *t, const char *name) {
    if (!has_column(t, name) || strcmp(cell(t, name), "-") == 0) return NAN;
    const double v = count(t, name, 0);
    if (v > 1) {
        char what[200];
        snprintf(what, sizeof what, "line %ld: '%s' is not a share from 0 to 1 (column %s)", t->number, cell(t, name), name);
        die(t->path, what);
    }
    return v;
}

typedef struct {
    char name[256];
    ModelCounters counters;
    ModelCode code;
    ModelWait waits[MAX_WAITS];
    char wait_line[MAX_WAITS][96]; /* the load's line, file name:line */
    size_t wait_count;
    int has_code;
    /* The source view's lines: "file name:line" keys, the path to show, counts. */
    char line_key[MAX_LINES][96];
    char line_path[MAX_LINES][256];
    ModelLine lines[MAX_LINES];
    double line_trips[MAX_LINES];
    size_t line_count;
} Kernel;

static Kernel kernels[MAX_KERNELS];
static int kernel_count;

/* "dir/file.hip:30" -> "file.hip:30", the key both tables share. */
static const char *line_key(const char *location) {
    const char *slash = strrchr(location, '/');
    return slash ? slash + 1 : location;
}

/* The index of a kernel's source line, added if new; -1 when the view is full. */
static int line_index(Kernel *k, const char *location) {
    const char *key = line_key(location);
    for (size_t i = 0; i < k->line_count; i++)
        if (strcmp(k->line_key[i], key) == 0) {
            if (strchr(location, '/') && !strchr(k->line_path[i], '/'))
                snprintf(k->line_path[i], sizeof k->line_path[i], "%s", location);
            return (int)i;
        }
    if (k->line_count == MAX_LINES) return -1;
    snprintf(k->line_key[k->line_count], sizeof k->line_key[0], "%s", key);
    snprintf(k->line_path[k->line_count], sizeof k->line_path[0], "%s", location);
    memset(&k->lines[k->line_count], 0, sizeof k->lines[0]);
    k->line_trips[k->line_count] = 0;
    return (int)k->line_count++;
}

static Kernel *find_kernel(const char *name) {
    for (int i = 0; i < kernel_count; i++)
        if (strcmp(kernels[i].name, name) == 0) return &kernels[i];
    char wanted[256], have[256];
    model_plain_name(name, wanted, sizeof wanted);
    for (int i = 0; i < kernel_count; i++) {
        model_plain_name(kernels[i].name, have, sizeof have);
        if (strcmp(have, wanted) == 0) return &kernels[i];
    }
    return NULL;
}

#define MAX_DEVICES 8

static ModelDevice devices[MAX_DEVICES];
static int device_count;

/* The trace build's counters: one kernel a row. */
static void read_counters(const char *path) {
    Table t;
    open_table(&t, path);
    while (next_row(&t)) {
        if (kernel_count == MAX_KERNELS) die(path, "more than 64 kernels");
        Kernel *k = &kernels[kernel_count++];
        snprintf(k->name, sizeof k->name, "%s", cell(&t, "kernel"));
        ModelCounters *c = &k->counters;
        c->launches = count(&t, "launches", 0);
        c->blocks = count(&t, "blocks", 0);
        c->threads = count(&t, "threads", 0);
        c->traced_waves = count(&t, "waves", 0);
        c->load_requests = count(&t, "global_load_requests", 0);
        c->load_segments = count(&t, "global_load_segments", 0);
        c->load_sectors = count(&t, "global_load_sectors", 0);
        c->load_phase_segments = count(&t, "global_load_phase_segments", 0);
        c->load_phase_sectors = count(&t, "global_load_phase_sectors", 0);
        c->store_segments = count(&t, "global_store_segments", 0);
        c->store_sectors = count(&t, "global_store_sectors", 0);
        c->unique_bytes = count(&t, "unique_bytes", 0);
        c->lds_bank_cycles = count(&t, "lds_bank_cycles", 0);
        c->barriers = count(&t, "barriers", 0);
        c->atomics_max_one_address = count(&t, "atomics_max_one_address", 0);
        c->dram_load_requests = optional_count(&t, "global_load_dram_requests", 0);
        c->uniform_blocks = optional_count(&t, "uniform_blocks", 0);
        c->uniform_block_segments = optional_count(&t, "uniform_block_segments", 0);
        c->uniform_launch_segments = optional_count(&t, "uniform_launch_segments", 0);
        for (int b = 0; b < MODEL_REUSE_BUCKETS; b++) {
            char name[64];
            snprintf(name, sizeof name, "load_segments_beyond_%s", model_reuse_names[b]);
            c->segments_beyond[b] = optional_count(&t, name, 0);
        }
    }
    fclose(t.f);
}

/* The compiled code's facts per launched kernel (the mix table). */
static void read_code(const char *path) {
    Table t;
    open_table(&t, path);
    /* The occupancy's column: waves_per_simd, or isa_facts.awk's gfx906_waves_per_simd. */
    const char *occupancy_column = has_column(&t, "waves_per_simd") ? "waves_per_simd" : "gfx906_waves_per_simd";
    while (next_row(&t)) {
        Kernel *k = find_kernel(cell(&t, "kernel"));
        if (!k) continue; /* compiled but not launched in this run */
        const double w = k->counters.traced_waves;
        ModelCode *code = &k->code;
        code->valu = count(&t, "valu", w);
        code->salu = count(&t, "salu", w);
        code->smem = count(&t, "smem", w);
        code->vmem_loads = count(&t, "vmem_load", w);
        const double scratch_requests = optional_count(&t, "vmem_scratch", w);
        code->vmem = code->vmem_loads + count(&t, "vmem_store", w) + count(&t, "vmem_atomic", w) +
                     (isnan(scratch_requests) ? 0 : scratch_requests);
        const double scratch_bytes = optional_count(&t, "scratch_bytes", w);
        code->scratch_bytes = isnan(scratch_bytes) ? 0 : scratch_bytes;
        const double scratch_lane_bytes = optional_count(&t, "scratch_lane_bytes", 0);
        code->scratch_lane_bytes = isnan(scratch_lane_bytes) ? 0 : scratch_lane_bytes;
        code->lds = count(&t, "lds", w);
        code->branch = count(&t, "branch", w);
        code->instructions = count(&t, "instructions", w);
        code->critical_instructions = optional_count(&t, "critical_instructions", w);
        code->flops_per_lane = count(&t, "flops_per_lane", w);
        code->cas_loop = count(&t, "cas_loops", 0) > 0;
        code->waves_per_simd = count(&t, occupancy_column, 0); /* from the compiler of the code */
        k->has_code = 1;
    }
    fclose(t.f);
}

/* The waits of each kernel's code; with the source view, each wait's line. */
static void read_waits(const char *path, int view) {
    Table t;
    open_table(&t, path);
    while (next_row(&t)) {
        Kernel *k = find_kernel(cell(&t, "kernel"));
        if (!k) continue;
        if (k->wait_count == MAX_WAITS) die(path, "more than 4096 waits in one kernel");
        ModelWait *wait = &k->waits[k->wait_count++];
        const char *counter = cell(&t, "counter");
        wait->counter = strcmp(counter, "vm") == 0 ? MODEL_WAIT_MEMORY
                        : strcmp(counter, "lds") == 0 ? MODEL_WAIT_LDS : MODEL_WAIT_SCALAR;
        const char *runs = cell(&t, "runs");
        wait->runs = strcmp(runs, "per_wave") == 0 ? k->counters.traced_waves : count(&t, "runs", 0);
        wait->distance = count(&t, "distance", 0);
        wait->critical_runs = optional_count(&t, "critical_runs", 0);
        wait->dram_share = optional_share(&t, "dram_share");
        for (int b = 0; b < MODEL_REUSE_BUCKETS; b++) {
            char name[64];
            snprintf(name, sizeof name, "beyond_%s_share", model_reuse_names[b]);
            wait->beyond_share[b] = optional_share(&t, name);
        }
        wait->line = -1;
        snprintf(k->wait_line[k->wait_count - 1], sizeof k->wait_line[0], "%s",
                 view ? cell(&t, "line") : "");
    }
    fclose(t.f);
}

/* The source view's counts per line: the compiled code's instructions
 * (LINES.tsv), the trace's sites (SITES.tsv), and the memory waits' round
 * trips, each wait tied to its line. */
static void read_source_view(const char *lines_path, const char *sites_path) {
    Table t;
    open_table(&t, lines_path);
    while (next_row(&t)) {
        Kernel *k = find_kernel(cell(&t, "kernel"));
        if (!k) continue;
        const int i = line_index(k, cell(&t, "line"));
        if (i < 0) continue;
        const double w = k->counters.traced_waves;
        ModelLine *l = &k->lines[i];
        l->valu += count(&t, "valu", w);
        l->salu += count(&t, "salu", w);
        l->smem += count(&t, "smem", w);
        l->vmem += count(&t, "vmem", w);
        l->lds += count(&t, "lds", w);
        l->branch += count(&t, "branch", w);
        l->instructions += count(&t, "instructions", w);
    }
    fclose(t.f);
    /* Segments (sectors on NVIDIA), bank cycles, atomics. */
    open_table(&t, sites_path);
    while (next_row(&t)) {
        Kernel *k = find_kernel(cell(&t, "kernel"));
        if (!k) continue;
        const int i = line_index(k, cell(&t, "site"));
        if (i < 0) continue;
        ModelLine *l = &k->lines[i];
        if (strcmp(cell(&t, "space"), "global") == 0) l->segments += count(&t, "segments", 0);
        l->lds_bank_cycles += count(&t, "bank_cycles", 0);
        l->atomics += count(&t, "atomics", 0);
    }
    fclose(t.f);
    for (int n = 0; n < kernel_count; n++) {
        Kernel *k = &kernels[n];
        for (size_t j = 0; j < k->wait_count; j++) {
            if (!k->wait_line[j][0]) continue;
            k->waits[j].line = line_index(k, k->wait_line[j]);
            if (k->waits[j].line >= 0 && k->waits[j].counter == MODEL_WAIT_MEMORY)
                k->line_trips[k->waits[j].line] += k->waits[j].runs;
        }
    }
}

/* SHARES.tsv's rows of one kernel on one device: each line's share of the
 * term that binds, and its counts per wave. */
static void print_shares(FILE *shares, const Kernel *k, const ModelDevice *d, const ModelCode *code,
                         const ModelResult *r) {
    double share[MAX_LINES];
    model_line_shares(d, &k->counters, code, k->waits, k->wait_count, r, k->lines, k->line_count, share);
    const double per_wave = k->counters.traced_waves > 0 ? 1 / k->counters.traced_waves : 0;
    for (size_t i = 0; i < k->line_count; i++)
        fprintf(shares, "%s\t%s\t%s\t%.4f\t%s\t%.0f\t%.0f\t%.0f\t%.1f\t%.1f\t%.0f\n", k->name, d->name,
                k->line_path[i], share[i], r->launch_bound ? "launch" : model_term_names[r->binding],
                k->lines[i].segments, k->lines[i].lds_bank_cycles, k->lines[i].atomics,
                k->lines[i].instructions * per_wave, k->line_trips[i] * per_wave, k->counters.traced_waves);
}

/* The model's rows on standard output, one per kernel and device (and, with
 * shares open, the source view's rows). A kernel without code facts is
 * named on stderr and left out. */
static void print_model(const char *code_for, const char *mix_path, FILE *shares) {
    printf("kernel\tdevice\tmodel_ms\tfloor_ms\tbinding\tlaunch_ms");
    for (int i = 0; i < MODEL_TERM_COUNT; i++) printf("\t%s_ms", model_term_names[i]);
    printf("\tflops\twaves\toccupancy\tfill\tresident_waves_per_simd\tround_trips_per_wave\tpath_cycles_per_wave\twhy\n");
    for (int i = 0; i < kernel_count; i++) {
        Kernel *k = &kernels[i];
        if (!k->has_code) { /* not modelled, said, and the others still are */
            fprintf(stderr, "%s: %s: no compiled-code facts for kernel '%s': it is not modelled\n", program, mix_path,
                    k->name);
            continue;
        }
        for (int d = 0; d < device_count; d++) {
            ModelResult r;
            ModelCode code = k->code;
            /* Without --code-for the occupancy is the gfx906 compiler's; on another
             * device the model assumes its most waves per SIMD (README: Limits). */
            if (!code_for && strcmp(devices[d].name, "gfx906") != 0) code.waves_per_simd = 0;
            model_kernel(&devices[d], &k->counters, &code, k->waits, k->wait_count, &r);
            if (shares) print_shares(shares, k, &devices[d], &code, &r);
            printf("%s\t%s\t%.6f\t%.6f\t%s\t%.6f", k->name, devices[d].name, r.model_ms, r.floor_ms,
                   r.launch_bound ? "launch" : model_term_names[r.binding], r.launch_ms);
            for (int term = 0; term < MODEL_TERM_COUNT; term++) printf("\t%.6f", r.term_ms[term]);
            printf("\t%.0f\t%.0f\t%.0f\t%.4f\t%.2f\t%.1f\t%.0f\t%s\n", r.flops, r.waves, r.occupancy, r.fill, r.resident,
                   r.round_trips_per_wave, r.path_cycles_per_wave, r.why);
        }
    }
}

int main(int argc, char **argv) {
    const char *code_for = NULL; /* the devices the compiled code is for; NULL: gfx906's code for all */
    if (argc > 2 && strcmp(argv[1], "--code-for") == 0) {
        code_for = argv[2];
        argv += 2;
        argc -= 2;
    }
    if ((argc != 5 && argc != 8) || (code_for && !*code_for)) {
        fprintf(stderr, "usage: %s [--code-for DEVICE[,DEVICE...]] DEVICES.tsv COUNTERS.tsv MIX.tsv WAITS.tsv "
                        "[LINES.tsv SITES.tsv SHARES.tsv]\n", program);
        return 2;
    }
    const int view = argc == 8;
    device_count = model_devices_read(argv[1], code_for, devices, MAX_DEVICES);
    read_counters(argv[2]);
    read_code(argv[3]);
    read_waits(argv[4], view);
    FILE *shares = NULL;
    if (view) {
        read_source_view(argv[5], argv[6]);
        shares = fopen(argv[7], "w");
        if (!shares) die(argv[7], strerror(errno));
        fprintf(shares, "kernel\tdevice\tline\tshare\tbinding\tsegments\tlds_bank_cycles\tatomics\t"
                        "instructions_per_wave\tround_trips_per_wave\ttraced_waves\n");
    }
    print_model(code_for, argv[3], shares);
    if (shares && fclose(shares) != 0) die(argv[7], strerror(errno));
    return 0;
}
