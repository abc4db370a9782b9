"""The package's shape: an acyclic import graph and imports only at the top of a module.

The graph is read from the source with ``ast`` (every ``import`` and ``from ... import``
naming a ``sim`` module, wherever it stands: at module level, under ``if TYPE_CHECKING``
or inside a function), so a cycle cannot hide behind a late import.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
SIM = ROOT / "sim"
#: The command line may import lazily, so ``python -m sim --help`` starts fast.
LAZY_ALLOWED = ("sim.cli",)


@dataclass(frozen=True)
class Import:
    source: str
    target: str
    line: int
    in_function: bool


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(SIM.rglob("*.py"))}


def resolve(name: str) -> str | None:
    """The sim module ``name`` refers to (a module, or the module holding a name)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str, path: Path) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(
                child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
            )
            names: list[str] = []
            if isinstance(child, ast.Import):
                names = [a.name for a in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*up, base] if base else up)
                names = [f"{base}.{a.name}" for a in child.names]
            for name in names:
                target = resolve(name) if name.split(".")[0] == "sim" else None
                if target is not None and target != module:
                    found.append(Import(module, target, child.lineno, in_function))
            visit(child, inner)

    visit(tree, False)
    return found


IMPORTS = [i for m, p in MODULES.items() for i in imports_of(m, p)]


def import_graph() -> nx.DiGraph:
    graph = nx.DiGraph()
    graph.add_nodes_from(MODULES)
    graph.add_edges_from((i.source, i.target) for i in IMPORTS)
    return graph


def test_the_reader_sees_the_engine_modules() -> None:
    # The test reads real imports: the engine's model imports its phases and the run.
    edges = set(import_graph().edges)
    assert ("sim.engine.model", "sim.engine.phases") in edges
    assert ("sim.engine.phases", "sim.engine.training") in edges
    assert ("sim.play.game", "sim.engine.model") in edges


def test_the_import_graph_of_sim_is_acyclic() -> None:
    graph = import_graph()
    cycles = sorted(nx.simple_cycles(graph), key=len)[:5]
    assert not cycles, "import cycles: " + "; ".join(" -> ".join([*c, c[0]]) for c in cycles)


def test_no_sim_module_imports_sim_modules_inside_functions() -> None:
    late = [
        f"{MODULES[i.source].relative_to(ROOT)}:{i.line}: imports {i.target} inside a function"
        for i in IMPORTS
        if i.in_function and not i.source.startswith(LAZY_ALLOWED)
    ]
    assert not late, "\n".join(late)


def _type_checking_blocks(path: Path) -> list[ast.If]:
    return [
        node
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
    ]


def test_no_module_imports_behind_type_checking() -> None:
    """``if TYPE_CHECKING:`` imports hide a cycle from the interpreter, not from readers.

    The one exception is the package's lazy public names (sim/__init__.py), which type
    checkers see through the same block.
    """
    guarded = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for module, path in MODULES.items()
        if module != "sim"
        for node in _type_checking_blocks(path)
    ]
    assert not guarded, "`if TYPE_CHECKING` blocks: " + ", ".join(guarded)


def test_engine_layers_run_from_the_scenario_up() -> None:
    """The scenario layer imports no engine module; the engine imports none of its uses."""
    graph = import_graph()
    for source, target in graph.edges:
        if source.startswith("sim.scenario."):
            assert not target.startswith(("sim.engine", "sim.play", "sim.compare")), (
                f"{source} imports {target}"
            )
        if source.startswith("sim.engine."):
            assert target.startswith(("sim.engine", "sim.scenario", "sim.units", "sim.format")), (
                f"{source} imports {target}"
            )


#: Play, interview and tabletop stand on the package-level runner, designs and summaries,
#: never on compare (a peer use); interview and tabletop may build on play's game.
PEERS_OF_COMPARE = ("sim.play", "sim.interview", "sim.tabletop")
#: Package-level modules every use may stand on; none of them imports a use.
SHARED = (
    "sim.runner",
    "sim.designs",
    "sim.summary",
    "sim.distribution",
    "sim.stats",
    "sim.intervals",
    "sim.metrics",
    "sim.units",
)
USES = ("sim.play", "sim.interview", "sim.tabletop", "sim.compare", "sim.cli")


def test_the_uses_stand_on_the_shared_runner_not_on_compare() -> None:
    """No use imports compare; the runner, designs and summaries import no use at all."""
    crossing = []
    for source, target in import_graph().edges:
        if source.startswith(PEERS_OF_COMPARE) and target.startswith("sim.compare"):
            crossing.append(f"{source} imports {target}")
        if source in SHARED and target.startswith(USES):
            crossing.append(f"{source} (shared) imports {target}")
    assert not crossing, "\n".join(crossing)


def test_the_runner_is_shared_by_every_use() -> None:
    edges = set(import_graph().edges)
    for user in ("sim.play.lessons.arms", "sim.interview.risks", "sim.tabletop.report.montecarlo"):
        assert (user, "sim.runner") in edges, f"{user} runs replications through sim.runner"


