"""The documents a newcomer reads link only to files of this repository
(nothing outside it, nothing dead), and their anchors exist; CONTRIBUTING's
count of the quick run's tests stays within a tenth of the truth."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md")),
        ROOT / "benchmarks" / "RESULTS.md"]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)|<(https?://[^>]+)>")
LOCAL_SITE = "http://127.0.0.1:8000/"  # the site `.venv/bin/python -m game serve` serves


def slug(heading: str) -> str:
    """GitHub's anchor for a heading.

    >>> slug("1. Dr. Jekyll & Mr. Hyde — `jekyll-hyde`")
    '1-dr-jekyll--mr-hyde--jekyll-hyde'
    """
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return {slug(m) for m in re.findall(r"^#+ (.+)$", text, re.M)}


def links(path: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return [a or b for a, b in LINK.findall(text)]


def test_the_documents_exist():
    for name in ("README.md", "CONTRIBUTING.md", "LICENSE", "docs/RULES.md", "docs/DESIGN.md"):
        assert (ROOT / name).is_file(), name


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_links_stay_inside_the_repository_and_resolve(doc: Path):
    assert links(doc), f"{doc.name} has no links to check"
    for link in links(doc):
        if link == LOCAL_SITE:
            continue
        assert "://" not in link and not link.startswith("/"), f"{doc.name}: {link} leaves the repository"
        target, _, anchor = link.partition("#")
        path = (doc.parent / target).resolve() if target else doc
        assert path.is_relative_to(ROOT) and path.exists(), f"{doc.name}: {link} is dead"
        if anchor:
            assert anchor in anchors(path), f"{doc.name}: no heading for #{anchor} in {path.name}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_path_named_outside_the_repository(doc: Path):
    outside = re.findall(r"`(\.\./[^`]*)`", doc.read_text(encoding="utf-8"))
    assert not outside, f"{doc.name} names files outside the repository: {outside}"


def test_the_license_matches_pyproject():
    assert 'license = { text = "MIT" }' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")


def quick_run_selection() -> str:
    """The `-m` expression of the quick run in CONTRIBUTING.md's commands."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    line = re.search(r"^(.*)#\s*the quick run", text, re.M)
    assert line, "CONTRIBUTING.md's commands name no quick run ('# the quick run')"
    mark = re.search(r'-m\s+"([^"]+)"', line.group(1))
    assert mark, f"CONTRIBUTING.md's quick run selects no mark: {line.group(1).strip()}"
    return mark.group(1)


def quick_run_count(request: pytest.FixtureRequest, selection: str) -> int:
    """How many tests the quick run collects: this session's own items when it
    is that run (free), else a collection in a subprocess (about 4 s)."""
    config, option = request.config, request.config.option
    if (config.args_source == pytest.Config.ArgsSource.TESTPATHS and option.markexpr == selection
            and not option.keyword and not option.deselect and not getattr(option, "lf", False)):
        return len(request.session.items)
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "-m", selection], cwd=ROOT, capture_output=True, text=True, timeout=600)
    counted = re.search(r"^(\d+)(?:/\d+)? tests? collected", done.stdout, re.M)
    assert counted, f"pytest --collect-only said:\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
    return int(counted.group(1))


def test_contributing_counts_the_quick_run_within_a_tenth(request: pytest.FixtureRequest):
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    figure = re.search(r"quick run[^*]*\*\*([\d,]+) tests\*\*", text)
    assert figure, "CONTRIBUTING.md gives no count of the quick run's tests ('the quick run ... **N tests**')"
    written = int(figure.group(1).replace(",", ""))
    count = quick_run_count(request, quick_run_selection())
    assert abs(written - count) <= count / 10, (
        f"CONTRIBUTING.md says the quick run has {written} tests; it collects {count}: "
        "run it again as CONTRIBUTING says and write the figures of the day")
