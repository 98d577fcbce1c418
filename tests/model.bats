#!/usr/bin/env bats
# test-lane: shared-build
# The time model on real inputs (common/cpu/model/README.md; its arithmetic,
# term by term, is tests/test_timemodel.c): the compiled-code facts of a
# hand-written assembly, the model's reading of chapters 01, 03, 04, 05 and
# 08, make profile FILE=..., and its refusals of bad tables. `make test`
# builds the trace binaries and build/tools/timemodel; hipcc is installed
# with the test tools.

load helpers

TIMEMODEL=build/tools/timemodel

profile() { chapter_profile "$@"; } # chapter NN's profile files, without .tsv (helpers.bash)

# value PREFIX KERNEL DEVICE COLUMN: one cell of a chapter's model table.
value() {
    awk -F'\t' -v kernel="$2" -v device="$3" -v name="$4" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $1 == kernel && $2 == device { print $col[name] }' "$1.model.tsv"
}

# unrolled_loop DIR [LINES]: the trace and hipcc's assembly of a kernel k whose line
# 12 ran 100 times per launch (wave-level), each lane loading 4 bytes, compiled as a
# loop unrolled twice (two 4-byte loads of line 12 per trip); LINES, if given, go into
# the loop after its FMAs. The compiler's resources table is each test's own.
unrolled_loop() {
    local dir=$1 extra=${2:-}
    printf 'kernel\tsite\tbuffer\tspace\tkind\trequests\tlanes\tbytes\tsegments\tsectors\tbank_cycles\tatomics\n' >"$dir/sites.tsv"
    printf 'k\tsrc/k.hip:12\tx\tglobal\tload\t100\t6400\t25600\t400\t800\t0\t0\n' >>"$dir/sites.tsv"
    printf 'kernel\tline\twave_runs\nk\tsrc/k.hip:10\t1\nk\tsrc/k.hip:12\t100\n' >"$dir/lines.tsv"
    {
        cat <<'EOF'
	.text
	.file	1 "/src" "k.hip"
k(float*):                              ; @k(float*)
	.loc	1 10 0
	s_load_dwordx2 s[0:1], s[4:5], 0x0
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v1, 0
.LBB0_1:                                ; =>This Inner Loop Header: Depth=1
	.loc	1 12 0
	global_load_dword v2, v[4:5], off
	global_load_dword v3, v[4:5], off offset:4
	s_add_u32 s2, s2, 8
	s_waitcnt vmcnt(0)
	v_fmac_f32_e32 v1, v2, v2
	v_fmac_f32_e32 v1, v3, v3
EOF
        if [ -n "$extra" ]; then printf '%s\n' "$extra"; fi
        cat <<'EOF'
	s_cmp_eq_u32 s2, 0
	s_cbranch_scc0 .LBB0_1
; %bb.2:
	.loc	1 14 0
	global_store_dword v[4:5], v1, off
	s_endpgm
.Lfunc_end0:
EOF
    } >"$dir/k.s"
}

@test "isa_facts: a hand-written assembly gives the runs, instructions and waits worked out by hand" {
    local dir=$BATS_TEST_TMPDIR
    unrolled_loop "$dir"
    printf -- '-\tk\t10\t10\t0\t0\t0\t0\t10\n' >"$dir/resources.tsv"
    run awk -F'\t' -v mix="$dir/mix.tsv" -v waits="$dir/waits.tsv" -f common/scripts/kernel_name.awk -f common/cpu/model/trace_tables.awk -f common/cpu/model/isa_facts.awk \
        "$dir/sites.tsv" "$dir/lines.tsv" "$dir/resources.tsv" "$dir/k.s"
    echo "$output"
    [ "$status" -eq 0 ]
    cat "$dir/mix.tsv" "$dir/waits.tsv"
    # The loop: 8 bytes compiled per trip against 4 traced per run: unrolled twice,
    # 50 trips. Counted runs + per-wave runs (the entry and exit blocks, in no loop).
    [ "$(cut -f 2- "$dir/mix.tsv" | tail -n 1)" = \
        "$(printf '100+1\t100+0\t0+1\t100+0\t0+1\t0+0\t0+0\t50+0\t50+1\t0+0\t200+0\t0\t400+5\t10\t0+0\t0+0\t0')" ]
    # The loop's wait needs its second load, one instruction before it; the entry's, its s_load.
    # (No DRAM shares, first loads' or beyond each re-read distance: this trace has no
    # dram_requests column.)
    [ "$(tail -n +2 "$dir/waits.tsv" | sort)" = \
        "$(printf 'k\tsmem\tper_wave\t0\tk.hip:10\t-\t-\t-\t-\t-\t-\t-\nk\tvm\t50\t1\tk.hip:12\t-\t-\t-\t-\t-\t-\t-')" ]
}

@test "isa_facts: spills (buffer stores and loads) are scratch: counted apart, with their bytes and the compiler's scratch a lane" {
    local dir=$BATS_TEST_TMPDIR
    # The loop of the test above, spilling one dword and reloading two on every trip.
    unrolled_loop "$dir" $'\tbuffer_store_dword v1, off, s[0:3], 0 offset:4 ; 4-byte Folded Spill\n\tbuffer_load_dwordx2 v[6:7], off, s[0:3], 0 offset:4 ; 8-byte Folded Reload'
    # ScratchSize (the sixth column): 12 bytes a lane.
    printf -- '-\tk\t64\t10\t0\t12\t3\t0\t4\n' >"$dir/resources.tsv"
    run awk -F'\t' -v mix="$dir/mix.tsv" -v waits="$dir/waits.tsv" -v arch=gfx90a -f common/scripts/kernel_name.awk -f common/cpu/model/trace_tables.awk -f common/cpu/model/isa_facts.awk \
        "$dir/sites.tsv" "$dir/lines.tsv" "$dir/resources.tsv" "$dir/k.s"
    echo "$output"
    [ "$status" -eq 0 ]
    cat "$dir/mix.tsv"
    # The global loads as above (vmem_load 100+0, vmem_store 0+1); the two scratch
    # instructions 50 times each: 100 runs, 50 x (4 + 8) = 600 bytes a lane; 12 bytes a lane
    # of scratch; waves_per_simd 4, named for a target that is not gfx906.
    [ "$(head -n 1 "$dir/mix.tsv" | cut -f 15-18)" = "$(printf 'waves_per_simd\tvmem_scratch\tscratch_bytes\tscratch_lane_bytes')" ]
    [ "$(cut -f 2- "$dir/mix.tsv" | tail -n 1)" = \
        "$(printf '100+1\t100+0\t0+1\t100+0\t0+1\t0+0\t0+0\t50+0\t50+1\t0+0\t200+0\t0\t500+5\t4\t100+0\t600+0\t12')" ]
}

