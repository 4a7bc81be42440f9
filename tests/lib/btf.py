"""Read BTF and the CO-RE relocations of a BPF object, for the field audit.

A BPF object compiled with CO-RE carries, in .BTF.ext, one relocation per
kernel field it touches: the local type, an access string ("0:5:1", member
and array indices from that type) and a kind (byte offset, exists, ...).
libbpf resolves each against the running kernel's BTF at load time; a
field the kernel lacks fails the program, unless the read is guarded by a
bpf_core_field_exists() of the same access (a FIELD_EXISTS relocation),
which then turns the read into dead code.

Format: Documentation/bpf/btf.rst and llvm-project's BTF.h (the .BTF.ext
header and bpf_core_relo records); kinds from enum bpf_core_relo_kind
(include/uapi/linux/bpf.h).  Only what the audit needs is decoded.
"""
import struct

KIND_INT, KIND_PTR, KIND_ARRAY, KIND_STRUCT, KIND_UNION, KIND_ENUM = 1, 2, 3, 4, 5, 6
KIND_FWD, KIND_TYPEDEF, KIND_VOLATILE, KIND_CONST, KIND_RESTRICT = 7, 8, 9, 10, 11
KIND_FUNC, KIND_FUNC_PROTO, KIND_VAR, KIND_DATASEC, KIND_FLOAT = 12, 13, 14, 15, 16
KIND_DECL_TAG, KIND_TYPE_TAG, KIND_ENUM64 = 17, 18, 19

# enum bpf_core_relo_kind
FIELD_KINDS = {0: "byte_off", 1: "byte_sz", 2: "field_exists", 3: "signed",
               4: "lshift_u64", 5: "rshift_u64"}
FIELD_EXISTS = 2
MODIFIERS = (KIND_TYPEDEF, KIND_VOLATILE, KIND_CONST, KIND_RESTRICT,
             KIND_TYPE_TAG)


