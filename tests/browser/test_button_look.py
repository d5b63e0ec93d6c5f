"""Every button the page draws wears the site's look on the dark table, not
the browser's own white system button: in the Review and in Play with
friends' invitations by codes (Copy, Connect, New invitation), at phone and
desktop size."""

from __future__ import annotations

import pytest

SIZES = pytest.mark.parametrize("width,height", [(390, 844), (1366, 768)])

# The visible buttons (by id or words) whose background and border are the
# browser's own: those of a button in a shadow root, which no author style reaches.
IN_BROWSER_STYLE = """() => {
  const host = document.createElement('div');
  document.body.appendChild(host);
  const plain = host.attachShadow({mode: 'open'}).appendChild(document.createElement('button'));
  const look = el => { const s = getComputedStyle(el);
    return [s.backgroundColor, s.borderTopStyle, s.borderTopColor].join(' '); };
  const browsers = look(plain);
  host.remove();
  return [...document.querySelectorAll('button')]
    .filter(b => b.offsetParent !== null && look(b) === browsers)
    .map(b => b.id || b.textContent.trim());
}"""


@SIZES
def test_the_reviews_buttons_wear_the_sites_look(page, ui, width, height):
    page.set_viewport_size({"width": width, "height": height})
    save = ui.save_near_end("jekyll-hyde", {"players": 4, "target": 150}, 0, 7)
    ui.resume_save(page, "jekyll-hyde", save)
    assert ui.wait_settled(page) == "modal"  # the bot's last move ended the hand
    page.click("#review-open")
    page.wait_for_selector("dialog#review[open] #rv-close")
    assert page.evaluate(IN_BROWSER_STYLE) == []


@SIZES
def test_the_invitations_by_codes_wear_the_sites_look(page, ui, width, height):
    page.set_viewport_size({"width": width, "height": height})
    ui.open_site(page, "?lang=en")
    page.click("#online-host")
    page.click("#online-open-codes")
    page.click("#online-invite-code")
    page.wait_for_selector("#online-codes .online-code [data-cmd=online-accept]")
    assert page.evaluate(IN_BROWSER_STYLE) == []
