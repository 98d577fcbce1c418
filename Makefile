# A GPU programming tutorial in C and HIP. `make help` lists the targets (their ## notes) and
# settings (their comments). Top to bottom: settings, compilers, the one chapter rule, targets, tests.

# ---- Settings: make chapter-3 ITERS=20 HIP_PLATFORM=cpu ---------------------
HIP_PLATFORM ?=# amd (hipcc), nvidia (nvcc) or cpu (the CPU executor); unset: detected
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
HIPCC ?= hipcc# the AMD compiler
NVCC ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))# the NVIDIA compiler
RACECHECK_IMAGES ?=# make racecheck-N: images; unset: 10007, or 1037 for chapter 09 (its epochs also run the 10,000 test images)
RACECHECK_ITERS ?= 2# make racecheck-N: iterations
SAMPLE ?=# make profile (FILE= or -N): trace about N blocks of each bigger launch, counts scaled to the grid; unset: every block
RESOURCE_TSV ?= build/resources/resources.tsv# make resources' table
ISA_DIR ?= build/isa# make isa-N's folder
REPEATS ?= $(if $(filter cpu,$(HIP_PLATFORM)),1,3)# make compare: runs per chapter (median, spread); unset: 3, 1 on the executor
COMPARE_LIMIT ?=# make compare: --train-limit (empty: all 60,000 images)
PLOT_LIMIT ?=# make plots: --train-limit (empty: all)
COMPARE_CHAPTERS ?= $(LINEAR_CHAPTERS)# make compare's chapters: the linear model's (09 on train another, per epoch)
KERNEL_TIMES ?=# make compare: a TSV file for each GPU chapter's --kernel-times medians
COMPARE_DIR ?= build/compare# make compare's table and charts
GPU_REPORT_DIR ?= build/gpu-report# make gpu-report's folder (new or empty: nothing in it is overwritten)
GPU_REPORT_ARGS ?=# make gpu-report's options (common/scripts/gpu_report.sh), e.g. --limit 200 --iters 2
DIR ?=# make gpu-import: the make gpu-report folder to fold in
PLOTS_DIR ?= build/plots# make plots' charts
PLOT_CHAPTER ?= $(if $(filter cpu,$(HIP_PLATFORM)),00,08)# make plots' chapter
PLOT_ITERS ?= $(if $(filter cpu,$(HIP_PLATFORM)),200,300)# make plots' iterations
PLOTS_WORK ?= build/plots/work# make plots: the trainer's CSV, predictions and weights
FORMAT ?= png# the charts: png or svg
README_TABLE_TSV ?= plots/compare.tsv# make readme-table's data
README_FILE ?= README.md# the file make readme-table rewrites
TUNE_ITERS ?= $(if $(filter cpu,$(HIP_PLATFORM)),6,50)# make tune: iterations per run, 3 of them warm-up
TUNE_LIMIT ?= $(if $(filter cpu,$(HIP_PLATFORM)),300,)# make tune: images (empty: all)
TUNE_SETS ?=# make tune: BLOCKS_PER_CU:FWD_UNROLL:GRAD_UNROLL[:TILE_IMAGES] ...; empty: tune.sh's list
FUZZ_SECONDS ?= 60# make fuzz's run
TEST_FUZZ_SECONDS ?= 20# make test's fuzzing, short so that the suite stays under 10 minutes
FUZZ_LOG ?= build/fuzz.log# libFuzzer's output

$(if $(filter mnist fashion,$(DATASET)),,$(error DATASET must be mnist or fashion, not '$(DATASET)'))
$(if $(strip $(DATASET_DIR)),,$(error DATASET_DIR is empty: leave it unset for dataset/ (dataset/fashion/ with DATASET=fashion), or name a folder))
$(if $(filter 32 64,$(WAVE)),,$(error WAVE must be 32 or 64, not '$(WAVE)'))
# The platform chosen here (on the command line, from the environment, or detected) reaches every sub-make
# (chapter-N's build, make compare's, tune.sh's) as if given on the command line: HIP_PLATFORM is unexported
# below, so a sub-make would otherwise detect again and look for another platform's build (issue 22).
ifneq ($(origin HIP_PLATFORM),command line)
PASS_PLATFORM := 1
endif
ifeq ($(HIP_PLATFORM),)
override HIP_PLATFORM := $(shell common/scripts/detect_platform.sh)
PLATFORM_NOTE := $(if $(filter cpu,$(HIP_PLATFORM)),no GPU found (or no ROCm/CUDA toolkit): using the CPU executor; set HIP_PLATFORM=amd|nvidia to choose)
endif
$(if $(filter amd nvidia cpu,$(HIP_PLATFORM)),,$(error HIP_PLATFORM must be amd, nvidia or cpu, not '$(HIP_PLATFORM)'))
unexport HIP_PLATFORM # hipcc reads it, and knows nothing of "cpu"
ifneq ($(PASS_PLATFORM),)
MAKEOVERRIDES += HIP_PLATFORM=$(HIP_PLATFORM)
endif
MAKEFLAGS += --no-builtin-rules
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:
.SECONDARY:
.SECONDEXPANSION:

