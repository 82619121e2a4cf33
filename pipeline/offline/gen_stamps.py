"""Offline template for a creation time the document gives as a Unix timestamp ("UTC Unix
timestamp of the creation date"): the new record's stamp is the current time in the unit the
document names (seconds unless it says milliseconds). A stamp in the wrong unit is a thousand
times off; a local time or a fixed value is hours or years off. The window is a day wide, so
a service on another clock, or in another time zone, still passes."""

from __future__ import annotations

import re

from pipeline.offline.gen_code import Case, Writer, literal
from pipeline.offline.gen_model import Resource

_UNIX = re.compile(r"\bunix\b.{0,20}?\b(?:time|timestamp|epoch)|\bepoch\b.{0,20}?\b(?:seconds|"
                   r"milliseconds|time(?:stamp)?)|seconds\s+since\s+(?:the\s+)?(?:unix\s+)?"
                   r"epoch|\bPOSIX\s+time", re.I)
_MILLI = re.compile(r"milli|\bms\b", re.I)
_CREATION = re.compile(r"creat|publish|added|submitted|posted|made\b", re.I)
_DAY_S = 86400


def stamp_key(res: Resource) -> tuple[str, bool] | None:
    """The documented creation-time field of the create's answer, and whether it counts
    milliseconds."""
    ep = res.create
    props = ((ep.response_schema or {}).get("properties") or {}) if ep is not None else {}
    for key, sub in props.items() if isinstance(props, dict) else ():
        text = str(sub.get("description") or "") if isinstance(sub, dict) else ""
        if _UNIX.search(text) and _CREATION.search(text) and sub.get("type") in (
                "integer", "number", None):
            return key, bool(_MILLI.search(text))
    return None


def creation_stamp(w: Writer, res: Resource) -> Case | None:
    found = stamp_key(res)
    ep = res.create
    if found is None or ep is None or not res.creatable or not w.model.reachable(ep) \
            or res.created_id_key or res.created_bare:
        return None
    key, milli = found
    unit = " * 1000" if milli else ""
    case = Case(f"test_create_{res.noun}_stamps_{key.lower()}_with_the_current_unix_time",
                "api_compliance")
    case.add("import time", "", f"now = time.time(){unit}")
    if not w.create_chain(case, res, {}):
        return None
    case.add(f"stamp = {res.var}[{literal(key)}]",
             "assert isinstance(stamp, (int, float)) and not isinstance(stamp, bool)",
             f"assert abs(stamp - now) < {_DAY_S}{unit}, (stamp, now)")
    return case
