"""The HTML report: its figures agree with the store, and in headless Chromium every plot is
present and nothing is fetched from anywhere."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiny_store import REVIEWERS, build_tiny_data

from pipeline.reports.report import PLOTS, RANGES, report_data, write_report

CHROMIUM = "/usr/bin/chromium"


def test_report_figures_agree_with_the_store(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = build_tiny_data(data)
    got = report_data(store, data)
    status = store.status()["tasks"]
    assert got["funnel"]["accepted"] == sum(t["accepted"] for t in status.values())
    assert got["funnel"]["area_chair"] == sum(t["area_chair"] for t in status.values())
    assert got["funnel"]["discarded:conflict"] == sum(
        t["discarded"].get("conflict", 0) for t in status.values())
    assert got["funnel"]["generated"] == sum(len(store.latest_cases(t)) for t in status)
    assert {t["id"]: t["tests"] for t in got["tasks"]} == {
        k: v["accepted"] for k, v in status.items()}
    counts = got["distributions"]["offline:spec"]["total"]
    assert sum(counts.values()) == sum(r.reviewer == "offline:spec"
                                       for r in store.all_reviews())
    assert got["difficulty"] == {("train", "Medium"): 1, ("verified", "Easy"): 1,
                                 ("verified", "Hard"): 1}
    store.close()


@pytest.mark.slow
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
def test_report_renders_offline_with_every_plot(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    data = tmp_path / "data"
    store = build_tiny_data(data)
    out = write_report(store, data, tmp_path / "report.html")
    store.close()
    requests: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        try:
            page = browser.new_page()
            page.on("request", lambda r: requests.append(r.url))
            page.goto(out.as_uri(), wait_until="load")
            names = page.eval_on_selector_all(
                "svg.plot", "els => els.map(e => [e.dataset.plot, "
                "e.querySelectorAll('rect, circle, text').length, "
                "e.getBoundingClientRect().width])")
        finally:
            browser.close()
    shown = {name: (marks, width) for name, marks, width in names}
    want = set(PLOTS) | {f"scores-{r}-{k}" for r in REVIEWERS for k in RANGES}
    assert want <= set(shown)
    for name in want:
        marks, width = shown[name]
        assert marks > 0 and width > 0, name
    assert requests == [out.as_uri()], requests  # the file itself, nothing else