CHAPTERS := $(sort $(notdir $(wildcard chapters/[0-9][0-9]-*)))
GPU_CHAPTERS := $(filter-out 00-%,$(CHAPTERS))
LINEAR_CHAPTERS := $(filter $(addsuffix -%,00 01 02 03 04 05 06 07 08),$(CHAPTERS))# 09 on: extensions, other models
# chapter-1, chapter-01 and chapter-01-naive-gemm all name chapters/01-naive-gemm
chapter_dir = $(firstword $(filter $(if $(filter 0 1 2 3 4 5 6 7 8 9,$(1)),0$(1),$(1))-%,$(CHAPTERS)) $(filter $(1),$(CHAPTERS)))
no_chapter = $(if $(CHAPTER),,echo "no chapter '$*'; chapters: $(CHAPTERS)" >&2; exit 2)
comma := ,
# A view (make help, make diff-N) whose reader's pipe closes early (| head) ends by SIGPIPE, status 141: not an error
PIPE_CLOSED_OK = || [ $$? -eq 141 ]
# Only make dataset creates DATASET_DIR: for any other target a folder that is not there is taken for a typo
# (DATASET_DIR=datset), and nothing is fetched.
quote = '$(subst ','\'',$(1))'
DATASET_DIR_CHECK = if [ ! -e $(call quote,$(DATASET_DIR)) ] && [ ! -L $(call quote,$(DATASET_DIR)) ]; then \
  echo $(call quote,DATASET_DIR=$(DATASET_DIR): no such folder; nothing was fetched. To create it and fetch \
  $(if $(filter fashion,$(DATASET)),Fashion-MNIST,MNIST) into it: make dataset$(if $(filter fashion,$(DATASET)), DATASET=fashion) \
  DATASET_DIR=$(DATASET_DIR)) >&2; exit 2; fi;
FETCH = DATASET=$(DATASET) bash dataset/fetch.sh $(call quote,$(DATASET_DIR))
FETCH_DATASET = $(DATASET_DIR_CHECK) $(FETCH)
ON_EXECUTOR := $(filter cpu,$(HIP_PLATFORM))
$(if $(and $(PLATFORM_NOTE),$(filter chapter-% compare plots tune,$(MAKECMDGOALS))),$(info note: $(PLATFORM_NOTE)))
LINEAR_LR = $(or $(LR),$(if $(filter fashion,$(DATASET)),0.005,0.01))

# ---- Compilers: how each platform compiles a .hip file and links a trainer --
ifneq ($(TRACE),)
override SANITIZE := # the trace build's own checks are the point
endif
SAN_FLAGS := $(if $(SANITIZE),-fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all)
SAN_SUFFIX := $(if $(SANITIZE),-san)
WAVE_SUFFIX := $(if $(filter 32,$(WAVE)),-wave32)
CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Wpedantic $(SAN_FLAGS)
CXXFLAGS := -std=c++17 -O2 -g -Wall -Wextra $(SAN_FLAGS)
LDLIBS := -lm
HIPCCFLAGS := -O3 -std=c++17 --offload-arch=$(GPU_ARCH) -DHIP_WAVE_SIZE=$(AMD_WAVE)
NVCCFLAGS := -O3 -std=c++17 -arch=$(NV_ARCH) -Xcompiler -Wall
# common/'s folders on the include path (common/include_dirs: the one list, the scripts read it too)
COMMON_INCLUDES := $(addprefix -I,$(file < common/include_dirs))
# Each object's own header dependencies (-MMD -MP, into OBJECT.dep beside it; read at the end),
# written under another name and renamed once whole: a make run beside a compile never reads half of one
DEPFLAGS = -MMD -MP -MF $@.dep.tmp -MT $@
DEP_COMMIT = mv -f $@.dep.tmp $@.dep
EXECUTOR_FLAGS := -Wno-unknown-pragmas -DHIPCPU_WAVE_SIZE=$(WAVE) -x c++ -Icommon/cpu $(COMMON_INCLUDES)
CPU_BUILD := build/cpu$(WAVE_SUFFIX)$(SAN_SUFFIX)
TRACE_BUILD := build/trace$(WAVE_SUFFIX)
ifeq ($(HIP_PLATFORM)$(TRACE),cpu)
BUILD := $(CPU_BUILD)
HIP_COMPILE = $(CXX) $(CXXFLAGS) $(EXECUTOR_FLAGS)
HIP_LINK = $(CXX) $(CXXFLAGS)
EXECUTOR := $(BUILD)/executor.o
else ifeq ($(HIP_PLATFORM),cpu)
# The trace build (common/cpu/README.md): a call to the executor before every load and store, no
# auto-vectorisation, so the counts are the accesses the source asks for (ASan's pass: for memcpy).
BUILD := $(TRACE_BUILD)
HIP_COMPILE = clang++ -std=c++17 -O2 -g -gdwarf-4 -Wall -Wextra -DHIPCPU_TRACE=1 $(EXECUTOR_FLAGS)
INSTRUMENT := -fno-vectorize -fno-slp-vectorize -fno-unroll-loops -fsanitize-coverage=bb,no-prune,trace-pc-guard,trace-loads,trace-stores \
  $(addprefix -mllvm -asan-,instrument-reads=0 instrument-writes=0 instrument-atomics=0 instrument-byval=0 globals=0 stack=0 \
    use-after-return=never use-after-scope=0) -fsanitize=address -fno-sanitize-address-use-odr-indicator
