"""The package's layout rules, read from its source with ``ast`` and from its registry.

* No private name crosses a file: a name with a leading underscore defined in one module of
  ``clusteragree`` is used in that module only (``from .mod import _name`` or ``mod._name``
  elsewhere fails). Private modules (``_validate``, ``_moments``, ...) may be imported by name.
* Wings (``wing``): each subpackage (``indices/``, ``inputs/``, ``nulls/``, ``studies/``,
  ``reports/``, ``_moments/``) is a wing; the public top-level modules (``tables``,
  ``inference``, ``intervals``, ...) are the core wing; the private top-level modules
  (``_validate``, ``_docs``, ``_display``, ``_memory``, ``_version``) are the helpers, the
  floor that every wing may use. A wing's private modules (a leading underscore below the
  wing: ``nulls._methods``, ``indices._registry``) are imported inside that wing only; the
  others use the wing's public modules (``clusteragree.nulls``, ``clusteragree.indices``).
* Layers (``LAYERS``): no module imports one of a higher layer (command line -> studies and
  reports -> inference -> nulls -> indices -> tables and inputs -> helpers). Every module has
  its layer; a new module or wing must be placed in ``LAYERS``.
* Every registered index is exactly one of the two record types, ``TableIndex`` or
  ``PairIndex``, with the fields of its kind set consistently.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

import clusteragree as ca
from clusteragree.inputs import KINDS
from clusteragree.indices import REGISTRY, STATISTICS, Index, PairIndex, TableIndex

PACKAGE = Path(ca.__file__).resolve().parent
ROOT = PACKAGE.name


def _modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package."""
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _source_of(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The absolute module an ``ImportFrom`` reads from."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if path.name != "__init__.py":
        base = base[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module: str, path: Path):
    """(line, source module, imported name, alias) of every import of a package module."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            source = _source_of(module, path, node)
            if source == ROOT or source.startswith(ROOT + "."):
                for alias in node.names:
                    yield node.lineno, source, alias.name, alias.asname or alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MODULES:
                    yield node.lineno, alias.name, None, alias.asname or alias.name


def private_names_crossing_files() -> list[str]:
    """Every use, in one module of the package, of a private name of another module."""
    found = []
    for module, path in sorted(MODULES.items()):
        where = path.relative_to(PACKAGE.parent)
        bound = {}  # local name -> package module it stands for
        for line, source, name, local in _imports(module, path):
            if name is None:
                bound[local] = source
            elif f"{source}.{name}" in MODULES:
                bound[local] = f"{source}.{name}"  # a module: its attributes are checked below
            elif _private(name):
                found.append(f"{where}:{line}: from {source} import {name}")
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in bound and _private(node.attr)):
                found.append(f"{where}:{node.lineno}: {bound[node.value.id]}.{node.attr}")
    return found


def test_the_package_is_found():
    assert f"{ROOT}.indices._registry" in MODULES and f"{ROOT}.nulls.engine" in MODULES


def test_no_private_name_crosses_a_file():
    crossing = private_names_crossing_files()
    assert not crossing, ("private names used from another module (make the name public or "
                          "move the code to where it is used):\n" + "\n".join(crossing))


def test_the_check_sees_a_crossing(tmp_path, monkeypatch):
    """The checker itself: both forms of a crossing are reported."""
    pkg = tmp_path / ROOT
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("_x = 1\n")
    (pkg / "b.py").write_text("from .a import _x\nfrom . import a\ny = a._x + _x\n")
    monkeypatch.setitem(globals(), "PACKAGE", pkg)
    monkeypatch.setitem(globals(), "MODULES", _modules())
    assert private_names_crossing_files() == [f"{ROOT}/b.py:1: from {ROOT}.a import _x",
                                              f"{ROOT}/b.py:3: {ROOT}.a._x"]


#: The layers, lowest first: the top-level module or the subpackage (a wing) -> its layer. The
#: package's face (``clusteragree/__init__.py``, lazy public names) stands above them all.
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("helpers", frozenset({"_validate", "_docs", "_display", "_memory", "_version",
                           "_moments"})),
    ("tables and inputs", frozenset({"tables", "sparse_tables", "datasets", "inputs"})),
    ("indices", frozenset({"indices"})),
    ("nulls", frozenset({"nulls"})),
    ("intervals", frozenset({"intervals"})),
    ("inference", frozenset({"inference"})),
    ("studies and reports", frozenset({"studies", "reports"})),
    ("command line", frozenset({"cli", "__main__"})),
)



def _top(module: str) -> str | None:
    """The top-level module or subpackage a module belongs to (None: the package's face)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def wing(module: str) -> str:
    """The wing of a module: its subpackage, "helpers" or "core" (top-level modules)."""
    top = _top(module)
    if top is None:
        return "core"
    if (PACKAGE / top).is_dir():
        return top
    return "helpers" if _private(top) else "core"


def layer(module: str) -> int:
    """The layer of a module (an index into ``LAYERS``; the face: above them all)."""
    top = _top(module)
    if top is None:
        return len(LAYERS)
    for level, (_, members) in enumerate(LAYERS):
        if top in members:
            return level
    raise KeyError(f"{module} has no layer: place {top!r} in LAYERS")


def _layer_name(module: str) -> str:
    level = layer(module)
    return LAYERS[level][0] if level < len(LAYERS) else "the package's face"


def _targets(module: str, path: Path):
    """(line, module imported) of every import of a package module: ``from a import b`` reads
    module ``a.b`` when ``b`` is a module, else ``a``."""
    for line, source, name, _ in _imports(module, path):
        if name is not None and f"{source}.{name}" in MODULES:
            yield line, f"{source}.{name}"
        else:
            yield line, source


def private_modules_of_other_wings() -> list[str]:
    """Every import, by a module of one wing, of a private module of another wing."""
    found = []
    for module, path in sorted(MODULES.items()):
        for line, target in _targets(module, path):
            below = target.split(".")[2:]  # the path below the wing's folder
            if (wing(target) not in ("core", "helpers", wing(module))
                    and any(_private(part) for part in below)):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {target}")
    return found


def imports_up_a_layer() -> list[str]:
    """Every import of a module of a higher layer than the importer's."""
    found = []
    for module, path in sorted(MODULES.items()):
        for line, target in _targets(module, path):
            if layer(target) > layer(module):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {target} "
                             f"({_layer_name(module)} imports {_layer_name(target)})")
    return found


def _in(found: list[str], files) -> list[str]:
    return [f for f in found if f.split(":")[0] in files]


def test_every_module_has_a_layer():
    for module in MODULES:
        layer(module)
    assert {top for _, members in LAYERS for top in members} <= {_top(m) for m in MODULES}


def test_no_wing_imports_a_private_module_of_another():
    found = private_modules_of_other_wings()
    assert not found, ("import these from the wing's public modules (e.g. clusteragree.nulls, "
                       "clusteragree.indices) instead:\n" + "\n".join(found))


def test_no_import_runs_up_a_layer():
    found = imports_up_a_layer()
    assert not found, "imports from a lower layer to a higher one:\n" + "\n".join(found)


def test_the_checks_see_a_private_module_and_an_arrow_up(tmp_path, monkeypatch):
    """The checkers themselves: a private module of another wing, an import up a layer, and
    what is allowed (a wing's own private module, the helpers, the public face of a wing)."""
    pkg = tmp_path / ROOT
    (pkg / "nulls").mkdir(parents=True)
    (pkg / "indices").mkdir()
    for init in ("__init__.py", "nulls/__init__.py", "indices/__init__.py"):
        (pkg / init).write_text("")
    files = {"_validate.py": "",
             "nulls/_methods.py": "from .. import _validate\n",
             "nulls/engine.py": "from ._methods import get\nfrom ..indices import a\n",
             "indices/a.py": "from ..nulls import _methods\nfrom .. import _validate\n",
             "inference.py": "from .nulls._methods import get\nfrom .nulls import engine\n"}
    for name, text in files.items():
        (pkg / name).write_text(text)
    monkeypatch.setitem(globals(), "PACKAGE", pkg)
    monkeypatch.setitem(globals(), "MODULES", _modules())
    assert private_modules_of_other_wings() == [
        f"{ROOT}/indices/a.py:1: {ROOT}.nulls._methods",
        f"{ROOT}/inference.py:1: {ROOT}.nulls._methods"]
    assert imports_up_a_layer() == [
        f"{ROOT}/indices/a.py:1: {ROOT}.nulls._methods (indices imports nulls)"]


# -- the two kinds of index -----------------------------------------------------------------------

def _own_fields(cls) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)} - {f.name for f in dataclasses.fields(Index)}


