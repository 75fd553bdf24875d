"""The Expert's benchmarks (``benchmarks/expert_gain.py``,
``expert_versions.py``) read their variants' settings from
:mod:`app.ai.expert`."""

from __future__ import annotations

import pytest

from app.ai import expert
from benchmarks.expert_gain import current_settings


def test_a_variant_names_the_expert_settings_it_changes():
    assert current_settings(["MIN_GAIN=1,CONFIDENCE=0", "-"]) == {
        "MIN_GAIN": expert.MIN_GAIN,
        "CONFIDENCE": expert.CONFIDENCE,
    }


def test_a_setting_the_expert_does_not_have_is_named_in_one_line():
    """BENCHMARKS.md keeps the commands of sketches that were not kept
    (MODEL_PARTNERS): run on main, they say so rather than a traceback."""
    with pytest.raises(SystemExit) as stopped:
        current_settings(["-", "MODEL_PARTNERS=0", "MIN_GAIN=1"])
    assert str(stopped.value) == "app.ai.expert has no setting MODEL_PARTNERS"
