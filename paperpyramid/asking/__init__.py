"""Asking: the LLM on top of retrieval. ``answer`` writes an answer with every claim cited to a
page and checked against its passages (``support``); the strategies (``multiquery``, ``walk``,
``walkingrag``, ``pyramid_agent``) let the model choose what to retrieve, recorded step by step
(``trace``). Search itself is :mod:`paperpyramid.retrieval`; nothing there imports this package.
"""
