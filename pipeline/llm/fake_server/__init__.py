"""A loopback fake of the OpenAI, Anthropic and Gemini HTTP APIs for tests.

See `server.FakeProviderServer`. Never binds anything but 127.0.0.1 by default.
"""

from .common import Recorded
from .faults import KINDS, Fault, FaultScript
from .schema_gen import example
from .server import FAKE_KEYS, FakeProviderServer, Responder

__all__ = [
    "FAKE_KEYS", "KINDS", "Fault", "FaultScript", "FakeProviderServer", "Recorded", "Responder",
    "example",
]
