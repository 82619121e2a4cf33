"""An independent implementation of the I Hate Money REST API (docs/api.md),
written from the README alone.  Starlette + uvicorn, state kept in memory
behind a lock; a fresh start is empty."""

import base64
import binascii
import datetime as dt
import hashlib
import hmac
import json
import math
import os
import re
import secrets
import threading
import unicodedata
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

# --------------------------------------------------------------------------
# Currencies: "XXX" (no currency) first, then ISO 4217 codes in order.
# --------------------------------------------------------------------------
NO_CURRENCY = "XXX"
_ISO_CODES = """
AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB
BRL BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUC CUP CVE CZK DJF DKK
DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HRK
HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD
KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN
MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD
RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB
TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD
XOF XPF YER ZAR ZMW ZWL
""".split()
CURRENCIES = [NO_CURRENCY] + sorted(set(_ISO_CODES))
CURRENCY_SET = set(CURRENCIES)

# --------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------
LOCK = threading.RLock()
PROJECTS = {}          # project id -> dict
MEMBERS = {}           # member id -> dict (has "project")
BILLS = {}             # bill id -> dict (has "project")
COUNTERS = {"member": 1000, "bill": 5000}
SECRET = secrets.token_bytes(32)


def next_id(kind):
    COUNTERS[kind] += 1
    return COUNTERS[kind]


def hash_password(password, salt=None):
    salt = salt or secrets.token_hex(8)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), 20000).hex()
    return f"{salt}${digest}"


def check_password(stored, password):
    salt, _, _ = stored.partition("$")
    return hmac.compare_digest(stored, hash_password(password, salt))


