"""Only this installation's own host names (docs/hall-safety.md, "Only our own host names").

A web page on the internet can point its own DNS name at the organiser's laptop once it is
loaded (DNS rebinding): the browser then sends that page's requests to the laptop, under
the page's name, and lets the page read the answers, since for the browser it is still the
same site. The laptop would take them for its own tablets', or for itself: the backup (with
password hashes and table codes), a restore, anonymising players. What gives such a request
away is its ``Host``: the attacker's name. So before anything else runs (the CSRF check,
the access check, any view, static files) a request is refused unless its ``Host`` names
this installation:

* an IP address (IPv4, or IPv6 in brackets): a name can be rebound, an address cannot, and
  the hall's Wi-Fi gives the laptop whatever address it likes;
* ``localhost`` and any ``*.localhost``, which browsers keep on the machine itself;
* this machine's names, ``socket.gethostname()`` and ``socket.getfqdn()``, and the short
  name with ``.local`` as mDNS announces it (``laptop.local``);
* the host of ``PUBLIC_URL``, the address printed on the table cards;
* the names in ``HOST_NAMES`` (``SCOREKEEPER_HOST_NAMES=laptop.local,scores.hall``, or a
  list in ``instance/config.py``).

The port is not looked at. Werkzeug's own ``TRUSTED_HOSTS`` matches names and name
suffixes only: it cannot say "any IP address", and its refusal is a bare English 400.
Hence this small check, answering 421 Misdirected Request with a page in German and
English, or the API's error shape, that names the setting to add.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable
from functools import cache
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, render_template, request
from flask_babel import force_locale, get_locale, gettext

from scorekeeper.web.answers import json_error, wants_json

#: The setting that names more host names (``SCOREKEEPER_HOST_NAMES`` in the environment).
SETTING = "HOST_NAMES"
#: 421 Misdirected Request: the server is not the one for this name (RFC 9110, 15.5.20).
STATUS = 421

#: A ``Host`` value: a name or IPv4 address, or an IPv6 address in brackets; a port.
_HOST = re.compile(r"(\[[^\[\]]*\]|[^:\[\]]*)(?::([0-9]*))?")


def host_name(host: str) -> str:
    """The name part of a ``Host`` value: lower case, without port or final dot (an IPv6
    address keeps its brackets); empty when the value is no host at all."""
    found = _HOST.fullmatch(host.strip().lower())
    if found is None:
        return ""
    name = found.group(1)
    return name if name.startswith("[") else name.removesuffix(".")


def is_ip_address(name: str) -> bool:
    """Whether ``name`` (from ``host_name``) is an IPv4 address, or IPv6 in brackets."""
    try:
        if name.startswith("[") and name.endswith("]"):
            ipaddress.IPv6Address(name[1:-1])
        else:
            ipaddress.IPv4Address(name)
    except ValueError:
        return False
    return True


def is_own(name: str, names: frozenset[str]) -> bool:
    """Whether the host name ``name`` (from ``host_name``) is this installation's, with
    ``names`` the names it has besides addresses and ``localhost``."""
    if not name:
        return False
    if name == "localhost" or name.endswith(".localhost"):
        return True
    return name in names or is_ip_address(name)


def names_for(hostname: str, fqdn: str) -> frozenset[str]:
    """A machine's names: its host name, its fully qualified name, and the short name with
    ``.local`` (as mDNS announces it)."""
    short = hostname.split(".", 1)[0]
    named = {host_name(hostname), host_name(fqdn), host_name(f"{short}.local") if short else ""}
    return frozenset(named - {""})


@cache
def machine_names() -> frozenset[str]:
    """This machine's names, asked once per process (``getfqdn`` may ask the network)."""
    return names_for(socket.gethostname(), socket.getfqdn())


def configured_names(value: Any) -> frozenset[str]:
    """The names of the setting: a comma-separated text or a list; a name may be given with
    a port or as an address (``http://laptop.local:5000``), only its name counts."""
    if not value:
        return frozenset()
    listed = isinstance(value, list | tuple | set | frozenset)
    entries: Iterable[Any] = value if listed else str(value).split(",")
    names = set()
    for entry in entries:
        text = str(entry).strip()
        if "://" in text:
            text = urlsplit(text).netloc.rpartition("@")[2]
        names.add(host_name(text))
    return frozenset(names - {""})


