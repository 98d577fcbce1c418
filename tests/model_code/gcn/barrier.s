; tests/model_code/gcn/kernels.hip's _Z10tile_pairsPKfPf, from hipcc -O3 --offload-arch=gfx906 --cuda-device-only -S -gline-tables-only;
; cut to one kernel, its descriptor's resource lines and its occupancy.
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
	.file	0 "/work/main" "tests/model_code/gcn/kernels.hip" md5 0xb3f2cf816591afb2bd96b618ed2ffe4e
	.type	_Z10tile_pairsPKfPf,@function
_Z10tile_pairsPKfPf:                    ; @_Z10tile_pairsPKfPf
.Lfunc_begin1:
	.loc	0 14 0                          ; tests/model_code/gcn/kernels.hip:14:0
; %bb.0:
	.file	1 "/usr/include/hip/amd_detail" "amd_hip_runtime.h" md5 0x16093af3b78d7538c31396a9fb8b635e
	.loc	1 263 69 prologue_end           ; /usr/include/hip/amd_detail/amd_hip_runtime.h:263:69
	s_load_dwordx4 s[0:3], s[4:5], 0x0
.Ltmp1:
	.loc	0 16 30                         ; tests/model_code/gcn/kernels.hip:16:30
	v_lshl_add_u32 v1, s6, 8, v0
	.loc	0 17 25                         ; tests/model_code/gcn/kernels.hip:17:25
	v_ashrrev_i32_e32 v2, 31, v1
	v_lshlrev_b64 v[1:2], 2, v[1:2]
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v4, s1
	v_add_co_u32_e32 v3, vcc, s0, v1
	v_addc_co_u32_e32 v4, vcc, v4, v2, vcc
	global_load_dword v3, v[3:4], off
	v_lshlrev_b32_e32 v4, 2, v0
	.loc	0 19 25                         ; tests/model_code/gcn/kernels.hip:19:25
	v_and_b32_e32 v0, 0x7f, v0
	v_lshlrev_b32_e32 v0, 2, v0
	v_mov_b32_e32 v5, s3
	.loc	0 17 23                         ; tests/model_code/gcn/kernels.hip:17:23
	s_waitcnt vmcnt(0)
	ds_write_b32 v4, v3
.Ltmp2:
	.file	2 "/usr/include/hip/amd_detail" "amd_device_functions.h" md5 0x913bb197e0af7d58a97d587c496ee161
	.loc	2 890 9                         ; /usr/include/hip/amd_detail/amd_device_functions.h:890:9
	s_waitcnt lgkmcnt(0)
	.loc	2 891 9                         ; /usr/include/hip/amd_detail/amd_device_functions.h:891:9
	s_barrier 
	.loc	2 892 9                         ; /usr/include/hip/amd_detail/amd_device_functions.h:892:9
	s_waitcnt lgkmcnt(0)
.Ltmp3:
	.loc	0 20 14                         ; tests/model_code/gcn/kernels.hip:20:14
	ds_read2_b32 v[3:4], v0 offset1:32
	v_add_co_u32_e32 v0, vcc, s2, v1
	v_addc_co_u32_e32 v1, vcc, v5, v2, vcc
	.loc	0 20 22 is_stmt 0               ; tests/model_code/gcn/kernels.hip:20:22
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v3, v3, v4
	.loc	0 20 12                         ; tests/model_code/gcn/kernels.hip:20:12
	global_store_dword v[0:1], v3, off
	.loc	0 21 1 is_stmt 1                ; tests/model_code/gcn/kernels.hip:21:1
	s_endpgm
.Ltmp4:
	.amdhsa_kernel _Z10tile_pairsPKfPf
		.amdhsa_group_segment_fixed_size 1024
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_next_free_vgpr 6
		.amdhsa_next_free_sgpr 7
	.end_amdhsa_kernel
	.text
.Lfunc_end1:
; Kernel info:
; NumVgprs: 6
; ScratchSize: 0
; Occupancy: 10
