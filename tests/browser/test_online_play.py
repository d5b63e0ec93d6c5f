"""Play with friends between real browsers on one machine, with no internet
(issue 32): a host and a guest in separate browser contexts of one Chromium,
introduced through a Nostr relay on 127.0.0.1 (the `relay` fixture), which
each page is pointed at before it loads (`window.jhgTestRelay`, see
game/web/dom/main_thread.py; the contexts bypass the site's policy, which allows the
published relays only). The host opens Play with friends, the guest opens the
invite link, joins and is seated, and they play through clicks on their own
pages; a reload of the guest's page takes the seat back, a reload of the
host's page keeps the table while the guest says "reconnecting".
Screenshots (SCREENSHOTS folder) of the lobby, the join form, the guest's
table and "reconnecting", at phone and desktop size.
"""

from __future__ import annotations

import json
import random
import time
from typing import Callable

import pytest

from game.core.state import State
from game.core.transcript import Transcript
from game.web.model import saves
from tests.browser.online_pages import Person
from tests.browser.test_axe import Axe, axe_source  # noqa: F401 (a fixture)
from tests.online_kit import SEED, Capture, leaks

pytestmark = pytest.mark.browser


def host_and_guests(people, site_url: str, game: str, form: dict[str, str],
                    guests: tuple[tuple[str, str], ...] = (("Ann", "phone"),),
                    seed: str = "", watch: bool = False) -> tuple[Person, list[Person]]:
    """The host (desktop) opens a table; each guest (name, size) joins from the link
    (`watch`: each page counts what it hears and sees move, WATCH)."""
    host = people("desktop", watch=watch)
    host.open(site_url + "?lang=en&speed=instant")
    host.page.select_option("#f-game", game)
    for name, value in form.items():
        host.page.select_option(f'#setup [name="{name}"]', value)
    host.page.fill("#f-seed", seed)
    host.page.click("#online-host")
    host.page.wait_for_selector("#online-contacts")
    assert not [u for u in host.page.evaluate("performance.getEntries().map(e => e.name)")
                if "trystero" in u]  # nothing contacted before the person chooses
    host.page.click("#online-open")
    invite = host.page.get_attribute("#invite-link", "href")
    assert invite.startswith(site_url + "?join=")  # whole: a phone's camera reads its QR code
    assert host.page.locator("#online-qr svg").count() == 1
    joined = []
    for name, size in guests:
        guest = people(size, watch=watch)
        guest.open(invite + "&lang=en")
        guest.page.wait_for_selector("#online-join")
        started = time.monotonic()
        guest.page.fill("#online-name", name)
        guest.page.click("#online-join")
        guest.page.wait_for_selector("#online-waiting", timeout=60000)
        host.page.wait_for_selector(f"#online-joined >> text={name}")
        print(f"\nfrom Join to the lobby: {time.monotonic() - started:.1f} s")
        joined.append(guest)
    return host, joined


Turn = Callable[[Person, random.Random], bool]


def any_click(person: Person, rng: random.Random) -> bool:
    return person.click_something(rng)


def play(host: Person, guests: list[Person], until: str | Callable[[], bool],
         turn: Turn = any_click, most_seconds: float = 240) -> None:
    """Everyone clicks on their own page (`turn` once when it is theirs) until
    `until` (a selector on the host's page, or a test) is there."""
    rng = random.Random(2)
    ends = time.monotonic() + most_seconds
    while time.monotonic() < ends:
        if until() if callable(until) else host.page.locator(until).count():
            return
        for guest in guests:  # a friend reads each hand's summary on their own page, and closes it
            if guest.page.locator("#modal #next-hand").count():
                guest.page.click("#modal #next-hand")
        if host.page.locator("#next-hand").count():
            host.page.click("#next-hand")
        elif host.page.locator("body[data-to-act=me]").count():
            turn(host, rng)
        else:
            on_turn = next((g for g in guests if g.on_turn()), None)
            if on_turn is not None:
                turn(on_turn, rng)
        host.page.wait_for_timeout(60)
    host.shoot("stuck-host")
    for i, guest in enumerate(guests):
        guest.shoot(f"stuck-guest-{i}")
    state = [host.page.get_attribute("body", "data-to-act"), host.page.inner_text("#message"),
             *[(g.page.inner_text("#online-bar"), g.page.inner_text("#message")) for g in guests]]
    raise AssertionError(f"{until} never came: {state}")


