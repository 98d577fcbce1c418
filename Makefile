# A step-by-step GPU programming tutorial in C and HIP: `make help` lists the targets.

# ---- What you may set: make chapter-3 ITERS=20 HIP_PLATFORM=cpu ------------
# training iterations for make chapter-N (GPU chapters on the CPU executor: CPU_ITERS unless ITERS is given)
ITERS_GIVEN := $(filter command line environment,$(origin ITERS))
ITERS ?= 100
CPU_ITERS ?= 10
# learning rate for make chapter-N: 0.01, or 0.005 on Fashion-MNIST, whose
# brighter images make 0.01 diverge in full-batch gradient descent
LR ?= $(if $(filter fashion,$(DATASET)),0.005,0.01)
# extra trainer options, e.g. ARGS="--train-limit 1000 --view"
ARGS ?=
# the dataset: mnist (the digits, the default) or fashion (Fashion-MNIST),
# and the folder that holds its four files (dataset/ or dataset/fashion/)
DATASET ?= mnist
ifeq ($(filter mnist fashion,$(DATASET)),)
$(error DATASET must be mnist or fashion, not '$(DATASET)')
endif
DATASET_DIR ?= $(if $(filter fashion,$(DATASET)),dataset/fashion,dataset)
ifeq ($(strip $(DATASET_DIR)),)
$(error DATASET_DIR is empty: leave it unset for dataset/ (dataset/fashion/ with DATASET=fashion), or name a folder)
endif
# fetches and verifies the dataset (never replaces a file that fails verification)
FETCH_DATASET = DATASET=$(DATASET) bash dataset/fetch.sh $(DATASET_DIR)
# AMD target (--offload-arch), and its wave size, which the host pass of
# hipcc cannot see: 32 on gfx10-12 (RDNA), 64 on gfx9 (GCN, CDNA)
GPU_ARCH ?= gfx906
AMD_WAVE ?= $(if $(filter gfx10% gfx11% gfx12%,$(GPU_ARCH)),32,64)
# NVIDIA target (-arch)
NV_ARCH ?= sm_90
# wave size of the CPU executor: 64 (as gfx906) or 32
WAVE ?= 64
# e.g. address,undefined: sanitized host code and CPU builds
SANITIZE ?=
HIPCC ?= hipcc
NVCC ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))

ifndef HIP_PLATFORM
HIP_PLATFORM := $(shell common/detect_platform.sh)
PLATFORM_NOTE := $(if $(filter cpu,$(HIP_PLATFORM)),no GPU found (or no ROCm/CUDA toolkit): using the CPU executor; set HIP_PLATFORM=amd|nvidia to choose)
endif
ifeq ($(filter amd nvidia cpu,$(HIP_PLATFORM)),)
$(error HIP_PLATFORM must be amd, nvidia or cpu, not '$(HIP_PLATFORM)')
endif
ifeq ($(filter 32 64,$(WAVE)),)
$(error WAVE must be 32 or 64, not '$(WAVE)')
endif
# hipcc reads HIP_PLATFORM itself, and knows nothing of "cpu".
unexport HIP_PLATFORM

.DEFAULT_GOAL := help
.DELETE_ON_ERROR:
.SECONDARY:

CHAPTERS := $(sort $(notdir $(wildcard chapters/[0-9][0-9]-*)))
GPU_CHAPTERS := $(filter-out 00-%,$(CHAPTERS))
# chapter-1, chapter-01 and chapter-01-naive-gemm all name chapters/01-naive-gemm.
chapter_dir = $(firstword $(filter $(if $(filter 0 1 2 3 4 5 6 7 8 9,$(1)),0$(1),$(1))-%,$(CHAPTERS)) $(filter $(1),$(CHAPTERS)))

# ---- Compilers and flags ---------------------------------------------------
SAN_FLAGS := $(if $(SANITIZE),-fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all)
SAN_SUFFIX := $(if $(SANITIZE),-san)
CC ?= cc
CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Wpedantic $(SAN_FLAGS)
CXXFLAGS := -std=c++17 -O2 -g -Wall -Wextra $(SAN_FLAGS)
LDLIBS := -lm
NVCCFLAGS := -O3 -std=c++17 -arch=$(NV_ARCH) -Xcompiler -Wall
HIPCCFLAGS := -O3 -std=c++17 --offload-arch=$(GPU_ARCH) -DHIP_WAVE_SIZE=$(AMD_WAVE)
# make resources and tests/compile.bats: always gfx906, the tuning target
GFX906_FLAGS := -O3 -std=c++17 --offload-arch=gfx906 -DHIP_WAVE_SIZE=64

HOST_BUILD := build/host$(SAN_SUFFIX)
CPU_BUILD := build/cpu$(if $(filter 32,$(WAVE)),-wave32)$(SAN_SUFFIX)
# AMD builds per target: objects for gfx906 and gfx1030 never mix.
AMD_BUILD := build/amd-$(GPU_ARCH)
BUILD := $(if $(filter cpu,$(HIP_PLATFORM)),$(CPU_BUILD),$(if $(filter amd,$(HIP_PLATFORM)),$(AMD_BUILD),build/nvidia))

