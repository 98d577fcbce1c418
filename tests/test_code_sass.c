/* Unit tests of the SASS reader (common/model/code_sass.c) on pieces of
 * cuobjdump -sass output of the chapters built for sm_90 (an H200's report,
 * sass-and-stalls/sass.txt.gz), cut to a few instructions each with every
 * branch target kept: tests/model_code/sass/. Each expectation is read off
 * the snippet by hand: instructions are counted from 0 in a kernel, the
 * padding after the last EXIT or RET not counted. Run from the repository root. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/code.h"

#define P(n) (CODE_REG_PREDICATE + (n))
#define UR(n) (CODE_REG_UNIFORM + (n))

#define CODE_READER code_read_sass
#include "code_test_helpers.h"

/* Blocks as (first instruction, fallthrough, target, loop depth, loop header). */
static void assert_blocks(const CodeKernel *k, int n, const int (*expected)[5]) {
    assert_int_equal(k->nblocks, n);
    for (int b = 0; b < n; b++) {
        assert_int_equal(k->blocks[b].first, expected[b][0]);
        assert_int_equal(k->blocks[b].fallthrough, expected[b][1]);
        assert_int_equal(k->blocks[b].target, expected[b][2]);
        assert_int_equal(k->blocks[b].loop_depth, expected[b][3]);
        assert_int_equal(k->blocks[b].loop_header, expected[b][4]);
    }
}

/* Chapter 05's forward_scores: the staging loop 0x910-0x12e0 (instructions
 * 11-26), its guarded LDGs skipped by "@P0 BRA 0xe90"; the padding after
 * the EXIT at 0x1540 (a BRA to itself, NOPs) dropped: 30 instructions. */
static void staging_loop(void **state) {
    (void)state;
    CodeFile file = read_ok("tests/model_code/sass/staging_loop.sass", NULL);
    assert_int_equal(file.kind, CODE_KIND_SASS);
    assert_string_equal(file.arch, "sm_90");
    assert_int_equal(file.nkernels, 1);
    const CodeKernel *k = &file.kernels[0];
    assert_string_equal(k->name, "_Z14forward_scoresPKfS0_Pfi");
    assert_int_equal(k->ninsns, 30);
    const int blocks[][5] = {{0, 1, -1, 0, -1}, {11, 2, 3, 1, 1},   {16, 3, -1, 1, 1},
                             {19, 4, 1, 1, 1},  {27, 5, -1, 0, -1}, {28, -1, -1, 0, -1}};
    assert_blocks(k, 6, blocks);
    assert_string_equal(k->blocks[1].label, "0x910");
    assert_string_equal(k->blocks[3].label, "0xe90");
    assert_true(k->insns[26].conditional);  /* @P0 BRA 0x910 */
    assert_true(k->insns[27].conditional);  /* @P0 EXIT */
    assert_false(k->insns[29].conditional); /* EXIT */
    assert_string_equal(k->insns[29].op, "EXIT");

    const CodeInsn *ldg = &k->insns[10]; /* @!P1 LDG.E R50, desc[UR8][R24.64] */
    assert_int_equal(ldg->pipe, CODE_PIPE_VMEM);
    assert_int_equal(ldg->mem, CODE_MEM_GLOBAL_LOAD);
    assert_int_equal(ldg->bytes, 4);
    assert_true(ldg->guarded);
    DST(ldg, 50);
    SRC(ldg, P(1), UR(8), 24, 25);
    const CodeInsn *sts = &k->insns[13]; /* @!P3 STS [R17], R50 */
    assert_int_equal(sts->pipe, CODE_PIPE_LDS);
    assert_int_equal(sts->mem, CODE_MEM_LDS_STORE);
    assert_int_equal(sts->ndst, 0);
    SRC(sts, P(3), 17, 50);
    assert_int_equal(k->insns[14].pipe, CODE_PIPE_BARRIER); /* BAR.SYNC.DEFER_BLOCKING */
    const CodeInsn *lds = &k->insns[22];                    /* LDS.128 R24, [R64+0x10] */
    assert_int_equal(lds->mem, CODE_MEM_LDS_LOAD);
    assert_int_equal(lds->bytes, 16);
    DST(lds, 24, 25, 26, 27);
    SRC(lds, 64);
    assert_int_equal(k->insns[25].flops, 2); /* FFMA R49, R58, R24, R49 */
    DST(&k->insns[25], 49);
    SRC(&k->insns[25], 58, 24, 49);
    assert_int_equal(k->insns[28].mem, CODE_MEM_GLOBAL_STORE); /* STG.E desc[UR8][R2.64], R55 */
    SRC(&k->insns[28], UR(8), 2, 3, 55);
    assert_int_equal(k->insns[0].pipe, CODE_PIPE_SMEM); /* LDC R1, c[0x0][0x28] */
    assert_int_equal(k->insns[0].mem, CODE_MEM_SCALAR_LOAD);
    assert_int_equal(k->insns[3].pipe, CODE_PIPE_SALU); /* ULDC.64 UR8, c[0x0][0x208] */
    DST(&k->insns[3], UR(8), UR(9));
    DST(&k->insns[2], 50, 51); /* CS2R R50, SRZ */
    assert_int_equal(k->insns[2].nsrc, 0);
    DST(&k->insns[5], P(1)); /* ISETP.GT.OR P1, PT, R0, 0x1ff, P1 */
    SRC(&k->insns[5], 0, P(1));
    DST(&k->insns[7], 12, 13); /* @!P1 IMAD.WIDE.U32 R12, R47, R21, R74: R74 is the low half of a 64-bit addend */
    SRC(&k->insns[7], P(1), 47, 21, 74, 75);
    DST(&k->insns[8], 24, P(4)); /* @!P1 LEA R24, P4, R12.reuse, R24, 0x2: a carry out */
    SRC(&k->insns[8], P(1), 12, 24);
    for (int i = 0; i < k->ninsns; i++) assert_int_equal(k->insns[i].line, -1);
    code_free(&file);
}

