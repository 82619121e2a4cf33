"""Rock-Paper-Scissors web service: HTML pages, the player's choice from a query or a form."""

from __future__ import annotations

import os
import random
from html import escape

from flask import Flask, request

CHOICES = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}

app = Flask(__name__)

PAGE = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>{title}</title></head>
<body>
{body}
</body>
</html>
"""


def page(title: str, body: str) -> str:
    return PAGE.format(title=escape(title), body=body)


def normalise(choice: str | None) -> str:
    """A missing or unknown choice counts as rock."""
    value = (choice or "").strip().lower()
    return value if value in CHOICES else "rock"


def outcome(user: str, computer: str) -> str:
    if user == computer:
        return "It's a tie!"
    if BEATS[user] == computer:
        return "You win!"
    return "You lose!"


@app.get("/")
def index() -> str:
    options = "\n".join(
        f'  <label><input type="radio" name="choice" value="{c}"{" checked" if c == "rock" else ""}>'
        f" {c.capitalize()}</label>"
        for c in CHOICES
    )
    body = (
        "<h1>Rock-Paper-Scissors App</h1>\n"
        '<form action="/results" method="POST">\n'
        f"{options}\n"
        '  <button type="submit">Play</button>\n'
        "</form>"
    )
    return page("Rock-Paper-Scissors App", body)


def results(choice: str | None) -> str:
    user = normalise(choice)
    computer = random.choice(CHOICES)
    body = (
        "<h1>Rock-Paper-Scissors App</h1>\n"
        f"<p>You chose: {user}</p>\n"
        f"<p>The computer chose: {computer}</p>\n"
        f"<p>Results: {escape(outcome(user, computer))}</p>\n"
        '<p><a href="/">Play again</a></p>'
    )
    return page("Rock-Paper-Scissors App - Results", body)


@app.get("/results")
def results_query() -> str:
    return results(request.args.get("choice"))


@app.post("/results")
def results_form() -> str:
    return results(request.form.get("choice"))


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=int(os.environ.get("PORT", "5000")))
