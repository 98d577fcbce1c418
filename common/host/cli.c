#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 /* realpath */
#include "cli.h"
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errors.h"

/* The chapter's command line, when it registered one (cli_set_chapter). */
static cli_chapter *chapter_cli;

void cli_set_chapter(cli_chapter *chapter) { chapter_cli = chapter; }

static int gpu_options_enabled;
void cli_enable_gpu_options(void) { gpu_options_enabled = 1; }

static const char *iterations_name(void)
{
    return chapter_cli && chapter_cli->iterations_name ? chapter_cli->iterations_name
                                                        : "ITERATIONS";
}

static int default_iterations(void)
{
    return chapter_cli && chapter_cli->default_iterations ? chapter_cli->default_iterations
                                                          : CLI_DEFAULT_ITERATIONS;
}

static float default_learning_rate(void)
{
    return chapter_cli && chapter_cli->default_learning_rate > 0.0f
               ? chapter_cli->default_learning_rate
               : CLI_DEFAULT_LEARNING_RATE;
}

void cli_print_usage(const char *program, const char *chapter)
{
    const char *name = iterations_name();
    printf("usage: %s DATASET_DIR [%s [LEARNING_RATE]] [options]\n"
           "Trains chapter %s's %s.\n"
           "\n"
           "  DATASET_DIR          folder with the four MNIST IDX files (make dataset)\n"
           "  %-20s 1..%d, default %d",
           program, name, chapter,
           chapter_cli && chapter_cli->model ? chapter_cli->model
                                             : "linear MNIST classifier, full batch",
           name, CLI_MAX_ITERATIONS, default_iterations());
    if (chapter_cli && chapter_cli->iterations_option)
        printf(" (or %s N)", chapter_cli->iterations_option);
    printf("\n  LEARNING_RATE        finite and > 0, default %g\n",
           (double)default_learning_rate());
    for (int j = 0; chapter_cli && j < chapter_cli->option_count; j++) {
        const cli_option *o = &chapter_cli->options[j];
        char flag[64];
        snprintf(flag, sizeof flag, "%s %s", o->name, o->value_name);
        printf("  %-20s %s, %ld..%ld, default %ld\n", flag, o->help, o->low, o->high, o->value);
    }
    printf("  --train-limit N      train on the first N training images only\n"
           "  --csv FILE           write loss and train accuracy per %s\n"
           "  --weights-out FILE   write the final %s\n"
           "  --bench-out FILE     append one TSV row of timings and results\n"
           "  --predictions-out FILE  write the test-set predictions as TSV\n"
           "  --view               browse test digits with truth and prediction\n"
           "  --quiet              no progress lines\n"
           "  --check              run the first %d %s again on the host (%s)\n"
           "                       and compare; exit status 1 when they differ\n"
           "%s"
           "  --help               this text\n",
           chapter_cli && chapter_cli->iterations_name ? "epoch" : "iteration",
           chapter_cli && chapter_cli->model ? "parameters (little-endian float32)"
                                             : "W (10 x 785 little-endian float32)",
           CLI_CHECK_STEPS,
           chapter_cli && chapter_cli->iterations_name ? "mini-batch steps" : "iterations",
           chapter_cli && chapter_cli->check_reference ? chapter_cli->check_reference
                                                       : "chapter 00's code",
           gpu_options_enabled
               ? "  --kernel-times       per kernel: median ms and share of the iteration\n"
                 "  --kernel-times-out FILE  the same, as TSV\n"
                 "  --event-chunk N      epochs queued before the host waits for their\n"
                 "                       records, 1.." CLI_MAX_EVENT_CHUNK_TEXT "; default 256 on a GPU, 1 on the\n"
                 "                       CPU executor (a model that evaluates each epoch: 1)\n"
               : "");
}

static void usage_error(const char *format, const char *value)
{
    fprintf(stderr, "%s: ", program_name);
    fprintf(stderr, format, value);
    fprintf(stderr, "\n");
    exit(CLI_USAGE_STATUS);
}