def test_the_two_record_types_share_the_base_fields_only():
    assert issubclass(TableIndex, Index) and issubclass(PairIndex, Index)
    assert _own_fields(TableIndex) and _own_fields(PairIndex)
    assert not _own_fields(TableIndex) & _own_fields(PairIndex)
    assert {"statistic", "state", "linear"} <= _own_fields(TableIndex)
    assert {"representation", "kinds", "pair_mean"} <= _own_fields(PairIndex)
    with pytest.raises(TypeError, match="TableIndex or a PairIndex"):
        Index(name="bare", func=len, family="x", kind="similarity", range=(0.0, 1.0),
              optimum=1.0, symmetric=True, reference="", title="", inputs=("table",))


def test_a_field_of_the_other_kind_is_refused():
    common = dict(name="probe", func=len, family="x", kind="similarity", range=(0.0, 1.0),
                  optimum=1.0, symmetric=True, reference="", title="")
    with pytest.raises(TypeError):
        TableIndex(kinds=("fuzzy",), **common)
    with pytest.raises(TypeError):
        PairIndex(inputs=("membership",), kinds=("fuzzy",), statistic="s", **common)
    with pytest.raises(ValueError, match="kinds of clustering"):
        PairIndex(inputs=("membership",), kinds=(), **common)
    with pytest.raises(ValueError, match="not a table"):
        PairIndex(inputs=("table",), kinds=("fuzzy",), **common)


