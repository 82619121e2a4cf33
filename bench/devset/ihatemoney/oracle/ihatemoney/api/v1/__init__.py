from .resources import api

__all__ = [
    "api",
]
