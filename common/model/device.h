/* A device as the simulation (sim.h) sees it: the figures of a device table
 * (devices.tsv: device, figure, value and the public source of each). */
#ifndef MODEL_DEVICE_H
#define MODEL_DEVICE_H

/* The device figures the simulation reads, by the names devices.tsv gives them. */
#define MODEL_DEVICE_FIGURES(X)                                                                          \
    X(clock_ghz) X(compute_units) X(simds_per_cu) X(lanes_per_simd) X(wave_size)                         \
    X(max_waves_per_simd) X(max_blocks_per_cu) X(max_one_wave_blocks_per_cu) X(fp32_tflops) X(dram_gbps) \
    X(dram_stream_gbps) X(l2_gbps) X(l2_bytes) X(l1_bytes) X(l1_bytes_per_clock) X(lds_bytes_per_clock)   \
    X(dram_latency_ns) X(l2_latency_ns) X(l1_latency_ns) X(lds_latency_cycles) X(scalar_latency_cycles)   \
    X(atomic_latency_cycles) X(same_address_atomics_per_clock) X(valu_issue_cycles)                      \
    X(valu_latency_cycles) X(trans_lanes_per_simd) X(trans_latency_cycles) X(vmem_issue_cycles)           \
    X(salu_issue_cycles) X(smem_issue_cycles) X(branch_issue_cycles) X(dispatch_cycles) X(launch_us)      \
    X(barrier_cycles) X(segment_bytes)

typedef struct {
    char name[32];
#define MODEL_FIGURE_FIELD(name) double name;
    MODEL_DEVICE_FIGURES(MODEL_FIGURE_FIELD)
#undef MODEL_FIGURE_FIELD
} ModelDevice;

/* Sets a figure by name; 0 if the simulation has no figure of that name. */
int model_device_set(ModelDevice *device, const char *figure, double value);
/* The first figure still unset (NaN), or NULL: model_device_init sets all to NaN. */
void model_device_init(ModelDevice *device, const char *name);
const char *model_device_missing(const ModelDevice *device);
/* The devices of a device table (devices.tsv), in its order; with code_for (a comma-separated
 * list), only those it names, each of which must be there. At most `most`; every figure set.
 * Errors name the file and exit (tsv.h). Returns how many. */
int model_devices_read(const char *path, const char *code_for, ModelDevice *devices, int most);

#endif
