#!/usr/bin/env bash
# Install what reclaimscope needs to build and test, from Debian's packages
# (Debian 12 "bookworm").  Idempotent: installs only what is missing, and
# refreshes the package lists only when it has to install.
set -euo pipefail

build=(make gcc clang bpftool libbpf-dev libelf-dev zlib1g-dev libzstd-dev
	libjansson-dev libmicrohttpd-dev libncurses-dev libcap-dev pkg-config)
test=(libcmocka-dev python3 qemu-system-x86 busybox-static cpio xz-utils
	zstd gzip dmsetup prometheus tmux curl systemd man-db chromium
	libclang-rt-14-dev wrk cppcheck clang-tidy bash-completion
	debhelper dpkg-dev fakeroot lintian debootstrap valgrind time
	postgresql git ccache flex bison bc dwarves libssl-dev)

# postgresql: the lab's ycsb workload runs Debian's server and pgbench in
# its guests, from the tools disk (tests/vm/boot).  On a host with systemd,
# Debian's package also makes and starts a "main" cluster, which
# reclaimscope does not use (`pg_dropcluster --stop VERSION main` removes it).

# `install-deps.sh --cross`: the arm64 build (make ARCH=arm64, make
# arm64build in make test, make vmtest-arm64): Debian's aarch64 cross
# compiler and the libraries of arm64 (multiarch: dpkg takes arm64 as a
# foreign architecture, system-wide, so only when asked), qemu for arm64
# guests and for the arm64 build here (tests/host/arch.sh)
cross_pkgs=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross libbpf-dev:arm64
	libelf-dev:arm64 zlib1g-dev:arm64 libzstd-dev:arm64 libjansson-dev:arm64
	libmicrohttpd-dev:arm64 libncurses-dev:arm64 libcap-dev:arm64
	qemu-system-arm qemu-user file)

# `install-deps.sh --bench`: also the peers make bench compares us with
bench=() cross=()
for arg in "$@"; do
	case "$arg" in
	--bench) bench=(bpftrace linux-perf) ;;
	--cross) cross=("${cross_pkgs[@]}") ;;
	*) echo "usage: $0 [--bench] [--cross]" >&2; exit 2 ;;
	esac
done

missing=()
for p in "${build[@]}" "${test[@]}" "${cross[@]}" "${bench[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "deps: all installed"
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing ${missing[*]}; run as root (sudo make deps)" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
case " ${missing[*]}" in *:arm64*)
	dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64 ;;
esac
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
