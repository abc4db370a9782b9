"""An exercise's rows, loaded together: what views, the report and replays read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from sim.play.game import Injection
from sim.tabletop.authoring import InjectSpec
from sim.tabletop.clock import PlayRecord
from sim.tabletop.db.models import (
    ActionRating,
    Comment,
    Decision,
    Event,
    Exercise,
    HotWashItem,
    Inject,
    Participant,
    Role,
)


@dataclass(frozen=True)
class Room:
    """Everything stored about one exercise at one version (detached rows, read only)."""

    exercise: Exercise
    participants: tuple[Participant, ...]
    roles: tuple[Role, ...]
    injects: tuple[Inject, ...]
    decisions: tuple[Decision, ...]
    comments: tuple[Comment, ...]
    events: tuple[Event, ...]
    hot_wash: tuple[HotWashItem, ...]
    ratings: tuple[ActionRating, ...] = ()

    @property
    def names(self) -> dict[int, str]:
        return {p.id: p.name for p in self.participants}

    @property
    def seated(self) -> tuple[Participant, ...]:
        """The players not removed by the facilitator."""
        return tuple(p for p in self.participants if p.removed_at is None)

    def rating(self, inject_id: str, action: int) -> ActionRating | None:
        return next(
            (r for r in self.ratings if r.inject_id == inject_id and r.action == action), None
        )

    def delivered(self) -> list[Inject]:
        """The delivered injects in the order they arrived (play day, then wall clock)."""
        done = [i for i in self.injects if i.status == "delivered"]
        return sorted(done, key=lambda i: (i.delivered_day or 0.0, i.position))

    def holder(self, team: str) -> Participant | None:
        role = next((r for r in self.roles if r.team == team), None)
        if role is None or role.participant_id is None:
            return None
        return next((p for p in self.participants if p.id == role.participant_id), None)

    def decided_by(self, decision: Decision) -> str:
        """The player who made a decision, or "playbook" when the facilitator settled it."""
        if decision.participant_id is None:
            return "playbook"
        return self.names.get(decision.participant_id, "")

    def roles_of(self, participant_id: int) -> list[Role]:
        return [r for r in self.roles if r.participant_id == participant_id]

    def spec(self, inject: Inject) -> InjectSpec:
        return InjectSpec.from_dict(inject.spec)

    def waiting(self) -> list[tuple[str, InjectSpec]]:
        return [(i.inject_id, self.spec(i)) for i in self.injects if i.status == "pending"]

    def play_record(self) -> PlayRecord:
        ex = self.exercise
        injections = tuple(
            Injection(
                i.engine_step, i.engine_day or 0.0, self.spec(i).engine or "", self.spec(i).params
            )
            for i in self.injects
            if i.engine_step is not None
        )
        return PlayRecord(
            ex.scenario_yaml,
            ex.seed,
            ex.clock_day,
            tuple((d.key, d.choice) for d in self.decisions),
            tuple(sorted(injections, key=lambda j: (j.step, j.day))),
        )


def load_room(session: Session, exercise: Exercise) -> Room:
    """Read every row of ``exercise``, in a stable order."""

    def rows(model: Any, order: Any) -> tuple[Any, ...]:
        query = select(model).where(model.exercise_id == exercise.id).order_by(order)
        return tuple(session.scalars(query))

    return Room(
        exercise,
        rows(Participant, Participant.id),
        rows(Role, Role.position),
        rows(Inject, Inject.position),
        rows(Decision, Decision.index),
        rows(Comment, Comment.id),
        rows(Event, Event.id),
        rows(HotWashItem, HotWashItem.id),
        rows(ActionRating, ActionRating.id),
    )
