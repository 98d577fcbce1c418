; tests/model_code/gcn/kernels.hip's _Z7cas_maxPfPKf, from hipcc -O3 --offload-arch=gfx906 --cuda-device-only -S -gline-tables-only;
; cut to one kernel, its descriptor's resource lines and its occupancy.
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
	.file	0 "/work/main" "tests/model_code/gcn/kernels.hip" md5 0xb3f2cf816591afb2bd96b618ed2ffe4e
	.file	1 "/usr/include/hip/amd_detail" "amd_hip_runtime.h" md5 0x16093af3b78d7538c31396a9fb8b635e
	.file	2 "/usr/include/hip/amd_detail" "amd_device_functions.h" md5 0x913bb197e0af7d58a97d587c496ee161
	.file	3 "/usr/include/hip/amd_detail" "amd_hip_vector_types.h" md5 0x9c4ec106539eee81080454f385efd539
	.type	_Z7cas_maxPfPKf,@function
_Z7cas_maxPfPKf:                        ; @_Z7cas_maxPfPKf
.Lfunc_begin5:
	.loc	0 44 0                          ; tests/model_code/gcn/kernels.hip:44:0
; %bb.0:
	.loc	1 268 12 prologue_end           ; /usr/include/hip/amd_detail/amd_hip_runtime.h:268:12
	s_load_dword s9, s[4:5], 0x4
	s_load_dword s10, s[4:5], 0xc
.Ltmp19:
	.loc	1 263 69                        ; /usr/include/hip/amd_detail/amd_hip_runtime.h:263:69
	s_load_dwordx4 s[0:3], s[6:7], 0x0
.Ltmp20:
	.loc	0 45 15                         ; tests/model_code/gcn/kernels.hip:45:15
	v_mov_b32_e32 v1, 0
.Ltmp21:
	.loc	1 268 12                        ; /usr/include/hip/amd_detail/amd_hip_runtime.h:268:12
	s_waitcnt lgkmcnt(0)
	s_and_b32 s4, s9, 0xffff
	s_mul_i32 s5, s8, s4
	s_sub_i32 s5, s10, s5
	s_min_u32 s4, s5, s4
.Ltmp22:
	.loc	0 45 29                         ; tests/model_code/gcn/kernels.hip:45:29
	s_mul_i32 s4, s4, s8
	.loc	0 45 42 is_stmt 0               ; tests/model_code/gcn/kernels.hip:45:42
	v_add_u32_e32 v0, s4, v0
	v_lshlrev_b64 v[2:3], 2, v[0:1]
	v_mov_b32_e32 v0, s3
	v_add_co_u32_e32 v2, vcc, s2, v2
	v_addc_co_u32_e32 v3, vcc, v0, v3, vcc
	.loc	0 45 15                         ; tests/model_code/gcn/kernels.hip:45:15
	global_load_dword v2, v[2:3], off
	.loc	0 47 24 is_stmt 1               ; tests/model_code/gcn/kernels.hip:47:24
	s_load_dword s4, s[0:1], 0x0
	s_mov_b64 s[2:3], 0
	.loc	0 0 0 is_stmt 0                 ; tests/model_code/gcn/kernels.hip:0:0
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v3, s4
                                        ; implicit-def: $sgpr4_sgpr5
	s_branch .LBB5_2
.LBB5_1:                                ;   in Loop: Header=BB5_2 Depth=1
	s_or_b64 exec, exec, s[6:7]
	s_and_b64 s[6:7], exec, s[4:5]
	s_or_b64 s[2:3], s[6:7], s[2:3]
	s_andn2_b64 exec, exec, s[2:3]
	s_cbranch_execz .LBB5_4
.LBB5_2:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 50 35 is_stmt 1               ; tests/model_code/gcn/kernels.hip:50:35
	s_waitcnt vmcnt(0)
	v_cmp_nle_f32_e32 vcc, v2, v3
	s_or_b64 s[4:5], s[4:5], exec
	s_and_saveexec_b64 s[6:7], vcc
	s_cbranch_execz .LBB5_1
; %bb.3:                                ;   in Loop: Header=BB5_2 Depth=1
.Ltmp23:
	.file	4 "/usr/include/hip/amd_detail" "amd_hip_atomic.h" md5 0x784b7b4d693e9ab86a7243ffbf9c8dbc
	.loc	4 59 3                          ; /usr/include/hip/amd_detail/amd_hip_atomic.h:59:3
	global_atomic_cmpswap v0, v1, v[2:3], s[0:1] glc
	s_andn2_b64 s[4:5], s[4:5], exec
	s_waitcnt vmcnt(0)
	v_cmp_eq_u32_e32 vcc, v0, v3
	s_and_b64 s[8:9], vcc, exec
	s_or_b64 s[4:5], s[4:5], s[8:9]
	v_mov_b32_e32 v3, v0
	s_branch .LBB5_1
.Ltmp24:
.LBB5_4:
	.loc	0 53 1                          ; tests/model_code/gcn/kernels.hip:53:1
	s_endpgm
.Ltmp25:
	.amdhsa_kernel _Z7cas_maxPfPKf
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 11
	.end_amdhsa_kernel
	.text
.Lfunc_end5:
; Kernel info:
; NumVgprs: 4
; ScratchSize: 0
; Occupancy: 10
