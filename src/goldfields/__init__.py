"""goldfields: Digging and Digger, exact rules engines, records, bots and play."""

__version__ = "0.1.0"
