# make profile-N, racecheck-N and their FILE= forms, make validate-model: the CPU
# executor's trace build and the time model (common/executor/README.md). Included by the Makefile.

# profile-N: one full-MNIST iteration unless ARGS says otherwise.
# Its time model reads hipcc's gfx906 code (hip-tools); where that cannot be installed, the counts come alone.
# The H100 and H200 rows read nvcc's sm_90 code and a second trace at wave 32 (build/trace-wave32/, 132 CUs).
TRACED_CHAPTER = $(if $(filter-out 00-%,$(CHAPTER)),,echo "no GPU chapter '$*'; chapters with kernels: $(GPU_CHAPTERS)" >&2; exit 2)
profile-%: ## chapter N's memory traffic and modelled time per kernel, counted on the executor (build/profile/)
	@$(TRACED_CHAPTER)
	@$(FETCH_DATASET)
	@$(MAKE) --no-print-directory HIP_PLATFORM=cpu TRACE=1 $(TRACE_BUILD)/$(CHAPTER) $(TIMESIM)
	@$(if $(filter 64,$(WAVE)),$(MAKE) --no-print-directory HIP_PLATFORM=cpu TRACE=1 WAVE=32 build/trace-wave32/$(CHAPTER))
	-@$(MAKE) --no-print-directory hip-tools
	@PROFILE_SAMPLE=$(SAMPLE) bash common/tracer/profile.sh $(TRACE_BUILD)/$(CHAPTER) build/profile $(DATASET_DIR) $(or $(ARGS),$(PROFILE_ARGS_$(CHAPTER)))
racecheck-%: ## chapter N's kernels checked on the executor for races and uninitialised shared-memory reads
	@$(TRACED_CHAPTER)
	@$(FETCH_DATASET)
	@$(MAKE) --no-print-directory HIP_PLATFORM=cpu TRACE=1 $(TRACE_BUILD)/$(CHAPTER)
	$(foreach images,$(RACECHECK_LIMITS),HIPCPU_RACECHECK=1 $(TRACE_BUILD)/$(CHAPTER) $(DATASET_DIR) $(RACECHECK_ITERS) \
	  --train-limit $(images) --quiet $(ARGS)$(newline))
	@echo "racecheck: $(CHAPTER) is clean at wave $(WAVE): $(RACECHECK_CLEAN)"
# sanitize-N: the same runs under make sanitize's four checks (common/executor/README.md, "make sanitize"),
# in the checked build: the chapter's kernels compiled again with -fsanitize=array-bounds.
sanitize-%: ## chapter N under compute-sanitizer's four checks on the executor: memcheck, initcheck, racecheck, synccheck
	@$(TRACED_CHAPTER)
	@$(FETCH_DATASET)
	@$(MAKE) --no-print-directory HIP_PLATFORM=cpu TRACE=1 $(TRACE_BUILD)/checked/$(CHAPTER)
	$(foreach images,$(RACECHECK_LIMITS),HIPCPU_SANITIZE=1 $(TRACE_BUILD)/checked/$(CHAPTER) $(DATASET_DIR) $(RACECHECK_ITERS) \
	  --train-limit $(images) --quiet $(ARGS)$(newline))
	@echo "sanitize: $(CHAPTER) is clean at wave $(WAVE): $(SANITIZE_CLEAN) in $(SANITIZE_RUNS)"
SANITIZE_RUNS = $(RACECHECK_ITERS) iterations on $(subst $(space), and ,$(strip $(RACECHECK_LIMITS))) images
SANITIZE_CLEAN = no memcheck, initcheck, racecheck or synccheck finding
# The checked build: the trace build, with clang's -fsanitize=array-bounds on the kernels' own file (an
# index past an array's declared size, which the tracer's handler reports: trace_memcheck.cpp). A build
# of its own, so that make profile's counts and basic blocks stay those of the trace build.
CHECKED_FLAGS := -fsanitize=array-bounds
$(BUILD)/checked/chapters/%.o: chapters/%.hip | $(PLATFORM_TOOLS)
	@mkdir -p $(@D)
	$(call quiet,$(HIP_TOOL))$(HIP_COMPILE) $(DEPFLAGS) $(INSTRUMENT) $(CHECKED_FLAGS) -c $< -o $@
