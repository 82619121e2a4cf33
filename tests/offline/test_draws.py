"""An endpoint that draws one record from a pool the body narrows: the suite draws again and
again sending what came before, and sends the value the document says stands for all; it
catches a draw that repeats a previous card and one that treats "all" as a deck of its own."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

from pipeline.offline.generate import generate_cases
from pipeline.spec import extract_spec
from pipeline.stages.coverage import behaviour_endpoints

README = textwrap.dedent("""\
    # Cards

    #### POST /draws

    Draws a random card.

    ```bash
    curl -X POST -d '{"deck_id": 2, "previous_card_ids": []}' http://127.0.0.1:5000/draws
    ```

    Parameters:

    - deck_id (int): The deck to draw from (0 means all decks)
    - previous_card_ids: A list of the ids of the cards drawn before

    Example Response:

    ```bash
    {"success": true, "card": {"id": 3, "deck_id": 2, "face": "queen of hearts"}}
    ```

    #### POST /cards

    Adds a card to a deck.

    ```bash
    curl -X POST -d '{"deck_id": 1, "face": "ace of spades"}' http://127.0.0.1:5000/cards
    ```

    Example Response:

    ```bash
    {"success": true, "created_card_id": 12}
    ```

    #### DELETE /cards/<card_id>

    Removes a card.

    ```bash
    curl -X DELETE http://127.0.0.1:5000/cards/12
    ```

    Example Response:

    ```bash
    {"success": true, "deleted_card_id": 12}
    ```
    """)

SERVER = textwrap.dedent("""\
    import json, os, random
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    CARDS = [{"id": i, "deck_id": 1 + i % 3, "face": f"card {i}"} for i in range(1, 10)]
    SKIP_PREVIOUS = True
    ZERO_IS_ALL = True

    class H(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.body()
            if self.path == "/cards" and isinstance(body, dict):
                CARDS.append({"id": len(CARDS) + 1, "deck_id": int(body.get("deck_id", 1)),
                              "face": body.get("face")})
                return self.reply(200, {"success": True, "created_card_id": len(CARDS)})
            if self.path != "/draws" or not isinstance(body, dict):
                return self.reply(400, {"success": False})
            deck = int(body.get("deck_id", 0))
            seen = body.get("previous_card_ids") or []
            pool = [c for c in CARDS if (deck == 0 and ZERO_IS_ALL) or c["deck_id"] == deck]
            if SKIP_PREVIOUS:
                pool = [c for c in pool if c["id"] not in seen]
            return self.reply(200, {"success": True,
                                    "card": random.choice(pool) if pool else None})

        def do_DELETE(self):
            gone = int(self.path.rsplit("/", 1)[-1])
            CARDS[:] = [c for c in CARDS if c["id"] != gone]
            return self.reply(200, {"success": True, "deleted_card_id": gone})
    """) + SERVE_JSON


def test_draws_never_repeat_and_all_means_all(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "cards", README, SERVER,
        {"repeats": ("SKIP_PREVIOUS = True", "SKIP_PREVIOUS = False"),
         "zero is a deck": ("ZERO_IS_ALL = True", "ZERO_IS_ALL = False"),
         "zero is the first deck": ("(deck == 0 and ZERO_IS_ALL)",
                                    "(deck == 0 and c[\"deck_id\"] == 1)"),
         "seeded only": ("pool = [c for c in CARDS if", "pool = [c for c in CARDS[:9] if")})
    good = outcomes["good"]
    rules = {"repeats": "test_draws_never_draws_a_previous_card",
             "zero is a deck": "test_draws_with_deck_id_0_draws_from_all",
             "zero is the first deck": "test_draws_with_deck_id_0_draws_from_all",
             "seeded only": "test_draws_never_draws_a_previous_card"}
    for variant, name in rules.items():
        assert good.get(name) == "passed", (name, good)
        assert outcomes[variant][name] == "failed", (variant, outcomes[variant])


def test_a_draw_that_never_repeats_checks_the_draw_by_value() -> None:
    """The check inside the draw loop counts (a length check shows the loop drew at all), so
    the draw endpoint has a behaviour test."""
    spec = extract_spec(README)
    for name in ("test_draws_never_draws_a_previous_card",
                 "test_draws_with_deck_id_0_draws_from_all"):
        (case,) = [c for c in generate_cases("cards", spec) if c.name == name]
        assert "POST /draws" in behaviour_endpoints(spec, case), case.code
