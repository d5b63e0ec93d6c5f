"""The scripted examples that the rules pages embed replay and are captioned in
every language of the site."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.core.transcript import Transcript
from game.web.draw.i18n import LANGUAGES

SCENARIOS = sorted((Path(__file__).parent.parent / "static" / "scenarios").glob("*/*.json"))


def test_there_are_scenarios():
    assert len(SCENARIOS) >= 3


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_scenario_replays_with_captions_in_every_language(path):
    transcript = Transcript.load(path)
    assert transcript.game == path.parent.name
    states = transcript.states()
    assert len(states) == len(transcript.actions) + 1
    assert transcript.captions and transcript.captions[0]
    for caption in transcript.captions:
        if caption is not None:
            assert set(caption) == set(LANGUAGES) and all(caption.values())
