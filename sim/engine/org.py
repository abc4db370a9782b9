"""The organisation as a graph: teams are nodes, links are typed edges with latency.

The graph is not decoration. It sets how long a signal takes from whoever sees a
problem to whoever may decide, and so how much a handoff costs and how fast the
teams that must work together hear from each other (sim/engine/signals.py).
Equations: docs/model.md, "Organisation".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import cast

import networkx as nx

from sim.scenario.spec import DECISION_KINDS, RISK_KINDS, Scenario, Team
from sim.units import Days, TeamId

#: Latency when two teams have no line of communication at all.
NO_PATH_LATENCY_DAYS = 10.0
#: Latency of the direct link that embedding engineering with training creates.
EMBEDDED_LATENCY_DAYS = 0.1


@dataclass(frozen=True)
class SignalPath:
    """How a signal travels from one team to another."""

    teams: tuple[TeamId, ...]
    latency_days: Days

    @property
    def hops(self) -> int:
        return max(0, len(self.teams) - 1)


class OrgGraph:
    """Queries over a scenario's organisation (with its levers applied)."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.org = scenario.org
        self.teams: dict[TeamId, Team] = {t.id: t for t in scenario.org.teams}
        #: Teams doing co-design (recipe) work, derived from the plan (``Team.core`` is ignored).
        self.core: frozenset[TeamId] = frozenset(scenario.co_design_team_ids)
        self.graph: nx.MultiDiGraph[str] = nx.MultiDiGraph()
        for t in scenario.org.teams:
            self.graph.add_node(
                t.id, headcount=t.headcount, core=t.id in self.core, name=t.name or t.id
            )
        for link in scenario.org.links:
            self.graph.add_edge(
                link.source, link.target, kind=link.kind, latency_days=link.latency_days
            )
        self._apply_engineering_lever()
        self._paths: dict[tuple[TeamId, TeamId], SignalPath] = {}

    # --- construction -------------------------------------------------------------------

    @property
    def infra_team(self) -> TeamId | None:
        return self.org.risk_owners.get("hardware")

    @property
    def training_team(self) -> TeamId:
        """The team that runs the main run: ``plan.training_team``, else the rollback holder."""
        return self.scenario.training_team_id

    def _apply_engineering_lever(self) -> None:
        infra, training = self.infra_team, self.training_team
        if infra is None or infra == training:
            return
        direct = [
            (u, v, k)
            for u, v, k in self.graph.edges(keys=True)
            if {u, v} == {infra, training} and self.graph.edges[u, v, k]["kind"] != "reporting"
        ]
        if self.scenario.levers.engineering_embedded:
            self.graph.add_edge(
                infra, training, kind="communication", latency_days=EMBEDDED_LATENCY_DAYS
            )
        else:
            # Engineering separated from training: they talk only through reporting lines.
            self.graph.remove_edges_from(direct)

    @cached_property
    def _signal_graph(self) -> nx.Graph:
        """Undirected view for signals: information can travel either way along a link."""
        g: nx.Graph[str] = nx.Graph()
        g.add_nodes_from(self.graph.nodes)
        for u, v, data in self.graph.edges(data=True):
            lat = data["latency_days"]
            if not g.has_edge(u, v) or g.edges[u, v]["latency_days"] > lat:
                g.add_edge(u, v, latency_days=lat)
        return g

    # --- queries ------------------------------------------------------------------------

    def owner(self, risk: str) -> TeamId | None:
        """The team that owns ``risk``, or None when nobody does."""
        return self.org.risk_owners.get(risk)  # type: ignore[call-overload, no-any-return]

    def decider(self, kind: str) -> TeamId:
        """The team holding the decision right ``kind``."""
        return self.org.decision_rights[kind]  # type: ignore[index]

    def signal_path(self, source: TeamId, target: TeamId) -> SignalPath:
        """Fastest path for a signal, plus ``politics_days`` for every hop it makes."""
        key = (source, target)
        if key not in self._paths:
            self._paths[key] = self._shortest(source, target)
        return self._paths[key]

    def _shortest(self, source: TeamId, target: TeamId) -> SignalPath:
        if source == target:
            return SignalPath((source,), 0.0)
        g = self._signal_graph
        try:
            latency, path = nx.single_source_dijkstra(g, source, target, weight="latency_days")
        except nx.NetworkXNoPath:
            return SignalPath((source, target), NO_PATH_LATENCY_DAYS)
        hops = len(path) - 1
        days = cast(float, latency)
        return SignalPath(tuple(path), days + self.org.politics_days * hops)

    def signal_latency(self, source: TeamId, target: TeamId) -> Days:
        return self.signal_path(source, target).latency_days

    def infra_distance_days(self) -> Days:
        """Signal latency between the hardware owner and the team running training."""
        infra = self.infra_team
        if infra is None:
            return NO_PATH_LATENCY_DAYS
        return self.signal_latency(infra, self.training_team)

    def unowned_risks(self) -> list[str]:
        return [r for r in RISK_KINDS if self.org.risk_owners.get(r) is None]  # type: ignore[call-overload]

    def single_points_of_failure(self) -> list[TeamId]:
        """Teams of one person that own a risk or hold a right, and cut vertices of the graph."""
        holders = {v for v in self.org.risk_owners.values() if v} | set(
            self.org.decision_rights.values()
        )
        spof = {tid for tid in holders if self.teams[tid].headcount == 1}
        if self._signal_graph.number_of_nodes() > 2:
            spof |= set(nx.articulation_points(self._signal_graph))
        return sorted(spof)

    def risks_owned_by(self, team: TeamId) -> list[str]:
        return [r for r, o in self.org.risk_owners.items() if o == team]

    def rights_of(self, team: TeamId) -> list[str]:
        return [k for k in DECISION_KINDS if self.org.decision_rights.get(k) == team]  # type: ignore[call-overload]

    def to_dot(self) -> str:
        """Graphviz DOT of teams, links, risk ownership and decision rights."""
        style = {
            "handoff": 'color="#1f77b4", penwidth=2',
            "communication": 'color="#2ca02c", style=dashed, dir=both',
            "reporting": 'color="#7f7f7f", style=dotted',
        }
        lines = [
            "digraph org {",
            '  rankdir=LR; bgcolor="transparent";',
            '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10];',
            '  edge [fontname="Helvetica", fontsize=8];',
        ]
        for tid, t in self.teams.items():
            risks = ", ".join(self.risks_owned_by(tid)) or "none"
            rights = ", ".join(self.rights_of(tid)) or "none"
            fill = "#fde2c8" if tid in self.core else "#dbe9f6"
            label = f"{t.name or tid}\\n{t.headcount} people\\nowns: {risks}\\ndecides: {rights}"
            lines.append(f'  "{tid}" [label="{label}", fillcolor="{fill}"];')
        unowned = self.unowned_risks()
        if unowned:
            label = "UNOWNED\\n" + "\\n".join(unowned)
            lines.append(f'  "__unowned" [label="{label}", fillcolor="#f8c4c4", shape=note];')
        for u, v, data in self.graph.edges(data=True):
            lat = data["latency_days"]
            lines.append(f'  "{u}" -> "{v}" [label="{lat:g} d", {style[data["kind"]]}];')
        lines.append("}")
        return "\n".join(lines)