HOST_SRCS := errors idx mnist model cli timing report session viewer
HOST_OBJS := $(HOST_SRCS:%=$(HOST_BUILD)/%.o)
HOST_HEADERS := $(wildcard common/*.h)
EXECUTOR_SRCS := common/cpu/hipcpu.cpp $(wildcard common/cpu/fiber_$(shell uname -m).S)
EXECUTOR_HEADERS := $(wildcard common/cpu/hip/*.h)

# ---- Host code (C11) -------------------------------------------------------
$(HOST_BUILD)/%.o: common/%.c $(HOST_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Icommon -c $< -o $@

# Chapter 00 is plain C on every platform.
$(CPU_BUILD)/00-cpu-reference build/nvidia/00-cpu-reference $(AMD_BUILD)/00-cpu-reference: \
		chapters/00-cpu-reference/train.c $(HOST_OBJS) $(HOST_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Icommon $< $(HOST_OBJS) $(LDLIBS) -o $@

# Chapter 00's training step without its main, for the GPU trainers' --check
# (common/cpu_reference.h): the same file, so one copy of the code.
REFERENCE_STEP := $(HOST_BUILD)/reference_step.o
$(addsuffix /reference_step.o,$(sort $(HOST_BUILD) build/host)): chapters/00-cpu-reference/train.c $(HOST_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(if $(filter build/host/%,$@),$(filter-out $(SAN_FLAGS),$(CFLAGS)),$(CFLAGS)) \
	  -DCPU_REFERENCE_STEP_ONLY -Icommon -c $< -o $@

# ---- CPU executor ----------------------------------------------------------
$(CPU_BUILD)/executor.o: $(EXECUTOR_SRCS) $(EXECUTOR_HEADERS)
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -DHIPCPU_WAVE_SIZE=$(WAVE) -Icommon/cpu -c common/cpu/hipcpu.cpp -o $(@D)/hipcpu.o
	$(if $(filter %.S,$(EXECUTOR_SRCS)),$(CC) $(SAN_FLAGS) -c $(filter %.S,$(EXECUTOR_SRCS)) -o $(@D)/fiber.o,: no assembly fiber switch for this machine)
	ld -r $(@D)/hipcpu.o $(if $(filter %.S,$(EXECUTOR_SRCS)),$(@D)/fiber.o) -o $@

$(CPU_BUILD)/%.o: %.hip $(HOST_HEADERS) $(EXECUTOR_HEADERS)
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -Wno-unknown-pragmas -DHIPCPU_WAVE_SIZE=$(WAVE) -x c++ -Icommon/cpu -Icommon -c $< -o $@

$(CPU_BUILD)/%: $(CPU_BUILD)/chapters/%/train.o $(CPU_BUILD)/common/gpu_trainer.o $(CPU_BUILD)/common/gpu_runtime.o $(CPU_BUILD)/executor.o $(HOST_OBJS) $(REFERENCE_STEP)
	$(CXX) $(CXXFLAGS) $^ $(LDLIBS) -o $@

# ---- The executor's trace build: make profile-N, make racecheck-N ------------
# The chapter compiled by clang with a call to the executor before every load
# and store (-fsanitize-coverage=trace-loads,trace-stores) and without
# auto-vectorisation, so that the counts are the accesses the source asks
# for. Never sanitized: its own checks are the point. See common/cpu/README.md.
TRACE_CXX ?= clang++
TRACE_BUILD := build/trace$(if $(filter 32,$(WAVE)),-wave32)
TRACE_HOST_OBJS := $(HOST_SRCS:%=build/host/%.o)
TRACE_CXXFLAGS := -std=c++17 -O2 -g -Wall -Wextra -Wno-unknown-pragmas -DHIPCPU_TRACE=1 -DHIPCPU_WAVE_SIZE=$(WAVE)
TRACE_INSTRUMENT := -fno-vectorize -fno-slp-vectorize -fno-unroll-loops -fsanitize-coverage=func,trace-loads,trace-stores \
  $(addprefix -mllvm -asan-,instrument-reads=0 instrument-writes=0 instrument-atomics=0 globals=0 stack=0 \
    use-after-return=never use-after-scope=0) -fsanitize=address -fno-sanitize-address-use-odr-indicator
# (AddressSanitizer's pass only for its memcpy and memset calls: see trace.cpp)

build/host/%.o: common/%.c $(HOST_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(filter-out $(SAN_FLAGS),$(CFLAGS)) -Icommon -c $< -o $@

$(TRACE_BUILD)/executor.o: $(EXECUTOR_SRCS) common/cpu/trace.cpp common/cpu/trace.h $(EXECUTOR_HEADERS) | test-tools
	@mkdir -p $(@D)
	$(TRACE_CXX) $(TRACE_CXXFLAGS) -Icommon/cpu -c common/cpu/hipcpu.cpp -o $(@D)/hipcpu.o
	$(TRACE_CXX) $(TRACE_CXXFLAGS) -Icommon/cpu -c common/cpu/trace.cpp -o $(@D)/trace.o
	$(if $(filter %.S,$(EXECUTOR_SRCS)),$(CC) -c $(filter %.S,$(EXECUTOR_SRCS)) -o $(@D)/fiber.o,: no assembly fiber switch for this machine)
	ld -r $(@D)/hipcpu.o $(@D)/trace.o $(if $(filter %.S,$(EXECUTOR_SRCS)),$(@D)/fiber.o) -o $@

$(TRACE_BUILD)/chapters/%/train.o: chapters/%/train.hip $(HOST_HEADERS) $(EXECUTOR_HEADERS) | test-tools
	@mkdir -p $(@D)
	$(TRACE_CXX) $(TRACE_CXXFLAGS) $(TRACE_INSTRUMENT) -x c++ -Icommon/cpu -Icommon -c $< -o $@

$(TRACE_BUILD)/common/%.o: common/%.hip $(HOST_HEADERS) $(EXECUTOR_HEADERS) | test-tools
	@mkdir -p $(@D)
	$(TRACE_CXX) $(TRACE_CXXFLAGS) -x c++ -Icommon/cpu -Icommon -c $< -o $@

$(TRACE_BUILD)/%: $(TRACE_BUILD)/chapters/%/train.o $(TRACE_BUILD)/common/gpu_trainer.o $(TRACE_BUILD)/common/gpu_runtime.o $(TRACE_BUILD)/executor.o $(TRACE_HOST_OBJS) build/host/reference_step.o
	$(TRACE_CXX) $^ $(LDLIBS) -o $@

# ---- NVIDIA (nvcc, with common/nvidia/hip/hip_runtime.h) -------------------
build/nvidia/%.o: %.hip $(HOST_HEADERS) common/nvidia/hip/hip_runtime.h
	@mkdir -p $(@D)
	@[ -n "$(NVCC)" ] || { echo "nvcc not found: install the CUDA toolkit or set NVCC=" >&2; exit 1; }
	$(NVCC) $(NVCCFLAGS) -x cu -Icommon/nvidia -Icommon -c $< -o $@

build/nvidia/%: build/nvidia/chapters/%/train.o build/nvidia/common/gpu_trainer.o build/nvidia/common/gpu_runtime.o $(HOST_OBJS) $(REFERENCE_STEP)
	$(NVCC) $(NVCCFLAGS) $^ $(LDLIBS) -o $@

# ---- AMD (hipcc) -----------------------------------------------------------
$(AMD_BUILD)/%.o: %.hip $(HOST_HEADERS) | hip-tools
	@mkdir -p $(@D)
	HIP_PLATFORM=amd $(HIPCC) $(HIPCCFLAGS) -Icommon -c $< -o $@

$(AMD_BUILD)/%: $(AMD_BUILD)/chapters/%/train.o $(AMD_BUILD)/common/gpu_trainer.o $(AMD_BUILD)/common/gpu_runtime.o $(HOST_OBJS) $(REFERENCE_STEP)
	HIP_PLATFORM=amd $(HIPCC) $(HIPCCFLAGS) $^ $(LDLIBS) -o $@

# ---- Chapter 09: the MLP extension ------------------------------------------
# Its kernels link common/mlp_trainer.hip in place of gpu_trainer.hip, and the
# MLP's host code. $(MLP)-reference is its CPU reference trainer, plain C on
# every platform, as chapter 00 is the linear chapters'.
MLP := 09-hidden-layer
MLP_HOST_OBJS := $(addprefix $(HOST_BUILD)/,mlp_model.o mlp_reference.o mlp_session.o)

$(CPU_BUILD)/$(MLP)-reference build/nvidia/$(MLP)-reference $(AMD_BUILD)/$(MLP)-reference: \
		chapters/$(MLP)/reference.c $(HOST_OBJS) $(MLP_HOST_OBJS) $(HOST_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Icommon $< $(HOST_OBJS) $(MLP_HOST_OBJS) $(LDLIBS) -o $@

$(CPU_BUILD)/$(MLP): $(CPU_BUILD)/chapters/$(MLP)/train.o $(CPU_BUILD)/common/mlp_trainer.o $(CPU_BUILD)/common/gpu_runtime.o \
		$(CPU_BUILD)/executor.o $(HOST_OBJS) $(MLP_HOST_OBJS)
	$(CXX) $(CXXFLAGS) $^ $(LDLIBS) -o $@

build/nvidia/$(MLP): build/nvidia/chapters/$(MLP)/train.o build/nvidia/common/mlp_trainer.o build/nvidia/common/gpu_runtime.o \
		$(HOST_OBJS) $(MLP_HOST_OBJS)
	$(NVCC) $(NVCCFLAGS) $^ $(LDLIBS) -o $@

$(AMD_BUILD)/$(MLP): $(AMD_BUILD)/chapters/$(MLP)/train.o $(AMD_BUILD)/common/mlp_trainer.o $(AMD_BUILD)/common/gpu_runtime.o \
		$(HOST_OBJS) $(MLP_HOST_OBJS)
	HIP_PLATFORM=amd $(HIPCC) $(HIPCCFLAGS) $^ $(LDLIBS) -o $@

$(TRACE_BUILD)/$(MLP): $(TRACE_BUILD)/chapters/$(MLP)/train.o $(TRACE_BUILD)/common/mlp_trainer.o $(TRACE_BUILD)/common/gpu_runtime.o \
		$(TRACE_BUILD)/executor.o $(TRACE_HOST_OBJS) $(addprefix build/host/,mlp_model.o mlp_reference.o mlp_session.o)
	$(TRACE_CXX) $^ $(LDLIBS) -o $@

# make chapter-9: ITERS counts epochs (MLP_EPOCHS, the chapter's default,
# unless given; MLP_CPU_EPOCHS on the CPU executor), and LR is passed only
# when given: the MLP's default learning rate is its own.
MLP_EPOCHS ?= 10
MLP_CPU_EPOCHS ?= 2
LR_GIVEN := $(filter command line environment,$(origin LR))
MLP_SHORT = $(and $(filter cpu,$(HIP_PLATFORM)),$(if $(ITERS_GIVEN),,yes))
.PHONY: chapter-9 chapter-09 chapter-$(MLP)
chapter-9 chapter-09 chapter-$(MLP):
	@$(FETCH_DATASET)
	@$(if $(PLATFORM_NOTE),echo "note: $(PLATFORM_NOTE)")
	@$(MAKE) --no-print-directory $(BUILD)/$(MLP)
	@$(if $(MLP_SHORT),echo "note: the CPU executor checks kernels; it does not race them: $(MLP_CPU_EPOCHS) epochs by default here (about 12 s each; ITERS=$(MLP_EPOCHS) for the full run)")
	$(BUILD)/$(MLP) $(DATASET_DIR) $(if $(ITERS_GIVEN),$(ITERS),$(if $(MLP_SHORT),$(MLP_CPU_EPOCHS),$(MLP_EPOCHS))) $(if $(LR_GIVEN),$(LR)) $(ARGS)

# ---- Reader targets --------------------------------------------------------
.PHONY: help dataset chapter-% build build-% test fuzz clean resources isa-% diff-% hip-tools test-tools \
	profile-% racecheck-% trace-tests

help:
	@echo "GPU programming tutorial: an MNIST classifier from plain C to gfx906."
	@echo ""
	@echo "  make dataset        fetch and verify the four MNIST files into dataset/ (DATASET=fashion:"
	@echo "                      Fashion-MNIST into dataset/fashion/; DATASET_DIR=DIR: into DIR)"
	@echo "  make chapter-N      build and train chapter N on MNIST (ITERS=$(ITERS) LR=$(LR) ARGS=...;"
	@echo "                      a GPU chapter on the CPU executor: CPU_ITERS=$(CPU_ITERS) unless ITERS is given;"
	@echo "                      chapter 9: ITERS counts epochs, $(MLP_EPOCHS) ($(MLP_CPU_EPOCHS) on the CPU executor);"
	@echo "                      DATASET=fashion: on Fashion-MNIST, same model and shapes;"
	@echo "                      ARGS=--kernel-times: median ms per kernel and its share of the iteration)"
	@echo "  make build          build every chapter for HIP_PLATFORM (now: $(HIP_PLATFORM))"
	@echo "  make test           the whole test suite, TEST_FUZZ_SECONDS=$(TEST_FUZZ_SECONDS) s of fuzzing included; ends with 'N passed, N failed[, N skipped]'"
	@echo "                      (SANITIZE=address,undefined: all of it under ASan and UBSan)"
	@echo "  make fuzz           fuzz the IDX and MNIST loaders for FUZZ_SECONDS=$(FUZZ_SECONDS); prints one verdict line,"
	@echo "                      libFuzzer's output in $(FUZZ_LOG), a crashing input in build/fuzz_crashes/"
	@echo "  make resources      gfx906 registers, LDS, spills, occupancy per kernel (also $(RESOURCE_TSV))"
	@echo "  make isa-N          chapter N's $(GPU_ARCH) assembly (N = 1-9), names demangled, each source line before"
	@echo "                      its instructions: $(ISA_DIR)/NN-name.$(GPU_ARCH).s"
	@echo "  make profile-N      chapter N's memory traffic per kernel, counted by the CPU executor, and a modelled"
	@echo "                      gfx906 / H100 floor: build/profile/ (1 iteration, full MNIST; chapter 9: 1 epoch,"
	@echo "                      1,000 images; ARGS=\"--train-limit N\")"
	@echo "  make racecheck-N    chapter N under the executor's race and uninitialised-read checks (RACECHECK_IMAGES=$(RACECHECK_IMAGES))"
	@echo "  make diff-N         what chapter N changed against chapter N-1 (9: a note; it is an extension)"
	@echo "  make compare        time every chapter: $(COMPARE_DIR)/compare.tsv and .png (ITERS=$(COMPARE_ITERS) REPEATS=$(REPEATS) COMPARE_LIMIT=N;"
	@echo "                      KERNEL_TIMES=FILE also records each GPU chapter's per-kernel medians)"
	@echo "  make plots          loss, accuracy, digits, weights, resources charts in $(PLOTS_DIR)/ (chapter $(PLOT_CHAPTER), PLOT_ITERS=$(PLOT_ITERS); FORMAT=svg)"
	@echo "  make plot-resources just $(PLOTS_DIR)/resources.png, from $(RESOURCE_TSV) (make resources)"
	@echo "  make figures        redraw the committed pictures and tables in plots/ that README.md shows: make compare"
	@echo "                      and make plots on full MNIST, into plots/ (figures-compare, figures-plots: one half each)"
	@echo "  make tune           time chapter 08's tunable sizes on this GPU, print the best (on the CPU executor: only"
	@echo "                      checks each set; TUNE_ITERS=$(TUNE_ITERS), 3 of them warm-up; TUNE_LIMIT=$(TUNE_LIMIT) TUNE_SETS=)"
	@echo "  make readme-table   rewrite README.md's chapter table from $(README_TABLE_TSV) and plots/chapter_ideas.tsv"
	@echo "                      (after make figures; README_TABLE_TSV=$(COMPARE_DIR)/compare.tsv: from the last make compare)"
	@echo "  make clean          remove build/"
	@echo ""
	@echo "Chapters: $(CHAPTERS)"
	@echo "Platform: HIP_PLATFORM=amd|nvidia|cpu (detected: $(HIP_PLATFORM)); GPU_ARCH=$(GPU_ARCH), WAVE=$(WAVE) on cpu"

# fetch.sh installs npm itself when it is missing (some images ship it with nodejs).
dataset:
	@$(FETCH_DATASET)

hip-tools:
	@common/require.sh hipcc libamdhip64-dev rocm-device-libs

build: $(addprefix $(BUILD)/,$(CHAPTERS))

# The chapter is checked before anything is fetched.
chapter-%:
	@$(if $(call chapter_dir,$*),,echo "no chapter '$*'; chapters: $(CHAPTERS)" >&2; exit 2)
	@$(FETCH_DATASET)
	@$(if $(PLATFORM_NOTE),echo "note: $(PLATFORM_NOTE)")
	@$(MAKE) --no-print-directory $(BUILD)/$(call chapter_dir,$*)
	@$(if $(RUN_ITERS_NOTE),echo "note: $(RUN_ITERS_NOTE)")
	$(BUILD)/$(call chapter_dir,$*) $(DATASET_DIR) $(call run_iters,$*) $(LR) $(ARGS)

# A GPU chapter on the CPU executor takes seconds per full-MNIST iteration:
# run CPU_ITERS of them unless ITERS was given.
executor_short = $(and $(filter cpu,$(HIP_PLATFORM)),$(filter-out 00-%,$(call chapter_dir,$(1))),$(if $(ITERS_GIVEN),,yes))
run_iters = $(if $(call executor_short,$(1)),$(CPU_ITERS),$(ITERS))
RUN_ITERS_NOTE = $(if $(call executor_short,$*),the CPU executor checks kernels; it does not race them: $(CPU_ITERS) iterations by default here (ITERS=100 for the full run, several minutes))

# The chapter before is found by number. Extension chapters (09 on) train
# another model: their diff against chapter 08 would be a rewrite, so
# make diff-9 points to the README section that maps each kernel to the
# chapter whose idea it reuses.
EXTENSION_CHAPTERS := $(filter-out $(addsuffix -%,00 01 02 03 04 05 06 07 08),$(CHAPTERS))
diff-%:
	@current='$(call chapter_dir,$*)'; \
	[ -n "$$current" ] || { echo "no chapter '$*'; chapters: $(CHAPTERS)" >&2; exit 2; }; \
	if [ -n "$(filter $(call chapter_dir,$*),$(EXTENSION_CHAPTERS))" ]; then \
	  echo "chapter $$current is an extension: it trains another model, so its diff against"; \
	  echo "chapter 08 would be a rewrite, not one idea. Its README shows which chapter's idea"; \
	  echo "each kernel reuses and what had to change: chapters/$$current/README.md,"; \
	  echo "sections 'The kernels' and 'What was reused, and what had to change'."; \
	  exit 0; \
	fi; \
	number=$${current%%-*}; number=$${number#0}; \
	[ "$$number" -gt 0 ] || { echo "chapter $$current has no chapter before it" >&2; exit 2; }; \
	previous=$$(cd chapters && ls -d "$$(printf '%02d' $$((number - 1)))"-*); \
	old=$$(ls chapters/$$previous/train.* | head -n 1); new=$$(ls chapters/$$current/train.* | head -n 1); \
	if [ -t 1 ]; then git --no-pager diff --no-index --color=always -- $$old $$new | $${PAGER:-less -R}; \
	else git --no-pager diff --no-index -- $$old $$new; fi; \
	status=$$?; [ $$status -le 1 ] || exit $$status

# gfx906 resource usage straight from the compiler (no GPU needed).
RESOURCE_TSV ?= build/resources/resources.tsv
resources: hip-tools
	@mkdir -p build/resources $(dir $(RESOURCE_TSV))
	@printf 'chapter\tkernel\tvgprs\tsgprs\tlds_bytes\tscratch_bytes\tvgpr_spills\tsgpr_spills\twaves_per_simd\n' > $(RESOURCE_TSV).tmp
	@for chapter in $(GPU_CHAPTERS); do \
	  HIP_PLATFORM=amd $(HIPCC) $(GFX906_FLAGS) -Icommon --cuda-device-only -c \
	    -Rpass-analysis=kernel-resource-usage chapters/$$chapter/train.hip -o build/resources/$$chapter.o \
	    > build/resources/$$chapter.log 2>&1 || { cat build/resources/$$chapter.log >&2; exit 1; }; \
	  c++filt < build/resources/$$chapter.log | awk -v chapter=$$chapter -f common/resources.awk >> $(RESOURCE_TSV).tmp; \
	done
	@mv $(RESOURCE_TSV).tmp $(RESOURCE_TSV)
	@echo "gfx906 resources per kernel (from -Rpass-analysis=kernel-resource-usage; written to $(RESOURCE_TSV)):"
	@column -t -s "$$(printf '\t')" $(RESOURCE_TSV)

# Chapter N's device assembly, to read: built with line tables
# (-gline-tables-only, which changes no instruction), then common/isa.awk puts
# each source line as a comment before its instructions and c++filt
# demangles the kernel names. hipcc passes its link flags even to -S, and
# clang calls each one unused: -Wno-unused-command-line-argument silences
# those warnings, and only those.
ISA_DIR ?= build/isa
isa_out = $(ISA_DIR)/$(call chapter_dir,$*).$(GPU_ARCH).s
ISA_HOST_ONLY = isa-$*: chapter $(call chapter_dir,$*) has no GPU code: it is plain C on the host \
  (chapters/$(call chapter_dir,$*)/train.c), so there is no GPU assembly to show; make isa-1 shows the first GPU chapter's
isa-%:
	@$(if $(call chapter_dir,$*),,echo "no chapter '$*'; chapters: $(CHAPTERS)" >&2; exit 2)
	@$(if $(filter 00-%,$(call chapter_dir,$*)),echo "$(ISA_HOST_ONLY)" >&2; exit 2)
	@$(MAKE) --no-print-directory hip-tools
	@mkdir -p $(ISA_DIR)
	HIP_PLATFORM=amd $(HIPCC) $(HIPCCFLAGS) -gline-tables-only -Wno-unused-command-line-argument -Icommon \
	  --cuda-device-only -S chapters/$(call chapter_dir,$*)/train.hip -o $(isa_out).raw
	@awk -v root="$(CURDIR)" -v source=chapters/$(call chapter_dir,$*)/train.hip -f common/isa.awk \
	  -v title="make isa-$*: chapter $(call chapter_dir,$*) for $(GPU_ARCH) (hipcc $(HIPCCFLAGS)); each source line is a comment before its instructions" \
	  $(isa_out).raw > $(isa_out).awk && c++filt < $(isa_out).awk > $(isa_out) && rm -f $(isa_out).raw $(isa_out).awk
	@echo "wrote $(isa_out): the $(GPU_ARCH) assembly of chapter $(call chapter_dir,$*)'s kernels, names demangled,"
	@echo "each source line before its instructions as a comment ('; train.hip:LINE  source')"

# What the executor sees of chapter N: make profile-N (see common/cpu/README.md).
# One iteration on full MNIST unless ARGS says otherwise. Chapter 09: one
# epoch on its first 1,000 images (it also runs the 10,000 test images through
# its kernels every epoch: about a minute traced) unless ARGS is given.
PROFILE_DIR := build/profile
profile_args = $(if $(ARGS),$(ARGS),$(if $(filter $(MLP),$(call chapter_dir,$(1))),--train-limit 1000))
profile-%:
	@$(if $(filter-out 00-%,$(call chapter_dir,$*)),,echo "no GPU chapter '$*'; chapters with kernels: $(GPU_CHAPTERS)" >&2; exit 2)
	@$(FETCH_DATASET)
	@$(MAKE) --no-print-directory SANITIZE= $(TRACE_BUILD)/$(call chapter_dir,$*)
	@bash common/cpu/profile.sh $(TRACE_BUILD)/$(call chapter_dir,$*) $(PROFILE_DIR) $(DATASET_DIR) $(call profile_args,$*)

# Chapter N under the race checks: a few iterations on RACECHECK_IMAGES images.
RACECHECK_IMAGES ?= 1037
RACECHECK_ITERS ?= 2
racecheck-%:
	@$(if $(filter-out 00-%,$(call chapter_dir,$*)),,echo "no GPU chapter '$*'; chapters with kernels: $(GPU_CHAPTERS)" >&2; exit 2)
	@$(FETCH_DATASET)
	@$(MAKE) --no-print-directory SANITIZE= $(TRACE_BUILD)/$(call chapter_dir,$*)
	HIPCPU_RACECHECK=1 $(TRACE_BUILD)/$(call chapter_dir,$*) $(DATASET_DIR) $(RACECHECK_ITERS) --train-limit $(RACECHECK_IMAGES) --quiet $(ARGS)
	@echo "racecheck: $(call chapter_dir,$*) is clean at wave $(WAVE): no race and no uninitialised shared-memory read in $(RACECHECK_ITERS) iterations on $(RACECHECK_IMAGES) images"

# ---- Tests -----------------------------------------------------------------
TEST_BUILD := build/tests$(SAN_SUFFIX)
test-tools:
	@common/require.sh bats libcmocka-dev clang libclang-rt-dev tmux

$(TEST_BUILD)/test_%: tests/test_%.c $(HOST_OBJS) $(HOST_HEADERS) | test-tools
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Icommon -Ichapters $< $(HOST_OBJS) -lcmocka $(LDLIBS) -o $@

$(TEST_BUILD)/test_executor$(if $(filter 32,$(WAVE)),_wave32): tests/test_executor.cpp tests/executor_helpers.h $(CPU_BUILD)/executor.o $(EXECUTOR_HEADERS) | test-tools
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -DHIPCPU_WAVE_SIZE=$(WAVE) -Icommon/cpu -Icommon $< $(CPU_BUILD)/executor.o -lcmocka $(LDLIBS) -o $@

# The deliberately broken chapter of tests/reliability.bats, linked like a
# chapter for the CPU executor; `make test` builds it with SANITIZE=address,undefined
# whatever SANITIZE says, so ASan can always catch its overflow.
$(TEST_BUILD)/broken_kernel: $(CPU_BUILD)/tests/broken_kernel.o $(CPU_BUILD)/common/gpu_trainer.o $(CPU_BUILD)/common/gpu_runtime.o $(CPU_BUILD)/executor.o $(HOST_OBJS) $(REFERENCE_STEP)
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) $^ $(LDLIBS) -o $@

# tests/check.bats: chapter 01 with its gradient scaled by 3 instead of 2,
# which --check must catch; the build fails if the constant is not found.
$(CPU_BUILD)/broken/01-wrong-gradient.hip: chapters/01-naive-gemm/train.hip
	@mkdir -p $(@D)
	sed 's|delta\[c \* images + i\] = 2\.0f \* r / images;|delta[c * images + i] = 3.0f * r / images;|' $< > $@
	@! cmp -s $< $@ || { echo "$@: the gradient's 2.0f to change was not found in $<" >&2; rm -f $@; exit 1; }

$(CPU_BUILD)/broken/01-wrong-gradient: $(CPU_BUILD)/broken/01-wrong-gradient.hip $(CPU_BUILD)/common/gpu_trainer.o $(CPU_BUILD)/common/gpu_runtime.o \
		$(CPU_BUILD)/executor.o $(HOST_OBJS) $(REFERENCE_STEP)
	$(CXX) $(CXXFLAGS) -Wno-unknown-pragmas -DHIPCPU_WAVE_SIZE=$(WAVE) -x c++ -Icommon/cpu -Icommon -c $< -o $@.o
	$(CXX) $(CXXFLAGS) $@.o $(filter-out %.hip,$^) $(LDLIBS) -o $@

$(TEST_BUILD)/compare_runs: tests/compare_runs.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< $(LDLIBS) -o $@

# Chapter 09's check (tests/chapter09.bats) and the unit tests of its CPU reference.
$(TEST_BUILD)/compare_mlp: tests/compare_mlp.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< $(LDLIBS) -o $@

$(TEST_BUILD)/test_mlp: tests/test_mlp.c $(HOST_OBJS) $(MLP_HOST_OBJS) $(HOST_HEADERS) | test-tools
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Icommon $< $(HOST_OBJS) $(MLP_HOST_OBJS) -lcmocka $(LDLIBS) -o $@

# libFuzzer target for the IDX and MNIST loaders: always clang with ASan and
# UBSan, whatever SANITIZE says. `make fuzz` runs it; tests/fuzz.bats runs
# `make fuzz` for FUZZ_SECONDS as part of `make test`.
FUZZ_SECONDS ?= 60
# make test's fuzzing step, shorter, so the suite stays under 10 minutes on 2 cores
TEST_FUZZ_SECONDS ?= 20
FUZZ_CC ?= clang
FUZZER := build/tests/fuzz_loader
$(FUZZER): tests/fuzz_loader.c common/idx.c common/mnist.c common/errors.c $(HOST_HEADERS) | test-tools
	@mkdir -p $(@D)
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Icommon \
	  $(filter %.c,$^) -o $@

# New inputs go to build/fuzz_work (the seeds in tests/fuzz_corpus stay as
# they are); a crashing input is saved as build/fuzz_crashes/crash-SHA1.
# libFuzzer's output goes to FUZZ_LOG; tests/fuzz.sh prints the verdict.
FUZZ_LOG ?= build/fuzz.log
fuzz: $(FUZZER)
	@bash tests/fuzz.sh $(FUZZER) '$(FUZZ_SECONDS)' $(FUZZ_LOG) build/fuzz_crashes build/fuzz_work tests/fuzz_corpus

# The trace build's tests (tests/racecheck.bats, tests/profile.bats): its
# micro-kernels at both wave sizes, every GPU chapter's trace build at both,
# and chapter 08 with the barrier before its loss sum deleted, which the race
# check must catch. Never sanitized (see the trace build above).
$(TRACE_BUILD)/test_trace: tests/test_trace.cpp tests/executor_helpers.h $(TRACE_BUILD)/executor.o | test-tools
	$(TRACE_CXX) $(TRACE_CXXFLAGS) $(TRACE_INSTRUMENT) -Icommon/cpu -Icommon -c $< -o $@.o
	$(TRACE_CXX) $@.o $(TRACE_BUILD)/executor.o -lcmocka $(LDLIBS) -o $@

$(TRACE_BUILD)/broken/08-missing-barrier.hip: chapters/08-tuned-gfx906/train.hip
	@mkdir -p $(@D)
	awk '/wave_hits\[wave\] = hits;/ { print; getline; print; getline; if ($$0 ~ /__syncthreads/) next } { print }' $< > $@
	@! cmp -s $< $@ || { echo "$@: the barrier to delete was not found in $<" >&2; rm -f $@; exit 1; }

$(TRACE_BUILD)/broken/08-missing-barrier: $(TRACE_BUILD)/broken/08-missing-barrier.hip $(TRACE_BUILD)/common/gpu_trainer.o $(TRACE_BUILD)/common/gpu_runtime.o $(TRACE_BUILD)/executor.o $(TRACE_HOST_OBJS) build/host/reference_step.o
	$(TRACE_CXX) $(TRACE_CXXFLAGS) $(TRACE_INSTRUMENT) -x c++ -Icommon/cpu -Icommon -c $< -o $@.o
	$(TRACE_CXX) $@.o $(filter-out %.hip,$^) $(LDLIBS) -o $@

trace-tests:
	@$(MAKE) --no-print-directory SANITIZE= $(TRACE_BUILD)/test_trace $(TRACE_BUILD)/broken/08-missing-barrier \
	  $(addprefix $(TRACE_BUILD)/,$(GPU_CHAPTERS))

TEST_PROGRAMS := $(patsubst tests/%.c,$(TEST_BUILD)/%,$(wildcard tests/test_*.c)) $(TEST_BUILD)/compare_runs
# Chapter 09's check also needs its comparison tool and its CPU reference.
TEST_PROGRAMS += $(TEST_BUILD)/compare_mlp $(CPU_BUILD)/$(MLP)-reference

test: dataset test-tools
	@$(MAKE) --no-print-directory $(TEST_PROGRAMS) $(TEST_BUILD)/test_executor $(addprefix $(CPU_BUILD)/,$(CHAPTERS)) $(FUZZER) \
	  $(CPU_BUILD)/broken/01-wrong-gradient
	@$(MAKE) --no-print-directory WAVE=32 $(TEST_BUILD)/test_executor_wave32 $(addprefix build/cpu-wave32$(SAN_SUFFIX)/,$(GPU_CHAPTERS))
	@$(MAKE) --no-print-directory SANITIZE=address,undefined build/tests-san/broken_kernel
	@$(MAKE) --no-print-directory trace-tests
	@$(MAKE) --no-print-directory WAVE=32 trace-tests
	@TEST_BUILD=$(TEST_BUILD) CPU_BUILD=$(CPU_BUILD) SANITIZE=$(SANITIZE) NVCC=$(NVCC) \
	  GPU_PLATFORM=$(filter amd nvidia,$(HIP_PLATFORM)) DATASET_DIR=$(DATASET_DIR) \
	  FUZZ_SECONDS=$(TEST_FUZZ_SECONDS) BROKEN_KERNEL_BINARY=build/tests-san/broken_kernel \
	  bash tests/run.sh

clean:
	rm -rf build

# make compare and make plots live beside their gnuplot scripts.
-include plots/plots.mk
-include chapters/08-tuned-gfx906/tune.mk
