/* The tracer's tables, written at exit: HIPCPU_PROFILE (per kernel),
 * HIPCPU_PROFILE_SITES (per call site), HIPCPU_PROFILE_LINES (per kernel and
 * source line). trace_internal.h: the parts. */
#include "trace_internal.h"

#include <errno.h>
#include <string.h>

namespace hipcpu_trace {

/* ---- The report -------------------------------------------------------------------- */

FILE *open_report(const std::string &path) {
    FILE *f = fopen(path.c_str(), "w");
    if (!f) fprintf(stderr, "hipcpu: cannot write the profile to %s: %s\n", path.c_str(), strerror(errno));
    return f;
}

/* Per kernel and source line: how often a wave ran it (the most of any basic
 * block that starts on that line), for the model's instruction counts. */
void write_lines() {
    FILE *f = open_report(tracer.lines_path);
    if (!f) return;
    fprintf(f, "kernel\tline\twave_runs\tcritical_runs\n");
    std::map<uintptr_t, std::string> located;
    for (const KernelStats &k : tracer.kernels) {
        /* [line]: the wave runs, and the busiest wave's per phase (critical_runs), of its busiest block */
        std::map<std::string, std::pair<uint64_t, uint64_t>> by_line;
        for (uint32_t g = 1; g < k.block_runs.size(); g++) {
            if (!k.block_runs[g] || !tracer.guard_pc[g]) continue;
            auto it = located.find(tracer.guard_pc[g]);
            if (it == located.end()) it = located.emplace(tracer.guard_pc[g], line_of_block(tracer.guard_pc[g])).first;
            if (it->second.empty()) continue; /* the executor's own code, inlined into the kernel */
            std::pair<uint64_t, uint64_t> &runs = by_line[it->second];
            if (k.block_runs[g] > runs.first)
                runs = {k.block_runs[g], g < k.critical_runs.size() ? k.critical_runs[g] : 0};
        }
        for (const auto &entry : by_line)
            fprintf(f, "%s\t%s\t%lu\t%lu\n", k.name.c_str(), entry.first.c_str(), (unsigned long)entry.second.first,
                    (unsigned long)entry.second.second);
    }
    fclose(f);
}

void write_profile() {
    if (tracer.counting_blocks) write_lines();
    write_sampling(tracer.profile_path);
    if (FILE *f = open_report(tracer.profile_path)) {
        fprintf(f, "kernel");
#define HIPCPU_COUNTER_NAME(name, what) fprintf(f, "\t%s", #name);
        HIPCPU_KERNEL_COUNTERS(HIPCPU_COUNTER_NAME)
#undef HIPCPU_COUNTER_NAME
        fprintf(f, "\n");
        for (const KernelStats &k : tracer.kernels) {
            fprintf(f, "%s", k.name.c_str());
#define HIPCPU_COUNTER_VALUE(name, what) fprintf(f, "\t%lu", (unsigned long)k.c.name);
            HIPCPU_KERNEL_COUNTERS(HIPCPU_COUNTER_VALUE)
#undef HIPCPU_COUNTER_VALUE
            fprintf(f, "\n");
        }
        fclose(f);
    }
    if (tracer.sites_path.empty()) return;
    if (FILE *f = open_report(tracer.sites_path)) {
        fprintf(f, "kernel\tsite\tbuffer\tspace\tkind\trequests\tlanes\tbytes\tsegments\tsectors\tbank_cycles\tatomics\t"
                   "dram_requests");
        for (unsigned b = 0; b < kReuseBuckets; b++) fprintf(f, "\tbeyond_%s", kReuseName[b]);
        for (unsigned b = 0; b < kBlockReuseBuckets; b++) fprintf(f, "\tblock_within_%s", kBlockReuseName[b]);
        fprintf(f, "\n");
        for (Site &s : tracer.sites) {
            resolve(s);
            for (int space = 0; space < 2; space++) {
                const SiteStats &st = s.stats[space];
                if (st.requests == 0 && st.atomics == 0) continue;
                if (space == kShared && s.buffer.empty()) {
                    uintptr_t offset;
                    s.buffer = shared_variable(s.first_addr, &offset);
                    s.buffer = s.buffer.substr(0, s.buffer.find(" (in "));
                }
                fprintf(f, "%s\t%s\t%s\t%s\t%s\t%lu\t%lu\t%lu\t%lu\t%lu\t%lu\t%lu\t%lu", s.kernel.c_str(),
                        s.location.c_str(), s.buffer.empty() ? "?" : s.buffer.c_str(), kSpaceName[space], kKindName[s.kind], st.requests, st.lanes, st.bytes,
                        st.segments, st.sectors, st.bank_cycles, st.atomics, st.dram_requests);
                for (unsigned b = 0; b < kReuseBuckets; b++) fprintf(f, "\t%lu", (unsigned long)st.beyond[b]);
                for (unsigned b = 0; b < kBlockReuseBuckets; b++) fprintf(f, "\t%lu", (unsigned long)st.block_within[b]);
                fprintf(f, "\n");
            }
        }
        fclose(f);
    }
}

} /* namespace hipcpu_trace */