static long parse_integer(const char *what, const char *text, long low, long high)
{
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || errno == ERANGE || value < low || value > high) {
        fprintf(stderr, "%s: %s must be an integer in %ld..%ld, got '%s'\n", program_name, what,
                low, high, text);
        exit(CLI_USAGE_STATUS);
    }
    return value;
}

static float parse_learning_rate(const char *text)
{
    char *end;
    errno = 0;
    double value = strtod(text, &end);
    if (*text == '\0' || *end != '\0')
        usage_error("LEARNING_RATE must be a number, got '%s'", text);
    if (!isfinite(value) || !isfinite((float)value) || value <= 0.0 || (float)value <= 0.0f)
        usage_error("LEARNING_RATE must be finite and > 0, got '%s'", text);
    return (float)value;
}

/* An output file must be creatable now, not after minutes of training:
 * its folder must exist and be writable, and the path must not be a folder.
 * `appends`: the file's old content is kept (--bench-out), so it must be
 * readable. */
static void check_output_path(const char *option, const char *path, int appends)
{
    if (*path == '\0') {
        fprintf(stderr, "%s: %s needs a file name\n", program_name, option);
        exit(CLI_USAGE_STATUS);
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s: %s %s: is a folder, not a file\n", program_name, option, path);
        exit(CLI_USAGE_STATUS);
    }
    char folder[PATH_MAX];
    const char *slash = strrchr(path, '/');
    if (!slash) {
        strcpy(folder, ".");
    } else if (slash == path) {
        strcpy(folder, "/");
    } else {
        size_t n = (size_t)(slash - path);
        if (n >= sizeof folder) n = sizeof folder - 1;
        memcpy(folder, path, n);
        folder[n] = '\0';
    }
    if (stat(folder, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s: %s %s: folder '%s' does not exist\n", program_name, option, path,
                folder);
        exit(CLI_USAGE_STATUS);
    }
    /* access(W_OK) says yes to root on every folder, even in /sys or on a
     * read-only file system. So do what the report will do at the end: create
     * PATH.tmp.PID (common/host/report.c writes there, then renames it over PATH),
     * and remove it again. */
    char probe[PATH_MAX + 32];
    int length = snprintf(probe, sizeof probe, "%s.tmp.%ld", path, (long)getpid());
    if (length < 0 || (size_t)length >= sizeof probe) {
        fprintf(stderr, "%s: %s: the path is too long (%zu characters)\n", program_name, option,
                strlen(path));
        exit(CLI_USAGE_STATUS);
    }
    int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    int created = fd >= 0;
    if (fd < 0 && errno == EEXIST) /* left by an earlier process with our PID: reused */
        fd = open(probe, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "%s: %s %s: folder '%s' is not writable (%s)\n", program_name, option,
                path, folder, strerror(errno));
        exit(CLI_USAGE_STATUS);
    }
    close(fd);
    if (created) unlink(probe);
    /* --bench-out copies the rows already there: a file it cannot read would
     * lose them, and one that is not its table (a file named by mistake) would
     * get a row of another table's columns. */
    if (appends && stat(path, &st) == 0) {
        FILE *old = fopen(path, "rb");
        if (!old) {
            fprintf(stderr, "%s: %s %s: cannot read the rows already there (%s)\n",
                    program_name, option, path, strerror(errno));
            exit(CLI_USAGE_STATUS);
        }
        char first[1024];
        int empty = !fgets(first, sizeof first, old);
        fclose(old);
        if (!empty && strcmp(first, report_bench_columns) != 0) {
            fprintf(stderr, "%s: %s %s: not a --bench-out table (its first line is not "
                    "chapter<TAB>platform<TAB>device...); name a new file or one it wrote\n",
                    program_name, option, path);
            exit(CLI_USAGE_STATUS);
        }
    }
}

