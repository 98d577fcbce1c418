; tests/model_code/gcn/two_kernels.hip, from hipcc -O3 --offload-arch=gfx906 --cuda-device-only -S -gline-tables-only;
; the whole file but its debug sections, descriptors cut to their resource lines.
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
	.type	_Z5twicef,@function
_Z5twicef:                              ; @_Z5twicef
.Lfunc_begin0:
	.file	0 "/work/main" "tests/model_code/gcn/two_kernels.hip" md5 0x9150ba98c51279cd348cd7debded8e4b
	.loc	0 4 0                           ; tests/model_code/gcn/two_kernels.hip:4:0
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
.Ltmp0:
	.loc	0 4 70 prologue_end             ; tests/model_code/gcn/two_kernels.hip:4:70
	v_add_f32_e32 v0, v0, v0
	.loc	0 4 61 is_stmt 0                ; tests/model_code/gcn/two_kernels.hip:4:61
	s_setpc_b64 s[30:31]
.Ltmp1:
.Lfunc_end0:
	.section	.AMDGPU.csdata
; Function info:
; NumVgprs: 1
; ScratchSize: 0
	.text
	.protected	_Z5scalePff             ; -- Begin function _Z5scalePff
	.globl	_Z5scalePff
	.type	_Z5scalePff,@function
_Z5scalePff:                            ; @_Z5scalePff
.Lfunc_begin1:
	.loc	0 6 0 is_stmt 1                 ; tests/model_code/gcn/two_kernels.hip:6:0
; %bb.0:
	.file	1 "/usr/include/hip/amd_detail" "amd_hip_runtime.h" md5 0x16093af3b78d7538c31396a9fb8b635e
	.loc	1 280 12 prologue_end           ; /usr/include/hip/amd_detail/amd_hip_runtime.h:280:12
	s_load_dwordx2 s[0:1], s[4:5], 0x0
	s_load_dword s2, s[4:5], 0x8
	v_lshlrev_b32_e32 v0, 2, v0
.Ltmp2:
	.loc	0 6 59                          ; tests/model_code/gcn/two_kernels.hip:6:59
	s_waitcnt lgkmcnt(0)
	global_load_dword v1, v0, s[0:1]
	s_waitcnt vmcnt(0)
	v_mul_f32_e32 v1, s2, v1
	global_store_dword v0, v1, s[0:1]
	.loc	0 6 65 is_stmt 0                ; tests/model_code/gcn/two_kernels.hip:6:65
	s_endpgm
.Ltmp3:
	.section	.rodata,#alloc
	.amdhsa_kernel _Z5scalePff
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_next_free_vgpr 2
		.amdhsa_next_free_sgpr 6
	.end_amdhsa_kernel
	.text
.Lfunc_end1:
	.section	.AMDGPU.csdata
; Kernel info:
; NumVgprs: 2
; ScratchSize: 0
; Occupancy: 10
	.text
	.protected	_Z9twice_allPf          ; -- Begin function _Z9twice_allPf
	.globl	_Z9twice_allPf
	.type	_Z9twice_allPf,@function
_Z9twice_allPf:                         ; @_Z9twice_allPf
.Lfunc_begin2:
	.loc	0 8 0 is_stmt 1                 ; tests/model_code/gcn/two_kernels.hip:8:0
; %bb.0:
	.loc	1 280 12 prologue_end           ; /usr/include/hip/amd_detail/amd_hip_runtime.h:280:12
	s_load_dwordx2 s[4:5], s[4:5], 0x0
	v_lshlrev_b32_e32 v1, 2, v0
	s_add_u32 flat_scratch_lo, s6, s9
	s_addc_u32 flat_scratch_hi, s7, 0
	s_add_u32 s0, s0, s9
.Ltmp4:
	.loc	0 8 62                          ; tests/model_code/gcn/two_kernels.hip:8:62
	s_waitcnt lgkmcnt(0)
	global_load_dword v0, v1, s[4:5]
	s_addc_u32 s1, s1, 0
	s_mov_b32 s32, 0
	.loc	0 8 56 is_stmt 0                ; tests/model_code/gcn/two_kernels.hip:8:56
	s_getpc_b64 s[6:7]
	s_add_u32 s6, s6, _Z5twicef@rel32@lo+4
	s_addc_u32 s7, s7, _Z5twicef@rel32@hi+12
	s_swappc_b64 s[30:31], s[6:7]
.Ltmp5:
	.loc	0 8 54                          ; tests/model_code/gcn/two_kernels.hip:8:54
	global_store_dword v1, v0, s[4:5]
	.loc	0 8 79                          ; tests/model_code/gcn/two_kernels.hip:8:79
	s_endpgm
.Ltmp6:
	.section	.rodata,#alloc
	.amdhsa_kernel _Z9twice_allPf
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_next_free_vgpr 2
		.amdhsa_next_free_sgpr 33
	.end_amdhsa_kernel
	.text
.Lfunc_end2:
	.section	.AMDGPU.csdata
; Kernel info:
; NumVgprs: 2
; ScratchSize: 0
; Occupancy: 10
