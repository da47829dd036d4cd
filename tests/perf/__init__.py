"""Benchmarks and the load test: development tools of a source checkout, not shipped with the
application (the wheel holds only the ``tournament``, ``scoring`` and ``walls`` packages).

=================  ==========================================  =====================================
module             measures                                    run with
=================  ==========================================  =====================================
``seating``        regrouping 16-256 teams over 4-12 sessions  ``python manage.py bench seating``
``walls``          deriving and storing 1,024 wall sets        ``python manage.py bench walls``
``standings``      standings of a 1,000-player event           ``python manage.py bench standings``
``printing``       stickers and set labels of 64 MCR sets      ``python manage.py bench printing``
``entry``          result entry and confirmation per request   ``python manage.py bench entry``
``writes``         bulk writes' statements, import vs export   ``python manage.py bench writes``
``exports``        public export downloads at 64 teams         ``python manage.py bench export``
``event_day``      256 tables and 1,000 phones, open loop,     ``python manage.py bench event-day``
                   nginx + two gunicorn pools + PostgreSQL     (PostgreSQL: ``DATABASE_URL``)
``loadtest``       result entry by 50 concurrent scorers       ``python manage.py loadtest``
``played``         shared: the entry body, events played in    (used by ``entry``, ``pages``,
                   bulk, held-back sets to release             ``event_day``)
=================  ==========================================  =====================================

Every benchmark prints its figures beside a baseline measured in the same run. The modules are
imported as ``tests.perf.<module>`` with the repository root on ``sys.path``: ``manage.py`` puts
it there (its own directory), and so does pytest-django (the directory holding ``manage.py``), so
the management commands and the tests import the same modules. ``tests`` itself stays a namespace
package (no ``__init__.py``: the test modules import each other by basename). The standings and
printing benchmarks also run without Django as ``python -m tests.perf.standings`` /
``python -m tests.perf.printing`` from the repository root (not by file path: that would put
``tests/perf`` on the path, where ``walls.py`` hides the ``walls`` package). The load test needs
the ``bench`` extra (httpx, psutil): ``pip install -e '.[bench]'``.
"""
