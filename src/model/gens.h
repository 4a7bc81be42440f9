/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One MGLRU generation of a memcg on a node, as the kernel's lru_gen file
 * lists it (src/collect/lru_gen.c reads it): what views show of the
 * generations alive now.
 */
#ifndef RS_GENS_H
#define RS_GENS_H

#include <linux/types.h>

struct rs_gen {
	int node;
	__u64 seq, age_ms, anon_pages, file_pages;
};

#endif
