#!/usr/bin/env bats
# test-lane: shared-build
# The time model on real inputs (common/cpu/model/README.md; its arithmetic,
# term by term, is tests/test_timemodel.c): the compiled-code facts of a
# hand-written assembly, the model's reading of chapters 01, 03, 04, 05 and
# 08, make profile FILE=..., and its refusals of bad tables. `make test`
# builds the trace binaries and build/tools/timemodel; hipcc is installed
# with the test tools.

load helpers

TIMEMODEL=build/tools/timemodel

profile() { chapter_profile "$@"; } # chapter NN's profile files, without .tsv (helpers.bash)

# value PREFIX KERNEL DEVICE COLUMN: one cell of a chapter's model table.
value() {
    awk -F'\t' -v kernel="$2" -v device="$3" -v name="$4" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $1 == kernel && $2 == device { print $col[name] }' "$1.model.tsv"
}

@test "isa_facts: a hand-written assembly gives the runs, instructions and waits worked out by hand" {
    local dir=$BATS_TEST_TMPDIR
    # The trace: line 12 ran 100 times per launch (wave-level), each lane loading 4 bytes.
    printf 'kernel\tsite\tbuffer\tspace\tkind\trequests\tlanes\tbytes\tsegments\tsectors\tbank_cycles\tatomics\n' >"$dir/sites.tsv"
    printf 'k\tsrc/k.hip:12\tx\tglobal\tload\t100\t6400\t25600\t400\t800\t0\t0\n' >>"$dir/sites.tsv"
    printf 'kernel\tline\twave_runs\nk\tsrc/k.hip:10\t1\nk\tsrc/k.hip:12\t100\n' >"$dir/lines.tsv"
    printf -- '-\tk\t10\t10\t0\t0\t0\t0\t10\n' >"$dir/resources.tsv"
    # hipcc's shape: the loop unrolled twice (two 4-byte loads of line 12 per trip).
    cat >"$dir/k.s" <<'EOF'
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
	s_cmp_eq_u32 s2, 0
	s_cbranch_scc0 .LBB0_1
; %bb.2:
	.loc	1 14 0
	global_store_dword v[4:5], v1, off
	s_endpgm
.Lfunc_end0:
EOF
    run awk -F'\t' -v mix="$dir/mix.tsv" -v waits="$dir/waits.tsv" -f common/cpu/model/isa_facts.awk \
        "$dir/sites.tsv" "$dir/lines.tsv" "$dir/resources.tsv" "$dir/k.s"
    echo "$output"
    [ "$status" -eq 0 ]
    cat "$dir/mix.tsv" "$dir/waits.tsv"
    # The loop: 8 bytes compiled per trip against 4 traced per run: unrolled twice,
    # 50 trips. Counted runs + per-wave runs (the entry and exit blocks, in no loop).
    [ "$(cut -f 2- "$dir/mix.tsv" | tail -n 1)" = \
        "$(printf '100+1\t100+0\t0+1\t100+0\t0+1\t0+0\t0+0\t50+0\t50+1\t0+0\t200+0\t0\t400+5\t10')" ]
    # The loop's wait needs its second load, one instruction before it; the entry's, its s_load.
    [ "$(tail -n +2 "$dir/waits.tsv" | sort)" = "$(printf 'k\tsmem\tper_wave\t0\tk.hip:10\nk\tvm\t50\t1\tk.hip:12')" ]
}

