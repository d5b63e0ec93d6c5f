"""An online table's markup, with no browser import: what the host's lobby,
a guest's join form, waiting room and table, and the strip over every
online table (who is who, whose turn, the quick reactions) look like.

The guest's table is drawn by the game's own renderer (game.web.draw.tables) from
the observation its seat was sent, exactly as the host's page draws a seat.
"""

from __future__ import annotations

from typing import Any, Iterable

from game.online.messages import REACTIONS
from game.web.draw.html import EMPTY, Html, html, join
from game.web.draw.i18n import Translator

SELECTED = html(" selected")


def contact_sentence(t: Translator, relays: Iterable[str], stuns: Iterable[str],
                     turn: str = "", guest: bool = False) -> Html:
    """What choosing online play contacts, in one sentence, and the way
    without a third party; `turn` the host's own TURN server's host (the
    host's page), `guest` a friend's page (which may be given the host's)."""
    more = (" " + t("online.contacts_turn", host=turn) if turn else
            " " + t("online.contacts_turn_guest") if guest else "")
    return html('<p class="online-contacts" id="online-contacts">{}{}</p>',
                t("online.contacts", relays=", ".join(relays), stun=", ".join(stuns)), more)


def codes_contact_sentence(t: Translator) -> Html:
    """What joining by codes contacts: the host's device, and nothing else."""
    return html('<p class="online-contacts" id="online-contacts">{}</p>', t("online.codes_contacts"))


def seat_label(t: Translator, entry: dict[str, Any]) -> str:
    """A seat as everyone sees it: the person's name, or what plays it."""
    kind, name, level = entry.get("kind"), str(entry.get("name") or ""), entry.get("level")
    if kind == "bot":
        return t("online.seat_bot", level=t("bot." + str(level)) if t.has(
            "bot." + str(level)) else str(level))
    if kind == "open":
        return t("online.seat_open")
    shown = name or t("online.host")
    if kind == "away":
        return t("online.seat_stood_in" if level else "online.seat_away", name=shown)
    return shown


def seats_strip(t: Translator, seats: Iterable[dict[str, Any]], turn: str | None,
                mine: str | None) -> Html:
    """Every seat, who plays it and whose turn it is."""
    items = []
    for entry in seats:
        who = str(entry.get("seat"))
        path = entry.get("path")  # (the host's strip: how the game reaches that friend)
        marks = join((html(' <span class="online-you">{}</span>', t("online.you"))
                      if who == mine else EMPTY,
                      html(' <span class="online-way">· {}</span>', t("online.path." + str(path)))
                      if path and t.has("online.path." + str(path)) else EMPTY,
                      html(' <span class="online-turn">{}</span>', t("online.turn"))
                      if who == turn else EMPTY))
        items.append(html('<li class="online-seat kind-{}" data-seat="{}"{}>{}{}</li>',
                          str(entry.get("kind")), who,
                          html(' aria-current="true"') if who == turn else EMPTY,
                          seat_label(t, entry), marks))
    return html('<ul class="online-seats" id="online-seats" aria-label="{}">{}</ul>',
                t("online.seats"), join(items))


def reactions_bar(t: Translator, heard: Iterable[tuple[str, str]],
                  can_react: bool = True) -> Html:
    """The quick reactions as buttons, and the last few heard (a watcher,
    `can_react` False, hears them and has no buttons: watchers do not speak)."""
    said = join(html("<li>{}: {}</li>", who, t("react." + key)) for who, key in heard)
    heard_list = html('<ul class="online-heard" id="online-heard" aria-live="polite">{}</ul>',
                      said)
    if not can_react:
        return heard_list
    # Each says what it does (sends its words to the table), not only the words.
    buttons = join(html('<button type="button" data-cmd="online-react" data-key="{key}" '
                        'title="{say}" aria-label="{say}">{words}</button>', key=key,
                        say=t("online.react_say", what=t("react." + key)),
                        words=t("react." + key)) for key in REACTIONS)
    return html('<details class="online-react"><summary>{}</summary>'
                '<div class="online-reactions" id="online-reactions">{}</div></details>{}',
                t("online.react"), buttons, heard_list)


