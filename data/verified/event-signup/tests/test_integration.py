"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_created_event_appears_in_list(base_url, session, unique):
    payload = {
        "title": unique("Intro to bookbinding"),
        "location": "Room 2",
        "starts_at": "2030-09-14T16:00:00Z",
        "capacity": 12,
    }
    response = session.post(f"{base_url}/api/v2/events", json=payload)
    assert response.status_code == 201, response.text
    event = response.json()
    event_id = event["id"]
    try:
        listed = session.get(f"{base_url}/api/v2/events", params={"q": payload["title"]})
        assert listed.status_code == 200, listed.text
        listed_body = listed.json()
        assert event_id in [record["id"] for record in listed_body["items"]]
    finally:
        session.delete(f"{base_url}/api/v2/events/{event_id}")


def test_created_registration_appears_in_list(base_url, session, unique):
    event_payload = {
        "title": unique("Intro to bookbinding"),
        "location": "Room 2",
        "starts_at": "2030-09-14T16:00:00Z",
        "capacity": 12,
    }
    event_response = session.post(f"{base_url}/api/v2/events", json=event_payload)
    assert event_response.status_code == 201, event_response.text
    event = event_response.json()
    event_id = event["id"]
    try:
        payload = {"name": unique("Jun Park"), "email": unique("Jun@Example.org")}
        response = session.post(f"{base_url}/api/v2/events/{event_id}/registrations", json=payload)
        assert response.status_code == 201, response.text
        registration = response.json()
        registration_id = registration["id"]
        listed = session.get(f"{base_url}/api/v2/events/{event_id}/registrations")
        assert listed.status_code == 200, listed.text
        listed_body = listed.json()
        assert registration_id in [record["id"] for record in listed_body]
    finally:
        session.delete(f"{base_url}/api/v2/events/{event_id}")


def test_deleted_event_leaves_the_events_list(base_url, session, unique):
    created = []
    try:
        gone_payload = {
            "title": unique("Intro to bookbinding"),
            "location": "Room 2",
            "starts_at": "2030-09-14T16:00:00Z",
            "capacity": 12,
        }
        gone_created = session.post(f"{base_url}/api/v2/events", json=gone_payload)
        assert gone_created.status_code == 201, gone_created.text
        gone_id = gone_created.json()["id"]
        created.append(gone_id)
        kept_payload = {
            "title": unique("Intro to bookbinding"),
            "location": "Room 2",
            "starts_at": "2030-09-14T16:00:00Z",
            "capacity": 12,
        }
        kept_created = session.post(f"{base_url}/api/v2/events", json=kept_payload)
        assert kept_created.status_code == 201, kept_created.text
        kept_id = kept_created.json()["id"]
        created.append(kept_id)
        before = session.get(f"{base_url}/api/v2/events", params={"size": 50})
        assert before.status_code == 200, before.text
        before_body = before.json()
        assert gone_id in [record["id"] for record in before_body["items"]] and kept_id in [record["id"] for record in before_body["items"]]
        removed = session.delete(f"{base_url}/api/v2/events/{gone_id}")
        assert removed.status_code == 204, removed.text
        after = session.get(f"{base_url}/api/v2/events", params={"size": 50})
        assert after.status_code == 200, after.text
        after_body = after.json()
        assert gone_id not in [record["id"] for record in after_body["items"]]
        assert kept_id in [record["id"] for record in after_body["items"]]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v2/events/{record_id}")