/* Chapter 08's update and train_step, cut; BSSY and BSYNC end no block. */
static void two_kernels(void **state) {
    (void)state;
    char names[] = "/tmp/test_code_sass_names_XXXXXX";
    FILE *tsv = fdopen(mkstemp(names), "w");
    assert_non_null(tsv);
    fputs("_Z10train_stepPKfPKhS2_PfS3_Pjif\ttrain_step(float const*, unsigned char const*, float const*, float*, "
          "float*, unsigned int*, int, float)\n",
          tsv);
    fclose(tsv);
    CodeFile file = read_ok("tests/model_code/sass/two_kernels.sass", names);
    remove(names);
    assert_int_equal(file.nkernels, 2);
    assert_string_equal(file.kernels[0].name, "_Z6updatePfS_PKfif");
    assert_string_equal(
        file.kernels[1].name,
        "train_step(float const*, unsigned char const*, float const*, float*, float*, unsigned int*, int, float)");

    const CodeKernel *update = &file.kernels[0];
    assert_int_equal(update->ninsns, 27);
    const int update_blocks[][5] = {
        {0, 1, 3, 0, -1}, {7, 2, -1, 0, -1}, {9, 3, 2, 1, 2}, {17, 4, -1, 0, -1}, {22, -1, -1, 0, -1}};
    assert_blocks(update, 5, update_blocks);
    assert_string_equal(update->blocks[2].label, "0x1a0");
    assert_int_equal(update->insns[4].pipe, CODE_PIPE_OTHER);      /* BSSY B0, 0x410: no jump */
    assert_int_equal(update->insns[17].pipe, CODE_PIPE_OTHER);     /* BSYNC B0 */
    assert_int_equal(update->insns[10].mem, CODE_MEM_GLOBAL_LOAD); /* LDG.E.CONSTANT R18, desc[UR6][R4.64+-0x3d540] */
    DST(&update->insns[10], 18);
    SRC(&update->insns[10], UR(6), 4, 5);
    assert_int_equal(update->insns[14].flops, 1); /* FADD */

    const CodeKernel *train = &file.kernels[1];
    assert_int_equal(train->ninsns, 25);
    const int train_blocks[][5] = {{0, 1, 2, 0, -1},   {8, -1, 2, 0, -1},  {10, 3, 4, 0, -1},
                                   {17, 4, -1, 0, -1}, {18, 5, -1, 0, -1}, {21, -1, -1, 0, -1}};
    assert_blocks(train, 6, train_blocks);
    const CodeInsn *wide = &train->insns[3]; /* @!P1 LDG.E.128.CONSTANT R32, desc[UR12][R4.64] */
    assert_true(wide->guarded);
    assert_int_equal(wide->bytes, 16);
    DST(wide, 32, 33, 34, 35);
    SRC(wide, P(1), UR(12), 4, 5);
    assert_false(train->insns[9].conditional); /* BRA 0x5e0 */
    const CodeInsn *shfl = &train->insns[12];  /* SHFL.DOWN PT, R2, R93, 0x10, 0x1f */
    assert_int_equal(shfl->pipe, CODE_PIPE_VALU);
    DST(shfl, 2);
    SRC(shfl, 93);
    assert_int_equal(train->insns[11].pipe, CODE_PIPE_SALU); /* UISETP.GE.AND UP0, UPT, UR7, UR9, UPT */
    SRC(&train->insns[11], UR(7), UR(9));
    DST(&train->insns[13], P(0)); /* LOP3.LUT P0, RZ, R0.reuse, 0x1f, RZ, 0xc0, !PT */
    SRC(&train->insns[13], 0);
    const CodeInsn *red = &train->insns[22]; /* REDG.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR12][R2.64], R27 */
    assert_int_equal(red->pipe, CODE_PIPE_VMEM);
    assert_int_equal(red->mem, CODE_MEM_GLOBAL_ATOMIC);
    assert_int_equal(red->bytes, 4);
    assert_int_equal(red->ndst, 0);
    SRC(red, UR(12), 2, 3, 27);
    assert_int_equal(strncmp(red->op, "REDG.E.ADD.F32", 14), 0);
    assert_int_equal(train->insns[21].mem, CODE_MEM_LDS_LOAD); /* LDS.128 R4, [UR4+0xaa00] */
    DST(&train->insns[21], 4, 5, 6, 7);
    SRC(&train->insns[21], UR(4));
    code_free(&file);
}

