"""Motion (game/web/draw/motion.py) in headless Chromium: a played card travels,
briefly; the table takes a click while cards are still moving, and the click
finishes them; nothing moves under `prefers-reduced-motion: reduce`; a card
that goes face down travels as a back; screenshots mid-flight. All of it
needs the browser's Web Animations, so every test stays; motion's plan (which
cards move where, only cards the person sees, a trick leaving at the next
action) is checked under CPython in tests/test_web_motion.py."""

from __future__ import annotations

# Plays the first thing offered (a card, else a seat to designate) and says what
# was moving just before the click and right after it, and once the game's
# answer is drawn. The game answers from its worker: the click's task posts the
# gesture (`posted`: counted on the worker's `postMessage`) and finishes the
# motion; the frame it brings back is read as soon as it is applied (a
# MutationObserver on <body data-actions>: a microtask of the frame's own task,
# so the animations it starts are seen at their start).
MOVING = "document.getAnimations().filter(a => a.id === 'motion')"
PLAY = """(options) => new Promise(resolve => {
  const {target: selector = '', pause = false} = options || {};
  const engine = window.jhgEngine;
  if (!('posted' in engine)) {
    const post = engine.postMessage.bind(engine);
    engine.posted = 0;
    engine.postMessage = (...args) => { engine.posted += 1; return post(...args); };
  }
  const before = %s;
  const target = selector ? document.querySelector(selector)
    : document.querySelector('.hand.mine .card.playable')
      || document.querySelector('.seat.designatable');
  const actions = +document.body.dataset.actions, posted = engine.posted;
  target.click();
  const skipped = before.every(a => a.playState === 'finished');
  const sent = engine.posted - posted;
  const seen = new MutationObserver(() => {
    if (+document.body.dataset.actions === actions) return;
    seen.disconnect();
    const after = %s;
    if (pause) after.forEach(a => { a.pause(); a.currentTime = a.effect.getTiming().duration * .4; });
    resolve({before: before.length, actions, sent, skipped,
             taken: +document.body.dataset.actions - actions,
             durations: after.map(a => a.effect.getTiming().duration),
             centre: after.map(a => a.effect.target.closest('.centre') && a.effect.target.dataset.card),
             cells: after.map(a => a.effect.target.closest('.cell')?.dataset.cell)});
  });
  seen.observe(document.body, {attributes: true, attributeFilter: ['data-actions']});
})""" % (MOVING, MOVING)

# Waits (frame by frame, in the page) for the person's turn with a card still
# moving, then plays at once: the answer says whether the click's task sent the
# gesture and finished that card's motion.
PLAY_WHILE_MOVING = """() => new Promise(resolve => {
  const tick = () => {
    if (document.body.dataset.toAct === 'me' && %s.length) resolve((%s)());
    else requestAnimationFrame(tick);
  };
  tick();
})""" % (MOVING, PLAY)

# Every copy that motion lays over the page, as it was when added.
RECORD_COPIES = """() => {
  window.copies = [];
  new MutationObserver(records => { for (const r of records) for (const n of r.addedNodes)
    if (n.classList && n.classList.contains('motion-copy'))
      window.copies.push({cls: n.className, html: n.outerHTML, text: n.textContent}); })
    .observe(document.body, {childList: true});
}"""


def _werner(page, ui, speed: str = "normal") -> None:
    ui.open_site(page, f"?speed={speed}")
    ui.start_game(page)
    assert ui.wait_settled(page) == "me"


def _until_a_card_to_play(page, ui) -> None:
    """Designate (a bot then plays for the person) until a card of the hand is playable."""
    while not page.locator(".hand.mine .card.playable").count():
        page.evaluate(PLAY)
        assert ui.wait_settled(page) == "me"


def test_a_played_card_travels_briefly(page, ui):
    _werner(page, ui)
    _until_a_card_to_play(page, ui)
    card = page.get_attribute(".hand.mine .card.playable", "data-card")
    played = page.evaluate(PLAY)
    assert played["sent"] == 1 and played["taken"] == 1
    assert played["durations"], "playing a card starts no animation"
    assert all(0 < d <= 300 for d in played["durations"]), played["durations"]
    assert played["centre"] == [card]  # it is the card now on the table that moves


def test_a_click_while_cards_move_is_taken_at_once_and_skips_them(page, ui):
    _werner(page, ui, "instant")
    page.evaluate(PLAY)
    for _ in range(3):  # the bots play fast: the person's turn comes while a card moves
        played = page.evaluate(PLAY_WHILE_MOVING)
        assert played["before"] > 0
        assert played["sent"] == 1, "the click waited for the motion"
        assert played["skipped"], "a click leaves the motion running"
        assert played["taken"] == 1


def test_no_motion_when_the_person_asks_for_reduced_motion(page, ui):
    page.emulate_media(reduced_motion="reduce")
    _werner(page, ui, "instant")
    for _ in range(4):
        played = page.evaluate(PLAY)
        assert played["taken"] == 1
        assert played["durations"] == []
        ui.wait_settled(page)
        assert page.evaluate(f"{MOVING}.length") == 0
    assert page.evaluate("document.querySelectorAll('.motion-copy').length") == 0
    page.emulate_media(reduced_motion="no-preference")
    _until_a_card_to_play(page, ui)
    assert page.evaluate(PLAY)["durations"]  # the same page moves once allowed


