"""One blueprint module per resource."""
