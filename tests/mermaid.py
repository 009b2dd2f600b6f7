"""A checker of Mermaid's `xychart-beta`, written from Mermaid's documentation of it
(mermaid.js.org/syntax/xyChart), not from the code that writes our charts.

What the documentation gives: the block starts with `xychart-beta` (optionally `horizontal`
or `vertical`), after an optional `---` front matter holding `config:` (YAML; the
xychart's colours are `themeVariables.xyChart.plotColorPalette`, a comma-separated list);
then statements one a line: `title <text>`, `x-axis <text>? [<text>, …]` or
`x-axis <text>? <number> --> <number>`, `y-axis <text>? (<number> --> <number>)?`,
`bar <text>? [<number>, …]`, `line <text>? [<number>, …]`. A text of one word may go
unquoted; one with spaces is in double quotes (which it cannot itself hold). Numbers are
like `2.3`, `45`, `.98`, `-3.4`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

TEXT = r'(?:"[^"\n]*"|[^\s"\[\],]+)'
NUMBER = r"-?(?:\d+(?:\.\d+)?|\.\d+)"
HEX = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?")


class NotMermaid(AssertionError):
    """The source breaks the documented grammar of xychart-beta."""


@dataclass
class XYChart:
    title: str | None = None
    categories: list[str] = field(default_factory=list)
    y_range: tuple[float, float] | None = None
    bars: list[list[float]] = field(default_factory=list)
    lines: list[list[float]] = field(default_factory=list)
    palette: list[str] = field(default_factory=list)


def _text(token: str) -> str:
    return token[1:-1] if token.startswith('"') else token


def _list(body: str, item: str) -> list[str]:
    if not re.fullmatch(rf"\s*{item}(?:\s*,\s*{item})*\s*", body):
        raise NotMermaid(f"not a list of {item}: [{body}]")
    return re.findall(item, body)


def mermaid_blocks(markdown: str) -> list[str]:
    """The sources of the ```mermaid fenced blocks of a Markdown text."""
    return re.findall(r"^```mermaid\n(.*?)^```$", markdown, flags=re.M | re.S)


def parse_xychart(source: str) -> XYChart:
    """The chart a source describes, or NotMermaid naming the line that breaks the grammar."""
    chart = XYChart()
    lines = source.splitlines()
    if lines and lines[0] == "---":
        try:
            end = lines.index("---", 1)
        except ValueError:
            raise NotMermaid("front matter without its closing ---") from None
        front: Any = yaml.safe_load("\n".join(lines[1:end]))
        if not isinstance(front, dict) or set(front) - {"config", "title"}:
            raise NotMermaid(f"front matter holds more than config: {front!r}")
        palette = (front.get("config", {}).get("themeVariables", {}).get("xyChart", {})).get(
            "plotColorPalette"
        )
        if palette is not None:
            chart.palette = [p.strip() for p in str(palette).split(",")]
            if not all(HEX.fullmatch(p) for p in chart.palette):
                raise NotMermaid(f"plotColorPalette is not a list of colours: {palette}")
        lines = lines[end + 1 :]
    statements = [
        line.strip() for line in lines if line.strip() and not line.strip().startswith("%%")
    ]
    if not statements or not re.fullmatch(
        r"xychart-beta(?:\s+(?:horizontal|vertical))?", statements[0]
    ):
        raise NotMermaid(f"does not start with xychart-beta: {statements[:1]}")
    seen: set[str] = set()
    for line in statements[1:]:
        keyword = line.split(maxsplit=1)[0]
        if keyword in ("title", "x-axis", "y-axis") and keyword in seen:
            raise NotMermaid(f"a second {keyword}: {line}")
        seen.add(keyword)
        if m := re.fullmatch(rf"title\s+({TEXT})", line):
            chart.title = _text(m.group(1))
        elif m := re.fullmatch(rf"x-axis(?:\s+({TEXT}))?\s*\[(.*)\]", line):
            chart.categories = [_text(x) for x in _list(m.group(2), TEXT)]
        elif m := re.fullmatch(rf"x-axis(?:\s+({TEXT}))?\s+({NUMBER})\s*-->\s*({NUMBER})", line):
            pass
        elif m := re.fullmatch(
            rf"y-axis(?:\s+({TEXT}))?(?:\s+({NUMBER})\s*-->\s*({NUMBER}))?", line
        ):
            if m.group(2) is not None:
                chart.y_range = (float(m.group(2)), float(m.group(3)))
        elif m := re.fullmatch(rf"(bar|line)(?:\s+({TEXT}))?\s*\[(.*)\]", line):
            values = [float(x) for x in _list(m.group(3), NUMBER)]
            (chart.bars if m.group(1) == "bar" else chart.lines).append(values)
        else:
            raise NotMermaid(f"not an xychart statement: {line}")
    for series in (*chart.bars, *chart.lines):
        if chart.categories and len(series) != len(chart.categories):
            raise NotMermaid(f"{len(series)} values for {len(chart.categories)} categories")
        if chart.y_range and not all(chart.y_range[0] <= v <= chart.y_range[1] for v in series):
            raise NotMermaid(f"values outside the y-axis {chart.y_range}: {series}")
    if not chart.bars and not chart.lines:
        raise NotMermaid("no data: a chart needs a bar or a line")
    return chart
