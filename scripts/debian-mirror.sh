#!/usr/bin/env bash
# Print the Debian mirror this machine's apt uses (deb822 .sources files
# first, then the one-line sources.list), never a hard-coded host.
# usage: scripts/debian-mirror.sh   (exit 1 when apt names none)
set -euo pipefail
mirror=""
for f in /etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] || continue
	mirror=$(awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }' "$f")
	[ -n "$mirror" ] && break
done
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
	mirror=$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' /etc/apt/sources.list)
fi
[ -n "$mirror" ] || { echo "no Debian mirror found in /etc/apt/sources.list{,.d}; configure apt first" >&2; exit 1; }
echo "$mirror"
