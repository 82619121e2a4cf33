"""HTTP layer of the order desk (Flask)."""

from http import HTTPStatus

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from .store import DomainError, Store


def _error(status: int, message: str):
    body = {"status": status, "error": HTTPStatus(status).phrase, "message": message,
            "path": request.path}
    return jsonify(body), status


def _json_body():
    data = request.get_json(silent=True)
    if data is None:
        raise DomainError(400, "request body must be valid JSON")
    return data


def create_app() -> Flask:
    app = Flask(__name__)
    store = Store()

    @app.errorhandler(DomainError)
    def _domain_error(err: DomainError):
        return _error(err.status, err.message)

    @app.errorhandler(HTTPException)
    def _http_error(err: HTTPException):
        return _error(err.code or 500, err.description or "")

    @app.get("/health")
    def health():
        return jsonify({"status": "UP"})

    @app.get("/products")
    def list_products():
        return jsonify(store.products())

    @app.post("/products")
    def add_product():
        data = _json_body()
        if not isinstance(data, dict):
            raise DomainError(400, "request body must be a JSON object")
        return jsonify(store.add_product(data)), 201

    @app.get("/orders")
    def list_orders():
        return jsonify(store.orders(request.args.get("status"),
                                    request.args.get("customer_email")))

    @app.post("/orders")
    def place_order():
        data = _json_body()
        if not isinstance(data, dict):
            raise DomainError(400, "request body must be a JSON object")
        order = store.place_order(data)
        return jsonify(order), 201, {"Location": f"/orders/{order['id']}"}

    @app.post("/orders/batch")
    def place_batch():
        data = _json_body()
        if not isinstance(data, dict):
            raise DomainError(400, "request body must be a JSON object")
        return jsonify(store.place_batch(data))

    @app.get("/orders/<int:order_id>")
    def get_order(order_id: int):
        return jsonify(store.order(order_id))

    @app.patch("/orders/<int:order_id>/status")
    def advance(order_id: int):
        return jsonify(store.advance(order_id, _json_body()))

    @app.post("/orders/<int:order_id>/cancel")
    def cancel(order_id: int):
        return jsonify(store.cancel(order_id))

    return app
