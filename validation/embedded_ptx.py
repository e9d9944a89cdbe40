#!/usr/bin/env python3
"""embedded_ptx.py - the PTX nvcc embedded in a CUDA program, read from its
ELF .nv_fatbin section (fatbin containers, magic 0xBA55ED50; entry kind 1 is
PTX). CUDA 13 ships no cuobjdump, which GPGPU-Sim runs to get a program's PTX;
called under that name this script answers the two calls GPGPU-Sim makes:

  cuobjdump -lptx PROGRAM        "PTX file    N: NAME" per embedded PTX
  cuobjdump -xptx NAME PROGRAM   writes NAME (the PTX text) in the cwd

and checks that a validation host runs gpucoh's committed PTX:

  embedded_ptx.py --compare COMMITTED.ptx PROGRAM
      exit 0 when they are the same instructions (nvcc strips comments and
      indentation when it embeds PTX, so both are compared without them),
      1 with a diff when not.

Compressed entries (nvcc's default) are refused: build with --no-compress.
"""
import difflib
import os
import re
import struct
import sys

FATBIN_MAGIC = 0xBA55ED50
KIND_PTX = 1
COMPRESSED = 0x2000 | 0x8000  # entry flags: lz4, zstd


def elf_section(path, name):
    data = open(path, 'rb').read()
    if data[:4] != b'\x7fELF' or data[4] != 2:
        sys.exit('%s: not a 64-bit ELF file' % path)
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3A)

    def header(i):  # name, type, flags, addr, offset, size, ...
        return struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize)

    strtab = header(shstrndx)[4]
    for i in range(shnum):
        h = header(i)
        end = data.index(b'\0', strtab + h[0])
        if data[strtab + h[0]:end].decode() == name:
            return data[h[4]:h[4] + h[5]]
    sys.exit('%s: no %s section (not a CUDA program?)' % (path, name))


def ptx_entries(path):
    """[(name, text)] in fatbin order, named as cuobjdump names them."""
    fb = elf_section(path, '.nv_fatbin')
    base = os.path.basename(path).split('.')[0]
    out, pos = [], 0
    while pos + 16 <= len(fb):
        magic, _, hsize, fsize = struct.unpack_from('<IHHQ', fb, pos)
        if magic != FATBIN_MAGIC:
            pos += 8  # containers are 8-byte aligned
            continue
        epos, end = pos + hsize, pos + hsize + fsize
        while epos < end:
            kind, _, ehsize, psize = struct.unpack_from('<HHIQ', fb, epos)
            arch, = struct.unpack_from('<I', fb, epos + 28)
            flags, = struct.unpack_from('<Q', fb, epos + 40)
            if kind == KIND_PTX:
                if flags & COMPRESSED:
                    sys.exit('%s: compressed PTX; build it with nvcc --no-compress' % path)
                text = fb[epos + ehsize:epos + ehsize + psize].split(b'\0', 1)[0]
                out.append(('%s.%d.sm_%d.ptx' % (base, len(out) + 1, arch), text))
            epos += ehsize + psize
        pos = end
    return out


def normalised(text):
    lines = []
    for line in text.splitlines():
        line = re.sub(r'\s+', ' ', line.split('//', 1)[0]).strip()
        if line:
            lines.append(line)
    return lines


def main(args):
    if len(args) == 2 and args[0] == '-lptx':
        for i, (name, _) in enumerate(ptx_entries(args[1])):
            print('PTX file %4d: %s' % (i + 1, name))
        return 0
    if len(args) == 3 and args[0] == '-xptx':
        for name, text in ptx_entries(args[2]):
            if name == args[1]:
                open(name, 'wb').write(text)
                return 0
        sys.exit('%s: no PTX named %s' % (args[2], args[1]))
    if len(args) == 3 and args[0] == '--compare':
        want = normalised(open(args[1]).read())
        entries = ptx_entries(args[2])
        if len(entries) != 1:
            sys.exit('%s: %d PTX entries, expected 1' % (args[2], len(entries)))
        got = normalised(entries[0][1].decode())
        if got == want:
            print('%s: same PTX as %s' % (args[2], args[1]))
            return 0
        sys.stdout.writelines(l + '\n' for l in difflib.unified_diff(
            want, got, args[1], args[2], lineterm='', n=1))
        return 1
    sys.exit(__doc__)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