def test_a_duel_from_the_invite_link_to_the_end_of_a_round(people, site_url, relay):
    """Played over the pages' direct channel: the relays carry no game."""
    host, (guest,) = host_and_guests(people, site_url, "jekyll-vs-hyde",
                                     {"jvh_role": "J", "jvh_bot": "random"})
    host.shoot("host-lobby")
    guest.shoot("guest-waiting")
    started = time.monotonic()
    host.page.click("#online-start")
    guest.page.wait_for_selector("#online-bar", timeout=30000)
    print(f"\nfrom Deal to the friend's table: {time.monotonic() - started:.1f} s")
    guest.shoot("guest-table")
    assert guest.page.title() == "Jekyll vs Hyde"  # the game played, not the site's first
    play(host, [guest], "#next-hand, body[data-to-act=over]")
    assert "Ann" in host.page.inner_text("#online-seats")
    assert host.paths() == [False] and guest.paths() == [False]
    assert not [e for e in relay.events if json.loads(e["content"]).get("y") == "d"]

    guest.page.reload()  # the guest's tab reloads: the token kept rejoins, no Join pressed
    guest.page.wait_for_selector("body[data-state=ready]", timeout=60000)
    guest.page.wait_for_selector("#online-bar", timeout=60000)

    host.page.reload()  # the host's tab reloads: the guest waits, then finds it again
    guest.page.wait_for_selector("#online-status", timeout=30000)
    guest.shoot("guest-reconnecting")
    host.page.wait_for_selector("body[data-state=ready]", timeout=60000)
    guest.page.wait_for_selector("#online-status", state="detached", timeout=60000)


PUBLIC = (" plays ", " leads ", " wins the trick", "Round over", " is now the ", " met a Potion")


def public_lines(person: Person) -> list[str]:
    """The lines its live region was given that every seat hears alike (the
    cards played, the tricks, the colours, the round's end; not the prompts
    nor each seat's own side of an exchange)."""
    lines = [line for line in person.page.evaluate("window.heardLines")
             if any(word in line for word in PUBLIC)]
    end = next((i for i, line in enumerate(lines) if line.startswith("Round over")), len(lines))
    return lines[:end + 1]  # (the host may have gone on to the next round)


def test_a_guest_hears_sees_and_reads_a_duel_round_as_the_host_does(people, site_url, axe_source):
    host, (guest,) = host_and_guests(people, site_url, "jekyll-vs-hyde",
                                     {"jvh_role": "J", "jvh_bot": "random"}, watch=True)
    host.page.click("#online-start")
    guest.page.wait_for_selector("#online-bar", timeout=30000)
    Axe(guest.page, axe_source).check("a guest's duel table")
    play(host, [guest], lambda: guest.page.locator("#modal #next-hand").count() > 0)
    summary = guest.page.inner_text("#modal")
    assert "Round 1 is over" in summary and "Tricks taken" in summary
    assert guest.page.locator("#modal .jvh-track").count() == 1  # the marker track
    guest.page.wait_for_function("() => window.heardLines.some(l => l.startsWith('Round over'))")
    heard, told = public_lines(guest), public_lines(host)
    assert len(heard) > 20 and heard == told, (heard, told)
    flights = [p.page.evaluate("window.flights") for p in (host, guest)]
    assert flights[1] > 20 and flights[1] >= flights[0] * 3 // 4, flights
    Axe(guest.page, axe_source).check("a guest's round summary")
    guest.page.click("#modal #next-hand")
    guest.page.click("#side [data-panel=scores]")
    guest.page.wait_for_selector("#side #panel-scores")
    assert "Round 1" in guest.page.inner_text("#side #panel-scores") or \
        guest.page.locator("#side #panel-scores tr").count() >= 2
    Axe(guest.page, axe_source).check("a guest's score sheet")