@test "isa_facts: a block in no loop behind if (tid < 64) runs in the waves that took it, a peeled copy once per wave" {
    local dir=$BATS_TEST_TMPDIR
    # 200 waves. Line 20, behind the branch, ran in 100 of them (its LDS load and store made
    # 100 requests each). Line 30 is a loop's: hipcc peeled one copy of its store out of the
    # loop and kept one in it; its 300 requests (1.5 trips a wave) are mostly the loop's.
    printf 'kernel\tlaunches\tblocks\tthreads\twaves\nk2\t1\t100\t12800\t200\n' >"$dir/counters.tsv"
    printf 'kernel\tsite\tbuffer\tspace\tkind\trequests\tlanes\tbytes\tsegments\tsectors\tbank_cycles\tatomics\n' >"$dir/sites.tsv"
    printf 'k2\tsrc/k.hip:20\tsdata\tshared\tload\t100\t6400\t25600\t0\t0\t200\t0\n' >>"$dir/sites.tsv"
    printf 'k2\tsrc/k.hip:20\tsdata\tshared\tstore\t100\t6400\t25600\t0\t0\t200\t0\n' >>"$dir/sites.tsv"
    printf 'k2\tsrc/k.hip:30\tout\tglobal\tstore\t300\t19200\t76800\t1200\t2400\t0\t0\n' >>"$dir/sites.tsv"
    printf 'kernel\tline\twave_runs\nk2\tsrc/k.hip:10\t200\nk2\tsrc/k.hip:20\t100\nk2\tsrc/k.hip:30\t300\n' >"$dir/lines.tsv"
    printf -- '-\tk2\t10\t10\t0\t0\t0\t0\t10\n' >"$dir/resources.tsv"
    cat >"$dir/k2.s" <<'EOF'
	.text
	.file	1 "/src" "k.hip"
k2(float*):                             ; @k2(float*)
	.loc	1 10 0
	v_cmp_gt_u32_e32 vcc, 64, v0
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB1_2
; %bb.1:
	.loc	1 20 0
	ds_read_b32 v1, v0
	s_waitcnt lgkmcnt(0)
	v_add_u32_e32 v1, v1, v1
	ds_write_b32 v0, v1
.LBB1_2:
	.loc	1 30 0
	s_or_b64 exec, exec, s[0:1]
	v_mov_b32_e32 v2, 0
	global_store_dword v[4:5], v2, off
.LBB1_3:                                ; =>This Inner Loop Header: Depth=1
	.loc	1 30 0
	global_store_dword v[4:5], v2, off
	s_add_u32 s2, s2, 4
	s_cmp_eq_u32 s2, 0
	s_cbranch_scc0 .LBB1_3
; %bb.4:
	.loc	1 40 0
	s_endpgm
.Lfunc_end1:
EOF
    run awk -F'\t' -v mix="$dir/mix.tsv" -v waits="$dir/waits.tsv" -v counters="$dir/counters.tsv" \
        -f common/scripts/kernel_name.awk -f common/cpu/model/trace_tables.awk -f common/cpu/model/isa_facts.awk "$dir/sites.tsv" "$dir/lines.tsv" "$dir/resources.tsv" "$dir/k2.s"
    echo "$output"
    [ "$status" -eq 0 ]
    cat "$dir/mix.tsv" "$dir/waits.tsv"
    # The guarded block's 4 instructions 100 times (valu 100, LDS 200, a wait 100). The
    # peeled store's block has no anchor (line 30 is a loop's), and line 30 ran 300 times,
    # more than the waves: once per wave. The loop: 8 bytes compiled for line 30 against 4
    # traced, two copies, 150 runs. The entry's 3 and the exit's 1 instruction once per wave.
    # The critical path (the last column): this trace has no critical runs, so each block's
    # runs count as the average wave's share of its block, 100 blocks of 200 waves: half of
    # the 1,000 + 7 x 200 instructions, and half the wait's 100 runs.
    [ "$(cut -f 2- "$dir/mix.tsv" | tail -n 1)" = \
        "$(printf '100+2\t300+2\t0+0\t0+0\t150+1\t0+0\t200+0\t150+1\t100+0\t0+0\t0+0\t0\t1000+7\t10\t0+0\t0+0\t0\t1200')" ]
    [ "$(tail -n +2 "$dir/waits.tsv")" = "$(printf 'k2\tlds\t100\t0\tk.hip:20\t-\t-\t-\t-\t-\t-\t-\t50.0')" ]
    # Without the counters (the kernel's waves unknown), every block in no loop runs once per wave.
    run awk -F'\t' -v mix="$dir/mix0.tsv" -v waits="$dir/waits0.tsv" \
        -f common/scripts/kernel_name.awk -f common/cpu/model/trace_tables.awk -f common/cpu/model/isa_facts.awk "$dir/sites.tsv" "$dir/lines.tsv" "$dir/resources.tsv" "$dir/k2.s"
    [ "$status" -eq 0 ]
    [ "$(cut -f 2- "$dir/mix0.tsv" | tail -n 1)" = \
        "$(printf '0+3\t300+2\t0+0\t0+0\t150+1\t0+0\t0+2\t150+1\t0+1\t0+0\t0+0\t0\t600+11\t10\t0+0\t0+0\t0')" ]
}