def elf_sections(data):
    """{name: bytes} of a 64-bit little-endian ELF file."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    heads = []
    for i in range(shnum):
        name, _type, _flags, _addr, off, size = struct.unpack_from(
            "<IIQQQQ", data, shoff + i * shentsize)
        heads.append((name, off, size))
    strtab_off, strtab_size = heads[shstrndx][1], heads[shstrndx][2]
    out = {}
    for name, off, size in heads:
        end = data.index(b"\0", strtab_off + name)
        out[data[strtab_off + name:end].decode()] = data[off:off + size]
    return out


class Btf:
    """The types of one .BTF section: self.types[id] = (kind, name, info)
    where info is the member list of a struct or union, (elem, nelems) of
    an array, or the referenced type id."""

    def __init__(self, raw):
        magic, _ver, _flags, hdr_len = struct.unpack_from("<HBBI", raw, 0)
        if magic != 0xEB9F:
            raise ValueError("not BTF")
        type_off, type_len, str_off, str_len = struct.unpack_from(
            "<IIII", raw, 8)
        self.strings = raw[hdr_len + str_off:hdr_len + str_off + str_len]
        self.types = [(0, "", None)]  # id 0: void
        self.by_name = {}
        self.funcs, self.typedefs = set(), set()
        self.func_proto = {}  # function name: its FUNC_PROTO's id
        pos, end = hdr_len + type_off, hdr_len + type_off + type_len
        while pos < end:
            name_off, info, size_type = struct.unpack_from("<III", raw, pos)
            pos += 12
            kind, vlen = (info >> 24) & 0x1F, info & 0xFFFF
            name = self.string(name_off)
            extra = None
            if kind == KIND_INT:
                pos += 4
            elif kind == KIND_ARRAY:
                elem, _index, nelems = struct.unpack_from("<III", raw, pos)
                extra = (elem, nelems)
                pos += 12
            elif kind in (KIND_STRUCT, KIND_UNION):
                members = []
                for _ in range(vlen):
                    m_name, m_type, _m_off = struct.unpack_from("<III", raw, pos)
                    members.append((self.string(m_name), m_type))
                    pos += 12
                extra = members
            elif kind == KIND_ENUM:
                pos += 8 * vlen
            elif kind == KIND_ENUM64 or kind == KIND_DATASEC:
                pos += 12 * vlen
            elif kind == KIND_FUNC_PROTO:
                params = []
                for _ in range(vlen):
                    p_name, _p_type = struct.unpack_from("<II", raw, pos)
                    params.append(self.string(p_name))
                    pos += 8
                extra = params
            elif kind in (KIND_VAR, KIND_DECL_TAG):
                pos += 4
            else:
                extra = size_type  # referenced type
            self.types.append((kind, name, extra))
            if name and kind in (KIND_STRUCT, KIND_UNION):
                self.by_name.setdefault(name, []).append(len(self.types) - 1)
            elif kind == KIND_FUNC:
                self.funcs.add(name)
                self.func_proto[name] = size_type
            elif kind == KIND_TYPEDEF:
                self.typedefs.add(name)

    def func_params(self, name):
        """A function's parameter names, "a,b,c" as the loader matches
        them (src/collect/kernel.c: rs_btf_func_params), or None."""
        proto = self.func_proto.get(name)
        if proto is None or self.types[proto][0] != KIND_FUNC_PROTO:
            return None
        return ",".join(self.types[proto][2])

    def string(self, off):
        return self.strings[off:self.strings.index(b"\0", off)].decode()

    def resolve(self, tid):
        """Skip typedefs and modifiers."""
        while self.types[tid][0] in MODIFIERS:
            tid = self.types[tid][2]
        return tid

    def access_path(self, tid, access):
        """An access string on local type tid as [(struct, member), ...];
        array indices are left out, anonymous members kept as ''."""
        path = []
        tid = self.resolve(tid)
        for index in access[1:]:  # the first index steps over the pointer
            kind, name, extra = self.types[tid]
            if kind in (KIND_STRUCT, KIND_UNION):
                m_name, m_type = extra[index]
                path.append((strip_flavour(name), m_name))
                tid = self.resolve(m_type)
            elif kind == KIND_ARRAY:
                tid = self.resolve(extra[0])
            else:
                raise ValueError(f"access {access} steps into kind {kind}")
        return path

    def has_target(self, section):
        """Whether a program of this ELF section ("fentry/FUNC",
        "tp_btf/TP") has its attach point in this kernel."""
        kind, _, target = section.partition("/")
        if kind in ("fentry", "fexit", "fmod_ret"):
            return target in self.funcs
        if kind == "tp_btf":
            return f"btf_trace_{target}" in self.typedefs
        return True

    def has_member(self, struct_name, member):
        """Whether some struct or union of that name has the member, directly
        or in an anonymous struct/union inside it (as CO-RE finds it)."""
        return any(self._find(tid, member)
                   for tid in self.by_name.get(struct_name, []))

    def member_type(self, struct_name, member):
        for tid in self.by_name.get(struct_name, []):
            found = self._find(tid, member)
            if found:
                return found
        return None

    def _find(self, tid, member):
        for m_name, m_type in self.types[tid][2]:
            if m_name == member:
                return self.resolve(m_type) or -1
            if not m_name:
                inner = self.resolve(m_type)
                if self.types[inner][0] in (KIND_STRUCT, KIND_UNION):
                    found = self._find(inner, member)
                    if found:
                        return found
        return None

    def path_exists(self, path):
        """Every (struct, member) step of an access path exists by name.
        Anonymous steps are matched by the named member that follows."""
        for struct_name, member in path:
            if not member or not struct_name:
                continue
            if not self.has_member(struct_name, member):
                return False
        return True


def strip_flavour(name):
    """CO-RE ignores a ___suffix: struct lru_gen_folio___flat is
    lru_gen_folio."""
    return name.split("___")[0] if "___" in name else name


def core_relocations(obj_path):
    """[(section, kind, (struct, member) path)] for every field relocation
    of a BPF object."""
    with open(obj_path, "rb") as f:
        sections = elf_sections(f.read())
    btf = Btf(sections[".BTF"])
    ext = sections[".BTF.ext"]
    _magic, _ver, _flags, hdr_len = struct.unpack_from("<HBBI", ext, 0)
    if hdr_len < 32:
        return btf, []
    core_off, core_len = struct.unpack_from("<II", ext, 24)
    pos, end = hdr_len + core_off, hdr_len + core_off + core_len
    rec_size, = struct.unpack_from("<I", ext, pos)
    pos += 4
    out = []
    while pos < end:
        sec_off, count = struct.unpack_from("<II", ext, pos)
        pos += 8
        section = btf.string(sec_off)
        for _ in range(count):
            _insn, tid, access_off, kind = struct.unpack_from("<IIII", ext, pos)
            pos += rec_size
            if kind not in FIELD_KINDS:
                continue
            access = [int(x) for x in btf.string(access_off).split(":")]
            out.append((section, kind, tuple(btf.access_path(tid, access))))
    return btf, out


def kernel_btf(vmlinux_path):
    """The BTF of a vmlinux ELF file, or a raw BTF file
    (/sys/kernel/btf/vmlinux)."""
    with open(vmlinux_path, "rb") as f:
        data = f.read()
    if data[:4] == b"\x7fELF":
        return Btf(elf_sections(data)[".BTF"])
    return Btf(data)
