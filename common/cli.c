#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
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

static int kernel_times_enabled;
void cli_enable_kernel_times(void) { kernel_times_enabled = 1; }

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
           kernel_times_enabled
               ? "  --kernel-times       per kernel: median ms and share of the iteration\n"
                 "  --kernel-times-out FILE  the same, as TSV\n"
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
     * PATH.tmp.PID (common/report.c writes there, then renames it over PATH),
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
     * lose them. */
    if (appends && stat(path, &st) == 0) {
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            fprintf(stderr, "%s: %s %s: cannot read the rows already there (%s)\n",
                    program_name, option, path, strerror(errno));
            exit(CLI_USAGE_STATUS);
        }
        close(fd);
    }
}

/* Matches "--name VALUE" and "--name=VALUE"; returns the value or NULL. */
static const char *option_value(const char *name, int argc, char **argv, int *i)
{
    size_t n = strlen(name);
    const char *arg = argv[*i];
    if (strncmp(arg, name, n) != 0) return NULL;
    if (arg[n] == '=') return arg + n + 1;
    if (arg[n] != '\0') return NULL;
    if (*i + 1 >= argc) usage_error("%s needs a value", name);
    return argv[++*i];
}

/* One of the registered chapter's own options: parsed, range-checked, stored. */
static int chapter_option(int argc, char **argv, int *i)
{
    for (int j = 0; chapter_cli && j < chapter_cli->option_count; j++) {
        cli_option *o = &chapter_cli->options[j];
        const char *value = option_value(o->name, argc, argv, i);
        if (value) {
            o->value = parse_integer(o->name, value, o->low, o->high);
            o->given = 1;
            return 1;
        }
    }
    return 0;
}

void cli_parse(int argc, char **argv, const char *chapter, options *opts)
{
    const char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;
    program_name = slash ? slash + 1 : (argc > 0 ? argv[0] : "train");

    memset(opts, 0, sizeof *opts);
    opts->iterations = default_iterations();
    opts->learning_rate = default_learning_rate();
    int iterations_by_option = 0;

    const char *positional[3];
    int positional_count = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            cli_print_usage(program_name, chapter);
            exit(0);
        } else if (strcmp(arg, "--view") == 0) {
            opts->view = 1;
        } else if (strcmp(arg, "--quiet") == 0) {
            opts->quiet = 1;
        } else if (strcmp(arg, "--check") == 0) {
            opts->check = 1;
        } else if ((value = option_value("--train-limit", argc, argv, &i))) {
            opts->train_limit = parse_integer("--train-limit", value, 1, INT_MAX);
        } else if ((value = option_value("--csv", argc, argv, &i))) {
            opts->csv_path = value;
        } else if ((value = option_value("--weights-out", argc, argv, &i))) {
            opts->weights_path = value;
        } else if ((value = option_value("--bench-out", argc, argv, &i))) {
            opts->bench_path = value;
        } else if ((value = option_value("--predictions-out", argc, argv, &i))) {
            opts->predictions_path = value;
        } else if (strcmp(arg, "--kernel-times") == 0) {
            opts->kernel_times = 1;
        } else if ((value = option_value("--kernel-times-out", argc, argv, &i))) {
            opts->kernel_times = 1;
            opts->kernel_times_path = value;
        } else if (chapter_cli && chapter_cli->iterations_option &&
                   (value = option_value(chapter_cli->iterations_option, argc, argv, &i))) {
            opts->iterations = (int)parse_integer(chapter_cli->iterations_option, value, 1,
                                                  CLI_MAX_ITERATIONS);
            iterations_by_option = 1;
        } else if (chapter_option(argc, argv, &i)) {
            /* stored in the chapter's table */
        } else if (arg[0] == '-' && arg[1] != '\0' && !(arg[1] >= '0' && arg[1] <= '9')) {
            fprintf(stderr, "%s: unknown option '%s'\n", program_name, arg);
            cli_print_usage(program_name, chapter);
            exit(CLI_USAGE_STATUS);
        } else if (positional_count < 3) {
            positional[positional_count++] = arg;
        } else {
            fprintf(stderr, "%s: too many arguments: '%s' (DATASET_DIR [%s [LEARNING_RATE]])\n",
                    program_name, arg, iterations_name());
            exit(CLI_USAGE_STATUS);
        }
    }
    if (positional_count == 0) {
        fprintf(stderr, "%s: missing DATASET_DIR\n", program_name);
        cli_print_usage(program_name, chapter);
        exit(CLI_USAGE_STATUS);
    }
    opts->dataset_dir = positional[0];
    if (positional_count > 1 && iterations_by_option) {
        fprintf(stderr, "%s: %s given twice: '%s' and %s\n", program_name, iterations_name(),
                positional[1], chapter_cli->iterations_option);
        exit(CLI_USAGE_STATUS);
    }
    if (positional_count > 1)
        opts->iterations = (int)parse_integer(iterations_name(), positional[1], 1,
                                              CLI_MAX_ITERATIONS);
    if (positional_count > 2) opts->learning_rate = parse_learning_rate(positional[2]);

    if (opts->csv_path) check_output_path("--csv", opts->csv_path, 0);
    if (opts->weights_path) check_output_path("--weights-out", opts->weights_path, 0);
    if (opts->bench_path) check_output_path("--bench-out", opts->bench_path, 1);
    if (opts->predictions_path) check_output_path("--predictions-out", opts->predictions_path, 0);
    if (opts->kernel_times && !kernel_times_enabled) {
        fprintf(stderr, "%s: --kernel-times: this trainer runs no GPU kernels (plain C); "
                "use it with a GPU chapter, 01 on\n", program_name);
        exit(CLI_USAGE_STATUS);
    }
    if (opts->kernel_times_path) check_output_path("--kernel-times-out", opts->kernel_times_path, 0);
}