$(addprefix $(BUILD)/checked/,$(GPU_CHAPTERS)): $(BUILD)/checked/%: $(BUILD)/checked/chapters/%/train.o $$(call harness,$$*) \
  $(LAYER_LIBS) | $(PLATFORM_TOOLS)
	$(HIP_LINK) $^ $(LDLIBS) -o $@
RACECHECK_CLEAN = no race and no uninitialised shared-memory read in $(RACECHECK_ITERS) iterations on \
  $(subst $(space), and ,$(strip $(RACECHECK_LIMITS))) images
# Two runs, each ending in a partial tile: on 1,037 images (17 x 61) the persistent grids of chapters
# 07 and 08 leave some blocks with no tile; on 10,007 (prime) every block of chapter 08 has two or more.
# The check costs 9 bytes per device byte: 9-26 s a chapter at 10,007 images on the 2-core machine, a
# few seconds at 1,037. Chapter 09's epochs also run the 10,000 test images, whatever the limit (107 s
# at 10,000 images, 39-45 s at 1,037: common/executor/README.md), so it runs at 1,037 alone. RACECHECK_IMAGES
# or ARGS given: one run, as asked.
RACECHECK_LIMITS = $(or $(RACECHECK_IMAGES),$(if $(filter 09-%,$(CHAPTER)),1037,$(if $(ARGS),10007,1037 10007)))
space := $(subst ,, )# one space, and a newline between recipe lines made by foreach
define newline


endef
# make profile FILE=kernel.hip: a HIP program of your own (its own main()), traced and modelled.
# Its build is keyed by the source's full path (two main.hip files never share a binary), and goes
# through the front end (common/executor/front/): <<<...>>> launches and extern __shared__ become C++.
.PHONY: profile racecheck sanitize validate-model validate-heldout validate-chapters
# FILE reaches make's functions and the shell: a name that either would read as code (a ';', a
# quote, a '$', a space, a leading '-') is refused before any of it runs, naming the character
# classes allowed, so no file name can run a command. Its raw text is checked, unexpanded.
ifneq ($(origin FILE),undefined)
FILE_RAW := $(value FILE)
ifneq ($(shell printf '%s' $(call quote,$(FILE_RAW)) | LC_ALL=C grep -c '^-\|[^][A-Za-z0-9._/+,@=~-]'),0)
$(error FILE=$(FILE_RAW): make profile, racecheck and sanitize take a file name of letters, digits and . _ / + , @ = ~ - (a - not first); copy or rename the file)
endif
endif
STANDALONE_KEY = $(shell printf '%s' $(call quote,$(abspath $(FILE))) | cksum | cut -d' ' -f1)
STANDALONE = $(TRACE_BUILD)/standalone/$(STANDALONE_KEY)/$(basename $(notdir $(FILE)))
# The warp-32 devices (H100, H200) read a second trace at wave 32 and nvcc's own code, as a chapter's do.
STANDALONE_WARP32 = build/trace-wave32/standalone/$(STANDALONE_KEY)/$(basename $(notdir $(FILE)))
# Its tables are keyed by its path too, readably: build/profile/standalone/ and the source's folder,
# from the repository (tests/hip/) or from / (tmp/mine/), so two main.hip files keep their own.
STANDALONE_TABLES = build/profile/standalone/$(patsubst /%,%,$(patsubst $(CURDIR)/%,%,$(abspath $(dir $(FILE)))))
STANDALONE_CHECK = $(if $(FILE),$(if $(wildcard $(FILE)),true,echo "make $@: FILE=$(FILE): no such file" >&2; exit 2),echo \
  "make $@ needs FILE=path/to/kernel.hip: a HIP program with its own main() (common/model/README.md)" >&2; exit 2)
