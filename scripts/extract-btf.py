#!/usr/bin/env python3
"""Extract the kernel's BTF from an arm64 Image (Debian's arm64 vmlinuz).

usage: scripts/extract-btf.py IMAGE OUT

An arm64 Image is the kernel's memory image, not ELF: its BTF lies in it as
the kernel exposes it at /sys/kernel/btf/vmlinux, a header with magic
0xeb9f, version 1 and 24 bytes long, then the types and the strings.  It is
found by that header and its lengths are taken from it; OUT is raw BTF,
which bpftool and tests/lib/btf.py read as they read /sys/kernel/btf/vmlinux.
"""
import struct
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2])
    data = open(sys.argv[1], "rb").read()
    magic = struct.pack("<HBBI", 0xEB9F, 1, 0, 24)
    at = data.find(magic)
    while at >= 0:
        type_off, type_len, str_off, str_len = struct.unpack_from("<IIII", data, at + 8)
        size = 24 + str_off + str_len
        # the kernel's own layout: types first, the strings right after
        if type_off == 0 and str_off == type_len and type_len and at + size <= len(data):
            with open(sys.argv[2] + ".tmp", "wb") as f:
                f.write(data[at:at + size])
            import os
            os.replace(sys.argv[2] + ".tmp", sys.argv[2])
            return 0
        at = data.find(magic, at + 1)
    sys.exit(f"extract-btf: no BTF in {sys.argv[1]} (not an uncompressed arm64 Image?)")


if __name__ == "__main__":
    sys.exit(main())
