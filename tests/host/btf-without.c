// SPDX-License-Identifier: GPL-2.0
/*
 * btf-without IN OUT STRUCT.MEMBER: write IN's BTF (raw, or an ELF file's
 * .BTF) to OUT as raw BTF, with one member of one struct left out, so that
 * `reclaimscope --btf OUT` shows what a kernel that dropped the member
 * would (tests/host/fields.sh).  Every type keeps its id: types are copied
 * in order, and the struct (or the anonymous struct or union inside it
 * that holds the member, as CO-RE finds it: struct folio's members sit in
 * one) is rebuilt in place with its size and the other members at their
 * offsets.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>

static int copy_without(struct btf *dst, const struct btf *src,
			const struct btf_type *t, const char *member)
{
	const struct btf_member *m = btf_members(t);
	const char *type_name = btf__name_by_offset(src, t->name_off);
	int err = btf_is_union(t) ? btf__add_union(dst, type_name, t->size)
				  : btf__add_struct(dst, type_name, t->size);

	for (int i = 0; err >= 0 && i < btf_vlen(t); i++, m++) {
		const char *name = btf__name_by_offset(src, m->name_off);

		if (!strcmp(name, member))
			continue;
		err = btf__add_field(dst, name, m->type,
				     btf_member_bit_offset(t, i),
				     btf_member_bitfield_size(t, i));
	}
	return err < 0 ? err : 0;
}

/* The composite that holds member: id itself, or an anonymous struct or
 * union member of it, at any depth; 0 if none. */
static int holder_of(const struct btf *src, int id, const char *member,
		     int depth)
{
	const struct btf_type *t = btf__type_by_id(src, id);
	const struct btf_member *m;

	if (!t || !btf_is_composite(t) || depth > 8)
		return 0;
	m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const char *name = btf__name_by_offset(src, m->name_off);
		int inner;

		if (!strcmp(name, member))
			return id;
		if (name[0])
			continue;
		inner = holder_of(src, btf__resolve_type(src, m->type), member,
				  depth + 1);
		if (inner > 0)
			return inner;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct btf *src, *dst;
	const char *dot;
	char type[128];
	const void *raw;
	__u32 raw_size;
	int target, found = 0;
	FILE *out;

	if (argc != 4 || !(dot = strchr(argv[3], '.'))) {
		fprintf(stderr, "usage: btf-without IN OUT STRUCT.MEMBER\n");
		return 2;
	}
	snprintf(type, sizeof(type), "%.*s", (int)(dot - argv[3]), argv[3]);
	src = btf__parse(argv[1], NULL);
	if (!src) {
		fprintf(stderr, "btf-without: %s: %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	target = btf__find_by_name_kind(src, type, BTF_KIND_STRUCT);
	if (target <= 0) {
		fprintf(stderr, "btf-without: no struct %s in %s\n", type,
			argv[1]);
		return 1;
	}
	target = holder_of(src, target, dot + 1, 0);
	if (target <= 0) {
		fprintf(stderr, "btf-without: struct %s has no member %s\n",
			type, dot + 1);
		return 1;
	}
	dst = btf__new_empty();
	for (__u32 id = 1; dst && id < btf__type_cnt(src); id++) {
		const struct btf_type *t = btf__type_by_id(src, id);
		int err;

		if ((int)id == target) {
			const struct btf_member *m = btf_members(t);

			for (int i = 0; i < btf_vlen(t); i++, m++)
				found |= !strcmp(
					btf__name_by_offset(src, m->name_off),
					dot + 1);
			err = copy_without(dst, src, t, dot + 1);
		} else {
			err = btf__add_type(dst, src, t);
		}
		if (err < 0) {
			fprintf(stderr, "btf-without: type %u: %s\n", id,
				strerror(-err));
			return 1;
		}
	}
	if (!dst || !found) {
		fprintf(stderr, "btf-without: struct %s has no member %s\n",
			type, dot + 1);
		return 1;
	}
	raw = btf__raw_data(dst, &raw_size);
	out = fopen(argv[2], "wb");
	if (!raw || !out || fwrite(raw, 1, raw_size, out) != raw_size ||
	    fclose(out)) {
		fprintf(stderr, "btf-without: %s: %s\n", argv[2],
			strerror(errno));
		return 1;
	}
	btf__free(dst);
	btf__free(src);
	return 0;
}
