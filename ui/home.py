"""Home page: what TrainingRoom is, who it is for, and where to start."""

from __future__ import annotations

import streamlit as st

USES: tuple[tuple[str, str, str, str, str], ...] = (
    (
        ":material/record_voice_over:",
        "Interview practice",
        "Asked why training a large language model is hard, and how you would organise a team "
        "to land it on time and on budget? Answer by building the plan and the team, then meet "
        "the follow-up questions as incidents in a live run, and read a debrief of what your "
        "choices did.",
        "ui/interview/page.py",
        "Start an interview practice",
    ),
    (
        ":material/groups:",
        "Leadership tabletop exercises",
        "A facilitator takes a group through a scenario. Players hold roles with real decision "
        "rights, injects land on a timeline, each decision is logged with its reason, and an "
        "after-action report closes the session.",
        "ui/tabletop/facilitator.py",
        "Run an exercise (facilitator)",
    ),
    (
        ":material/compare_arrows:",
        "Team-design comparisons",
        "Put two or more ways of organising the same project (say, a small core team with "
        "embedded engineers against a large org split into silos) through the same incidents "
        "hundreds of times, and compare the spread of schedule, cost and quality, and the "
        "chance of meeting the objective.",
        "ui/compare/page.py",
        "Compare designs",
    ),
)


def render() -> None:
    st.title("TrainingRoom")
    st.markdown(
        "#### A practice room for the people who plan and run LLM-training projects\n"
        "TrainingRoom plays a training project forward, one simulated day at a time. The "
        "organisation is part of the model: teams, who owns which risk, who may decide what, "
        "and how long a signal takes to travel from the person who spots a problem to the "
        "person who may act on it. The cluster fails now and then, loss spikes, data turns out "
        "to be flawed, budgets get cut. You pull the levers and watch what happens to the "
        "schedule, the bill and the model."
    )

    st.subheader("Three ways to use it")
    for column, (icon, title, text, page, label) in zip(st.columns(len(USES)), USES, strict=True):
        with column.container(border=True):
            st.markdown(f"**{icon} {title}**")
            st.write(text)
            st.page_link(page, label=label, icon=":material/arrow_forward:")

    st.subheader("Where to start")
    st.markdown(
        "1. **Play a project.** Pick a scenario (the loss-spike follow-up is a good first one), "
        "set the levers and the team, and run it decision by decision. The debrief at the end "
        "replays the same world with every other option and shows what each decision cost."
    )
    st.page_link("ui/play/page.py", label="Open the Play page", icon=":material/sports_esports:")
    st.markdown(
        "2. **Compare designs** through the same incidents many times, or **sweep** a grid "
        "of levers; **look inside a scenario** on the Scenario page (its objective, its "
        "organisation chart and what the training run alone takes)."
    )
    cols = st.columns(3)
    cols[0].page_link("ui/compare/page.py", label="Compare", icon=":material/compare_arrows:")
    cols[1].page_link("ui/compare/sweep.py", label="Sweep", icon=":material/grid_on:")
    cols[2].page_link("ui/scenario/page.py", label="Scenario", icon=":material/description:")
    st.markdown(
        "3. From a terminal, the same model runs without the app: "
        "`.venv/bin/python -m sim --help` lists the commands.\n"
        "4. The `docs/` folder explains the model, its sources, the scenario format, the "
        "levers, the interview rubric and the tabletop exercise."
    )
    st.page_link(
        "ui/glossary.py",
        label="New words (world, replication, scope, points...)? The Glossary",
        icon=":material/menu_book:",
    )


if __name__ == "__main__":
    render()
