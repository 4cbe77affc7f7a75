"""webferret.search: engines, runner, pacing, router, fusion and verification.

Also callable: `webferret.search(query, **settings)` is the script facade `webferret.sync_api.search`.
"""

from webferret._facade import forward_calls

forward_calls(__name__, "search")
