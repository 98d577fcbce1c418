#!/usr/bin/env bash
# Prints the platform to build for when HIP_PLATFORM is not set:
#   amd     ROCm sees a GPU (/dev/kfd exists and rocminfo lists a gfx agent)
#   nvidia  nvidia-smi lists a GPU and nvcc is installed
#   cpu     otherwise: the CPU executor in common/executor/
if [ -e /dev/kfd ] && command -v rocminfo >/dev/null 2>&1 &&
    rocminfo 2>/dev/null | grep -q 'Name: *gfx'; then
    echo amd
elif command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU' &&
    { command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; }; then
    echo nvidia
else
    echo cpu
fi
