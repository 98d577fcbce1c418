# make compare, make plots and make plot-resources: the charts, drawn by
# gnuplot (plots/*.gp) from TSV and CSV files. Included by the Makefile, so
# $(BUILD), $(CHAPTERS), $(HIP_PLATFORM), $(RESOURCE_TSV) etc. come from there.
#
# They write under build/ (build/compare, build/plots, build/resources), so a
# quick run never touches the tracked files. Only make figures (and its two
# halves, figures-compare and figures-plots) rewrites the committed pictures
# and tables in plots/ that README.md shows; make readme-table, run by hand,
# rewrites README.md's chapter table.

PLOTS_ON_CPU := $(filter cpu,$(HIP_PLATFORM))

# ---- What you may set -------------------------------------------------------
# make compare: iterations per run. ITERS given on the command line or in the
# environment wins; otherwise 100 on a GPU and 5 on the CPU executor (about
# 2.5-3.5 s per iteration there, so ten chapters stay well under 10 minutes).
COMPARE_ITERS := $(if $(filter file undefined default,$(origin ITERS)),$(if $(PLOTS_ON_CPU),5,100),$(ITERS))
# make compare: runs per chapter (median and spread over them)
REPEATS ?= $(if $(PLOTS_ON_CPU),1,3)
# make compare: train on the first N images only (--train-limit); empty: all 60000
COMPARE_LIMIT ?=
# The chapters that train the linear model, 00-08: their ms per iteration
# compare. Extension chapters (09 on) train other models, per epoch.
LINEAR_CHAPTERS := $(filter $(addsuffix -%,00 01 02 03 04 05 06 07 08),$(CHAPTERS))
# make compare: KERNEL_TIMES=FILE also records each GPU chapter's --kernel-times
# medians there (TSV); empty: off (the events and waits it adds cost time)
KERNEL_TIMES ?=
# make compare: which chapters (names or numbers), and where compare.tsv/.png go
COMPARE_CHAPTERS ?= $(LINEAR_CHAPTERS)
COMPARE_DIR ?= build/compare
# make plots: the chapter and iterations behind loss, accuracy, digits and weights.
# On the CPU executor the last chapter would need 300 x ~2-3 s, so chapter 00
# (plain C, ~0.5 s per iteration, the same model and numbers) is the source,
# for 200 iterations: about 2 minutes on the 2-core development machine.
PLOT_CHAPTER ?= $(if $(PLOTS_ON_CPU),00,$(lastword $(LINEAR_CHAPTERS)))
PLOT_ITERS ?= $(if $(PLOTS_ON_CPU),200,300)
PLOT_LIMIT ?=
# make plots: where loss, accuracy, digits, weights and resources .png go
PLOTS_DIR ?= build/plots
# make figures: the committed pictures and tables README.md shows
FIGURES_DIR := plots
FIGURES_RESOURCE_TSV := $(FIGURES_DIR)/resources.tsv
# make readme-table: the chapter table in README.md (between its markers),
# from this compare table and the short ideas; run it by hand after
# make figures, never from compare, plots, figures or test (it rewrites a
# tracked file). README_TABLE_TSV=$(COMPARE_DIR)/compare.tsv reads the last
# make compare instead (the caption then links to that file).
README_TABLE_TSV ?= plots/compare.tsv
CHAPTER_IDEAS ?= plots/chapter_ideas.tsv
README_FILE ?= README.md
# png (pngcairo when gnuplot has it, else png) or svg
FORMAT ?= png

# make plots: where the trainer's CSV, bench TSV, predictions and weights go
PLOTS_WORK ?= build/plots/work
DATASET_FILES := $(addprefix $(DATASET_DIR)/,train-images-idx3-ubyte train-labels-idx1-ubyte \
                   t10k-images-idx3-ubyte t10k-labels-idx1-ubyte)
# Run `make dataset` only when a file is missing.
PLOTS_DATASET := $(if $(filter-out $(wildcard $(DATASET_FILES)),$(DATASET_FILES)),dataset)
COMPARE_CHAPTER_DIRS = $(foreach c,$(COMPARE_CHAPTERS),$(or $(call chapter_dir,$(c)),$(error COMPARE_CHAPTERS: no chapter '$(c)'; chapters: $(CHAPTERS))))
PLOT_CHAPTER_DIR = $(or $(call chapter_dir,$(PLOT_CHAPTER)),$(error PLOT_CHAPTER: no chapter '$(PLOT_CHAPTER)'; chapters: $(CHAPTERS)))

.PHONY: compare plots plot-resources plot-tools readme-table figures figures-compare figures-plots

plot-tools:
	@common/require.sh gnuplot-nox