/* The options getopt_long reads, by what it returns for each. */
enum {
    OPT_HELP = 'h',
    OPT_VIEW = 256,
    OPT_QUIET,
    OPT_CHECK,
    OPT_TRAIN_LIMIT,
    OPT_CSV,
    OPT_WEIGHTS_OUT,
    OPT_BENCH_OUT,
    OPT_PREDICTIONS_OUT,
    OPT_KERNEL_TIMES,
    OPT_KERNEL_TIMES_OUT,
    OPT_EVENT_CHUNK,
    OPT_ITERATIONS,
    OPT_CHAPTER /* OPT_CHAPTER + j: the chapter's option j */
};

static const struct option shared_options[] = {
    {"help", no_argument, NULL, OPT_HELP},
    {"view", no_argument, NULL, OPT_VIEW},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"check", no_argument, NULL, OPT_CHECK},
    {"train-limit", required_argument, NULL, OPT_TRAIN_LIMIT},
    {"csv", required_argument, NULL, OPT_CSV},
    {"weights-out", required_argument, NULL, OPT_WEIGHTS_OUT},
    {"bench-out", required_argument, NULL, OPT_BENCH_OUT},
    {"predictions-out", required_argument, NULL, OPT_PREDICTIONS_OUT},
    {"kernel-times", no_argument, NULL, OPT_KERNEL_TIMES},
    {"kernel-times-out", required_argument, NULL, OPT_KERNEL_TIMES_OUT},
    {"event-chunk", required_argument, NULL, OPT_EVENT_CHUNK},
};
#define SHARED_OPTIONS (int)(sizeof shared_options / sizeof shared_options[0])

/* The long option `name` (without its "--"), as getopt_long should see it.
 * A chapter's option names start with "--". */
static const char *long_name(const char *name)
{
    return strncmp(name, "--", 2) == 0 ? name + 2 : name;
}

/* getopt_long also takes an unambiguous prefix ("--quie") and the options
 * glued after "-h" ("-hv"): the command line takes neither, so `arg` must be
 * the option's full name, alone or followed by "=VALUE". */
static int names_option(const char *arg, const struct option *option)
{
    if (option->val == OPT_HELP && strcmp(arg, "-h") == 0) return 1;
    size_t n = strlen(option->name);
    return strncmp(arg, "--", 2) == 0 && strncmp(arg + 2, option->name, n) == 0 &&
           (arg[2 + n] == '\0' || arg[2 + n] == '=');
}

/* Edits (insert, delete, replace a character) that turn a[0..n) into
 * b[0..m): Levenshtein's distance, one row at a time. Names are short. */
static size_t edit_distance(const char *a, size_t n, const char *b, size_t m)
{
    size_t row[64];
    if (m >= sizeof row / sizeof row[0]) return (size_t)-1;
    for (size_t j = 0; j <= m; j++) row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t above = row[j];
            size_t best = diagonal + (a[i - 1] != b[j - 1]);
            if (above + 1 < best) best = above + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[m];
}

/* One line: the option that is not one, the closest that is (a typo: at
 * most a third of its letters off), and where the list is. */
static void unknown_option(const char *arg, const struct option *options, int count)
{
    const char *name = arg;
    while (*name == '-') name++;
    size_t length = strcspn(name, "=");
    const char *closest = NULL;
    size_t closest_edits = 0;
    for (int j = 0; j < count; j++) {
        size_t edits = edit_distance(name, length, options[j].name, strlen(options[j].name));
        if (!closest || edits < closest_edits) {
            closest = options[j].name;
            closest_edits = edits;
        }
    }
    if (closest && length > 0 && closest_edits * 3 <= strlen(closest))
        fprintf(stderr, "%s: unknown option '%s' (did you mean --%s? see --help)\n", program_name,
                arg, closest);
    else if (strncmp(name, "iter", 4) == 0 || strncmp(name, "epoch", 5) == 0) {
        /* the count is an argument, and make's setting has another name: say both */
        const char *option = chapter_cli ? chapter_cli->iterations_option : NULL;
        fprintf(stderr, "%s: unknown option '%s' (see --help)\n  give %s after DATASET_DIR%s%s%s; "
                "with make: %s=N\n", program_name, arg, iterations_name(), option ? " (or " : "",
                option ? option : "", option ? " N)" : "",
                strcmp(iterations_name(), "ITERATIONS") == 0 ? "ITERS" : iterations_name());
    }
    else
        fprintf(stderr, "%s: unknown option '%s' (see --help)\n", program_name, arg);
    exit(CLI_USAGE_STATUS);
}

