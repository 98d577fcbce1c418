/* The executor's tracer: the trace build's eyes (see trace.h for how it is
 * wired, common/cpu/README.md "The trace build" for what it reports).
 *
 * Every load and store a kernel makes arrives here with its address and the
 * address of the instruction that made it (its call site). Three things are
 * done with it:
 *
 * - HIPCPU_PROFILE=FILE: counters. A wave's lanes run in step, each stopping
 *   at every access it makes, so the n-th access of every lane at one call
 *   site forms one wave-level request, as one instruction does on a GPU. Each
 *   request is counted (bytes, 64-byte segments, 32-byte sectors, LDS bank
 *   cycles), then dropped. Written per kernel to FILE at exit, and per call
 *   site to HIPCPU_PROFILE_SITES.
 * - HIPCPU_RACECHECK=1: checks. A shadow record per byte of device and shared
 *   memory says which thread and block last wrote and read it, and when; a
 *   race or a read of unwritten shared memory aborts with both call sites.
 *
 * Addresses outside device allocations and __shared__ variables (fiber stacks
 * holding a thread's local arrays, the executor's own state) are ignored. */
#include <hip/hip_runtime.h>

#include "trace.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

extern "C" char __start_hipcpu_shared[] __attribute__((weak));
extern "C" char __stop_hipcpu_shared[] __attribute__((weak));

namespace {

constexpr unsigned kWave = HIPCPU_WAVE_SIZE;
constexpr unsigned kMaxThreads = 1024;
constexpr unsigned kMaxWaves = kMaxThreads / kWave;
constexpr unsigned kMaxSites = 2048;  /* distinct call sites in one program */
constexpr unsigned kMaxOpenGroups = 4096; /* per wave; the oldest is counted when full */
constexpr unsigned kMergeLimit = 16;  /* bytes: the widest access a lane makes (dwordx4) */
constexpr unsigned kLogLength = 64;   /* accesses a lane makes before it stops for its wave */

enum Space : uint8_t { kGlobal, kShared };
enum Kind : uint8_t { kLoad, kStore, kAtomic };
const char *const kKindName[] = {"load", "store", "atomic"};
const char *const kSpaceName[] = {"global", "shared"};

/* ---- Settings --------------------------------------------------------------- */

bool settings_read, profile_on, race_on;
std::string profile_path, sites_path, lines_path;
bool active; /* in a launch, with a mode on */

std::string buffer_name_at(uintptr_t addr); /* a device buffer's name, or "" */

/* ---- Call sites --------------------------------------------------------------- */

struct SiteStats {
    uint64_t requests, lanes, bytes, segments, sectors, bank_cycles, atomics;
};

struct Site {
    uintptr_t pc;
    std::string kernel;   /* the kernel it was first seen in */
    std::string location; /* "file:line", resolved when needed */
    int line_id;          /* location as a number, for merging; -1 unresolved */
    bool no_line;         /* the compiler gave it no source line: a load it moved (see race_check) */
    uintptr_t first_addr; /* the first address it accessed */
    std::string buffer;   /* the device buffer of that address, or empty (shared) */
    uint8_t kind;
    SiteStats stats[2];   /* by Space */
};

std::vector<Site> sites;
uintptr_t site_table_pc[2 * kMaxSites];
uint32_t site_table_index[2 * kMaxSites];
/* A direct-mapped cache in front of the table: a kernel's loop has few sites. */
uintptr_t cache_pc[64];
uint32_t cache_site[64];
const char *current_kernel = "";

/* ---- Symbols: call sites to file:line, addresses to variable names ---------- */

/* The running program, for addr2line and nm: through /proc/PID/exe, which
 * stays the running image even if a rebuild replaces the file meanwhile. */
std::string executable_path() {
    static const std::string path = "/proc/" + std::to_string(getpid()) + "/exe";
    return path;
}

uintptr_t load_bias() { /* of the main program: 0 unless it is position-independent */
    static bool known;
    static uintptr_t bias;
    if (!known) {
        known = true;
        dl_iterate_phdr([](dl_phdr_info *info, size_t, void *) -> int {
            bias = info->dlpi_addr;
            return 1; /* the first object is the program */
        }, nullptr);
    }
    return bias;
}

std::string current_directory() {
    char dir[PATH_MAX];
    return getcwd(dir, sizeof dir) ? std::string(dir) + "/" : std::string();
}

/* addr2line as a coprocess, started at the first question: one address in,
 * its inlining chain out, innermost first. */
struct Symbolizer {
    pid_t pid = 0;
    FILE *in = nullptr, *out = nullptr;
    bool failed = false;

    bool start() {
        if (pid || failed) return pid != 0;
        std::string exe = executable_path();
        int to_child[2], from_child[2];
        if (exe.empty() || pipe(to_child) || pipe(from_child)) return !(failed = true);
        pid = fork();
        if (pid == 0) {
            dup2(to_child[0], 0);
            dup2(from_child[1], 1);
            int null = open("/dev/null", O_WRONLY);
            if (null >= 0) dup2(null, 2);
            close(to_child[1]);
            close(from_child[0]);
            execlp("addr2line", "addr2line", "-e", exe.c_str(), "-f", "-C", "-i", (char *)nullptr);
            _exit(127);
        }
        close(to_child[0]);
        close(from_child[1]);
        if (pid < 0) return !(failed = true);
        signal(SIGPIPE, SIG_IGN);
        in = fdopen(to_child[1], "w");
        out = fdopen(from_child[0], "r");
        return true;
    }

    bool read_pair(std::string *function, std::string *location) {
        char a[4096], b[4096];
        if (!fgets(a, sizeof a, out) || !fgets(b, sizeof b, out)) return false;
        a[strcspn(a, "\n")] = b[strcspn(b, "\n")] = '\0';
        *function = a;
        *location = b;
        return true;
    }

