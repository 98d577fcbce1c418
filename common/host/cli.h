/* The command line every chapter shares:
 *   train DATASET_DIR [ITERATIONS [LEARNING_RATE]] [options] */
#ifndef COMMON_CLI_H
#define COMMON_CLI_H

#ifdef __cplusplus
extern "C" {
#endif

#define CLI_DEFAULT_ITERATIONS 100
#define CLI_DEFAULT_LEARNING_RATE 0.01f
#define CLI_MAX_ITERATIONS 1000000
#define CLI_USAGE_STATUS 2 /* exit status for a bad command line */
/* --check: the iterations (or mini-batch steps) run again on the host and
 * compared, and the largest relative difference accepted (tests/compare_runs.c's) */
#define CLI_CHECK_STEPS 5
#define CLI_CHECK_LIMIT 1e-4
#define CLI_CHECK_LIMIT_TEXT "1e-4"
/* --event-chunk: the most epochs a GPU trainer queues before it waits */
#define CLI_MAX_EVENT_CHUNK 1024
#define CLI_MAX_EVENT_CHUNK_TEXT "1024"

typedef struct {
    const char *dataset_dir;
    int iterations;
    float learning_rate;
    long train_limit;            /* 0: use every training image */
    const char *csv_path;        /* per-iteration loss and train accuracy */
    const char *weights_path;    /* final W, 10 x 785 little-endian float32 */
    const char *bench_path;      /* one TSV row appended per run */
    const char *predictions_path;/* test-set predictions, one TSV row per image */
    int view;                    /* interactive digit viewer after training */
    int quiet;                   /* no progress lines */
    int check;                   /* --check: the first iterations against the CPU reference */
    int kernel_times;            /* --kernel-times: per-kernel medians (GPU trainers) */
    const char *kernel_times_path; /* --kernel-times-out: the same as TSV */
    int event_chunk;             /* --event-chunk: epochs per host wait (GPU trainers); 0: the platform's */
} options;

/* A chapter's own integer option, e.g. "--hidden N" (see cli_chapter). */
typedef struct {
    const char *name;       /* "--hidden" */
    const char *value_name; /* "N", for the usage */
    const char *help;       /* "units in the hidden layer" */
    long low, high;         /* the accepted range, inclusive */
    long value;             /* the default; cli_parse stores the value given */
    int given;              /* set by cli_parse when the option was given */
} cli_option;

/* What a chapter with a different model changes in the shared command line.
 * Any field left 0 or NULL keeps the linear chapters' behaviour. */
typedef struct {
    const char *model;             /* usage: "Trains chapter C's MODEL." */
    const char *iterations_name;   /* the positional ITERATIONS, e.g. "EPOCHS" */
    const char *iterations_option; /* an option that sets it by name, e.g. "--epochs" */
    int default_iterations;
    float default_learning_rate;
    const char *check_reference; /* what --check runs, e.g. "chapter 09's CPU reference" */
    cli_option *options; /* the chapter's own integer options */
    int option_count;
} cli_chapter;

/* Registers a chapter's command line for the cli_parse (and session_begin)
 * that follow; NULL restores the linear chapters' one. Not thread-safe: call
 * it first thing in main. */
void cli_set_chapter(cli_chapter *chapter);

/* Called by the GPU harness before cli_parse: its trainers launch
 * kernels, so --kernel-times and --event-chunk mean something there.
 * Elsewhere each is an error that says why. */
void cli_enable_gpu_options(void);

/* Parses argv into opts. On --help prints the usage and exits 0; on a bad
 * value or unknown option prints a message naming it (and the usage for an
 * unknown option) and exits with CLI_USAGE_STATUS. Checks that every output
 * file can be created, before any training starts. */
void cli_parse(int argc, char **argv, const char *chapter, options *opts);

void cli_print_usage(const char *program, const char *chapter);

#ifdef __cplusplus
}
#endif
#endif