def test_a_duel_joined_by_codes_with_no_third_party(people, site_url):
    """Under the site's own policy (no relay allowed but the published ones,
    and none is contacted): the invitation link and the answer code carried
    between the pages by the test, as friends would by hand."""
    host, guest = people("desktop", bypass_csp=False), people("phone", bypass_csp=False)
    host.open(site_url + "?lang=en&speed=instant")
    host.page.select_option("#f-game", "jekyll-vs-hyde")
    host.page.click("#online-host")
    host.page.click("#online-open-codes")
    host.page.click("#online-invite-code")
    invite = host.page.get_attribute("#online-codes a", "href", timeout=30000)
    assert invite.startswith(site_url + "?join=")
    guest.open(invite + "&lang=en")
    guest.page.fill("#online-name", "Ann")
    started = time.monotonic()
    guest.page.click("#online-join")
    answer = guest.page.inner_text("#answer-code", timeout=30000)
    guest.shoot("guest-answer-code")
    host.page.fill("#online-answer-link-1", answer)
    host.shoot("host-codes")
    host.page.click("#online-accept-link-1")
    guest.page.wait_for_selector("#online-waiting", timeout=30000)
    print(f"\nby codes, from Join to the lobby: {time.monotonic() - started:.1f} s"
          f" (invitation {len(invite)} characters, answer {len(answer)})")
    host.page.click("#online-start")
    guest.page.wait_for_selector("#online-bar", timeout=30000)
    # A round (the game's end and its review: test_online_play_page.py's
    # test_host_opens_a_table_a_friend_joins_and_they_play_a_duel_to_the_end, and
    # test_online_relayed.py's whole Dracula game)
    play(host, [guest], "#next-hand, body[data-to-act=over]")
    site = site_url.split("/jekyll/")[0]
    for person in (host, guest):  # nothing but the site itself (and the devices' channel)
        assert not [u for u in person.requests if not u.startswith((site, "data:", "blob:"))]


# -- Werner's game: four at the table, two of them friends on their own devices -------

WERNER = {"players": "4", "bot1": "random", "bot2": "random", "bot3": "random"}
HAND_OVER = "#next-hand, body[data-to-act=over]"


class WernerClicks:
    """A Werner decision on a person's page: the first time they may, ask the
    seat chosen for them to play a card for them (the rules' designation),
    else play a card at random; then wait until the host took it."""

    def __init__(self, host: Person, seats: dict[Person, str], asks: dict[Person, str]) -> None:
        self.host, self.seats, self.asks = host, seats, dict(asks)
        self.shot = False
        self.clicks: dict[Person, int] = {}  # decisions taken, by person

    def __call__(self, person: Person, rng: random.Random) -> bool:
        page = person.page
        asked = page.locator(f"#screen .seat.designatable[data-seat='{self.asks.get(person)}']")
        cards = page.locator("#screen .card.playable[data-act]")
        if person in self.asks and asked.count():
            del self.asks[person]
            clicked = asked.first
        elif cards.count():
            clicked = cards.nth(rng.randrange(cards.count()))
            if person is not self.host and not self.shot and page.locator(
                    f"#screen [data-designated='{self.seats[person]}']").count():
                person.shoot("werner-guest-asked")  # a friend asked to give a card
                self.shot = True
        else:  # no card of the side needed: someone must give one
            anyone = page.locator("#screen .seat.designatable")
            if not anyone.count():
                return False
            clicked = anyone.nth(rng.randrange(anyone.count()))
        self.clicks[person] = self.clicks.get(person, 0) + 1
        if person is self.host:
            done = page.get_attribute("body", "data-actions")
            clicked.click()
            page.wait_for_function("n => document.body.dataset.actions !== n", arg=done)
        else:
            heard = len(person.captured())
            clicked.click()
            person.answered(heard)
        return True


def host_save(host: Person, game: str) -> dict:
    save, _ = saves.load(host.page.evaluate("g => localStorage.getItem('jhg.save.' + g)", game))
    return save


