; guarded.s edited by hand: its s_cbranch_execz goes to .LBB2_9, a label the kernel does not have.
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
	.file	0 "/work/main" "tests/model_code/gcn/kernels.hip" md5 0xa051e6bb10d0b95392e47f53affa0443
	.file	1 "/usr/include/hip/amd_detail" "amd_hip_runtime.h" md5 0x16093af3b78d7538c31396a9fb8b635e
	.file	2 "/usr/include/hip/amd_detail" "amd_device_functions.h" md5 0x913bb197e0af7d58a97d587c496ee161
	.type	_Z12guarded_copyPKfPfi,@function
_Z12guarded_copyPKfPfi:                 ; @_Z12guarded_copyPKfPfi
.Lfunc_begin2:
	.loc	0 24 0                          ; tests/model_code/gcn/kernels.hip:24:0
; %bb.0:
	.loc	1 268 12 prologue_end           ; /usr/include/hip/amd_detail/amd_hip_runtime.h:268:12
	s_load_dword s0, s[4:5], 0x4
	s_load_dword s1, s[4:5], 0xc
.Ltmp5:
	.loc	1 263 69                        ; /usr/include/hip/amd_detail/amd_hip_runtime.h:263:69
	s_load_dword s2, s[6:7], 0x10
.Ltmp6:
	.loc	1 268 12                        ; /usr/include/hip/amd_detail/amd_hip_runtime.h:268:12
	s_waitcnt lgkmcnt(0)
	s_and_b32 s0, s0, 0xffff
	s_mul_i32 s3, s8, s0
	s_sub_i32 s1, s1, s3
	s_min_u32 s0, s1, s0
.Ltmp7:
	.loc	0 25 24                         ; tests/model_code/gcn/kernels.hip:25:24
	s_mul_i32 s0, s0, s8
	.loc	0 25 37 is_stmt 0               ; tests/model_code/gcn/kernels.hip:25:37
	v_add_u32_e32 v0, s0, v0
	.loc	0 26 11 is_stmt 1               ; tests/model_code/gcn/kernels.hip:26:11
	v_cmp_gt_i32_e32 vcc, s2, v0
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB2_9
; %bb.1:
.Ltmp8:
	.loc	1 263 69                        ; /usr/include/hip/amd_detail/amd_hip_runtime.h:263:69
	s_load_dwordx4 s[0:3], s[6:7], 0x0
.Ltmp9:
	.loc	0 26 25                         ; tests/model_code/gcn/kernels.hip:26:25
	v_ashrrev_i32_e32 v1, 31, v0
	v_lshlrev_b64 v[0:1], 2, v[0:1]
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v3, s1
	v_add_co_u32_e32 v2, vcc, s0, v0
	v_addc_co_u32_e32 v3, vcc, v3, v1, vcc
	global_load_dword v2, v[2:3], off
	v_mov_b32_e32 v3, s3
	v_add_co_u32_e32 v0, vcc, s2, v0
	v_addc_co_u32_e32 v1, vcc, v3, v1, vcc
	.loc	0 26 31 is_stmt 0               ; tests/model_code/gcn/kernels.hip:26:31
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v2, v2, v2
	.loc	0 26 23                         ; tests/model_code/gcn/kernels.hip:26:23
	global_store_dword v[0:1], v2, off
.LBB2_2:
	.loc	0 27 1 is_stmt 1                ; tests/model_code/gcn/kernels.hip:27:1
	s_endpgm
.Ltmp10:
	.amdhsa_kernel _Z12guarded_copyPKfPfi
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 9
	.end_amdhsa_kernel
	.text
.Lfunc_end2:
; Kernel info:
; NumVgprs: 4
; ScratchSize: 0
; Occupancy: 10
