; tests/model_code/gcn/kernels.hip's _Z9block_sumPKfPf, from hipcc -O3 --offload-arch=gfx906 --cuda-device-only -S -gline-tables-only;
; cut to one kernel, its descriptor's resource lines and its occupancy.
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
	.file	0 "/work/main" "tests/model_code/gcn/kernels.hip" md5 0xb3f2cf816591afb2bd96b618ed2ffe4e
	.file	1 "/usr/include/hip/amd_detail" "amd_hip_runtime.h" md5 0x16093af3b78d7538c31396a9fb8b635e
	.file	2 "/usr/include/hip/amd_detail" "amd_device_functions.h" md5 0x913bb197e0af7d58a97d587c496ee161
	.file	3 "/usr/include/hip/amd_detail" "amd_hip_vector_types.h" md5 0x9c4ec106539eee81080454f385efd539
	.file	4 "/usr/include/hip/amd_detail" "amd_hip_atomic.h" md5 0x784b7b4d693e9ab86a7243ffbf9c8dbc
	.type	_Z9block_sumPKfPf,@function
_Z9block_sumPKfPf:                      ; @_Z9block_sumPKfPf
.Lfunc_begin6:
	.loc	0 56 0                          ; tests/model_code/gcn/kernels.hip:56:0
; %bb.0:
	.loc	1 263 69 prologue_end           ; /usr/include/hip/amd_detail/amd_hip_runtime.h:263:69
	s_load_dwordx4 s[0:3], s[6:7], 0x0
.Ltmp26:
	.loc	0 58 45                         ; tests/model_code/gcn/kernels.hip:58:45
	v_lshl_add_u32 v1, s8, 8, v0
	.loc	0 58 25 is_stmt 0               ; tests/model_code/gcn/kernels.hip:58:25
	v_mov_b32_e32 v2, 0
	v_lshlrev_b64 v[1:2], 2, v[1:2]
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v3, s1
	v_add_co_u32_e32 v1, vcc, s0, v1
	v_addc_co_u32_e32 v2, vcc, v3, v2, vcc
	global_load_dword v2, v[1:2], off
.Ltmp27:
	.loc	1 268 12 is_stmt 1              ; /usr/include/hip/amd_detail/amd_hip_runtime.h:268:12
	s_load_dword s0, s[4:5], 0x4
	s_load_dword s1, s[4:5], 0xc
	v_lshlrev_b32_e32 v1, 2, v0
	s_waitcnt lgkmcnt(0)
	s_and_b32 s0, s0, 0xffff
	s_mul_i32 s4, s8, s0
	s_sub_i32 s1, s1, s4
	s_min_u32 s4, s1, s0
.Ltmp28:
	.loc	0 60 41                         ; tests/model_code/gcn/kernels.hip:60:41
	s_cmp_lt_u32 s4, 2
	.loc	0 58 23                         ; tests/model_code/gcn/kernels.hip:58:23
	s_waitcnt vmcnt(0)
	ds_write_b32 v1, v2
.Ltmp29:
	.loc	2 890 9                         ; /usr/include/hip/amd_detail/amd_device_functions.h:890:9
	s_waitcnt lgkmcnt(0)
	.loc	2 891 9                         ; /usr/include/hip/amd_detail/amd_device_functions.h:891:9
	s_barrier 
	.loc	2 892 9                         ; /usr/include/hip/amd_detail/amd_device_functions.h:892:9
	s_waitcnt lgkmcnt(0)
	s_cbranch_scc0 .LBB6_5
.Ltmp30:
.LBB6_1:
	.loc	2 0 9 is_stmt 0                 ; /usr/include/hip/amd_detail/amd_device_functions.h:0:9
	s_mov_b32 s9, 0
	.loc	0 64 21 is_stmt 1               ; tests/model_code/gcn/kernels.hip:64:21
	v_cmp_eq_u32_e32 vcc, 0, v0
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB6_3
; %bb.2:
	.loc	0 0 21 is_stmt 0                ; tests/model_code/gcn/kernels.hip:0:21
	v_mov_b32_e32 v0, 0
	.loc	0 64 45                         ; tests/model_code/gcn/kernels.hip:64:45
	ds_read_b32 v1, v0
	s_lshl_b64 s[0:1], s[8:9], 2
	s_add_u32 s0, s2, s0
	s_addc_u32 s1, s3, s1
	.loc	0 64 43                         ; tests/model_code/gcn/kernels.hip:64:43
	s_waitcnt lgkmcnt(0)
	global_store_dword v0, v1, s[0:1]
.LBB6_3:
	.loc	0 65 1 is_stmt 1                ; tests/model_code/gcn/kernels.hip:65:1
	s_endpgm
.LBB6_4:                                ;   in Loop: Header=BB6_5 Depth=1
	.loc	0 0 1 is_stmt 0                 ; tests/model_code/gcn/kernels.hip:0:1
	s_or_b64 exec, exec, s[0:1]
	.loc	0 60 41 is_stmt 1               ; tests/model_code/gcn/kernels.hip:60:41
	s_cmp_lt_u32 s4, 4
	s_mov_b32 s4, s5
.Ltmp31:
	.loc	2 890 9                         ; /usr/include/hip/amd_detail/amd_device_functions.h:890:9
	s_waitcnt lgkmcnt(0)
	.loc	2 891 9                         ; /usr/include/hip/amd_detail/amd_device_functions.h:891:9
	s_barrier 
	.loc	2 892 9                         ; /usr/include/hip/amd_detail/amd_device_functions.h:892:9
	s_waitcnt lgkmcnt(0)
	s_cbranch_scc1 .LBB6_1
.Ltmp32:
.LBB6_5:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 0 0 is_stmt 0                 ; tests/model_code/gcn/kernels.hip:0:0
	s_lshr_b32 s5, s4, 1
	.loc	0 61 25 is_stmt 1               ; tests/model_code/gcn/kernels.hip:61:25
	v_cmp_gt_u32_e32 vcc, s5, v0
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB6_4
; %bb.6:                                ;   in Loop: Header=BB6_5 Depth=1
	.loc	0 0 25 is_stmt 0                ; tests/model_code/gcn/kernels.hip:0:25
	v_lshl_add_u32 v2, s5, 2, v1
	.loc	0 61 51                         ; tests/model_code/gcn/kernels.hip:61:51
	ds_read_b32 v2, v2
	.loc	0 61 48                         ; tests/model_code/gcn/kernels.hip:61:48
	ds_read_b32 v3, v1
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v2, v2, v3
	ds_write_b32 v1, v2
	s_branch .LBB6_4
.Ltmp33:
	.amdhsa_kernel _Z9block_sumPKfPf
		.amdhsa_group_segment_fixed_size 1024
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 10
	.end_amdhsa_kernel
	.text
.Lfunc_end6:
; Kernel info:
; NumVgprs: 4
; ScratchSize: 0
; Occupancy: 10
