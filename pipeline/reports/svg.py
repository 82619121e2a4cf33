"""Inline SVG plots for the HTML report: bars and intervals, drawn by hand.

Why not a plotting library: the report must be one self-contained file that fetches nothing,
and these two shapes are all it needs. Pure: data in, markup out (escaped), deterministic.
"""

from __future__ import annotations

from html import escape

WIDTH = 560
ROW = 18
LEFT = 190
COLOURS = ("#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2")


def _svg(name: str, title: str, height: int, body: list[str]) -> str:
    return (f'<svg class="plot" data-plot="{escape(name)}" role="img" '
            f'xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}"><title>{escape(title)}</title>'
            + "".join(body) + "</svg>")


def _num(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.2f}"


def bars(name: str, title: str, items: list[tuple[str, float]], *, maximum: float | None = None
         ) -> str:
    """Horizontal bars, one per (label, value); an empty list draws a 'no data' note."""
    height = 24 + ROW * max(1, len(items))
    body = [f'<text x="4" y="14" font-size="12" font-weight="bold">{escape(title)}</text>']
    if not items:
        body.append('<text x="4" y="34" font-size="11">no data</text>')
        return _svg(name, title, height, body)
    top = maximum if maximum is not None else max((v for _, v in items), default=0) or 1
    span = WIDTH - LEFT - 60
    for i, (label, value) in enumerate(items):
        y = 22 + i * ROW
        w = max(0.0, span * (value / top)) if top else 0.0
        body.append(f'<text x="{LEFT - 6}" y="{y + 12}" font-size="11" text-anchor="end">'
                    f'{escape(label)}</text>')
        body.append(f'<rect x="{LEFT}" y="{y + 2}" width="{w:.1f}" height="{ROW - 5}" '
                    f'fill="{COLOURS[i % len(COLOURS)]}"><title>{escape(label)}: '
                    f'{_num(value)}</title></rect>')
        body.append(f'<text x="{LEFT + w + 4:.1f}" y="{y + 12}" font-size="11">'
                    f'{_num(value)}</text>')
    return _svg(name, title, height, body)


def histogram(name: str, title: str, counts: dict[int, int], low: int, high: int) -> str:
    """Vertical bars of how often each integer score from `low` to `high` was given."""
    height, base, width = 110, 90, 200
    top = max(counts.values(), default=0) or 1
    slot = (width - 20) / (high - low + 1)
    body = [f'<text x="4" y="12" font-size="11" font-weight="bold">{escape(title)}</text>']
    for k, value in enumerate(range(low, high + 1)):
        n = counts.get(value, 0)
        h = 60 * n / top
        x = 10 + k * slot
        body.append(f'<rect x="{x:.1f}" y="{base - h:.1f}" width="{slot - 2:.1f}" '
                    f'height="{h:.1f}" fill="{COLOURS[0]}"><title>{value}: {n}</title></rect>')
        body.append(f'<text x="{x + slot / 2 - 3:.1f}" y="{base + 12}" font-size="9">'
                    f'{value}</text>')
    return (f'<svg class="plot" data-plot="{escape(name)}" role="img" '
            f'xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}"><title>{escape(title)}</title>'
            + "".join(body) + "</svg>")


def intervals(name: str, title: str,
              items: list[tuple[str, float | None, list[float] | None]]) -> str:
    """A point and its interval on a -1..1 axis per (label, value, [low, high]); an undefined
    value is written as such, never drawn."""
    height = 40 + ROW * max(1, len(items))
    span = WIDTH - LEFT - 60

    def x(v: float) -> float:
        return LEFT + span * (max(-1.0, min(1.0, v)) + 1) / 2

    body = [f'<text x="4" y="14" font-size="12" font-weight="bold">{escape(title)}</text>',
            f'<line x1="{x(0):.1f}" y1="20" x2="{x(0):.1f}" y2="{height - 16}" '
            f'stroke="#bbb"/>',
            f'<text x="{x(-1):.1f}" y="{height - 4}" font-size="9">-1</text>',
            f'<text x="{x(0) - 3:.1f}" y="{height - 4}" font-size="9">0</text>',
            f'<text x="{x(1) - 6:.1f}" y="{height - 4}" font-size="9">1</text>']
    if not items:
        body.append('<text x="4" y="34" font-size="11">no data</text>')
    for i, (label, value, ci) in enumerate(items):
        y = 24 + i * ROW + 8
        body.append(f'<text x="{LEFT - 6}" y="{y + 4}" font-size="11" text-anchor="end">'
                    f'{escape(label)}</text>')
        if value is None:
            body.append(f'<text x="{LEFT}" y="{y + 4}" font-size="11">undefined</text>')
            continue
        if ci:
            body.append(f'<line x1="{x(ci[0]):.1f}" y1="{y}" x2="{x(ci[1]):.1f}" y2="{y}" '
                        f'stroke="#333" stroke-width="2"/>')
        shown = _num(value) + (f" [{_num(ci[0])}, {_num(ci[1])}]" if ci else "")
        body.append(f'<circle cx="{x(value):.1f}" cy="{y}" r="4" fill="{COLOURS[3]}">'
                    f'<title>{escape(label)}: {shown}</title></circle>')
        body.append(f'<text x="{WIDTH - 56}" y="{y + 4}" font-size="10">{_num(value)}</text>')
    return _svg(name, title, height, body)