def test_event_ids_are_not_reused_after_a_delete(base_url, session, unique):
    created = []
    try:
        gone_payload = {
            "title": unique("Intro to bookbinding"),
            "location": "Room 2",
            "starts_at": "2030-09-14T16:00:00Z",
            "capacity": 12,
        }
        gone_created = session.post(f"{base_url}/api/v2/events", json=gone_payload)
        assert gone_created.status_code == 201, gone_created.text
        gone_id = gone_created.json()["id"]
        created.append(gone_id)
        kept_payload = {
            "title": unique("Intro to bookbinding"),
            "location": "Room 2",
            "starts_at": "2030-09-14T16:00:00Z",
            "capacity": 12,
        }
        kept_created = session.post(f"{base_url}/api/v2/events", json=kept_payload)
        assert kept_created.status_code == 201, kept_created.text
        kept_id = kept_created.json()["id"]
        created.append(kept_id)
        removed = session.delete(f"{base_url}/api/v2/events/{gone_id}")
        assert removed.status_code == 204, removed.text
        third_payload = {
            "title": unique("Intro to bookbinding"),
            "location": "Room 2",
            "starts_at": "2030-09-14T16:00:00Z",
            "capacity": 12,
        }
        third_created = session.post(f"{base_url}/api/v2/events", json=third_payload)
        assert third_created.status_code == 201, third_created.text
        third_id = third_created.json()["id"]
        created.append(third_id)
        assert third_id != kept_id
        kept_read = session.get(f"{base_url}/api/v2/events/{kept_id}")
        assert kept_read.status_code == 200, kept_read.text
        kept_body = kept_read.json()
        assert kept_body["title"] == kept_payload["title"]
        assert kept_body["location"] == kept_payload["location"]
        assert kept_body["capacity"] == kept_payload["capacity"]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v2/events/{record_id}")


def test_event_lifecycle_create_read_update_delete(base_url, session, unique):
    payload = {
        "title": unique("Intro to bookbinding"),
        "location": "Room 2",
        "starts_at": "2030-09-14T16:00:00Z",
        "capacity": 12,
    }
    response = session.post(f"{base_url}/api/v2/events", json=payload)
    assert response.status_code == 201, response.text
    event = response.json()
    event_id = event["id"]
    try:
        fetched = session.get(f"{base_url}/api/v2/events/{event_id}")
        assert fetched.status_code == 200, fetched.text
        assert fetched.json()["id"] == event_id
        deleted = session.delete(f"{base_url}/api/v2/events/{event_id}")
        assert deleted.status_code == 204, deleted.text
        gone = session.get(f"{base_url}/api/v2/events/{event_id}")
        assert gone.status_code == 404, gone.text
        assert {"type", "title", "status", "detail"} <= set(gone.json())
        assert gone.json()["status"] == 404
    finally:
        session.delete(f"{base_url}/api/v2/events/{event_id}")


def test_list_events_grows_by_one_after_create(base_url, session, unique):
    created = []
    try:
        before = session.get(f"{base_url}/api/v2/events")
        assert before.status_code == 200, before.text
        marker = unique("Intro to bookbinding")
        new_payload = {
            "title": unique("Intro to bookbinding"),
            "location": "Room 2",
            "starts_at": "2030-09-14T16:00:00Z",
            "capacity": 12,
        }
        new_payload["title"] = marker
        new_created = session.post(f"{base_url}/api/v2/events", json=new_payload)
        assert new_created.status_code == 201, new_created.text
        new_id = new_created.json()["id"]
        created.append(new_id)
        after = session.get(f"{base_url}/api/v2/events")
        assert after.status_code == 200, after.text
        assert after.json()["total"] == before.json()["total"] + 1
        found = session.get(f"{base_url}/api/v2/events", params={"q": marker})
        assert found.status_code == 200, found.text
        assert [record["id"] for record in found.json()["items"]] == [new_id]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v2/events/{record_id}")


def test_registration_lifecycle_create_read_update_delete(base_url, session, unique):
    event_payload = {
        "title": unique("Intro to bookbinding"),
        "location": "Room 2",
        "starts_at": "2030-09-14T16:00:00Z",
        "capacity": 12,
    }
    event_response = session.post(f"{base_url}/api/v2/events", json=event_payload)
    assert event_response.status_code == 201, event_response.text
    event = event_response.json()
    event_id = event["id"]
    try:
        payload = {"name": unique("Jun Park"), "email": unique("Jun@Example.org")}
        response = session.post(f"{base_url}/api/v2/events/{event_id}/registrations", json=payload)
        assert response.status_code == 201, response.text
        registration = response.json()
        registration_id = registration["id"]
        listed = session.get(f"{base_url}/api/v2/events/{event_id}/registrations")
        assert listed.status_code == 200, listed.text
        listed_body = listed.json()
        assert registration_id in [record["id"] for record in listed_body]
        deleted = session.delete(f"{base_url}/api/v2/events/{event_id}/registrations/{registration_id}")
        assert deleted.status_code == 204, deleted.text
        listed = session.get(f"{base_url}/api/v2/events/{event_id}/registrations")
        assert listed.status_code == 200, listed.text
        listed_body = listed.json()
        assert registration_id not in [record["id"] for record in listed_body]
    finally:
        session.delete(f"{base_url}/api/v2/events/{event_id}")


