"""The hook and field tables of include/rs_common.h, read by the tests so
that what they expect comes from the same rows the program is built from.

hooks(): [(id, name, kind)] of RS_HOOKS, kind 'f' fentry/fexit, 't'
tracepoint, 'c' cgroupfs, 'k' a kernel struct member ("struct.member").
field_needs(): {field key: {hook id, ...}} of RS_FIELDS.
"""
import os
import re

HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                      "include", "rs_common.h")


def _text(path=None):
    with open(path or HEADER) as f:
        return f.read()


def hooks(path=None):
    return re.findall(r"X\((\w+),\s*\"([\w.]+)\",\s*'(\w)'\)", _text(path))


def field_needs(path=None):
    text = _text(path)
    body = text[text.index("#define RS_FIELDS(X)"):]
    body = body[:body.index("#define RS_FIELD_ENUM")]
    return {key: set(re.findall(r"RS_HOOK_BIT\((\w+)\)", needs))
            for key, needs in re.findall(r'X\(\w+,\s*"(\w+)",\s*\w+,(.*?)"',
                                         body, re.S)}