@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_index_is_one_kind_with_its_fields_set(name):
    rec = REGISTRY[name]
    assert type(rec) in (TableIndex, PairIndex), name
    assert isinstance(rec, Index) and rec.func.index is rec
    if isinstance(rec, TableIndex):
        assert rec.inputs == ("table",)
        assert rec.statistic is None or rec.statistic in STATISTICS
        assert (rec.statistic is None) == (rec.state is None)  # every statistic has its state
        if rec.linear or rec.mean_state is not None:  # closed forms need the statistic
            assert rec.statistic is not None
        if rec.affine_state:  # its mean under any model is its value at the mean state
            assert rec.mean_state is not None
    else:
        assert rec.inputs and "table" not in rec.inputs
        assert rec.kinds and set(rec.kinds) <= set(KINDS)
        assert rec.kinds_y is None or (rec.kinds_y and set(rec.kinds_y) <= set(KINDS))
        assert (rec.inputs_y is None) == (rec.kinds_y is None)  # y differs in both or neither
        if rec.representation is None:  # computed from the clusterings: no pair vectors
            assert rec.prepare is None and rec.pair_mean is None and rec.value is None


# -- the floors of one call ----------------------------------------------------------------------

def _files_called(call) -> set[str]:
    """The package files (relative to the package) whose functions ``call`` runs."""
    import sys

    seen: set[str] = set()

    def profile(frame, event, arg):
        if event == "call":
            seen.add(frame.f_code.co_filename)

    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(None)
    return {str(Path(f).resolve().relative_to(PACKAGE)) for f in seen
            if Path(f).resolve().is_relative_to(PACKAGE)}


@pytest.mark.parametrize("x, y, index", [
    ([0, 0, 1, 1, 2], [0, 1, 1, 2, 2], "ari"),
    ([[30, 20], [10, 20]], None, ["rand", "nmi", "purity"]),
    ([[1.0, 0.0], [0.4, 0.6], [0.0, 1.0]], [0, 0, 1], "ndc"),
])
def test_agreement_never_passes_through_the_nulls(x, y, index):
    """An index has no null: ``agreement`` converts its input and evaluates on the floor of the
    indices (``indices/_evaluate.py``), never through ``nulls/``."""
    ca.agreement(x, y, index=index)  # every module loaded: only the call itself is watched
    called = _files_called(lambda: ca.agreement(x, y, index=index))
    assert not [f for f in called if f.startswith("nulls")], called
    assert "indices/_evaluate.py" in called