def watchers_line(t: Translator, watchers: list[str]) -> Html:
    """Who watches the table (nothing while nobody does)."""
    return EMPTY if not watchers else html(
        '<p class="online-watchers" id="online-watchers">{}</p>',
        t("online.watchers", names=", ".join(watchers)))


def bar(t: Translator, seats: list[dict[str, Any]], turn: str | None, mine: str | None,
        heard: list[tuple[str, str]], status: str = "", waiting: str = "",
        extra: Html = EMPTY, watchers: list[str] | None = None, watching: bool = False) -> Html:
    """The strip over an online table; `status` a word on the connection,
    `waiting` on whom the host's table waits for, `extra` the host's new
    invitations by codes (or its watch link), `watchers` who watches,
    `watching` this page only watches (no reactions to send)."""
    shown = EMPTY if not status else html(
        '<p class="online-status" id="online-status" role="status">{}</p>', status)
    wait = EMPTY if not waiting else html(
        '<p class="online-wait" id="online-wait" role="status">{}</p>', waiting)
    watcher = EMPTY if not watching else html(
        '<p class="online-watching" id="online-watching">{}</p>', t("online.watching_word"))
    return html('<section class="online-bar" id="online-bar" aria-label="{}">{}{}{}{}{}{}{}'
                '<p class="online-no-undo">{}</p></section>', t("online.title"), shown, wait,
                watcher, extra, seats_strip(t, seats, turn, mine),
                watchers_line(t, watchers or []),
                reactions_bar(t, heard[-3:], can_react=not watching), t("online.no_undo"))


# -- the host's side ----------------------------------------------------------------

def host_intro(t: Translator, game: str, contacts: Html, turn: Html = EMPTY) -> Html:
    """Before anything is contacted: what will be, the two ways, and (`turn`)
    the host's own TURN server."""
    return html('<section class="online" id="online-intro"><h1>{}</h1><p>{}</p>{}{}'
                '<div class="buttons"><button type="button" class="primary" '
                'data-cmd="online-open" id="online-open">{}</button>'
                '<button type="button" data-cmd="online-open-codes" id="online-open-codes">{}'
                '</button><button type="button" data-cmd="online-back" id="online-back">{}'
                '</button></div></section>', t("online.title"), t("game." + game),
                contacts + html('<p class="online-contacts">{}</p>', t("online.codes_way")),
                turn, t("online.open"), t("online.open_codes"), t("online.go_back"))


def turn_settings(t: Translator, kept: str, typed: tuple[str, str], error: str,
                  unfolded: bool = False) -> Html:
    """The host's own TURN server, folded unless `unfolded` or refused:
    `kept` the host of the one kept ("" none), `typed` the address and user
    name refused, `error` why."""
    address, user = typed
    why = EMPTY if not error else html(
        '<p class="field-error" id="online-turn-error" role="alert">{}</p>', t(error))
    now = html('<p id="online-turn-kept">{}</p>', t("online.turn_kept", host=kept) if kept
               else t("online.turn_none"))
    forget = EMPTY if not kept else html(
        '<button type="button" data-cmd="online-turn-forget" id="online-turn-forget">{}</button>',
        t("online.turn_forget"))
    return html(
        '<details class="online-turn" id="online-turn"{open}><summary>{title}</summary>'
        '<p class="online-contacts">{why_turn}</p>{now}'
        '<label class="field"><span>{address_label}</span><input id="online-turn-address" '
        'autocomplete="off" spellcheck="false" inputmode="url" placeholder="turns:turn.example.org:5349" '
        'value="{address}"></label>'
        '<label class="field"><span>{user_label}</span><input id="online-turn-user" '
        'autocomplete="off" spellcheck="false" value="{user}"></label>'
        '<label class="field"><span>{credential_label}</span><input id="online-turn-credential" '
        'type="password" autocomplete="off"></label>{error}'
        '<div class="buttons"><button type="button" data-cmd="online-turn" id="online-turn-keep">'
        '{keep}</button>{forget}</div></details>',
        open=html(" open") if error or unfolded else EMPTY, title=t("online.turn_title"),
        why_turn=t("online.turn_why"), now=now, address_label=t("online.turn_address"),
        address=address, user_label=t("online.turn_user"), user=user,
        credential_label=t("online.turn_credential"), error=why, keep=t("online.turn_keep"),
        forget=forget)


