#!/usr/bin/env bats
# The chapter check, for every GPU chapter: after 5 iterations on 1,000 and on
# 1,037 images (not a multiple of any tile), weights and per-iteration losses
# equal chapter 00's within a relative 1e-4. On the CPU executor at wave 64
# (as gfx906), with a random thread order, at wave 32 (as NVIDIA), and on a
# GPU when there is one.
#
# One test per chapter and variant, each one line: bats 1.8 (Debian 12) has no
# parametrised tests and registers only the @test lines it reads. The test's
# name is its data: check_named reads the chapter and the variant from it, so
# a name cannot say something other than what its test runs.

load helpers

WAVE32_BUILD="build/cpu-wave32${SANITIZE:+-san}"

# check_named: the check that the running test's name describes, "chapter NN
# VARIANT"; a name that matches no variant below fails.
check_named() {
    if ! [[ "$BATS_TEST_DESCRIPTION" =~ ^chapter\ ([0-9][0-9])\ (.*)$ ]]; then
        echo "no chapter in the test's name: $BATS_TEST_DESCRIPTION"
        return 1
    fi
    local nn=${BASH_REMATCH[1]} variant=${BASH_REMATCH[2]}
    case $variant in
    "matches chapter 00: 1000 images, executor wave 64")
        check_chapter "$(chapter_binary "$nn")" 1000 ;;
    "matches chapter 00: 1037 images, executor wave 64")
        check_chapter "$(chapter_binary "$nn")" 1037 ;;
    "matches chapter 00: 1037 images, random thread order")
        check_chapter "$(chapter_binary "$nn")" 1037 HIPCPU_SCHEDULE=random HIPCPU_SEED=7 ;;
    "matches chapter 00: 1037 images, executor wave 32")
        check_chapter "$(chapter_binary "$nn" "$WAVE32_BUILD")" 1037 ;;
    "matches chapter 00 on the GPU: 1000 and 1037 images")
        gpu_check "$nn" 1000
        gpu_check "$nn" 1037 ;;
    *)
        echo "no such variant in chapters.bats: '$variant'"
        return 1 ;;
    esac
}

@test "chapter 01 matches chapter 00: 1000 images, executor wave 64" { check_named; }
@test "chapter 01 matches chapter 00: 1037 images, executor wave 64" { check_named; }
@test "chapter 01 matches chapter 00: 1037 images, random thread order" { check_named; }
@test "chapter 01 matches chapter 00: 1037 images, executor wave 32" { check_named; }
@test "chapter 01 matches chapter 00 on the GPU: 1000 and 1037 images" { check_named; }

@test "chapter 02 matches chapter 00: 1000 images, executor wave 64" { check_named; }
@test "chapter 02 matches chapter 00: 1037 images, executor wave 64" { check_named; }
@test "chapter 02 matches chapter 00: 1037 images, random thread order" { check_named; }
@test "chapter 02 matches chapter 00: 1037 images, executor wave 32" { check_named; }
@test "chapter 02 matches chapter 00 on the GPU: 1000 and 1037 images" { check_named; }

@test "chapter 03 matches chapter 00: 1000 images, executor wave 64" { check_named; }
@test "chapter 03 matches chapter 00: 1037 images, executor wave 64" { check_named; }
@test "chapter 03 matches chapter 00: 1037 images, random thread order" { check_named; }
@test "chapter 03 matches chapter 00: 1037 images, executor wave 32" { check_named; }
@test "chapter 03 matches chapter 00 on the GPU: 1000 and 1037 images" { check_named; }

@test "chapter 04 matches chapter 00: 1000 images, executor wave 64" { check_named; }
@test "chapter 04 matches chapter 00: 1037 images, executor wave 64" { check_named; }
@test "chapter 04 matches chapter 00: 1037 images, random thread order" { check_named; }
@test "chapter 04 matches chapter 00: 1037 images, executor wave 32" { check_named; }
@test "chapter 04 matches chapter 00 on the GPU: 1000 and 1037 images" { check_named; }

@test "chapter 05 matches chapter 00: 1000 images, executor wave 64" { check_named; }
@test "chapter 05 matches chapter 00: 1037 images, executor wave 64" { check_named; }
@test "chapter 05 matches chapter 00: 1037 images, random thread order" { check_named; }
@test "chapter 05 matches chapter 00: 1037 images, executor wave 32" { check_named; }
@test "chapter 05 matches chapter 00 on the GPU: 1000 and 1037 images" { check_named; }

@test "chapter 06 matches chapter 00: 1000 images, executor wave 64" { check_named; }
@test "chapter 06 matches chapter 00: 1037 images, executor wave 64" { check_named; }
@test "chapter 06 matches chapter 00: 1037 images, random thread order" { check_named; }
@test "chapter 06 matches chapter 00: 1037 images, executor wave 32" { check_named; }
@test "chapter 06 matches chapter 00 on the GPU: 1000 and 1037 images" { check_named; }

@test "chapter 07 matches chapter 00: 1000 images, executor wave 64" { check_named; }
@test "chapter 07 matches chapter 00: 1037 images, executor wave 64" { check_named; }
@test "chapter 07 matches chapter 00: 1037 images, random thread order" { check_named; }
@test "chapter 07 matches chapter 00: 1037 images, executor wave 32" { check_named; }
@test "chapter 07 matches chapter 00 on the GPU: 1000 and 1037 images" { check_named; }

@test "chapter 08 matches chapter 00: 1000 images, executor wave 64" { check_named; }
@test "chapter 08 matches chapter 00: 1037 images, executor wave 64" { check_named; }
@test "chapter 08 matches chapter 00: 1037 images, random thread order" { check_named; }
@test "chapter 08 matches chapter 00: 1037 images, executor wave 32" { check_named; }
@test "chapter 08 matches chapter 00 on the GPU: 1000 and 1037 images" { check_named; }
