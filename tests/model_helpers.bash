# The time model's tests' helpers, shared by model.bats and code_facts.bats.

# shellcheck disable=SC2034 # the time model's program, for the files that load this one
TIMEMODEL=build/tools/timemodel

profile() { chapter_profile "$@"; } # chapter NN's profile files, without .tsv (helpers.bash)

# value PREFIX KERNEL DEVICE COLUMN: one cell of a chapter's model table.
value() {
    awk -F'\t' -v kernel="$2" -v device="$3" -v name="$4" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $1 == kernel && $2 == device { print $col[name] }' "$1.model.tsv"
}

# unrolled_loop DIR [LINES]: the trace and hipcc's assembly of a kernel k whose line
# 12 ran 100 times per launch (wave-level), each lane loading 4 bytes, compiled as a
# loop unrolled twice (two 4-byte loads of line 12 per trip); LINES, if given, go into
# the loop after its FMAs. The compiler's resources table is each test's own.
unrolled_loop() {
    local dir=$1 extra=${2:-}
    printf 'kernel\tsite\tbuffer\tspace\tkind\trequests\tlanes\tbytes\tsegments\tsectors\tbank_cycles\tatomics\n' >"$dir/sites.tsv"
    printf 'k\tsrc/k.hip:12\tx\tglobal\tload\t100\t6400\t25600\t400\t800\t0\t0\n' >>"$dir/sites.tsv"
    printf 'kernel\tline\twave_runs\nk\tsrc/k.hip:10\t1\nk\tsrc/k.hip:12\t100\n' >"$dir/lines.tsv"
    {
        cat <<'EOF'
	.text
	.file	1 "/src" "k.hip"
k(float*):                              ; @k(float*)
	.loc	1 10 0
	s_load_dwordx2 s[0:1], s[4:5], 0x0
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v1, 0
.LBB0_1:                                ; =>This Inner Loop Header: Depth=1
	.loc	1 12 0
	global_load_dword v2, v[4:5], off
	global_load_dword v3, v[4:5], off offset:4
	s_add_u32 s2, s2, 8
	s_waitcnt vmcnt(0)
	v_fmac_f32_e32 v1, v2, v2
	v_fmac_f32_e32 v1, v3, v3
EOF
        if [ -n "$extra" ]; then printf '%s\n' "$extra"; fi
        cat <<'EOF'
	s_cmp_eq_u32 s2, 0
	s_cbranch_scc0 .LBB0_1
; %bb.2:
	.loc	1 14 0
	global_store_dword v[4:5], v1, off
	s_endpgm
.Lfunc_end0:
EOF
    } >"$dir/k.s"
}
