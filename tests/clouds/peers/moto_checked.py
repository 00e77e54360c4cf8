"""moto's server, checked against botocore's model of each service and paged as AWS pages.

moto takes and ignores any parameter it does not know. This wraps moto's WSGI app (built as
``moto.server.main`` builds it) in a middleware that checks each Query-protocol request
(``Action`` and ``Version``; the service from the SigV4 scope in ``Authorization``) against
``botocore.session.get_session().get_service_model(service)``: its ``protocol``,
``api_version``, ``operation_names`` and ``operation_model(action).input_shape``, whose shapes'
``members``, ``serialization``, ``required_members``, ``type_name``, ``enum`` and ``metadata``
are walked by the rules of ``botocore.serialize.EC2Serializer`` / ``QuerySerializer`` (EC2
lists ``Name.N``, Query lists ``Name.member.N``). An unknown parameter, a missing required one
or a value of the wrong type gets AWS's answer (HTTP 400, ``UnknownParameter`` /
``MissingParameter`` / ``InvalidParameterValue`` in the protocol's XML error) and a line in the
file named by ``MOTO_CHECKED_VIOLATIONS``.

The model is botocore's service of the scope's name; where botocore names the model otherwise
(``elasticloadbalancing`` signs for both ``elbv2`` and ``elb``), the one whose ``api_version``
is the request's ``Version``.

Sharing: moto takes ``RestorableBy.N`` of DescribeSnapshots and ignores it, answering every
snapshot. The launcher keeps those AWS would answer: ``all`` the snapshots whose
``createVolumePermission`` holds the group ``all``, an account id those that name the account,
``self`` every one (moto holds one account's), before cutting the page.

Paging: moto answers DescribeVolumes, DescribeSnapshots and DescribeImages whole. Where the
model's input has ``MaxResults`` and ``NextToken`` and its output ``NextToken`` (EC2), or its
input ``PageSize`` and ``Marker`` and its output ``NextMarker`` (Elastic Load Balancing), the
launcher answers in pages of that many items, or of ``MOTO_CHECKED_PAGE_SIZE`` (default 1) when
the request sends none, as AWS may. A token is good once, for the same other parameters. Each
page served is a line ``Action N`` in the file named by ``MOTO_CHECKED_PAGES``.

Each request in the model's terms is a line ``service Action k=v ...`` (its parameters in the
order sent) in the file named by ``MOTO_CHECKED_CALLS``.

``--zygote SOCKET`` loads all this once and forks a server for each request on a Unix socket
(see ``zygote``): the tests start dozens, and loading moto is most of what each costs.
"""

import argparse
import io
import math
import os
import re
import secrets
import threading
import time
import xml.etree.ElementTree as ET
from urllib.parse import parse_qsl, urlencode
from xml.sax.saxutils import escape

import botocore.session
from moto.moto_server.werkzeug_app import DomainDispatcherApplication as Dispatcher
from moto.moto_server.werkzeug_app import MotoRequestHandler, create_backend_app
from werkzeug.serving import run_simple

SCOPE = re.compile(r"Credential=[^/]*/\d{8}/([^/]*)/([^/]+)/aws4_request")
SESSION = botocore.session.get_session()
LOCK = threading.Lock()
TOKENS = {}  # token -> (action, other params, offset, page number)
# SigV4 names botocore does not name a model by: the candidates, told apart by Version.
SIGNED_AS = {"elasticloadbalancing": ("elbv2", "elb")}
# (size in, token in, token out) of the two paging styles.
EC2_PAGING = ("MaxResults", "NextToken", "NextToken")
MARKER_PAGING = ("PageSize", "Marker", "NextMarker")


class Refusal(Exception):
    """``Refusal(code, message)``: the error AWS answers."""


def serial_name(shape, default, protocol):
    if protocol == "ec2":
        if "queryName" in shape.serialization:
            return shape.serialization["queryName"]
        name = shape.serialization.get("name")
        return name[0].upper() + name[1:] if name else default
    return shape.serialization.get("name", default)


def tree(pairs):
    """``{"Filter": {"1": {"Name": "x"}}}`` from ``[("Filter.1.Name", "x")]``."""
    root = {}
    for key, value in pairs:
        *path, last = key.split(".")
        node = root
        for part in path:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise unknown(key)
        node[last] = value
    return root