profile: ## your own HIP or CUDA program (FILE=path/kernel.hip or .cu, ARGS=its options): its counts and modelled time per kernel
	@$(STANDALONE_CHECK)
	@$(MAKE) --no-print-directory HIP_PLATFORM=cpu TRACE=1 $(if $(CUDA_FILE),WAVE=32 $(STANDALONE_WARP32),$(STANDALONE)) $(TIMESIM) STANDALONE_SOURCE=$(FILE)
	@$(if $(CUDA_FILE),-$(MAKE) --no-print-directory HIP_PLATFORM=cpu TRACE=1 WAVE=64 $(STANDALONE_WAVE64) STANDALONE_SOURCE=$(FILE) >$(STANDALONE_WARP32).wave64-build.log 2>&1 || \
	  echo "profile: $(FILE) does not build at wave 64 ($(STANDALONE_WARP32).wave64-build.log): gfx906 is not modelled",$(if $(filter 64,$(WAVE)),$(MAKE) --no-print-directory HIP_PLATFORM=cpu TRACE=1 WAVE=32 $(STANDALONE_WARP32) STANDALONE_SOURCE=$(FILE)))
	-@$(MAKE) --no-print-directory hip-tools
	@PROFILE_SAMPLE=$(SAMPLE) PROFILE_STANDALONE=1 PROFILE_SOURCE=$(FILE) \
	  $(if $(CUDA_FILE),PROFILE_CUDA=1 PROFILE_WAVE64_BINARY=$(STANDALONE_WAVE64),$(if $(filter 64,$(WAVE)),PROFILE_WARP32_BINARY=$(STANDALONE_WARP32))) \
	  bash common/tracer/profile.sh $(if $(CUDA_FILE),$(STANDALONE_WARP32),$(STANDALONE)) $(STANDALONE_TABLES) - $(ARGS)
sanitize: ## your own HIP or CUDA program (FILE=, ARGS=its options) under memcheck, initcheck, racecheck and synccheck
	@$(STANDALONE_CHECK)
	@$(MAKE) --no-print-directory HIP_PLATFORM=cpu TRACE=1 $(OWN_WAVE) $(STANDALONE_CHECKED) STANDALONE_SOURCE=$(FILE)
	HIPCPU_SANITIZE=1 $(STANDALONE_CHECKED) $(ARGS)
	@echo "sanitize: $(FILE) is clean at wave $(or $(CUDA_WAVE),$(WAVE)): $(SANITIZE_CLEAN)"
STANDALONE_CHECKED = build/trace$(if $(CUDA_FILE),-wave32,$(WAVE_SUFFIX))/checked/standalone/$(STANDALONE_KEY)/$(basename $(notdir $(FILE)))
racecheck: ## your own HIP or CUDA program (FILE=, ARGS=its options) checked for races and uninitialised shared-memory reads
	@$(STANDALONE_CHECK)
	@$(MAKE) --no-print-directory HIP_PLATFORM=cpu TRACE=1 $(OWN_WAVE) $(STANDALONE_OWN) STANDALONE_SOURCE=$(FILE)
	HIPCPU_RACECHECK=1 $(STANDALONE_OWN) $(ARGS)
	@echo "racecheck: $(FILE) is clean at wave $(or $(CUDA_WAVE),$(WAVE)): no race and no uninitialised shared-memory read"
# A CUDA program (a .cu file, or one that includes cuda_runtime.h or cuda.h) gets CUDA's names from
# common/executor/cuda/ and runs at warp 32, as CUDA expects (an H100's 132 SMs); make profile traces
# it again at wave 64, for gfx906's row beside the NVIDIA devices'. Read only once FILE is known safe.
CUDA_FILE = $(if $(filter %.cu,$(FILE)),cu,$(if $(wildcard $(FILE)),$(if $(strip $(foreach h,cuda_runtime.h cuda.h,\
  $(findstring <$(h)>,$(CUDA_TEXT))$(findstring "$(h)",$(CUDA_TEXT)))),cu)))
