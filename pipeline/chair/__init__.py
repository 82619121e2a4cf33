"""The human Area Chair step: exact decisions on case versions, the queue, and their effect.

`core` is pure (decision matching, staleness, validation, triage ordering); `service` reads and
writes the store; `files` keeps `data/decisions.jsonl` in step; `stats` sums up each chair.
"""
