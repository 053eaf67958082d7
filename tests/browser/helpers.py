"""Moving tiles the way people do: a mouse drag, or a finger through Chrome's touch input."""

from __future__ import annotations

from typing import Any

Point = tuple[float, float]


def settle(page: Any) -> None:
    """Wait for tiles sliding to their places (the board animates moves) to arrive."""
    page.evaluate(
        """Promise.all(document.getAnimations()
            .filter((a) => !(a instanceof CSSAnimation) && !(a instanceof CSSTransition))
            .map((a) => a.finished.catch(() => 0)))"""
    )


def centre(locator: Any) -> Point:
    settle(locator.page)
    box = locator.bounding_box()
    assert box is not None, f"{locator} is not visible"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def edge(locator: Any, side: str) -> Point:
    """A point just inside the left or right edge of an element: "before" or "after" it."""
    settle(locator.page)
    box = locator.bounding_box()
    assert box is not None
    x = box["x"] + (3 if side == "left" else box["width"] - 3)
    return x, box["y"] + box["height"] / 2


def drag(page: Any, source: Any, target: Point | Any) -> None:
    """Press on source, move in steps, release over target (a point or an element's centre).
    The source is scrolled into view first: a mouse cannot press what is off screen."""
    source.scroll_into_view_if_needed()
    x0, y0 = centre(source)
    x1, y1 = target if isinstance(target, tuple) else centre(target)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 8, y0 + 8, steps=2)
    page.mouse.move(x1, y1, steps=8)
    page.mouse.up()
    settle(page)


def touch_path(page: Any, points: list[Point]) -> None:
    """A finger pressed at the first point, moved through the others, lifted at the last."""
    cdp = page.context.new_cdp_session(page)
    x, y = points[0]
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for a, b in zip(points, points[1:], strict=False):
        for step in range(1, 7):
            t = step / 6
            px, py = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
            cdp.send(
                "Input.dispatchTouchEvent",
                {"type": "touchMove", "touchPoints": [{"x": px, "y": py}]},
            )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def tile(page: Any, name: str, where: str = ".rummi") -> Any:
    """The tile called ``name`` ("red 7") inside ``where``; the first when there are two."""
    return page.locator(f'{where} .tile[aria-label="{name}"]').first


def table_codes(page: Any) -> list[list[str]]:
    return page.evaluate("rummi.board.table.map(m => m.map(id => rummi.board.codes[id]))")


def rack_codes(page: Any) -> list[str]:
    return page.evaluate("rummi.board.rack.flat().map(id => rummi.board.codes[id])")


def sit_down(
    new_page: Any, site: str, player: str, options: dict[str, Any], ready: str, page: Any = None
) -> tuple[dict[str, Any], Any]:
    """A new game of ``options`` with ``player`` in seat 0 (bots where the options say), and
    a page signed in as them on its board once ``ready`` shows (a page given is used: one
    with its routes or scripts set up)."""
    from .conftest import call

    game = call(f"{site}/__test__/games", {"players": [player], "options": options})
    page = page or new_page()
    page.goto(f"{site}/__test__/login/{player}/?next={game['url']}")
    page.wait_for_selector(ready)
    return game, page