HIP_LINK = clang++
EXECUTOR := $(BUILD)/executor.o
PLATFORM_TOOLS := clang-tools
else ifeq ($(HIP_PLATFORM),amd)
BUILD := build/amd-$(GPU_ARCH)
HIP_COMPILE = HIP_PLATFORM=amd $(HIPCC) $(HIPCCFLAGS) $(COMMON_INCLUDES)
HIP_LINK = HIP_PLATFORM=amd $(HIPCC) $(HIPCCFLAGS)
PLATFORM_TOOLS := hip-tools no-sanitizer
else
BUILD := build/nvidia
HIP_COMPILE = $(NVCC) $(NVCCFLAGS) -x cu -Icommon/gpu/nvidia $(COMMON_INCLUDES)
HIP_LINK = $(NVCC) $(NVCCFLAGS)
PLATFORM_TOOLS := nvcc-tool no-sanitizer
endif

# ---- One rule for every chapter, on every platform --------------------------
# A chapter is chapters/NN-name/train.c or train.hip compiled for the platform, linked with its
# harness and the host library (common/**/*.c: the linker takes what it needs), all under BUILD.
# Unless named here, a chapter is a GPU chapter of the linear model: the linear harness, with
# chapter 00's training step for --check; ITERS iterations at LR.
HOST_LIB := $(BUILD)/libhost.a
GPU_HARNESS = $(BUILD)/common/gpu/harness.o $(BUILD)/common/gpu/gpu_runtime.o $(EXECUTOR) # main(), for either model
HARNESS = $(BUILD)/common/linear/gpu_trainer.o $(GPU_HARNESS) $(BUILD)/reference_step.o
HARNESS_00-cpu-reference := # plain C on every platform, linked by the C compiler
LINK_00-cpu-reference = $(CC) $(CFLAGS)
HARNESS_09-hidden-layer = $(BUILD)/common/mlp/mlp_trainer.o $(GPU_HARNESS) # the MLP extension: epochs, its own LR
RUN_ARGS_09-hidden-layer = $(or $(EPOCHS),$(if $(ON_EXECUTOR),2,10)) $(LR)
PROFILE_ARGS_09-hidden-layer := --train-limit 1000 # make profile-9: a traced epoch of 60,000 images takes minutes
harness = $(if $(filter undefined,$(origin HARNESS_$(1))),$(HARNESS),$(HARNESS_$(1)))
# chapters the tests and make tune derive from others (common/scripts/derive_chapter.sh), built alike
DERIVED := 01-wrong-gradient 08-missing-barrier broken_kernel $(filter 08-tune-%,$(notdir $(MAKECMDGOALS)))

$(addprefix $(BUILD)/,$(CHAPTERS) $(DERIVED)): $(BUILD)/%: $(BUILD)/chapters/%/train.o $$(call harness,$$*) $(HOST_LIB) | $(PLATFORM_TOOLS)
	$(or $(LINK_$*),$(HIP_LINK)) $^ $(LDLIBS) -o $@
REFERENCES := $(patsubst chapters/%/reference.c,$(BUILD)/%-reference,$(wildcard chapters/*/reference.c))
$(REFERENCES): $(BUILD)/%-reference: $(BUILD)/chapters/%/reference.o $(HOST_LIB) # a chapter's own CPU reference (09's)
	$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@
$(BUILD)/%.o: %.hip | $(PLATFORM_TOOLS)
	@mkdir -p $(@D)
	$(HIP_COMPILE) $(DEPFLAGS) $(if $(filter chapters/%,$<),$(INSTRUMENT)) -c $< -o $@ && $(DEP_COMMIT)
$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) $(COMMON_INCLUDES) -c $< -o $@ && $(DEP_COMMIT)
$(HOST_LIB): $(patsubst %.c,$(BUILD)/%.o,$(wildcard common/*.c common/*/*.c) common/cpu/model/model.c)
	$(AR) rcs $@ $^
