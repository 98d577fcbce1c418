# make test and make fuzz, and the test programs they build. Included by the Makefile.

TEST_BUILD := build/tests$(SAN_SUFFIX)
# A test program links what it tests, top layer first: TEST_LINK_name, else every C layer a
# chapter links (LAYER_LIBS); the loaders' tests share the files they write (tests/loader_files.c).
LOADER_FILES := $(BUILD)/tests/loader_files.o
TEST_LINK_test_idx = $(LOADER_FILES) $(HOST_LIB)
TEST_LINK_test_mnist = $(LOADER_FILES) $(HOST_LIB)
$(foreach t,$(patsubst tests/%.c,%,$(wildcard tests/test_code_*.c tests/test_sim*.c)),$(eval TEST_LINK_$(t) = $$(MODEL_LIB)))
test_link = $(if $(filter undefined,$(origin TEST_LINK_$(1))),$(LAYER_LIBS),$(TEST_LINK_$(1)))
$(TEST_BUILD)/%: tests/%.c $$(call test_link,$$*) | test-tools # the host code's tests (cmocka)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) $(COMMON_INCLUDES) -Ichapters $< $(call test_link,$*) -lcmocka $(LDLIBS) -o $@
COMPARE_TOOLS := $(patsubst tests/%.c,$(TEST_BUILD)/%,$(wildcard tests/compare_*.c))
$(COMPARE_TOOLS): $(TEST_BUILD)/%: tests/%.c $(LAYER_LIBS) # the checks' tools (make tune's too): no cmocka
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) $(COMMON_INCLUDES) -Ichapters $< $(LAYER_LIBS) $(LDLIBS) -o $@
$(BUILD)/tests/%: tests/%.cpp tests/executor_helpers.h $(EXECUTOR) | test-tools $(PLATFORM_TOOLS) # the executor's (and trace build's)
	@mkdir -p $(@D)
	$(HIP_COMPILE) $(DEPFLAGS) $(INSTRUMENT) -c $< -o $@.o
	$(HIP_LINK) $@.o $(EXECUTOR) -lcmocka $(LDLIBS) -o $@

# libFuzzer on the loaders, always with ASan and UBSan (tests/fuzz.sh: its work folders)
FUZZER := build/tests/fuzz_loader
$(FUZZER): tests/fuzz_loader.c common/host/idx.c common/host/mnist.c common/host/errors.c | clang-tools
	@mkdir -p $(@D)
	clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $(DEPFLAGS) $(COMMON_INCLUDES) $(filter %.c,$^) -o $@
fuzz: $(FUZZER) ## fuzz the IDX and MNIST loaders for FUZZ_SECONDS; one verdict line, the log in FUZZ_LOG
	@bash tests/fuzz.sh $(FUZZER) '$(FUZZ_SECONDS)' $(FUZZ_LOG) build/fuzz_crashes build/fuzz_work tests/fuzz_corpus

# The CPU executor at both wave sizes, trace builds, the broken kernel (always under ASan), GPU chapters,
# each step on every core (make -j; the suite's bats files then run two at a time).
# The executor's test programs, one per tests/test_executor_*.cpp, and its trace build's, one per
# tests/test_trace_*.cpp (tests/run.sh runs the same lists).
EXECUTOR_TESTS := $(patsubst tests/%.cpp,%,$(wildcard tests/test_executor_*.cpp))
TRACE_TESTS := $(patsubst tests/%.cpp,%,$(wildcard tests/test_trace_*.cpp))
CPU := --no-print-directory HIP_PLATFORM=cpu
test: dataset test-tools clang-tools hip-tools ## the whole suite; ends 'N passed, N failed[, N skipped]' (SANITIZE=address,undefined)
	@$(MAKE) $(CPU) -j$$(nproc) $(patsubst tests/%.c,$(TEST_BUILD)/%,$(wildcard tests/test_*.c tests/compare_*.c)) $(FUZZER) build $(TIMESIM) $(FRONT) \
	  $(addprefix $(CPU_BUILD)/tests/,$(EXECUTOR_TESTS)) $(CPU_BUILD)/09-hidden-layer-reference $(CPU_BUILD)/01-wrong-gradient
	@$(MAKE) $(CPU) -j$$(nproc) WAVE=32 build $(addprefix build/cpu-wave32$(SAN_SUFFIX)/tests/,$(EXECUTOR_TESTS))
	@$(MAKE) $(CPU) SANITIZE=address,undefined build/cpu-san/broken_kernel
	@$(MAKE) $(CPU) -j$$(nproc) validation-programs
	@$(foreach w,64 32,$(MAKE) $(CPU) -j$$(nproc) TRACE=1 WAVE=$(w) $(addprefix build/trace$(if $(filter 32,$(w)),-wave32)/,$(GPU_CHAPTERS) \
	  08-missing-barrier $(addprefix tests/,$(TRACE_TESTS))) &&) true
	@$(MAKE) $(CPU) TRACE=1 -j$$(nproc) $(addprefix build/trace/checked/,$(GPU_CHAPTERS) $(addprefix bugs/,$(BUG_PROGRAMS)))
	@$(if $(ON_EXECUTOR),,$(MAKE) --no-print-directory SANITIZE= build)
	@TEST_BUILD=$(TEST_BUILD) CPU_BUILD=$(CPU_BUILD) SANITIZE=$(SANITIZE) NVCC=$(NVCC) DATASET_DIR=$(DATASET_DIR) \
	  GPU_PLATFORM=$(filter amd nvidia,$(HIP_PLATFORM)) GPU_BUILD=$(if $(ON_EXECUTOR),,$(BUILD)) \
	  FUZZ_SECONDS=$(TEST_FUZZ_SECONDS) BROKEN_KERNEL_BINARY=build/cpu-san/broken_kernel bash tests/run.sh