# On the CPU platform make compare also charts each GPU chapter's modelled
# gfx906 floor and bytes moved (compare-floor), from its trace build.
COMPARE_TRACED = $(if $(PLOTS_ON_CPU),$(filter-out 00-%,$(COMPARE_CHAPTER_DIRS)))
compare: $(PLOTS_DATASET) plot-tools
	@$(if $(PLATFORM_NOTE),echo "note: $(PLATFORM_NOTE)")
	@$(MAKE) --no-print-directory $(addprefix $(BUILD)/,$(COMPARE_CHAPTER_DIRS))
	@$(if $(COMPARE_TRACED),$(MAKE) --no-print-directory SANITIZE= $(addprefix $(TRACE_BUILD)/,$(COMPARE_TRACED)))
	@plots/compare.sh --build $(BUILD) --platform $(HIP_PLATFORM) --dataset $(DATASET_DIR) \
	  $(if $(COMPARE_TRACED),--profiles $(PROFILE_DIR)/compare --trace-build $(TRACE_BUILD)) \
	  --iters $(COMPARE_ITERS) --repeats $(REPEATS) $(if $(COMPARE_LIMIT),--limit $(COMPARE_LIMIT)) \
	  $(if $(KERNEL_TIMES),--kernel-times $(KERNEL_TIMES)) \
	  --out-dir $(COMPARE_DIR) --format $(FORMAT) $(COMPARE_CHAPTER_DIRS)

plots: $(PLOTS_DATASET) plot-tools
	@$(if $(PLATFORM_NOTE),echo "note: $(PLATFORM_NOTE)")
	@$(MAKE) --no-print-directory $(BUILD)/$(PLOT_CHAPTER_DIR)
	@plots/training.sh --build $(BUILD) --platform $(HIP_PLATFORM) --dataset $(DATASET_DIR) \
	  --chapter $(PLOT_CHAPTER_DIR) --iters $(PLOT_ITERS) $(if $(PLOT_LIMIT),--limit $(PLOT_LIMIT)) \
	  --lr $(LR) --work $(PLOTS_WORK) --out-dir $(PLOTS_DIR) --format $(FORMAT)
	@$(MAKE) --no-print-directory plot-resources

# resources.png from $(RESOURCE_TSV) (build/resources/resources.tsv unless
# make figures), remade by `make resources` when missing or older than a
# chapter's source. If make resources fails (no hipcc), an older table is
# drawn, or else the committed $(FIGURES_RESOURCE_TSV), with a note.
plot-resources: plot-tools
	@data='$(RESOURCE_TSV)'; \
	if [ ! -s "$$data" ] || [ -n "$$(find chapters -name '*.hip' -newer "$$data")" ]; then \
	  if ! $(MAKE) --no-print-directory resources RESOURCE_TSV="$$data"; then \
	    if [ -s "$$data" ]; then echo "plots: make resources failed; drawing the older $$data" >&2; \
	    elif [ -s '$(FIGURES_RESOURCE_TSV)' ]; then \
	      echo "plots: make resources failed; drawing the committed $(FIGURES_RESOURCE_TSV)" >&2; data='$(FIGURES_RESOURCE_TSV)'; \
	    else exit 1; fi; \
	  fi; \
	fi; \
	plots/resources.sh --data "$$data" --out-dir '$(PLOTS_DIR)' --format $(FORMAT)

# make figures: the committed pictures and tables in plots/, which README.md
# shows, at the default sizes (full MNIST: COMPARE_LIMIT and PLOT_LIMIT are
# refused). make compare and make plots, with their outputs in plots/ and
# make resources' table in plots/resources.tsv. README.md's chapter table is
# left to make readme-table, run by hand.
FIGURES_LIMITS = $(if $(COMPARE_LIMIT)$(PLOT_LIMIT),$(error make figures draws the committed pictures on full MNIST: unset COMPARE_LIMIT and PLOT_LIMIT (make compare and make plots take them, into build/)))
figures:
	@$(FIGURES_LIMITS)$(MAKE) --no-print-directory figures-compare
	@$(MAKE) --no-print-directory figures-plots

figures-compare:
	@$(FIGURES_LIMITS)$(MAKE) --no-print-directory compare COMPARE_DIR=$(FIGURES_DIR)
	@echo "figures: wrote $(FIGURES_DIR)/compare.tsv and its pictures; make readme-table updates README.md's chapter table from it"

figures-plots:
	@$(FIGURES_LIMITS)$(MAKE) --no-print-directory plots PLOTS_DIR=$(FIGURES_DIR) RESOURCE_TSV=$(FIGURES_RESOURCE_TSV)
	@echo "figures: wrote the training, weights and resources pictures in $(FIGURES_DIR)/"

# Rewrites only the lines between README_FILE's chapter-table markers (through
# a temporary file); with a marker missing or out of order it fails and leaves
# README_FILE as it was. Rows: every folder in chapters/, in order.
readme-table:
	@plots/readme_table.sh --data "$(README_TABLE_TSV)" --ideas "$(CHAPTER_IDEAS)" --readme "$(README_FILE)"
