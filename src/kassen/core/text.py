"""What text kassen keeps: no control character but tab, line feed and carriage return.

Names and texts come from files, command lines and HTTP bodies, and go to terminals, pages, files and
databases. A control character has no place in any of them and harm in several: an escape sequence
(``ESC ] 0;...BEL`` retitles a terminal window, ``ESC [ 2J`` clears it) is acted on by the terminal
that prints a unit's name, and PostgreSQL's text cannot hold NUL at all — so one store would keep
what another refuses. Every reader of untrusted text refuses them where it reads (JSON in
:func:`kassen.core.codec.parse_json`, YAML in :func:`kassen.content.yamlio.parse_yaml`, the names a
command or a form gives), with :func:`control_in` naming the first one.

>>> control_in("Kuro\\tthe raider")
>>> control_in("R\\x1b[31mred")
'U+001B'
"""

from __future__ import annotations

__all__ = ["CONTROL", "control_in"]

import re

#: C0 controls but tab, line feed and carriage return; DEL; the C1 controls.
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def control_in(text: str) -> str | None:
    """The first control character in ``text`` as ``U+XXXX`` (None: there is none)."""
    found = CONTROL.search(text)
    return None if found is None else f"U+{ord(found.group()):04X}"