def test_no_type_check_on_tables_outside_the_tables():
    """One table protocol: the dense and the sparse table answer the same questions (margins,
    n, pairs, cells, ``dense``), so no module asks a table for its type, but the tables' own
    and ``inputs/``, which recognises what the user gave."""
    import re

    check = re.compile(r"isinstance\([^)]*(ContingencyTable|Sparse|sparse|csr|coo|spmatrix|"
                       r"sparray)|is_sparse\(|issparse\(")
    allowed = {"tables.py", "sparse_tables.py"}
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE)
        if str(where) in allowed or where.parts[0] == "inputs":
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if check.search(line) and not line.strip().startswith("#"):
                found.append(f"{where}:{number}: {line.strip()}")
    assert not found, "ask the table (table.dense, ...), not its type:\n" + "\n".join(found)


def test_an_index_is_asked_its_kind_only_inside_the_indices():
    """One place asks an index record its kind: the records answer (``rec.on_pairs``,
    ``rec.of_hard_tables``, ``indices.one_index``), so no module outside ``indices/`` tests a
    record's type (issue 42: 23 such lines in 9 modules)."""
    import re

    check = re.compile(r"isinstance\([^)]*(?<![.\w])(Index|TableIndex|PairIndex)\b\s*[,)]")
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE)
        if where.parts[0] == "indices":
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if check.search(line) and not line.strip().startswith("#"):
                found.append(f"{where}:{number}: {line.strip()}")
    assert not found, "ask the record (rec.on_pairs, rec.of_hard_tables):\n" + "\n".join(found)


def test_the_kind_questions_agree_with_the_record_types():
    for rec in REGISTRY.values():
        assert rec.on_pairs == isinstance(rec, PairIndex)
        form = rec.of_hard_tables
        if isinstance(rec, TableIndex):
            assert form is rec.func
        else:
            assert form is rec.on_table


#: At most this many modules at the top of the package besides ``__init__`` and ``__main__``
#: (issue 42): the rest live in their wings.
MAX_TOP_MODULES = 12


def test_the_top_of_the_package_holds_few_modules():
    top = sorted(p.name for p in PACKAGE.glob("*.py")
                 if p.name not in ("__init__.py", "__main__.py"))
    assert len(top) <= MAX_TOP_MODULES, top


def import_circles() -> list[list[str]]:
    """The circles of the import graph of the package's modules, every import counted (at the
    top of a module or inside a function: a late import hides a circle, it does not break it).
    A package's ``__init__`` re-exports its modules, so an arrow to a package's face is an
    arrow to its ``__init__`` only."""
    graph = {m: {t for _, t in _targets(m, p) if t in MODULES and t != m}
             for m, p in MODULES.items()}
    circles, state = [], {}

    def visit(m, path):
        state[m] = "open"
        for t in sorted(graph[m]):
            if state.get(t) == "open":
                circles.append(path[path.index(t):] + [t])
            elif t not in state:
                visit(t, path + [t])
        state[m] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    return circles


def test_no_module_imports_itself_round_a_circle():
    found = [" -> ".join(c) for c in import_circles()]
    assert not found, "import circles:\n" + "\n".join(found)


def test_the_check_sees_a_circle_through_a_late_import(tmp_path, monkeypatch):
    """The checker itself: a circle closed by an import inside a function (as the index
    records once looked the registry up in their refusals) is a circle."""
    pkg = tmp_path / ROOT
    (pkg / "indices").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "indices" / "__init__.py").write_text("")
    (pkg / "indices" / "_records.py").write_text("def f():\n    from ._registry import R\n")
    (pkg / "indices" / "_registry.py").write_text("from ._records import f\nR = {}\n")
    monkeypatch.setitem(globals(), "PACKAGE", pkg)
    monkeypatch.setitem(globals(), "MODULES", _modules())
    assert import_circles() == [[f"{ROOT}.indices._records", f"{ROOT}.indices._registry",
                                 f"{ROOT}.indices._records"]]
