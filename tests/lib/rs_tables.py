"""The hook and field tables of include/rs_common.h, read by the tests so
that what they expect comes from the same rows the program is built from.

hooks(): [(id, name, kind)] of RS_HOOKS, kind 'f' fentry/fexit, 't'
tracepoint, 'c' cgroupfs, 'i' an iterator, 'k' a kernel struct member
("struct.member").
field_needs(): {field key: {hook id, ...}} of RS_FIELDS, through the
RS_*_HOOKS macros some rows use.
unread_protos(): {hook id: [pattern, ...]} of src/collect/hooks.c's
rs_unread_protos, prototypes that leave the hook missing.
hook_targets(): {function or tracepoint: {hook id, ...}} of RS_SLOTS: the
hooks whose programs attach there.
schema(): RS_SCHEMA of src/model/recording.h, the schema `record` writes.
old_names(): {key: the key it had before schema 4} of src/model/fields.c's
alias list.
"""
import os
import re

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
HEADER = os.path.join(TOP, "include", "rs_common.h")
HOOKS_C = os.path.join(TOP, "src", "collect", "hooks.c")
RECORDING_H = os.path.join(TOP, "src", "model", "recording.h")
FIELDS_C = os.path.join(TOP, "src", "model", "fields.c")


def old_names():
    fields = _text().split("#define RS_FIELDS(X)", 1)[1]
    keys = dict(re.findall(r'X\((\w+),\s*"(\w+)",', fields))
    return {keys[i]: old for i, old in
            re.findall(r'\{RS_F_(\w+), "(\w+)"\}', _text(FIELDS_C))}


def schema():
    return int(re.search(r"#define RS_SCHEMA (\d+)", _text(RECORDING_H)).group(1))


def _text(path=None):
    with open(path or HEADER) as f:
        return f.read()


def hooks(path=None):
    return re.findall(r"X\((\w+),\s*\"([\w.]+)\",\s*'(\w)'\)", _text(path))


def field_needs(path=None):
    text = _text(path)
    # #define RS_GOAL_HOOKS (RS_HOOK_BIT(...) | ...), used as a row's needs
    macros = {name: body for name, body in re.findall(
        r"#define (RS_\w+_HOOKS)\b(.*?)(?<!\\)\n", text, re.S)}

    def hooks_of(needs):
        for name, body in macros.items():
            needs = re.sub(rf"\b{name}\b", body, needs)
        return set(re.findall(r"RS_HOOK_BIT\((\w+)\)", needs))
    body = text[text.index("#define RS_FIELDS(X)"):]
    body = body[:body.index("#define RS_FIELD_ENUM")]
    return {key: hooks_of(needs)
            for key, needs in re.findall(r'X\(\w+,\s*"(\w+)",\s*\w+,(.*?)"',
                                         body, re.S)}


def unread_protos(path=None):
    with open(path or HOOKS_C) as f:
        text = f.read()
    out = {}
    for hook, pattern in re.findall(r'\bU\((\w+),\s*"([^"]*)"', text):
        out.setdefault(hook, []).append(pattern)
    return out


def hook_targets(path=None):
    slots = _text(path).split("#define RS_SLOTS(X, ...)", 1)[1]
    slots = slots.split("\n\n", 1)[0].replace("\\\n", " ")
    out = {}
    for hook, target in re.findall(
            r'\bX\(\w+,\s*(\w+),\s*\w+,\s*"(\w+)"', slots):
        out.setdefault(target, set()).add(hook)
    if not out:
        raise ValueError("no RS_SLOTS rows found in " + (path or HEADER))
    return out
