#!/usr/bin/env bash
# Extract the ELF vmlinux (with its .BTF section) from a zstd-compressed
# bzImage, as Debian's 7.x cloud kernels ship it.
#
# usage: scripts/extract-vmlinux.sh BZIMAGE OUT
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BZIMAGE OUT" >&2; exit 2; }
in=$1 out=$2

# The payload starts at the zstd frame magic 28 b5 2f fd; try each candidate
# offset until one decompresses to an ELF file.
for off in $(LC_ALL=C grep -obUaP '\x28\xb5\x2f\xfd' "$in" | cut -d: -f1); do
	if tail -c +$((off + 1)) "$in" | zstd -dcq 2>/dev/null >"$out.tmp"; then :; fi
	if [ -s "$out.tmp" ] && [ "$(head -c 4 "$out.tmp" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then
		mv "$out.tmp" "$out"
		exit 0
	fi
done
rm -f "$out.tmp"
echo "extract-vmlinux: no zstd-compressed ELF payload found in $in" >&2
exit 1
