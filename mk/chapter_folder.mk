# Included by chapters/NN-name/Makefile, the same file in every chapter's folder (so no diff
# shows it): make in a chapter's folder runs the top-level Makefile's goal for that chapter.
#   make                chapter-N: train it          make profile    profile-N
#   make diff           diff-N                       make racecheck  racecheck-N
#   make isa            isa-N                        make sanitize   sanitize-N
# Settings pass through: make ITERS=20, make profile ARGS="--train-limit 1000". The goals are
# not files (no .PHONY: make help's list reads the top level's .PHONY lines, and these are not its).
CHAPTER_NUMBER := $(firstword $(subst -, ,$(notdir $(CURDIR))))
CHAPTER_GOALS := chapter profile racecheck sanitize diff isa
.DEFAULT_GOAL := chapter
$(CHAPTER_GOALS):
	@$(MAKE) --no-print-directory -C ../.. $@-$(CHAPTER_NUMBER)