@test "isa_facts: the blocks of a loop run its compiled trip count, whatever the host build unrolled" {
    local dir=$BATS_TEST_TMPDIR
    # Line 12 loads 4 bytes a lane, 100 times (one load per trip, as compiled). Line 13 is an
    # inner loop of 4 trips the host build ran rolled (400 runs), which hipcc unrolled into
    # the outer loop's body: 4 FMAs in a block with no load of its own.
    printf 'kernel\tsite\tbuffer\tspace\tkind\trequests\tlanes\tbytes\tsegments\tsectors\tbank_cycles\tatomics\n' >"$dir/sites.tsv"
    printf 'k3\tsrc/k.hip:12\tx\tglobal\tload\t100\t6400\t25600\t400\t800\t0\t0\n' >>"$dir/sites.tsv"
    printf 'kernel\tline\twave_runs\nk3\tsrc/k.hip:10\t1\nk3\tsrc/k.hip:12\t100\nk3\tsrc/k.hip:13\t400\nk3\tsrc/k.hip:15\t1\n' >"$dir/lines.tsv"
    printf -- '-\tk3\t10\t10\t0\t0\t0\t0\t10\n' >"$dir/resources.tsv"
    cat >"$dir/k3.s" <<'EOF'
	.text
	.file	1 "/src" "k.hip"
k3(float*):                             ; @k3(float*)
	.loc	1 10 0
	v_mov_b32_e32 v1, 0
.LBB2_1:                                ; =>This Inner Loop Header: Depth=1
	.loc	1 12 0
	global_load_dword v2, v[4:5], off
	s_waitcnt vmcnt(0)
	s_cbranch_execz .LBB2_3
; %bb.2:                                ;   in Loop: Header=BB2_1 Depth=1
	.loc	1 13 0
	v_fmac_f32_e32 v1, v2, v2
	v_fmac_f32_e32 v1, v2, v2
	v_fmac_f32_e32 v1, v2, v2
	v_fmac_f32_e32 v1, v2, v2
.LBB2_3:                                ;   in Loop: Header=BB2_1 Depth=1
	.loc	1 12 0
	s_add_u32 s2, s2, 4
	s_cmp_eq_u32 s2, 0
	s_cbranch_scc0 .LBB2_1
; %bb.4:
	.loc	1 15 0
	global_store_dword v[4:5], v1, off
	s_endpgm
.Lfunc_end2:
EOF
    run awk -F'\t' -v mix="$dir/mix.tsv" -v waits="$dir/waits.tsv" -f common/scripts/kernel_name.awk -f common/cpu/model/trace_tables.awk -f common/cpu/model/isa_facts.awk \
        "$dir/sites.tsv" "$dir/lines.tsv" "$dir/resources.tsv" "$dir/k3.s"
    echo "$output"
    [ "$status" -eq 0 ]
    cat "$dir/mix.tsv"
    # The loop's trip count is its anchor's: 100. The FMA block is in that loop and runs 100
    # times, not the 400 of its line on the host (which would make 1,600 VALU instructions);
    # the latch block, 100. Entry and exit once per wave.
    [ "$(cut -f 2- "$dir/mix.tsv" | tail -n 1)" = \
        "$(printf '400+1\t200+0\t0+0\t100+0\t0+1\t0+0\t0+0\t200+0\t100+0\t0+0\t800+0\t0\t1000+3\t10\t0+0\t0+0\t0')" ]
}

@test "model: chapters 04 and 05 compile to the same gradient, and the model gives it the same time" {
    local four five a b
    four=$(profile 04 1024)
    five=$(profile 05 1024)
    # hipcc unrolls chapter 04's loops itself: the two gradients are the same machine code, so
    # the same instructions issued, whatever the host build (which runs 04's loops rolled) counted.
    a=$(awk -F'\t' '$1 == "gradient" { print $14 }' "$four.mix.tsv")
    b=$(awk -F'\t' '$1 == "gradient" { print $14 }' "$five.mix.tsv")
    echo "gradient instructions: 04 $a, 05 $b"
    awk -v a="${a%%+*}" -v b="${b%%+*}" 'BEGIN { exit !(a > 0 && (a > b ? a - b : b - a) < 0.001 * a) }'
    for device in gfx906 h100; do
        a=$(value "$four" gradient "$device" model_ms)
        b=$(value "$five" gradient "$device" model_ms)
        echo "$device gradient: 04 $a ms, 05 $b ms"
        awk -v a="$a" -v b="$b" 'BEGIN { exit !(a > 0 && (a > b ? a - b : b - a) < 0.01 * a) }'
    done
}

