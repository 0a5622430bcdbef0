"""Storage: the models, the schema, the unit of work and what makes SQLite and PostgreSQL
behave alike under several server processes (docs/architecture.md "Layers").

Nothing here knows a game's rules; the operations call it to read and write facts.
"""
