"""The Glossary page: every term TrainingRoom uses, from sim/glossary.py (as docs/glossary.md)."""

from __future__ import annotations

import streamlit as st

from sim.glossary import METHODS, TERMS

st.title("Glossary")
st.caption(
    "The words the app, the command line and the reports use. The same text is in "
    "docs/glossary.md; the terms are written once, in sim/glossary.py."
)
for term in TERMS:
    st.subheader(term.name, anchor=term.id)
    st.markdown(term.meaning)
st.subheader("Statistical methods", anchor="methods")
st.markdown("\n".join(f"- [{name}]({link}): {why}." for name, why, link in METHODS))
