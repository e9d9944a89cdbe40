/*
 * file.c - read a whole file into memory, write one atomically (see file.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "base/file.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"

char *file_read_text(const char *path, size_t *len_out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct stat st;
    if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
        fclose(f);
        errno = EISDIR; /* fopen opens a folder; reading it would say EIO */
        return NULL;
    }
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

int file_check_text(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    const char *nul = memchr(text, 0, len);
    if (!nul)
        return 0;
    unsigned line = 1;
    for (const char *q = text; q < nul; q++)
        line += *q == '\n';
    snprintf(err, errlen, "%s:%u: NUL byte: not a text file", path, line);
    return -1;
}

char *file_read_source(const char *path, size_t *len_out, char *err, size_t errlen)
{
    size_t len;
    char *text = file_read_text(path, &len);
    if (!text) {
        snprintf(err, errlen, "%s: cannot read: %s", path,
                 errno == EISDIR ? "is a folder, expected a file" : strerror(errno));
        return NULL;
    }
    if (file_check_text(path, text, len, err, errlen)) {
        free(text);
        return NULL;
    }
    if (len_out)
        *len_out = len;
    return text;
}

int write_file_atomic(const char *path, const char *text)
{
    return write_bytes_atomic(path, text, strlen(text));
}

int write_bytes_atomic(const char *path, const void *data, size_t len)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        fprintf(stderr, "gpucoh: error: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    bool ok = fwrite(data, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path)) {
        fprintf(stderr, "gpucoh: error: cannot write %s: %s\n", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}