/* Chapter 03's sum_records (BREAK and WARPSYNC: no block ends) and
 * residual_loss, whose division calls a subroutine placed after its EXIT:
 * the call falls through, the subroutine is no edge of the graph. */
static void calls_and_convergence(void **state) {
    (void)state;
    CodeFile file = read_ok("tests/model_code/sass/call_break.sass", NULL);
    assert_int_equal(file.nkernels, 2);
    const CodeKernel *sum = &file.kernels[0];
    assert_int_equal(sum->ninsns, 19);
    const int sum_blocks[][5] = {{0, 1, 5, 0, -1},   {4, 2, 4, 0, -1},   {8, 3, -1, 0, -1},  {9, 4, 3, 1, 3},
                                 {12, 5, -1, 0, -1}, {13, 6, -1, 0, -1}, {18, -1, -1, 0, -1}};
    assert_blocks(sum, 7, sum_blocks);
    assert_int_equal(sum->insns[6].pipe, CODE_PIPE_OTHER); /* @!P0 BREAK B0 */
    assert_true(sum->insns[6].guarded);
    assert_int_equal(sum->insns[14].pipe, CODE_PIPE_OTHER); /* WARPSYNC.ALL */

    const CodeKernel *loss = &file.kernels[1];
    assert_int_equal(loss->ninsns, 32);
    const int loss_blocks[][5] = {{0, 1, -1, 0, -1},   {3, 2, 4, 0, -1},    {10, 3, -1, 0, -1},  {12, 4, -1, 0, -1},
                                  {13, -1, -1, 0, -1}, {16, 6, 8, 0, -1},   {19, 7, 10, 0, -1},  {22, 8, 9, 0, -1},
                                  {24, -1, 11, 0, -1}, {27, -1, 11, 0, -1}, {29, 11, -1, 0, -1}, {30, -1, -1, 0, -1}};
    assert_blocks(loss, 12, loss_blocks);
    assert_string_equal(loss->blocks[5].label, ""); /* 0x1350, the subroutine: after the EXIT, not a target */
    const CodeInsn *call = &loss->insns[11];        /* CALL.REL.NOINC 0x1350 */
    assert_int_equal(call->pipe, CODE_PIPE_BRANCH);
    assert_true(call->conditional);
    assert_int_equal(call->target, CODE_NO_TARGET);
    const CodeInsn *on_p3 = &loss->insns[23]; /* @!P1 BRA !P3, 0x1960 */
    assert_true(on_p3->conditional);
    SRC(on_p3, P(1), P(3));
    assert_int_equal(loss->insns[31].pipe, CODE_PIPE_BRANCH); /* RET.REL.NODEC R6 0x0 */
    SRC(&loss->insns[31], 6);
    assert_int_equal(loss->insns[6].pipe, CODE_PIPE_TRANS); /* MUFU.RCP */
    assert_int_equal(loss->insns[3].bytes, 1);              /* LDG.E.U8 */
    DST(&loss->insns[8], P(0));                             /* FCHK P0, R0, R3 */
    SRC(&loss->insns[8], 0, 3);
    DST(&loss->insns[20], P(0)); /* PLOP3.LUT P0, PT, P0, P1, PT, 0xa8, 0x0 */
    SRC(&loss->insns[20], P(0), P(1));
    code_free(&file);
}

