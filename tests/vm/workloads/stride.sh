# stride: seed 011's own reproducer ("mm/mglru: Use folio_mark_accessed to
# replace folio_set_active in PF"), with Debian's fio, scaled to the guest:
#
#   fio --name=hot_ws --rw=read --bs=4K --size=600M --runtime=600
#       --zonemode=strided --zonesize=4K --zonerange=64K --time_based
#       --direct=0 --ioengine=mmap --fadvise_hint=0 ...
#   in a 400M memcg; warm up 30 s, then 60 s measured: "File Refault
#   Delta" (12,883,855 -> 0) and the READ bandwidth (58.5 -> 5,078 MiB/s).
#
# Here a 160M file in a 32M memcg, no swap; fio's --ramp_time stands for
# the warm-up, so its figures are of the measured part only.  The touched
# pages (4 KiB of every 64 KiB: 10M) fit; what read-around brings in
# beside them does not, and is what 011 stops from pushing them out.  The
# seed's ratio (400 of 600, 107M here) left no pressure at this scale:
# read-around stops after 100 misses (MMAP_LOTSAMISS), and 67M of the file
# was all that came in (smoke runs on 7.2 built from source, 0 scanned).
# Measured (2026-12-07, the lab's 011 runs): read-around stops early and
# the data file is read once (pgpgin 8 MiB); the memcg's refaults are
# fio's own code and 84 MB of libraries read back from the tools disk
# (/dev/vdc's reads track them run by run).  To be reshaped: fio in RAM,
# sizes that keep read-around going.
# The file is on the guest's virtio disk, as the seed's was on a real
# one: a refault waits for a read from a device, which is what 011's
# throughput figure measures (on a loop device over tmpfs a refault was a
# copy from RAM, and throughput did not move while refaults halved).
# Outcome: fio's READ MB/s and IOPS (ops_per_s); refaults from the
# recording.  fio comes from the host's
# Debian package on the tools disk (tests/vm/boot: /tools).
SWAP=none
MEMCGS=stride
case "$SIZE" in
smoke) ST_RAMP=3 ST_SECONDS=6 ;;
*) ST_RAMP=20 ST_SECONDS=40 ;;
esac
FIO="/tools/lib/ld-linux-x86-64.so.2 --library-path /tools/lib /tools/bin/fio"
workload_setup() {
	[ -x /tools/bin/fio ] || { log "no fio on the tools disk: install Debian's fio on the host (make deps)"; exit 3; }
	setup_disk_fs
	rs-workload write /mnt/hot_data.bin 160
	mkmemcg stride 32M
}
workload_run() {
	started=$(date +%s)
	rc=0
	# shellcheck disable=SC2086 # FIO is the loader and its arguments
	in_memcg stride $FIO --name=hot_ws --rw=read --bs=4K --size=160M \
		--ramp_time="$ST_RAMP" --runtime="$ST_SECONDS" --time_based \
		--zonemode=strided --zonesize=4K --zonerange=64K --direct=0 \
		--filename=/mnt/hot_data.bin --ioengine=mmap --fadvise_hint=0 \
		--group_reporting --numjobs=1 --output-format=terse \
		--terse-version=3 >fio.terse 2>fio.err || rc=$?
	oom=false
	grep -q "^oom_kill [1-9]" "$CG/stride/memory.events" && oom=true
	# terse v3: field 7 the READ bandwidth in KiB/s, 8 its IOPS
	awk -F';' -v rc="$rc" -v oom="$oom" -v d="$(($(date +%s) - started))" '
		NF > 8 { bw = $7; iops = $8 }
		END {
			printf "{\"type\":\"outcome\",\"workload\":\"stride\",\"memcg\":\"/stride\"," \
				"\"exit_status\":%d,\"oom_killed\":%s,\"duration_s\":%d", rc, oom, d
			if (bw != "")
				printf ",\"mb_per_s\":%.6g,\"ops_per_s\":%.6g", bw * 1024 / 1e6, iops
			printf "}\n"
		}' fio.terse >>"$RS_OUTCOME"
	return "$rc"
}
