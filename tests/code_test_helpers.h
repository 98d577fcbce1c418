/* What the readers' tests share (tests/test_code_ptx.c, tests/test_code_sass.c): each defines
 * CODE_READER, the reader it tests (code_read_ptx, code_read_sass), before including this. */
#ifndef CODE_TEST_HELPERS_H
#define CODE_TEST_HELPERS_H

static CodeFile read_ok(const char *path, const char *names) {
    CodeFile file;
    char err[512] = "";
    FILE *in = fopen(path, "r");
    assert_non_null(in);
    int status = CODE_READER(in, path, names, &file, err, sizeof err);
    fclose(in);
    if (status != 0) fail_msg("%s", err);
    return file;
}

/* The reader's verdict on text given as the file `path`: its status, the message in err. */
static int read_text(const char *text, const char *path, char *err, size_t err_size) {
    FILE *in = tmpfile();
    assert_non_null(in);
    fputs(text, in);
    rewind(in);
    CodeFile file;
    int status = CODE_READER(in, path, NULL, &file, err, err_size);
    fclose(in);
    if (status != 0) assert_int_equal(file.nkernels, 0); /* nothing left to free */
    code_free(&file);
    return status;
}

static void assert_regs(const int *regs, int n, const int *expected, int expected_n) {
    assert_int_equal(n, expected_n);
    for (int i = 0; i < n; i++) assert_int_equal(regs[i], expected[i]);
}
#define DST(insn, ...)                                                                                                 \
    assert_regs((insn)->dst, (insn)->ndst, (const int[]){__VA_ARGS__},                                                 \
                (int)(sizeof((int[]){__VA_ARGS__}) / sizeof(int)))
#define SRC(insn, ...)                                                                                                 \
    assert_regs((insn)->src, (insn)->nsrc, (const int[]){__VA_ARGS__},                                                 \
                (int)(sizeof((int[]){__VA_ARGS__}) / sizeof(int)))

#endif
