; tests/model_code/gcn/kernels.hip's _Z5copy4PK15HIP_vector_typeIfLj4EEPS0_, from hipcc -O3 --offload-arch=gfx906 --cuda-device-only -S -gline-tables-only;
; cut to one kernel, its descriptor's resource lines and its occupancy.
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
	.file	0 "/work/main" "tests/model_code/gcn/kernels.hip" md5 0xb3f2cf816591afb2bd96b618ed2ffe4e
	.file	1 "/usr/include/hip/amd_detail" "amd_hip_runtime.h" md5 0x16093af3b78d7538c31396a9fb8b635e
	.file	2 "/usr/include/hip/amd_detail" "amd_device_functions.h" md5 0x913bb197e0af7d58a97d587c496ee161
	.type	_Z5copy4PK15HIP_vector_typeIfLj4EEPS0_,@function
_Z5copy4PK15HIP_vector_typeIfLj4EEPS0_: ; @_Z5copy4PK15HIP_vector_typeIfLj4EEPS0_
.Lfunc_begin3:
	.loc	0 30 0                          ; tests/model_code/gcn/kernels.hip:30:0
; %bb.0:
	.loc	1 268 12 prologue_end           ; /usr/include/hip/amd_detail/amd_hip_runtime.h:268:12
	s_load_dword s9, s[4:5], 0x4
	s_load_dword s10, s[4:5], 0xc
.Ltmp11:
	.loc	1 263 69                        ; /usr/include/hip/amd_detail/amd_hip_runtime.h:263:69
	s_load_dwordx4 s[0:3], s[6:7], 0x0
.Ltmp12:
	.loc	1 268 12                        ; /usr/include/hip/amd_detail/amd_hip_runtime.h:268:12
	s_waitcnt lgkmcnt(0)
	s_and_b32 s4, s9, 0xffff
	s_mul_i32 s5, s8, s4
	s_sub_i32 s5, s10, s5
	s_min_u32 s4, s5, s4
.Ltmp13:
	.loc	0 31 24                         ; tests/model_code/gcn/kernels.hip:31:24
	s_mul_i32 s4, s4, s8
	.loc	0 31 37 is_stmt 0               ; tests/model_code/gcn/kernels.hip:31:37
	v_add_u32_e32 v0, s4, v0
	.loc	0 32 16 is_stmt 1               ; tests/model_code/gcn/kernels.hip:32:16
	v_ashrrev_i32_e32 v1, 31, v0
	v_lshlrev_b64 v[4:5], 4, v[0:1]
	v_mov_b32_e32 v1, s1
	v_add_co_u32_e32 v0, vcc, s0, v4
	v_addc_co_u32_e32 v1, vcc, v1, v5, vcc
	global_load_dwordx4 v[0:3], v[0:1], off
	v_mov_b32_e32 v6, s3
	v_add_co_u32_e32 v4, vcc, s2, v4
	v_addc_co_u32_e32 v5, vcc, v6, v5, vcc
	.loc	0 33 30                         ; tests/model_code/gcn/kernels.hip:33:30
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v0, 1.0, v0
.Ltmp14:
	.file	3 "/usr/include/hip/amd_detail" "amd_hip_vector_types.h" md5 0x9c4ec106539eee81080454f385efd539
	.loc	3 726 22                        ; /usr/include/hip/amd_detail/amd_hip_vector_types.h:726:22
	global_store_dwordx4 v[4:5], v[0:3], off
.Ltmp15:
	.loc	0 34 1                          ; tests/model_code/gcn/kernels.hip:34:1
	s_endpgm
.Ltmp16:
	.amdhsa_kernel _Z5copy4PK15HIP_vector_typeIfLj4EEPS0_
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_next_free_vgpr 7
		.amdhsa_next_free_sgpr 11
	.end_amdhsa_kernel
	.text
.Lfunc_end3:
; Kernel info:
; NumVgprs: 7
; ScratchSize: 0
; Occupancy: 10
