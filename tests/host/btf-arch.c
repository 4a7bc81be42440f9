// SPDX-License-Identifier: GPL-2.0
/*
 * btf-arch OUT ARCH: write to OUT a raw BTF that holds what reclaimscope
 * tells a kernel's architecture by (src/collect/kernel.c: rs_btf_arch):
 * struct pt_regs with x86-64's orig_ax (ARCH x86-64) or arm64's orig_x0
 * (ARCH arm64), so that `reclaimscope --btf OUT` shows what a build does
 * on the other architecture's kernel without that kernel (tests/host/
 * arch.sh).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>

int main(int argc, char **argv)
{
	const char *member;
	struct btf *btf;
	const void *raw;
	__u32 size;
	FILE *out;
	int err, long_id;

	if (argc != 3) {
		fprintf(stderr, "usage: btf-arch OUT x86-64|arm64\n");
		return 2;
	}
	if (!strcmp(argv[2], "x86-64"))
		member = "orig_ax";
	else if (!strcmp(argv[2], "arm64"))
		member = "orig_x0";
	else {
		fprintf(stderr, "btf-arch: no architecture '%s'\n", argv[2]);
		return 2;
	}
	btf = btf__new_empty();
	if (!btf) {
		perror("btf-arch: btf__new_empty");
		return 1;
	}
	long_id = btf__add_int(btf, "long int", 8, BTF_INT_SIGNED);
	err = long_id < 0 ? long_id : btf__add_struct(btf, "pt_regs", 8);
	if (err >= 0)
		err = btf__add_field(btf, member, long_id, 0, 0);
	raw = err < 0 ? NULL : btf__raw_data(btf, &size);
	if (!raw) {
		fprintf(stderr, "btf-arch: cannot make the BTF: %s\n",
			strerror(err < 0 ? -err : errno));
		btf__free(btf);
		return 1;
	}
	out = fopen(argv[1], "wb");
	if (!out || fwrite(raw, 1, size, out) != size || fclose(out)) {
		perror(argv[1]);
		btf__free(btf);
		return 1;
	}
	btf__free(btf);
	return 0;
}