def seat_choices(t: Translator, current: str, levels: list[str],
                 people: list[tuple[str, str]]) -> Html:
    """A seat's <option>s: me, a person here, each joined friend, each bot level."""
    choices = [("host", t("online.choice_me")), ("here", t("online.choice_here"))]
    choices += [("peer:" + peer, name) for peer, name in people]
    choices += [("bot:" + level, t("online.seat_bot", level=t("bot." + level)))
                for level in levels]
    choices.append(("open", t("online.seat_open")))
    return join(html('<option value="{}"{}>{}</option>', value,
                     SELECTED if value == current else EMPTY, label)
                for value, label in choices)


def stand_in_choice(t: Translator, current: str, levels: list[str], grace: int) -> Html:
    """The lobby's choice of the bot that plays a friend's seat while they are away."""
    options = join(html('<option value="{}"{}>{}</option>', level,
                        SELECTED if level == current else EMPTY, t("bot." + level))
                   for level in levels)
    return html('<p><label class="field"><span>{}</span><select data-cmd="online-standin" '
                'id="online-standin">{}</select></label></p>',
                t("online.stand_in", seconds=grace), options)


def relay_status(t: Translator, reach: tuple[int, int] | None, failed: bool) -> Html:
    """The lobby's word on the relays: how many of them answer, or that none
    can be reached from here (why no link is shown, and what to do)."""
    if failed:
        of = reach[1] if reach is not None else 0
        return html('<p class="online-status online-failed" id="online-relays" role="alert">{}</p>'
                    '<div class="buttons"><button type="button" class="primary" '
                    'data-cmd="online-retry" id="online-retry">{}</button><button type="button" '
                    'data-cmd="online-retry" data-way="codes" id="online-retry-codes">{}</button>'
                    '</div>', t("online.no_relay", of=of), t("online.retry"),
                    t("online.open_codes"))
    reached, of = reach or (0, 0)
    words = t("online.relays_looking") if reach is None else t(
        "online.relays_reached" if reached else "online.relays_reaching", reached=reached, of=of)
    return html('<p class="online-status" id="online-relays" role="status">{}</p>', words)


def lobby(t: Translator, invite: str, rows: list[tuple[str, str, Html]],
          waiting: list[str], error: str, contacts: Html, qr: Html = EMPTY,
          by_code: bool = False, stand_in: Html = EMPTY, relays: Html = EMPTY,
          inviting: bool = True, watch: str = "", watchers: list[str] | None = None) -> Html:
    """The host's lobby: the relays' status, the invite link (or the codes;
    none while no relay answers: `inviting` False) and the watch link
    (`watch`), who joined and who watches, each seat's choice, Start."""
    seats = join(html('<li><label class="field"><span>{}</span><select data-cmd="online-seat" '
                      'data-seat="{}" id="online-seat-{}">{}</select></label></li>',
                      label, who, who, options) for who, label, options in rows)
    people = join(html("<li>{}</li>", name) for name in waiting) or html(
        "<li>{}</li>", t("online.nobody_yet"))
    shown_error = EMPTY if not error else html(
        '<p class="field-error" id="online-error" role="alert">{}</p>', error)
    return html(
        '<section class="online" id="online-lobby"><h1>{title}</h1>{contacts}{relays}'
        '{invitation}{qr}<h2>{joined}</h2><ul id="online-joined">{people}</ul>'
        '<h2>{seats_title}</h2><ol class="online-lobby-seats">{seats}</ol>{stand_in}{error}'
        '<div class="buttons"><button type="button" class="primary" data-cmd="online-start" '
        'id="online-start">{start}</button><button type="button" data-cmd="online-leave" '
        'id="online-leave">{leave}</button></div></section>',
        title=t("online.title"), contacts=contacts, relays=relays,
        invitation=EMPTY if by_code or not inviting else invite_html(t, invite),
        qr=(qr if inviting else EMPTY) + (watch_html(t, watch) if watch and inviting else EMPTY),
        joined=t("online.joined_title"),
        people=people + watchers_item(t, watchers or []), seats_title=t("online.seats"),
        seats=seats, stand_in=stand_in,
        error=shown_error,
        start=t("setup.start"), leave=t("online.leave"))


