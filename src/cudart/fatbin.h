/*
 * fatbin.h - the fat binary nvcc embeds in a CUDA program: the wrapper that
 * __cudaRegisterFatBinary receives and the container it points to, decoded
 * to the PTX text gpucoh's front end runs.
 *
 * Layout (measured on nvcc 13.0 output; docs/cuda.md): the wrapper is
 * {u32 magic 0x466243b1, u32 version 1 or 2, u64 pointer to the container,
 * u64 pointer}. The container is a 16-byte header {u32 magic 0xBA55ED50,
 * u16 version, u16 header size, u64 bytes of entries} and entries, each a
 * header {u16 kind (1 PTX, 2 ELF), u16 version, u32 header size, u64 payload
 * bytes, u32 compressed bytes at 0x10, u32 arch at 0x1c (75 = sm_75), u64
 * flags at 0x28 (0x2000 LZ4 block, 0x8000 zstd frame), u64 uncompressed bytes
 * at 0x38} followed by its payload. nvcc 13 compresses PTX with zstd by
 * default; -Xfatbin -compress-mode=speed gives LZ4, -Xfatbin -compress=false
 * none.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CUDART_FATBIN_H
#define CUDART_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#define FATBIN_WRAPPER_MAGIC 0x466243b1u
#define FATBIN_MAGIC         0xBA55ED50u
#define FATBIN_KIND_PTX      1u
#define FATBIN_KIND_ELF      2u
#define FATBIN_FLAG_LZ4      0x2000u
#define FATBIN_FLAG_ZSTD     0x8000u
/* Bytes a decompressed entry may claim: far above any real kernel's PTX. */
#define FATBIN_MAX_PTX_BYTES (256u << 20)

/* The container the wrapper at `wrapper` points to; NULL with a message in
 * err if the wrapper's magic or version is not one nvcc writes. */
const uint8_t *fatbin_wrapper_data(const void *wrapper, char *err, size_t errlen);

/* The PTX of the container at `data` (at most `avail` bytes of it may be
 * read): the text of its PTX entry for the highest architecture,
 * decompressed, NUL-terminated, malloc'd, with that architecture in *arch.
 * NULL with err "" when the container holds no PTX (only machine code: build
 * with -arch=sm_75, which keeps the PTX); NULL with a message in err when it
 * is corrupt (bad magic, an entry past its end, a decompression that fails
 * or gives another size than the entry says). */
char *fatbin_ptx(const uint8_t *data, size_t avail, unsigned *arch, char *err, size_t errlen);

#endif
