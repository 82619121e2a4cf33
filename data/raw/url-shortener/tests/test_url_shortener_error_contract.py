"""The error contract beyond the documented routes.

The README promises one error body for *all* errors, "unknown path" included, and lists
`405 method_not_allowed`, but it documents no endpoint these requests go to. Whether such tests
belong in the benchmark is a judgement call: a reviewer reading the endpoint list sees
undocumented requests, one reading the error section sees a promise kept. The build sends them
to the Area Chair (this task is in the verified split), so a newcomer can try that step.
"""


def test_unknown_path_answers_with_the_shared_error_body(base_url, http):
    response = http.get(f"{base_url}/links/latest", timeout=10)
    assert response.status_code == 404
    assert response.headers["Content-Type"].startswith("application/json")
    error = response.json()["error"]
    assert error["code"] == "not_found"
    assert isinstance(error["message"], str) and error["message"]


def test_unsupported_method_answers_405_with_the_shared_error_body(base_url, http):
    response = http.put(f"{base_url}/short-links/any-code",
                        json={"url": "https://example.com/"}, timeout=10)
    assert response.status_code == 405
    error = response.json()["error"]
    assert error["code"] == "method_not_allowed"
    assert isinstance(error["message"], str) and error["message"]
