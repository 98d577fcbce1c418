; tests/model_code/gcn/long_branch.hip, from hipcc -O3 --offload-arch=gfx906 --cuda-device-only -S -gline-tables-only -mllvm -amdgpu-s-branch-bits=4;
; cut to its kernel, its descriptor's resource lines and its occupancy.
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
	.type	_Z8sum_rowsPKfPfi,@function
_Z8sum_rowsPKfPfi:                      ; @_Z8sum_rowsPKfPfi
.Lfunc_begin0:
	.file	0 "/work/main" "tests/model_code/gcn/long_branch.hip" md5 0xbb97383d8509a1454956c9f40c88e3be
	.loc	0 4 0                           ; tests/model_code/gcn/long_branch.hip:4:0
; %bb.0:
	.loc	0 6 23 prologue_end             ; tests/model_code/gcn/long_branch.hip:6:23
	s_load_dword s8, s[4:5], 0x10
	s_waitcnt lgkmcnt(0)
	s_cmp_gt_i32 s8, 0
	s_cbranch_scc0 .LBB0_1
.LBB0_12:
	.loc	0 0 23 is_stmt 0                ; tests/model_code/gcn/long_branch.hip:0:23
	s_getpc_b64 s[0:1]
.Lpost_getpc3:
	s_add_u32 s0, s0, (.LBB0_2-.Lpost_getpc3)&4294967295
	s_addc_u32 s1, s1, (.LBB0_2-.Lpost_getpc3)>>32
	s_setpc_b64 s[0:1]
.LBB0_1:
	.loc	0 7 5 is_stmt 1                 ; tests/model_code/gcn/long_branch.hip:7:5
	v_mov_b32_e32 v1, 0
	s_load_dwordx4 s[0:3], s[4:5], 0x0
	v_mov_b32_e32 v4, 0
	s_cbranch_execnz .LBB0_6
.LBB0_8:
	.loc	0 0 5 is_stmt 0                 ; tests/model_code/gcn/long_branch.hip:0:5
	s_getpc_b64 s[4:5]
.Lpost_getpc1:
	s_add_u32 s4, s4, (.LBB0_3-.Lpost_getpc1)&4294967295
	s_addc_u32 s5, s5, (.LBB0_3-.Lpost_getpc1)>>32
	s_setpc_b64 s[4:5]
.LBB0_6:
	s_getpc_b64 s[0:1]
.Lpost_getpc0:
	s_add_u32 s0, s0, (.LBB0_5-.Lpost_getpc0)&4294967295
	s_addc_u32 s1, s1, (.LBB0_5-.Lpost_getpc0)>>32
	s_setpc_b64 s[0:1]
.LBB0_2:
	s_load_dwordx4 s[0:3], s[4:5], 0x0
	v_mov_b32_e32 v4, 0
.LBB0_3:
	.loc	0 6 5 is_stmt 1                 ; tests/model_code/gcn/long_branch.hip:6:5
	v_lshlrev_b32_e32 v2, 2, v0
	v_mov_b32_e32 v1, 0
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v3, s1
	v_add_co_u32_e32 v2, vcc, s0, v2
	v_addc_co_u32_e32 v3, vcc, 0, v3, vcc
	v_mov_b32_e32 v4, v1
.LBB0_4:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 6 40 is_stmt 0                ; tests/model_code/gcn/long_branch.hip:6:40
	global_load_dword v5, v[2:3], off
	.loc	0 6 23                          ; tests/model_code/gcn/long_branch.hip:6:23
	v_add_co_u32_e32 v2, vcc, 0x100, v2
	s_add_i32 s8, s8, -1
	v_addc_co_u32_e32 v3, vcc, 0, v3, vcc
	s_cmp_eq_u32 s8, 0
	.loc	0 6 37                          ; tests/model_code/gcn/long_branch.hip:6:37
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v4, v4, v5
	s_cbranch_scc1 .LBB0_5
.LBB0_10:                               ;   in Loop: Header=BB0_4 Depth=1
	.loc	0 0 37                          ; tests/model_code/gcn/long_branch.hip:0:37
	s_getpc_b64 s[0:1]
.Lpost_getpc2:
	s_add_u32 s0, s0, (.LBB0_4-.Lpost_getpc2)&4294967295
	s_addc_u32 s1, s1, (.LBB0_4-.Lpost_getpc2)>>32
	s_setpc_b64 s[0:1]
.LBB0_5:
	v_lshlrev_b64 v[0:1], 2, v[0:1]
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v2, s3
	v_add_co_u32_e32 v0, vcc, s2, v0
	v_addc_co_u32_e32 v1, vcc, v2, v1, vcc
	.loc	0 7 22 is_stmt 1                ; tests/model_code/gcn/long_branch.hip:7:22
	global_store_dword v[0:1], v4, off
	.loc	0 8 1                           ; tests/model_code/gcn/long_branch.hip:8:1
	s_endpgm
.Ltmp0:
	.amdhsa_kernel _Z8sum_rowsPKfPfi
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