def unknown(name):
    return Refusal("UnknownParameter", f"The parameter {name} is not recognized")


def check(node, shape, path, protocol):
    """Raises the Refusal AWS answers when ``node`` (a tree from ``tree``) breaks ``shape``."""
    kind, pre = shape.type_name, f"{path}." if path else ""
    if kind == "structure":
        if not isinstance(node, dict):
            raise unknown(f"{path} without members")
        members = {serial_name(s, n, protocol): s for n, s in shape.members.items()}
        for key, sub in node.items():
            if key not in members:
                raise unknown(pre + key)
            check(sub, members[key], pre + key, protocol)
        for name in shape.required_members:
            if serial_name(shape.members[name], name, protocol) not in node:
                missing = pre + serial_name(shape.members[name], name, protocol)
                raise Refusal("MissingParameter", f"The request must contain the parameter {missing}")
    elif kind in ("list", "map"):
        if node == "" and protocol == "query":
            return  # an empty list
        if protocol == "query" and not shape.serialization.get("flattened"):
            wrapper = "entry" if kind == "map" else shape.member.serialization.get("name", "member")
            if not isinstance(node, dict) or set(node) != {wrapper}:
                raise unknown(f"{path} without {path}.{wrapper}.N")
            node, path = node[wrapper], f"{path}.{wrapper}"
        if not isinstance(node, dict) or not all(k.isdigit() and k != "0" for k in node):
            raise unknown(f"{path} without {path}.N, N from 1")
        for n, element in node.items():
            if kind == "list":
                check(element, shape.member, f"{path}.{n}", protocol)
            elif not isinstance(element, dict) or set(element) != {"key", "value"}:
                raise unknown(f"{path}.{n}")
    elif isinstance(node, dict):
        raise unknown(f"{pre}{next(iter(node))}")
    elif not valid(node, shape):
        raise Refusal("InvalidParameterValue", f"Value ({node}) for parameter {path} is invalid")


def valid(value, shape):
    kind, meta = shape.type_name, shape.metadata
    if kind in ("integer", "long"):
        whole = re.fullmatch(r"-?\d+", value)
        return whole and meta.get("min", -math.inf) <= int(value) <= meta.get("max", math.inf)
    if kind in ("float", "double"):
        return re.fullmatch(r"-?\d+(\.\d+)?([eE][-+]?\d+)?", value)
    if kind == "boolean":
        return value in ("true", "false")
    if kind == "timestamp":
        return re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)", value)
    return kind != "string" or not shape.enum or value in shape.enum


def error_body(protocol, code, message):
    message, request = escape(message), secrets.token_hex(8)
    if protocol == "ec2":
        error = f"<Errors><Error><Code>{code}</Code><Message>{message}</Message></Error></Errors>"
        return f'<?xml version="1.0" encoding="UTF-8"?><Response>{error}<RequestID>{request}</RequestID></Response>'
    error = f"<Error><Type>Sender</Type><Code>{code}</Code><Message>{message}</Message></Error>"
    return f"<ErrorResponse>{error}<RequestId>{request}</RequestId></ErrorResponse>"


def model_for(service, version):
    """botocore's model of the service signed as ``service`` that speaks ``version``."""
    available = SESSION.get_available_services()
    names = [n for n in SIGNED_AS.get(service, (service,)) if n in available]
    models = [SESSION.get_service_model(n) for n in names]
    if not models:
        return None
    return next((m for m in models if m.api_version == version), models[0])


def paged(operation):
    """``(list name, paging style)`` of a listing answered in pages; ``None`` for the rest."""
    ins = operation.input_shape.members if operation.input_shape else {}
    outs = operation.output_shape.members if operation.output_shape else {}
    lists = [n for n, s in outs.items() if s.type_name == "list"]
    for style in (EC2_PAGING, MARKER_PAGING):
        size, token_in, token_out = style
        if {size, token_in} <= set(ins) and token_out in outs and len(lists) == 1:
            return outs[lists[0]].serialization.get("name", lists[0]), style
    return None


def append(var, line):
    path = os.environ.get(var)
    if path:
        with LOCK, open(path, "a", encoding="utf-8") as f:
            f.write(line.replace("\n", " ") + "\n")


def named(key):
    """Whether ``key`` names the things asked for (ids, ARNs, names) rather than a filter."""
    first = key.split(".")[0]
    return first.endswith("Id") or first.endswith("Arns") or first == "Names"


