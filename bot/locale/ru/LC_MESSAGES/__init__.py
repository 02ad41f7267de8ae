"""Translations (see bot/locale/__init__.py)."""
