; tests/model_code/gcn/kernels.hip's _Z8dot_loopPKfS0_Pfi, from hipcc -O3 --offload-arch=gfx906 --cuda-device-only -S -gline-tables-only;
; cut to one kernel, its descriptor's resource lines and its occupancy.
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
	.type	_Z8dot_loopPKfS0_Pfi,@function
_Z8dot_loopPKfS0_Pfi:                   ; @_Z8dot_loopPKfS0_Pfi
.Lfunc_begin0:
	.file	0 "/work/main" "tests/model_code/gcn/kernels.hip" md5 0xb3f2cf816591afb2bd96b618ed2ffe4e
	.loc	0 7 0                           ; tests/model_code/gcn/kernels.hip:7:0
; %bb.0:
	.loc	0 9 23 prologue_end             ; tests/model_code/gcn/kernels.hip:9:23
	s_load_dword s8, s[4:5], 0x18
	s_load_dwordx4 s[0:3], s[4:5], 0x0
	s_load_dwordx2 s[6:7], s[4:5], 0x10
	s_waitcnt lgkmcnt(0)
	s_cmp_gt_i32 s8, 0
	s_cbranch_scc1 .LBB0_2
; %bb.1:
	.loc	0 10 5                          ; tests/model_code/gcn/kernels.hip:10:5
	v_mov_b32_e32 v1, 0
	v_mov_b32_e32 v4, 0
	s_cbranch_execz .LBB0_3
	s_branch .LBB0_5
.LBB0_2:
	.loc	0 0 5 is_stmt 0                 ; tests/model_code/gcn/kernels.hip:0:5
	v_mov_b32_e32 v4, 0
.LBB0_3:
	.loc	0 9 5 is_stmt 1                 ; tests/model_code/gcn/kernels.hip:9:5
	v_lshlrev_b32_e32 v2, 2, v0
	v_mov_b32_e32 v1, 0
	v_mov_b32_e32 v3, s1
	v_add_co_u32_e32 v2, vcc, s0, v2
	v_addc_co_u32_e32 v3, vcc, 0, v3, vcc
	v_mov_b32_e32 v4, v1
.LBB0_4:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 9 40 is_stmt 0                ; tests/model_code/gcn/kernels.hip:9:40
	global_load_dword v5, v[2:3], off
	.loc	0 9 66                          ; tests/model_code/gcn/kernels.hip:9:66
	s_load_dword s0, s[2:3], 0x0
	.loc	0 9 23                          ; tests/model_code/gcn/kernels.hip:9:23
	s_add_i32 s8, s8, -1
	s_add_u32 s2, s2, 4
	v_add_co_u32_e32 v2, vcc, 0x100, v2
	s_addc_u32 s3, s3, 0
	v_addc_co_u32_e32 v3, vcc, 0, v3, vcc
	s_cmp_eq_u32 s8, 0
	.loc	0 9 37                          ; tests/model_code/gcn/kernels.hip:9:37
	s_waitcnt vmcnt(0) lgkmcnt(0)
	v_fmac_f32_e32 v4, s0, v5
	s_cbranch_scc0 .LBB0_4
.LBB0_5:
	.loc	0 0 37                          ; tests/model_code/gcn/kernels.hip:0:37
	v_lshlrev_b64 v[0:1], 2, v[0:1]
	v_mov_b32_e32 v2, s7
	v_add_co_u32_e32 v0, vcc, s6, v0
	v_addc_co_u32_e32 v1, vcc, v2, v1, vcc
	.loc	0 10 22 is_stmt 1               ; tests/model_code/gcn/kernels.hip:10:22
	global_store_dword v[0:1], v4, off
	.loc	0 11 1                          ; tests/model_code/gcn/kernels.hip:11:1
	s_endpgm
.Ltmp0:
	.amdhsa_kernel _Z8dot_loopPKfS0_Pfi
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_next_free_vgpr 6
		.amdhsa_next_free_sgpr 9
	.end_amdhsa_kernel
	.text
.Lfunc_end0:
; Kernel info:
; NumVgprs: 6
; ScratchSize: 0
; Occupancy: 10