def restorable(region, params):
    """``keep(item)`` for DescribeSnapshots' ``RestorableBy.N`` as AWS reads it; ``None`` without."""
    asked = {v for k, v in params if k.startswith("RestorableBy.")}
    if not asked:
        return None
    from moto.core import DEFAULT_ACCOUNT_ID
    from moto.ec2.models import ec2_backends

    snapshots = ec2_backends[DEFAULT_ACCOUNT_ID][region].snapshots

    def keep(item):
        snap = snapshots.get(item.findtext("{*}snapshotId") or item.findtext("snapshotId"))
        if snap is None:
            return False
        granted = set(snap.create_volume_permission_userids)
        if "all" in snap.create_volume_permission_groups:
            granted.add("all")
        return "self" in asked or bool(asked & granted)

    return keep


def one_page(app, environ, body, action, version, params, listing, region):
    """The page the request asks for, cut from moto's whole answer."""
    list_name, (size_in, token_in, token_out) = listing
    rest = [(k, v) for k, v in params if k not in (size_in, token_in)]
    given = dict(params)
    if size_in not in given and any(named(k) for k, _ in rest):
        # MaxResults' documentation: not with the ids; AWS answers those whole.
        return forward(app, environ, body)
    size = int(given.get(size_in, os.environ.get("MOTO_CHECKED_PAGE_SIZE", "1")))
    offset, page = 0, 1
    if token_in in given:
        earned = TOKENS.pop(given[token_in], None)  # dict.pop is atomic
        if earned is None or earned[:2] != (action, rest):
            raise Refusal("InvalidParameterValue", f"The {token_in} is not good for this request")
        offset, page = earned[2], earned[3]
    if "INITIAL_NO_AUTH_ACTION_COUNT" not in os.environ:
        # moto checks signatures over the body when that is set: then it goes as it came.
        whole = [("Action", action), ("Version", version)] + rest
        body = urlencode(whole).encode()
    status, headers, out = forward(app, environ, body)
    if not status.startswith("200"):
        return status, headers, out
    found = re.search(r'xmlns="([^"]+)"', out.decode())
    namespace = found.group(1) if found else ""
    if namespace:
        ET.register_namespace("", namespace)
    root, ns = ET.fromstring(out), "{%s}" % namespace if namespace else ""
    # EC2 answers hold the list and nextToken at the top; Query answers in <ActionResult>.
    parent = root.find(f"{ns}{action}Result")
    parent = root if parent is None else parent
    token_tag = token_out[0].lower() + token_out[1:] if parent is root else token_out
    holder = parent.find(ns + list_name)
    items = list(holder) if holder is not None else []
    keep = restorable(region, rest) if action == "DescribeSnapshots" else None
    if keep is not None:
        for item in [i for i in items if not keep(i)]:
            holder.remove(item)
        items = list(holder)
    for old in parent.findall(ns + token_tag):
        parent.remove(old)
    for item in items[:offset] + items[offset + size :]:
        holder.remove(item)
    if offset + size < len(items):
        token = secrets.token_urlsafe(12)
        TOKENS[token] = (action, rest, offset + size, page + 1)
        ET.SubElement(parent, ns + token_tag).text = token
    append("MOTO_CHECKED_PAGES", f"{action} {page}")
    return status, headers, ET.tostring(root, encoding="utf-8", xml_declaration=True)


