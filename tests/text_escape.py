"""text_escape.py: quench's escaping of untrusted text for a terminal
(src/base/text.h), written again from its definition, for tests to
compare quench's output against: control characters (U+0000..U+001F,
U+007F, U+0080..U+009F), line separators (U+2028, U+2029) and
bidirectional formatting characters (U+202A..U+202E, U+2066..U+2069) are
escaped as \\n, \\r, \\t, \\xNN (other ASCII) or \\uNNNN; everything else,
backslashes included, stays as it is. Use: PYTHONPATH=tests, then
`from text_escape import esc, unsafe`.
"""


def unsafe(c):
    """Whether the character c is one text.h escapes."""
    o = ord(c)
    return (o < 0x20 or 0x7f <= o <= 0x9f or o in (0x2028, 0x2029)
            or 0x202a <= o <= 0x202e or 0x2066 <= o <= 0x2069)


def esc(s):
    """The string s as quench prints it."""
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
    out = []
    for c in s:
        if not unsafe(c):
            out.append(c)
        elif c in named:
            out.append(named[c])
        elif ord(c) < 0x80:
            out.append("\\x%02x" % ord(c))
        else:
            out.append("\\u%04x" % ord(c))
    return "".join(out)
