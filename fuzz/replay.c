/*
 * replay.c - a main() for the fuzz harnesses without libFuzzer: runs the
 * harness on each file named on the command line, so the inputs fuzzing
 * found (tests/fuzz/) are replayed by the ordinary build and its tests.
 * Exit 0 when every input was handled; a finding aborts.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 2;
        }
        uint8_t *buf = NULL;
        size_t n = 0, cap = 0;
        for (;;) {
            if (n == cap && !(buf = realloc(buf, cap = cap ? 2 * cap : 65536)))
                abort();
            size_t k = fread(buf + n, 1, cap - n, f);
            if (!k)
                break;
            n += k;
        }
        fclose(f);
        LLVMFuzzerTestOneInput(buf, n);
        free(buf);
    }
    return 0;
}