@test "trace: a barrier phase's busiest wave, per line (the critical path), against every wave's runs" {
    local dir=$BATS_TEST_TMPDIR
    # 4 blocks of 256 threads. Every thread writes its part; after the barrier wave 0 alone
    # sums the 256 parts, warpSize at a time.
    cat >"$dir/epilogue.hip" <<'HIP'
#include <hip/hip_runtime.h>
__global__ void epilogue(float *out) {
    __shared__ float part[256];
    part[threadIdx.x] = float(threadIdx.x);
    __syncthreads();
    if (threadIdx.x < warpSize) {
        float sum = 0.0f;
        for (unsigned i = threadIdx.x; i < 256; i += warpSize) sum += part[i];
        out[blockIdx.x * warpSize + threadIdx.x] = sum;
    }
}
int main() {
    float *out;
    if (hipMalloc(&out, 4 * 64 * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(epilogue, dim3(4), dim3(256), 0, 0, out);
    return hipDeviceSynchronize() != hipSuccess;
}
HIP
    run make --no-print-directory profile FILE="$dir/epilogue.hip"
    echo "$output"
    [ "$status" -eq 0 ]
    cat build/profile/standalone/epilogue.lines.tsv
    # The loop's body (line 8): wave 0 alone, 4 trips a block: every run on the critical path.
    [ "$(awk -F'\t' '$2 ~ /epilogue.hip:8$/ { print $3, $4 }' build/profile/standalone/epilogue.lines.tsv)" = "16 16" ]
    # Its store (line 9): wave 0, once a block.
    [ "$(awk -F'\t' '$2 ~ /epilogue.hip:9$/ { print $3, $4 }' build/profile/standalone/epilogue.lines.tsv)" = "4 4" ]
    # The entry block, which every wave runs (the trace names it by the launch's line, where
    # the kernel was inlined): 16 runs, 4 of them on the critical path.
    [ "$(awk -F'\t' '$2 ~ /epilogue.hip:[0-9]+$/ && $3 == 16 && $4 == 4' build/profile/standalone/epilogue.lines.tsv | wc -l)" -ge 1 ]
}

@test "ptx_facts: a hand-written PTX gives the runs, instructions, waits and occupancy worked out by hand" {
    local dir=$BATS_TEST_TMPDIR
    # The warp-32 trace: 16 warps in 2 blocks of 256 threads. Line 12 ran 100 times (warp
    # level), each lane loading 4 bytes; line 13 is counted 30 times, line 20 40 times.
    printf 'kernel\tlaunches\tblocks\tthreads\twaves\nk\t1\t2\t512\t16\n' >"$dir/counters.tsv"
    printf 'kernel\tsite\tbuffer\tspace\tkind\trequests\tlanes\tbytes\tsegments\tsectors\tbank_cycles\tatomics\n' >"$dir/sites.tsv"
    printf 'k\tsrc/k.hip:12\tx\tglobal\tload\t100\t3200\t12800\t400\t400\t0\t0\n' >>"$dir/sites.tsv"
    printf 'k\tsrc/k.hip:14\ty\tglobal\tstore\t16\t512\t2048\t64\t64\t0\t0\n' >>"$dir/sites.tsv"
    printf 'kernel\tline\twave_runs\nk\tsrc/k.hip:10\t16\nk\tsrc/k.hip:12\t100\nk\tsrc/k.hip:13\t30\nk\tsrc/k.hip:20\t40\nk\tsrc/k.hip:14\t16\n' \
        >"$dir/lines.tsv"
    # ptxas -v: 40 registers and 4,096 bytes of shared memory.
    cat >"$dir/ptxas.txt" <<'EOF'
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'k' for 'sm_90'
ptxas info    : Function properties for k
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 40 registers, used 1 barriers, 4096 bytes smem, 360 bytes cmem[0]
EOF
    # nvcc's shape: a loop unrolled twice (two 4-byte loads of line 12), with a guarded
    # multiply (line 13) in it; then a loop with no memory instruction (line 20).
    # (The entry's bit cast, mov.b32 %f9, %r2, is a register copy ptxas coalesces: not issued.)
    cat >"$dir/k.ptx" <<'EOF'
.version 8.0
.target sm_90
.address_size 64

.visible .entry k(
	.param .u64 k_param_0
)
{
	.reg .pred 	%p<4>;
	.reg .f32 	%f<5>;
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<3>;
	.loc	1 10 0
	ld.param.u64 	%rd1, [k_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.f32 	%f1, 0f00000000;
	mov.u32 	%r1, 0;
	mov.u32 	%r2, 0;
	mov.b32 	%f9, %r2;
$L__BB0_1:
	.loc	1 12 5
	ld.global.f32 	%f2, [%rd2];
	add.f32 	%f3, %f1, %f2;
	ld.global.f32 	%f4, [%rd2+4];
	fma.rn.f32 	%f1, %f4, %f4, %f3;
	.loc	1 13 5
	setp.gt.f32 	%p2, %f1, 0f42C80000;
	@%p2 bra 	$L__BB0_3;
	mul.f32 	%f1, %f1, 0f3F000000;
$L__BB0_3:
	.loc	1 11 5
	add.s64 	%rd2, %rd2, 8;
	add.s32 	%r1, %r1, 2;
	setp.lt.u32 	%p1, %r1, 100;
	@%p1 bra 	$L__BB0_1;
$L__BB0_4:
	.loc	1 20 5
	add.f32 	%f1, %f1, %f1;
	add.s32 	%r2, %r2, 1;
	setp.lt.u32 	%p3, %r2, 40;
	@%p3 bra 	$L__BB0_4;
	.loc	1 14 5
	st.global.f32 	[%rd2], %f1;
	ret;

}
	.file	1 "/src/k.hip"
EOF
    run awk -F'\t' -v mix="$dir/mix.tsv" -v waits="$dir/waits.tsv" -v lines_out="$dir/lines_out.tsv" \
        -v counters="$dir/counters.tsv" -f common/cpu/model/trace_tables.awk -f common/cpu/model/ptx_loops.awk \
        -f common/cpu/model/ptx_facts.awk \
        "$dir/sites.tsv" "$dir/lines.tsv" "$dir/ptxas.txt" "$dir/k.ptx"
    echo "$output"
    [ "$status" -eq 0 ]
    cat "$dir/mix.tsv" "$dir/waits.tsv" "$dir/lines_out.tsv"
    # The first loop ($L__BB0_1 to its back edge from $L__BB0_3): 8 bytes of line 12 in the
    # PTX against 4 traced per run, two copies, 50 trips. Its other two blocks have no anchor:
    # they run as often as the loop's trips, 50 (not line 13's 30 traced runs). The second
    # loop has no anchor at all: line 20's 40 runs. The entry (5 instructions) and the exit
    # (2) run once per warp (their lines ran 16 times, in all 16 warps).
    #   valu: 3 x 50 + 1 x 50 + 3 x 50 + 3 x 40 = 470, and 4 per warp (cvta, 3 mov)
    #   branch: 50 + 50 + 40; FLOPs: (1 + 2) x 50 + 1 x 50 + 1 x 40 = 240
    #   instructions: 6 x 50 + 1 x 50 + 4 x 50 + 4 x 40 = 710, and 5 + 2 per warp
    #   occupancy: 40 registers x 32 lanes = 1,280 per warp (a multiple of 256); 16,384 per
    #   SM partition hold 12 warps, 48 per SM: 6 blocks of 8 warps (the warp limit allows
    #   8, shared memory 45 of 4,096 + 1,024 bytes), 48 warps, 12 per partition.
    [ "$(cut -f 2- "$dir/mix.tsv" | tail -n 1)" = \
        "$(printf '470+4\t0+0\t0+1\t100+0\t0+1\t0+0\t0+0\t140+0\t50+0\t0+0\t240+0\t0\t710+7\t12\t40\t4096\t0\t103')" ]
    # (The last column, the critical path: no critical runs in this trace, so each block's
    # runs count as the average warp's share of its block, 2 blocks of 16 warps: an eighth of
    # the 710 + 7 x 16 instructions.)
    # The schedule issues the second load before the add that uses the first, so the add
    # waits for the first with one instruction between (one round trip a trip), and the fma,
    # after that wait, needs no new one. In PTX order it would be two round trips a trip.
    # No DRAM shares (no dram_requests column); an eighth of the 50 runs critical.
    [ "$(tail -n +2 "$dir/waits.tsv")" = "$(printf 'k\tvm\t50\t1\tk.hip:12\t-\t-\t-\t-\t-\t-\t-\t6.2')" ]
    # Per line: line 13's setp and branch in the loop's first block, its multiply in the
    # second, all 50 times.
    grep -qx "$(printf 'k\tk.hip:13\t100+0\t0+0\t0+0\t0+0\t0+0\t50+0\t150+0')" "$dir/lines_out.tsv"
}

@test "timemodel --code-for: only the devices named, each with the code's occupancy" {
    local dir=$BATS_TEST_TMPDIR
    printf 'kernel\tlaunches\tblocks\tthreads\twaves\tglobal_load_requests\tglobal_load_segments\tglobal_load_sectors\t' >"$dir/counters.tsv"
    printf 'global_load_phase_segments\tglobal_load_phase_sectors\tglobal_store_segments\tglobal_store_sectors\t' >>"$dir/counters.tsv"
    printf 'unique_bytes\tlds_bank_cycles\tbarriers\tatomics_max_one_address\n' >>"$dir/counters.tsv"
    printf 'k\t1\t1000\t256000\t8000\t8000\t32000\t32000\t32000\t32000\t0\t0\t1024000\t0\t0\t0\n' >>"$dir/counters.tsv"
    printf 'kernel\tvalu\tsalu\tsmem\tvmem_load\tvmem_store\tvmem_atomic\tlds\tbranch\tinstructions\tflops_per_lane\tcas_loops\twaves_per_simd\n' >"$dir/mix.tsv"
    printf 'k\t0+10\t0+0\t0+0\t0+1\t0+0\t0+0\t0+0\t0+0\t0+11\t0+0\t0\t3\n' >>"$dir/mix.tsv"
    printf 'kernel\tcounter\truns\tdistance\n' >"$dir/waits.tsv"
    run "$TIMEMODEL" --code-for h100,h200 common/cpu/model/devices.tsv "$dir/counters.tsv" "$dir/mix.tsv" "$dir/waits.tsv"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$(cut -f 2 <<<"$output" | tail -n +2 | tr '\n' ' ')" = "h100 h200 " ]
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } { if ($col["occupancy"] != 3) bad = 1 } END { exit bad }' <<<"$output"
    # Without it, every device, and the occupancy only on gfx906 (its code's): h100 its most, 16.
    run "$TIMEMODEL" common/cpu/model/devices.tsv "$dir/counters.tsv" "$dir/mix.tsv" "$dir/waits.tsv"
    [ "$status" -eq 0 ]
    [ "$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } { printf "%s %s ", $2, $col["occupancy"] }' <<<"$output")" = \
        "gfx906 3 h100 16 h200 16 " ]
    run "$TIMEMODEL" --code-for h900 common/cpu/model/devices.tsv "$dir/counters.tsv" "$dir/mix.tsv" "$dir/waits.tsv"
    [ "$status" -eq 1 ]
    [[ "$output" == *"no device 'h900' (--code-for h900)"* ]]
}

@test "model: the H100 and H200 rows read nvcc's code: chapter 01's gradient unrolled 4x, chapter 07's grid at 132 SMs" {
    local p
    p=$(profile 01 1024)
    [ -s "$p.sm_90.mix.tsv" ]
    [ "$(awk -F'\t' '$1 == "gradient"' "$p.model.tsv" | cut -f 2 | tr '\n' ' ')" = "gfx906 h100 h200 " ]
    # hipcc keeps the gradient's loop rolled (a round trip per image); nvcc unrolls it 4x
    # and the loads of a trip go out together: under half the round trips per warp.
    awk -v g="$(value "$p" gradient gfx906 round_trips_per_wave)" -v h="$(value "$p" gradient h100 round_trips_per_wave)" \
        'BEGIN { printf "round trips per wave: gfx906 %s, H100 %s\n", g, h; exit !(h > 0 && h < 0.5 * g) }'
    # The occupancy is ptxas's: 32 registers (1,024 a warp: 16 warps per SM partition), blocks of
    # 256 threads: 8 blocks of 8 warps, 16 warps per partition.
    [ "$(value "$p" gradient h100 occupancy)" = 16 ]
    # Chapter 07 sizes its grid from multiProcessorCount: 60 blocks at wave 64 (gfx906), 132 in
    # the trace the H100 and H200 rows read.
    local seven
    seven=$(profile 07 1024)
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } $1 == "train_step" { exit !($col["blocks"] == 60) }' "$seven.tsv"
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } $1 == "train_step" { exit !($col["blocks"] == 132) }' "$seven.w32.tsv"
}

