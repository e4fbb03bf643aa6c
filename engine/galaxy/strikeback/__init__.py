"""Operation Strikeback: the expansion layer over the core Galaxy Defenders rules.

Each module holds one expansion rule as pure functions over plain data, so the worked
examples of the expansion rulebook can be replayed die by die. `layer.py` says which sections
are implemented and raises `NotSupportedYet` (naming the section) for the others; section
numbers in docstrings are the expansion rulebook's.
"""
