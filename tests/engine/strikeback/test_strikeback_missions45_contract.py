"""The legal-actions contract (`apply` accepts exactly what `legal_actions` lists) on states of
missions 4 and 5, where mission objects are attack targets and the special actions (Sally,
Insert Virus) and the Alpha Agent's prompts come in."""

from __future__ import annotations

import pytest
from galaxy_contract import check_contract, reach_state


@pytest.mark.parametrize("scenario", ["os4", "os5"])
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("steps", [5, 40, 90, 160])
def test_contract_holds_in_missions_4_and_5(scenario: str, seed: int, steps: int) -> None:
    check_contract(reach_state(scenario, seed, 1 + seed, steps, advisor=seed != 2))
