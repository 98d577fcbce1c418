# A GPU programming tutorial in C and HIP. `make help` lists the targets (their ## notes) and
# settings (their comments, in mk/settings.mk). Top to bottom: settings, compilers, the one chapter
# rule, the reader's targets; then mk/: the trace build's tools, the charts, the tests.

include mk/settings.mk

# The platform chosen here (on the command line, from the environment, or detected) reaches every sub-make
# (chapter-N's build, make compare's, tune.sh's) as if given on the command line: HIP_PLATFORM is unexported
# below, so a sub-make would otherwise detect again and look for another platform's build.
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
NVCCFLAGS := -O3 -std=c++17 -arch=$(NV_ARCH) -lineinfo -Xcompiler -Wall# -lineinfo: each SASS instruction's source line, code unchanged
# common/'s folders on the include path (common/include_dirs: the one list, the scripts read it too)
COMMON_INCLUDES := $(addprefix -I,$(file < common/include_dirs))
# Each object's own header dependencies (-MMD -MP, into OBJECT.dep beside it; read at the end),
# written by the compiler under their own name at the end of a compile: an interrupted build leaves
# no temporary file behind, and make deletes the object it had not finished, so the next one remakes both
DEPFLAGS = -MMD -MP -MF $@.dep -MT $@
# make V=1: each compile and link command in full; otherwise one short line per file
# (CC build/cpu/common/host/idx.o). A failing command's own messages print in full either way.
# make -s prints neither; make -n the commands alone.
quiet = $(if $(V)$(findstring s,$(MAKE_LETTERS))$(findstring n,$(MAKE_LETTERS)),,@printf '  %-6s %s\n' '$(1)' '$@';)
MAKE_LETTERS = $(firstword -$(MAKEFLAGS))# make's one-letter options, as -ks
HIP_TOOL := $(if $(filter amd,$(HIP_PLATFORM)),HIPCC,$(if $(filter nvidia,$(HIP_PLATFORM)),NVCC,CXX))
EXECUTOR_FLAGS := -Wno-unknown-pragmas -DHIPCPU_WAVE_SIZE=$(WAVE) -x c++ -Icommon/executor $(COMMON_INCLUDES)
CPU_BUILD := build/cpu$(WAVE_SUFFIX)$(SAN_SUFFIX)
TRACE_BUILD := build/trace$(WAVE_SUFFIX)
ifeq ($(HIP_PLATFORM)$(TRACE),cpu)
BUILD := $(CPU_BUILD)
HIP_COMPILE = $(CXX) $(CXXFLAGS) $(EXECUTOR_FLAGS)
HIP_LINK = $(call quiet,LD)$(CXX) $(CXXFLAGS)
EXECUTOR := $(BUILD)/executor.o
else ifeq ($(HIP_PLATFORM),cpu)
# The trace build (common/executor/README.md): a call to the executor before every load and store, no
# auto-vectorisation, so the counts are the accesses the source asks for (ASan's pass: for memcpy).
BUILD := $(TRACE_BUILD)
HIP_COMPILE = clang++ -std=c++17 -O2 -g -gdwarf-4 -Wall -Wextra -DHIPCPU_TRACE=1 $(EXECUTOR_FLAGS)
INSTRUMENT := -fno-vectorize -fno-slp-vectorize -fno-unroll-loops -fsanitize-coverage=bb,no-prune,trace-pc-guard,trace-loads,trace-stores \
  $(addprefix -mllvm -asan-,instrument-reads=0 instrument-writes=0 instrument-atomics=0 instrument-byval=0 globals=0 stack=0 \
    use-after-return=never use-after-scope=0) -fsanitize=address -fno-sanitize-address-use-odr-indicator
HIP_LINK = $(call quiet,LD)clang++
EXECUTOR := $(BUILD)/executor.o
PLATFORM_TOOLS := clang-tools
else ifeq ($(HIP_PLATFORM),amd)
BUILD := build/amd-$(GPU_ARCH)
HIP_COMPILE = HIP_PLATFORM=amd $(HIPCC) $(HIPCCFLAGS) $(COMMON_INCLUDES)
HIP_LINK = $(call quiet,LD)HIP_PLATFORM=amd $(HIPCC) $(HIPCCFLAGS)
PLATFORM_TOOLS := hip-tools no-sanitizer
else
BUILD := build/nvidia
HIP_COMPILE = $(NVCC) $(NVCCFLAGS) -x cu -Icommon/gpu/nvidia $(COMMON_INCLUDES)
HIP_LINK = $(call quiet,LD)$(NVCC) $(NVCCFLAGS)
PLATFORM_TOOLS := nvcc-tool no-sanitizer
endif

