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

# The list above is written out (bats registers only the @test lines it
# reads); this test derives it from chapters/ and fails when they part: a new
# linear-model chapter (a folder with train.hip and no CPU reference of its
# own, as 09's reference.c) without its five tests, or a test of a chapter
# that is gone.
@test "chapters.bats tests every linear-model GPU chapter in chapters/, each in all five variants, and no other" {
    local variants=5 dir nn expected="" listed
    for dir in chapters/[0-9][0-9]-*/; do
        [ -f "$dir/train.hip" ] && [ ! -f "$dir/reference.c" ] || continue
        nn=$(basename "$dir")
        expected+="${nn%%-*} $variants"$'\n'
    done
    [ -n "$expected" ]
    listed=$(grep -oE '^@test "chapter [0-9][0-9] matches chapter 00' "$BATS_TEST_FILENAME" |
        awk '{ print $3 }' | sort | uniq -c | awk '{ print $2, $1 }')
    diff <(printf '%s' "$expected") <(echo "$listed")
}
