"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_list_history_limit_and_page_split_the_list(base_url, session, auth_headers):
    created = []
    try:
        rec0_payload = {"action": "view"}
        rec0_created = session.post(f"{base_url}/api/v1/history", json=rec0_payload, headers=auth_headers)
        assert 200 <= rec0_created.status_code < 300, rec0_created.text
        rec0_id = rec0_created.json()["id"]
        created.append(rec0_id)
        rec1_payload = {"action": "view"}
        rec1_created = session.post(f"{base_url}/api/v1/history", json=rec1_payload, headers=auth_headers)
        assert 200 <= rec1_created.status_code < 300, rec1_created.text
        rec1_id = rec1_created.json()["id"]
        created.append(rec1_id)
        first = session.get(f"{base_url}/api/v1/history", params={"limit": 1, "page": 1}, headers=auth_headers)
        assert first.status_code == 200, first.text
        first_body = first.json()
        second = session.get(f"{base_url}/api/v1/history", params={"limit": 1, "page": 2}, headers=auth_headers)
        assert second.status_code == 200, second.text
        second_body = second.json()
        unpaged = session.get(f"{base_url}/api/v1/history", params={"limit": 1}, headers=auth_headers)
        assert unpaged.status_code == 200, unpaged.text
        unpaged_body = unpaged.json()
        assert len(first_body["history"]) == 1 and len(second_body["history"]) == 1
        assert [record["id"] for record in first_body["history"]] != [record["id"] for record in second_body["history"]]
        assert [record["id"] for record in unpaged_body["history"]] == [record["id"] for record in first_body["history"]]
        assert first_body["pagination"]["total"] >= 2
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/history/{record_id}", headers=auth_headers)