# ---- One rule for every chapter, on every platform --------------------------
# A chapter is chapters/NN-name/train.c or train.hip compiled for the platform, linked with its
# harness and the archives of common/'s C layers, all under BUILD.
# Unless named here, a chapter is a GPU chapter of the linear model: the linear harness, with
# chapter 00's training step for --check; ITERS iterations at LR.
# One archive per C layer (common/LAYER/*.c), listed top layer first: the linker reads them once,
# in that order, so each layer resolves downward only (one that called a layer above would not link).
# The session ends a linear model's run (session/linear_session.c) on linear/'s model.c: linear below it.
LAYERS := mlp session linear host
LAYER_LIBS := $(LAYERS:%=$(BUILD)/lib%.a)
HOST_LIB := $(BUILD)/libhost.a
MODEL_LIB := $(BUILD)/libmodel.a# the time model (common/model/), for its tests
$(foreach layer,$(LAYERS),$(eval $(BUILD)/lib$(layer).a: $(patsubst %.c,$(BUILD)/%.o,$(wildcard common/$(layer)/*.c))))
$(MODEL_LIB): $(patsubst %.c,$(BUILD)/%.o,$(filter-out %_cli.c,$(wildcard common/model/*.c)))
$(LAYER_LIBS) $(MODEL_LIB):
	rm -f $@ && $(AR) rcs $@ $^
# The GPU layers, objects compiled per platform: the harness (main(), for either model, and
# --kernel-times) on the GPU runtime, on the executor where there is no GPU
GPU_HARNESS = $(BUILD)/common/harness/harness.o $(BUILD)/common/harness/kernel_times.o $(BUILD)/common/gpu/gpu_runtime.o $(EXECUTOR)
HARNESS = $(BUILD)/common/linear/gpu_trainer.o $(GPU_HARNESS) $(BUILD)/reference_step.o
HARNESS_00-cpu-reference := # plain C on every platform, linked by the C compiler
LINK_00-cpu-reference = $(call quiet,LD)$(CC) $(CFLAGS)
HARNESS_09-hidden-layer = $(BUILD)/common/mlp/mlp_trainer.o $(GPU_HARNESS) # the MLP extension: epochs, its own LR
RUN_ARGS_09-hidden-layer = $(or $(EPOCHS),$(if $(ON_EXECUTOR),2,10)) $(LR)
PROFILE_ARGS_09-hidden-layer := --train-limit 1000 # make profile-9: a traced epoch of 60,000 images takes minutes
harness = $(if $(filter undefined,$(origin HARNESS_$(1))),$(HARNESS),$(HARNESS_$(1)))
# chapters the tests and make tune derive from others (common/scripts/derive_chapter.sh), built alike
DERIVED := 01-wrong-gradient 08-missing-barrier broken_kernel $(filter 08-tune-%,$(notdir $(MAKECMDGOALS)))

$(addprefix $(BUILD)/,$(CHAPTERS) $(DERIVED)): $(BUILD)/%: $(BUILD)/chapters/%/train.o $$(call harness,$$*) $(LAYER_LIBS) | $(PLATFORM_TOOLS)
	$(or $(LINK_$*),$(HIP_LINK)) $^ $(LDLIBS) -o $@
REFERENCES := $(patsubst chapters/%/reference.c,$(BUILD)/%-reference,$(wildcard chapters/*/reference.c))
$(REFERENCES): $(BUILD)/%-reference: $(BUILD)/chapters/%/reference.o $(LAYER_LIBS) # a chapter's own CPU reference (09's)
	$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@
$(BUILD)/%.o: %.hip | $(PLATFORM_TOOLS)
	@mkdir -p $(@D)
	$(call quiet,$(HIP_TOOL))$(HIP_COMPILE) $(DEPFLAGS) $(if $(filter chapters/%,$<),$(INSTRUMENT)) -c $< -o $@
$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(call quiet,CC)$(CC) $(CFLAGS) $(DEPFLAGS) $(COMMON_INCLUDES) -c $< -o $@
$(BUILD)/reference_step.o: chapters/00-cpu-reference/train.c # without its main, for --check
	@mkdir -p $(@D)
	$(call quiet,CC)$(CC) $(CFLAGS) $(DEPFLAGS) -DCPU_REFERENCE_STEP_ONLY $(COMMON_INCLUDES) -c $< -o $@
GENERATED := build/generated/chapters
$(DERIVED:%=$(GENERATED)/%/train.hip): $(GENERATED)/%/train.hip: common/scripts/derive_chapter.sh $(wildcard chapters/*/train.hip) tests/broken_kernel.hip
	$(call quiet,GEN)bash common/scripts/derive_chapter.sh $* $@
$(BUILD)/chapters/%.o: $(GENERATED)/%.hip | $(PLATFORM_TOOLS)
	@mkdir -p $(@D)
	$(call quiet,$(HIP_TOOL))$(HIP_COMPILE) $(DEPFLAGS) $(INSTRUMENT) -c $< -o $@
# The executor: one object per source (make -j compiles them side by side; a change rebuilds its
# own), the tracer's sources in the trace build only, joined into one relocatable executor.o.
# The link takes only the objects: a .dep left by an older build may name sources as prerequisites.
EXECUTOR_SOURCES := $(wildcard common/executor/*.cpp) $(if $(TRACE),$(wildcard common/tracer/trace*.cpp)) \
  $(wildcard common/executor/fiber_$(shell uname -m).S)
$(BUILD)/executor.o: $(patsubst %.S,$(BUILD)/%.o,$(EXECUTOR_SOURCES:%.cpp=$(BUILD)/%.o))
	ld -r $(filter %.o,$^) -o $@
$(BUILD)/common/executor/%.o: common/executor/%.cpp | $(PLATFORM_TOOLS)
	@mkdir -p $(@D)
	$(call quiet,$(HIP_TOOL))$(HIP_COMPILE) $(DEPFLAGS) -c $< -o $@
$(BUILD)/common/tracer/%.o: common/tracer/%.cpp | $(PLATFORM_TOOLS)
	@mkdir -p $(@D)
	$(call quiet,$(HIP_TOOL))$(HIP_COMPILE) $(DEPFLAGS) -c $< -o $@
$(BUILD)/common/executor/%.o: common/executor/%.S
	@mkdir -p $(@D)
	$(call quiet,AS)$(CC) $(SAN_FLAGS) -c $< -o $@
# The archive and the joined executor list every object they take: the quiet build shows neither command
$(if $(V),,.SILENT: $(LAYER_LIBS) $(MODEL_LIB) $(BUILD)/executor.o $(REFERENCES))

# The time model's program, the simulation (common/model/sim.h): host C, the same on every platform
TIMESIM := build/tools/timesim
TIMESIM_SOURCES := $(wildcard common/model/*.c)
$(TIMESIM): $(TIMESIM_SOURCES) $(wildcard common/model/*.h)
	@mkdir -p $(@D)
	$(call quiet,CC)$(CC) $(CFLAGS) $(TIMESIM_SOURCES) $(LDLIBS) -o $@

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
.PHONY: help dataset build chapter-% diff-% resources isa-% profile-% racecheck-% sanitize-% clean hip-tools nvcc-tool no-sanitizer clang-tools test-tools plot-tools
chapter-% diff-% isa-% profile-% racecheck-% sanitize-%: CHAPTER = $(call chapter_dir,$*)
HELP_TRAINS = $(if $(ON_EXECUTOR),chapter 00 $(or $(ITERS),100) iterations$(comma) a GPU chapter $(or $(ITERS),10),$(or \
  $(ITERS),100) iterations)$(comma) chapter 09 $(or $(EPOCHS),$(if $(ON_EXECUTOR),2,10)) epochs
HELP_SUMMARY = So here (HIP_PLATFORM=$(HIP_PLATFORM)) make chapter-N trains $(HELP_TRAINS); make compare $(COMPARE_ITERS) \
  iterations x $(REPEATS) run(s) a chapter
MAKE_FILES = $(filter-out %.dep,$(MAKEFILE_LIST))# the Makefile and mk/*.mk, in the order make read them
HELP_SETTINGS = $(shell sed -n 's/^\([A-Z_]*\) ?=.*\#.*/\1/p' $(MAKE_FILES))
help: ## this list
	@env $(foreach v,$(HELP_SETTINGS),$(v)=$(call quote,$($(v)))) awk -f mk/help.awk -v chapters='$(CHAPTERS)' \
	  -v summary=$(call quote,$(HELP_SUMMARY)) $(MAKE_FILES) $(PIPE_CLOSED_OK)

dataset: ## fetch and verify the four files into DATASET_DIR, creating it (never replaces a file that fails verification)
	@$(if $(filter dataset,$(MAKECMDGOALS)),$(FETCH),$(FETCH_DATASET))
build: $(addprefix $(BUILD)/,$(CHAPTERS)) ## build every chapter for HIP_PLATFORM

# The chapter is checked before anything is fetched, and a GPU platform (compiler, driver, GPU)
# before anything is built. A GPU chapter on the executor: a short run by default.
SHORT_RUN = $(and $(ON_EXECUTOR),$(filter-out 00-%,$(CHAPTER)))
SHORT_RUN_NOTE = $(or $(SHORT_RUN_NOTE_$(CHAPTER)),10 of 100 iterations (ITERS=100 for the full run))
SHORT_RUN_NOTE_09-hidden-layer := 2 of 10 epochs (EPOCHS=10 for the full run)
# A GPU chapter's run ends with its --check (its first 5 steps again on the host, against its CPU
# reference) where that costs little: on the executor (chapter 01's short run: a sixth more CPU
# time) and for chapter 09 (some 40 ms). Elsewhere chapter 00's 5 iterations on 60,000 images take
# the host seconds, longer than the GPU's whole run: the run ends saying how to ask for it.
CHECK_CHEAP_09-hidden-layer := 1
GIVEN_CHECK = $(filter --check,$(ARGS))
CHECK_HINT = to check it against chapter 00 (its first 5 iterations again on the host: seconds): make chapter-$* ARGS=--check
DEFAULT_CHECK = $(if $(and $(filter-out 00-%,$(CHAPTER)),$(or $(ON_EXECUTOR),$(CHECK_CHEAP_$(CHAPTER)))),$(if $(GIVEN_CHECK),,--check))
chapter-%: ## build and train chapter N (ITERS or EPOCHS, LR, ARGS, DATASET)
	@$(no_chapter)
	@$(if $(ON_EXECUTOR),,bash mk/platform_check.sh $(HIP_PLATFORM) $(call quote,$(if $(filter amd,$(HIP_PLATFORM)),$(HIPCC),$(NVCC))) $*)
	@$(FETCH_DATASET)
	@$(MAKE) --no-print-directory $(BUILD)/$(CHAPTER)
	@$(if $(SHORT_RUN),$(if $(ITERS)$(EPOCHS),,echo "note: the CPU executor runs kernels slowly, to check them: a short run by default"))
	$(BUILD)/$(CHAPTER) $(DATASET_DIR) $(or $(RUN_ARGS_$(CHAPTER)),$(or $(ITERS),$(if $(SHORT_RUN),10,100)) $(LINEAR_LR)) $(DEFAULT_CHECK) $(ARGS)
	@$(if $(SHORT_RUN),$(if $(ITERS)$(EPOCHS),,echo "short run: $(SHORT_RUN_NOTE)"))
	@$(if $(filter-out 00-%,$(CHAPTER)),$(if $(DEFAULT_CHECK)$(GIVEN_CHECK),,echo "$(CHECK_HINT)"))

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
clean: ## remove build/
	rm -rf build

include mk/profile.mk mk/charts.mk mk/tests.mk

# A goal no rule names (make chaptr-1; not a path, not a file): a typo, answered with the nearest
# target make help lists instead of make's "No rule to make target"
RULE_NAMES = $(shell sed -n 's/^\([a-z][a-z%-]*\( [a-z%-]*\)*\):.*/\1/p' $(MAKE_FILES))
NAME_GOALS := $(foreach goal,$(MAKECMDGOALS),$(if $(findstring /,$(goal))$(findstring .,$(goal)),,$(goal)))
UNKNOWN_GOALS := $(if $(NAME_GOALS),$(filter-out $(RULE_NAMES) $(wildcard $(NAME_GOALS)),$(NAME_GOALS)))
$(UNKNOWN_GOALS):
	@suggestion=$$(awk -f mk/help.awk -v typo=$(call quote,$@) $(MAKE_FILES)); printf "no target '%s'%s (make help lists them)\n" \
	  $(call quote,$@) "$${suggestion:+; did you mean '$$suggestion'?}" >&2; exit 2

# The header dependencies the compilers wrote (DEPFLAGS) beside this platform's objects, up to
# four folders down; none before the first build, and none read for a goal that builds nothing.
# Each is a target with no recipe, so make never tries to remake one (the standalone rule would match it).
VIEW_GOALS := help clean dataset diff-% isa-% gpu-import gpu-bundle readme-table
ifneq ($(filter-out $(VIEW_GOALS),$(or $(MAKECMDGOALS),$(.DEFAULT_GOAL))),)
DEPFILES := $(wildcard $(foreach d,$(sort $(BUILD) $(TEST_BUILD) build/tests),$(addprefix $(d)/,*.dep */*.dep */*/*.dep */*/*/*.dep)))
$(DEPFILES): ;
-include $(DEPFILES)
endif
