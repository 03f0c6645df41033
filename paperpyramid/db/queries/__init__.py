"""The read queries the stages above ``db/`` ask of a corpus, one module per subject: each
function takes a :class:`~paperpyramid.db.sqlite.Connection` and returns plain typed values, so
that no module outside ``db/`` writes SQL."""
