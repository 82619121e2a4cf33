import hashlib


def test_upload_and_download_round_trip(api_url, http, uploaded, folder):
    content = "id,total\n1,9.99\n".encode()
    response = uploaded("../../etc/report.csv", content, "text/csv")
    assert response.status_code == 201
    meta = response.json()
    assert meta["filename"] == "report.csv" and meta["folder"] == folder
    assert meta["size"] == len(content) and meta["sha256"] == hashlib.sha256(content).hexdigest()
    assert response.headers["Location"] == f"/api/v1/files/{meta['id']}"
    body = http.get(f"{api_url}/files/{meta['id']}/content", timeout=10)
    assert body.status_code == 200 and body.content == content
    assert body.headers["Content-Type"].startswith("text/csv")
    assert body.headers["ETag"] == f"\"{meta['sha256']}\""

def test_duplicate_name_and_overwrite(api_url, http, uploaded, folder):
    first = uploaded("a.txt", b"one")
    assert first.status_code == 201
    clash = uploaded("a.txt", b"two")
    assert clash.status_code == 409 and clash.json()["error"] == "file_exists"
    replaced = uploaded("a.txt", b"three", overwrite="true")
    assert replaced.status_code == 201 and replaced.json()["id"] != first.json()["id"]
    listing = http.get(f"{api_url}/files", params={"folder": folder}, timeout=10).json()
    assert listing["total"] == 1 and listing["items"][0]["size"] == 5

def test_rejects_bad_uploads(api_url, http, uploaded):
    assert uploaded("empty.bin", b"").json()["error"] == "empty_file"
    big = uploaded("big.bin", b"x" * (1024 * 1024 + 1), "application/octet-stream")
    assert big.status_code == 413 and big.json()["error"] == "file_too_large"
    no_file = http.post(f"{api_url}/files", data={"folder": "x"}, timeout=10)
    assert no_file.status_code == 422 and no_file.json()["error"] == "validation_error"
    bad_folder = http.post(f"{api_url}/files", files={"file": ("a.txt", b"a")},
                           data={"folder": "Bad Folder"}, timeout=10)
    assert bad_folder.status_code == 422 and bad_folder.json()["error"] == "invalid_folder"

def test_batch_delete_reports_missing(api_url, http, uploaded, folder):
    ids = [uploaded(f"f{i}.txt", b"data").json()["id"] for i in range(3)]
    missing = "0" * 32
    result = http.post(f"{api_url}/files/batch-delete",
                       json={"ids": [ids[0], missing, ids[1], ids[0]]}, timeout=10)
    assert result.status_code == 200
    assert result.json() == {"deleted": [ids[0], ids[1]], "not_found": [missing]}
    assert http.get(f"{api_url}/files/{ids[0]}", timeout=10).status_code == 404
    usage = http.get(f"{api_url}/storage-usage", timeout=10).json()
    assert usage["by_folder"][folder] == {"files": 1, "bytes": 4}
    assert http.post(f"{api_url}/files/batch-delete", json={"ids": []},
                     timeout=10).status_code == 422

def test_delete_single_file(api_url, http, uploaded):
    file_id = uploaded("gone.txt", b"bye").json()["id"]
    assert http.delete(f"{api_url}/files/{file_id}", timeout=10).status_code == 204
    again = http.delete(f"{api_url}/files/{file_id}", timeout=10)
    assert again.status_code == 404 and again.json()["error"] == "file_not_found"
