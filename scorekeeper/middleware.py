"""What wraps the app below Flask: the health check, request ids and the proxy's headers."""

from __future__ import annotations

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from .request_ids import request_id
from .web import health


class RequestId:
    """Every answer carries ``X-Request-Id``: the proxy's when it sent a sane one, else a new one.

    The access log (``scorekeeper serve``) prints it, so one line per request can be
    matched with the proxy's log and with what a user reports.
    """

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        rid = environ["HTTP_X_REQUEST_ID"] = request_id(environ)

        def start(status, headers, exc_info=None):
            headers = [(k, v) for k, v in headers if k.lower() != "x-request-id"]
            headers.append(("X-Request-Id", rid))
            return start_response(status, headers, exc_info)

        return self.wsgi_app(environ, start)


def init_app(app: Flask) -> None:
    proxies = int(app.config.get("PROXY_FIX") or 0)
    if proxies > 0:
        # Trust X-Forwarded-For/-Proto/-Host/-Port/-Prefix from that many proxies: links and
        # QR codes (url_for(..., _external=True)) then carry the public address.
        # (Flask's way to wrap an app in WSGI middleware, though it types wsgi_app as a method.)
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_port=proxies, x_prefix=proxies
        )
    health.init_app(app)
    app.wsgi_app = RequestId(app.wsgi_app)  # type: ignore[method-assign]
