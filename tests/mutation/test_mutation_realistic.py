"""Realistic fault kinds of Python and Java oracles: each kind makes the bug it names."""

from __future__ import annotations

from pipeline.mutation.java import java_mutants
from pipeline.mutation.operators import OPERATORS, python_mutants
from pipeline.mutation.realistic import REALISTIC
from pipeline.mutation.select import select_mutants

APP = '''
_items = {}


def list_items(tag=None, page=1, per_page=20, order="asc"):
    out = []
    for item in sorted(_items.values(), key=lambda i: i["id"], reverse=order == "desc"):
        if tag and tag not in item["tags"]:
            continue
        out.append(item)
    start = (page - 1) * per_page
    return {"items": out[start:start + per_page], "total": len(out)}


def create_item(data):
    if not data.get("name"):
        raise ApiError(422, "validation_error", "name is required")
    item = {"id": len(_items) + 1, "name": data["name"], "tags": data.get("tags", [])}
    _items[item["id"]] = item
    return item


def search(args):
    limit = args.get("limit", 10)
    return [i for i in _items.values() if i["name"].startswith(args["q"])][:limit]
'''


def _kinds(mutants, kind):
    return [m for m in mutants if m.kind == kind]


def test_every_realistic_kind_is_made_and_does_what_it_says():
    mutants = python_mutants("app.py", APP)
    for kind in REALISTIC:
        assert _kinds(mutants, kind), kind
    def has(kind, fragment):
        return any(fragment in m.source for m in _kinds(mutants, kind))
    assert has("filter_ignored", "if False:\n            continue")
    assert has("filter_ignored", "for i in _items.values() if True]")
    assert has("sort_ignored", "in list(_items.values()):")
    assert has("sort_ignored", "reverse=False")
    assert has("pagination_off_by_one", "start = (page) * per_page")
    assert has("pagination_off_by_one", "out[start:(start + per_page) + 1]")
    assert has("validation_removed", "    if False:\n        raise ApiError(422")
    assert has("write_not_persisted", "    pass\n    return item")
    assert has("field_dropped", '{"id": len(_items) + 1, "tags": data.get("tags", [])}')
    assert has("default_changed", 'args.get("limit", 11)')
    assert has("default_changed", "per_page=21")
    # a local list being built is not the service's state: out.append is no lost write
    assert not any("        pass\n    start" in m.source
                   for m in _kinds(mutants, "write_not_persisted"))
    for m in mutants:
        compile(m.source, "app.py", "exec")
        assert m.summary()["kind"] == m.kind


def test_realistic_kinds_win_over_the_same_edit_as_an_operator_flip():
    mutants = python_mutants("app.py", APP)
    sources = [m.source for m in mutants]
    assert len(sources) == len(set(sources))
    persisted = _kinds(mutants, "write_not_persisted")[0]
    assert not [m for m in mutants if m.operator == "statement" and m.source == persisted.source]


def test_capped_selection_samples_every_kind_before_a_second_of_any():
    mutants = python_mutants("app.py", APP)
    present = {m.kind for m in mutants}
    chosen = select_mutants(mutants, cap=len(present), seed=0)
    assert {m.kind for m in chosen} == present
    assert select_mutants(mutants, cap=len(present), seed=0) == chosen
    assert all(k in OPERATORS for k in present)


def test_java_realistic_kinds():
    java = '''class Inv {
    List<Map<String, Object>> list(String category) {
        for (Item item : items.values()) {
            if (category != null && !item.category.equals(category)) {
                continue;
            }
            result.add(view(item));
        }
        return result;
    }
    void delete(long id) {
        if (item.quantity > 0) {
            throw new ApiException(409, "item_has_stock", "x");
        }
        items.remove(id);
        out.put("id", id);
    }
}
'''
    mutants = java_mutants("Inv.java", java)
    kinds = {m.kind for m in mutants}
    assert {"filter_ignored", "validation_removed", "write_not_persisted",
            "field_dropped"} <= kinds
    filt = _kinds(mutants, "filter_ignored")[0]
    assert "if (false) {\n                continue;" in filt.source
    check = _kinds(mutants, "validation_removed")[0]
    assert "if (false) {\n            throw new ApiException(409" in check.source
