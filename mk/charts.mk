# make compare, plots, figures, readme-*, gpu-*, tune: the charts and tables, the
# GPU day's report, the tuner. Included by the Makefile.

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
	@$(if $(COMPARE_TRACED),$(MAKE) --no-print-directory TRACE=1 $(addprefix $(TRACE_BUILD)/,$(COMPARE_TRACED)) $(TIMESIM))
	@$(if $(and $(COMPARE_TRACED),$(filter 64,$(WAVE))),$(MAKE) --no-print-directory TRACE=1 WAVE=32 $(addprefix build/trace-wave32/,$(COMPARE_TRACED)))
	@plots/compare.sh --build $(BUILD) --platform $(HIP_PLATFORM) --dataset $(DATASET_DIR) --iters $(COMPARE_ITERS) \
	  $(if $(COMPARE_TRACED),--profiles build/profile/compare --trace-build $(TRACE_BUILD)) --repeats $(REPEATS) \
	  $(if $(and $(COMPARE_TRACED),$(if $(filter 1,$(COMPARE_EXECUTOR))$(KERNEL_TIMES),,model)),--model-only) \
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
# Each refuses, before it trains anything, to replace committed pictures and tables that hold
# changes not committed (common/scripts/lib.sh's refuse_uncommitted; FORCE_REWRITE=1 goes on).
REFUSE_UNCOMMITTED = bash -c '. common/scripts/lib.sh; SCRIPT_NAME=$$0; refuse_uncommitted "$$@"' $(1) $(1)
FIGURES_COMPARE_FILES = $(addprefix plots/,compare.tsv compare.command compare.png compare-executor.png compare-model.png \
  compare-model.tsv compare-counters.tsv)
FIGURES_PLOTS_FILES = $(addprefix plots/,loss.png accuracy.png digits.png weights.png resources.png)
figures-compare: # then make readme-table, by hand
	@$(call REFUSE_UNCOMMITTED,'make figures') $(FIGURES_COMPARE_FILES)
	@$(NO_LIMITS)$(MAKE) --no-print-directory compare COMPARE_DIR=plots COMPARE_EXECUTOR=1 COMPARE_SLICES=
figures-plots:
	@$(call REFUSE_UNCOMMITTED,'make figures') $(FIGURES_PLOTS_FILES)
	@$(NO_LIMITS)$(MAKE) --no-print-directory plots PLOTS_DIR=plots RESOURCE_TSV=plots/resources.tsv
FIGURE_FILES = README.md $(sort $(wildcard chapters/*/README.md)) common/executor/README.md common/model/README.md
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