def forward(app, environ, body):
    environ = dict(environ, **{"wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body))})
    started = {}
    chunks = app(environ, lambda status, headers, exc=None: started.update(s=status, h=headers))
    out = b"".join(chunks)
    getattr(chunks, "close", lambda: None)()
    return started["s"], started["h"], out


def answer(app, environ, body, params):
    """moto's answer, or AWS's refusal of a request botocore's model does not allow."""
    fields = dict(params)
    scope = SCOPE.search(environ.get("HTTP_AUTHORIZATION", ""))
    model = scope and "Action" in fields and model_for(scope.group(2), fields.get("Version"))
    if not model:
        return forward(app, environ, body)
    region, service, action = scope.group(1), scope.group(2), fields["Action"]
    try:
        if fields.get("Version") != model.api_version:
            raise Refusal("NoSuchVersion", f"{service} speaks Version {model.api_version}")
        if action not in model.operation_names:
            raise Refusal("InvalidAction", f"The action {action} is not valid")
        operation = model.operation_model(action)
        args = [(k, v) for k, v in params if k not in ("Action", "Version")]
        append("MOTO_CHECKED_CALLS", " ".join([f"{service} {action}"] + [f"{k}={v}" for k, v in args]))
        if operation.input_shape is not None:
            check(tree(args), operation.input_shape, "", model.protocol)
        elif args:
            raise unknown(args[0][0])
        listing = paged(operation)
        if listing:
            return one_page(app, environ, body, action, fields["Version"], args, listing, region)
        return forward(app, environ, body)
    except Refusal as refusal:
        code, message = refusal.args
        append("MOTO_CHECKED_VIOLATIONS", f"{service} {action}: {code}: {message}")
        out = error_body(model.protocol, code, message).encode()
        return "400 Bad Request", [("Content-Type", "text/xml")], out


def middleware(app):
    def checked(environ, start_response):
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length) if length else b""
        params = parse_qsl(environ.get("QUERY_STRING", ""), keep_blank_values=True)
        if environ.get("REQUEST_METHOD") == "POST":
            params += parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)
        status, headers, out = answer(app, environ, body, params)
        headers = [(k, v) for k, v in headers if k.lower() != "content-length"]
        start_response(status, headers + [("Content-Length", str(len(out)))])
        return [out]

    return checked


def serve(host, port):
    os.environ.setdefault("MOTO_PORT", str(port))
    app = middleware(Dispatcher(create_backend_app))
    run_simple(host, port, app, threaded=True, request_handler=MotoRequestHandler)


def warm():
    """What every server loads before its first answer, loaded once: moto's EC2 and Elastic
    Load Balancing and botocore's models of them (about 1.2 s of CPU a server otherwise)."""
    import moto.ec2.models  # noqa: F401
    import moto.ec2.responses  # noqa: F401
    import moto.elb.models  # noqa: F401
    import moto.elbv2.models  # noqa: F401
    import moto.elbv2.responses  # noqa: F401

    for service in ("ec2", "elbv2", "elb"):
        SESSION.get_service_model(service)


def forked_server(host, port, env):
    """The child: this request's environment, moto's settings read from it again, a fresh
    random state, and a server until killed or orphaned."""
    import importlib
    import random

    import moto.settings
    from moto.moto_api._internal import mock_random

    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    os.environ.update(env)
    importlib.reload(moto.settings)
    random.seed()
    mock_random.seed()
    zygote = os.getppid()

    def orphaned():
        while os.getppid() == zygote:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=orphaned, daemon=True).start()
    serve(host, port)
    os._exit(0)


def zygote(path):
    """Loads moto once, then forks a server for each `{"start": ...}` line on the Unix socket at
    `path` and answers its pid; `{"stop": PID}` kills and reaps one. A test binary starts dozens
    of servers: each costs a fork, not an interpreter loading moto. It exits, stopping its
    servers, once the process that started it is gone."""
    import json
    import signal
    import socket

    warm()
    parent = os.getppid()
    children = set()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path + ".tmp")
    os.rename(path + ".tmp", path)
    listener.listen(64)
    listener.settimeout(1)
    while os.getppid() == parent:
        try:
            conn, _ = listener.accept()
        except socket.timeout:
            continue
        with conn, conn.makefile("rw") as stream:
            request = json.loads(stream.readline())
            if "start" in request:
                start = request["start"]
                pid = os.fork()
                if pid == 0:
                    listener.close()
                    forked_server(start["host"], start["port"], start["env"])
                children.add(pid)
                stream.write(json.dumps({"pid": pid}) + "\n")
            elif "stop" in request:
                pid = request["stop"]
                if pid in children:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    children.discard(pid)
                stream.write(json.dumps({"stopped": pid}) + "\n")
    for pid in children:
        os.kill(pid, signal.SIGKILL)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("-H", "--host", default="127.0.0.1")
    parser.add_argument("-p", "--port", type=int)
    parser.add_argument("--zygote", metavar="SOCKET", help="fork servers asked for on SOCKET")
    args = parser.parse_args()
    if args.zygote:
        zygote(args.zygote)
    elif args.port is None:
        parser.error("--port or --zygote")
    else:
        serve(args.host, args.port)
