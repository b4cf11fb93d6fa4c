"""Issue 54's closing walk: a whole king's-table (ladder) evening of a club that starts with an
empty list, everything done on 360 px phones as a hall does it, and the TV (1920x1080) followed
throughout.

- 12 players check in at the door, each from their own phone opening the door link: the club's
  regulars tap their name (one tap), newcomers type theirs (one field, one tap); one arrives
  during round 1 and plays from round 2.
- 3 rounds of 2 hands, every hand entered on the table phones opened once from their table
  links (never reloaded by hand); each table's loser confirms with one tap, except table 1 in
  round 1, which forgets and confirms from its phone during round 2.
- The director is asked before round 2 (a table unconfirmed), and closes round 3 with table 3
  unfinished: the event finishes.

Taps are counted as a person makes them: every trusted touch on the page, plus one for each field
typed into. The counts are printed (TAPS {...}) and asserted.
"""

from __future__ import annotations

import json

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import TV, big_enough, no_sideways_scroll, taps
from tests.browser.conftest import new_phone as phone_counting_taps
from tests.scenes import api

# Club regulars (seated at an earlier club evening): their names are offered at the door.
REGULARS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
# Newcomers type their names; Lee is the one who arrives during round 1.
NEWCOMERS = ["Ivy", "Jo", "Kim"]
LATE = "Lee"
HANDS = 2
# The boxes that scroll sideways inside the page (their content wider than they are).
OVERFLOWING = "[...document.querySelectorAll('.ev-scroll')].filter(e => e.scrollWidth > e.clientWidth).map(e => e.scrollWidth)"
# A poll is 3 s; this box is shared and slow.
WAIT = 25_000


def new_phone(browser: Browser) -> Page:
    return phone_counting_taps(browser, WAIT)


def local(base: str, link: str) -> str:
    """A link the app wrote (external) on the test server's address."""
    return base + "/" + link.split("/", 3)[3]


def check_in(browser: Browser, door: str, name: str, typed: bool, keep: bool = False) -> tuple[int, Page]:
    """One player's own phone at the door: their name tapped, or typed then Check in. Returns the
    taps it took (a typed field counts one), and the phone (closed unless ``keep``)."""
    phone = new_phone(browser)
    try:
        phone.goto(door)
        no_sideways_scroll(phone)
        if typed:
            field = phone.locator("#name")
            field.fill(name)
            button = phone.get_by_role("button", name="Check in", exact=True)
        else:
            button = phone.locator(".ev-door-names").get_by_role("button", name=name, exact=True)
        big_enough(button)
        button.tap()
        expect(phone.locator(".ev-arrived")).to_contain_text(f"{name}, you are on tonight's list")
        # Their own page (where to sit each round) is one tap away on this phone.
        big_enough(phone.get_by_role("link", name="Your page for tonight: where you sit each round"))
        no_sideways_scroll(phone)
        return taps(phone) + (1 if typed else 0), phone
    finally:
        if not keep:
            phone.context.close()


def chip(page: Page, name: str, value: str) -> None:
    found = page.locator(f'#entry label.chip:has(input[name="{name}"][value="{value}"])')
    big_enough(found)
    found.tap()


def play_hands(page: Page, hands: int) -> list[int]:
    """Hands won by seats 0 and 2 (maker 0, 3 tricks) on a table phone: the taps of each."""
    counted = []
    expect(page.locator("#entry")).to_be_visible(timeout=WAIT)
    for hand in range(hands):
        at = taps(page)
        chip(page, "trump", "H")
        chip(page, "maker", "0")
        chip(page, "maker_tricks", "3")
        record = page.get_by_role("button", name="Record deal")
        big_enough(record)
        record.tap()
        counted.append(taps(page) - at)
        if hand < hands - 1:
            expect(page.locator(".status")).to_contain_text(f"Deal {hand + 2}")
    return counted


def confirm_on_phone(page: Page, loser: str) -> int:
    """The side that did not win (seats 1 and 3) confirms: the loser's name is one tap."""
    confirm = page.locator("#ev-confirm")
    expect(confirm).to_be_visible(timeout=WAIT)
    name = confirm.get_by_role("button", name=loser, exact=True)
    big_enough(name)
    at = taps(page)
    name.tap()
    expect(page.locator("main")).to_contain_text(f"confirmed by {loser}")
    return taps(page) - at


def start_round(director: Page, number: int) -> int:
    at = taps(director)
    button = director.get_by_role("button", name=f"Start round {number}")
    big_enough(button)
    button.tap()
    expect(director.locator(".flash-ok")).to_contain_text(f"Round {number} has started.")
    no_sideways_scroll(director)
    return taps(director) - at


def tv_fits(tv: Page) -> None:
    """The wall screen: everything on it without a scroll bar either way."""
    size = tv.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert size[0] <= TV["width"] and size[1] <= TV["height"], size


