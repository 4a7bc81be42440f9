// SPDX-License-Identifier: GPL-2.0
#include "hooks.h"

#define IS_TP_fentry false
#define IS_TP_fexit false
#define IS_TP_tp_btf true
#define SLOT_ROW(id, h, section, t, ...)                                       \
	[RS_SLOT_##id] = {RS_HOOK_##h, t, IS_TP_##section},
const struct rs_slot_info rs_slots[RS_NR_SLOTS] = {RS_SLOTS(SLOT_ROW)};
#undef SLOT_ROW

#define SPEC_ROW(p, s, pat, ...) {#p, RS_SLOT_##s, &rs_slots[RS_SLOT_##s], pat},
const struct rs_prog_spec rs_prog_specs[] = {RS_PROG_SPECS(SPEC_ROW)};
#undef SPEC_ROW

const int rs_nr_prog_specs = sizeof(rs_prog_specs) / sizeof(rs_prog_specs[0]);

#define U(h, pat, why)                                                         \
	{                                                                      \
		RS_HOOK_##h, pat, why                                          \
	}
#define RS_OLD_ISOLATE                                                         \
	"this kernel's isolate_folios() tells only the type it scanned last, " \
	"not what it isolated (v7.2: \"mm/mglru: scan and count the exact "    \
	"number of folios\")"
const struct rs_unread_proto rs_unread_protos[] = {
	U(ISOLATE_FOLIOS, "nr_to_scan,lruvec,sc,swappiness,type_scanned,list",
	  RS_OLD_ISOLATE), /* 6.18 */
	U(ISOLATE_FOLIOS, "lruvec,sc,swappiness,type_scanned,list",
	  RS_OLD_ISOLATE), /* 6.12 */
};
const int rs_nr_unread_protos =
	sizeof(rs_unread_protos) / sizeof(rs_unread_protos[0]);
_Static_assert(sizeof(rs_prog_specs) / sizeof(rs_prog_specs[0]) <=
		       RS_MAX_PROG_SPECS,
	       "the collector's per-spec arrays hold every program spec");