    /* The frames of pc, innermost first, as "file:line"; empty if unknown.
     * A sentinel address that resolves to nothing marks the end. */
    std::vector<std::string> frames(uintptr_t pc) {
        std::vector<std::string> result;
        if (!start()) return result;
        fprintf(in, "0x%lx\n0xffffffffffffff\n", (unsigned long)(pc - load_bias()));
        fflush(in);
        std::string function, location;
        bool first = true;
        while (read_pair(&function, &location)) {
            const bool unknown = function == "??" && location.compare(0, 2, "??") == 0;
            if (unknown && (!first || result.empty())) {
                if (first) read_pair(&function, &location); /* pc itself was unknown: now the sentinel */
                break;
            }
            first = false;
            size_t discriminator = location.find(" (discriminator");
            if (discriminator != std::string::npos) location.resize(discriminator);
            result.push_back(location);
        }
        return result;
    }
};

Symbolizer symbolizer;
std::map<std::string, int> line_ids;
const std::string cwd = current_directory();

/* file:line of a call site: the innermost frame outside the executor's
 * header (an atomic's site is the kernel line that called atomicAdd). */
void resolve(Site &site) {
    if (site.line_id >= 0) return;
    std::vector<std::string> frames = symbolizer.frames(site.pc - 1);
    std::string chosen;
    for (const std::string &f : frames)
        if (f.find("hip/hip_runtime.h") == std::string::npos && f.find("??") == std::string::npos) {
            chosen = f;
            break;
        }
    if (chosen.empty()) {
        char text[64];
        snprintf(text, sizeof text, "pc 0x%lx", (unsigned long)(site.pc - load_bias()));
        chosen = text;
    }
    if (!cwd.empty() && chosen.compare(0, cwd.size(), cwd) == 0) chosen.erase(0, cwd.size());
    site.no_line = chosen.size() >= 2 && (chosen.compare(chosen.size() - 2, 2, ":?") == 0 ||
                                          chosen.compare(chosen.size() - 2, 2, ":0") == 0);
    site.location = chosen;
    auto it = line_ids.emplace(chosen, int(line_ids.size())).first;
    site.line_id = it->second;
}

/* A site is an instruction and a kind: a memcpy's load and store share the
 * instruction that called it. */
uint32_t site_of(uintptr_t pc, Kind kind, uintptr_t addr) {
    const uintptr_t key = pc ^ (uintptr_t(kind) << 60);
    const unsigned slot = unsigned((key >> 2) + kind) % 64;
    if (cache_pc[slot] == key) return cache_site[slot];
    size_t h = (key * 0x9E3779B97F4A7C15ull) >> 52; /* 12 bits: 4096 slots */
    while (site_table_pc[h] && site_table_pc[h] != key) h = (h + 1) % (2 * kMaxSites);
    if (!site_table_pc[h]) {
        if (sites.size() >= kMaxSites) hipcpu_die("the trace build supports at most %u call sites", kMaxSites);
        site_table_pc[h] = key;
        site_table_index[h] = uint32_t(sites.size());
        Site s = {};
        s.pc = pc;
        s.kernel = current_kernel;
        s.line_id = -1;
        s.kind = kind;
        s.first_addr = addr;
        s.buffer = buffer_name_at(addr);
        sites.push_back(s);
        resolve(sites.back()); /* merging compares lines; the race check skips moved loads */
    }
    cache_pc[slot] = key;
    cache_site[slot] = site_table_index[h];
    return cache_site[slot];
}

/* The __shared__ variable that holds addr, from the program's symbol table
 * (read once, when a report needs it). */
struct DataSymbol {
    uintptr_t start, size;
    std::string name;
};

std::string shared_variable(uintptr_t addr, uintptr_t *offset) {
    static std::vector<DataSymbol> symbols;
    static bool loaded;
    if (!loaded) {
        loaded = true;
        std::string command = "nm -C -S --defined-only '" + executable_path() + "' 2>/dev/null";
        if (FILE *p = popen(command.c_str(), "r")) {
            char line[8192];
            while (fgets(line, sizeof line, p)) {
                unsigned long start, size;
                char type;
                int used = 0;
                if (sscanf(line, "%lx %lx %c %n", &start, &size, &type, &used) < 3 || used == 0) continue;
                std::string name = line + used;
                name.erase(name.find_last_not_of("\n") + 1);
                symbols.push_back({start, size, name});
            }
            pclose(p);
        }
    }
    const uintptr_t target = addr - load_bias();
    *offset = 0;
    for (const DataSymbol &d : symbols)
        if (target >= d.start && target < d.start + d.size) {
            *offset = target - d.start;
            size_t scope = d.name.rfind("::");
            if (scope == std::string::npos) return d.name;
            std::string function = d.name.substr(0, scope);
            return d.name.substr(scope + 2) + " (in " + function.substr(0, function.find('(')) + ")";
        }
    return "";
}

/* ---- Memory: device allocations and the shared section ------------------------ */

/* The race check's record of one byte: per barrier phase of a block, which
 * threads wrote and read it; per launch, which blocks did. Thread and block
 * numbers are +1 (0: none). */
struct Shadow {
    uint32_t phase, launch;
    uint16_t writer, reader, reader2;
    uint16_t writer_site, reader_site, reader2_site;
    uint32_t block_writer, block_reader, block_reader2;
    uint16_t block_writer_thread, block_reader_thread, block_reader2_thread;
    uint16_t block_writer_site, block_reader_site, block_reader2_site;
};

struct Alloc {
    uintptr_t base, end;
    std::string name;
    uint64_t *touched;  /* profile: a bit per byte touched in this launch */
    bool touched_dirty;
    Shadow *shadow;     /* race check */
};

std::vector<Alloc> allocs; /* sorted by base */
uintptr_t shared_lo, shared_size;
Shadow *shared_shadow;
uint32_t *shared_written; /* block stamp of the last write, per shared byte */

Alloc *find_alloc_slow(uintptr_t addr) {
    size_t lo = 0, hi = allocs.size();
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (allocs[mid].end <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < allocs.size() && addr >= allocs[lo].base ? &allocs[lo] : nullptr;
}

/* Kernels alternate between a few buffers: remember the last two. */
Alloc *recent_alloc[2];

Alloc *find_alloc(uintptr_t addr) {
    for (Alloc *a : recent_alloc)
        if (a && addr - a->base < a->end - a->base) return a;
    Alloc *a = find_alloc_slow(addr);
    if (a) {
        recent_alloc[1] = recent_alloc[0];
        recent_alloc[0] = a;
    }
    return a;
}

std::string buffer_name_at(uintptr_t addr) {
    Alloc *a = find_alloc(addr);
    return !a ? "" : a->name.empty() ? "unnamed buffer" : a->name;
}

std::string describe_global(uintptr_t addr) {
    Alloc *a = find_alloc(addr);
    char text[512];
    if (!a) return "device memory";
    snprintf(text, sizeof text, "device buffer '%s' (byte %lu of %lu)",
             a->name.empty() ? "unnamed" : a->name.c_str(), (unsigned long)(addr - a->base),
             (unsigned long)(a->end - a->base));
    return text;
}

std::string describe_shared(uintptr_t addr) {
    uintptr_t offset;
    std::string name = shared_variable(addr, &offset);
    char text[1024];
    if (name.empty())
        snprintf(text, sizeof text, "__shared__ memory (byte %lu of the section)", (unsigned long)(addr - shared_lo));
    else
        snprintf(text, sizeof text, "__shared__ %s, byte %lu", name.c_str(), (unsigned long)offset);
    return text;
}

/* ---- Counters ----------------------------------------------------------------- */

struct KernelStats {
    std::string name;
    hipcpu_kernel_counters c;         /* trace.h's list */
    std::vector<uint64_t> block_runs; /* [guard]: wave-level runs of each basic block */
};

std::vector<KernelStats> kernels;
KernelStats *kernel;
std::unordered_map<uintptr_t, uint64_t> atomics_by_address; /* this launch */

/* What the running block has loaded since its last barrier: 64-byte segments
 * and 32-byte sectors. Counted once each per phase, they are the loads that
 * reach L2 when L1 (or the LDS a kernel stages into) keeps what a block
 * re-reads between two barriers. */
std::unordered_set<uint64_t> phase_segments, phase_sectors;

void end_phase() {
    if (kernel) {
        kernel->c.global_load_phase_segments += phase_segments.size();
        kernel->c.global_load_phase_sectors += phase_sectors.size();
    }
    phase_segments.clear();
    phase_sectors.clear();
}

/* ---- Basic blocks: how often each wave ran each one ------------------------------ */

/* The trace build also asks for a call at the start of every basic block of
 * the kernel's code (-fsanitize-coverage=bb,trace-pc-guard), each with its own
 * guard number. A lane's runs of a block are counted until its wave's next
 * sync point; the wave ran the block as often as its busiest lane did. Per
 * kernel and source line, those counts say how often a wave executed the
 * line: the trip counts that make the compiled code's instruction mix into
 * instructions issued (common/cpu/model/). */
uint32_t guard_total;                   /* guards numbered 1..guard_total */
std::vector<uintptr_t> guard_pc;        /* [guard]: the block's first instruction */
std::vector<uint32_t> guard_lane_runs;  /* [guard * kMaxThreads + thread], this sync interval */
std::vector<uint32_t> guards_touched[kMaxThreads];
std::vector<uint32_t> guard_wave_most;  /* [guard]: scratch for one wave */
bool counting_blocks;

/* ---- Lanes in step, and their requests -------------------------------------- */

struct Access {
    uintptr_t addr;
    uint64_t merged;  /* a bit per call site (modulo 64) widened into it */
    uint32_t site, n;
    uint16_t size;
    uint8_t kind, space;
    bool valid;
};

/* A lane's accesses since its wave's last round. The last one is still open:
 * the next, if contiguous, widens it. */
struct Lane {
    Access log[kLogLength];
    unsigned length;
    bool stopped;  /* stopped with a full log in this round */
    std::vector<uint32_t> counted; /* sites with a count, to reset */
};

Lane lane_state[kMaxThreads];
std::vector<uint32_t> site_counts; /* [site][thread]: times the thread reached the site this phase */

/* The lanes of one wave at one site for the n-th time: one request. */
struct Group {
    uint32_t site, n;
    uint8_t kind, space;
    unsigned count;
    uint64_t joined; /* a bit per lane that has joined */
    uint64_t age;
    uintptr_t addr[kWave];
    uint16_t size[kWave];
    uint8_t lane[kWave];
};

std::vector<Group> open_groups[kMaxWaves];
uint64_t group_clock;

/* Distinct values of ids[0..n): sorted input is the common case. */
unsigned count_distinct(uint64_t *ids, unsigned n) {
    if (n == 0) return 0;
    bool sorted = true;
    for (unsigned i = 1; i < n && sorted; i++) sorted = ids[i - 1] <= ids[i];
    if (!sorted) std::sort(ids, ids + n);
    unsigned distinct = 1;
    for (unsigned i = 1; i < n; i++) distinct += ids[i] != ids[i - 1];
    return distinct;
}

/* LDS bank cycles of one request (the model, stated in common/cpu/README.md):
 * 32 banks of 4 bytes. The lanes are served in passes of 128 bytes' worth:
 * 32 lanes for accesses of up to 4 bytes, 16 for 8 bytes, 8 for 16 bytes, so
 * a wave64 request takes at least 2 passes, 4, or 8. A pass costs as many
 * cycles as the most distinct 4-byte words that fall in one bank; lanes
 * reading the same word share it (a broadcast). */
unsigned bank_cycles(const Group &g) {
    unsigned widest = 0;
    for (unsigned i = 0; i < g.count; i++) widest = std::max<unsigned>(widest, g.size[i]);
    const unsigned per_pass = widest <= 4 ? 32 : widest <= 8 ? 16 : 8;
    unsigned cycles = 0;
    for (unsigned pass = 0; pass * per_pass < kWave; pass++) {
        uint64_t words[kWave * (kMergeLimit / 4 + 1)];
        unsigned n = 0;
        for (unsigned i = 0; i < g.count; i++) {
            if (g.lane[i] / per_pass != pass) continue;
            for (uint64_t w = g.addr[i] / 4; w <= (g.addr[i] + g.size[i] - 1) / 4; w++) words[n++] = w;
        }
        if (n == 0) continue;
        std::sort(words, words + n);
        unsigned per_bank[32] = {}, most = 0;
        for (unsigned i = 0; i < n; i++)
            if (i == 0 || words[i] != words[i - 1]) most = std::max(most, ++per_bank[words[i] % 32]);
        cycles += most;
    }
    return cycles;
}

/* Distinct (1 << shift)-byte units (segments, sectors) one global request
 * touches; a load's are also remembered in its block's phase set. */
unsigned count_units(const Group &g, unsigned shift, std::unordered_set<uint64_t> *phase) {
    uint64_t ids[2 * kWave]; /* an access of up to 16 bytes spans at most 2 units */
    unsigned n = 0;
    for (unsigned i = 0; i < g.count; i++)
        for (uint64_t unit = g.addr[i] >> shift; unit <= (g.addr[i] + g.size[i] - 1) >> shift; unit++) ids[n++] = unit;
    const unsigned distinct = count_distinct(ids, n); /* sorts ids */
    if (phase)
        for (unsigned i = 0; i < n; i++)
            if (i == 0 || ids[i] != ids[i - 1]) phase->insert(ids[i]);
    return distinct;
}

void count_request(const Group &g) {
    Site &site = sites[g.site];
    SiteStats &s = site.stats[g.space];
    uint64_t bytes = 0;
    for (unsigned i = 0; i < g.count; i++) bytes += g.size[i];
    s.requests++;
    s.lanes += g.count;
    s.bytes += bytes;
    if (g.space == kGlobal) {
        std::unordered_set<uint64_t> *segment_set = g.kind == kStore ? nullptr : &phase_segments;
        const unsigned segments = count_units(g, 6, segment_set);
        const unsigned sectors = count_units(g, 5, segment_set ? &phase_sectors : nullptr);
        s.segments += segments;
        s.sectors += sectors;
        hipcpu_kernel_counters &c = kernel->c;
        if (g.kind == kStore) {
            c.global_store_requests++;
            c.global_store_bytes += bytes;
            c.global_store_segments += segments;
            c.global_store_sectors += sectors;
        } else {
            c.global_load_requests++;
            c.global_load_bytes += bytes;
            c.global_load_segments += segments;
            c.global_load_sectors += sectors;
            bool uniform = true;
            for (unsigned i = 1; i < g.count && uniform; i++)
                uniform = g.addr[i] == g.addr[0] && g.size[i] == g.size[0];
            c.uniform_load_requests += uniform;
        }
    } else {
        const unsigned cycles = bank_cycles(g);
        s.bank_cycles += cycles;
        hipcpu_kernel_counters &c = kernel->c;
        (g.kind == kStore ? c.lds_write_requests : c.lds_read_requests)++;
        c.lds_requests++;
        c.lds_bytes += bytes;
        c.lds_bank_cycles += cycles;
    }
}

/* `hint`: where the group is when the lanes run the same code, the usual case. */
void add_to_group(unsigned wave, unsigned lane, const Access &a, size_t hint) {
    std::vector<Group> &groups = open_groups[wave];
    Group *g = nullptr;
    auto same = [&](const Group &x) { return x.site == a.site && x.n == a.n && x.space == a.space; };
    if (hint < groups.size() && same(groups[hint])) {
        g = &groups[hint];
    } else {
        for (size_t i = groups.size(); i-- > 0;)
            if (same(groups[i])) {
                g = &groups[i];
                break;
            }
    }
    if (!g) {
        if (groups.size() >= kMaxOpenGroups) { /* count the oldest now, as it is */
            auto oldest = std::min_element(groups.begin(), groups.end(),
                                           [](const Group &x, const Group &y) { return x.age < y.age; });
            count_request(*oldest);
            *oldest = groups.back();
            groups.pop_back();
        }
        groups.emplace_back();
        g = &groups.back();
        g->site = a.site;
        g->n = a.n;
        g->kind = a.kind;
        g->space = a.space;
        g->count = 0;
        g->joined = 0;
        g->age = group_clock++;
    }
    g->addr[g->count] = a.addr;
    g->size[g->count] = a.size;
    g->lane[g->count] = uint8_t(lane);
    g->count++;
    g->joined |= uint64_t(1) << lane;
}

/* A wave reached a sync point: each basic block its lanes ran since the last
 * one counts as many wave-level runs as its busiest lane made. */
void end_block_counts(unsigned first, unsigned lanes) {
    std::vector<uint64_t> &runs = kernel->block_runs;
    if (runs.size() <= guard_total) runs.resize(guard_total + 1);
    for (unsigned i = 0; i < lanes; i++)
        for (uint32_t g : guards_touched[first + i]) {
            uint32_t &n = guard_lane_runs[size_t(g) * kMaxThreads + first + i];
            guard_wave_most[g] = std::max(guard_wave_most[g], n);
            n = 0;
        }
    for (unsigned i = 0; i < lanes; i++) {
        for (uint32_t g : guards_touched[first + i]) {
            runs[g] += guard_wave_most[g];
            guard_wave_most[g] = 0;
        }
        guards_touched[first + i].clear();
    }
}

void reset_counts(unsigned thread) {
    Lane &l = lane_state[thread];
    for (uint32_t s : l.counted) site_counts[size_t(s) * kMaxThreads + thread] = 0;
    l.counted.clear();
}

/* A thread's access, in the profile: widen its open access, or log a new one;
 * with a full log, first stop so that the wave's other lanes catch up. */
void profile_access(uintptr_t addr, unsigned size, Kind kind, Space space, uint32_t site) {
    const unsigned thread = hipcpu_current_linear;
    Lane &l = lane_state[thread];
    for (int pass = 0; pass < 2; pass++) {
        if (l.length) {
            Access &open = l.log[l.length - 1];
            /* Other instructions of the same line, on the next bytes: one wider
             * access, as a struct copy or an unrolled body compiles to on a GPU.
             * The same instruction again is a loop's next iteration: not merged. */
            const uint64_t bit = uint64_t(1) << (site % 64);
            if (open.kind == kind && open.space == space && open.addr + open.size == addr &&
                open.size + size <= kMergeLimit && !(open.merged & bit) &&
                sites[open.site].line_id == sites[site].line_id) {
                open.size = uint16_t(open.size + size);
                open.merged |= bit;
                return;
            }
        }
        if (l.length < kLogLength) break;
        l.stopped = true;
        hipcpu_suspend_at_access(); /* the round's end keeps only the open access */
    }
    uint32_t &count = site_counts[size_t(site) * kMaxThreads + thread];
    if (count++ == 0) l.counted.push_back(site);
    l.log[l.length++] = {addr, uint64_t(1) << (site % 64), site, count, uint16_t(size), uint8_t(kind),
                         uint8_t(space), true};
}

void mark_touched(Alloc *a, uintptr_t addr, unsigned size) {
    if (!a->touched) {
        const size_t words = (a->end - a->base + 63) / 64;
        a->touched = static_cast<uint64_t *>(calloc(words, sizeof(uint64_t)));
        if (!a->touched) hipcpu_die("out of memory for the trace of '%s'", a->name.c_str());
    }
    a->touched_dirty = true;
    const uintptr_t b = addr - a->base;
    if (b % 64 + size <= 64) { /* the usual case: one word of the bitmap */
        a->touched[b / 64] |= (size == 64 ? ~uint64_t(0) : (uint64_t(1) << size) - 1) << (b % 64);
        return;
    }
    for (uintptr_t i = b, e = b + size; i < e; i++) a->touched[i / 64] |= uint64_t(1) << (i % 64);
}

/* ---- The race check -------------------------------------------------------------- */

uint32_t phase_stamp, block_stamp, launch_stamp;
uint64_t block_linear;

std::string thread_name(unsigned thread_plus_1) {
    const unsigned t = thread_plus_1 - 1;
    const dim3 &b = hipcpu_block_dim;
    char text[64];
    snprintf(text, sizeof text, "thread (%u,%u,%u)", t % b.x, t / b.x % b.y, t / (b.x * b.y));
    return text;
}

std::string block_name(uint32_t block_plus_1) {
    const uint64_t id = block_plus_1 - 1;
    const dim3 &g = hipcpu_grid_dim;
    char text[64];
    snprintf(text, sizeof text, "block (%u,%u,%u)", unsigned(id % g.x), unsigned(id / g.x % g.y),
             unsigned(id / g.x / g.y));
    return text;
}

const std::string &where(uint32_t site) {
    resolve(sites[site]);
    return sites[site].location;
}

const char *verb(uint8_t kind) { return kind == kStore ? "wrote" : kind == kAtomic ? "updated atomically" : "read"; }

[[noreturn]] void race(const std::string &what, unsigned other, uint8_t other_kind, uint32_t other_site,
                       unsigned self, uint8_t self_kind, uint32_t self_site) {
    hipcpu_die_in_block("race on %s: %s %s it at %s and %s %s it at %s, with no __syncthreads between",
                        what.c_str(), thread_name(other).c_str(), verb(other_kind), where(other_site).c_str(),
                        thread_name(self).c_str(), verb(self_kind), where(self_site).c_str());
}

[[noreturn]] void block_race(const std::string &what, uint32_t other_block, unsigned other_thread,
                             uint8_t other_kind, uint32_t other_site, unsigned self, uint8_t self_kind,
                             uint32_t self_site) {
    hipcpu_die_in_block("race between blocks on %s: %s %s %s it at %s and %s of this block %s it at %s, in "
                        "one launch (blocks are not ordered; only atomics may share a byte)",
                        what.c_str(), block_name(other_block).c_str(), thread_name(other_thread).c_str(),
                        verb(other_kind), where(other_site).c_str(), thread_name(self).c_str(), verb(self_kind),
                        where(self_site).c_str());
}

Shadow *shadow_of(Alloc *a) {
    if (!a->shadow) {
        a->shadow = static_cast<Shadow *>(calloc(a->end - a->base, sizeof(Shadow)));
        if (!a->shadow) hipcpu_die("out of memory for the race check of '%s'", a->name.c_str());
    }
    return a->shadow;
}

void race_check(uintptr_t addr, unsigned size, Kind kind, Space space, Alloc *a, uint32_t site) {
    const unsigned self = hipcpu_current_linear + 1;
    const uint32_t block = uint32_t(block_linear + 1);
    Shadow *base = space == kShared ? shared_shadow + (addr - shared_lo) : shadow_of(a) + (addr - a->base);
    for (unsigned i = 0; i < size; i++) {
        Shadow &sh = base[i];
        auto what = [&]() { return space == kShared ? describe_shared(addr + i) : describe_global(addr + i); };
        if (space == kShared && kind != kStore && shared_written[addr + i - shared_lo] != block_stamp)
            hipcpu_die_in_block("uninitialised read of %s: %s %s it at %s, and no thread of this block has "
                                "written it since the block began (a GPU would hand back garbage)",
                                what().c_str(), thread_name(self).c_str(), verb(kind), where(site).c_str());
        /* Threads of this block, between two barriers. */
        if (sh.phase != phase_stamp) {
            sh.phase = phase_stamp;
            sh.writer = sh.reader = sh.reader2 = 0;
        }
        if (sh.writer && sh.writer != self) race(what(), sh.writer, kStore, sh.writer_site, self, kind, site);
        if (kind == kStore) {
            const unsigned other = sh.reader && sh.reader != self ? sh.reader : sh.reader2;
            if (other) {
                const uint16_t other_site = other == sh.reader ? sh.reader_site : sh.reader2_site;
                race(what(), other, kLoad, other_site, self, kind, site);
            }
            sh.writer = uint16_t(self);
            sh.writer_site = uint16_t(site);
            if (space == kShared) shared_written[addr + i - shared_lo] = block_stamp;
        } else if (!sh.reader) {
            sh.reader = uint16_t(self);
            sh.reader_site = uint16_t(site);
        } else if (sh.reader != self && !sh.reader2) {
            sh.reader2 = uint16_t(self);
            sh.reader2_site = uint16_t(site);
        }
        /* Blocks of this launch: global memory, plain accesses only. */
        if (space != kGlobal || kind == kAtomic) continue;
        if (sh.launch != launch_stamp) {
            sh.launch = launch_stamp;
            sh.block_writer = sh.block_reader = sh.block_reader2 = 0;
        }
        if (sh.block_writer && sh.block_writer != block)
            block_race(what(), sh.block_writer, sh.block_writer_thread, kStore, sh.block_writer_site, self, kind,
                       site);
        if (kind == kStore) {
            const bool first = sh.block_reader && sh.block_reader != block;
            const uint32_t other = first ? sh.block_reader : sh.block_reader2;
            if (other)
                block_race(what(), other, first ? sh.block_reader_thread : sh.block_reader2_thread, kLoad,
                           first ? sh.block_reader_site : sh.block_reader2_site, self, kind, site);
            sh.block_writer = block;
            sh.block_writer_thread = uint16_t(self);
            sh.block_writer_site = uint16_t(site);
        } else if (!sh.block_reader) {
            sh.block_reader = block;
            sh.block_reader_thread = uint16_t(self);
            sh.block_reader_site = uint16_t(site);
        } else if (sh.block_reader != block && !sh.block_reader2) {
            sh.block_reader2 = block;
            sh.block_reader2_thread = uint16_t(self);
            sh.block_reader2_site = uint16_t(site);
        }
    }
}

/* ---- Every access ---------------------------------------------------------------- */

uintptr_t atomic_lo, atomic_hi; /* the atomic in progress: its own load and store are not plain */

/* Where addr lies: shared memory, a device allocation (*a), or neither (a
 * thread's own stack, the executor's state): false, and it is ignored. */
inline bool classify(uintptr_t addr, Space *space, Alloc **a) {
    *a = nullptr;
    if (addr - shared_lo < shared_size) {
        *space = kShared;
        return true;
    }
    *a = find_alloc(addr);
    *space = kGlobal;
    return *a != nullptr;
}

inline void on_access(const void *pointer, unsigned size, Kind kind, const void *pc) {
    if (!active) return;
    const uintptr_t addr = reinterpret_cast<uintptr_t>(pointer);
    if (addr - atomic_lo < atomic_hi - atomic_lo) return;
    Space space;
    Alloc *a;
    if (!classify(addr, &space, &a)) return;
    const uint32_t site = site_of(reinterpret_cast<uintptr_t>(pc), kind, addr);
    /* A load the compiler gave no source line is one it moved, e.g. made
     * unconditional from `if (t == 0) v = tile[0]` (it keeps only thread 0's
     * value): not the program's access, so not a race. */
    if (race_on && !(kind == kLoad && sites[site].no_line)) race_check(addr, size, kind, space, a, site);
    if (profile_on) {
        if (a) mark_touched(a, addr, size);
        profile_access(addr, size, kind, space, site);
    }
}

/* ---- The report -------------------------------------------------------------------- */

FILE *open_report(const std::string &path) {
    FILE *f = fopen(path.c_str(), "w");
    if (!f) fprintf(stderr, "hipcpu: cannot write the profile to %s: %s\n", path.c_str(), strerror(errno));
    return f;
}

/* The source line of a basic block: the guard's call has no line of its own,
 * so the first instruction after it that has one. */
std::string line_of_block(uintptr_t pc) {
    for (uintptr_t offset = 0; offset < 96; offset++) {
        Site probe = {};
        probe.pc = pc + offset;
        probe.line_id = -1;
        resolve(probe);
        if (!probe.no_line && probe.location.compare(0, 3, "pc ") != 0) return probe.location;
    }
    return "";
}

/* Per kernel and source line: how often a wave ran it (the most of any basic
 * block that starts on that line), for the model's instruction counts. */
void write_lines() {
    FILE *f = open_report(lines_path);
    if (!f) return;
    fprintf(f, "kernel\tline\twave_runs\n");
    std::map<uintptr_t, std::string> located;
    for (const KernelStats &k : kernels) {
        std::map<std::string, uint64_t> by_line;
        for (uint32_t g = 1; g < k.block_runs.size(); g++) {
            if (!k.block_runs[g] || !guard_pc[g]) continue;
            auto it = located.find(guard_pc[g]);
            if (it == located.end()) it = located.emplace(guard_pc[g], line_of_block(guard_pc[g])).first;
            if (it->second.empty()) continue; /* the executor's own code, inlined into the kernel */
            uint64_t &runs = by_line[it->second];
            runs = std::max(runs, k.block_runs[g]);
        }
        for (const auto &entry : by_line)
            fprintf(f, "%s\t%s\t%lu\n", k.name.c_str(), entry.first.c_str(), (unsigned long)entry.second);
    }
    fclose(f);
}

void write_profile() {
    if (counting_blocks) write_lines();
    if (FILE *f = open_report(profile_path)) {
        fprintf(f, "kernel");
#define HIPCPU_COUNTER_NAME(name, what) fprintf(f, "\t%s", #name);
        HIPCPU_KERNEL_COUNTERS(HIPCPU_COUNTER_NAME)
#undef HIPCPU_COUNTER_NAME
        fprintf(f, "\n");
        for (const KernelStats &k : kernels) {
            fprintf(f, "%s", k.name.c_str());
#define HIPCPU_COUNTER_VALUE(name, what) fprintf(f, "\t%lu", (unsigned long)k.c.name);
            HIPCPU_KERNEL_COUNTERS(HIPCPU_COUNTER_VALUE)
#undef HIPCPU_COUNTER_VALUE
            fprintf(f, "\n");
        }
        fclose(f);
    }
    if (sites_path.empty()) return;
    if (FILE *f = open_report(sites_path)) {
        fprintf(f, "kernel\tsite\tbuffer\tspace\tkind\trequests\tlanes\tbytes\tsegments\tsectors\tbank_cycles\tatomics\n");
        for (Site &s : sites) {
            resolve(s);
            for (int space = 0; space < 2; space++) {
                const SiteStats &st = s.stats[space];
                if (st.requests == 0 && st.atomics == 0) continue;
                if (space == kShared && s.buffer.empty()) {
                    uintptr_t offset;
                    s.buffer = shared_variable(s.first_addr, &offset);
                    s.buffer = s.buffer.substr(0, s.buffer.find(" (in "));
                }
                fprintf(f, "%s\t%s\t%s\t%s\t%s\t%lu\t%lu\t%lu\t%lu\t%lu\t%lu\t%lu\n", s.kernel.c_str(),
                        s.location.c_str(), s.buffer.empty() ? "?" : s.buffer.c_str(), kSpaceName[space], kKindName[s.kind], st.requests, st.lanes, st.bytes,
                        st.segments, st.sectors, st.bank_cycles, st.atomics);
            }
        }
        fclose(f);
    }
}

} /* namespace */

/* ---- The executor's hooks ------------------------------------------------------------ */

bool trace_enabled(void) {
    if (!settings_read) {
        settings_read = true;
        if (const char *p = getenv("HIPCPU_PROFILE"); p && *p) {
            profile_on = true;
            profile_path = p;
            if (const char *s = getenv("HIPCPU_PROFILE_SITES"); s && *s) sites_path = s;
            if (const char *l = getenv("HIPCPU_PROFILE_LINES"); l && *l) lines_path = l;
            atexit(write_profile);
        }
        if (const char *r = getenv("HIPCPU_RACECHECK"); r && *r && strcmp(r, "0") != 0) {
            if (strcmp(r, "1") != 0) hipcpu_die("HIPCPU_RACECHECK must be 1 or 0, not '%s'", r);
            race_on = true;
        }
        if (__start_hipcpu_shared && __stop_hipcpu_shared > __start_hipcpu_shared) {
            shared_lo = reinterpret_cast<uintptr_t>(__start_hipcpu_shared);
            shared_size = uintptr_t(__stop_hipcpu_shared - __start_hipcpu_shared);
        }
        if (race_on && shared_size) {
            shared_shadow = static_cast<Shadow *>(calloc(shared_size, sizeof(Shadow)));
            shared_written = static_cast<uint32_t *>(calloc(shared_size, sizeof(uint32_t)));
            if (!shared_shadow || !shared_written) hipcpu_die("out of memory for the race check");
        }
        if (profile_on) site_counts.assign(size_t(kMaxThreads) * kMaxSites, 0);
        if (profile_on && !lines_path.empty() && guard_total) {
            counting_blocks = true;
            guard_pc.assign(guard_total + 1, 0);
            guard_lane_runs.assign(size_t(guard_total + 1) * kMaxThreads, 0);
            guard_wave_most.assign(guard_total + 1, 0);
        }
    }
    return profile_on || race_on;
}

void trace_launch_begin(const char *name, const dim3 &grid, const dim3 &block) {
    current_kernel = name;
    kernel = nullptr;
    for (KernelStats &k : kernels)
        if (k.name == name) kernel = &k;
    if (!kernel) {
        kernels.emplace_back();
        kernel = &kernels.back();
        *kernel = KernelStats();
        kernel->name = name;
    }
    const uint64_t blocks = uint64_t(grid.x) * grid.y * grid.z, threads = uint64_t(block.x) * block.y * block.z;
    hipcpu_kernel_counters &c = kernel->c;
    c.launches++;
    c.blocks += blocks;
    c.threads += blocks * threads;
    c.waves += blocks * ((threads + kWave - 1) / kWave);
    launch_stamp++;
    atomics_by_address.clear();
    active = true;
}

void trace_launch_end(void) {
    end_phase();
    active = false;
    for (Alloc &a : allocs)
        if (a.touched_dirty) {
            const size_t words = (a.end - a.base + 63) / 64;
            for (size_t i = 0; i < words; i++) kernel->c.unique_bytes += __builtin_popcountll(a.touched[i]);
            memset(a.touched, 0, words * sizeof(uint64_t));
            a.touched_dirty = false;
        }
    uint64_t most = 0;
    for (const auto &entry : atomics_by_address) most = std::max(most, entry.second);
    kernel->c.atomics_max_one_address = std::max(kernel->c.atomics_max_one_address, most);
}

void trace_block_begin(uint64_t id) {
    end_phase();
    block_linear = id;
    block_stamp = ++phase_stamp;
}

void trace_barrier(void) {
    ++phase_stamp;
    end_phase();
    if (kernel) kernel->c.barriers++;
}

void trace_wave_op(unsigned, int kind) {
    if (kind <= HIPCPU_SHFL_XOR && kernel) kernel->c.shuffles++;
}

void trace_round_end(unsigned wave, unsigned first, unsigned lanes, uint64_t live, unsigned at_access) {
    if (!profile_on) return;
    std::vector<Group> &groups = open_groups[wave];
    const size_t already_open = groups.size();
    for (unsigned i = 0; i < lanes; i++) {
        Lane &l = lane_state[first + i];
        /* A lane that stopped with a full log keeps its open access for the
         * next round; one that stopped at a barrier, a wave operation or its
         * end has made its last access of this phase. */
        const unsigned complete = l.stopped ? l.length - 1 : l.length;
        for (unsigned j = 0; j < complete; j++) add_to_group(wave, i, l.log[j], already_open + j);
        if (l.stopped) {
            l.log[0] = l.log[l.length - 1];
            l.length = 1;
        } else {
            l.length = 0;
        }
        l.stopped = false;
    }
    /* A request is complete when every lane that has not returned has joined
     * it; at a sync point (no lane at an access) every open request is. */
    for (size_t i = 0; i < groups.size();) {
        if (at_access == 0 || (live & ~groups[i].joined) == 0) {
            count_request(groups[i]);
            groups[i] = groups.back();
            groups.pop_back();
        } else {
            i++;
        }
    }
    if (at_access == 0) {
        for (unsigned i = 0; i < lanes; i++) reset_counts(first + i);
        if (counting_blocks) end_block_counts(first, lanes);
    }
}

void trace_alloc(void *pointer, size_t bytes) {
    Alloc a = {};
    a.base = reinterpret_cast<uintptr_t>(pointer);
    a.end = a.base + bytes;
    auto at = std::lower_bound(allocs.begin(), allocs.end(), a.base,
                               [](const Alloc &x, uintptr_t base) { return x.base < base; });
    allocs.insert(at, a);
    recent_alloc[0] = recent_alloc[1] = nullptr;
}

void trace_free(void *pointer) {
    const uintptr_t base = reinterpret_cast<uintptr_t>(pointer);
    for (size_t i = 0; i < allocs.size(); i++)
        if (allocs[i].base == base) {
            free(allocs[i].touched);
            free(allocs[i].shadow);
            allocs.erase(allocs.begin() + long(i));
            break;
        }
    recent_alloc[0] = recent_alloc[1] = nullptr;
}

void trace_name(const void *pointer, const char *name) {
    if (Alloc *a = find_alloc(reinterpret_cast<uintptr_t>(pointer))) a->name = name;
}

bool hipcpu_trace_counters(const char *name, hipcpu_kernel_counters *out) {
    for (const KernelStats &k : kernels)
        if (k.name == name) {
            *out = k.c;
            return true;
        }
    return false;
}

void hipcpu_trace_reset(void) {
    kernels.clear();
    kernel = nullptr;
    for (Site &site : sites) site.stats[0] = site.stats[1] = SiteStats();
}

/* ---- Entry points from kernel code ----------------------------------------------- */

extern "C" {

void hipcpu_atomic_begin(const void *address, unsigned size) {
    if (!active) return;
    const uintptr_t addr = reinterpret_cast<uintptr_t>(address);
    atomic_lo = addr;
    atomic_hi = addr + size;
    Space space;
    Alloc *a;
    if (!classify(addr, &space, &a)) return;
    const uint32_t site = site_of(reinterpret_cast<uintptr_t>(__builtin_return_address(0)), kAtomic, addr);
    if (race_on) race_check(addr, size, kAtomic, space, a, site);
    if (profile_on) {
        if (a) mark_touched(a, addr, size);
        sites[site].stats[space].atomics++;
        kernel->c.atomics++;
        atomics_by_address[addr]++;
    }
}

void hipcpu_atomic_end(void) { atomic_lo = atomic_hi = 0; }

/* Copies the compiler keeps as a memcpy or memset (a 16-byte struct copied
 * into a local array: chapter 08's staged pixels) are no load or store to
 * -fsanitize-coverage. The trace build also compiles the chapter with
 * AddressSanitizer's instrumentation, every check turned off but this: it
 * calls these instead, and no ASan runtime is linked. Each copy is a load and
 * a store of up to 16 bytes at a time, as a GPU would issue it. */
static void copy_accesses(uintptr_t pointer, size_t n, Kind kind, const void *pc) {
    for (size_t done = 0; done < n; done += kMergeLimit)
        on_access(reinterpret_cast<const void *>(pointer + done), unsigned(n - done < kMergeLimit ? n - done : kMergeLimit),
                  kind, pc);
}

void *__asan_memcpy(void *dst, const void *src, size_t n) {
    copy_accesses(reinterpret_cast<uintptr_t>(src), n, kLoad, __builtin_return_address(0));
    copy_accesses(reinterpret_cast<uintptr_t>(dst), n, kStore, __builtin_return_address(0));
    return memcpy(dst, src, n);
}

void *__asan_memmove(void *dst, const void *src, size_t n) {
    copy_accesses(reinterpret_cast<uintptr_t>(src), n, kLoad, __builtin_return_address(0));
    copy_accesses(reinterpret_cast<uintptr_t>(dst), n, kStore, __builtin_return_address(0));
    return memmove(dst, src, n);
}

void *__asan_memset(void *dst, int value, size_t n) {
    copy_accesses(reinterpret_cast<uintptr_t>(dst), n, kStore, __builtin_return_address(0));
    return memset(dst, value, n);
}

/* -fsanitize-coverage=trace-pc-guard: numbers every guard once, at start-up,
 * then calls the second at the start of each basic block. */
void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop) {
    if (start == stop || *start) return;
    for (uint32_t *g = start; g < stop; g++) *g = ++guard_total;
}

void __sanitizer_cov_trace_pc_guard(uint32_t *guard) {
    if (!counting_blocks || !active || *guard > guard_total) return;
    const uint32_t g = *guard;
    const unsigned thread = hipcpu_current_linear;
    if (!guard_pc[g]) guard_pc[g] = reinterpret_cast<uintptr_t>(__builtin_return_address(0));
    if (guard_lane_runs[size_t(g) * kMaxThreads + thread]++ == 0) guards_touched[thread].push_back(g);
}

/* What the instrumentation's module constructor and noreturn calls expect. */
void __asan_init(void) {}
void __asan_version_mismatch_check_v8(void) {}
void __asan_handle_no_return(void) {}

/* -fsanitize-coverage=trace-loads,trace-stores calls these before every load
 * and store of an instrumented function, with its address. */
#define HIPCPU_TRACE_CALLBACKS(bytes, T)                                                         \
    void __sanitizer_cov_load##bytes(T *address) {                                               \
        on_access(address, bytes, kLoad, __builtin_return_address(0));                           \
    }                                                                                            \
    void __sanitizer_cov_store##bytes(T *address) {                                              \
        on_access(address, bytes, kStore, __builtin_return_address(0));                          \
    }
HIPCPU_TRACE_CALLBACKS(1, uint8_t)
HIPCPU_TRACE_CALLBACKS(2, uint16_t)
HIPCPU_TRACE_CALLBACKS(4, uint32_t)
HIPCPU_TRACE_CALLBACKS(8, uint64_t)
HIPCPU_TRACE_CALLBACKS(16, __int128)
#undef HIPCPU_TRACE_CALLBACKS

} /* extern "C" */