def test_a_whole_ladder_evening_from_an_empty_list(live_server: str, browser: Browser):
    base = live_server
    club = api(base, "/api/clubs", {"name": "Lodge", "player": "Olga"})
    member = club["member_key"]
    slug = club.get("slug", "lodge")
    # An earlier evening seated the regulars: they are the club's players the door offers.
    earlier = api(
        base,
        f"/api/clubs/{slug}/events",
        {"name": "Last week", "format": "progressive", "game": "euchre", "players": REGULARS,
         "rounds": 1, "hands": 1, "minutes": 30},
        member,
    )  # fmt: skip
    api(base, f"/api/events/{earlier['id']}/rounds", {}, earlier["director_key"])
    made = api(
        base,
        f"/api/clubs/{slug}/events",
        {"name": "King's table", "format": "ladder", "game": "euchre", "players": [],
         "check_in": True, "rounds": 3, "hands": HANDS, "minutes": 20, "confirm": True},
        member,
    )  # fmt: skip
    event_id, key = made["id"], made["director_key"]
    door = local(base, made["check_in_link"])

    director = new_phone(browser)
    director.goto(f"{base}/e/{event_id}/direct?key={key}")
    expect(director.locator("#ev-tonight-title")).to_have_text("Tonight's list: 0 players")
    no_sideways_scroll(director)
    tv = browser.new_context(viewport=TV).new_page()
    tv.set_default_timeout(WAIT)
    tv.goto(f"{base}/e/{event_id}/board")

    # The door: 11 before round 1.
    door_taps = {name: check_in(browser, door, name, typed=False)[0] for name in REGULARS}
    door_taps |= {name: check_in(browser, door, name, typed=True)[0] for name in NEWCOMERS}
    expect(director.locator("#ev-tonight-title")).to_have_text("Tonight's list: 11 players", timeout=WAIT)
    expect(tv.locator("#tv-standings-title")).to_have_text("Checked in: 11 players", timeout=30_000)
    tv_fits(tv)

    # The table phones, each opened once from its table link (its card), before round 1.
    links = {
        t["table"]: local(base, t["link"])
        for t in api(base, f"/api/events/{event_id}", key=key)["table_links"]
    }
    assert sorted(links) == [1, 2]
    tables = {n: new_phone(browser) for n in links}
    for n, page in tables.items():
        page.goto(links[n])
        expect(page.locator(".ev-big")).to_contain_text("Round 1 starts when the director starts it")
        no_sideways_scroll(page)

    counted: dict = {"director": [], "hand": [], "table_round_change": {}}
    counted["director"].append(start_round(director, 1))
    # Lee arrives during round 1: on the list, playing from round 2.
    door_taps[LATE], lee_phone = check_in(browser, door, LATE, typed=True, keep=True)
    # Lee follows his page from the door (one tap more): it says where he goes, and follows.
    lee_phone.get_by_role("link", name="Your page for tonight: where you sit each round").tap()
    expect(lee_phone.locator("#ev-me-go")).to_have_text("Round 2", timeout=WAIT)
    no_sideways_scroll(lee_phone)
    doc = api(base, f"/api/events/{event_id}", key=key)
    first = doc["rounds"][0]["tables"]
    assert len(first) == 2 and len(doc["rounds"][0]["sitting_out"]) == 3
    links = {t["table"]: local(base, t["link"]) for t in doc["table_links"]}
    assert sorted(links) == [1, 2, 3]  # a third table from round 2
    tables[3] = new_phone(browser)
    tables[3].goto(links[3])
    no_sideways_scroll(tables[3])
    expect(tv.locator(".tv-round")).to_contain_text("Round 1", timeout=30_000)

    # Round 1: both tables play their 2 hands; table 2 confirms, table 1 forgets.
    for n in (1, 2):
        counted["hand"] += play_hands(tables[n], HANDS)
    counted["table_round_change"][(1, 2)] = confirm_on_phone(tables[2], first[1]["seats"][1])
    expect(tables[2].locator(".ev-next")).to_have_text("Next round: wait for the director.")
    no_sideways_scroll(tables[1])

    # Round 2: the director is asked (table 1 unconfirmed), ticks "Start anyway", starts.
    expect(director.locator("#ev-hall")).to_contain_text("NOT CONFIRMED", timeout=WAIT)
    at = taps(director)
    director.get_by_role("button", name="Start round 2").tap()
    expect(director.locator("#unconfirmed-error")).to_contain_text("Not confirmed yet: round 1 table 1.")
    no_sideways_scroll(director)
    switch = director.locator("label.switch:has(#unconfirmed)")
    big_enough(switch)
    switch.tap()
    director.get_by_role("button", name="Start round 2").tap()
    expect(director.locator(".flash-ok")).to_contain_text("Round 2 has started.")
    counted["director"].append(taps(director) - at)
    doc = api(base, f"/api/events/{event_id}", key=key)
    second = doc["rounds"][1]["tables"]
    assert len(second) == 3 and LATE in {s for t in second for s in t["seats"]}
    lee_table = next(t for t in second if LATE in t["seats"])
    expect(lee_phone.locator("#ev-me-go")).to_have_text(
        f"Round 2: table {lee_table['table']}, seat {lee_table['seats'].index(LATE) + 1}", timeout=WAIT
    )

    # Table 1's forgotten confirmation, given from its phone now on round 2's game: 2 taps.
    forgotten = tables[1].get_by_role("link", name="Round 1's result is not confirmed: confirm it")
    expect(forgotten).to_be_visible(timeout=WAIT)
    big_enough(forgotten)
    at = taps(tables[1])
    forgotten.tap()
    late_loser = first[0]["seats"][1]
    tables[1].locator("#ev-confirm").get_by_role("button", name=late_loser, exact=True).tap()
    expect(tables[1].locator("main")).to_contain_text(f"confirmed by {late_loser}")
    counted["forgotten_confirmation"] = taps(tables[1]) - at
    assert api(base, f"/api/events/{event_id}")["rounds"][0]["tables"][0]["confirmed_by"] == late_loser
    # Back on the table's link: round 2's game there, no reload by hand.
    assert tables[1].url == links[1]
    for n in (1, 2, 3):
        expect(tables[n].locator(".ev-phone-head")).to_contain_text("Round 2 of 3", timeout=WAIT)
        no_sideways_scroll(tables[n])
        counted["hand"] += play_hands(tables[n], HANDS)
        counted["table_round_change"][(2, n)] = confirm_on_phone(tables[n], second[n - 1]["seats"][1])
    expect(tv.locator(".tv-round")).to_contain_text("Round 2", timeout=30_000)
    tv_fits(tv)

    # Round 3: tables 1 and 2 finish, table 3 plays one hand; the director closes the round.
    counted["director"].append(start_round(director, 3))
    third = api(base, f"/api/events/{event_id}", key=key)["rounds"][2]["tables"]
    for n in (1, 2):
        expect(tables[n].locator(".ev-phone-head")).to_contain_text("Round 3 of 3", timeout=WAIT)
        counted["hand"] += play_hands(tables[n], HANDS)
        counted["table_round_change"][(3, n)] = confirm_on_phone(tables[n], third[n - 1]["seats"][1])
        # The last round promises no next one.
        expect(tables[n].locator(".ev-next")).to_have_text(
            "This was the last round: the results are on the event's page."
        )
    expect(tables[3].locator(".ev-phone-head")).to_contain_text("Round 3 of 3", timeout=WAIT)
    counted["hand"] += play_hands(tables[3], 1)
    close = director.get_by_role("button", name="Close round 3 and finish the event")
    expect(close).to_be_visible(timeout=WAIT)  # offered live: tables have finished
    big_enough(close)
    at = taps(director)
    close.tap()
    expect(director.get_by_text("Round 3 is closed: the event has finished.")).to_be_visible()
    counted["director"].append(taps(director) - at)
    no_sideways_scroll(director)
    # The 3 rounds' standings (points, rounds won, loners, R1-R3) fit the phone: no box of them
    # scrolling sideways inside the page (it did by 100 px before).
    assert director.evaluate(OVERFLOWING) == []

    final = api(base, f"/api/events/{event_id}")
    assert final["finished"] is True and len(final["standings"]) == 12
    lee = next(s for s in final["standings"] if s["name"] == LATE)
    assert lee["missed"] == [1]
    assert all(t["confirmed_by"] for r in final["rounds"][:2] for t in r["tables"])
    # Table 3's phone learns the event is over by itself; the door takes no more names.
    expect(tables[3].locator("#table-phone")).to_contain_text("The event is over", timeout=WAIT)
    no_sideways_scroll(tables[3])
    expect(tv.locator(".tv-round")).to_contain_text("Final standings", timeout=30_000)
    tv_fits(tv)
    last = new_phone(browser)
    last.goto(door)
    expect(last.locator(".ev-big")).to_have_text("The event has finished: the check-in is closed.")

    round_change = counted["table_round_change"]
    total = (
        sum(door_taps.values())
        + sum(counted["hand"])
        + sum(counted["director"])
        + sum(round_change.values())
        + counted["forgotten_confirmation"]
    )
    print(
        "TAPS",
        json.dumps(
            {
                "door_per_player": door_taps,
                "per_hand": sorted(set(counted["hand"])),
                "hands": len(counted["hand"]),
                "director_per_round_change": counted["director"],
                "table_per_round_change": {f"round {r} table {t}": v for (r, t), v in round_change.items()},
                "forgotten_confirmation": counted["forgotten_confirmation"],
                "evening_total": total,
            }
        ),
    )
    assert all(door_taps[n] == 1 for n in REGULARS)
    assert all(door_taps[n] == 2 for n in [*NEWCOMERS, LATE])  # the name typed, Check in
    assert set(counted["hand"]) == {4} and len(counted["hand"]) == 2 * 2 + 3 * 2 + 2 * 2 + 1
    assert counted["director"] == [1, 3, 1, 1]  # round 2: the tap, "Start anyway", the tap
    assert set(round_change.values()) == {1}
    assert counted["forgotten_confirmation"] == 2