@test "isa_facts: a block in no loop behind if (tid < 64) runs in the waves that took it, a peeled copy once per wave" {
    local dir=$BATS_TEST_TMPDIR
    # 200 waves. Line 20, behind the branch, ran in 100 of them (its LDS load and store made
    # 100 requests each). Line 30 is a loop's: hipcc peeled one copy of its store out of the
    # loop and kept one in it; its 300 requests (1.5 trips a wave) are mostly the loop's.
    printf 'kernel\tlaunches\tblocks\tthreads\twaves\nk2\t1\t100\t12800\t200\n' >"$dir/counters.tsv"
    printf 'kernel\tsite\tbuffer\tspace\tkind\trequests\tlanes\tbytes\tsegments\tsectors\tbank_cycles\tatomics\n' >"$dir/sites.tsv"
    printf 'k2\tsrc/k.hip:20\tsdata\tshared\tload\t100\t6400\t25600\t0\t0\t200\t0\n' >>"$dir/sites.tsv"
    printf 'k2\tsrc/k.hip:20\tsdata\tshared\tstore\t100\t6400\t25600\t0\t0\t200\t0\n' >>"$dir/sites.tsv"
    printf 'k2\tsrc/k.hip:30\tout\tglobal\tstore\t300\t19200\t76800\t1200\t2400\t0\t0\n' >>"$dir/sites.tsv"
    printf 'kernel\tline\twave_runs\nk2\tsrc/k.hip:10\t200\nk2\tsrc/k.hip:20\t100\nk2\tsrc/k.hip:30\t300\n' >"$dir/lines.tsv"
    printf -- '-\tk2\t10\t10\t0\t0\t0\t0\t10\n' >"$dir/resources.tsv"
    cat >"$dir/k2.s" <<'EOF'
	.text
	.file	1 "/src" "k.hip"
k2(float*):                             ; @k2(float*)
	.loc	1 10 0
	v_cmp_gt_u32_e32 vcc, 64, v0
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB1_2
; %bb.1:
	.loc	1 20 0
	ds_read_b32 v1, v0
	s_waitcnt lgkmcnt(0)
	v_add_u32_e32 v1, v1, v1
	ds_write_b32 v0, v1
.LBB1_2:
	.loc	1 30 0
	s_or_b64 exec, exec, s[0:1]
	v_mov_b32_e32 v2, 0
	global_store_dword v[4:5], v2, off
.LBB1_3:                                ; =>This Inner Loop Header: Depth=1
	.loc	1 30 0
	global_store_dword v[4:5], v2, off
	s_add_u32 s2, s2, 4
	s_cmp_eq_u32 s2, 0
	s_cbranch_scc0 .LBB1_3
; %bb.4:
	.loc	1 40 0
	s_endpgm
.Lfunc_end1:
EOF
    run awk -F'\t' -v mix="$dir/mix.tsv" -v waits="$dir/waits.tsv" -v counters="$dir/counters.tsv" \
        -f common/cpu/model/isa_facts.awk "$dir/sites.tsv" "$dir/lines.tsv" "$dir/resources.tsv" "$dir/k2.s"
    echo "$output"
    [ "$status" -eq 0 ]
    cat "$dir/mix.tsv" "$dir/waits.tsv"
    # The guarded block's 4 instructions 100 times (valu 100, LDS 200, a wait 100). The
    # peeled store's block has no anchor (line 30 is a loop's), and line 30 ran 300 times,
    # more than the waves: once per wave. The loop: 8 bytes compiled for line 30 against 4
    # traced, two copies, 150 runs. The entry's 3 and the exit's 1 instruction once per wave.
    [ "$(cut -f 2- "$dir/mix.tsv" | tail -n 1)" = \
        "$(printf '100+2\t300+2\t0+0\t0+0\t150+1\t0+0\t200+0\t150+1\t100+0\t0+0\t0+0\t0\t1000+7\t10')" ]
    [ "$(tail -n +2 "$dir/waits.tsv")" = "$(printf 'k2\tlds\t100\t0\tk.hip:20')" ]
    # Without the counters (the kernel's waves unknown), every block in no loop runs once per wave.
    run awk -F'\t' -v mix="$dir/mix0.tsv" -v waits="$dir/waits0.tsv" \
        -f common/cpu/model/isa_facts.awk "$dir/sites.tsv" "$dir/lines.tsv" "$dir/resources.tsv" "$dir/k2.s"
    [ "$status" -eq 0 ]
    [ "$(cut -f 2- "$dir/mix0.tsv" | tail -n 1)" = \
        "$(printf '0+3\t300+2\t0+0\t0+0\t150+1\t0+0\t0+2\t150+1\t0+1\t0+0\t0+0\t0\t600+11\t10')" ]
}

