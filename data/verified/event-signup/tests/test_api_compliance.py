"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_event_returns_201_with_record(base_url, session, unique):
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
        assert {
            "id", "title", "location", "starts_at", "capacity", "registered", "seats_left",
            "created_at",
        } <= set(event)
        assert isinstance(event["id"], int)
        assert isinstance(event["title"], str)
        assert isinstance(event["location"], str)
        assert isinstance(event["starts_at"], (str, type(None)))
        assert isinstance(event["capacity"], int)
        assert isinstance(event["registered"], int)
        assert event["title"] == payload["title"]
        assert event["location"] == payload["location"]
        assert event["capacity"] == payload["capacity"]
    finally:
        session.delete(f"{base_url}/api/v2/events/{event_id}")


def test_create_registration_returns_201_with_record(base_url, session, unique):
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
        assert {"id", "event_id", "name", "email", "registered_at"} <= set(registration)
        assert isinstance(registration["id"], int)
        assert isinstance(registration["event_id"], int)
        assert isinstance(registration["name"], str)
        assert isinstance(registration["email"], str)
        assert isinstance(registration["registered_at"], (str, type(None)))
        assert registration["name"] == payload["name"]
    finally:
        session.delete(f"{base_url}/api/v2/events/{event_id}")


def test_delete_event_returns_204(base_url, session, unique):
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
        deleted = session.delete(f"{base_url}/api/v2/events/{event_id}")
        assert deleted.status_code == 204, deleted.text
        assert deleted.content == b""
    finally:
        session.delete(f"{base_url}/api/v2/events/{event_id}")


def test_delete_registration_returns_204(base_url, session, unique):
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
        deleted = session.delete(f"{base_url}/api/v2/events/{event_id}/registrations/{registration_id}")
        assert deleted.status_code == 204, deleted.text
        assert deleted.content == b""
    finally:
        session.delete(f"{base_url}/api/v2/events/{event_id}")


def test_get_event_returns_created_event(base_url, session, unique):
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
        body = fetched.json()
        assert body["id"] == event_id
        assert {
            "id", "title", "location", "starts_at", "capacity", "registered", "seats_left",
            "created_at",
        } <= set(body)
        assert isinstance(body["id"], int)
        assert isinstance(body["title"], str)
        assert isinstance(body["location"], str)
        assert isinstance(body["starts_at"], (str, type(None)))
        assert isinstance(body["capacity"], int)
        assert isinstance(body["registered"], int)
        assert body["title"] == payload["title"]
        assert body["location"] == payload["location"]
        assert body["capacity"] == payload["capacity"]
    finally:
        session.delete(f"{base_url}/api/v2/events/{event_id}")


def test_get_events_returns_200_with_documented_fields(base_url, session, unique):
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
        response = session.get(f"{base_url}/api/v2/events")
        assert response.status_code == 200, response.text
        body = response.json()
        assert {"items", "page", "size", "total", "total_pages"} <= set(body)
        assert isinstance(body["items"], list)
        assert isinstance(body["page"], int)
        assert isinstance(body["size"], int)
        assert isinstance(body["total"], int)
        assert isinstance(body["total_pages"], int)
        assert len(body["items"]) >= 1
        assert body["total"] >= len(body["items"])
    finally:
        session.delete(f"{base_url}/api/v2/events/{event_id}")


def test_list_events_upcoming_shows_a_future_event_not_a_past_one(base_url, session, unique):
    created = []
    try:
        past_payload = {
            "title": unique("Intro to bookbinding"),
            "location": "Room 2",
            "starts_at": "2030-09-14T16:00:00Z",
            "capacity": 12,
        }
        past_payload["starts_at"] = "2000-09-14T16:00:00Z"
        past_created = session.post(f"{base_url}/api/v2/events", json=past_payload)
        assert past_created.status_code == 201, past_created.text
        past_id = past_created.json()["id"]
        created.append(past_id)
        ahead_payload = {
            "title": unique("Intro to bookbinding"),
            "location": "Room 2",
            "starts_at": "2030-09-14T16:00:00Z",
            "capacity": 12,
        }
        ahead_payload["starts_at"] = "2099-09-14T16:00:00Z"
        ahead_created = session.post(f"{base_url}/api/v2/events", json=ahead_payload)
        assert ahead_created.status_code == 201, ahead_created.text
        ahead_id = ahead_created.json()["id"]
        created.append(ahead_id)
        listed = session.get(f"{base_url}/api/v2/events", params={"upcoming": "true", "size": 50})
        assert listed.status_code == 200, listed.text
        listed_body = listed.json()
        assert ahead_id in [record["id"] for record in listed_body["items"]]
        assert past_id not in [record["id"] for record in listed_body["items"]]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v2/events/{record_id}")


def test_search_events_by_q_finds_only_matching_event(base_url, session, unique):
    created = []
    try:
        marker = unique("Intro to bookbinding")
        match_payload = {
            "title": unique("Intro to bookbinding"),
            "location": "Room 2",
            "starts_at": "2030-09-14T16:00:00Z",
            "capacity": 12,
        }
        match_payload["title"] = marker
        match_created = session.post(f"{base_url}/api/v2/events", json=match_payload)
        assert match_created.status_code == 201, match_created.text
        match_id = match_created.json()["id"]
        created.append(match_id)
        other_payload = {
            "title": unique("Intro to bookbinding"),
            "location": "Room 2",
            "starts_at": "2030-09-14T16:00:00Z",
            "capacity": 12,
        }
        other_created = session.post(f"{base_url}/api/v2/events", json=other_payload)
        assert other_created.status_code == 201, other_created.text
        other_id = other_created.json()["id"]
        created.append(other_id)
        found = session.get(f"{base_url}/api/v2/events", params={"q": marker[1:-1]})
        assert found.status_code == 200, found.text
        assert [record["id"] for record in found.json()["items"]] == [match_id]
        found_upper = session.get(f"{base_url}/api/v2/events", params={"q": marker[1:-1].upper()})
        assert found_upper.status_code == 200, found_upper.text
        assert [record["id"] for record in found_upper.json()["items"]] == [match_id]
        marker_location = unique("Room 2")
        by_location_payload = {
            "title": unique("Intro to bookbinding"),
            "location": "Room 2",
            "starts_at": "2030-09-14T16:00:00Z",
            "capacity": 12,
        }
        by_location_payload["location"] = marker_location
        by_location_created = session.post(f"{base_url}/api/v2/events", json=by_location_payload)
        assert by_location_created.status_code == 201, by_location_created.text
        by_location_id = by_location_created.json()["id"]
        created.append(by_location_id)
        found_location = session.get(f"{base_url}/api/v2/events", params={"q": marker_location[1:-1].upper()})
        assert found_location.status_code == 200, found_location.text
        assert [record["id"] for record in found_location.json()["items"]] == [by_location_id]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v2/events/{record_id}")