CUDA_TEXT = $(file <$(FILE))
CUDA_WAVE = $(if $(CUDA_FILE),32)
OWN_WAVE = $(if $(CUDA_FILE),WAVE=32)
STANDALONE_OWN = $(if $(CUDA_FILE),$(STANDALONE_WARP32),$(STANDALONE))
STANDALONE_WAVE64 = build/trace/standalone/$(STANDALONE_KEY)/$(basename $(notdir $(FILE)))
# No dependency file here: a learner's FILE may be a temporary one, and a .dep naming it
# would stop the next make once it is gone. The plain executor build (build/cpu/standalone/...)
# takes the same rule.
# A program of one's own: its folder for "..." includes, and after the system's for <...> ones (the CUDA
# samples include <helper_cuda.h> from beside them); CUDA's headers, mapped onto HIP's.
own_includes = -DHIPCPU_STANDALONE=1 -iquote $(dir $(1)) -idirafter $(dir $(1)) -Icommon/executor/cuda
CUDA_HEADERS := $(wildcard common/executor/cuda/*.h common/executor/cuda/*/*.h common/executor/hip/*.h)
CUDA_MAPPED := common/executor/cuda/cuda_runtime.h common/executor/cuda/cuda_profiler_api.h# the cuda* names the front end lets through
FRONT := build/tools/hipcpu_front
$(FRONT): common/executor/front/hipcpu_front.c
	@mkdir -p $(@D)
	$(call quiet,CC)$(CC) $(CFLAGS) $< -o $@
$(BUILD)/standalone/%: $$(STANDALONE_SOURCE) $(EXECUTOR) $(FRONT) $(CUDA_HEADERS) | $(PLATFORM_TOOLS)
	@$(if $(STANDALONE_SOURCE),,echo "$@: set STANDALONE_SOURCE=path/to/kernel.hip" >&2; exit 2)
	@mkdir -p $(@D)
	@$(FRONT) $(STANDALONE_SOURCE) $@.cpp $(CUDA_MAPPED)
	$(call quiet,$(HIP_TOOL))$(HIP_COMPILE) $(call own_includes,$(STANDALONE_SOURCE)) $(INSTRUMENT) -c $@.cpp -o $@.o
	$(HIP_LINK) $@.o $(EXECUTOR) $(LDLIBS) -o $@
# The checked build of a program with its own main(), $(1) its source: make sanitize FILE=, and the
# learner bugs of tests/hip/bugs/, which make test builds side by side (tests/sanitize.bats)
define checked_program
@mkdir -p $(@D)
@$(FRONT) $(1) $@.cpp $(CUDA_MAPPED)
$(call quiet,$(HIP_TOOL))$(HIP_COMPILE) $(call own_includes,$(1)) $(INSTRUMENT) $(CHECKED_FLAGS) -c $@.cpp -o $@.o
$(HIP_LINK) $@.o $(EXECUTOR) $(LDLIBS) -o $@
endef
$(BUILD)/checked/standalone/%: $$(STANDALONE_SOURCE) $(EXECUTOR) $(FRONT) $(CUDA_HEADERS) | $(PLATFORM_TOOLS)
	$(call checked_program,$(STANDALONE_SOURCE))
BUG_PROGRAMS := $(patsubst tests/hip/bugs/%.hip,%,$(wildcard tests/hip/bugs/*.hip))
$(BUILD)/checked/bugs/%: tests/hip/bugs/%.hip $(EXECUTOR) $(FRONT) $(CUDA_HEADERS) | $(PLATFORM_TOOLS)
	$(call checked_program,$<)
validate-model: $(TIMESIM) ## the time model against the measured and published times of outside kernels, development half
	-@$(MAKE) --no-print-directory hip-tools
	@TIMESIM=$(TIMESIM) bash common/model/validation/validate.sh trace
validate-heldout: $(TIMESIM) ## the held-out half's figures, read once per issue (ISSUE=N), on the traces validate-model left
	@ISSUE=$(ISSUE) TIMESIM=$(TIMESIM) bash common/model/validation/validate.sh heldout
# validate-chapters: chapters 01-08 profiled at VALIDATE_IMAGES (16384, or 60000: full MNIST), then
# their simulated H200 kernels against the GPU report kept in VALIDATE_REPORT (its
# quick-16384/ table for 16,384 images). One run on the 2-core development machine, 2026-11-29, beside
# a CI run: 6m13 at 16,384 images, 21m22 on full MNIST.
VALIDATED_CHAPTERS = $(foreach n,01 02 03 04 05 06 07 08,$(filter $(n)-%,$(GPU_CHAPTERS)))
validate-chapters: ## the chapters' simulated H200 times against the kept GPU report (VALIDATE_IMAGES=16384 or 60000)
	@case '$(VALIDATE_IMAGES)' in 16384|60000) ;; *) echo "make validate-chapters: VALIDATE_IMAGES=$(VALIDATE_IMAGES): the kept report has 16384 and 60000" >&2; exit 2 ;; esac
	@mkdir -p build && $(foreach c,$(VALIDATED_CHAPTERS),echo "validate-chapters: profiling $(c) on $(VALIDATE_IMAGES) images" && \
	  { $(MAKE) --no-print-directory profile-$(firstword $(subst -, ,$(c))) ARGS="--train-limit $(VALIDATE_IMAGES)" >build/profile-$(c).log 2>&1 || \
	  { cat build/profile-$(c).log; exit 1; }; } && ) true
	@bash common/model/chapters.sh $(VALIDATE_REPORT)/$(if $(filter 16384,$(VALIDATE_IMAGES)),quick-16384/)kernels.tsv build/profile h200 \
	  $(VALIDATED_CHAPTERS)

# The validation programs (common/model/validation/kernels.tsv), built for the plain executor
# at the wave their code assumes (make test runs each one's --small --check), and compiled by nvcc
# to PTX: its front end reads the host code too, so a HIP call the NVIDIA header lacks is caught,
# in a third of a full build's time (ptxas, the host compiler and the link run on a GPU day).
VALIDATION_DIR := common/model/validation
validation_programs = $(shell awk -F'\t' '/^\#/ { next } !c { for (i = 1; i <= NF; i++) h[$$i] = i; c = 1; next } \
  $$h["wave"] ~ /$(1)/ && !seen[$$h["file"]]++ { sub(/\.hip$$/, "", $$h["file"]); print $$h["file"] }' $(VALIDATION_DIR)/kernels.tsv)
VALIDATION_WAVE64 := $(call validation_programs,^(any|64)$$)
VALIDATION_WAVE32 := $(call validation_programs,^32$$)
# A project's shared host preamble, validation/PROJECT.h (polybench.h), is a prerequisite of its PROJECT_*.hip.
validation_project = $(filter $(basename $(notdir $(1)))_%,$(VALIDATION_WAVE64) $(VALIDATION_WAVE32))
$(foreach h,$(wildcard $(VALIDATION_DIR)/*.h),$(eval $(addprefix $(BUILD)/validation/,$(call validation_project,$(h))) \
  $(patsubst %,build/nvcc-validation/%.ptx,$(call validation_project,$(h))): $(h)))
$(BUILD)/validation/%: $(VALIDATION_DIR)/%.hip $(EXECUTOR) $(FRONT) | $(PLATFORM_TOOLS)
	@mkdir -p $(@D)
	@$(FRONT) $< $@.cpp
	$(call quiet,$(HIP_TOOL))$(HIP_COMPILE) -DHIPCPU_STANDALONE=1 -iquote $(VALIDATION_DIR) $(INSTRUMENT) -c $@.cpp -o $@.o
	$(HIP_LINK) $@.o $(EXECUTOR) $(LDLIBS) -o $@
build/nvcc-validation/%.ptx: $(VALIDATION_DIR)/%.hip common/gpu/nvidia/hip/hip_runtime.h | nvcc-tool
	@mkdir -p $(@D)
	$(call quiet,NVCC)$(NVCC) $(NVCCFLAGS) -x cu -Icommon/gpu/nvidia -Icommon -ptx $< -o $@
.PHONY: validation-programs
validation-programs: ## build every validation program for the executor (at its wave) and, where nvcc is, nvcc's PTX
	@$(MAKE) --no-print-directory HIP_PLATFORM=cpu $(addprefix $(CPU_BUILD)/validation/,$(VALIDATION_WAVE64))
	@$(if $(VALIDATION_WAVE32),$(MAKE) --no-print-directory HIP_PLATFORM=cpu WAVE=32 $(addprefix build/cpu-wave32$(SAN_SUFFIX)/validation/,$(VALIDATION_WAVE32)))
	@$(if $(and $(NVCC),$(if $(SANITIZE),,yes)),$(MAKE) --no-print-directory $(addsuffix .ptx,$(addprefix build/nvcc-validation/,$(VALIDATION_WAVE64) $(VALIDATION_WAVE32))))
