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
members=$(sed -n "s/.*X([A-Z_]*, \"\([a-z_]*\.[a-z_]*\)\", 'k').*/\1/p" "$top/include/rs_common.h")
for member in $members; do
	"$top/build/btf-without" /sys/kernel/btf/vmlinux "$work/$member.btf" "$member"
	"$bin" probe --json --btf "$work/$member.btf" >"$work/probe.$member.json" ||
		echo "fields: probe --btf without $member exited $?" >&2
done
python3 - "$work" "$top/include/rs_common.h" $members <<'PY' || rc=1
import json, os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(sys.argv[2]), "..", "tests", "lib"))
from judge import Judge
judge = Judge()
work, header, members = sys.argv[1], sys.argv[2], sys.argv[3:]
base = json.load(open(os.path.join(work, "probe.json")))
check = judge.check
check(len(members) >= 6, f"{len(members)} kernel fields to drop")
# which fields need which member: from the field table's needs
text = open(header).read()
ids = {name: hook for hook, name in re.findall(r"X\((\w+), \"(\w+\.\w+)\", 'k'\)", text)}
needs = {}
for key, body in re.findall(r'X\(\w+, "(\w+)", \w+,(.*?)"', text, re.S):
    needs[key] = set(re.findall(r"RS_HOOK_BIT\((\w+)\)", body))
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
    check(want and lost == {k for k in want if k not in base["unavailable_fields"]},
          f"without {member}: exactly {sorted(want)} turn null ({sorted(lost)})")
    check(all(member in p["unavailable_why"][k] for k in lost),
          f"without {member}: probe names it as the reason")
sys.exit(judge.close("fields"))
PY
exit $rc