def test_a_finished_trick_slides_to_its_winner_and_a_transformation_stays(page, ui):
    _werner(page, ui, "instant")  # seed 7: the person leads a Transformation
    page.evaluate(RECORD_COPIES)
    page.set_viewport_size({"width": 1366, "height": 768})
    # Counts the cards moving into the carried row as each animation starts (a
    # frame-by-frame look could miss one that the next click finishes, on a busy
    # machine); stops the first trick leaving halfway, for a screenshot.
    page.evaluate("""() => { window.carried = 0;
      const animate = Element.prototype.animate;
      Element.prototype.animate = function (...args) {
        if (this.closest('.carried')) window.carried += 1;
        return animate.apply(this, args); };
      const look = () => {
        const leaving = %s.filter(a => a.effect.target.classList.contains('motion-copy'));
        if (leaving.length) leaving.forEach(a => { a.pause(); a.currentTime = 110; });
        else requestAnimationFrame(look); }; look(); }""" % MOVING)
    for _ in range(14):
        page.evaluate(PLAY)
        if ui.wait_settled(page) != "me" or page.evaluate("window.copies.length"):
            break
    copies = page.evaluate("window.copies")
    assert copies, "no trick left the table"
    ui.screenshot(page, "motion-desktop-trick-leaves")
    # Copies of cards that were face up on the table, neither clickable nor found as cards.
    for c in copies:
        assert "card" in c["cls"] and "data-card" not in c["html"] and "data-act" not in c["html"]
    assert page.evaluate("window.carried"), "the Transformation's cards did not move to stay"


def test_a_gift_goes_face_down_into_the_opponent_hand(page, ui):
    ui.open_site(page, "?speed=instant")
    page.select_option("#f-game", "jekyll-vs-hyde")
    page.wait_for_selector("#f-jvh_role")
    page.fill("#f-seed", "7")
    page.click("#start")
    page.wait_for_selector(".table.jvh")
    assert ui.wait_settled(page) == "me"
    assert page.get_attribute(".table.jvh", "data-phase") == "give"
    page.evaluate(RECORD_COPIES)
    need = int(page.get_attribute("#jvh-pick", "data-need"))
    hand = page.eval_on_selector_all("#jvh-pick [data-part]", "els => els.map(e => e.dataset.part)")
    pick = [c for c in hand if c.endswith("+")][:1] + [c for c in hand if not c.endswith("+")]
    for c in pick[:need]:
        page.click(f'#jvh-pick [data-part="{c}"]')
    # The picks are drawn from the worker's answers: the button is on once they are in.
    page.wait_for_selector("#jvh-confirm:not([disabled])")
    # The copies are caught as the worker's answer lays them over the page (in
    # that frame's task): a look frame by frame could come after their flight.
    in_flight = page.evaluate("""() => new Promise(resolve => {
      const seen = new MutationObserver(() => {
        const copies = %s.filter(a => a.effect.target.classList.contains('motion-copy'));
        if (!copies.length) return;
        seen.disconnect();
        copies.forEach(a => { a.pause(); a.currentTime = 120; });
        resolve(copies.length);
      });
      seen.observe(document.body, {childList: true});
      document.getElementById('jvh-confirm').click();
    })""" % MOVING)
    assert in_flight == need
    ui.screenshot(page, "motion-duel-gift")
    page.evaluate(f"{MOVING}.forEach(a => a.finish())")
    ui.wait_settled(page)
    copies = page.evaluate("window.copies")
    assert len(copies) == need
    page.wait_for_function("!document.querySelector('.motion-copy')")  # gone once there
    for c in copies:  # a back: no card's name or picture, in markup or in words
        assert "back" in c["cls"] and "data-card" not in c["html"] and not c["text"].strip()
        assert not any(name in c["html"] for name in pick[:need])


def test_dracula_card_flies_to_its_cell(page, ui):
    ui.open_site(page, "?speed=instant")
    page.select_option("#f-game", "dracula")
    page.wait_for_selector("#f-first")
    page.select_option("#f-first", "me")
    page.fill("#f-seed", "12")
    page.click("#start")
    page.wait_for_selector(".dr-table")
    assert ui.wait_settled(page) == "me"
    page.click("#way-Q")
    ui.wait_settled(page)
    card = page.get_attribute(".dr-hand .dc-btn", "data-card")
    cell = page.get_attribute(".cell.open", "data-cell")
    page.click(f'.dr-hand .dc-btn[data-card="{card}"]')
    page.wait_for_selector(f'.dr-hand .dc-btn[data-card="{card}"][aria-pressed=true]')
    played = page.evaluate(PLAY, {"target": f'.cell[data-cell="{cell}"]', "pause": True})
    assert played["taken"] == 1 and played["cells"] == [cell]
    ui.screenshot(page, "motion-dracula")


def test_screenshots_mid_flight(page, ui):
    for width, height, name in ((390, 844, "phone"), (1366, 768, "desktop")):
        page.set_viewport_size({"width": width, "height": height})
        _werner(page, ui, "instant")
        _until_a_card_to_play(page, ui)
        # seed 7: a Transformation from the hand to the table
        assert page.evaluate(PLAY, {"pause": True})["durations"]
        ui.screenshot(page, f"motion-{name}-play")
        for _ in range(2):
            page.evaluate(f"{MOVING}.forEach(a => a.finish())")
            ui.wait_settled(page)
            played = page.evaluate(PLAY, {"pause": True})
        # The Transformation's cards stay: they move into the row carried on.
        assert played["durations"]
        ui.screenshot(page, f"motion-{name}-stay")
