#!/usr/bin/env bash
# Fetch a Debian cloud kernel (bzImage, config, modules) without installing it.
#
# usage: scripts/fetch-kernel.sh [SUITE[:SERIES]] [METAPACKAGE]
#   SUITE        Debian suite to take it from (default: sid, which carries the
#                MGLRU reclaim series in its 7.2 kernels)
#   SERIES       a version prefix such as 6.18: the newest cloud kernel of
#                that series in SUITE (trixie-backports:6.18 is the last
#                kernel before the series that ships modules) instead of
#                the one the metapackage names
#   METAPACKAGE  the metapackage whose dependency names the current kernel
#                (default: linux-image-cloud-amd64; linux-image-cloud-arm64
#                or linux-image-arm64-16k fetch an arm64 kernel, through apt
#                lists of their own)
#
# The kernel version is resolved from the archive at run time, never
# hard-coded, because Debian moves it.  The mirror is taken from this
# machine's own apt configuration.  Results are cached in
# $RECLAIMSCOPE_CACHE (default: ~/.cache/reclaimscope) under kernels/<ver>/
# (vmlinuz, modules/, config when the packages ship one, version),
# and the path of that folder is printed on stdout as the last line.
set -euo pipefail

suite=${1:-sid}
series=""
case "$suite" in *:*) series=${suite#*:} suite=${suite%%:*} ;; esac
if [ -n "$series" ] && ! [[ $series =~ ^[0-9]+\.[0-9]+$ ]]; then
	echo "fetch-kernel: '$series' is not a version series like 6.18" >&2
	exit 2
fi
meta=${2:-linux-image-cloud-amd64}
cache=${RECLAIMSCOPE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/reclaimscope}
cache=$(mkdir -p "$cache" && cd "$cache" && pwd) # apt wants absolute paths
# the architecture the metapackage names (amd64 unless it says another):
# its package lists are kept apart from the host's architecture's
arch=amd64
case "$meta" in *-arm64 | *-arm64-*) arch=arm64 ;; esac
apt_dir="$cache/apt-$suite"
[ "$arch" = amd64 ] || apt_dir="$cache/apt-$suite-$arch"
mkdir -p "$apt_dir/lists/partial" "$cache/kernels"

log() { printf 'fetch-kernel: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# Mirror URI from the machine's apt configuration.
mirror=$("$(dirname "$0")/debian-mirror.sh") || die "no Debian mirror: configure apt first"

components="main"
sources="$apt_dir/sources.list"
printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg arch=%s] %s %s %s\n' "$arch" "$mirror" "$suite" "$components" >"$sources"
apt_opts=(-o "Dir::Etc::sourcelist=$sources" -o Dir::Etc::sourceparts=/dev/null
	-o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
	-o APT::Get::List-Cleanup=0 -o Debug::NoLocking=1 -o APT::Sandbox::User=root -o Acquire::Languages=none
	-o "APT::Architecture=$arch" -o "APT::Architectures::=$arch")
mkdir -p "$apt_dir/cache/archives/partial"

# Refresh the package lists at most once a day.
stamp="$apt_dir/updated"
if [ ! -f "$stamp" ] || [ -n "$(find "$stamp" -mmin +1440)" ]; then
	log "updating package lists for $suite"
	apt-get "${apt_opts[@]}" -q update >&2 || die "apt-get update for $suite failed"
	touch "$stamp"
fi

# metapackage -> linux-image-<ver>-cloud-amd64 (transitional in 7.x) or
# linux-binary-<ver>; follow dependencies until a package ships a vmlinuz.
resolve_deps() {
	apt-cache "${apt_opts[@]}" depends --no-recommends --no-suggests "$1" 2>/dev/null |
		awk '/Depends:/ { print $2 }' | tr -d '<>'
}
if [ -n "$series" ]; then
	# the newest linux-image-SERIES.*-cloud-amd64 (or SERIES-cloud-amd64)
	flavour=${meta#linux-image-}
	image=$(apt-cache "${apt_opts[@]}" pkgnames "linux-image-$series" |
		grep -E "^linux-image-${series//./\\.}([.+-][^ ]*)?-$flavour\$" | sort -V | tail -n1 || true)
	[ -n "$image" ] || die "no $flavour kernel of the $series series in $suite"
else
	image=$(resolve_deps "$meta" | grep -E '^linux-image-[0-9]' | head -n1)
	[ -n "$image" ] || die "cannot resolve $meta in $suite"
fi
ver=${image#linux-image-}
log "resolved ${series:-$meta} ($suite) to $ver"

out="$cache/kernels/$ver"
if [ -f "$out/vmlinuz" ] && [ -d "$out/modules" ]; then
	log "cached: $out"
	echo "$out"
	exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pkgs=("$image")
for d in $(resolve_deps "$image"); do
	case "$d" in linux-binary-* | linux-modules-*) pkgs+=("$d") ;; esac
done
for p in "${pkgs[@]}"; do
	for d in $(resolve_deps "$p"); do
		case "$d" in linux-modules-*) pkgs+=("$d") ;; esac
	done
done
mapfile -t pkgs < <(printf '%s\n' "${pkgs[@]}" | sort -u)
log "downloading: ${pkgs[*]}"
(cd "$work" && apt-get "${apt_opts[@]}" -q download "${pkgs[@]}" >&2) || die "download failed"
mkdir -p "$work/root"
for deb in "$work"/*.deb; do dpkg-deb -x "$deb" "$work/root"; done

vmlinuz=$(find "$work/root" \( -path '*/modules/*/vmlinuz' -o -name 'vmlinuz-*' \) -type f | head -n1)
[ -n "$vmlinuz" ] || die "no vmlinuz in ${pkgs[*]}"
config=$(find "$work/root" \( -path '*/modules/*/config' -o -name 'config-*' \) -type f | head -n1)
moddir=$(find "$work/root" -type d -path '*/lib/modules/*' -prune | head -n1)
[ -n "$moddir" ] || die "no modules in ${pkgs[*]}"

rm -rf "$out.tmp"
mkdir -p "$out.tmp"
cp "$vmlinuz" "$out.tmp/vmlinuz"
[ -n "$config" ] && cp "$config" "$out.tmp/config"
cp -a "$moddir" "$out.tmp/modules"
echo "$ver" >"$out.tmp/version"
rm -rf "$out"
mv "$out.tmp" "$out"
log "kernel $ver in $out"
echo "$out"