/* DATASET_DIR, ITERATIONS, LEARNING_RATE: a fourth is too many. */
static void add_positional(const char *positional[3], int *count, const char *arg)
{
    if (*count == 3) {
        fprintf(stderr, "%s: too many arguments: '%s' (DATASET_DIR [%s [LEARNING_RATE]])\n",
                program_name, arg, iterations_name());
        exit(CLI_USAGE_STATUS);
    }
    positional[(*count)++] = arg;
}

/* getopt_long's table: the shared options, the chapter's ITERATIONS option
 * and its own, and a last entry of zeros; `count` receives the entries
 * before it. The caller frees it. */
static struct option *long_options_table(int *count)
{
    int chapter_options = chapter_cli ? chapter_cli->option_count : 0;
    struct option *table =
        (struct option *)calloc((size_t)(SHARED_OPTIONS + chapter_options + 2), sizeof *table);
    if (!table) fatal(1, "out of host memory for the command line");
    int n = 0;
    for (int j = 0; j < SHARED_OPTIONS; j++) table[n++] = shared_options[j];
    if (chapter_cli && chapter_cli->iterations_option)
        table[n++] = (struct option){long_name(chapter_cli->iterations_option), required_argument,
                                     NULL, OPT_ITERATIONS};
    for (int j = 0; j < chapter_options; j++)
        table[n++] = (struct option){long_name(chapter_cli->options[j].name), required_argument,
                                     NULL, OPT_CHAPTER + j};
    *count = n;
    return table;
}

/* One option getopt_long returned (`c`, its value in optarg), into opts.
 * Returns 1 when it was the chapter's ITERATIONS option. */
static int apply_option(int c, const char *chapter, options *opts)
{
    switch (c) {
    case OPT_HELP:
        cli_print_usage(program_name, chapter);
        exit(0);
    case OPT_VIEW: opts->view = 1; break;
    case OPT_QUIET: opts->quiet = 1; break;
    case OPT_CHECK: opts->check = 1; break;
    case OPT_TRAIN_LIMIT:
        opts->train_limit = parse_integer("--train-limit", optarg, 1, INT_MAX);
        break;
    case OPT_CSV: opts->csv_path = optarg; break;
    case OPT_WEIGHTS_OUT: opts->weights_path = optarg; break;
    case OPT_BENCH_OUT: opts->bench_path = optarg; break;
    case OPT_PREDICTIONS_OUT: opts->predictions_path = optarg; break;
    case OPT_KERNEL_TIMES: opts->kernel_times = 1; break;
    case OPT_KERNEL_TIMES_OUT:
        opts->kernel_times = 1;
        opts->kernel_times_path = optarg;
        break;
    case OPT_EVENT_CHUNK:
        opts->event_chunk = (int)parse_integer("--event-chunk", optarg, 1, CLI_MAX_EVENT_CHUNK);
        break;
    case OPT_ITERATIONS:
        opts->iterations = (int)parse_integer(chapter_cli->iterations_option, optarg, 1,
                                              CLI_MAX_ITERATIONS);
        return 1;
    default: { /* the chapter's own: range-checked, stored in its table */
        cli_option *o = &chapter_cli->options[c - OPT_CHAPTER];
        o->value = parse_integer(o->name, optarg, o->low, o->high);
        o->given = 1;
        break;
    }
    }
    return 0;
}

