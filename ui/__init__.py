"""The app's pages: thin Streamlit scripts that display what ``sim`` computes.

Each page module runs its ``render()`` only when Streamlit executes it as a page
(``__name__ == "__main__"``), so tests can import a page's helpers safely.
"""
