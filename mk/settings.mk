# The settings a reader gives (make chapter-3 ITERS=20), each with its meaning
# after the #: make help lists them with their values. Included first by the Makefile.
# A folder or file the user names reaches the shell in many recipes: one that would read as code there
# (a ';', a quote, a '$', a space, a backquote, a leading '-') is refused before anything runs, naming
# the characters allowed, as FILE= is (mk/profile.mk). Its raw text is checked, unexpanded, before
# anything here expands it (a $(shell ...) in it would run).
USER_PATHS := DATASET_DIR COMPARE_DIR PLOTS_DIR PLOTS_WORK RESOURCE_TSV KERNEL_TIMES FUZZ_LOG VALIDATE_REPORT
unsafe_path = $(filter-out 0,$(shell printf '%s' '$(subst ','\'',$(1))' | LC_ALL=C grep -c '^-\|[^][A-Za-z0-9._/+,@=~-]'))
$(foreach v,$(USER_PATHS),$(if $(filter command line environment,$(origin $(v))),$(if $(call unsafe_path,$(value $(v))),$(error \
  $(v)=$(value $(v)): a path of letters, digits and . _ / + , @ = ~ - (a - not first); rename it or use another))))
HIP_PLATFORM ?=# amd (hipcc), nvidia (nvcc) or cpu (the CPU executor); unset: the one this machine has
ITERS ?=# iterations per run (chapter-N, compare); unset: 100; on the CPU executor 10 (a GPU chapter) or 2 (compare)
EPOCHS ?=# chapter 09's epochs (chapter-9); unset: 10, or 2 on the CPU executor
LR ?=# learning rate; unset: the chapter's own: 0.01, or 0.005 on Fashion-MNIST, where 0.01 diverges
ARGS ?=# extra trainer options for chapter-N, e.g. ARGS="--train-limit 1000 --view" or ARGS=--kernel-times
DATASET ?= mnist# mnist (the digits) or fashion (Fashion-MNIST)
DATASET_DIR ?= $(if $(filter fashion,$(DATASET)),dataset/fashion,dataset)# the dataset's folder
GPU_ARCH ?= gfx906# the AMD target (--offload-arch)
AMD_WAVE ?= $(if $(filter gfx10% gfx11% gfx12%,$(GPU_ARCH)),32,64)# its wave size, which hipcc's host pass cannot see
NV_ARCH ?= sm_90# the NVIDIA target (-arch)
WAVE ?= 64# the CPU executor's wave size: 64 (as gfx906) or 32
TRACE ?=# 1: the CPU executor's trace build (make profile-N and racecheck-N set it)
SANITIZE ?=# e.g. address,undefined: the host code and the CPU executor builds under sanitizers
V ?=# 1: print each compile and link command in full; unset: one short line a file
HIPCC ?= hipcc# the AMD compiler
NVCC ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))# the NVIDIA compiler
VALIDATE_IMAGES ?= 16384# make validate-chapters: images each chapter is profiled on (16384, or 60000: full MNIST)
VALIDATE_REPORT ?= plots/gpu-reports/2026-11-28-h200# make validate-chapters: the kept GPU report it compares with
RACECHECK_IMAGES ?=# make racecheck-N: images; unset: 1037 and 10007 (two runs), or 1037 for chapter 09 (its epochs also run the 10,000 test images)
RACECHECK_ITERS ?= 2# make racecheck-N: iterations
SAMPLE ?=# make profile (FILE= or -N): trace about N blocks of each bigger launch, counts scaled to the grid; unset: every block
RESOURCE_TSV ?= build/resources/resources.tsv# make resources' table
ISA_DIR ?= build/isa# make isa-N's folder
REPEATS ?= $(if $(filter cpu,$(HIP_PLATFORM)),1,3)# make compare: runs per chapter (median, spread); unset: 3, 1 on the executor
COMPARE_LIMIT ?=# make compare: --train-limit (empty: all 60,000 images)
PLOT_LIMIT ?=# make plots: --train-limit (empty: all)
COMPARE_CHAPTERS ?= $(LINEAR_CHAPTERS)# make compare's chapters; unset: 00 to 08, which train the same model (09 trains a bigger one, by epochs)
KERNEL_TIMES ?=# make compare: a TSV file for each GPU chapter's --kernel-times medians
COMPARE_DIR ?= build/compare# make compare's table and charts
COMPARE_EXECUTOR ?=# make compare on the CPU executor: 1 also times each chapter on the executor itself (a correctness tool's ms, not a GPU's); unset: the time model only
COMPARE_SLICES ?= $(if $(ON_EXECUTOR),2048 4096)# make compare on the executor: trace two slices and extend each count in a straight line to the compared size; empty: trace the full size (make figures)
export COMPARE_SLICES
GPU_REPORT_DIR ?= build/gpu-report# make gpu-report's folder (new or empty: nothing in it is overwritten)
GPU_REPORT_ARGS ?=# make gpu-report's options (common/scripts/gpu_report.sh), e.g. --limit 200 --iters 2
DIR ?=# make gpu-import: the make gpu-report folder to fold in
GPU_IMPORT_ARGS ?=# make gpu-import's options: --allow-executor folds in a report made on the CPU executor
PLOTS_DIR ?= build/plots# make plots' charts
PLOT_CHAPTER ?= $(if $(filter cpu,$(HIP_PLATFORM)),00,08)# make plots' chapter
PLOT_ITERS ?= $(if $(filter cpu,$(HIP_PLATFORM)),200,300)# make plots' iterations
PLOTS_WORK ?= build/plots/work# make plots: a folder per run (run.XXXXXX) of the trainer's CSV, predictions and weights
FORMAT ?= png# the charts: png or svg
README_TABLE_TSV ?= plots/compare.tsv# make readme-table's data
README_FILE ?= README.md# the file make readme-table rewrites
FORCE_REWRITE ?=# make figures, readme-table, readme-figures, gpu-import: 1 rewrites tracked files that hold changes not committed (refused otherwise)
export FORCE_REWRITE
TUNE_ITERS ?= $(if $(filter cpu,$(HIP_PLATFORM)),6,50)# make tune: iterations per run, 3 of them warm-up
TUNE_LIMIT ?= $(if $(filter cpu,$(HIP_PLATFORM)),300,)# make tune: images (empty: all)
TUNE_SETS ?=# make tune: BLOCKS_PER_CU:FWD_UNROLL:GRAD_UNROLL[:TILE_IMAGES] ...; empty: tune.sh's list
FUZZ_SECONDS ?= 60# make fuzz's run
TEST_FUZZ_SECONDS ?= 20# make test's fuzzing, short so that the suite stays under 10 minutes
FUZZ_LOG ?= build/fuzz.log# libFuzzer's output

$(if $(filter mnist fashion,$(DATASET)),,$(error DATASET must be mnist or fashion, not '$(DATASET)'))
$(if $(strip $(DATASET_DIR)),,$(error DATASET_DIR is empty: leave it unset for dataset/ (dataset/fashion/ with DATASET=fashion), or name a folder))
$(if $(filter 32 64,$(WAVE)),,$(error WAVE must be 32 or 64, not '$(WAVE)'))
ISSUE ?=# make validate-heldout: the issue whose one reading of the held-out half this is
