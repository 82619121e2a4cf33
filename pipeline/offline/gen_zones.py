"""Offline template for times shown in the zone a query parameter names.

"Optional Query Param: ?timezone=Asia/Kolkata" beside "datetime stored in UTC, displayed in
the user's timezone": a record created with times carrying an offset is listed with the
documented zone and with UTC. Each time shown is the instant sent (a time whose offset was
dropped instead of converted is hours off), and where it carries an offset that offset is
the asked zone's (a parameter the service ignores shows its own zone). A time shown without
an offset is read in the zone asked for, so either way of writing it passes.
"""

from __future__ import annotations

import re
from datetime import datetime

from pipeline.offline.gen_code import Case, Writer, literal, status_assert
from pipeline.offline.gen_common import thing
from pipeline.offline.gen_model import Resource
from pipeline.records import Endpoint, Param

_ZONE_PARAM = re.compile(r"^(?:time_?zone|tz|zone)$", re.I)
_ZONE = re.compile(r"^(?:UTC|GMT|[A-Z][A-Za-z_]+/[A-Za-z_/+-]+)$")


def _zone_param(ep: Endpoint) -> tuple[Param, str] | None:
    """The query parameter naming a time zone, with the zone the document shows for it."""
    for param in ep.params:
        examples = param.constraints.get("examples") or []
        example = next((str(e) for e in examples if _ZONE.match(str(e))), None)
        if param.location == "query" and _ZONE_PARAM.match(param.name) and example:
            return param, example
    return None


def _aware(value: object) -> bool:
    try:
        return isinstance(value, str) and "T" in value and \
            datetime.fromisoformat(value.replace("Z", "+00:00")).tzinfo is not None
    except ValueError:
        return False


def shown_in_zone(w: Writer, res: Resource) -> Case | None:
    ep = res.listing
    found = _zone_param(ep) if ep is not None else None
    if ep is None or found is None or res.parent is not None or not res.creatable \
            or res.id_field is None or not w.model.reachable(ep):
        return None
    param, example = found
    times = [k for k, v in (w.payload_for(res) or {}).items() if _aware(v)]
    if not times:
        return None
    case = Case(f"test_list_{thing(ep.path)}_shows_times_in_the_{param.name.lower()}_asked",
                "integration", doc="Times are listed as the instant sent, in the zone asked for.")
    bindings: dict[str, str] = {}
    case.add("from datetime import datetime", "from zoneinfo import ZoneInfo")
    if not w.create_chain(case, res, bindings):
        return None
    zones = list(dict.fromkeys([example, "UTC"]))
    query = f"params={{{literal(param.name)}: zone}}"
    case.add(f"for zone in {literal(zones)}:",
             "    " + w.call(case, "listed", ep, bindings, query),
             "    " + status_assert("listed", ep),
             f"    mine = [row for row in records_in(listed.json()) "
             f"if id_of_record(row, {literal(res.noun)}) == {res.id_var}]",
             "    assert len(mine) == 1, listed.text",
             )
    for key in times:
        var, field = re.sub(r"\W", "_", key).lower(), f"mine[0][{literal(key)}]"
        case.add(f"    {var} = datetime.fromisoformat({field}.replace(\"Z\", \"+00:00\"))",
                 f"    if {var}.tzinfo is None:  # written without an offset: in the zone asked",
                 f"        {var} = {var}.replace(tzinfo=ZoneInfo(zone))",
                 f"    assert {var}.utcoffset() == ZoneInfo(zone).utcoffset({var}), "
                 f"(zone, {field})",
                 f"    assert {var} == datetime.fromisoformat(payload[{literal(key)}]), "
                 f"(zone, {field})")
    return case


def zone_cases(w: Writer) -> list[Case | None]:
    return [shown_in_zone(w, res) for res in w.model.resources]
