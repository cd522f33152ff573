"""The API's resources, one module per app, as attributes of the clients (`client.apps.web`)."""

from .web import Apps, AsyncApps, AsyncWeb, Web

__all__ = ["Apps", "AsyncApps", "Web", "AsyncWeb"]
