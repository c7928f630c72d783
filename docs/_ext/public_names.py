"""Cross-references by object, not by spelling: a name a docstring uses resolves to the page of
the object it names, wherever that object is documented.

The docstrings name objects as a reader of ``help()`` sees them: relative to the module that
defines them (``evaluate`` in ``clusteragree.indices._registry``), or by the path of the module
that defines them (``clusteragree.intervals.confidence_interval``), while the API reference
documents each object once under its public name (``clusteragree.confidence_interval``). When
Sphinx finds no target for a Python reference, ``resolve`` imports the name (as written, then
relative to the page's module and to the module of the docstring it comes from) and links to
the documented entry of the *same object*, if there is one. Anything else stays unresolved,
and with ``nitpicky`` and ``-W`` fails the build.
"""

from __future__ import annotations

import importlib
import re

from sphinx.util.nodes import make_refnode

_DOCSTRING_OF = re.compile(r"docstring of ([\w.]+)")


def import_name(name: str):
    """The object a dotted name denotes (a module, or an attribute path inside one), or None."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        except Exception:  # noqa: BLE001 - a name is not worth failing the build over
            return None
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return None
        return obj
    return None


def _documented(app, domain) -> dict[int, str]:
    """id of each documented object -> its documented name (built once per build)."""
    cache = getattr(app, "_public_names_cache", None)
    if cache is None or cache[0] != len(domain.objects):
        found: dict[int, str] = {}
        for fullname, entry in domain.objects.items():
            if entry.aliased:
                continue
            obj = import_name(fullname)
            if obj is not None and not isinstance(obj, (int, float, str, bool, type(None))):
                found.setdefault(id(obj), fullname)
        cache = (len(domain.objects), found)
        app._public_names_cache = cache
    return cache[1]


def _contexts(node) -> list[str]:
    """The modules (and classes) a reference's name may be relative to, nearest first."""
    out = []
    for key in ("py:class", "py:module"):
        if node.get(key):
            out.append(node["py:module"] + "." + node["py:class"] if key == "py:class"
                       and node.get("py:module") else node[key])
    current = node
    while current is not None:
        match = _DOCSTRING_OF.search(current.source or "") if current.source else None
        if match:
            parts = match.group(1).split(".")
            out += [".".join(parts[:cut]) for cut in range(len(parts) - 1, 0, -1)]
            break
        current = current.parent
    return out


def resolve(app, env, node, contnode):
    """``missing-reference`` handler: link a Python reference to the documented same object."""
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip(".~")
    domain = env.get_domain("py")
    documented = _documented(app, domain)
    for candidate in [target] + [f"{ctx}.{target}" for ctx in _contexts(node)]:
        obj = import_name(candidate)
        if obj is None or isinstance(obj, (int, float, str, bool, type(None))):
            continue
        fullname = documented.get(id(obj))
        if fullname is not None:
            entry = domain.objects[fullname]
            return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id,
                                contnode, fullname)
    return None


def setup(app):
    """Register the resolver of references by object."""
    app.connect("missing-reference", resolve)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
