"""Domain rules of the order desk, independent of HTTP. Amounts are integer cents."""

import re
import threading
from datetime import datetime, timezone

SKU_RE = re.compile(r"^[A-Z0-9][A-Z0-9-]{1,23}$")
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
TRANSITIONS = {"pending": "paid", "paid": "shipped", "shipped": "delivered"}
STATUSES = ("pending", "paid", "shipped", "delivered", "cancelled")
MAX_LINES = 20
MAX_BATCH = 20


class DomainError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def _now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _money(cents: int) -> float:
    return round(cents / 100, 2)


def _positive_int(value, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


class Store:
    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._products: dict[str, dict] = {}
        self._orders: dict[int, dict] = {}
        self._next_order_id = 1

    # products -----------------------------------------------------------------------------

    def products(self) -> list[dict]:
        with self._lock:
            return [self._product_view(p) for p in sorted(self._products.values(),
                                                          key=lambda p: p["sku"])]

    def add_product(self, data: dict) -> dict:
        sku, name, price, stock = (data.get(k) for k in ("sku", "name", "price", "stock"))
        if not isinstance(sku, str) or not SKU_RE.match(sku):
            raise DomainError(422, "sku must be 2-24 upper-case letters, digits or '-'")
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= 100:
            raise DomainError(422, "name must be a string of 1-100 characters")
        if (not isinstance(price, (int, float)) or isinstance(price, bool)
                or not 0 < price <= 100000):
            raise DomainError(422, "price must be a number greater than 0 and at most 100000")
        if round(price * 100) != round(price * 100, 6):
            raise DomainError(422, "price must have at most 2 decimal places")
        if not _positive_int(stock, 0, 1_000_000):
            raise DomainError(422, "stock must be an integer between 0 and 1000000")
        with self._lock:
            if sku in self._products:
                raise DomainError(409, f"product {sku} already exists")
            product = {"sku": sku, "name": name.strip(), "price_cents": round(price * 100),
                       "stock": stock}
            self._products[sku] = product
            return self._product_view(product)

    @staticmethod
    def _product_view(product: dict) -> dict:
        return {"sku": product["sku"], "name": product["name"],
                "price": _money(product["price_cents"]), "stock": product["stock"]}

    # orders -------------------------------------------------------------------------------

    def place_order(self, data) -> dict:
        if not isinstance(data, dict):
            raise DomainError(422, "each order must be a JSON object")
        email = data.get("customer_email")
        items = data.get("items")
        note = data.get("note")
        if not isinstance(email, str) or not EMAIL_RE.match(email):
            raise DomainError(422, "customer_email must be a valid e-mail address")
        if not isinstance(items, list) or not 1 <= len(items) <= MAX_LINES:
            raise DomainError(422, f"items must be a list of 1-{MAX_LINES} lines")
        if note is not None and (not isinstance(note, str) or len(note) > 500):
            raise DomainError(422, "note must be a string of at most 500 characters")
        wanted: dict[str, int] = {}
        for line in items:
            if not isinstance(line, dict):
                raise DomainError(422, "each item must be an object with sku and quantity")
            sku, quantity = line.get("sku"), line.get("quantity")
            if not isinstance(sku, str) or not _positive_int(quantity, 1, 1000):
                raise DomainError(422, "each item needs a sku and a quantity between 1 and 1000")
            wanted[sku] = wanted.get(sku, 0) + quantity
        with self._lock:
            for sku, quantity in wanted.items():
                product = self._products.get(sku)
                if product is None:
                    raise DomainError(422, f"unknown product {sku}")
                if product["stock"] < quantity:
                    raise DomainError(409, f"insufficient stock for {sku}: "
                                           f"{product['stock']} available, {quantity} requested")
            lines = []
            for sku, quantity in wanted.items():
                product = self._products[sku]
                product["stock"] -= quantity
                lines.append({"sku": sku, "name": product["name"], "quantity": quantity,
                              "unit_price_cents": product["price_cents"]})
            now = _now()
            order = {"id": self._next_order_id, "customer_email": email.lower(), "items": lines,
                     "note": note, "status": "pending", "created_at": now, "updated_at": now}
            self._orders[order["id"]] = order
            self._next_order_id += 1
            return self._order_view(order)

    def place_batch(self, data) -> dict:
        orders = data.get("orders") if isinstance(data, dict) else None
        if not isinstance(orders, list) or not 1 <= len(orders) <= MAX_BATCH:
            raise DomainError(422, f"orders must be a list of 1-{MAX_BATCH} orders")
        results = []
        for index, order in enumerate(orders):
            try:
                results.append({"index": index, "status": 201, "order": self.place_order(order)})
            except DomainError as err:
                results.append({"index": index, "status": err.status, "message": err.message})
        created = sum(1 for r in results if r["status"] == 201)
        return {"created": created, "failed": len(results) - created, "results": results}

    def orders(self, status: str | None, email: str | None) -> list[dict]:
        if status is not None and status not in STATUSES:
            raise DomainError(400, f"status must be one of {', '.join(STATUSES)}")
        with self._lock:
            found = [o for _, o in sorted(self._orders.items())
                     if (status is None or o["status"] == status)
                     and (email is None or o["customer_email"] == email.lower())]
            return [self._order_view(o) for o in found]

    def order(self, order_id: int) -> dict:
        with self._lock:
            return self._order_view(self._find(order_id))

    def advance(self, order_id: int, data) -> dict:
        target = data.get("status") if isinstance(data, dict) else None
        if target not in STATUSES or target == "pending":
            raise DomainError(422, "status must be one of paid, shipped, delivered")
        if target == "cancelled":
            raise DomainError(422, "use POST /orders/<id>/cancel to cancel an order")
        with self._lock:
            order = self._find(order_id)
            if TRANSITIONS.get(order["status"]) != target:
                raise DomainError(409, f"cannot move order {order_id} from "
                                       f"{order['status']} to {target}")
            order["status"] = target
            order["updated_at"] = _now()
            return self._order_view(order)

    def cancel(self, order_id: int) -> dict:
        with self._lock:
            order = self._find(order_id)
            if order["status"] not in ("pending", "paid"):
                raise DomainError(409, f"order {order_id} is {order['status']} "
                                       "and can no longer be cancelled")
            for line in order["items"]:
                product = self._products.get(line["sku"])
                if product is not None:
                    product["stock"] += line["quantity"]
            order["status"] = "cancelled"
            order["updated_at"] = _now()
            return self._order_view(order)

    def _find(self, order_id: int) -> dict:
        order = self._orders.get(order_id)
        if order is None:
            raise DomainError(404, f"order {order_id} not found")
        return order

    @staticmethod
    def _order_view(order: dict) -> dict:
        items = [{"sku": line["sku"], "name": line["name"], "quantity": line["quantity"],
                  "unit_price": _money(line["unit_price_cents"]),
                  "line_total": _money(line["unit_price_cents"] * line["quantity"])}
                 for line in order["items"]]
        total = sum(line["unit_price_cents"] * line["quantity"] for line in order["items"])
        return {"id": order["id"], "customer_email": order["customer_email"], "items": items,
                "total": _money(total), "note": order["note"], "status": order["status"],
                "created_at": order["created_at"], "updated_at": order["updated_at"]}