@test "model: chapter 01 is bound by the gradient's dependent loads; its loss sum has no atomic and costs under 10%" {
    local p
    p=$(profile 01 1024)
    grep -A 40 'The time model' "$p.txt" 2>/dev/null || true
    [ "$(value "$p" gradient gfx906 binding)" = latency ]
    # One dependent load per image a wave adds up: at least 1,000 round trips a wave.
    awk -v t="$(value "$p" gradient gfx906 round_trips_per_wave)" 'BEGIN { exit !(t >= 1000) }'
    # The loss and hits: plain stores and loads, no atomic anywhere.
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } { a += $col["atomics"] } END { exit !(a == 0) }' "$p.tsv"
    # sum_records, the loss's whole reduction, is under 10% of the iteration on both devices.
    # On 4,096 images: its cost is thread 0's serial read of the 256 per-thread sums, the same
    # on any number of images, a critical path the model charges whole (on 1,024 images the
    # rest of an iteration is so short that it is a fifth of it on the H100).
    local device
    p=$(profile 01 4096)
    for device in gfx906 h100; do
        awk -F'\t' -v d="$device" 'NR > 1 && $2 == d { t += $3; if ($1 == "sum_records") r = $3 }
            END { printf "%s: sum_records %.4f of %.4f ms\n", d, r, t; exit !(r > 0 && r < 0.1 * t) }' "$p.model.tsv"
    done
}