def check_captures(transcript: dict, captured: dict[str, list[str]]) -> int:
    """Every message each guest page was handed (lasting player -> texts, in
    the order heard), checked by tests/online_kit.py's checker against the
    host's own game replayed here: each table update is the state it says it
    is, seen from the guest's seat; no card hidden from that seat, nor the
    seed, is in any of them. How many were checked."""
    states: list[State] = Transcript.from_json(transcript).states()
    checked = 0
    for who, texts in captured.items():
        state = None  # the host's state as of the last update heard
        for text in texts:
            data = json.loads(text)
            if data["type"] == "table":
                state = states[data["state"]]
                assert data["observation"] == json.loads(json.dumps(
                    state.observation(state.seat_of(who))))
            assert leaks(Capture(text, state, who)) == [], text[:300]
            checked += 1
    return checked


def doctored(text: str, state: State, other: str) -> str:
    """A guest's table update with another seat's observation in it (its hand)."""
    data = json.loads(text)
    data["observation"] = state.observation(state.seat_of(other))
    return json.dumps(data)


def test_a_friend_who_drops_is_stood_in_for_and_takes_the_seat_back(people, site_url):
    """Bob's tab closes mid-hand: after the grace period (4 s here) a bot
    plays his seat and everyone is told; he opens the link again in his
    browser (his seat token kept), takes his seat back, everyone is told, and
    he plays on to the end of the hand."""
    host, (ann, bob) = host_and_guests(people, site_url, "jekyll-hyde", WERNER,
                                       (("Ann", "desktop"), ("Bob", "phone")), str(SEED))
    invite = bob.page.url
    host.page.click("#online-start")
    for guest in (ann, bob):
        guest.page.wait_for_selector("#online-bar", timeout=30000)
    seats = {host: "0", ann: "1", bob: "2"}
    clicks = WernerClicks(host, seats, {})
    play(host, [ann, bob], lambda: clicks.clicks.get(bob, 0) >= 2, clicks)

    heard_before = bob.captured()
    bob.page.close()
    host.page.wait_for_selector(".notice >> text=Bob lost the connection.", timeout=20000)
    host.page.wait_for_selector(".notice >> text=Bob is still away: a bot plays their seat",
                                timeout=20000)
    for person in (host, ann):
        person.page.wait_for_selector(
            "#online-seats [data-seat='2'] >> text=Bob (away, a bot plays)")
    ann.page.wait_for_selector("#online-news >> text=Bob is still away: a bot plays")
    host.shoot("werner-stood-in-host")
    ann.shoot("werner-stood-in-guest")
    played = len(host_save(host, "jekyll-hyde")["transcript"]["actions"])
    play(host, [ann], lambda: len(host_save(host, "jekyll-hyde")["transcript"]["actions"])
         >= played + 4, clicks)  # the table goes on with the bot in Bob's seat

    bob.new_page()
    bob.open(invite)  # the same link: the kept token takes the seat back, no Join pressed
    bob.page.wait_for_selector("#online-bar", timeout=60000)
    host.page.wait_for_selector(".notice >> text=Bob is back.", timeout=30000)
    ann.page.wait_for_selector("#online-news >> text=Bob is back.", timeout=30000)
    for person in (host, ann, bob):
        person.page.wait_for_selector("#online-seats [data-seat='2'].kind-person >> text=Bob")
    host.shoot("werner-handed-back-host")
    bob.shoot("werner-handed-back-guest")
    back = clicks.clicks.get(bob, 0)
    play(host, [ann, bob], HAND_OVER, clicks)
    assert clicks.clicks.get(bob, 0) > back  # Bob played again from his returned page
    save = host_save(host, "jekyll-hyde")
    assert save["setup"]["remote"] == {"1": "Ann", "2": "Bob"}
    assert not save["setup"].get("stood_in") and "2" not in save["setup"]["bots"]
    check_captures(save["transcript"], {"1": ann.captured(), "2": heard_before})
    check_captures(save["transcript"], {"2": bob.captured()})
