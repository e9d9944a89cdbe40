/*
 * file.h - read a whole file into memory.
 *
 * Parsers read their input whole and report file:line themselves; this is
 * the one place that does the reading. (The launch-spec and litmus readers
 * predate it and could call it.)
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef BASE_FILE_H
#define BASE_FILE_H

#include <stddef.h>

/* The file's bytes plus a terminating NUL (malloc'd), and in *len (may be
 * NULL) how many bytes it has: a NUL inside makes strlen() < *len. NULL with
 * errno set when it cannot be opened or read. */
char *file_read_text(const char *path, size_t *len);

#endif
