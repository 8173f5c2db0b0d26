"""The coverage chart: one bar per facet, coloured by status. matplotlib is imported only when a chart is drawn."""

from __future__ import annotations

import io

from synthesis.coverage import CoverageReport

MAX_BARS = 20
COLOURS = {"covered": "#2a9d8f", "thin": "#e9c46a", "gap": "#e76f51"}


def coverage_chart_png(report: CoverageReport, *, max_bars: int = MAX_BARS) -> bytes:
    """A PNG of coverage per facet (horizontal bars, 0-100 %), the headline as the title."""
    import matplotlib

    matplotlib.use("Agg", force=False)  # no display; safe in threads because we never touch pyplot
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    covered = [f for f in report.facets if f.status == "covered"]
    short = [f for f in report.facets if f.status != "covered"]  # the gaps must make it onto the chart
    keep = short[:max_bars // 2] + covered[:max_bars - min(len(short), max_bars // 2)]
    keep += short[len(keep) - len(covered[:max_bars - min(len(short), max_bars // 2)]):][:max_bars - len(keep)]
    facets = sorted(keep, key=lambda f: (-f.coverage, -f.supporting, f.kind, f.name))
    height = 1.2 + 0.32 * max(1, len(facets))
    fig = Figure(figsize=(7.5, height), dpi=110)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    labels = [_label(f.kind, f.name) for f in facets][::-1]
    values = [round(f.coverage * 100) for f in facets][::-1]
    colours = [COLOURS[f.status] for f in facets][::-1]
    bars = ax.barh(labels or ["(no facets)"], values or [0], color=colours or ["#cccccc"])
    for bar, value in zip(bars, values):
        ax.text(min(value + 1.5, 92), bar.get_y() + bar.get_height() / 2, f"{value} %", va="center", fontsize=8)
    ax.set_xlim(0, 100)
    ax.set_xlabel("coverage per facet (%)", fontsize=9)
    ax.tick_params(axis="y", labelsize=8)
    ax.tick_params(axis="x", labelsize=8)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.set_title(report.headline_text, fontsize=11, loc="left")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def _label(kind: str, name: str) -> str:
    text = f"{kind}: {name}"
    return text if len(text) <= 40 else text[:39] + "…"