static const char header[] = "arch = sm_90\n\tcode for sm_90\n";

static void errors_name_the_file_and_line(void **state) {
    (void)state;
    char err[512], text[512];
    assert_int_equal(read_text("", "empty.sass", err, sizeof err), -1);
    assert_non_null(strstr(err, "empty.sass"));

    assert_int_equal(read_text(header, "bare.sass", err, sizeof err), -1);
    assert_non_null(strstr(err, "bare.sass:2: no kernel"));

    snprintf(text, sizeof text, "%s\t\tFunction : k\n        /*0000*/   @P0 BRA 0x990 ;\n        /*0010*/   EXIT ;\n",
             header);
    assert_int_equal(read_text(text, "missing.sass", err, sizeof err), -1);
    assert_non_null(strstr(err, "missing.sass:4:"));
    assert_non_null(strstr(err, "0x990"));

    snprintf(
        text, sizeof text,
        "%s\t\tFunction : k\n        /*0000*/   EXIT ;\n\t\t..........\n\t\tFunction : k\n        /*0000*/   EXIT ;\n",
        header);
    assert_int_equal(read_text(text, "twice.sass", err, sizeof err), -1);
    assert_non_null(strstr(err, "twice.sass:6:"));

    snprintf(text, sizeof text, "%s\t\tFunction : k\n        /*0000*/   EXIT\n", header);
    assert_int_equal(read_text(text, "semicolon.sass", err, sizeof err), -1);
    assert_non_null(strstr(err, "semicolon.sass:4:"));

    static char long_line[70000 + 64];
    strcpy(long_line, "arch = sm_90\n");
    memset(long_line + strlen(long_line), ' ', 70000);
    assert_int_equal(read_text(long_line, "long.sass", err, sizeof err), -1);
    assert_non_null(strstr(err, "long.sass:2: a line longer than"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(staging_loop),
        cmocka_unit_test(two_kernels),
        cmocka_unit_test(calls_and_convergence),
        cmocka_unit_test(errors_name_the_file_and_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
