"""Tests of the Digger engine (goldfields.digger)."""
