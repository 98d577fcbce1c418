#!/usr/bin/env bats
# The chapter check, for every GPU chapter: after 5 iterations on 1,000 and on
# 1,037 images (not a multiple of any tile), weights and per-iteration losses
# equal chapter 00's within a relative 1e-4. On the CPU executor at wave 64
# (as gfx906), with a random thread order, at wave 32 (as NVIDIA), and on a
# GPU when there is one.

load helpers

WAVE32_BUILD="build/cpu-wave32${SANITIZE:+-san}"

@test "chapter 01 matches chapter 00: 1000 images, executor wave 64" {
    check_chapter "$(chapter_binary 01)" 1000
}
@test "chapter 01 matches chapter 00: 1037 images, executor wave 64" {
    check_chapter "$(chapter_binary 01)" 1037
}
@test "chapter 01 matches chapter 00: 1037 images, random thread order" {
    check_chapter "$(chapter_binary 01)" 1037 HIPCPU_SCHEDULE=random HIPCPU_SEED=7
}
@test "chapter 01 matches chapter 00: 1037 images, executor wave 32" {
    check_chapter "$(chapter_binary 01 "$WAVE32_BUILD")" 1037
}
@test "chapter 01 matches chapter 00 on the GPU: 1000 and 1037 images" {
    gpu_check 01 1000
    gpu_check 01 1037
}
@test "chapter 02 matches chapter 00: 1000 images, executor wave 64" {
    check_chapter "$(chapter_binary 02)" 1000
}
@test "chapter 02 matches chapter 00: 1037 images, executor wave 64" {
    check_chapter "$(chapter_binary 02)" 1037
}
@test "chapter 02 matches chapter 00: 1037 images, random thread order" {
    check_chapter "$(chapter_binary 02)" 1037 HIPCPU_SCHEDULE=random HIPCPU_SEED=7
}
@test "chapter 02 matches chapter 00: 1037 images, executor wave 32" {
    check_chapter "$(chapter_binary 02 "$WAVE32_BUILD")" 1037
}
@test "chapter 02 matches chapter 00 on the GPU: 1000 and 1037 images" {
    gpu_check 02 1000
    gpu_check 02 1037
}
@test "chapter 03 matches chapter 00: 1000 images, executor wave 64" {
    check_chapter "$(chapter_binary 03)" 1000
}
@test "chapter 03 matches chapter 00: 1037 images, executor wave 64" {
    check_chapter "$(chapter_binary 03)" 1037
}
@test "chapter 03 matches chapter 00: 1037 images, random thread order" {
    check_chapter "$(chapter_binary 03)" 1037 HIPCPU_SCHEDULE=random HIPCPU_SEED=7
}
@test "chapter 03 matches chapter 00: 1037 images, executor wave 32" {
    check_chapter "$(chapter_binary 03 "$WAVE32_BUILD")" 1037
}
@test "chapter 03 matches chapter 00 on the GPU: 1000 and 1037 images" {
    gpu_check 03 1000
    gpu_check 03 1037
}
@test "chapter 04 matches chapter 00: 1000 images, executor wave 64" {
    check_chapter "$(chapter_binary 04)" 1000
}
@test "chapter 04 matches chapter 00: 1037 images, executor wave 64" {
    check_chapter "$(chapter_binary 04)" 1037
}
@test "chapter 04 matches chapter 00: 1037 images, random thread order" {
    check_chapter "$(chapter_binary 04)" 1037 HIPCPU_SCHEDULE=random HIPCPU_SEED=7
}
@test "chapter 04 matches chapter 00: 1037 images, executor wave 32" {
    check_chapter "$(chapter_binary 04 "$WAVE32_BUILD")" 1037
}
@test "chapter 04 matches chapter 00 on the GPU: 1000 and 1037 images" {
    gpu_check 04 1000
    gpu_check 04 1037
}
@test "chapter 05 matches chapter 00: 1000 images, executor wave 64" {
    check_chapter "$(chapter_binary 05)" 1000
}
@test "chapter 05 matches chapter 00: 1037 images, executor wave 64" {
    check_chapter "$(chapter_binary 05)" 1037
}
@test "chapter 05 matches chapter 00: 1037 images, random thread order" {
    check_chapter "$(chapter_binary 05)" 1037 HIPCPU_SCHEDULE=random HIPCPU_SEED=7
}
@test "chapter 05 matches chapter 00: 1037 images, executor wave 32" {
    check_chapter "$(chapter_binary 05 "$WAVE32_BUILD")" 1037
}
@test "chapter 05 matches chapter 00 on the GPU: 1000 and 1037 images" {
    gpu_check 05 1000
    gpu_check 05 1037
}
@test "chapter 06 matches chapter 00: 1000 images, executor wave 64" {
    check_chapter "$(chapter_binary 06)" 1000
}
@test "chapter 06 matches chapter 00: 1037 images, executor wave 64" {
    check_chapter "$(chapter_binary 06)" 1037
}
@test "chapter 06 matches chapter 00: 1037 images, random thread order" {
    check_chapter "$(chapter_binary 06)" 1037 HIPCPU_SCHEDULE=random HIPCPU_SEED=7
}
@test "chapter 06 matches chapter 00: 1037 images, executor wave 32" {
    check_chapter "$(chapter_binary 06 "$WAVE32_BUILD")" 1037
}
@test "chapter 06 matches chapter 00 on the GPU: 1000 and 1037 images" {
    gpu_check 06 1000
    gpu_check 06 1037
}
@test "chapter 07 matches chapter 00: 1000 images, executor wave 64" {
    check_chapter "$(chapter_binary 07)" 1000
}
@test "chapter 07 matches chapter 00: 1037 images, executor wave 64" {
    check_chapter "$(chapter_binary 07)" 1037
}
@test "chapter 07 matches chapter 00: 1037 images, random thread order" {
    check_chapter "$(chapter_binary 07)" 1037 HIPCPU_SCHEDULE=random HIPCPU_SEED=7
}
@test "chapter 07 matches chapter 00: 1037 images, executor wave 32" {
    check_chapter "$(chapter_binary 07 "$WAVE32_BUILD")" 1037
}
@test "chapter 07 matches chapter 00 on the GPU: 1000 and 1037 images" {
    gpu_check 07 1000
    gpu_check 07 1037
}
@test "chapter 08 matches chapter 00: 1000 images, executor wave 64" {
    check_chapter "$(chapter_binary 08)" 1000
}
@test "chapter 08 matches chapter 00: 1037 images, executor wave 64" {
    check_chapter "$(chapter_binary 08)" 1037
}
@test "chapter 08 matches chapter 00: 1037 images, random thread order" {
    check_chapter "$(chapter_binary 08)" 1037 HIPCPU_SCHEDULE=random HIPCPU_SEED=7
}
@test "chapter 08 matches chapter 00: 1037 images, executor wave 32" {
    check_chapter "$(chapter_binary 08 "$WAVE32_BUILD")" 1037
}
@test "chapter 08 matches chapter 00 on the GPU: 1000 and 1037 images" {
    gpu_check 08 1000
    gpu_check 08 1037
}