@test "model: chapter 01 is bound by the gradient's dependent loads; its loss sum has no atomic and costs under 10%" {
    local p
    p=$(profile 01 1024)
    grep -A 40 'The time model' "$p.txt" 2>/dev/null || true
    [ "$(value "$p" gradient gfx906 binding)" = latency ]
    # One dependent load per image a wave adds up: at least 1,000 round trips a wave.
    awk -v t="$(value "$p" gradient gfx906 round_trips_per_wave)" 'BEGIN { exit !(t >= 1000) }'
    # The loss and hits: plain stores and loads, no atomic anywhere.
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } { a += $col["atomics"] } END { exit !(a == 0) }' "$p.tsv"
    # sum_records, the loss's whole reduction, is under 10% of the iteration on both devices.
    local device
    for device in gfx906 h100; do
        awk -F'\t' -v d="$device" 'NR > 1 && $2 == d { t += $3; if ($1 == "sum_records") r = $3 }
            END { printf "%s: sum_records %.4f of %.4f ms\n", d, r, t; exit !(r > 0 && r < 0.1 * t) }' "$p.model.tsv"
    done
}

@test "model: chapters 03, 04 and 05 differ by the terms their lessons name" {
    local three four five
    three=$(profile 03 1024)
    four=$(profile 04 1024)
    five=$(profile 05 1024)
    # 04's ping-pong buffers issue the next tile's loads before the wait: no round trip left
    # in the gradient, where 03 waits on every tile load; its latency term falls.
    awk -v a="$(value "$three" gradient gfx906 round_trips_per_wave)" \
        -v b="$(value "$four" gradient gfx906 round_trips_per_wave)" 'BEGIN { exit !(a >= 100 && b == 0) }'
    awk -v a="$(value "$three" gradient gfx906 latency_ms)" -v b="$(value "$four" gradient gfx906 latency_ms)" \
        'BEGIN { exit !(b < a) }'
    # 05's unroll-and-jam keeps an image's 10 scores in registers: fewer LDS cycles in the
    # forward (the counter the LDS term charges; on 1,024 images 05's 8 blocks leave most CUs idle).
    local cycles='NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } $1 == "forward_scores" { print $col["lds_bank_cycles"] }'
    awk -v a="$(awk -F'\t' "$cycles" "$four.tsv")" -v b="$(awk -F'\t' "$cycles" "$five.tsv")" \
        'BEGIN { print "forward LDS bank cycles: 04", a, "05", b; exit !(b < 0.8 * a) }'
    # Three different modelled iterations.
    local totals
    totals=$(for p in "$three" "$four" "$five"; do
        awk -F'\t' 'NR > 1 && $2 == "gfx906" { t += $3 } END { printf "%.4f\n", t }' "$p.model.tsv"
    done | sort -u | wc -l)
    [ "$totals" -eq 3 ]
}

@test "model: chapter 08's scalar loads of W reach L2 once per block and phase, not a segment each" {
    local p
    p=$(profile 08 1024)
    # W's segments, from the call sites of its transposed copy (wt); every other load is
    # streamed once, so what reaches L2 beyond the others' segments is W's.
    local w_segments
    w_segments=$(awk -F'\t' '$1 == "train_step" && $3 == "wt" && $5 == "load" { s += $9 } END { print s + 0 }' "$p.sites.tsv")
    awk -F'\t' -v w="$w_segments" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $1 == "train_step" {
            all = $col["global_load_segments"]; past = $col["global_load_phase_segments"]
            w_past = past - (all - w)
            printf "uniform loads %d; segments %d, of W %d; past L1 %d, of W %d\n",
                $col["uniform_load_requests"], all, w, past, w_past
            exit !($col["uniform_load_requests"] > 0 && w > 0 && w_past < w / 4)
        }' "$p.tsv"
}

