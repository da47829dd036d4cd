"""Write paths for hand results and converted scores, one module per family of actions:

- :mod:`scoring.actions.entry`: entering a result (:func:`~scoring.actions.entry.submit_result`,
  the only way to store one), its score changes, table, set and entering PIN;
- :mod:`scoring.actions.confirmation`: confirm, dispute, correct, and the director's unlock of PIN
  confirmation;
- :mod:`scoring.actions.seats`: who holds a table's seats on a set, how the history names them,
  and where wrong PINs lock confirmation;
- :mod:`scoring.actions.rescoring`: converted scores of a set and the version each table played;
- :mod:`scoring.actions.fouled`: the director's fouled marks;
- :mod:`scoring.actions.describe`: a stored result for people (its sentence, notes, the fan check);
- :mod:`scoring.actions.locks`: the comparison-scope lock every action on a set takes first;
- :mod:`scoring.actions.errors`: :class:`~scoring.actions.errors.ResultError`, what they all raise.

Every action is one transaction; every change to a result writes a
:class:`~scoring.models.ResultRevision` (who, when, before, after, why). Standings are read side
(:mod:`scoring.reports`).
"""
