"""A Python client for Bunting (`bunting serve`): feature flags, banners and content
cards over JSON-RPC 2.0 on a child process's stdin/stdout.

    from bunting import Bunting

    with Bunting.spawn(storage=":memory:") as bunting:
        flags = bunting.subscribe("featureFlags")
        bunting.change_user("ada")
        print(flags.wait_for(type="DATA_UPDATED")["cacheSnapshot"])

`AsyncBunting` (bunting.aio) has the same methods as coroutines. The OpenFeature
provider is `bunting.openfeature.BuntingProvider` (needs openfeature-sdk).
"""

from typing import Any

from . import errors, events, results
from ._methods import METHODS
from .client import Bunting, Subscription
from .events import ChannelEvent, DefinitionsEvent, UpdatesEvent
from .errors import (BinaryNotFound, BuntingError, BuntingTimeout, ChannelDisabled, ClientClosed, EventTimeout,
                     LimitReached, NotEnabled,
                     InternalError, InvalidParams, InvalidRequest, InvalidRule, MethodNotFound, MethodNotImplemented,
                     NotAllowed, NotFound, NotSynced, ParseError, ProtocolError, RequestTimeout, RPCError,
                     SDKDisabled, ServerExited, ShuttingDown, StorageError, SubscriptionEnded, TemplateError)

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    # The asyncio flavour is imported when first asked for: asyncio itself takes
    # longer to import than the rest of the client.
    if name in ("AsyncBunting", "AsyncSubscription"):
        from . import aio
        return getattr(aio, name)
    raise AttributeError("module 'bunting' has no attribute %r" % name)


__all__ = [
    "AsyncBunting", "AsyncSubscription", "Bunting", "METHODS", "Subscription", "errors", "events", "results",
    "ChannelEvent", "DefinitionsEvent", "UpdatesEvent",
    "BinaryNotFound", "BuntingError", "BuntingTimeout", "ChannelDisabled", "ClientClosed", "EventTimeout",
    "LimitReached", "NotEnabled",
    "InternalError", "InvalidParams", "InvalidRequest", "InvalidRule", "MethodNotFound", "MethodNotImplemented",
    "NotAllowed", "NotFound", "NotSynced", "ParseError", "ProtocolError", "RequestTimeout", "RPCError",
    "SDKDisabled", "ServerExited", "ShuttingDown", "StorageError", "SubscriptionEnded", "TemplateError",
]