def test_registrations_listed_under_their_own_event(base_url, session, unique):
    event_payload = {
        "title": unique("Intro to bookbinding"),
        "location": "Room 2",
        "starts_at": "2030-09-14T16:00:00Z",
        "capacity": 12,
    }
    event_response = session.post(f"{base_url}/api/v2/events", json=event_payload)
    assert event_response.status_code == 201, event_response.text
    event = event_response.json()
    event_id = event["id"]
    other_parent_id = None
    try:
        payload = {"name": unique("Jun Park"), "email": unique("Jun@Example.org")}
        response = session.post(f"{base_url}/api/v2/events/{event_id}/registrations", json=payload)
        assert response.status_code == 201, response.text
        registration = response.json()
        registration_id = registration["id"]
        other_parent_payload = {
            "title": unique("Intro to bookbinding"),
            "location": "Room 2",
            "starts_at": "2030-09-14T16:00:00Z",
            "capacity": 12,
        }
        other_parent_response = session.post(f"{base_url}/api/v2/events", json=other_parent_payload)
        assert other_parent_response.status_code == 201, other_parent_response.text
        other_parent = other_parent_response.json()
        other_parent_id = other_parent["id"]
        other_payload = {"name": unique("Jun Park"), "email": unique("Jun@Example.org")}
        other_response = session.post(f"{base_url}/api/v2/events/{other_parent_id}/registrations", json=other_payload)
        assert other_response.status_code == 201, other_response.text
        other_record = other_response.json()
        other_id = other_record["id"]
        mine = session.get(f"{base_url}/api/v2/events/{event_id}/registrations")
        assert mine.status_code == 200, mine.text
        theirs = session.get(f"{base_url}/api/v2/events/{other_parent_id}/registrations")
        assert theirs.status_code == 200, theirs.text
        mine_ids = [record["id"] for record in mine.json()]
        theirs_ids = [record["id"] for record in theirs.json()]
        assert registration_id in mine_ids and other_id not in mine_ids
        assert other_id in theirs_ids and registration_id not in theirs_ids
    finally:
        session.delete(f"{base_url}/api/v2/events/{event_id}")
        if other_parent_id is not None:
            session.delete(f"{base_url}/api/v2/events/{other_parent_id}")


def test_two_events_read_back_each_as_itself(base_url, session, unique):
    created = []
    try:
        first_payload = {
            "title": unique("Intro to bookbinding"),
            "location": "Room 2",
            "starts_at": "2030-09-14T16:00:00Z",
            "capacity": 12,
        }
        first_created = session.post(f"{base_url}/api/v2/events", json=first_payload)
        assert first_created.status_code == 201, first_created.text
        first_id = first_created.json()["id"]
        created.append(first_id)
        second_payload = {
            "title": unique("Intro to bookbinding"),
            "location": "Room 2",
            "starts_at": "2030-09-14T16:00:00Z",
            "capacity": 12,
        }
        second_created = session.post(f"{base_url}/api/v2/events", json=second_payload)
        assert second_created.status_code == 201, second_created.text
        second_id = second_created.json()["id"]
        created.append(second_id)
        first_read = session.get(f"{base_url}/api/v2/events/{first_id}")
        assert first_read.status_code == 200, first_read.text
        first_read_body = first_read.json()
        assert first_read_body["id"] == first_id
        assert first_read_body["title"] == first_payload["title"]
        assert first_read_body["location"] == first_payload["location"]
        assert first_read_body["capacity"] == first_payload["capacity"]
        second_read = session.get(f"{base_url}/api/v2/events/{second_id}")
        assert second_read.status_code == 200, second_read.text
        second_read_body = second_read.json()
        assert second_read_body["id"] == second_id
        assert second_read_body["title"] == second_payload["title"]
        assert second_read_body["location"] == second_payload["location"]
        assert second_read_body["capacity"] == second_payload["capacity"]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v2/events/{record_id}")
