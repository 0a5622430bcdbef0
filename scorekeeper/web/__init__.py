"""The pages and the JSON API, by feature: ``evenings``, ``club``, ``tournaments`` and
``installation``, each a package from its pages down to what they show; beside them the
shell every feature uses (the check before every request, error answers, the one way a
view writes, forms, bodies, JSON shapes, PDF rendering, template filters, who may reach
what).

Views parse input, call the operations and render (docs/architecture.md "Layers").
"""
