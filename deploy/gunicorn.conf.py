"""gunicorn settings of the two worker pools of the production layout (docs/deploy.md, "Reserved
capacity for result entry"): ``gunicorn -c deploy/gunicorn.conf.py`` with ``DMJ_POOL=write`` for
result entry and ``DMJ_POOL=read`` (the default) for everything else.

The reverse proxy sends ``/table/`` pages, table login, the scorers' entry page and every
non-GET request to the API to the write pool (deploy/nginx/dmj-pools.conf), the rest to the read
pool. Each pool has its own processes, listen queue and threads, so a queue of page reads never
holds a result entry back; the write pool's service gets the larger CPU share
(deploy/systemd/dmj-web-write.service, ``CPUWeight``).

Environment (each optional): ``DMJ_POOL`` (``read`` or ``write``), ``DMJ_BIND`` (default
127.0.0.1:8000 for reads, 127.0.0.1:8001 for writes), ``DMJ_WORKERS`` (default: CPUs + 1 for
reads, 2 for writes), ``DMJ_THREADS`` (default 3 for reads, 4 for writes). ``manage.py bench
event-day`` starts both pools with this file.
"""

import os

pool = os.environ.get("DMJ_POOL", "read")
if pool not in ("read", "write"):
    raise RuntimeError(f"DMJ_POOL: give read or write, not {pool!r}")
writes = pool == "write"

wsgi_app = "tournament.wsgi:application"
proc_name = f"dmj-{pool}"
bind = [os.environ.get("DMJ_BIND", "127.0.0.1:8001" if writes else "127.0.0.1:8000")]
worker_class = "gthread"
# Writes are short and wait on PostgreSQL's row locks: two processes keep entry going while one
# is busy; reads are CPU-bound page rendering: one process per core and one more, three threads
# each. More threads only take turns at Python's lock: at 8 a page read cost 45 % more CPU than
# at 2, and the x2 event day's entries waited behind them (docs/performance.md, "The runs of the
# eighteenth session").
workers = int(os.environ.get("DMJ_WORKERS", "2" if writes else str((os.cpu_count() or 1) + 1)))
threads = int(os.environ.get("DMJ_THREADS", "4" if writes else "3"))
timeout = 60
backlog = 2048
# An idle connection from nginx stays open this long (seconds): longer than the proxy's own
# keepalive_timeout (1 s, deploy/nginx/dmj.conf), so nginx always closes it first.
keepalive = 5
