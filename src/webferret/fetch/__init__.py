"""webferret.fetch: the fetch tiers behind one `Fetcher` port (see `fetcher.py`).

Also callable: `webferret.fetch(url, **settings)` is the script facade `webferret.ferret.fetch`.
"""

from webferret._facade import forward_calls

forward_calls(__name__, "fetch")
