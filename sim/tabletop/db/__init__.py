"""A tabletop exercise's storage.

The tables, migrations, the store and its retries, room codes and keys, display-name
identity, and the room's own rules.
"""
