"""Similo web element localisation benchmark: real element pairs from popular sites, each
recorded on an old version of the site and identified by hand on its new version.

Every target becomes a :class:`~resolver.SemanticElementRef`, every new version a nested
accessibility tree of its candidate elements; the resolver's answers (or refusals) are
compared with the ground truth and with a Similo-style weighted-property baseline that always
answers. Run ``python -m benchmarks.similo --help``. The data is read at run time from the
shared corpora (``$RESOLVER_SIMILO``, else ``<corpora>/similo-tune``) and never copied.
"""