/* Every argument in order, options into opts and the rest into
 * positional[0..2]; returns how many positional arguments there were.
 * `iterations_by_option` receives whether the chapter's ITERATIONS option
 * was given. */
static int read_arguments(int argc, char **argv, const char *chapter, options *opts,
                          const char *positional[3], int *iterations_by_option)
{
    int count;
    struct option *long_options = long_options_table(&count);
    int positional_count = 0;
    *iterations_by_option = 0;
    /* "-": every argument in order, a positional one as 1 (no reordering, so
     * that the first bad argument is the one reported); ":": a missing value
     * as ':'. opterr = 0: the messages are the project's, below. optind = 0:
     * glibc starts over, for a second cli_parse in the same process. */
    opterr = 0;
    optind = 0;
    for (;;) {
        /* Where getopt_long starts: the next argument, whole (no short option
         * but -h, which exits, so it never stops inside one). */
        int first = optind == 0 ? 1 : optind;
        const char *arg = first < argc ? argv[first] : NULL;
        /* A negative number ("-5", "-0.1") is a positional argument, so that
         * its range check names it; "--" is not an option here. */
        if (arg && arg[0] == '-' && ((arg[1] >= '0' && arg[1] <= '9') || strcmp(arg, "--") == 0)) {
            if (arg[1] == '-') unknown_option(arg, long_options, count);
            optind = first + 1;
            add_positional(positional, &positional_count, arg);
            continue;
        }
        int c = getopt_long(argc, argv, "-:h", long_options, NULL);
        if (c == -1) break;
        if (c == 1) {
            add_positional(positional, &positional_count, optarg);
            continue;
        }
        const struct option *option = NULL;
        for (int j = 0; j < count && !option; j++)
            if (long_options[j].val == (c == ':' ? optopt : c)) option = &long_options[j];
        if (c == '?' || !option || !names_option(arg, option)) unknown_option(arg, long_options, count);
        if (c == ':') usage_error("%s needs a value", arg); /* arg: the option's full name */
        if (apply_option(c, chapter, opts)) *iterations_by_option = 1;
    }
    free(long_options);
    return positional_count;
}

/* DATASET_DIR [ITERATIONS [LEARNING_RATE]] into opts: the dataset folder
 * required, ITERATIONS not also given by the chapter's option. */
static void apply_positionals(const char *positional[3], int count, int iterations_by_option,
                              const char *chapter, options *opts)
{
    if (count == 0) {
        fprintf(stderr, "%s: missing DATASET_DIR\n", program_name);
        cli_print_usage(program_name, chapter);
        exit(CLI_USAGE_STATUS);
    }
    opts->dataset_dir = positional[0];
    if (count > 1 && iterations_by_option) {
        fprintf(stderr, "%s: %s given twice: '%s' and %s\n", program_name, iterations_name(),
                positional[1], chapter_cli->iterations_option);
        exit(CLI_USAGE_STATUS);
    }
    if (count > 1)
        opts->iterations = (int)parse_integer(iterations_name(), positional[1], 1,
                                              CLI_MAX_ITERATIONS);
    if (count > 2) opts->learning_rate = parse_learning_rate(positional[2]);
}

/* path's folder, resolved (symbolic links and ".." followed), into out; 0 if it does not
 * exist. check_output_path has made sure it does. */
static int resolved_folder(const char *path, char out[PATH_MAX])
{
    char folder[PATH_MAX];
    const char *slash = strrchr(path, '/');
    size_t n = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path);
    if (n >= sizeof folder) return 0;
    if (n == 0) strcpy(folder, ".");
    else {
        memcpy(folder, path, n);
        folder[n] = '\0';
    }
    return realpath(folder, out) != NULL;
}

