"""Independent implementation of the Rock-Paper-Scissors web service.

Standard library only (http.server), written from the task README alone. Stateless.
"""
import email.parser
import email.policy
import html
import os
import secrets
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

CHOICES = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}
VERBS = {"rock": "crushes", "paper": "covers", "scissors": "cut"}
TITLE = "Rock-Paper-Scissors App"
MAX_BODY = 64 * 1024


def normalise(value):
    """A valid choice as given, anything else (or nothing) becomes rock."""
    return value if value in CHOICES else "rock"


def outcome(user, computer):
    if user == computer:
        return f"Draw! You both picked {user}."
    if BEATS[user] == computer:
        return f"Victory! Your {user} {VERBS[user]} {computer}."
    return f"Defeat! The computer's {computer} {VERBS[computer]} {user}."


def page(body, heading):
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{TITLE}</title>\n</head>\n<body>\n<h1>{TITLE}</h1>\n<h2>{heading}</h2>\n"
        f"{body}</body>\n</html>\n"
    )


def home_page():
    options = "".join(f'  <option value="{c}">{c.capitalize()}</option>\n' for c in CHOICES)
    body = (
        '<form action="/results" method="POST">\n'
        '<label for="choice">Your move:</label>\n'
        f'<select id="choice" name="choice">\n{options}</select>\n'
        '<button type="submit">Play</button>\n'
        "</form>\n"
    )
    return page(body, "Pick your move")


def results_page(user):
    computer = secrets.choice(CHOICES)
    body = (
        f"<p>You chose: {html.escape(user, quote=False)}</p>\n"
        f"<p>The computer chose: {html.escape(computer, quote=False)}</p>\n"
        f"<p>Results: {html.escape(outcome(user, computer), quote=False)}</p>\n"
        '<p><a href="/">Play again</a></p>\n'
    )
    return page(body, "Round result")


def last_value(pairs, name):
    found = None
    for key, value in pairs:
        if key == name:
            found = value
    return found


def form_pairs(content_type, raw):
    ctype = (content_type or "").lower()
    if ctype.startswith("multipart/form-data"):
        msg = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + raw)
        pairs = []
        if msg.is_multipart():
            for part in msg.iter_parts():
                name = part.get_param("name", header="content-disposition")
                if name is not None and part.get_filename() is None:
                    payload = part.get_payload(decode=True) or b""
                    pairs.append((name, payload.decode("utf-8", "replace")))
        return pairs
    if ctype.startswith("application/x-www-form-urlencoded") or not ctype:
        return parse_qsl(raw.decode("utf-8", "replace"), keep_blank_values=True)
    return []


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "rps-alt/1.0"

    def log_message(self, fmt, *args):  # quiet
        pass

    def send_html(self, status, text, extra_headers=None, head_only=False):
        data = text.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        for k, v in (extra_headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if not head_only:
            self.wfile.write(data)

    def error_page(self, status, allowed=None, head_only=False):
        phrase = HTTPStatus(status).phrase
        body = f"<p>{status} {phrase}</p>\n<p><a href=\"/\">Back to the game</a></p>\n"
        headers = {"Allow": allowed} if allowed else None
        self.send_html(status, page(body, phrase), headers, head_only)

    def read_body(self):
        length = self.headers.get("Content-Length")
        try:
            n = int(length) if length else 0
        except ValueError:
            n = 0
        return self.rfile.read(min(max(n, 0), MAX_BODY)) if n > 0 else b""

    def route(self, method):
        path = urlsplit(self.path).path
        head_only = method == "HEAD"
        if path == "/":
            if method in ("GET", "HEAD"):
                return self.send_html(200, home_page(), head_only=head_only)
            return self.error_page(405, "GET, HEAD")
        if path in ("/results", "/results/"):
            if method in ("GET", "HEAD"):
                query = parse_qsl(urlsplit(self.path).query, keep_blank_values=True)
                user = normalise(last_value(query, "choice"))
                return self.send_html(200, results_page(user), head_only=head_only)
            if method == "POST":
                raw = self.read_body()
                user = normalise(last_value(form_pairs(self.headers.get("Content-Type"), raw),
                                            "choice"))
                return self.send_html(200, results_page(user))
            return self.error_page(405, "GET, HEAD, POST")
        return self.error_page(404, head_only=head_only)

    def do_GET(self):
        self.route("GET")

    def do_HEAD(self):
        self.route("HEAD")

    def do_POST(self):
        self.route("POST")

    def do_PUT(self):
        self.read_body()
        self.route("PUT")

    def do_PATCH(self):
        self.read_body()
        self.route("PATCH")

    def do_DELETE(self):
        self.route("DELETE")


def main():
    host = os.environ.get("BIND", "0.0.0.0")
    port = int(os.environ.get("PORT", "5000"))
    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    print(f"Rock-Paper-Scissors alternative listening on {host}:{port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
