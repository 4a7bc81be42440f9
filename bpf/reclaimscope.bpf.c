// SPDX-License-Identifier: GPL-2.0
/*
 * The one BPF object: every probe, as one translation unit.  (Linking the
 * probes' objects with bpftool 7.1 fails on the extern kfuncs of
 * compat.bpf.h, so they are included instead.)
 */
#include "shrink.bpf.c"
#include "aging.bpf.c"
#include "writeback.bpf.c"
#include "vmscan.bpf.c"
#include "cgnames.bpf.c"
#include "oom.bpf.c"
#include "kswapd.bpf.c"
#include "refault.bpf.c"
