/*
 * file.c - read a whole file into memory (see file.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "base/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"

char *file_read_text(const char *path, size_t *len_out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 65536;
            text = realloc(text, cap);
            if (!text)
                panic("out of memory");
        }
        size_t got = fread(text + len, 1, cap - len - 1, f);
        len += got;
        if (!got)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(text);
        errno = EIO;
        return NULL;
    }
    text[len] = 0;
    if (len_out)
        *len_out = len;
    return text;
}
