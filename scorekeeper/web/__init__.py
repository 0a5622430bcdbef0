"""The pages and the JSON API: blueprints, forms, hand forms, JSON shapes, the OpenAPI
document, PDF and CSV rendering, formatting for templates, and who may reach what.

Views parse input, call the operations and render (docs/architecture.md "Layers").
"""
