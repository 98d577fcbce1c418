#!/usr/bin/env bats
# test-lane: shared-build
# The compiled-code facts the time model reads (common/cpu/model/README.md):
# isa_facts on hand-written gfx906 assembly and ptx_facts on hand-written PTX,
# each against runs, instructions, waits and occupancy worked out by hand;
# spills counted as scratch; ISA_ARCH refused when it is not an AMD target.

load helpers
load model_helpers

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
        -v counters="$dir/counters.tsv" -f common/scripts/kernel_name.awk -f common/cpu/model/trace_tables.awk \
        -f common/cpu/model/ptx_loops.awk -f common/cpu/model/ptx_facts.awk \
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

@test "isa_facts.sh refuses an ISA_ARCH that is not an AMD target, before compiling anything" {
    run env ISA_ARCH='gfx90a; rm' bash common/cpu/model/isa_facts.sh /nonexistent.hip a b c "$BATS_TEST_TMPDIR/out"
    echo "$output"
    [ "$status" -ne 0 ]
    [[ $output == *"ISA_ARCH=gfx90a; rm: not an AMD target name"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out.remarks" ]
}