@test "model: chapters 03, 04 and 05 differ by the terms their lessons name" {
    local three four five
    three=$(profile 03 1024)
    four=$(profile 04 1024)
    five=$(profile 05 1024)
    # 04's ping-pong buffers issue the next tile's loads before the wait: no round trip left
    # in the gradient, where 03 waits on every tile load; its latency term falls.
    awk -v a="$(value "$three" gradient gfx906 round_trips_per_wave)" \
        -v b="$(value "$four" gradient gfx906 round_trips_per_wave)" 'BEGIN { exit !(a >= 100 && b == 0) }'
    awk -v a="$(value "$three" gradient gfx906 latency_ms)" -v b="$(value "$four" gradient gfx906 latency_ms)" \
        'BEGIN { exit !(b < a) }'
    # 05's unroll-and-jam keeps an image's 10 scores in registers: fewer LDS cycles in the
    # forward (the counter the LDS term charges; on 1,024 images 05's 8 blocks leave most CUs idle).
    local cycles='NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } $1 == "forward_scores" { print $col["lds_bank_cycles"] }'
    awk -v a="$(awk -F'\t' "$cycles" "$four.tsv")" -v b="$(awk -F'\t' "$cycles" "$five.tsv")" \
        'BEGIN { print "forward LDS bank cycles: 04", a, "05", b; exit !(b < 0.8 * a) }'
    # Three different modelled iterations.
    local totals
    totals=$(for p in "$three" "$four" "$five"; do
        awk -F'\t' 'NR > 1 && $2 == "gfx906" { t += $3 } END { printf "%.4f\n", t }' "$p.model.tsv"
    done | sort -u | wc -l)
    [ "$totals" -eq 3 ]
}

@test "model: chapter 08's scalar loads of W reach L2 once per block and phase, not a segment each" {
    local p
    p=$(profile 08 1024)
    # W's segments, from the call sites of its transposed copy (wt); every other load is
    # streamed once, so what reaches L2 beyond the others' segments is W's.
    local w_segments
    w_segments=$(awk -F'\t' '$1 == "train_step" && $3 == "wt" && $5 == "load" { s += $9 } END { print s + 0 }' "$p.sites.tsv")
    awk -F'\t' -v w="$w_segments" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $1 == "train_step" {
            all = $col["global_load_segments"]; past = $col["global_load_phase_segments"]
            w_past = past - (all - w)
            printf "uniform loads %d; segments %d, of W %d; past L1 %d, of W %d\n",
                $col["uniform_load_requests"], all, w, past, w_past
            exit !($col["uniform_load_requests"] > 0 && w > 0 && w_past < w / 4)
        }' "$p.tsv"
}

@test "make profile FILE=: the worked example's bank conflicts and its model" {
    run make --no-print-directory profile FILE=common/cpu/model/examples/transpose.hip
    echo "$output"
    [ "$status" -eq 0 ]
    # The column read of a 32-float tile: all 32 lanes of a pass in one bank, twice per wave64 request.
    grep -Eq 'transpose_tile32 +common/cpu/model/examples/transpose.hip:[0-9]+ +tile +shared +load .* 64\.0$' <<<"$output"
    grep -Eq 'transpose_tile33 +common/cpu/model/examples/transpose.hip:[0-9]+ +tile +shared +load .* 2\.0$' <<<"$output"
    local model=build/profile/standalone/transpose.model.tsv
    [ "$(value "${model%.model.tsv}" transpose_naive gfx906 binding)" = l2 ]
    [ "$(value "${model%.model.tsv}" transpose_tile32 gfx906 binding)" = lds ]
    # The padded tile moves what it must and no more: bound by memory, its model is its unique
    # bytes at the streaming rate (828 of the 1024 GB/s peak the floor uses), plus its launch.
    [ "$(value "${model%.model.tsv}" transpose_tile33 gfx906 binding)" = dram ]
    awk -F'\t' '$1 == "transpose_tile33" && $2 == "gfx906" { exit !($3 <= 1.05 * (($4 - 0.005) * 1024 / 828 + 0.005)) }' "$model"
}

@test "make profile FILE=: the template example's kernels are modelled under their instantiations' names" {
    run make --no-print-directory profile FILE=common/cpu/model/examples/tile_sizes.hip
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" != *"is not modelled"* ]]
    # One launched as (tile_kernel<32, 8>), one as (tile_kernel<kTile, kRows>) with constexpr
    # kTile = 64, kRows = 4: each named as the compiler names it, in the tables and the model's rows.
    local model=build/profile/standalone/tile_sizes.model.tsv kernel
    for kernel in 'tile_kernel<32, 8>' 'tile_kernel<64, 4>'; do
        [ "$(awk -F'\t' -v k="$kernel" '$1 == k && $3 > 0' "$model" | wc -l)" -eq 3 ]
        grep -Fq "$kernel " <<<"$(grep -A3 '^kernel  *runs' <<<"$output")"
        grep -Fq "$kernel " <<<"$(grep -A3 '^kernel  *fill' <<<"$output")"
    done
    run grep -c 'kTile' "$model" build/profile/standalone/tile_sizes.tsv
    [ "$status" -eq 1 ]
}