def public_url_name(url: Any) -> str:
    """The host name of ``PUBLIC_URL`` (written with or without ``http://``)."""
    if not url:
        return ""
    text = str(url).strip()
    if "://" not in text:
        text = "http://" + text
    try:
        return host_name(urlsplit(text).netloc.rpartition("@")[2])
    except ValueError:
        return ""


def own_names(app: Flask) -> frozenset[str]:
    """The names ``app`` answers to besides addresses and ``localhost``."""
    names = machine_names() | configured_names(app.config.get(SETTING))
    public = public_url_name(app.config.get("PUBLIC_URL"))
    return names | {public} if public else names


def same_origin(origin: str, host: str) -> bool:
    """Whether a browser's ``Origin`` is the address ``host`` (a request's ``Host``, the
    default port dropped): scheme http or https, the same name and port."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path:
        return False
    if parts.username is not None or parts.query or parts.fragment:
        return False
    default = 80 if parts.scheme == "http" else 443
    netloc = parts.netloc.lower()
    if port == default:
        netloc = netloc.rsplit(":", 1)[0]
    return netloc == host.strip().lower()


#: Where ``TrustedFront`` puts the name the front read from the request (nginx's ``$host``).
FRONT_HOST = "scorekeeper.front_host"
#: An absolute request target (``GET http://name/path HTTP/1.1``).
_ABSOLUTE = re.compile(r"[a-z][a-z0-9+.-]*://", re.IGNORECASE)


def asked_names(environ: dict[str, Any]) -> list[str]:
    """Every name a request is addressed to, each of which must be this installation's.

    * its ``Host``: a request without one, or with an empty one, is addressed to nobody
      (``""``), where Werkzeug would take the server's own name instead;
    * the name of an absolute request line (``GET http://rebind.example/backup``), which a
      server takes over ``Host`` (RFC 9112, 3.2.2): served beside a local ``Host``, it
      would answer a request for another site;
    * the name the front read from the request (``$host``: the request line's name when
      there is one, else the ``Host``'s), since the front hands the workers a plain path.
    """
    names = [host_name(environ.get("HTTP_HOST", ""))]
    target = environ.get("RAW_URI") or environ.get("REQUEST_URI") or ""
    if _ABSOLUTE.match(target):
        try:
            authority = urlsplit(target).netloc.rpartition("@")[2]
        except ValueError:
            authority = ""
        names.append(host_name(authority))
    if FRONT_HOST in environ:
        names.append(host_name(environ[FRONT_HOST]))
    return names


def refusal(name: str) -> Response:
    """The answer to a request under a foreign name: the API's error shape, else a page in
    German and English (the request's language first); both name the setting to add."""
    shown = name or "?"
    if wants_json():
        message = gettext(
            "The name %(name)s is not one of this installation's addresses, so nothing was "
            "read or saved. If this laptop is reached by that name on purpose, add it to the "
            "setting SCOREKEEPER_HOST_NAMES (or HOST_NAMES in instance/config.py) and start "
            "Scorekeeper again.",
            name=shown,
        )
        return json_error(STATUS, "host", message)
    texts = []
    first = str(get_locale() or "en")
    for language in sorted(("de", "en"), key=lambda language: language != first):
        with force_locale(language):
            texts.append(
                {
                    "lang": language,
                    "title": gettext("Not an address of this installation"),
                    "refused": gettext(
                        "The name %(name)s is not one of this installation's addresses, so "
                        "nothing was shown or saved.",
                        name=shown,
                    ),
                    "add": gettext(
                        "If this laptop is reached by that name on purpose, add it to the "
                        "setting SCOREKEEPER_HOST_NAMES, or to HOST_NAMES in "
                        "instance/config.py, and start Scorekeeper again:"
                    ),
                }
            )
    page = render_template("errors/host.html", texts=texts, name=name or "laptop.local")
    return Response(page, STATUS, mimetype="text/html")


def register(app: Flask) -> None:
    """Check every request's host name first, before every other check of ``app``; the
    names are worked out once, now."""
    names = own_names(app)

    def only_own_host_names() -> Response | None:
        for name in asked_names(request.environ):
            if not is_own(name, names):
                return refusal(name)
        return None

    # Flask runs them in this order, the CSRF check and the access check among them.
    app.before_request_funcs.setdefault(None, []).insert(0, only_own_host_names)