$(BUILD)/reference_step.o: chapters/00-cpu-reference/train.c # without its main, for --check
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) -DCPU_REFERENCE_STEP_ONLY $(COMMON_INCLUDES) -c $< -o $@ && $(DEP_COMMIT)
GENERATED := build/generated/chapters
$(DERIVED:%=$(GENERATED)/%/train.hip): $(GENERATED)/%/train.hip: common/scripts/derive_chapter.sh $(wildcard chapters/*/train.hip) tests/broken_kernel.hip
	bash common/scripts/derive_chapter.sh $* $@
$(BUILD)/chapters/%.o: $(GENERATED)/%.hip | $(PLATFORM_TOOLS)
	@mkdir -p $(@D)
	$(HIP_COMPILE) $(DEPFLAGS) $(INSTRUMENT) -c $< -o $@ && $(DEP_COMMIT)
EXECUTOR_PARTS = $(foreach file,$(filter %.cpp,$^),$(@D)/executor-$(notdir $(file:.cpp=.o)))
$(BUILD)/executor.o: common/cpu/hipcpu.cpp $(if $(TRACE),$(wildcard common/cpu/trace/trace*.cpp)) $(wildcard common/cpu/fiber_$(shell uname -m).S)
	@mkdir -p $(@D)
	$(foreach file,$(filter %.cpp,$^),$(HIP_COMPILE) -MMD -MP -MF $@.$(notdir $(file)).dep.tmp -MT $@ -c $(file) \
	  -o $(@D)/executor-$(notdir $(file:.cpp=.o)) && mv -f $@.$(notdir $(file)).dep.tmp $@.$(notdir $(file)).dep &&) true
	$(foreach file,$(filter %.S,$^),$(CC) $(SAN_FLAGS) -c $(file) -o $(@D)/fiber.o)
	ld -r $(EXECUTOR_PARTS) $(if $(filter %.S,$^),$(@D)/fiber.o) -o $@

# The time model's program (common/cpu/model/): host C, the same on every platform
TIMEMODEL := build/tools/timemodel
$(TIMEMODEL): common/cpu/model/timemodel.c common/cpu/model/model.c common/cpu/model/model.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(filter %.c,$^) $(LDLIBS) -o $@

# The Debian packages each kind of target needs (common/scripts/require.sh installs them as root); a target asks
# only for the groups it uses: make profile-N clang's (the trace build) and hipcc's (the model), not the tests'
hip-tools: PACKAGES = hipcc libamdhip64-dev rocm-device-libs
clang-tools: PACKAGES = clang libclang-rt-dev# the trace build, make fuzz's fuzzer: clang and its sanitizer runtimes
test-tools: PACKAGES = bats libcmocka-dev tmux shellcheck# make test: the bats files, the cmocka programs, the viewer's test, the scripts' lint
plot-tools: PACKAGES = gnuplot-nox
hip-tools clang-tools test-tools plot-tools: ; @common/scripts/require.sh $(PACKAGES)
nvcc-tool:
	@[ -n "$(NVCC)" ] || { echo "nvcc not found: install the CUDA toolkit or set NVCC=" >&2; exit 1; }
no-sanitizer: # hipcc and nvcc builds do not link the sanitizer runtimes
	@$(if $(SANITIZE),echo "SANITIZE=$(SANITIZE) covers the host code and the CPU executor builds$(comma) not hipcc \
	  or nvcc builds: unset SANITIZE$(comma) or use HIP_PLATFORM=cpu" >&2; exit 2)

# ---- Reader targets ---------------------------------------------------------
.PHONY: help dataset build chapter-% diff-% resources isa-% profile-% racecheck-% clean hip-tools nvcc-tool no-sanitizer clang-tools test-tools plot-tools
chapter-% diff-% isa-% profile-% racecheck-%: CHAPTER = $(call chapter_dir,$*)
HELP_TRAINS = $(if $(ON_EXECUTOR),chapter 00 $(or $(ITERS),100) iterations$(comma) a GPU chapter $(or $(ITERS),10),$(or \
  $(ITERS),100) iterations)$(comma) chapter 09 $(or $(EPOCHS),$(if $(ON_EXECUTOR),2,10)) epochs
HELP_SETTINGS := $(shell sed -n 's/^\([A-Z_]*\) ?=.*\#.*/\1/p' Makefile)
help: ## this list
	@( echo "GPU programming tutorial: an MNIST classifier from plain C to gfx906. Chapters: $(CHAPTERS)"; \
	  awk -F ':[^#]*## ' '/^[a-z][a-z%-]*( [a-z%-]+)*:.*## / { n = split($$1, name, " "); for (i = 1; i <= n; i++) { \
	  sub(/%/, "N", name[i]); printf "  make %-17s %s\n", name[i], $$2 } }' Makefile; \
	  echo "Settings (make chapter-3 ITERS=20 HIP_PLATFORM=cpu), with their values now:"; \
	  env $(foreach v,$(HELP_SETTINGS),$(v)='$(subst ','\'',$($(v)))') awk -F ' *[?]= *' '/^[A-Z_]+ [?]=.*#/ { \
	  sub(/^[^#]*# */, "", $$2); printf "  %-34s %s\n", $$1 "=" ENVIRON[$$1], $$2 }' Makefile; \
	  echo "So here (HIP_PLATFORM=$(HIP_PLATFORM)) make chapter-N trains $(HELP_TRAINS); make compare $(COMPARE_ITERS) iterations x $(REPEATS) run(s) a chapter" \
	) $(PIPE_CLOSED_OK)

dataset: ## fetch and verify the four files into DATASET_DIR, creating it (never replaces a file that fails verification)
	@$(if $(filter dataset,$(MAKECMDGOALS)),$(FETCH),$(FETCH_DATASET))
build: $(addprefix $(BUILD)/,$(CHAPTERS)) ## build every chapter for HIP_PLATFORM

# The chapter is checked before anything is fetched. A GPU chapter on the executor: a short run by default.
SHORT_RUN = $(and $(ON_EXECUTOR),$(filter-out 00-%,$(CHAPTER)))
chapter-%: ## build and train chapter N (ITERS or EPOCHS, LR, ARGS, DATASET)
	@$(no_chapter)
	@$(FETCH_DATASET)
	@$(MAKE) --no-print-directory $(BUILD)/$(CHAPTER)
	@$(if $(SHORT_RUN),$(if $(ITERS)$(EPOCHS),,echo "note: the CPU executor runs kernels to check them (slowly): a short run by default (ITERS=100 or EPOCHS=10: the full one)"))
	$(BUILD)/$(CHAPTER) $(DATASET_DIR) $(or $(RUN_ARGS_$(CHAPTER)),$(or $(ITERS),$(if $(SHORT_RUN),10,100)) $(LINEAR_LR)) $(ARGS)

# The chapter before, by number. Extension chapters (09 on) train another model.
PREVIOUS = $(call chapter_dir,$(shell expr 0$(firstword $(subst -, ,$(CHAPTER))) - 1))
diff-%: ## what chapter N changed against chapter N-1 (9: a note; it is an extension)
	@$(no_chapter)
	@$(if $(filter-out $(LINEAR_CHAPTERS),$(CHAPTER)),(echo "chapter $(CHAPTER) is an extension: it trains \
	  another model$(comma) so its diff against chapter 08 would be a rewrite$(comma) not one idea. chapters/$(CHAPTER)/README.md shows \
	  which chapter's idea each kernel reuses ('The kernels'$(comma) 'What was reused$(comma) and what had to change').") \
	  $(PIPE_CLOSED_OK),$(if $(PREVIOUS),git diff --no-index -- $(wildcard chapters/$(PREVIOUS)/train.* chapters/$(CHAPTER)/train.*) \
	  || { status=$$?; [ $$status -eq 1 ] || [ $$status -eq 141 ]; },echo "chapter $(CHAPTER) has no chapter before it" >&2; exit 2))

resources: hip-tools ## gfx906 registers, LDS, spills, occupancy per kernel, from the compiler (no GPU needed)
	@HIPCC="$(HIPCC)" bash common/scripts/resources.sh $(RESOURCE_TSV) $(GPU_CHAPTERS)
isa-%: ## chapter N's GPU_ARCH assembly in ISA_DIR, names demangled, each source line before its instructions
	@$(no_chapter)
	@$(if $(filter 00-%,$(CHAPTER)),echo "isa-$*: chapter $(CHAPTER) has no GPU code: it is plain C on the host (chapters/$(CHAPTER)/train.c)$(comma) \
	  so there is no GPU assembly to show; make isa-1 shows the first GPU chapter's" >&2; exit 2)
	@$(MAKE) --no-print-directory hip-tools
	@HIPCC="$(HIPCC)" bash common/scripts/isa.sh $(CHAPTER) $(ISA_DIR)/$(CHAPTER).$(GPU_ARCH).s $(GPU_ARCH) $(HIPCCFLAGS)

# The executor's trace build (common/cpu/README.md); profile-N: one full-MNIST iteration unless ARGS says otherwise.
# Its time model reads hipcc's gfx906 code (hip-tools); where that cannot be installed, the counts come alone.
# The H100 and H200 rows read nvcc's sm_90 code and a second trace at wave 32 (build/trace-wave32/, 132 CUs).
TRACED_CHAPTER = $(if $(filter-out 00-%,$(CHAPTER)),,echo "no GPU chapter '$*'; chapters with kernels: $(GPU_CHAPTERS)" >&2; exit 2)
profile-%: ## chapter N's memory traffic and modelled time per kernel, counted on the executor (build/profile/)
	@$(TRACED_CHAPTER)
	@$(FETCH_DATASET)
	@$(MAKE) --no-print-directory HIP_PLATFORM=cpu TRACE=1 $(TRACE_BUILD)/$(CHAPTER) $(TIMEMODEL)
	@$(if $(filter 64,$(WAVE)),$(MAKE) --no-print-directory HIP_PLATFORM=cpu TRACE=1 WAVE=32 build/trace-wave32/$(CHAPTER))
	-@$(MAKE) --no-print-directory hip-tools
	@PROFILE_SAMPLE=$(SAMPLE) bash common/cpu/trace/profile.sh $(TRACE_BUILD)/$(CHAPTER) build/profile $(DATASET_DIR) $(or $(ARGS),$(PROFILE_ARGS_$(CHAPTER)))
racecheck-%: ## chapter N's kernels checked on the executor for races and uninitialised shared-memory reads
	@$(TRACED_CHAPTER)
	@$(FETCH_DATASET)
	@$(MAKE) --no-print-directory HIP_PLATFORM=cpu TRACE=1 $(TRACE_BUILD)/$(CHAPTER)
	HIPCPU_RACECHECK=1 $(TRACE_BUILD)/$(CHAPTER) $(DATASET_DIR) $(RACECHECK_ITERS) --train-limit $(RACECHECK_LIMIT) --quiet $(ARGS)
	@echo "racecheck: $(CHAPTER) is clean at wave $(WAVE): $(RACECHECK_CLEAN)"
RACECHECK_CLEAN = no race and no uninitialised shared-memory read in $(RACECHECK_ITERS) iterations on $(RACECHECK_LIMIT) images
# 10,007 is prime, so every chapter's tiles end in a partial one (as 1,037 = 17 x 61 did); the check costs
# 9 bytes per device byte and 9-26 s a chapter on the 2-core machine. Chapter 09's two epochs also run the
# 10,000 test images, whatever the limit: 107 s at 10,000 images, 39-45 s at 1,037 (common/cpu/README.md).
RACECHECK_LIMIT = $(or $(RACECHECK_IMAGES),$(if $(filter 09-%,$(CHAPTER)),1037,10007))
# make profile FILE=kernel.hip: a HIP program of your own (its own main()), traced and modelled.
# Its build is keyed by the source's full path (two main.hip files never share a binary), and goes
# through the front end (common/cpu/front/): <<<...>>> launches and extern __shared__ become C++.
.PHONY: profile racecheck validate-model
STANDALONE_KEY = $(shell printf '%s' $(call quote,$(abspath $(FILE))) | cksum | cut -d' ' -f1)
STANDALONE = $(TRACE_BUILD)/standalone/$(STANDALONE_KEY)/$(basename $(notdir $(FILE)))
STANDALONE_CHECK = $(if $(FILE),$(if $(wildcard $(FILE)),true,echo "make $@: FILE=$(FILE): no such file" >&2; exit 2),echo \
  "make $@ needs FILE=path/to/kernel.hip: a HIP program with its own main() (common/cpu/model/README.md)" >&2; exit 2)
profile: ## your own HIP program (FILE=path/kernel.hip, ARGS=its options): its counts and modelled time per kernel
	@$(STANDALONE_CHECK)
	@$(MAKE) --no-print-directory HIP_PLATFORM=cpu TRACE=1 $(STANDALONE) $(TIMEMODEL) STANDALONE_SOURCE=$(FILE)
	-@$(MAKE) --no-print-directory hip-tools
	@PROFILE_SAMPLE=$(SAMPLE) PROFILE_STANDALONE=1 PROFILE_SOURCE=$(FILE) bash common/cpu/trace/profile.sh $(STANDALONE) build/profile/standalone - $(ARGS)
racecheck: ## your own HIP program (FILE=path/kernel.hip, ARGS=its options) checked for races and uninitialised shared-memory reads
	@$(STANDALONE_CHECK)
	@$(MAKE) --no-print-directory HIP_PLATFORM=cpu TRACE=1 $(STANDALONE) STANDALONE_SOURCE=$(FILE)
	HIPCPU_RACECHECK=1 $(STANDALONE) $(ARGS)
	@echo "racecheck: $(FILE) is clean at wave $(WAVE): no race and no uninitialised shared-memory read"
# No dependency file here: a learner's FILE may be a temporary one, and a .dep naming it
# would stop the next make once it is gone. The plain executor build (build/cpu/standalone/...)
# takes the same rule.
FRONT := build/tools/hipcpu_front
$(FRONT): common/cpu/front/hipcpu_front.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< -o $@
$(BUILD)/standalone/%: $$(STANDALONE_SOURCE) $(EXECUTOR) $(FRONT) | $(PLATFORM_TOOLS)
	@$(if $(STANDALONE_SOURCE),,echo "$@: set STANDALONE_SOURCE=path/to/kernel.hip" >&2; exit 2)
	@mkdir -p $(@D)
	@$(FRONT) $(STANDALONE_SOURCE) $@.cpp
	$(HIP_COMPILE) -DHIPCPU_STANDALONE=1 -iquote $(dir $(STANDALONE_SOURCE)) $(INSTRUMENT) -c $@.cpp -o $@.o
	$(HIP_LINK) $@.o $(EXECUTOR) $(LDLIBS) -o $@
validate-model: $(TIMEMODEL) ## the time model against published times of outside kernels (common/cpu/model/validation/)
	-@$(MAKE) --no-print-directory hip-tools
	@TIMEMODEL=$(TIMEMODEL) bash common/cpu/model/validation/validate.sh trace
clean: ## remove build/
	rm -rf build

# ---- Charts (plots/*.sh, gnuplot) under build/; only make figures rewrites plots/, readme-table README.md
COMPARE_ITERS = $(or $(ITERS),$(if $(ON_EXECUTOR),2,100))
compare_dirs = $(foreach c,$(COMPARE_CHAPTERS),$(or $(call chapter_dir,$(c)),$(error COMPARE_CHAPTERS: no chapter '$(c)'; chapters: $(CHAPTERS))))
PLOT_DIR = $(or $(call chapter_dir,$(PLOT_CHAPTER)),$(error PLOT_CHAPTER: no chapter '$(PLOT_CHAPTER)'; chapters: $(CHAPTERS)))
DATASET_FILES := $(addprefix $(DATASET_DIR)/,train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte t10k-labels-idx1-ubyte)
NEED_DATASET := $(if $(filter-out $(wildcard $(DATASET_FILES)),$(DATASET_FILES)),dataset)
COMPARE_TRACED = $(if $(ON_EXECUTOR),$(filter-out 00-%,$(compare_dirs)))# on the executor: the time model's chart
NO_LIMITS = $(if $(COMPARE_LIMIT)$(PLOT_LIMIT),$(error make figures draws the committed pictures on full MNIST: unset \
  COMPARE_LIMIT and PLOT_LIMIT (make compare and make plots take them, into build/)))
.PHONY: compare plots plot-resources figures figures-compare figures-plots readme-table readme-figures tune fuzz test
compare: $(NEED_DATASET) plot-tools $(if $(ON_EXECUTOR),hip-tools) ## time every chapter; without a GPU, chart the time model's ms
	@$(MAKE) --no-print-directory $(addprefix $(BUILD)/,$(compare_dirs))
	@$(if $(COMPARE_TRACED),$(MAKE) --no-print-directory TRACE=1 $(addprefix $(TRACE_BUILD)/,$(COMPARE_TRACED)) $(TIMEMODEL))
	@$(if $(and $(COMPARE_TRACED),$(filter 64,$(WAVE))),$(MAKE) --no-print-directory TRACE=1 WAVE=32 $(addprefix build/trace-wave32/,$(COMPARE_TRACED)))
	@plots/compare.sh --build $(BUILD) --platform $(HIP_PLATFORM) --dataset $(DATASET_DIR) --iters $(COMPARE_ITERS) \
	  $(if $(COMPARE_TRACED),--profiles build/profile/compare --trace-build $(TRACE_BUILD)) --repeats $(REPEATS) \
	  $(if $(COMPARE_LIMIT),--limit $(COMPARE_LIMIT)) $(if $(KERNEL_TIMES),--kernel-times $(KERNEL_TIMES)) \
	  --out-dir $(COMPARE_DIR) --format $(FORMAT) $(compare_dirs)
plots: $(NEED_DATASET) plot-tools ## loss, accuracy, digits, weights and resources charts in PLOTS_DIR
	@$(MAKE) --no-print-directory $(BUILD)/$(PLOT_DIR)
	@plots/training.sh --build $(BUILD) --platform $(HIP_PLATFORM) --dataset $(DATASET_DIR) --chapter $(PLOT_DIR) \
	  --iters $(PLOT_ITERS) $(if $(PLOT_LIMIT),--limit $(PLOT_LIMIT)) --lr $(LINEAR_LR) --work $(PLOTS_WORK) \
	  --out-dir $(PLOTS_DIR) --format $(FORMAT)
	@$(MAKE) --no-print-directory plot-resources
plot-resources: plot-tools ## just PLOTS_DIR/resources.png, from RESOURCE_TSV (remade by make resources when stale)
	@plots/resources.sh --data '$(RESOURCE_TSV)' --out-dir '$(PLOTS_DIR)' --format $(FORMAT) \
	  --remake "$(MAKE) --no-print-directory resources RESOURCE_TSV='$(RESOURCE_TSV)'"
figures: ## redraw the committed pictures and tables in plots/ on full MNIST (figures-compare, figures-plots)
	@$(MAKE) --no-print-directory figures-compare && $(MAKE) --no-print-directory figures-plots
figures-compare: # then make readme-table, by hand
	@$(NO_LIMITS)$(MAKE) --no-print-directory compare COMPARE_DIR=plots
figures-plots:
	@$(NO_LIMITS)$(MAKE) --no-print-directory plots PLOTS_DIR=plots RESOURCE_TSV=plots/resources.tsv
FIGURE_FILES = README.md $(sort $(wildcard chapters/*/README.md)) common/cpu/README.md common/cpu/model/README.md
readme-figures: readme-table ## rerun each command a README quotes between figure markers, rewrite its blocks (full MNIST: ~15 min)
	@plots/readme_figures.sh $(if $(CHECK),--check) $(FIGURE_FILES)
readme-table: ## rewrite README_FILE's chapter and counter tables (between their markers) from README_TABLE_TSV and the TSVs beside it
	@plots/readme_table.sh --data "$(README_TABLE_TSV)" --ideas plots/chapter_ideas.tsv --readme "$(README_FILE)"

# ---- The day a GPU is lent (README.md, "On a GPU machine"): one command there, one here
.PHONY: gpu-report gpu-import gpu-bundle
gpu-report: ## on a GPU machine: every GPU measurement in one run within a 9-minute budget, into GPU_REPORT_DIR
	@bash common/scripts/gpu_report.sh $(GPU_REPORT_DIR) --platform $(HIP_PLATFORM) --build $(BUILD) \
	  --dataset $(DATASET_DIR) $(GPU_REPORT_ARGS)
gpu-import: ## fold a make gpu-report folder (DIR=) into plots/, README.md, the chapter and model READMEs
	@$(if $(DIR),,echo "make gpu-import needs DIR=, the folder make gpu-report wrote" >&2; exit 2)
	@bash common/scripts/gpu_import.sh $(DIR) $(GPU_IMPORT_ARGS)
gpu-bundle: ## what a GPU session carries besides the tracked tree: the four dataset files
	@bash common/scripts/gpu_bundle.sh $(DATASET_DIR)

# ---- make tune: chapter 08 built with each set of sizes as 08-tune-cuB-fF-gG-tT
tune: dataset ## time chapter 08's tunable sizes, print the best (on the executor: only checks each set)
	@$(MAKE) --no-print-directory $(BUILD)/00-cpu-reference $(TEST_BUILD)/compare_runs
	@HIP_PLATFORM=$(HIP_PLATFORM) BUILD=$(BUILD) TEST_BUILD=$(TEST_BUILD) DATASET_DIR=$(DATASET_DIR) TUNE_ITERS=$(TUNE_ITERS) \
	  TUNE_LIMIT=$(TUNE_LIMIT) TUNE_SETS="$(TUNE_SETS)" MAKE="$(MAKE)" bash chapters/08-tuned-gfx906/tune.sh

# ---- Tests ------------------------------------------------------------------
TEST_BUILD := build/tests$(SAN_SUFFIX)
$(TEST_BUILD)/%: tests/%.c $(HOST_LIB) | test-tools # the host code's tests (cmocka)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) $(COMMON_INCLUDES) -Ichapters $< $(HOST_LIB) -lcmocka $(LDLIBS) -o $@ && $(DEP_COMMIT)
COMPARE_TOOLS := $(patsubst tests/%.c,$(TEST_BUILD)/%,$(wildcard tests/compare_*.c))
$(COMPARE_TOOLS): $(TEST_BUILD)/%: tests/%.c $(HOST_LIB) # the checks' tools (make tune's too): no cmocka
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) $(COMMON_INCLUDES) -Ichapters $< $(HOST_LIB) $(LDLIBS) -o $@ && $(DEP_COMMIT)
$(BUILD)/tests/%: tests/%.cpp tests/executor_helpers.h $(EXECUTOR) | test-tools $(PLATFORM_TOOLS) # the executor's (and trace build's)
	@mkdir -p $(@D)
	$(HIP_COMPILE) $(DEPFLAGS) $(INSTRUMENT) -c $< -o $@.o && $(DEP_COMMIT)
	$(HIP_LINK) $@.o $(EXECUTOR) -lcmocka $(LDLIBS) -o $@

# libFuzzer on the loaders, always with ASan and UBSan (tests/fuzz.sh: its work folders)
FUZZER := build/tests/fuzz_loader
$(FUZZER): tests/fuzz_loader.c common/host/idx.c common/host/mnist.c common/host/errors.c | clang-tools
	@mkdir -p $(@D)
	clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $(DEPFLAGS) $(COMMON_INCLUDES) $(filter %.c,$^) -o $@ && $(DEP_COMMIT)
fuzz: $(FUZZER) ## fuzz the IDX and MNIST loaders for FUZZ_SECONDS; one verdict line, the log in FUZZ_LOG
	@bash tests/fuzz.sh $(FUZZER) '$(FUZZ_SECONDS)' $(FUZZ_LOG) build/fuzz_crashes build/fuzz_work tests/fuzz_corpus

# The CPU executor at both wave sizes, trace builds, the broken kernel (always under ASan), GPU chapters
CPU := --no-print-directory HIP_PLATFORM=cpu
test: dataset test-tools clang-tools hip-tools ## the whole suite; ends 'N passed, N failed[, N skipped]' (SANITIZE=address,undefined)
	@$(MAKE) $(CPU) $(patsubst tests/%.c,$(TEST_BUILD)/%,$(wildcard tests/test_*.c tests/compare_*.c)) $(FUZZER) build $(TIMEMODEL) $(FRONT) \
	  $(CPU_BUILD)/tests/test_executor $(CPU_BUILD)/09-hidden-layer-reference $(CPU_BUILD)/01-wrong-gradient
	@$(MAKE) $(CPU) WAVE=32 build build/cpu-wave32$(SAN_SUFFIX)/tests/test_executor
	@$(MAKE) $(CPU) SANITIZE=address,undefined build/cpu-san/broken_kernel
	@$(foreach w,64 32,$(MAKE) $(CPU) TRACE=1 WAVE=$(w) $(addprefix build/trace$(if $(filter 32,$(w)),-wave32)/,$(GPU_CHAPTERS) \
	  08-missing-barrier tests/test_trace) &&) true
	@$(if $(ON_EXECUTOR),,$(MAKE) --no-print-directory SANITIZE= build)
	@TEST_BUILD=$(TEST_BUILD) CPU_BUILD=$(CPU_BUILD) SANITIZE=$(SANITIZE) NVCC=$(NVCC) DATASET_DIR=$(DATASET_DIR) \
	  GPU_PLATFORM=$(filter amd nvidia,$(HIP_PLATFORM)) GPU_BUILD=$(if $(ON_EXECUTOR),,$(BUILD)) \
	  FUZZ_SECONDS=$(TEST_FUZZ_SECONDS) BROKEN_KERNEL_BINARY=build/cpu-san/broken_kernel bash tests/run.sh

# The header dependencies the compilers wrote (DEPFLAGS); none before the first build. Each is
# a target with no recipe, so make never tries to remake one (the standalone rule would match it).
DEPFILES := $(shell find build -name '*.dep' -type f 2>/dev/null)
$(DEPFILES): ;
-include $(DEPFILES)
