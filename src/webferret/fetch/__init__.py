"""webferret.fetch: the fetch tiers behind one `Fetcher` port (see `fetcher.py`).

Also callable: `webferret.fetch(url, **settings)` is the script facade `webferret.sync_api.fetch`.
"""

from webferret._facade import forward_calls

forward_calls(__name__, "fetch")