def invite_html(t: Translator, invite: str) -> Html:
    return html('<p>{}</p><p class="online-invite"><a id="invite-link" href="{}">{}</a> '
                '<button type="button" data-cmd="online-copy" data-copy="#invite-link" '
                'data-done="{}" id="online-copy">{}</button></p>', t("online.invite"), invite,
                invite, t("online.copied"), t("online.copy"))


def watch_html(t: Translator, link: str) -> Html:
    """The link that lets anyone watch the table without a seat, and its copy button."""
    return html('<p>{}</p><p class="online-invite online-watch-link"><a id="watch-link" '
                'href="{}">{}</a> <button type="button" data-cmd="online-copy" '
                'data-copy="#watch-link" data-done="{}" id="online-copy-watch" '
                'aria-label="{}">{}</button></p>', t("online.watch_invite"), link, link,
                t("online.copied"), t("online.copy_watch"), t("online.copy"))


def watch_share(t: Translator, link: str) -> Html:
    """At the host's table: the watch link, folded away under its summary."""
    return EMPTY if not link else html(
        '<details class="online-watch" id="online-watch"><summary>{}</summary>{}</details>',
        t("online.watch_share"), watch_html(t, link))


def watchers_item(t: Translator, watchers: list[str]) -> Html:
    """The lobby's list of friends here: those watching, as one more line."""
    return EMPTY if not watchers else html('<li class="online-watchers">{}</li>',
                                           t("online.watchers", names=", ".join(watchers)))


def codes_html(t: Translator, codes: list[tuple[str, str]]) -> Html:
    """With no third party: each friend's invitation link (holding the host's
    code), a field for the answer code they send back, and a new invitation."""
    items = join(code_item(t, peer, link, t("online.code_send")) for peer, link in codes)
    return html('<p class="online-contacts" id="online-no-third-party">{}</p>'
                '<ol class="online-codes" id="online-codes">{}</ol>'
                '<button type="button" data-cmd="online-invite-code" id="online-invite-code">'
                '{}</button>', t("online.codes_intro"), items, t("online.code_new"))


def code_item(t: Translator, peer: str, link: str, send: str) -> Html:
    """One invitation by codes: its link to send, and the box for the answer code."""
    return html(
        '<li class="online-code" data-peer="{peer}"><p>{send}</p><p class="online-invite">'
        '<a id="code-link-{peer}" href="{link}">{link}</a> <button type="button" '
        'data-cmd="online-copy" data-copy="#code-link-{peer}" data-done="{copied}">{copy}'
        '</button></p>'
        '<label class="field"><span>{answer}</span><input id="online-answer-{peer}" '
        'autocomplete="off" spellcheck="false"></label><button type="button" '
        'data-cmd="online-accept" data-peer="{peer}" id="online-accept-{peer}">{accept}'
        '</button></li>', peer=peer, link=link, send=send,
        copy=t("online.copy"), copied=t("online.copied"), answer=t("online.code_answer"),
        accept=t("online.code_accept"))


def reinvitations(t: Translator, away: list[tuple[str, str, tuple[str, str] | None]]) -> Html:
    """At the host's table by codes, for each friend away (seat, name, their
    new invitation's (peer, link) once made): a new invitation for that
    seat, and the box for the answer code beside it."""
    items = join(
        code_item(t, made[0], made[1], t("online.reinvite_send", name=name)) if made is not None
        else html('<li class="online-code" data-seat="{}"><p>{}</p><button type="button" '
                  'data-cmd="online-invite-code" data-seat="{}" id="online-reinvite-{}">{}'
                  '</button></li>', who, t("online.reinvite", name=name), who, who,
                  t("online.reinvite_button", name=name))
        for who, name, made in away)
    return EMPTY if not away else html(
        '<ol class="online-codes" id="online-reinvite">{}</ol>', items)