@test "make profile FILE=: the worked example's bank conflicts and its model" {
    run make --no-print-directory profile FILE=common/cpu/model/examples/transpose.hip
    echo "$output"
    [ "$status" -eq 0 ]
    # The column read of a 32-float tile: all 32 lanes of a pass in one bank, twice per wave64 request.
    grep -Eq 'transpose_tile32 +common/cpu/model/examples/transpose.hip:[0-9]+ +tile +shared +load .* 64\.0$' <<<"$output"
    grep -Eq 'transpose_tile33 +common/cpu/model/examples/transpose.hip:[0-9]+ +tile +shared +load .* 2\.0$' <<<"$output"
    local model=build/profile/standalone/transpose.model.tsv
    [ "$(value "${model%.model.tsv}" transpose_naive gfx906 binding)" = l2 ]
    [ "$(value "${model%.model.tsv}" transpose_tile32 gfx906 binding)" = lds ]
    # The padded tile moves what it must and no more: its model is its floor.
    awk -F'\t' '$1 == "transpose_tile33" && $2 == "gfx906" { exit !($3 <= 1.05 * $4) }' "$model"
}

@test "make profile FILE=: no FILE, and a missing one, are refused by name" {
    run make --no-print-directory profile
    [ "$status" -ne 0 ]
    [[ "$output" == *"make profile needs FILE=path/to/kernel.hip"* ]]
    run make --no-print-directory profile FILE=nowhere/kernel.hip
    [ "$status" -ne 0 ]
    [[ "$output" == *"FILE=nowhere/kernel.hip: no such file"* ]]
}

@test "timemodel: a device without a figure, a count that is not one, a missing column: named" {
    local dir=$BATS_TEST_TMPDIR p
    p=$(profile 01 1024)
    local raw=$p.tsv
    grep -v $'^h100\tlaunch_us' common/cpu/model/devices.tsv >"$dir/devices.tsv"
    printf 'kernel\tcounter\truns\tdistance\n' >"$dir/waits.tsv"
    printf 'kernel\tvalu\nforward_scores\t1+1\n' >"$dir/short-mix.tsv"
    run "$TIMEMODEL" "$dir/devices.tsv" "$raw" "$dir/short-mix.tsv" "$dir/waits.tsv"
    [ "$status" -eq 1 ]
    [[ "$output" == *"$dir/devices.tsv: device h100 has no figure 'launch_us'"* ]]
    run "$TIMEMODEL" common/cpu/model/devices.tsv "$raw" "$dir/short-mix.tsv" "$dir/waits.tsv"
    [ "$status" -eq 1 ]
    [[ "$output" == *"short-mix.tsv: no column 'salu' in its header line"* ]]
    sed 's/^\(forward_scores\t[0-9]*\)\t/\1\tmany\t/' "$raw" >"$dir/bad.tsv"
    run "$TIMEMODEL" common/cpu/model/devices.tsv "$dir/bad.tsv" "$dir/short-mix.tsv" "$dir/waits.tsv"
    [ "$status" -eq 1 ]
    [[ "$output" == *"bad.tsv: line 2: 'many' is not a count"* ]]
    run "$TIMEMODEL" common/cpu/model/devices.tsv
    [ "$status" -eq 2 ]
    [[ "$output" == *"usage: timemodel DEVICES.tsv COUNTERS.tsv MIX.tsv WAITS.tsv"* ]]
}

