/* The tracer's call sites, and its symbols: an instruction address to the
 * "file:line" of its source (addr2line as a coprocess), to the kernel whose
 * code holds it, a data address to the __shared__ variable that holds it
 * (both from nm). trace_internal.h: the parts. */
#include "trace_internal.h"

#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <set>

/* The kernels' code: hip_runtime.h puts every __global__ function of the
 * trace build in this section. */
extern "C" char __start_hipcpu_kernels[] __attribute__((weak));
extern "C" char __stop_hipcpu_kernels[] __attribute__((weak));

namespace hipcpu_trace {

/* ---- Call sites --------------------------------------------------------------- */



uintptr_t site_table_pc[2 * kMaxSites];
uint32_t site_table_index[2 * kMaxSites];

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
 * headers, its HIP one and its CUDA mapping (an atomic's site is the kernel
 * line that called atomicAdd, a __ldcs's the line that called it). */
void resolve(Site &site) {
    if (site.line_id >= 0) return;
    std::vector<std::string> frames = symbolizer.frames(site.pc - 1);
    std::string chosen;
    for (const std::string &f : frames)
        if (f.find("hip/hip_runtime.h") == std::string::npos && f.find("executor/cuda/") == std::string::npos &&
            f.find("??") == std::string::npos) {
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
const SiteRef &find_site(uintptr_t pc, Kind kind, uintptr_t addr) {
    const uintptr_t key = site_key(pc, kind);
    size_t h = (key * 0x9E3779B97F4A7C15ull) >> 52; /* 12 bits: 4096 slots */
    while (site_table_pc[h] && site_table_pc[h] != key) h = (h + 1) % (2 * kMaxSites);
    if (!site_table_pc[h]) {
        if (tracer.sites.size() >= kMaxSites) hipcpu_die("the trace build supports at most %u call sites", kMaxSites);
        site_table_pc[h] = key;
        site_table_index[h] = uint32_t(tracer.sites.size());
        Site s = {};
        s.pc = pc;
        s.kernel = tracer.current_kernel;
        s.line_id = -1;
        s.kind = kind;
        s.first_addr = addr;
        s.buffer = buffer_name_at(addr);
        tracer.sites.push_back(s);
        resolve(tracer.sites.back()); /* merging compares lines; the race check skips moved loads */
    }
    const uint32_t index = site_table_index[h];
    return tracer.site_cache[site_slot(key)] = {key, index, tracer.sites[index].no_line};
}

/* The program's symbols that have a size (functions, variables), demangled,
 * from its symbol table: read once, when first needed. The tables below are
 * never destroyed: the profile is written at exit, after a function's static
 * made during the run would be. */
struct Symbol {
    uintptr_t start, size; /* start as linked: add load_bias() for the running address */
    std::string name;
};

const std::vector<Symbol> &program_symbols() {
    static std::vector<Symbol> &symbols = *new std::vector<Symbol>;
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
                /* A symbol without a size (the linker's __start_SECTION) has three
                 * fields: its type letter must not be read as a hex size. */
                char size_text[32], type_text[8];
                if (sscanf(line, "%lx %31s %7s %n", &start, size_text, type_text, &used) < 3 || used == 0 ||
                    type_text[1] != '\0' || sscanf(size_text, "%lx", &size) != 1)
                    continue;
                type = type_text[0];
                (void)type;
                std::string name = line + used;
                name.erase(name.find_last_not_of("\n") + 1);
                symbols.push_back({start, size, name});
            }
            pclose(p);
        }
    }
    return symbols;
}

/* The __shared__ variable that holds addr, from the program's symbol table. */
std::string shared_variable(uintptr_t addr, uintptr_t *offset) {
    const uintptr_t target = addr - load_bias();
    *offset = 0;
    for (const Symbol &d : program_symbols())
        if (target >= d.start && target < d.start + d.size) {
            *offset = target - d.start;
            if (d.name == "hipcpu_dynamic_shared") return "(dynamic)"; /* extern __shared__, HIP_DYNAMIC_SHARED */
            size_t scope = d.name.rfind("::");
            if (scope == std::string::npos) return d.name;
            std::string function = d.name.substr(0, scope);
            return d.name.substr(scope + 2) + " (in " + function.substr(0, function.find('(')) + ")";
        }
    return "";
}

std::vector<SharedVariable> shared_variables() {
    std::vector<SharedVariable> found;
    const uintptr_t lo = tracer.shared_lo - load_bias();
    for (const Symbol &d : program_symbols())
        if (d.size && d.start - lo < tracer.shared_size)
            found.push_back({d.start - lo, d.size, d.name == "hipcpu_dynamic_shared"});
    return found;
}

/* ---- Kernels: a launch named after the function it runs ------------------------ */

/* A kernel's name as the time model's compiled-code facts give it
 * (common/scripts/kernel_name.awk does the same to hipcc's gfx906 code):
 * the demangled symbol without its return type and parameter list, so
 * "void tile_kernel<32, 8>(float const*, float*)" is "tile_kernel<32, 8>". An
 * overloaded kernel (two kernels of one name, different parameters) keeps its
 * parameter list, so that each has a row of its own. */
std::string kernel_signature(std::string symbol) {
    if (symbol.compare(0, 5, "void ") == 0) symbol.erase(0, 5);
    return symbol;
}

std::string kernel_base(const std::string &signature) {
    if (signature.empty() || signature.back() != ')') return signature;
    int depth = 0;
    for (size_t i = signature.size(); i-- > 0;) {
        if (signature[i] == ')') depth++;
        if (signature[i] == '(' && --depth == 0) return signature.substr(0, i);
    }
    return signature;
}

struct KernelSymbol {
    uintptr_t start, end; /* running addresses */
    std::string name;
};

/* The kernels (the functions in the section hipcpu_kernels), by address. */
const std::vector<KernelSymbol> &kernel_symbols() {
    static std::vector<KernelSymbol> &found = *new std::vector<KernelSymbol>;
    static bool loaded;
    if (loaded) return found;
    loaded = true;
    for (const Symbol &s : program_symbols()) {
        const uintptr_t start = s.start + load_bias();
        if (in_kernel_code(start)) found.push_back({start, start + s.size, kernel_signature(s.name)});
    }
    std::sort(found.begin(), found.end(), [](const KernelSymbol &a, const KernelSymbol &b) { return a.start < b.start; });
    /* One function, one entry (an alias at its address would count as an overload). */
    found.erase(std::unique(found.begin(), found.end(),
                            [](const KernelSymbol &a, const KernelSymbol &b) { return a.start == b.start; }),
                found.end());
    std::map<std::string, int> bases;
    for (const KernelSymbol &k : found) bases[kernel_base(k.name)]++;
    for (KernelSymbol &k : found)
        if (bases[kernel_base(k.name)] == 1) k.name = kernel_base(k.name);
    return found;
}

bool in_kernel_code(uintptr_t pc) {
    return pc >= reinterpret_cast<uintptr_t>(__start_hipcpu_kernels) &&
           pc < reinterpret_cast<uintptr_t>(__stop_hipcpu_kernels);
}

const char *kernel_at(uintptr_t pc) {
    const std::vector<KernelSymbol> &all = kernel_symbols();
    auto after = std::upper_bound(all.begin(), all.end(), pc,
                                  [](uintptr_t p, const KernelSymbol &k) { return p < k.start; });
    if (after == all.begin() || pc >= std::prev(after)->end) return nullptr;
    return std::prev(after)->name.c_str();
}

/* name, kept as long as the program runs (the executor's messages keep a
 * pointer to the running kernel's name): one copy per distinct name. */
const char *lasting_name(const std::string &name) {
    static std::set<std::string> &names = *new std::set<std::string>;
    return names.insert(name).first->c_str();
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

} /* namespace hipcpu_trace */