@test "make profile FILE=: a kernel launched through a macro, a pointer, deduced arguments or as an overload is modelled under its own name" {
    local dir=$BATS_TEST_TMPDIR
    cat >"$dir/launches.hip" <<'HIP'
#include <hip/hip_runtime.h>
#define RUN(kernel, ...) hipLaunchKernelGGL(kernel, dim3(4), dim3(64), 0, 0, __VA_ARGS__)
template <int A, int B> __global__ void axpb(float *v) { v[blockIdx.x * 64 + threadIdx.x] *= A + B; }
template <typename T> __global__ void fill(T *v, T x) { v[blockIdx.x * 64 + threadIdx.x] = x; }
__global__ void halve(float *v) { v[blockIdx.x * 64 + threadIdx.x] *= 0.5f; }
__global__ void negate(float *v) { v[blockIdx.x * 64 + threadIdx.x] = -v[blockIdx.x * 64 + threadIdx.x]; }
__global__ void bump(float *v) { v[blockIdx.x * 64 + threadIdx.x] += 1.0f; }
__global__ void bump(int *v) { v[blockIdx.x * 64 + threadIdx.x] += 1; }
int main(int argc, char **) {
    float *f;
    int *i;
    if (hipMalloc(&f, 1024) != hipSuccess || hipMalloc(&i, 1024) != hipSuccess) return 1;
    RUN((axpb<3, 1>), f);
    RUN(fill, i, 7);
    void (*step)(float *) = argc > 99 ? halve : negate;
    RUN(step, f);
    RUN(bump, f);
    RUN(bump, i);
    return hipDeviceSynchronize() != hipSuccess;
}
HIP
    run make --no-print-directory profile FILE="$dir/launches.hip"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" != *"is not modelled"* ]]
    # Each launch under the kernel it ran, as hipcc names it; both overloads, apart.
    local model=build/profile/standalone/launches.model.tsv kernel
    [ "$(cut -f 1 build/profile/standalone/launches.tsv | tail -n +2 | tr '\n' '|')" = 'axpb<3, 1>|fill<int>|negate|bump(float*)|bump(int*)|' ]
    for kernel in 'axpb<3, 1>' 'fill<int>' negate 'bump(float*)' 'bump(int*)'; do
        [ "$(awk -F'\t' -v k="$kernel" '$1 == k && $3 > 0' "$model" | wc -l)" -eq 3 ]
    done
}

@test "make profile FILE=: no FILE, and a missing one, are refused by name" {
    run make --no-print-directory profile
    [ "$status" -ne 0 ]
    [[ "$output" == *"make profile needs FILE=path/to/kernel.hip"* ]]
    run make --no-print-directory profile FILE=nowhere/kernel.hip
    [ "$status" -ne 0 ]
    [[ "$output" == *"FILE=nowhere/kernel.hip: no such file"* ]]
}

@test "timemodel: a device without a figure, a count that is not one, a missing column: named" {
    local dir=$BATS_TEST_TMPDIR p
    p=$(profile 01 1024)
    local raw=$p.tsv
    grep -v $'^h100\tlaunch_us' common/cpu/model/devices.tsv >"$dir/devices.tsv"
    printf 'kernel\tcounter\truns\tdistance\n' >"$dir/waits.tsv"
    printf 'kernel\tvalu\nforward_scores\t1+1\n' >"$dir/short-mix.tsv"
    run "$TIMEMODEL" "$dir/devices.tsv" "$raw" "$dir/short-mix.tsv" "$dir/waits.tsv"
    [ "$status" -eq 1 ]
    [[ "$output" == *"$dir/devices.tsv: device h100 has no figure 'launch_us'"* ]]
    run "$TIMEMODEL" common/cpu/model/devices.tsv "$raw" "$dir/short-mix.tsv" "$dir/waits.tsv"
    [ "$status" -eq 1 ]
    [[ "$output" == *"short-mix.tsv: no column 'salu' in its header line"* ]]
    sed 's/^\(forward_scores\t[0-9]*\)\t/\1\tmany\t/' "$raw" >"$dir/bad.tsv"
    run "$TIMEMODEL" common/cpu/model/devices.tsv "$dir/bad.tsv" "$dir/short-mix.tsv" "$dir/waits.tsv"
    [ "$status" -eq 1 ]
    [[ "$output" == *"bad.tsv: line 2: 'many' is not a count"* ]]
    run "$TIMEMODEL" common/cpu/model/devices.tsv
    [ "$status" -eq 2 ]
    [[ "$output" == *"usage: timemodel [--code-for DEVICE[,DEVICE...]] DEVICES.tsv COUNTERS.tsv MIX.tsv WAITS.tsv"* ]]
}

@test "validate-model: the validation table in its README is what the model gives on the kept counts" {
    run env TIMEMODEL="$TIMEMODEL" bash common/cpu/model/validation/validate.sh check
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"New sets: 38 rows; within 0.5x-2x of the published time: "* ]]
    [[ "$output" == *"Legacy sets: 20 rows; within 0.5x-2x of the published time: "* ]]
}

@test "validate-model: the bar is a switch of its own, and what it says is what the README's table says (not yet required)" {
    run env TIMEMODEL="$TIMEMODEL" bash common/cpu/model/validation/validate.sh bar
    echo "$output"
    local verdict
    verdict=$(grep -o 'The bar for the new sets ([^)]*): [a-z ]*[a-z]' common/cpu/model/validation/README.md | sed 's/.*: //')
    [ -n "$verdict" ]
    [[ "$output" == *"The bar for the new sets ("*"): $verdict ("* ]]
    if [ "$verdict" = met ]; then [ "$status" -eq 0 ]; else [ "$status" -eq 1 ]; fi
}

