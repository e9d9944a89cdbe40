/*
 * file.h - read a whole file into memory, write one whole or not at all,
 * write a CSV field.
 *
 * Parsers read their input whole and report file:line themselves; this is
 * the one place that does the reading.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef BASE_FILE_H
#define BASE_FILE_H

#include <stddef.h>
#include <stdio.h>

/* The file's bytes plus a terminating NUL (malloc'd), and in *len (may be
 * NULL) how many bytes it has: a NUL inside makes strlen() < *len. NULL with
 * errno set when it cannot be opened or read. */
char *file_read_text(const char *path, size_t *len);

/* A parser's input: file_read_text, or NULL with what is wrong in err: "PATH:
 * cannot read: WHY" (a folder: "is a folder, expected a file") or, when a NUL
 * byte makes it not text, "PATH:LINE: NUL byte: not a text file". */
char *file_read_source(const char *path, size_t *len, char *err, size_t errlen);

/* -1 with "PATH:LINE: NUL byte: not a text file" in err when text[0, len)
 * holds a NUL byte; 0 otherwise. */
int file_check_text(const char *path, const char *text, size_t len, char *err, size_t errlen);

/* Write text to `path` whole or not at all (temp file + rename); -1 with
 * "gpucoh: error: cannot write PATH: WHY" on stderr when it cannot. */
int write_file_atomic(const char *path, const char *text);
/* The same for len bytes of any kind. */
int write_bytes_atomic(const char *path, const void *data, size_t len);

/* Writes s as one CSV field (RFC 4180): quoted, with quotes doubled, when it
 * holds a comma, quote or newline; as it is otherwise. */
void csv_field(FILE *f, const char *s);

#endif
