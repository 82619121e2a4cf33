"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_list_movies_pages_split_created_movys(base_url, session, unique, auth_headers):
    created = []
    try:
        marker = unique("Ant Man and The Wasp")
        rec0_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        rec0_payload["title"] = marker
        rec0_created = session.post(f"{base_url}/api/v1/movies/", json=rec0_payload, headers=auth_headers)
        assert 200 <= rec0_created.status_code < 300, rec0_created.text
        rec0_id = rec0_created.json()["id"]
        created.append(rec0_id)
        rec1_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        rec1_payload["title"] = marker
        rec1_created = session.post(f"{base_url}/api/v1/movies/", json=rec1_payload, headers=auth_headers)
        assert 200 <= rec1_created.status_code < 300, rec1_created.text
        rec1_id = rec1_created.json()["id"]
        created.append(rec1_id)
        rec2_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        rec2_payload["title"] = marker
        rec2_created = session.post(f"{base_url}/api/v1/movies/", json=rec2_payload, headers=auth_headers)
        assert 200 <= rec2_created.status_code < 300, rec2_created.text
        rec2_id = rec2_created.json()["id"]
        created.append(rec2_id)
        page_one = session.get(f"{base_url}/api/v1/movies/", params={"title": marker, "page": 1, "page_size": 2}, headers=auth_headers)
        assert 200 <= page_one.status_code < 300, page_one.text
        page_two = session.get(f"{base_url}/api/v1/movies/", params={"title": marker, "page": 2, "page_size": 2}, headers=auth_headers)
        assert 200 <= page_two.status_code < 300, page_two.text
        first_ids = [record["id"] for record in [v for v in (page_one.json().values() if isinstance(page_one.json(), dict) else [page_one.json()]) if isinstance(v, list)][0]]
        second_ids = [record["id"] for record in [v for v in (page_two.json().values() if isinstance(page_two.json(), dict) else [page_two.json()]) if isinstance(v, list)][0]]
        assert len(first_ids) == 2 and len(second_ids) == 1
        assert sorted(first_ids + second_ids) == sorted([rec0_id, rec1_id, rec2_id])
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/movies/{record_id}/", headers=auth_headers)