@test "validate-model: the kept counts are what the trace build counts today (Harris's transposes, traced again at wave 64 and 32)" {
    local out=$BATS_TEST_TMPDIR/validation
    make --no-print-directory -s HIP_PLATFORM=cpu TRACE=1 build/trace/standalone/harris_transpose \
        STANDALONE_SOURCE=common/cpu/model/validation/harris_transpose.hip
    # The model's devices for these rows alone (timemodel holds 8; the counts compared do not depend on them).
    awk -F'\t' '/^#/ || /^device\t/ || $1 == "m2050" || $1 == "k20c"' common/cpu/model/validation/devices.tsv >"$out.devices.tsv"
    MODEL_DEVICES=$out.devices.tsv PROFILE_STANDALONE=1 \
        PROFILE_SOURCE=common/cpu/model/validation/harris_transpose.hip \
        bash common/cpu/trace/profile.sh build/trace/standalone/harris_transpose "$out" - >"$out.txt" 2>&1 || { cat "$out.txt"; return 1; }
    # Every kept counter column, kernel by kernel, against today's.
    awk -F'\t' 'FNR == 1 { file++; for (i = 1; i <= NF; i++) col[file, $i] = i; if (file == 1) { n = NF; for (i = 1; i <= NF; i++) name[i] = $i }; next }
        file == 1 { for (i = 2; i <= n; i++) kept[$1, name[i]] = $i; next }
        { for (i = 2; i <= n; i++) if ($col[2, name[i]] != kept[$1, name[i]]) { printf "%s %s: kept %s, now %s\n", $1, name[i], kept[$1, name[i]], $col[2, name[i]]; bad = 1 } }
        END { exit bad }' common/cpu/model/validation/counts/harris_transpose.counters.tsv "$out/harris_transpose.tsv"
    diff common/cpu/model/validation/counts/harris_transpose.mix.tsv "$out/harris_transpose.mix.tsv"
    diff common/cpu/model/validation/counts/harris_transpose.waits.tsv "$out/harris_transpose.waits.tsv"
    # And the wave-32 trace's segments and sectors, which the warp-32 devices' rows read.
    make --no-print-directory -s HIP_PLATFORM=cpu TRACE=1 WAVE=32 build/trace-wave32/standalone/harris_transpose \
        STANDALONE_SOURCE=common/cpu/model/validation/harris_transpose.hip
    HIPCPU_PROFILE="$out.wave32.tsv" build/trace-wave32/standalone/harris_transpose >/dev/null
    awk -F'\t' 'FNR == 1 { file++; for (i = 1; i <= NF; i++) { col[file, $i] = i; if (file == 1) name[i] = $i }; if (file == 1) n = NF; next }
        file == 1 { for (i = 2; i <= n; i++) kept[$1, name[i]] = $i; next }
        { for (i = 2; i <= n; i++) if ($col[2, name[i]] != kept[$1, name[i]]) { printf "%s %s at wave 32: kept %s, now %s\n", $1, name[i], kept[$1, name[i]], $col[2, name[i]]; bad = 1 } }
        END { exit bad }' common/cpu/model/validation/counts/harris_transpose.wave32.tsv "$out.wave32.tsv"
}

@test "validate-model: the kept counts of a new set are what the trace build counts today (AMD's Jacobi kernels)" {
    local out=$BATS_TEST_TMPDIR/validation
    make --no-print-directory -s HIP_PLATFORM=cpu TRACE=1 build/trace/standalone/amd_jacobi \
        STANDALONE_SOURCE=common/cpu/model/validation/amd_jacobi.hip
    awk -F'\t' '/^#/ || /^device\t/ || $1 == "mi250"' common/cpu/model/validation/devices.tsv >"$out.devices.tsv"
    MODEL_DEVICES=$out.devices.tsv PROFILE_STANDALONE=1 PROFILE_SOURCE=common/cpu/model/validation/amd_jacobi.hip \
        bash common/cpu/trace/profile.sh build/trace/standalone/amd_jacobi "$out" - >"$out.txt" 2>&1 || { cat "$out.txt"; return 1; }
    awk -F'\t' 'FNR == 1 { file++; for (i = 1; i <= NF; i++) col[file, $i] = i; if (file == 1) { n = NF; for (i = 1; i <= NF; i++) name[i] = $i }; next }
        file == 1 { for (i = 2; i <= n; i++) kept[$1, name[i]] = $i; next }
        { for (i = 2; i <= n; i++) if ($col[2, name[i]] != kept[$1, name[i]]) { printf "%s %s: kept %s, now %s\n", $1, name[i], kept[$1, name[i]], $col[2, name[i]]; bad = 1 } }
        END { exit bad }' common/cpu/model/validation/counts/amd_jacobi.counters.tsv "$out/amd_jacobi.tsv"
    diff common/cpu/model/validation/counts/amd_jacobi.mix.tsv "$out/amd_jacobi.mix.tsv"
    diff common/cpu/model/validation/counts/amd_jacobi.waits.tsv "$out/amd_jacobi.waits.tsv"
}

@test "make profile FILE=: a template kernel is modelled; a program hipcc cannot compile gets its counts and a note" {
    local dir=$BATS_TEST_TMPDIR
    cat >"$dir/strided.hip" <<'HIP'
#include <hip/hip_runtime.h>
template <int STRIDE> __global__ void strided(const float *in, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * STRIDE];
}
int main() {
    float *in, *out;
    if (hipMalloc(&in, 4 << 20) != hipSuccess || hipMalloc(&out, 1 << 20) != hipSuccess) return 1;
    hipLaunchKernelGGL(strided<4>, dim3(1024), dim3(256), 0, 0, in, out);
    return hipDeviceSynchronize() != hipSuccess;
}
HIP
    run make --no-print-directory profile FILE="$dir/strided.hip"
    echo "$output"
    [ "$status" -eq 0 ]
    # The compiler calls it strided<4>, the launch strided<4>: one kernel, modelled (gfx906, H100, H200).
    [ "$(awk -F'\t' '$1 == "strided<4>"' build/profile/standalone/strided.model.tsv | wc -l)" -eq 3 ]
    # hipcpu_wave_uniform is the executor's, not HIP's: hipcc refuses it.
    printf '#include <hip/hip_runtime.h>\n__global__ void k(float *o) { o[threadIdx.x] = hipcpu_wave_uniform(1.0f); }\nint main() { float *o; if (hipMalloc(&o, 256) != hipSuccess) return 1; hipLaunchKernelGGL(k, 1, 64, 0, 0, o); return hipDeviceSynchronize() != hipSuccess; }\n' >"$dir/cpuonly.hip"
    run make --no-print-directory profile FILE="$dir/cpuonly.hip"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"no model: hipcc could not compile $dir/cpuonly.hip for gfx906"* ]]
    grep -Eq '^k +1 +1 ' <<<"$output"
}

@test "isa_facts.sh refuses an ISA_ARCH that is not an AMD target, before compiling anything" {
    run env ISA_ARCH='gfx90a; rm' bash common/cpu/model/isa_facts.sh /nonexistent.hip a b c "$BATS_TEST_TMPDIR/out"
    echo "$output"
    [ "$status" -ne 0 ]
    [[ $output == *"ISA_ARCH=gfx90a; rm: not an AMD target name"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out.remarks" ]
}
