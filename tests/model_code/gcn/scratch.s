; tests/model_code/gcn/kernels.hip's _Z13private_arrayPKiPfi, from hipcc -O3 --offload-arch=gfx906 --cuda-device-only -S -gline-tables-only;
; cut to one kernel, its descriptor's resource lines and its occupancy.
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
	.file	0 "/work/main" "tests/model_code/gcn/kernels.hip" md5 0xb3f2cf816591afb2bd96b618ed2ffe4e
	.file	1 "/usr/include/hip/amd_detail" "amd_hip_runtime.h" md5 0x16093af3b78d7538c31396a9fb8b635e
	.file	2 "/usr/include/hip/amd_detail" "amd_device_functions.h" md5 0x913bb197e0af7d58a97d587c496ee161
	.file	3 "/usr/include/hip/amd_detail" "amd_hip_vector_types.h" md5 0x9c4ec106539eee81080454f385efd539
	.type	_Z13private_arrayPKiPfi,@function
_Z13private_arrayPKiPfi:                ; @_Z13private_arrayPKiPfi
.Lfunc_begin4:
	.loc	0 37 0                          ; tests/model_code/gcn/kernels.hip:37:0
; %bb.0:
	s_add_u32 s0, s0, s9
.Ltmp17:
	.loc	0 38 5 prologue_end             ; tests/model_code/gcn/kernels.hip:38:5
	s_load_dword s6, s[4:5], 0x10
	s_load_dwordx4 s[8:11], s[4:5], 0x0
	s_addc_u32 s1, s1, 0
	.loc	0 39 23                         ; tests/model_code/gcn/kernels.hip:39:23
	s_waitcnt lgkmcnt(0)
	s_cmp_gt_i32 s6, 0
	s_cbranch_scc1 .LBB4_2
; %bb.1:
	.loc	0 40 29                         ; tests/model_code/gcn/kernels.hip:40:29
	v_mov_b32_e32 v1, 0
	s_cbranch_execz .LBB4_3
	s_branch .LBB4_5
.LBB4_2:
.LBB4_3:
	.loc	0 39 5                          ; tests/model_code/gcn/kernels.hip:39:5
	v_lshlrev_b32_e32 v2, 2, v0
	v_mov_b32_e32 v3, s11
	v_add_co_u32_e32 v2, vcc, s10, v2
	s_mov_b32 s4, 0
	v_mov_b32_e32 v1, 0
	v_addc_co_u32_e32 v3, vcc, 0, v3, vcc
	v_mov_b32_e32 v4, 16
.LBB4_4:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 39 48 is_stmt 0               ; tests/model_code/gcn/kernels.hip:39:48
	global_load_dword v5, v[2:3], off
	.loc	0 39 40                         ; tests/model_code/gcn/kernels.hip:39:40
	s_and_b32 s5, s4, 63
	.loc	0 39 29                         ; tests/model_code/gcn/kernels.hip:39:29
	s_add_i32 s4, s4, 1
	.loc	0 39 23                         ; tests/model_code/gcn/kernels.hip:39:23
	v_add_co_u32_e32 v2, vcc, 0x100, v2
	s_lshl_b32 s5, s5, 2
	v_addc_co_u32_e32 v3, vcc, 0, v3, vcc
	v_add_u32_e32 v6, s5, v4
	s_cmp_eq_u32 s6, s4
	.loc	0 39 46                         ; tests/model_code/gcn/kernels.hip:39:46
	s_waitcnt vmcnt(0)
	buffer_store_dword v5, v6, s[0:3], 0 offen
	s_cbranch_scc0 .LBB4_4
.LBB4_5:
	.loc	0 0 46                          ; tests/model_code/gcn/kernels.hip:0:46
	v_lshlrev_b64 v[0:1], 2, v[0:1]
	v_mov_b32_e32 v3, s9
	v_add_co_u32_e32 v2, vcc, s8, v0
	v_addc_co_u32_e32 v3, vcc, v3, v1, vcc
	.loc	0 40 29 is_stmt 1               ; tests/model_code/gcn/kernels.hip:40:29
	global_load_dword v2, v[2:3], off
	v_mov_b32_e32 v3, 16
	v_add_co_u32_e32 v0, vcc, s10, v0
	.loc	0 40 46 is_stmt 0               ; tests/model_code/gcn/kernels.hip:40:46
	s_waitcnt vmcnt(0)
	v_and_b32_e32 v2, 63, v2
	v_lshl_add_u32 v2, v2, 2, v3
	.loc	0 40 24                         ; tests/model_code/gcn/kernels.hip:40:24
	buffer_load_dword v2, v2, s[0:3], 0 offen
	v_mov_b32_e32 v3, s11
	v_addc_co_u32_e32 v1, vcc, v3, v1, vcc
	.loc	0 40 22                         ; tests/model_code/gcn/kernels.hip:40:22
	s_waitcnt vmcnt(0)
	global_store_dword v[0:1], v2, off
	.loc	0 41 1 is_stmt 1                ; tests/model_code/gcn/kernels.hip:41:1
	s_endpgm
.Ltmp18:
	.amdhsa_kernel _Z13private_arrayPKiPfi
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 272
		.amdhsa_next_free_vgpr 7
		.amdhsa_next_free_sgpr 12
	.end_amdhsa_kernel
	.text
.Lfunc_end4:
; Kernel info:
; NumVgprs: 7
; ScratchSize: 272
; Occupancy: 10
