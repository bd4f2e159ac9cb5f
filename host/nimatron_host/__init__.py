"""Host-side tools for the Nimatron: the ``nimatron`` command and its helpers."""
