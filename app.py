"""TrainingRoom's Streamlit app: ``streamlit run app.py`` (or ``bash scripts/app.sh``).

This file only wires pages together. Each page is a thin script in ``ui/`` that
displays what ``sim`` computes; no simulation logic lives here or in a page.
"""

import streamlit as st

st.set_page_config(page_title="TrainingRoom", page_icon=":material/model_training:", layout="wide")

#: The app's pages, in menu order. To add a page, add its ``st.Page`` here.
PAGES = [
    st.Page("ui/home.py", title="Home", icon=":material/home:", default=True),
    st.Page("ui/play/page.py", title="Play", icon=":material/sports_esports:", url_path="play"),
    st.Page(
        "ui/scenario/page.py", title="Scenario", icon=":material/description:", url_path="scenario"
    ),
    st.Page(
        "ui/compare/page.py", title="Compare", icon=":material/compare_arrows:", url_path="compare"
    ),
    st.Page(
        "ui/compare/editor.py",
        title="Design editor",
        icon=":material/edit_square:",
        url_path="design",
    ),
    st.Page(
        "ui/compare/optimize.py",
        title="Optimize",
        icon=":material/travel_explore:",
        url_path="optimize",
    ),
    st.Page("ui/compare/sweep.py", title="Sweep", icon=":material/grid_on:", url_path="sweep"),
    st.Page(
        "ui/interview/page.py",
        title="Interview",
        icon=":material/record_voice_over:",
        url_path="interview",
    ),
    st.Page(
        "ui/tabletop/facilitator.py",
        title="Tabletop: facilitator",
        icon=":material/groups:",
        url_path="tabletop-facilitator",
    ),
    st.Page(
        "ui/tabletop/player.py",
        title="Tabletop: player",
        icon=":material/person:",
        url_path="tabletop-player",
    ),
    st.Page("ui/glossary.py", title="Glossary", icon=":material/menu_book:", url_path="glossary"),
]

st.navigation(PAGES).run()