/* An output path as one string to compare: its folder resolved, then its file name. */
static int resolved_output(const char *path, char out[PATH_MAX + NAME_MAX + 2])
{
    char folder[PATH_MAX];
    if (!resolved_folder(path, folder)) return 0;
    const char *slash = strrchr(path, '/');
    snprintf(out, PATH_MAX + NAME_MAX + 2, "%s/%s", folder, slash ? slash + 1 : path);
    return 1;
}

/* No output may land in the dataset folder (a file there is the data, or could be taken for
 * it: --csv DATA/train-labels-idx1-ubyte would replace the labels), and no two outputs may be
 * the same file (the second would overwrite the first). Refused before any training, naming
 * both. */
static void check_outputs_apart(const options *opts)
{
    const struct { const char *option, *path; } outputs[] = {
        {"--csv", opts->csv_path}, {"--weights-out", opts->weights_path}, {"--bench-out", opts->bench_path},
        {"--predictions-out", opts->predictions_path}, {"--kernel-times-out", opts->kernel_times_path},
    };
    enum { OUTPUTS = sizeof outputs / sizeof outputs[0] };
    char resolved[OUTPUTS][PATH_MAX + NAME_MAX + 2], data[PATH_MAX];
    int have_data = opts->dataset_dir && realpath(opts->dataset_dir, data) != NULL;
    size_t data_length = have_data ? strlen(data) : 0;
    for (int i = 0; i < OUTPUTS; i++) {
        if (!outputs[i].path || !resolved_output(outputs[i].path, resolved[i])) continue;
        if (have_data && strncmp(resolved[i], data, data_length) == 0 && resolved[i][data_length] == '/') {
            fprintf(stderr, "%s: %s %s: is inside the dataset folder %s; write it elsewhere\n", program_name,
                    outputs[i].option, outputs[i].path, opts->dataset_dir);
            exit(CLI_USAGE_STATUS);
        }
        for (int j = 0; j < i; j++)
            if (outputs[j].path && strcmp(resolved[i], resolved[j]) == 0) {
                fprintf(stderr, "%s: %s %s and %s %s: the same file; give each its own\n", program_name,
                        outputs[j].option, outputs[j].path, outputs[i].option, outputs[i].path);
                exit(CLI_USAGE_STATUS);
            }
    }
}

/* Before any training: every output file writable, none in the dataset folder, no two the
 * same, and the GPU options refused by a trainer that runs no kernels. */
static void check_outputs(const options *opts)
{
    check_outputs_apart(opts);
    if (opts->csv_path) check_output_path("--csv", opts->csv_path, 0);
    if (opts->weights_path) check_output_path("--weights-out", opts->weights_path, 0);
    if (opts->bench_path) check_output_path("--bench-out", opts->bench_path, 1);
    if (opts->predictions_path) check_output_path("--predictions-out", opts->predictions_path, 0);
    const char *gpu_option = opts->kernel_times ? "--kernel-times"
                             : opts->event_chunk ? "--event-chunk" : NULL;
    if (gpu_option && !gpu_options_enabled) {
        fprintf(stderr, "%s: %s: this trainer runs no GPU kernels (plain C); "
                "use it with a GPU chapter, 01 on\n", program_name, gpu_option);
        exit(CLI_USAGE_STATUS);
    }
    if (opts->kernel_times_path) check_output_path("--kernel-times-out", opts->kernel_times_path, 0);
}

void cli_parse(int argc, char **argv, const char *chapter, options *opts)
{
    const char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;
    program_name = slash ? slash + 1 : (argc > 0 ? argv[0] : "train");

    memset(opts, 0, sizeof *opts);
    opts->iterations = default_iterations();
    opts->learning_rate = default_learning_rate();
    const char *positional[3];
    int iterations_by_option;
    int count = read_arguments(argc, argv, chapter, opts, positional, &iterations_by_option);
    apply_positionals(positional, count, iterations_by_option, chapter, opts);
    check_outputs(opts);
}