def _declared(cls: ast.ClassDef) -> set[str]:
    """Attributes a class declares: class-level names (dataclass fields) and ``__init__``'s."""
    names = {
        t.id
        for n in cls.body
        if isinstance(n, ast.AnnAssign | ast.Assign)
        for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
        if isinstance(t, ast.Name)
    }
    names |= {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}  # properties
    for fn in cls.body:
        if isinstance(fn, ast.FunctionDef) and fn.name in ("__init__", "__post_init__"):
            names |= _self_assignments(fn)
    return names


def _self_assignments(fn: ast.FunctionDef) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(fn):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target]
        for t in targets:
            for el in t.elts if isinstance(t, ast.Tuple) else [t]:
                if (
                    isinstance(el, ast.Attribute)
                    and isinstance(el.value, ast.Name)
                    and el.value.id == "self"
                ):
                    out.add(el.attr)
    return out


def test_engine_classes_declare_their_state_in_init() -> None:
    """No method of an engine class creates an attribute ``__init__`` did not declare."""
    classes = {
        cls.name: (path, cls)
        for module, path in MODULES.items()
        if module.startswith("sim.engine.")
        for cls in ast.parse(path.read_text()).body
        if isinstance(cls, ast.ClassDef)
    }

    def declared(name: str) -> set[str]:
        if name not in classes:
            return set()
        cls = classes[name][1]
        return _declared(cls).union(*(declared(ast.unparse(b)) for b in cls.bases))

    late = []
    for name, (path, cls) in classes.items():
        known = declared(name)
        for fn in cls.body:
            # Streams._start is __init__'s body, shared with its other constructor.
            if isinstance(fn, ast.FunctionDef) and fn.name not in ("__init__", "_start"):
                late += [
                    f"{path.relative_to(ROOT)}:{fn.lineno}: {name}.{fn.name} sets {attr}"
                    for attr in sorted(_self_assignments(fn) - known)
                ]
    assert not late, "\n".join(late)


def test_the_parts_change_the_project_only_through_its_methods() -> None:
    """The engine's modules never assign to the project's attributes, nor to its named parts'.

    The run never to its host's. The parts (plan, reservation, recording, staff) change
    through their own methods too: ``m.plan.tokens = ...`` is as much a write as
    ``m.tokens = ...``.
    """
    parts = {"plan", "reservation", "recording", "staff"}
    writes = []
    for module, owner in (
        ("sim.engine.phases", "m"),
        ("sim.engine.injects", "m"),
        ("sim.engine.budget", "m"),
        ("sim.engine.forecast", "m"),
        ("sim.engine.judgement", "m"),
        ("sim.engine.outcome", "m"),
        ("sim.engine.training", "p"),
    ):
        path = MODULES[module]
        for node in ast.walk(ast.parse(path.read_text())):
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AugAssign | ast.AnnAssign)
                else []
            )
            for t in targets:
                base = t.value if isinstance(t, ast.Attribute) else None
                if isinstance(base, ast.Attribute) and base.attr == owner:  # self.p.x = ...
                    base = ast.Name(owner)
                if isinstance(base, ast.Attribute) and base.attr in parts:  # m.plan.x = ...
                    base = base.value
                    if isinstance(base, ast.Attribute) and base.attr == owner:  # self.p.plan.x
                        base = ast.Name(owner)
                if isinstance(base, ast.Name) and base.id == owner:
                    writes.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(t)}")
    assert not writes, "\n".join(writes)


def test_no_module_reaches_into_another_modules_private_names() -> None:
    """``obj._name`` only where ``_name`` belongs to the same module's own classes."""
    reaches = []
    for path in MODULES.values():
        tree = ast.parse(path.read_text())
        own = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        own |= {
            a
            for n in ast.walk(tree)
            if isinstance(n, ast.FunctionDef)
            for a in _self_assignments(n)
        }
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and node.attr.startswith("_")):
                continue
            if node.attr.startswith("__") or node.attr in own:
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            reaches.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert not reaches, "\n".join(reaches)


def test_the_package_exports_its_public_names_lazily() -> None:
    import subprocess
    import sys

    import sim

    (block,) = _type_checking_blocks(MODULES["sim"])
    typed = {
        alias.asname or alias.name
        for node in ast.walk(block)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert typed == set(sim.EXPORTS), "sim/__init__.py: EXPORTS and its typed imports differ"
    for name, module in sim.EXPORTS.items():
        assert getattr(sim, name).__module__ == module, name
    assert "Game" in dir(sim)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = sim.nope  # type: ignore[attr-defined]
    probe = (
        "import sys, sim; loaded = sorted(m for m in sys.modules if m.startswith('sim.') "
        "or m in ('pandas', 'pydantic', 'simpy')); print(loaded)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", f"import sim loaded {out.stdout.strip()}"
