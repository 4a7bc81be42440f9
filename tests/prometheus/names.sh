#!/usr/bin/env bash
# Every metric the shipped Prometheus rules use is one the daemon serves:
# its family is declared (# TYPE) in the /metrics the VM scenarios scraped.
# usage: names.sh RULES METRICS_FILE...
set -euo pipefail
rules=$1
shift
served=$(grep -h '^# TYPE ' "$@" | awk '{ print $3 }' | sort -u)
histograms=$(grep -h '^# TYPE .* histogram$' "$@" | awk '{ print $3 }' | sort -u)
rc=0
# the series the rules read, not the recording rules' own names (memcg:...)
for name in $(grep -oE '(^|[^:a-z_])reclaimscope_[a-z0-9_]+' "$rules" |
	grep -oE 'reclaimscope_[a-z0-9_]+' | sort -u); do
	# a histogram's series: NAME_bucket, NAME_sum, NAME_count
	base=$name
	for suffix in _bucket _sum _count; do
		if [ "${name%"$suffix"}" != "$name" ] &&
			grep -qx "${name%"$suffix"}" <<<"$histograms"; then
			base=${name%"$suffix"}
		fi
	done
	if grep -qx "$base" <<<"$served"; then
		echo "  ok    $name is served"
	else
		echo "  FAIL  $name: no such family in /metrics"
		rc=1
	fi
done
exit $rc
