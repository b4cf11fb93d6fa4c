"""At the table (issue 53, items 3-5): no traps on the way to a recorded deal.

A preview says what is still to enter in neutral words until the scorer asks to record, red only
for a fact that breaks a rule, and never names a button its form does not have."""

from __future__ import annotations

import re

from tests.web import test_euchre_pages as euchre
from tests.web import test_secrets_pages as secrets
from tests.web.pages import text

HX = {"HX-Request": "true"}


def preview(client, path, data) -> str:
    return client.post(f"{path}/preview", data=data, headers=HX).get_data(as_text=True)


def test_a_half_entered_euchre_hand_is_still_to_enter_not_refused(client):
    path = euchre.start(client)
    shown = preview(client, path, {"trump": "H"})  # the first chip
    assert "Still to enter:" in shown and "pv-missing" in shown
    assert "refuse" not in shown and "pv-errors" not in shown and "breaks a rule" not in shown
    # A fact that breaks a rule is red, and what is still to choose stays beside it, neutral.
    broken = preview(client, path, {"trump": "H", "maker": "0", "maker_tricks": "9"})
    assert "As entered, this breaks a rule:" in broken
    assert re.search(r'<ul class="pv-errors">.+?</ul>', broken, re.S)


def test_a_secrets_spy_still_to_send_is_neutral(client):
    """Spies must go (the option off): after the first order the others are still to give, not a
    broken rule (issue 53: every Secrets turn showed them in red)."""
    path = secrets.start(client, may_stay=False)
    shown = preview(client, path, secrets.turn([[("club", 1, 4)], [], []], ["", "", ""]))
    assert "Still to enter:" in shown and "pv-errors" not in shown
    assert "Ann gives no order to Diamond + Heart + Spade" in text(shown)


def test_a_secrets_turn_preview_never_says_record(client):
    path = secrets.start(client)
    shown = preview(client, path, secrets.turn([[("club", 1, 4)], [], []], ["", 3, 4]))
    assert "Still to enter:" in shown
    assert "Choose the secret Ann's policeman guards." in text(shown)
    assert "Record" not in shown


def test_tallys_end_game_asks_once_without_script(client):
    """The page's End game is a question first (a details element, no script needed): the only
    control that ends the game is inside it, so one tap under Record never ends a game."""
    from tests.web import test_tally_pages as tally

    path = tally.start(client, players=tally.PLAYERS[:3])
    page = client.get(path).get_data(as_text=True)
    ask = re.search(r'<details class="end-ask">(.*?)</details>', page, re.S)
    assert ask and "<summary>End game</summary>" in ask.group(1)
    assert page.count('name="end_game"') == 1 and 'name="end_game"' in ask.group(1)
    assert "hx-confirm" not in ask.group(1)  # asked once, not twice with script


def test_hidden_secrets_totals_bar_shows_the_known_part_as_the_board_does(client):
    """Bob stole Ann's J (hidden) in turn 1, then Cid's C, whose 8 was made public when his Diamond
    was caught there: the board says "8+?" for Bob, and so does the totals bar (no bare "?")."""
    path, _links = secrets.hidden_game(client, turns=1)
    secrets.play(client, path, secrets.turn([[], [("club", secrets.C, "C")], []], ["B", "B", "A"]))
    page = client.get(path).get_data(as_text=True)
    bar = re.search(r'<div class="totals-bar".*?</div>', page, re.S).group(0)
    totals = [text(b) for b in re.findall(r"<b>(.*?)</b>", bar, re.S)]
    assert totals[1] == "8+?"
    assert "8+?" in text(re.search(r'<table class="board sx-board.*?</table>', page, re.S).group(0))
    assert secrets.leaks(page) == []


def test_the_allotment_page_shows_the_running_sum_toward_45(client):
    path = secrets.start(client, hidden=True)
    page = client.get(f"{path}/secrets/allot/{secrets.B}").get_data(as_text=True)
    assert "Σ 0 of 45: 45 to go" in text(page) and "data-allot-sum" in page
    # Refused (44), the page says how far it is, beside the rule.
    response = client.post(f"{path}/secrets/allot/{secrets.B}", data={"v_A": "4", "v_J": "40"})
    assert response.status_code == 422
    assert "Σ 44 of 45: 1 to go" in text(response.get_data(as_text=True))
    response = client.post(f"{path}/secrets/allot/{secrets.B}", data={"v_A": "6", "v_J": "40"})
    assert "Σ 46: 1 over 45" in text(response.get_data(as_text=True))
