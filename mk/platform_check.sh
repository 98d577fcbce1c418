#!/usr/bin/env bash
# make chapter-N's check before it builds for a GPU: the platform's compiler, its driver and a
# GPU of its kind must all be here, or the build would run only for the trainer to stop with
# the runtime's own words ("CUDA driver version is insufficient" where there is no driver at
# all). Names each one that is missing, and how to train on the CPU executor instead.
#   mk/platform_check.sh amd|nvidia COMPILER CHAPTER   (CHAPTER as typed: make chapter-CHAPTER)
set -u
platform=$1 compiler=$2 chapter=$3
missing=()

# has_compiler: the compiler named, on PATH or by its path
has_compiler() { [ -n "$compiler" ] && command -v "$compiler" >/dev/null 2>&1; }

# pci_display VENDOR: a display device (PCI class 03) of that vendor, as the kernel lists it
# whether or not a driver took it; where /sys lists no device at all, the answer is yes (unknown)
pci_display() {
    local device seen=0
    for device in /sys/bus/pci/devices/*; do
        [ -r "$device/vendor" ] || continue
        seen=1
        [ "$(cat "$device/vendor")" = "$1" ] && [[ $(cat "$device/class") == 0x03* ]] && return 0
    done
    [ "$seen" -eq 0 ]
}

case $platform in
nvidia)
    has_compiler || missing+=("no nvcc: install the CUDA toolkit, or name it with NVCC=")
    # the kernel driver, or (WSL) its library alone
    if [ ! -e /proc/driver/nvidia/version ] && ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
        missing+=("no NVIDIA driver: no /proc/driver/nvidia/version, no libcuda.so.1")
    fi
    if ! ls /dev/nvidia[0-9]* >/dev/null 2>&1 && [ ! -e /dev/dxg ] && ! pci_display 0x10de; then
        missing+=("no NVIDIA GPU: none on the PCI bus, no /dev/nvidia0")
    fi
    ;;
amd)
    has_compiler || missing+=("no hipcc: install ROCm's HIP compiler, or name it with HIPCC=")
    [ -e /dev/kfd ] || missing+=("no ROCm driver: no /dev/kfd (the amdgpu kernel driver's compute device)")
    if [ -e /dev/kfd ]; then
        # the driver's own list: a GPU node has SIMDs, the CPU's node none
        grep -qs '^simd_count [1-9]' /sys/class/kfd/kfd/topology/nodes/*/properties ||
            missing+=("no AMD GPU: the driver lists none")
    elif ! pci_display 0x1002; then
        missing+=("no AMD GPU: none on the PCI bus")
    fi
    ;;
*) exit 0 ;;
esac

[ ${#missing[@]} -eq 0 ] && exit 0
{
    echo "HIP_PLATFORM=$platform, but this machine cannot run it; nothing was built:"
    printf '  %s\n' "${missing[@]}"
    echo "To train on the CPU executor instead: make chapter-$chapter HIP_PLATFORM=cpu"
} >&2
exit 2
