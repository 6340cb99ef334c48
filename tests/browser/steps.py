"""How the browser tests wait and act as a person does on a page that reruns: wait until the page is idle, poll for
the state a step needs, and do a step again when nothing happened. An input given while a rerun redraws the page
can be lost (a click, keys, a chosen file: seen in fresh-clone runs under load); a person then does it again, once
the page is idle. No fixed sleep decides a test: every wait ends as soon as its state holds."""

from __future__ import annotations

from collections.abc import Callable

POLL_MS = 250
# No script run is in progress. Streamlit marks its app with the run's state as soon as the server says a run started
# ("running"), while its status widget shows only half a second later: a wait on the widget alone passed during a
# run's first half second (a fresh clone's Papers test waited 30 s for a radio its page had not yet drawn).
IDLE = """() => document.querySelector('[data-test-script-state]')?.dataset.testScriptState === 'notRunning'
  && !document.querySelector('[data-testid="stStatusWidget"]')"""


def settle(page, timeout: float = 180_000) -> None:
    """Wait until the app's navigation (the sidebar's, or the bar of presentation mode) is drawn and no script run is
    in progress (up to 3 minutes: a cold Papers page on a slow machine beside the other worker's browser took over
    90 s)."""
    page.wait_for_function("() => document.querySelectorAll('.st-key-bv_nav a, .st-key-bv_present_bar a').length === 5",
                           timeout=timeout)
    page.wait_for_function(IDLE, timeout=timeout)


def poll(page, holds: Callable[[], object], within_ms: int) -> bool:
    """Whether ``holds()`` became true within ``within_ms``, asked every 250 ms (events such as downloads are
    delivered while the page waits)."""
    for _ in range(max(1, within_ms // POLL_MS)):
        if holds():
            return True
        page.wait_for_timeout(POLL_MS)
    return bool(holds())


def steady(page, state: str, quiet_ms: int, timeout_ms: int = 20_000) -> None:
    """Wait until the JavaScript ``state`` (a function returning a value, or null while it is not ready) returned one
    same value for ``quiet_ms`` (asked every 100 ms): a page that settles by itself (a resize, then a relayout)."""
    seen, since, waited = None, 0, 0
    while waited <= timeout_ms:
        now = page.evaluate(state)
        if now is None or now != seen:
            seen, since = now, waited
        elif waited - since >= quiet_ms:
            return
        page.wait_for_timeout(100)
        waited += 100
    raise AssertionError(f"not steady within {timeout_ms} ms: {seen}")


def again(page, act: Callable[[], object], holds: Callable[[], object], what: str, tries: int = 3,
          within_ms: int = 20_000) -> None:
    """Do ``act`` until ``holds()``: when it does not hold within ``within_ms``, wait until the page is idle, look
    once more (a slow run may have done it), and only then act again; ``tries`` times at most, then fail naming
    ``what``. ``act`` is done once more only when its effect is absent, so an act that toggles (Undo) is safe."""
    for _ in range(tries):
        act()
        if poll(page, holds, within_ms):
            return
        settle(page)
        if holds():
            return
    raise AssertionError(f"{what}: not done after {tries} tries")


def holds_in_page(page, condition: str, arg=None) -> Callable[[], bool]:
    """A ``holds`` for `again`: the JavaScript ``condition`` (a function of ``arg``) is true in the page."""
    return lambda: bool(page.evaluate(condition, arg))


def motion_option(motion: bool) -> str:
    """A context's ``reduced_motion``: a test asks for reduced motion unless motion is what it tests (``motion``).
    Asked for it, the Watch player waits for play on a first visit instead of playing the run by itself, which holds
    the browser's main thread, a core of two, for the run's whole length and slows every step of the test and the
    other worker's (four journeys alone: 170 -> 105 s)."""
    return "no-preference" if motion else "reduce"


CONTROLS = "Algorithm, parameters, horizon and seed"  # Watch's expander of the run's settings


def press(page, target, done: Callable[[], object], what: str) -> None:
    """Click ``target`` (a locator) as a person does until ``done()``: again, once the page is idle, when a rerun
    lost the click (a fresh-clone run beside a CPU hog: a menu's option, an expander's fields never showed), and
    never while ``done()`` holds (a second click on an expander or a toggle would undo the first)."""
    again(page, lambda: done() or target.click(), done, what)


def open_expander(page, label: str) -> None:
    """Open the expander headed ``label``."""
    header = page.locator("[data-testid='stExpander'] summary", has_text=label).first
    press(page, header, lambda: header.evaluate("s => s.parentElement.open"), f"the expander {label!r} opened")


def choose_tab(page, name: str) -> None:
    """Choose the tab ``name``."""
    tab = page.get_by_role("tab", name=name).first
    press(page, tab, lambda: tab.get_attribute("aria-selected") == "true", f"the tab {name!r} chosen")


def choose_radio(page, option: str, scope=None) -> None:
    """Choose the radio option labelled ``option`` (within ``scope``, a locator, when two radios offer it)."""
    label = (scope or page).get_by_text(option, exact=True).first
    press(page, label, lambda: label.evaluate("e => e.closest('label').querySelector('input').checked"),
          f"the option {option!r} chosen")
