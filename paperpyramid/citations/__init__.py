"""The citation graph: in-text citations linked to reference entries, and references resolved to
the articles of the corpus they name."""