# -- the guest's side --------------------------------------------------------------------

def guest_join(t: Translator, game: str, contacts: Html, name: str, refused: str = "",
               watching: bool = False) -> Html:
    """Before anything is contacted: the game, what joining contacts, a name, Join
    (again, with why the host refused the name chosen before); `watching`:
    to watch, with what a watcher sees."""
    why = EMPTY if not refused else html(
        '<p class="online-refused" id="online-name-refused" role="alert">{}</p>', refused)
    intro = html('<p>{}</p>', t("game." + game)) + (html(
        '<p id="online-watch-intro">{}</p>', t("online.watch_intro")) if watching else EMPTY)
    return html(
        '<form class="online" id="online-join-form" novalidate><h1>{}</h1>{}{}'
        '<label class="field"><span>{}</span><input id="online-name" name="online_name" '
        'maxlength="24" autocomplete="nickname" value="{}"></label>{}'
        '<div class="buttons"><button type="button" class="primary" data-cmd="online-join" '
        'id="online-join">{}</button><button type="button" data-cmd="online-back" '
        'id="online-back">{}</button></div></form>',
        t("online.watch_title" if watching else "online.join_title"), intro, contacts,
        t("online.name"), name, why, t("online.watch" if watching else "online.join"),
        t("online.go_back"))


def guest_message(t: Translator, key: str, params: dict[str, Any], extra: Html = EMPTY) -> Html:
    words = {k: str(v) for k, v in params.items() if not isinstance(v, (list, dict))}
    return html('<section class="online" id="online-guest"><h1>{}</h1>'
                '<p id="online-words" role="status">{}</p>{}</section>',
                t("online.title"), t(key, **words) if t.has(key) else t("online.wire_failed"),
                extra)


def guest_answer(t: Translator, code: str | None) -> Html:
    """With no third party: the answer code the guest sends back to the host."""
    if code is None:
        return guest_message(t, "online.connecting", {})
    return html('<section class="online" id="online-answer"><h1>{}</h1><p>{}</p>'
                '<p class="online-invite"><output id="answer-code">{}</output> '
                '<button type="button" data-cmd="online-copy" data-copy="#answer-code" '
                'data-done="{}">{}</button></p><p role="status">{}</p></section>',
                t("online.title"), t("online.code_reply"), code, t("online.copied"),
                t("online.copy"), t("online.connecting"))


def guest_waiting(t: Translator, seats: list[dict[str, Any]], mine: str | None,
                  host_silent: bool = False, path: str = "", watching: bool = False) -> Html:
    """Seated or waiting for a seat (`watching`: watching, whose table and
    what a watcher sees); `path` how this page reaches the host (PeerPath.way;
    "" not said)."""
    way = "turn_host" if path == "turn" else path  # (the TURN server is the host's, not ours)
    link = EMPTY if not path else html('<p class="online-path" id="online-path">{}</p>',
                                       t("online.path", path=t("online.path." + way)))
    host = next((str(e.get("name") or "") for e in seats if e.get("kind") == "host"), "")
    words = t("online.host_silent") if host_silent else t(
        "online.watching_table", name=host or t("online.host")) if watching else t(
        "online.waiting")
    return html('<section class="online" id="online-waiting"><h1>{}</h1>'
                '<p role="status">{}</p>{}{}<div class="buttons"><button type="button" '
                'data-cmd="online-leave" id="online-leave">{}</button></div></section>',
                t("online.title"), words, link, seats_strip(t, seats, None, mine),
                t("online.leave"))


def guest_end(t: Translator, over: bool) -> Html:
    """At the end (or once the host left): review and download what this page saw."""
    review = EMPTY if not over else html(
        '<button type="button" data-cmd="online-review" id="online-review">{}</button>',
        t("review.button"))
    return html('<div class="buttons online-end">{}<button type="button" '
                'data-cmd="online-download" id="online-download">{}</button>'
                '<button type="button" data-cmd="online-leave" id="online-leave">{}</button>'
                '</div>', review, t("online.download"), t("online.leave"))
