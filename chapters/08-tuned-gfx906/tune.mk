# make tune: times chapter 08's tunable sizes (the #ifndef macros at the top
# of its train.hip) on this machine, by rebuilding it with each set and
# running it with --bench-out, and prints the fastest set. Included by the
# Makefile, so $(BUILD), $(HIP_PLATFORM), the compilers and flags come from
# there. On the CPU executor it runs too, slowly and on a few images: that
# checks that every set builds and trains correctly, and says nothing about
# which set is fastest on a GPU.

TUNE_ON_CPU := $(filter cpu,$(HIP_PLATFORM))
# Iterations per timed run, and --train-limit (empty: all 60,000 images).
# The first 3 of a run are warm-up (common/timing.h): 6 on the CPU executor
# times 3, so that the median and the minimum can differ.
TUNE_ITERS ?= $(if $(TUNE_ON_CPU),6,50)
TUNE_LIMIT ?= $(if $(TUNE_ON_CPU),300,)
# The sets, each BLOCKS_PER_CU:FWD_UNROLL:GRAD_UNROLL[:TILE_IMAGES]; empty:
# tune.sh's own list.
TUNE_SETS ?=
TUNE_DIR := build/tune/$(notdir $(BUILD))
TUNE_SOURCE := chapters/08-tuned-gfx906/train.hip
# The harness objects a tuned trainer links with, as for make chapter-8.
TUNE_DEPS := $(BUILD)/common/gpu_trainer.o $(BUILD)/common/gpu_runtime.o $(HOST_OBJS) $(REFERENCE_STEP) $(if $(TUNE_ON_CPU),$(CPU_BUILD)/executor.o)

.PHONY: tune tune-deps

tune: dataset
	@$(if $(PLATFORM_NOTE),echo "note: $(PLATFORM_NOTE)")
	@$(MAKE) --no-print-directory tune-deps
	@HIP_PLATFORM=$(HIP_PLATFORM) TUNE_DIR=$(TUNE_DIR) BUILD=$(BUILD) TEST_BUILD=$(TEST_BUILD) \
	  DATASET_DIR=$(DATASET_DIR) TUNE_ITERS=$(TUNE_ITERS) TUNE_LIMIT=$(TUNE_LIMIT) \
	  TUNE_SETS="$(TUNE_SETS)" WAVE=$(WAVE) MAKE="$(MAKE)" \
	  bash chapters/08-tuned-gfx906/tune.sh

# What tune.sh runs besides the sets (a target of its own, so that make says
# nothing about those already built).
tune-deps: $(TUNE_DEPS) $(BUILD)/00-cpu-reference $(TEST_BUILD)/compare_runs
	@:

# One build per set: the directory name is the set (cu1-f1-g2-t0, t0 for the
# default TILE_IMAGES), so a changed set is a new target; TUNE_FLAGS holds
# its -D options.
TUNE_FLAGS ?=
$(TUNE_DIR)/%/train.o: $(TUNE_SOURCE) $(HOST_HEADERS) $(EXECUTOR_HEADERS)
	@mkdir -p $(@D)
ifeq ($(HIP_PLATFORM),cpu)
	$(CXX) $(CXXFLAGS) -Wno-unknown-pragmas -DHIPCPU_WAVE_SIZE=$(WAVE) $(TUNE_FLAGS) -x c++ \
	  -Icommon/cpu -Icommon -c $< -o $@
else ifeq ($(HIP_PLATFORM),nvidia)
	$(NVCC) $(NVCCFLAGS) $(TUNE_FLAGS) -x cu -Icommon/nvidia -Icommon -c $< -o $@
else
	HIP_PLATFORM=amd $(HIPCC) $(HIPCCFLAGS) $(TUNE_FLAGS) -Icommon -c $< -o $@
endif

$(TUNE_DIR)/%/trainer: $(TUNE_DIR)/%/train.o $(TUNE_DEPS)
ifeq ($(HIP_PLATFORM),cpu)
	$(CXX) $(CXXFLAGS) $^ $(LDLIBS) -o $@
else ifeq ($(HIP_PLATFORM),nvidia)
	$(NVCC) $(NVCCFLAGS) $^ $(LDLIBS) -o $@
else
	HIP_PLATFORM=amd $(HIPCC) $(HIPCCFLAGS) $^ $(LDLIBS) -o $@
endif