@test "validate-model: the validation table in its README is what the model gives on the kept counts" {
    run env TIMEMODEL="$TIMEMODEL" bash common/cpu/model/validation/validate.sh check
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"New sets: 38 rows; within 0.5x-2x of the published time: "* ]]
    [[ "$output" == *"Legacy sets: 20 rows; within 0.5x-2x of the published time: "* ]]
}

@test "validate-model: the bar is a switch of its own, and what it says is what the README's table says (not yet required)" {
    run env TIMEMODEL="$TIMEMODEL" bash common/cpu/model/validation/validate.sh bar
    echo "$output"
    local verdict
    verdict=$(grep -o 'The bar for the new sets ([^)]*): [a-z ]*[a-z]' common/cpu/model/validation/README.md | sed 's/.*: //')
    [ -n "$verdict" ]
    [[ "$output" == *"The bar for the new sets ("*"): $verdict ("* ]]
    if [ "$verdict" = met ]; then [ "$status" -eq 0 ]; else [ "$status" -eq 1 ]; fi
}

@test "validate-model: the kept counts are what the trace build counts today (Harris's transposes, traced again at wave 64 and 32)" {
    local out=$BATS_TEST_TMPDIR/validation
    make --no-print-directory -s HIP_PLATFORM=cpu TRACE=1 build/trace/standalone/harris_transpose \
        STANDALONE_SOURCE=common/cpu/model/validation/harris_transpose.hip
    # The model's devices for these rows alone (timemodel holds 8; the counts compared do not depend on them).
    awk -F'\t' '/^#/ || /^device\t/ || $1 == "m2050" || $1 == "k20c"' common/cpu/model/validation/devices.tsv >"$out.devices.tsv"
    MODEL_DEVICES=$out.devices.tsv PROFILE_STANDALONE=1 \
        PROFILE_SOURCE=common/cpu/model/validation/harris_transpose.hip \
        bash common/cpu/trace/profile.sh build/trace/standalone/harris_transpose "$out" - >"$out.txt" 2>&1 || { cat "$out.txt"; return 1; }
    # Every kept counter column, kernel by kernel, against today's.
    awk -F'\t' 'FNR == 1 { file++; for (i = 1; i <= NF; i++) col[file, $i] = i; if (file == 1) { n = NF; for (i = 1; i <= NF; i++) name[i] = $i }; next }
        file == 1 { for (i = 2; i <= n; i++) kept[$1, name[i]] = $i; next }
        { for (i = 2; i <= n; i++) if ($col[2, name[i]] != kept[$1, name[i]]) { printf "%s %s: kept %s, now %s\n", $1, name[i], kept[$1, name[i]], $col[2, name[i]]; bad = 1 } }
        END { exit bad }' common/cpu/model/validation/counts/harris_transpose.counters.tsv "$out/harris_transpose.tsv"
    diff common/cpu/model/validation/counts/harris_transpose.mix.tsv "$out/harris_transpose.mix.tsv"
    diff common/cpu/model/validation/counts/harris_transpose.waits.tsv "$out/harris_transpose.waits.tsv"
    # And the wave-32 trace's segments and sectors, which the warp-32 devices' rows read.
    make --no-print-directory -s HIP_PLATFORM=cpu TRACE=1 WAVE=32 build/trace-wave32/standalone/harris_transpose \
        STANDALONE_SOURCE=common/cpu/model/validation/harris_transpose.hip
    HIPCPU_PROFILE="$out.wave32.tsv" build/trace-wave32/standalone/harris_transpose >/dev/null
    awk -F'\t' 'FNR == 1 { file++; for (i = 1; i <= NF; i++) { col[file, $i] = i; if (file == 1) name[i] = $i }; if (file == 1) n = NF; next }
        file == 1 { for (i = 2; i <= n; i++) kept[$1, name[i]] = $i; next }
        { for (i = 2; i <= n; i++) if ($col[2, name[i]] != kept[$1, name[i]]) { printf "%s %s at wave 32: kept %s, now %s\n", $1, name[i], kept[$1, name[i]], $col[2, name[i]]; bad = 1 } }
        END { exit bad }' common/cpu/model/validation/counts/harris_transpose.wave32.tsv "$out.wave32.tsv"
}

