#!/usr/bin/env bash
# What a kernel that drops a struct member we read would cost: for each
# member that RS_HOOKS lists as a kernel field ('k'), this kernel's BTF
# without it (build/btf-without) is given to `probe --btf`; the member must
# be reported missing, every hook must load as it does with the whole BTF,
# and exactly the fields that need the member must turn null, each with
# the member as its reason.  Before that, core_fields.py checks the BPF
# object: every member read is guarded or core.
#
# usage: tests/host/fields.sh RECLAIMSCOPE WORKDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
bin=$1 work=$2
mkdir -p "$work"
rc=0
python3 "$here/core_fields.py" "$top/build/reclaimscope.bpf.o" \
	"$top/include/rs_common.h" /sys/kernel/btf/vmlinux || rc=1

"$bin" probe --json >"$work/probe.json"
members=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import rs_tables
print(" ".join(n for _, n, k in rs_tables.hooks() if k == "k"))' "$top/tests/lib")
for member in $members; do
	# a member this kernel lacks already (the walk counters without MGLRU):
	# its own BTF is the one without it
	if python3 -c 'import json, sys
sys.exit(json.load(open(sys.argv[1]))["hooks"][sys.argv[2]]["state"] != "missing")' \
		"$work/probe.json" "$member"; then
		cp /sys/kernel/btf/vmlinux "$work/$member.btf"
	else
		"$top/build/btf-without" /sys/kernel/btf/vmlinux "$work/$member.btf" "$member"
	fi
	"$bin" probe --json --btf "$work/$member.btf" >"$work/probe.$member.json" ||
		echo "fields: probe --btf without $member exited $?" >&2
done
# A core member (read unguarded: the program cannot count without it) that
# only cgroup_mkdir's program reads: that program fails to load, and probe
# names it and the verifier's reason from its own log buffer.
"$top/build/btf-without" /sys/kernel/btf/vmlinux "$work/core.btf" kernfs_node.name
"$bin" probe --json --btf "$work/core.btf" >"$work/probe.core.json" ||
	echo "fields: probe --btf without kernfs_node.name exited $?" >&2
python3 - "$work" "$top/tests/lib" $members <<'PY' || rc=1
import json, os, sys
sys.path.insert(0, sys.argv[2])
from judge import Judge
import rs_tables
judge = Judge()
check = judge.check
work, members = sys.argv[1], sys.argv[3:]
base = json.load(open(os.path.join(work, "probe.json")))
check(len(members) >= 6, f"{len(members)} kernel fields to drop")
ids = {name: hook for hook, name, kind in rs_tables.hooks() if kind == "k"}
needs = rs_tables.field_needs()
for member in members:
    p = json.load(open(os.path.join(work, f"probe.{member}.json")))
    hooks = p["hooks"]
    check(hooks[member]["state"] == "missing",
          f"without {member}: reported missing ({hooks[member]['state']})")
    same = [h for h in base["hooks"] if h != member and
            hooks[h]["state"] != base["hooks"][h]["state"]]
    check(not same, f"without {member}: every hook as with the whole BTF "
          f"({same} differ)")
    want = {k for k, n in needs.items() if ids[member] in n}
    lost = set(p["unavailable_fields"]) - set(base["unavailable_fields"])
    check(want and lost == want - set(base["unavailable_fields"]),
          f"without {member}: exactly {sorted(want)} turn null ({sorted(lost)})")
    check(all(member in p["unavailable_why"][k] for k in lost),
          f"without {member}: probe names it as the reason")
p = json.load(open(os.path.join(work, "probe.core.json")))
why = p["hooks"]["cgroup_mkdir"]
check(base["hooks"]["cgroup_mkdir"]["state"] != "attached" or
      (why["state"] == "failed" and "load of rs_cgroup_mkdir" in why["why"]
       and "kernfs_node.name" in why["why"]),
      f"without kernfs_node.name: cgroup_mkdir failed, its program and the "
      f"verifier's reason named ({why})")
differ = [h for h in base["hooks"] if h != "cgroup_mkdir" and
          p["hooks"][h]["state"] != base["hooks"][h]["state"]]
check(not differ, f"without kernfs_node.name: the other hooks load as with "
      f"the whole BTF ({differ} differ)")
sys.exit(judge.close("fields"))
PY
exit $rc