# --------------------------------------------------------------------------
# Helpers: responses / errors
# --------------------------------------------------------------------------
class ApiError(Exception):
    def __init__(self, status, code, message, fields=None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields


def error_response(exc):
    body = {"status": "error", "code": exc.code, "message": exc.message}
    if exc.fields:
        body["fields"] = exc.fields
    headers = {}
    if exc.status == 401:
        headers["WWW-Authenticate"] = 'Basic realm="ihatemoney"'
    return JSONResponse(body, status_code=exc.status, headers=headers)


def invalid(fields):
    return ApiError(400, "invalid_input", "The submitted data is not valid.", fields)


def ok(value, status=200):
    return JSONResponse(value, status_code=status)


def money(x):
    r = round(float(x) + 0.0, 2)
    return 0.0 if r == 0 else r


# --------------------------------------------------------------------------
# Body parsing: JSON object or x-www-form-urlencoded (multi-valued)
# --------------------------------------------------------------------------
async def read_body(request):
    """Return a dict name -> list of values (strings or JSON values)."""
    raw = await request.body()
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    text = raw.decode("utf-8", errors="replace")
    if ctype == "application/json" or ctype.endswith("+json"):
        if not text.strip():
            return {}
        try:
            data = json.loads(text)
        except ValueError:
            raise ApiError(400, "malformed_json", "The request body is not valid JSON.")
        if not isinstance(data, dict):
            raise ApiError(400, "malformed_json", "The JSON body must be an object.")
        out = {}
        for k, v in data.items():
            if isinstance(v, list):
                out[k] = list(v)
            elif v is None:
                out[k] = []
            else:
                out[k] = [v]
        return out
    if ctype == "multipart/form-data":
        form = await request.form()
        out = {}
        for k, v in form.multi_items():
            out.setdefault(k, []).append(v if isinstance(v, str) else "")
        return out
    # default: url-encoded form (curl -d), also when no content type is given
    stripped = text.strip()
    if not ctype and stripped.startswith("{"):
        try:
            data = json.loads(stripped)
            if isinstance(data, dict):
                return {k: (list(v) if isinstance(v, list) else ([] if v is None else [v]))
                        for k, v in data.items()}
        except ValueError:
            pass
    return parse_qs(text, keep_blank_values=True)


def first(data, name):
    vals = data.get(name)
    if not vals:
        return None
    return vals[0]


def as_text(value):
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_number(value):
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        f = float(value)
    else:
        s = str(value).strip().replace(",", ".")
        if not s:
            return None
        try:
            f = float(s)
        except ValueError:
            return None
    if math.isnan(f) or math.isinf(f):
        return None
    return f


def parse_int(value):
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    s = str(value).strip()
    if re.fullmatch(r"[+-]?\d+", s):
        return int(s)
    return None


TRUE_WORDS = {"true", "1", "yes", "y", "on", "t"}
FALSE_WORDS = {"false", "0", "no", "n", "off", "f", ""}


def parse_bool(value):
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return bool(value)
    s = str(value).strip().lower()
    if s in TRUE_WORDS:
        return True
    if s in FALSE_WORDS:
        return False
    return None


EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def normalize_project_id(raw):
    s = unicodedata.normalize("NFKD", raw).encode("ascii", "ignore").decode("ascii")
    s = s.strip().lower()
    s = re.sub(r"\s+", "-", s)
    s = re.sub(r"[^a-z0-9_-]", "", s)
    s = re.sub(r"-{2,}", "-", s).strip("-")
    return s


# --------------------------------------------------------------------------
# Serialisation and balances
# --------------------------------------------------------------------------
def member_json(m):
    return {"id": m["id"], "name": m["name"], "weight": float(m["weight"]),
            "activated": m["activated"]}


def project_members(pid):
    return sorted((m for m in MEMBERS.values() if m["project"] == pid), key=lambda m: m["id"])


def project_bills(pid):
    return [b for b in BILLS.values() if b["project"] == pid]


def bill_json(b):
    owers = [member_json(MEMBERS[i]) for i in b["owers"] if i in MEMBERS]
    return {
        "id": b["id"],
        "payer_id": b["payer"],
        "owers": owers,
        "amount": b["amount"],
        "date": b["date"],
        "creation_date": b["creation_date"],
        "what": b["what"],
        "external_link": b["external_link"],
        "original_currency": b["original_currency"],
        "converted_amount": b["converted_amount"],
        "bill_type": b["bill_type"],
    }


def compute_stats(pid):
    paid, spent = {}, {}
    for b in project_bills(pid):
        amt = b["converted_amount"]
        paid[b["payer"]] = paid.get(b["payer"], 0.0) + amt
        owers = [MEMBERS[i] for i in b["owers"] if i in MEMBERS]
        total = sum(o["weight"] for o in owers)
        if total <= 0:
            continue
        for o in owers:
            spent[o["id"]] = spent.get(o["id"], 0.0) + amt * o["weight"] / total
    out = {}
    for m in project_members(pid):
        p = paid.get(m["id"], 0.0)
        s = spent.get(m["id"], 0.0)
        out[m["id"]] = (money(p), money(s), money(p - s))
    return out


def project_json(p):
    stats = compute_stats(p["id"])
    members = []
    for m in project_members(p["id"]):
        d = member_json(m)
        d["balance"] = stats[m["id"]][2]
        members.append(d)
    return {
        "id": p["id"],
        "name": p["name"],
        "contact_email": p["contact_email"],
        "default_currency": p["default_currency"],
        "members": members,
    }


def convert(amount, from_currency, to_currency):
    # No exchange-rate source is reachable: amounts convert one to one.
    return money(amount)


# --------------------------------------------------------------------------
# Authentication
# --------------------------------------------------------------------------
def make_token(project):
    payload = base64.urlsafe_b64encode(json.dumps([project["id"]]).encode()).decode().rstrip("=")
    key = SECRET + project["password"].encode()
    sig = hmac.new(key, payload.encode(), hashlib.sha256).digest()[:20]
    return payload + "." + base64.urlsafe_b64encode(sig).decode().rstrip("=")


def read_token(token):
    try:
        payload, sig = token.split(".", 1)
        pad = "=" * (-len(payload) % 4)
        data = json.loads(base64.urlsafe_b64decode(payload + pad))
        pid = data[0]
    except (ValueError, binascii.Error, IndexError, KeyError, TypeError):
        return None
    if not isinstance(pid, str):
        return None
    project = PROJECTS.get(pid)
    if project is None:
        return None
    if not hmac.compare_digest(make_token(project), token):
        return None
    return project


def authenticate(request, project_id):
    """Return the project or raise 401/403.  Unknown projects answer 401 too
    (projects cannot be listed or probed)."""
    pid = project_id.lower()
    header = request.headers.get("authorization", "")
    scheme, _, cred = header.partition(" ")
    scheme = scheme.lower()
    cred = cred.strip()
    authed = None
    if scheme == "basic" and cred:
        try:
            user, _, password = base64.b64decode(cred).decode("utf-8").partition(":")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            user, password = None, None
        if user is not None:
            cand = PROJECTS.get(user.strip().lower())
            if cand is not None and check_password(cand["password"], password):
                authed = cand
    elif scheme == "bearer" and cred:
        authed = read_token(cred)
    if authed is None:
        raise ApiError(401, "unauthorized",
                       "Authentication required: use the project id and private code, or a token.")
    if authed["id"] != pid:
        raise ApiError(403, "forbidden", "These credentials are for another project.")
    return authed


def guard(handler):
    async def wrapped(request):
        try:
            return await handler(request)
        except ApiError as exc:
            return error_response(exc)
    return wrapped


# --------------------------------------------------------------------------
# Projects
# --------------------------------------------------------------------------
def validate_currency(value, fields, name):
    if value is None:
        return None
    code = as_text(value).strip().upper()
    if code not in CURRENCY_SET:
        fields[name] = f"unknown currency code '{code}'"
        return None
    return code


@guard
async def projects_collection(request: Request):
    with_body = await read_body(request)
    with LOCK:
        fields = {}
        name = as_text(first(with_body, "name"))
        raw_id = as_text(first(with_body, "id"))
        password = as_text(first(with_body, "password"))
        email = as_text(first(with_body, "contact_email"))
        if name is None or not name.strip():
            fields["name"] = "required"
        if raw_id is None or not raw_id.strip():
            fields["id"] = "required"
        pid = normalize_project_id(raw_id) if raw_id else ""
        if raw_id and raw_id.strip() and not pid:
            fields["id"] = "must contain at least one letter or digit"
        if password is None or password == "":
            fields["password"] = "required"
        if email is None or not email.strip():
            fields["contact_email"] = "required"
        elif not EMAIL_RE.match(email.strip()):
            fields["contact_email"] = "not a valid email address"
        currency = NO_CURRENCY
        if first(with_body, "default_currency") not in (None, ""):
            currency = validate_currency(first(with_body, "default_currency"), fields,
                                         "default_currency")
        if fields:
            raise invalid(fields)
        if pid in PROJECTS:
            raise ApiError(409, "conflict", f"A project with the identifier '{pid}' already exists.")
        PROJECTS[pid] = {
            "id": pid,
            "name": name.strip(),
            "password": hash_password(password),
            "contact_email": email.strip(),
            "default_currency": currency,
        }
        return ok(pid)


@guard
async def project_item(request: Request):
    project_id = request.path_params["project_id"]
    if request.method == "GET":
        with LOCK:
            project = authenticate(request, project_id)
            return ok(project_json(project))
    if request.method == "DELETE":
        with LOCK:
            project = authenticate(request, project_id)
            pid = project["id"]
            for bid in [b["id"] for b in project_bills(pid)]:
                del BILLS[bid]
            for m in project_members(pid):
                del MEMBERS[m["id"]]
            del PROJECTS[pid]
            return Response(status_code=204)
    # PUT
    body = await read_body(request)
    with LOCK:
        project = authenticate(request, project_id)
        fields = {}
        current = as_text(first(body, "current_password"))
        if current is None or current == "":
            raise invalid({"current_password": "required: give the current private code"})
        if not check_password(project["password"], current):
            raise ApiError(403, "wrong_private_code", "The current private code is incorrect.")
        updates = {}
        name = as_text(first(body, "name"))
        if name is not None:
            if not name.strip():
                fields["name"] = "must not be empty"
            else:
                updates["name"] = name.strip()
        email = as_text(first(body, "contact_email"))
        if email is not None:
            if not EMAIL_RE.match(email.strip()):
                fields["contact_email"] = "not a valid email address"
            else:
                updates["contact_email"] = email.strip()
        password = as_text(first(body, "password"))
        if password not in (None, ""):
            updates["password"] = hash_password(password)
        if first(body, "default_currency") not in (None, ""):
            cur = validate_currency(first(body, "default_currency"), fields, "default_currency")
            if cur:
                updates["default_currency"] = cur
        if fields:
            raise invalid(fields)
        project.update(updates)
        if "default_currency" in updates:
            for b in project_bills(project["id"]):
                b["converted_amount"] = convert(b["amount"], b["original_currency"],
                                                project["default_currency"])
        return ok(project_json(project))


@guard
async def project_token(request: Request):
    with LOCK:
        project = authenticate(request, request.path_params["project_id"])
        return ok({"token": make_token(project)})


@guard
async def statistics(request: Request):
    with LOCK:
        project = authenticate(request, request.path_params["project_id"])
        stats = compute_stats(project["id"])
        out = []
        for m in project_members(project["id"]):
            p, s, bal = stats[m["id"]]
            out.append({"member": member_json(m), "paid": p, "spent": s, "balance": bal})
        return ok(out)


async def currencies(request: Request):
    return ok(CURRENCIES)


# --------------------------------------------------------------------------
# Members
# --------------------------------------------------------------------------
def find_member(project, raw_id):
    mid = parse_int(raw_id)
    m = MEMBERS.get(mid) if mid is not None else None
    if m is None or m["project"] != project["id"]:
        raise ApiError(404, "not_found", "No such member in this project.")
    return m


def name_taken(project, name, exclude=None):
    low = name.lower()
    return any(m["name"].lower() == low and m["activated"] and m["id"] != exclude
               for m in project_members(project["id"]))


def parse_weight(body, fields):
    raw = first(body, "weight")
    if raw is None or (isinstance(raw, str) and raw.strip() == ""):
        return None
    w = parse_number(raw)
    if w is None or w <= 0:
        fields["weight"] = "must be a number greater than zero"
        return None
    return w


@guard
async def members_collection(request: Request):
    project_id = request.path_params["project_id"]
    if request.method == "GET":
        with LOCK:
            project = authenticate(request, project_id)
            return ok([member_json(m) for m in project_members(project["id"])])
    body = await read_body(request)
    with LOCK:
        project = authenticate(request, project_id)
        fields = {}
        name = as_text(first(body, "name"))
        if name is None or not name.strip():
            fields["name"] = "required"
        weight = parse_weight(body, fields)
        if fields:
            raise invalid(fields)
        name = name.strip()
        if name_taken(project, name):
            raise ApiError(409, "conflict", f"This project already has a member named '{name}'.")
        mid = next_id("member")
        MEMBERS[mid] = {"id": mid, "project": project["id"], "name": name,
                        "weight": weight if weight is not None else 1.0, "activated": True}
        return ok(mid)


@guard
async def member_item(request: Request):
    project_id = request.path_params["project_id"]
    raw_mid = request.path_params["member_id"]
    if request.method == "GET":
        with LOCK:
            project = authenticate(request, project_id)
            return ok(member_json(find_member(project, raw_mid)))
    if request.method == "DELETE":
        with LOCK:
            project = authenticate(request, project_id)
            m = find_member(project, raw_mid)
            used = any(m["id"] == b["payer"] or m["id"] in b["owers"]
                       for b in project_bills(project["id"]))
            if used:
                m["activated"] = False      # kept for the bills that name it
            else:
                del MEMBERS[m["id"]]
            return ok("OK")
    body = await read_body(request)
    with LOCK:
        project = authenticate(request, project_id)
        m = find_member(project, raw_mid)
        fields = {}
        updates = {}
        name = as_text(first(body, "name"))
        if name is not None:
            if not name.strip():
                fields["name"] = "must not be empty"
            else:
                updates["name"] = name.strip()
        weight = parse_weight(body, fields)
        if weight is not None:
            updates["weight"] = weight
        raw_act = first(body, "activated")
        if raw_act is not None:
            act = parse_bool(raw_act)
            if act is None:
                fields["activated"] = "must be true or false"
            else:
                updates["activated"] = act
        if fields:
            raise invalid(fields)
        new_name = updates.get("name", m["name"])
        new_act = updates.get("activated", m["activated"])
        if new_act and name_taken(project, new_name, exclude=m["id"]):
            raise ApiError(409, "conflict", f"This project already has a member named '{new_name}'.")
        m.update(updates)
        return ok(member_json(m))


# --------------------------------------------------------------------------
# Bills
# --------------------------------------------------------------------------
BILL_TYPES = {"expense": "Expense", "reimbursement": "Reimbursement"}
URL_RE = re.compile(r"^https?://[^\s/$.?#][^\s]*$", re.IGNORECASE)


def find_bill(project, raw_id):
    bid = parse_int(raw_id)
    b = BILLS.get(bid) if bid is not None else None
    if b is None or b["project"] != project["id"]:
        raise ApiError(404, "not_found", "No such bill in this project.")
    return b


def member_of(project, value):
    mid = parse_int(value)
    if mid is None:
        return None
    m = MEMBERS.get(mid)
    if m is None or m["project"] != project["id"]:
        return None
    return m


def validate_bill(project, body, existing=None):
    fields = {}
    what = as_text(first(body, "what"))
    if what is None or not what.strip():
        fields["what"] = "required"
    payer_raw = first(body, "payer")
    payer = None
    if payer_raw in (None, ""):
        fields["payer"] = "required"
    else:
        payer = member_of(project, payer_raw)
        if payer is None:
            fields["payer"] = "not a member of this project"
    owers_raw = [v for v in body.get("payed_for", []) if v not in (None, "")]
    owers = []
    if not owers_raw:
        fields["payed_for"] = "required: at least one member"
    else:
        for v in owers_raw:
            m = member_of(project, v)
            if m is None:
                fields["payed_for"] = f"'{v}' is not a member of this project"
                break
            if m["id"] not in owers:
                owers.append(m["id"])
    amount_raw = first(body, "amount")
    amount = None
    if amount_raw in (None, ""):
        fields["amount"] = "required"
    else:
        amount = parse_number(amount_raw)
        if amount is None:
            fields["amount"] = "must be a number"
        elif round(amount, 2) == 0:
            fields["amount"] = "must not be zero"

    date_raw = as_text(first(body, "date"))
    if date_raw in (None, ""):
        date = existing["date"] if existing else dt.date.today().isoformat()
    else:
        date = None
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", date_raw.strip()):
            try:
                date = dt.date.fromisoformat(date_raw.strip()).isoformat()
            except ValueError:
                date = None
        if date is None:
            fields["date"] = "must be a date in yyyy-mm-dd format"

    cur_raw = first(body, "original_currency")
    if cur_raw in (None, ""):
        currency = existing["original_currency"] if existing else project["default_currency"]
    else:
        currency = validate_currency(cur_raw, fields, "original_currency")

    link_raw = as_text(first(body, "external_link"))
    if link_raw is None:
        link = existing["external_link"] if existing else ""
    else:
        link = link_raw.strip()
        if link and not URL_RE.match(link):
            fields["external_link"] = "must be an http(s) URL"

    type_raw = as_text(first(body, "bill_type"))
    if type_raw in (None, ""):
        bill_type = existing["bill_type"] if existing else "Expense"
    else:
        bill_type = BILL_TYPES.get(type_raw.strip().lower())
        if bill_type is None:
            fields["bill_type"] = "must be Expense or Reimbursement"
    if fields:
        raise invalid(fields)
    amount = money(amount)
    return {
        "what": what.strip(),
        "payer": payer["id"],
        "owers": owers,
        "amount": amount,
        "date": date,
        "original_currency": currency,
        "converted_amount": convert(amount, currency, project["default_currency"]),
        "external_link": link,
        "bill_type": bill_type,
    }


@guard
async def bills_collection(request: Request):
    project_id = request.path_params["project_id"]
    if request.method == "GET":
        with LOCK:
            project = authenticate(request, project_id)
            bills = sorted(project_bills(project["id"]), key=lambda b: (b["date"], b["id"]))
            return ok([bill_json(b) for b in bills])
    body = await read_body(request)
    with LOCK:
        project = authenticate(request, project_id)
        data = validate_bill(project, body)
        bid = next_id("bill")
        data.update({"id": bid, "project": project["id"],
                     "creation_date": dt.date.today().isoformat()})
        BILLS[bid] = data
        return ok(bid)


@guard
async def bill_item(request: Request):
    project_id = request.path_params["project_id"]
    raw_bid = request.path_params["bill_id"]
    if request.method == "GET":
        with LOCK:
            project = authenticate(request, project_id)
            return ok(bill_json(find_bill(project, raw_bid)))
    if request.method == "DELETE":
        with LOCK:
            project = authenticate(request, project_id)
            b = find_bill(project, raw_bid)
            del BILLS[b["id"]]
            return ok("OK")
    body = await read_body(request)
    with LOCK:
        project = authenticate(request, project_id)
        b = find_bill(project, raw_bid)
        data = validate_bill(project, body, existing=b)
        b.update(data)
        return ok(b["id"])


# --------------------------------------------------------------------------
# App
# --------------------------------------------------------------------------
async def not_found(request, exc):
    status = getattr(exc, "status_code", 404)
    if status == 405:
        return JSONResponse({"status": "error", "code": "method_not_allowed",
                             "message": "This method is not allowed here."}, status_code=405)
    return JSONResponse({"status": "error", "code": "not_found",
                         "message": "Nothing here."}, status_code=status)


def routes():
    P = "/api/projects/{project_id}"
    table = [
        ("/api/currencies", currencies, ["GET"]),
        ("/api/projects", projects_collection, ["POST"]),
        (P, project_item, ["GET", "PUT", "DELETE"]),
        (P + "/token", project_token, ["GET"]),
        (P + "/statistics", statistics, ["GET"]),
        (P + "/members", members_collection, ["GET", "POST"]),
        (P + "/members/{member_id}", member_item, ["GET", "PUT", "DELETE"]),
        (P + "/bills", bills_collection, ["GET", "POST"]),
        (P + "/bills/{bill_id}", bill_item, ["GET", "PUT", "DELETE"]),
    ]
    out = []
    for path, fn, methods in table:
        out.append(Route(path, fn, methods=methods))
        out.append(Route(path + "/", fn, methods=methods))
    return out


app = Starlette(routes=routes(), exception_handlers={404: not_found, 405: not_found})


if __name__ == "__main__":
    import uvicorn
    uvicorn.run(app, host=os.environ.get("HOST", "0.0.0.0"),
                port=int(os.environ.get("PORT", "9203")), log_level="warning")