@test "validate-model: the kept counts of a new set are what the trace build counts today (AMD's Jacobi kernels)" {
    local out=$BATS_TEST_TMPDIR/validation
    make --no-print-directory -s HIP_PLATFORM=cpu TRACE=1 build/trace/standalone/amd_jacobi \
        STANDALONE_SOURCE=common/cpu/model/validation/amd_jacobi.hip
    awk -F'\t' '/^#/ || /^device\t/ || $1 == "mi250"' common/cpu/model/validation/devices.tsv >"$out.devices.tsv"
    MODEL_DEVICES=$out.devices.tsv PROFILE_STANDALONE=1 PROFILE_SOURCE=common/cpu/model/validation/amd_jacobi.hip \
        bash common/cpu/trace/profile.sh build/trace/standalone/amd_jacobi "$out" - >"$out.txt" 2>&1 || { cat "$out.txt"; return 1; }
    awk -F'\t' 'FNR == 1 { file++; for (i = 1; i <= NF; i++) col[file, $i] = i; if (file == 1) { n = NF; for (i = 1; i <= NF; i++) name[i] = $i }; next }
        file == 1 { for (i = 2; i <= n; i++) kept[$1, name[i]] = $i; next }
        { for (i = 2; i <= n; i++) if ($col[2, name[i]] != kept[$1, name[i]]) { printf "%s %s: kept %s, now %s\n", $1, name[i], kept[$1, name[i]], $col[2, name[i]]; bad = 1 } }
        END { exit bad }' common/cpu/model/validation/counts/amd_jacobi.counters.tsv "$out/amd_jacobi.tsv"
    diff common/cpu/model/validation/counts/amd_jacobi.mix.tsv "$out/amd_jacobi.mix.tsv"
    diff common/cpu/model/validation/counts/amd_jacobi.waits.tsv "$out/amd_jacobi.waits.tsv"
}

@test "make profile FILE=: a template kernel is modelled; a program hipcc cannot compile gets its counts and a note" {
    local dir=$BATS_TEST_TMPDIR
    cat >"$dir/strided.hip" <<'HIP'
#include <hip/hip_runtime.h>
template <int STRIDE> __global__ void strided(const float *in, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * STRIDE];
}
int main() {
    float *in, *out;
    if (hipMalloc(&in, 4 << 20) != hipSuccess || hipMalloc(&out, 1 << 20) != hipSuccess) return 1;
    hipLaunchKernelGGL(strided<4>, dim3(1024), dim3(256), 0, 0, in, out);
    return hipDeviceSynchronize() != hipSuccess;
}
HIP
    run make --no-print-directory profile FILE="$dir/strided.hip"
    echo "$output"
    [ "$status" -eq 0 ]
    # The compiler calls it strided<4>, the launch strided<4>: one kernel, modelled.
    [ "$(awk -F'\t' '$1 == "strided<4>"' build/profile/standalone/strided.model.tsv | wc -l)" -eq 2 ]
    # hipcpu_wave_uniform is the executor's, not HIP's: hipcc refuses it.
    printf '#include <hip/hip_runtime.h>\n__global__ void k(float *o) { o[threadIdx.x] = hipcpu_wave_uniform(1.0f); }\nint main() { float *o; if (hipMalloc(&o, 256) != hipSuccess) return 1; hipLaunchKernelGGL(k, 1, 64, 0, 0, o); return hipDeviceSynchronize() != hipSuccess; }\n' >"$dir/cpuonly.hip"
    run make --no-print-directory profile FILE="$dir/cpuonly.hip"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"no model: hipcc could not compile $dir/cpuonly.hip for gfx906"* ]]
    grep -Eq '^k +1 +1 ' <<<"$output"
}
